# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A field of a batch a torch DataLoader hands out is in host memory: the default collate,
# or a collate function of the program that moves nothing to a device, stacks the items
# where they are. Reading its elements one at a time waits for no device (a synthesizer's
# stop-token mask built from each item's length), so it is no hint. The same field moved
# to the device first, or a collate function that moves the batch itself, is one.
from functools import partial

import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
model = torch.nn.Linear(8, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def collate_on_host(batch, r):
    texts = torch.stack([b[0] for b in batch])
    lengths = torch.tensor([b[1] for b in batch]) // r
    return texts, lengths


def collate_on_device(batch):
    texts = torch.stack([b[0] for b in batch]).to(device)
    lengths = torch.tensor([b[1] for b in batch]).to(device)
    return texts, lengths


def train(dataset, steps):
    plain = DataLoader(dataset, batch_size=16, num_workers=2, pin_memory=True)
    for epoch in range(steps):
        for i, (texts, lengths) in enumerate(plain, 1):
            stop = torch.ones(texts.shape[0], 8)
            for j, k in enumerate(lengths):
                stop[j, :int(k)] = 0
            moved = lengths.to(device)
            for j, k in enumerate(moved):  # expected-hint HARP401
                stop[j, :int(k)] = 0
            loss = (model(texts.to(device)) * stop.to(device)).sum()  # expected-hint@aggressive HARP202
            opt.zero_grad()
            loss.backward()
            opt.step()
    collate = partial(collate_on_host, r=2)
    custom = DataLoader(dataset, batch_size=16, num_workers=2, pin_memory=True,
                        collate_fn=collate)
    for epoch in range(steps):
        for texts, lengths in custom:
            stop = torch.ones(texts.shape[0], 8)
            for j, k in enumerate(lengths):
                stop[j, :int(k)] = 0
            loss = (model(texts.to(device)) * stop.to(device)).sum()  # expected-hint@aggressive HARP202
            opt.zero_grad()
            loss.backward()
            opt.step()
    moving = DataLoader(dataset, batch_size=16, num_workers=2, pin_memory=True,
                        collate_fn=collate_on_device)
    for epoch in range(steps):
        for texts, lengths in moving:
            stop = torch.ones(texts.shape[0], 8, device=device)
            for j, k in enumerate(lengths):  # expected-hint HARP401
                stop[j, :int(k)] = 0
            loss = (model(texts) * stop).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
