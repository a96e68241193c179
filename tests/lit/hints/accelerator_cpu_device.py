# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A name called `device` bound only to the CPU (`device = torch.device('cpu')`, the GPU
# line commented out, as jcjohnson's examples have it) places nothing on an accelerator:
# a hand-written SGD step over the parameters costs microseconds of dispatch there, the
# aggressive level's (bound to a GPU when there is one, the same step is the default's:
# hints/parameter_loop.py).
import torch

device = torch.device("cpu")
# device = torch.device("cuda")  # Uncomment this to run on GPU
x = torch.randn(64, 1000, device=device)
y = torch.randn(64, 10, device=device)
model = torch.nn.Sequential(torch.nn.Linear(1000, 100), torch.nn.ReLU(),
                            torch.nn.Linear(100, 10)).to(device)
for t in range(500):
    loss = torch.nn.functional.mse_loss(model(x), y)
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():  # expected-hint@aggressive HARP405
            param -= 1e-4 * param.grad

