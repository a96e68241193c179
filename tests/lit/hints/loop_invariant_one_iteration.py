# RUN: %check-hints %s
# A computation under `if t == n - 1` in `for t in range(...)` runs on one iteration: the
# loop's variable takes each value once, so there is nothing to hoist. The same
# computation outside the guard runs on every iteration and is reported.
import torch

device = torch.device("cuda")
model = torch.nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
done = torch.zeros(4, device=device)
n = 128
for update in range(100):
    with torch.no_grad():
        values = model(torch.randn(n + 1, 4, device=device))
    returns = torch.zeros(n, 4, device=device)
    for t in range(n):
        if t == n - 1:
            nonterminal = 1.0 - done  # one iteration: near miss
        else:
            nonterminal = 1.0 - values[t + 1]
        mask = torch.exp(done)  # expected-hint HARP301
        returns[t] = values[t] * nonterminal * mask
    loss = (model(torch.randn(n, 4, device=device)) * returns).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
