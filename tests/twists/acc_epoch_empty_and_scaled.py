# twist: the sum runs over epochs whose inner loop is sometimes empty, and is read and reset between them
# expect: HARP201 fixed
# level: aggressive
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs = [torch.randn(4, 3).to(device) for _ in range(5)]
epoch_loss = 0.0
for epoch in range(4):
    batches = xs if epoch % 2 == 0 else []  # odd epochs see no batch: the sum stays 0.0
    for x in batches:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    print(epoch, type(epoch_loss).__name__, f"{epoch_loss:.6f}")
    epoch_loss = 0.0
print(type(epoch_loss).__name__, epoch_loss)
