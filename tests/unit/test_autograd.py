"""Autograd facts the gradient rules ask: which backward a value reaches, what an
optimizer holds, and whether a forward's inputs carry a gradient."""

from harp_ir import autograd
from harp_ir.analysis import host_module, string_attr, walk
from harp_ir.frontend.lower import lower_source

GAN = """\
import itertools
import torch
from torch import nn, optim

G = nn.Linear(4, 8)
D = nn.Linear(8, 1)
g_opt = optim.Adam(G.parameters())
both = optim.SGD(itertools.chain(G.parameters(), D.parameters()), lr=0.1)


def step(x, gpu):
    z = torch.rand(16, 4)
    if gpu:
        x, z = x.cuda(), z.cuda()
    fake = G(z)
    loss = D(fake).mean()
    loss.backward()
    critic = D(G(x) + fake)
    return critic
"""


def calls(module, method):
    return [o for o in walk(module.operation) if o.name == "host.call"
            and string_attr(o, "method") == method]


def forward_at(module, line, column=None):
    at = f":{line}:{column or ''}"
    return next(o for o in walk(module.operation) if o.name == "host.call"
                and autograd.calls_module(o) and at in str(o.location))


def test_flow_names_the_backward_a_value_reaches(ctx):
    module = lower_source(GAN, "gan.py")
    fake = forward_at(module, 15)
    reached = autograd.flow(fake.result)
    assert [b for b in reached.backwards] == calls(module, "backward")
    assert reached.returns  # `fake` is also part of what `step` returns


def test_an_optimizer_holds_the_modules_whose_parameters_it_is_given(ctx):
    module = lower_source(GAN, "gan.py")
    made = {string_attr(o, "qualname").rsplit(".", 1)[-1]: o for o in walk(module.operation)
            if o.name == "host.call" and string_attr(o, "harp.kind") == "optimizer"}
    G = autograd.module_key(forward_at(module, 15).operands[0])
    D = autograd.module_key(forward_at(module, 16).operands[0])
    assert autograd.held_by(made["Adam"]) == {G}
    assert autograd.held_by(made["SGD"]) == {G, D}


def test_inputs_rebound_in_place_or_unpacked_pairwise_keep_their_source(ctx):
    module = lower_source(GAN, "gan.py")
    optimized = autograd.optimized_modules(host_module(forward_at(module, 15)))
    z = forward_at(module, 15).operands[1]  # `torch.rand`, or its `.cuda()` copy
    assert autograd.gradient_free(z, optimized) == "proved"
    summed = forward_at(module, 18, 14).operands[1]  # `G(x) + fake`: a trained module's output
    assert autograd.gradient_free(summed, optimized) == "no"
