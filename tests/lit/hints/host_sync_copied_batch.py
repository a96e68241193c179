# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck --check-prefix=AGGRESSIVE %s
# A loader handed in from outside the program (no call in it passes one) whose batch the
# loop copies to the device, its fields in a comprehension or one by one: each copy from
# pageable memory waits for the work queued before it, so a `.item()` beside it adds
# little and is the aggressive level's.
# AGGRESSIVE: host_sync_copied_batch.py:22: unexpected HARP201
# AGGRESSIVE: host_sync_copied_batch.py:23: unexpected HARP201
# AGGRESSIVE: host_sync_copied_batch.py:34: unexpected HARP201
import torch


def train_epoch(train_loader, model, loss_fn, optimizer):
    losses, total = [], 0.0
    for batch_idx, (data, target) in enumerate(train_loader):
        if not type(data) in (tuple, list):
            data = (data,)
        data = tuple(d.cuda() for d in data)
        target = target.cuda()
        loss = loss_fn(model(*data), target)
        optimizer.zero_grad()
        losses.append(loss.item())
        total += loss.item()
        loss.backward()
        optimizer.step()
    return losses, total


def fit(loader, model, loss_fn, optimizer):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        print(loss.item())
        loss.backward()
        optimizer.step()


# Near miss: batches made on the device wait for nothing when the loop takes them.
def fit_resident(model, loss_fn, optimizer):
    batches = [(torch.randn(8, 4, device="cuda"), torch.randn(8, 1, device="cuda"))
               for _ in range(100)]
    losses = []
    for x, y in batches:
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        losses.append(loss.item())  # expected-hint@aggressive HARP201
        loss.backward()
        optimizer.step()
    return losses
