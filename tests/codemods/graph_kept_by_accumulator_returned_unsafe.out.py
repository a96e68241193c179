import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(6)]


def train(epochs):
    total = torch.zeros(())  # over every epoch: every step's autograd nodes stay
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            total = total + loss.detach() * x.shape[0]
    return total  # the caller could read its history: unproved


print(round(train(3).item(), 5))
