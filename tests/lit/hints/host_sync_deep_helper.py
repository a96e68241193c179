# RUN: %check-hints %s
# A per-parameter sync in a helper three calls below the loop of steps (a trainer class's
# `run_loop` -> `run_step` -> `optimize` -> `_log_grad_norm`, one branch of a config flag):
# every iteration of the parameter loop runs on every step.
import torch


class TrainLoop:
    def __init__(self, model, data, fp16=False):
        self.model, self.data, self.fp16 = model.to("cuda"), data, fp16
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def run_loop(self):
        for x in self.data:
            self.run_step(x.to("cuda"))

    def run_step(self, x):
        self.opt.zero_grad()
        self.model(x).sum().backward()
        if self.fp16:
            self.optimize_fp16()
        else:
            self.optimize()

    def optimize(self):
        self._log_grad_norm()
        self.opt.step()

    def optimize_fp16(self):
        self.opt.step()

    def _log_grad_norm(self):
        sqsum = 0.0
        for p in self.model.parameters():
            sqsum += (p.grad ** 2).sum().item()  # expected-hint HARP201
        return sqsum ** 0.5


TrainLoop(torch.nn.Linear(4, 1), [torch.randn(8, 4) for _ in range(100)]).run_loop()
