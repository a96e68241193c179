# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A loop inside the training loop is part of the training work when it runs on most
# steps (acting between updates, a per-element loss); under a guard that picks few steps
# (samples written every `eval_every` steps) it is not: a per-element cost there is the
# aggressive level's, while the same loop run on every step is reported.
import numpy as np
import torch

device = torch.device("cuda")
model = torch.nn.Linear(8, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def np_now(x):
    return x.detach().cpu().numpy()


def train(loader, eval_every, num_samples):
    for step, (x, y) in enumerate(loader):
        out = model(x.to(device))
        loss = (out - y.to(device)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % eval_every == 0:
            for k in range(num_samples):  # expected-hint@aggressive HARP401
                np.save(f"sample_{step}_{k}.npy", np_now(out[k]))
        for k in range(num_samples):  # expected-hint HARP401
            np.save(f"last_{k}.npy", np_now(out[k]))
