# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
import torch

model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = torch.nn.MSELoss()
loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]

# Positives: the loss has a graph (backward runs on it) and the sum keeps it. Backward has
# freed the tensors each graph saved, so the sum keeps autograd nodes only: across the
# whole run that grows without bound (default level); a sum rebound every epoch, or a
# local of a per-epoch function, lets them go (aggressive level).
for epoch in range(5):
    avg_cost = 0
    for x, y in loader:
        opt.zero_grad()
        cost = criterion(model(x), y)
        cost.backward()
        opt.step()
        avg_cost += cost / len(loader)  # expected-hint@aggressive HARP504
    print(epoch, float(avg_cost))  # expected-hint@aggressive HARP201

total = 0.0
losses = []
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    total = total + loss * x.size(0)  # expected-hint HARP504
    losses.append(loss)  # expected-hint HARP504


def train_epoch(batches):
    running = 0
    for x, y in batches:
        opt.zero_grad()
        batch_loss = criterion(model(x), y)
        batch_loss.backward()
        opt.step()
        running += batch_loss  # expected-hint@aggressive HARP504
    return running.item()


# Near misses: a number, a detached value or `.data` is accumulated; the sum is the one
# backpropagated (gradient accumulation); backward keeps the graph; no backward at all.
running_loss = 0.0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    running_loss += loss.item()  # expected-hint@aggressive HARP201
    running_loss += loss.detach()
    running_loss += loss.data
for x, y in loader:
    accumulated = 0
    for part in (x[:4], x[4:]):
        piece = criterion(model(part), y[:4])
        accumulated += piece
    accumulated.backward()
kept = 0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward(retain_graph=True)
    kept += loss
with torch.no_grad():
    evaluated = 0
    for x, y in loader:
        evaluated += criterion(model(x), y)
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    loss = criterion(model(x), y)  # rebound: this graph is alive and backpropagated below
    retained = 0
    retained += loss
    retained.backward()
