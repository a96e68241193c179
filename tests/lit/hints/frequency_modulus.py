# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# How often a guarded statement runs: `step % 4 == 0` keeps a quarter of the iterations
# (reported at the default level, with a medium-risk condition), `step % 100 == 0` one in
# a hundred (a high-risk periodic guard: aggressive level only).
import torch

device = torch.device("cuda")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
EVERY = 4
often, rarely, named = 0.0, 0.0, 0.0
for step in range(10000):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    # a wait per parameter (one per step alone would be the aggressive level's)
    if step % 4 == 0:
        for p in model.parameters():
            often += p.grad.norm().item()  # expected-hint HARP201
    if step % EVERY == 0:
        for p in model.parameters():
            named += p.grad.norm().item()  # expected-hint HARP201
    if step % 100 == 0:
        for p in model.parameters():
            rarely += p.grad.norm().item()  # expected-hint@aggressive HARP201
print(often, named, rarely)
