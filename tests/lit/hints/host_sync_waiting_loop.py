# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# RUN: %expect-exit 1 %harp analyze --no-config --level aggressive --select HARP201 --output-format full %s \
# RUN:   | FileCheck --check-prefix=WAIT %s
# A loop that already waits every iteration, for a round trip far longer than a device sync
# (a remote forward over RPC, a Hugging Face generation), loses a sync's cost in that wait:
# such syncs are reported only at the aggressive level, with the wait named. The instance
# is found through a parameter every call passes it for, an attribute stored once, and the
# functions and methods the loop calls.
# AGGRESSIVE: host_sync_waiting_loop.py:53: unexpected HARP201
# AGGRESSIVE: host_sync_waiting_loop.py:87: unexpected HARP201
# AGGRESSIVE: host_sync_waiting_loop.py:156: unexpected HARP201
# WAIT: host_sync_waiting_loop.py:53:24: HARP201
# WAIT: the loop waits every iteration (`torch.distributed.rpc.rpc_sync` in `remote_method` in `RemoteNet.forward`)
# WAIT: host_sync_waiting_loop.py:87:26: HARP201
# WAIT: the loop waits every iteration (`.generate(max_new_tokens=...)` in `CachedGenerator.scores`)
import torch
import torch.distributed.rpc as rpc
from torch import nn


def call_method(method, rref, *args):
    return method(rref.local_value(), *args)


def remote_method(method, rref, *args):
    return rpc.rpc_sync(rref.owner(), call_method, args=[method, rref] + list(args))


class Server(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2).cuda()

    def forward(self, x):
        return self.net(x.cuda()).cpu()


class RemoteNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.server = rpc.remote("ps", Server)

    def forward(self, x):
        return remote_method(Server.forward, self.server, x)


def evaluate(loader, model):
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            pred = model(data).argmax(dim=1).cuda()
            correct += pred.eq(target.cuda()).sum().item()
    return correct


def run_remote(loader):
    print(evaluate(loader, RemoteNet()))


class CachedGenerator:
    def __init__(self, model):
        self.model = model
        self.cache = {}

    def scores(self, label, **inputs):
        if label in self.cache:
            return self.cache[label]
        out = self.model.generate(max_new_tokens=len(label), output_scores=True, **inputs)
        self.cache[label] = out.scores
        return out.scores


class LabelScorer:
    def __init__(self, model, labels):
        self.model = model
        self.labels = labels

    def fit(self):
        self.generator = CachedGenerator(self.model)
        return self

    def predict_one(self, inputs):
        probs = []
        for label in self.labels:
            p = torch.softmax(torch.vstack(self.generator.scores(label, **inputs)), dim=-1)
            probs.append(torch.prod(p[:, 0]).item())
        return probs


# Near misses, reported at the default level: the same loops whose model runs here.
class LocalNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2).cuda()

    def forward(self, x):
        return self.net(x.cuda())


def evaluate_local(loader, model):
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            pred = model(data).argmax(dim=1)
            correct += pred.eq(target.cuda()).sum().item()  # expected-hint@aggressive HARP201
    return correct


def run_local(loader):
    print(evaluate_local(on_device(loader), LocalNet()))


# A parameter given instances of two classes: which forward runs is not known, so the
# loop is not known to wait.
def evaluate_either(loader, model):
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            pred = model(data).argmax(dim=1).cuda()
            correct += pred.eq(target.cuda()).sum().item()  # expected-hint@aggressive HARP201
    return correct


def run_either(loader):
    batches = on_device(loader)
    print(evaluate_either(batches, RemoteNet()), evaluate_either(batches, LocalNet()))


# `generate` without any of its generation keywords may be anything: no wait is assumed.
class Sampler:
    def __init__(self, source):
        self.source = source
        self.net = nn.Linear(4, 1).cuda()

    def draws(self, n):
        totals = []
        with torch.no_grad():
            for _ in range(n):
                sample = self.source.generate(n)
                out = self.net(torch.as_tensor(sample).cuda())
                totals.append(out.sum().item())  # expected-hint@aggressive HARP201
        return totals


# The caller may come first in the file: `evaluate_later` still runs `RemoteNet.forward`.
def run_remote_first(loader):
    print(evaluate_later(loader, RemoteNet()))


def evaluate_later(loader, model):
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            pred = model(data).argmax(dim=1).cuda()
            correct += pred.eq(target.cuda()).sum().item()
    return correct


# A parameter that shadows a global remote model is whatever its callers pass: here a
# local one, so the loop does not wait.
net = RemoteNet()


def run_shadowed(loader):
    print(evaluate_shadowed(on_device(loader), LocalNet()))


def evaluate_shadowed(loader, net):
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            pred = net(data).argmax(dim=1).cuda()
            correct += pred.eq(target.cuda()).sum().item()  # expected-hint@aggressive HARP201
    return correct


# The near misses above take batches already on the device: a batch copied there in the
# loop (`target.cuda()` of a loader's batch) is a wait of its own (host_sync_copied_batch.py).
def on_device(loader):
    return [(x.cuda(), y.cuda()) for x, y in loader]

