# twist: the sum runs over epochs and an exception in an inner loop reaches a handler that reads it
# expect: HARP201 declined "an exception leaving the loop reaches a handler that reads `total`"
# level: aggressive
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs = [torch.randn(4, 3).to(device) for _ in range(5)]
total = 0.0
try:
    for epoch in range(3):
        for i, x in enumerate(xs):
            if epoch == 2 and i == 3:
                raise RuntimeError("stop")
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
except RuntimeError:
    print(type(total).__name__, f"{total:.4f}")
