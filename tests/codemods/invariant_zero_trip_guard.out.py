import torch


def project(W, V, steps):
    scores = []
    if range(steps):
        w_inv = torch.linalg.inv(W)
        sum_hoisted = (w_inv @ V).sum()
    for step in range(steps):
        scores.append(round(float(sum_hoisted), 3) + step)
    return scores


torch.manual_seed(0)
W = torch.randn(8, 8) + 8 * torch.eye(8)
V = torch.randn(8, 8)
print(project(W, V, 3), project(W, V, 0))
# a matrix `inv` rejects: the original never inverts it when the loop runs zero times
print(project(torch.zeros(3, 4), V, 0))
