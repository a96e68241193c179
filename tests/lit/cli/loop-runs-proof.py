# A fix that moves code out of a loop needs the loop to run at least once; harp proves
# it where the program shows it, and otherwise leaves it speculated (the fix is unsafe).
# RUN: %expect-exit 1 %harp analyze --level aggressive --output-format full %s | FileCheck %s
import os

import torch

device = torch.device("cuda")
w = torch.randn(8, 1)
scale = float(os.environ.get("SCALE", "1"))
n, batch = 1000, 100
epochs = max(1, int(6 * scale))

# CHECK: loop-runs the `for i` loop (line 15) (proved, low risk: `range` runs at least 300 times)
for i in range(300):
    a = w.to(device)
# CHECK: loop-runs the `for start` loop (line 18) (proved, low risk: `range` runs at least once)
for start in range(0, n, batch):
    b = w.to(device)
# CHECK: loop-runs the `for epoch` loop (line 21) (proved, low risk: `range` runs at least once)
for epoch in range(epochs):
    c = w.to(device)
# CHECK: loop-runs the `for name` loop (line 24) (proved, low risk: it iterates over 2 listed values)
for name in ["a", "b"]:
    d = w.to(device)
# CHECK: loop-runs the `while` loop (line 27) (proved, low risk: `while True` runs until a `break`)
while True:
    e = w.to(device)
    if torch.rand(()) > 0.5:
        break
# Near misses: a bound from the environment, a step of unknown sign, a length.
# CHECK: loop-runs the `for j` loop (line 33) (speculated, low risk: a loop is assumed to run at least once)
for j in range(int(6 * scale)):
    f = w.to(device)
# CHECK: loop-runs the `for k` loop (line 36) (speculated, low risk: a loop is assumed to run at least once)
for k in range(0, n, int(scale)):
    g = w.to(device)
# CHECK: loop-runs the `for m` loop (line 39) (speculated, low risk: a loop is assumed to run at least once)
for m in range(len(os.listdir("."))):
    h = w.to(device)
