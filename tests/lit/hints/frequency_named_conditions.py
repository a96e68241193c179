# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A guard is read for what it tests, also through the names the step binds to its parts
# (`step_eval = step % interval == 0`) and through `or`: `epoch_end or step_eval` holds on
# the last batch of each epoch or every `interval` steps, rare either way, so a cost under
# it is the aggressive level's; `warm or step_eval` holds on the first thousand steps, so
# it is reported. `i` of `enumerate(loader, 1)` takes each value once, also when the batch
# is unpacked in the target (`for i, (x, y) in ...`).
import torch

device = torch.device("cuda")
model = torch.nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader, interval, steps_per_epoch):
    rare, often, last = 0.0, 0.0, 0.0
    for epoch in range(100):
        for i, (x, y) in enumerate(loader, 1):
            loss = (model(x.to(device)) - y.to(device)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            step = epoch * steps_per_epoch + i
            epoch_end = i == steps_per_epoch
            step_eval = interval > 0 and step % interval == 0
            if epoch_end or step_eval:
                for p in model.parameters():
                    rare += p.grad.norm().item()  # expected-hint@aggressive HARP201
            warm = step < 1000
            if warm or step_eval:
                for p in model.parameters():
                    often += p.grad.norm().item()  # expected-hint HARP201
            if i == steps_per_epoch:
                for p in model.parameters():
                    last += p.grad.norm().item()  # expected-hint@aggressive HARP201
    return rare, often, last
