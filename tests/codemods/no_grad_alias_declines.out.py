import torch as T

model = T.nn.Linear(3, 1)
x = T.ones(1, 3)
for i in range(2):
    y = model(x)
print(y.sum().item())
