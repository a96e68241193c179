import torch as T

model = T.nn.Linear(3, 1)
x = T.ones(1, 3)
n = 20
for i in range(n):
    y = model(x)
print(y.sum().item())
