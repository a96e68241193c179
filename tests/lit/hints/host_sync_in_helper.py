# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A sync in a helper waits where the helper is called: `to_np(x)` called for each
# parameter's histogram, or a logger's image conversion called for each of a step's
# images, waits once per element on every training step; what it waits for is logged,
# which blind readers judged FALSE (the logging needs the values, and costs more than the
# waits): the aggressive level. A helper whose value the step computes on waits per
# element at the default level. Near misses: a helper called once a step (one wait a
# step, aggressive), one called for each element only every 100 steps, one whose sync is
# under a test, one that runs the step itself, one that also tests the value it waited for
# (the host needs it there: aggressive).
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def to_np(x):
    return x.data.cpu().numpy()  # expected-hint@aggressive HARP201


def to_image(t):
    image = 127.5 * (t[0].cpu().float().numpy() + 1.0)  # expected-hint@aggressive HARP201
    return image.astype("uint8")


def norm_of(p):
    return p.grad.norm().item()  # expected-hint HARP201


def checked_norm(p):
    value = p.grad.norm().item()  # expected-hint@aggressive HARP201
    if value > 1e3:
        print("large gradient")
    return value


def scalar(t):
    return t.item()  # expected-hint@aggressive HARP201


def rare_np(x):
    return x.detach().cpu().numpy()  # expected-hint@aggressive HARP201


def maybe_np(x, host):
    if host:
        return x.cpu().numpy()
    return x


class Logger:
    def __init__(self, writer):
        self.writer = writer
        self.windows = {}

    def log(self, step, images):
        for name, t in images.items():
            if name not in self.windows:
                self.windows[name] = self.writer.image(to_image(t))
            else:
                self.writer.image(to_image(t), win=self.windows[name])


def train(loader, writer):
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
    opt = torch.optim.Adam(model.parameters())
    logger = Logger(writer)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = nn.functional.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        for tag, value in model.named_parameters():
            writer.add_histogram(tag, to_np(value), step)
            writer.add_histogram(tag + "/grad", to_np(value.grad), step)
        logger.log(step, {"input": x, "output": out})
        total = 0.0
        for p in model.parameters():
            total += norm_of(p) ** 2
        for p in model.parameters():
            total += checked_norm(p)
        writer.add_scalar("loss", scalar(loss), step)
        if step % 100 == 0:
            for tag, value in model.named_parameters():
                writer.add_histogram(tag, rare_np(value), step)
        for tag, value in model.named_parameters():
            writer.add_histogram(tag, maybe_np(value, step > 10), step)


def run_batch(model, opt, x):
    """Near miss: a function that runs the step itself returns its loss as a number: the
    one wait a step is the loop's own, not a helper's (minGPT's `_run_batch`)."""
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def train_steps(loader):
    model = nn.Linear(8, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for x in loader:
        losses.append(run_batch(model, opt, x.to(device)))
    return losses


def as_number(t):
    return t.item()  # expected-hint@aggressive HARP201


def train_epochs(epochs, steps):
    """Near miss: the helper runs once a step of a loop whose step is a call of the
    program's own function (one wait a step, not one per element of it)."""
    model = nn.Linear(8, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    total = 0.0
    for epoch in range(epochs):
        for _ in range(steps):
            loss = run_batch_loss(model, opt, torch.randn(32, 8, device=device))
            total += as_number(loss)
    return total


def run_batch_loss(model, opt, x):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss
