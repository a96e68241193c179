import torch

torch.manual_seed(0)
x = torch.randn(6, 4)
window = torch.randn(4, 4)
out = torch.zeros(6, 4, 4)
# row (4,) times window (4, 4) is (4, 4) per row; over the whole x (6, 4) it does not
# broadcast: window has as many dimensions as x, so the loop is not vectorized
for i in range(len(x)):
    out[i] = x[i] * window
print(round(float(out.sum()), 4))
