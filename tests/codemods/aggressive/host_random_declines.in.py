import numpy as np
import torch

cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
device = torch.device("cuda" if cuda else "cpu")
model = torch.nn.Linear(10, 1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
n = (8, 10)
for step in range(100):
    scaled = Tensor(0.75 * np.random.normal(0, 1, (8, 10)))  # not the draw alone
    drawn = np.random.normal(0, 1, (8, 10))
    named = Tensor(drawn)  # drawn in another statement
    sized = Tensor(np.random.normal(0, 1, n))  # an int or a tuple?
    typed = torch.randn(8, 10).to(device, non_blocking=True)  # more than a move
    loss = model(scaled + named + sized + typed).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
