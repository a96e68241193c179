# RUN: %check-hints %s
# RUN: not %check-hints --level aggressive %s 2>&1 | FileCheck %s
# CHECK: graph_round_trip_guarded.py:20: unexpected HARP204
import torch

model = torch.nn.Linear(4, 4).cuda()
xs = [torch.randn(2, 4) for _ in range(3)]
# A guard on the way: the loss reduced into a tensor for a log line every 100 steps is a
# round trip on 1 step in 100 (the aggressive level's, as the second RUN line checks).
opt = torch.optim.SGD(model.parameters(), lr=0.1)
running, train_steps = 0.0, 0
for x in xs:
    loss = model(x.cuda()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
    train_steps += 1
    if train_steps % 100 == 0:
        avg = torch.tensor(running / 100, device="cuda")
        running = 0.0
