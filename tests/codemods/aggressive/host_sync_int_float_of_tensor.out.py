# Two syncs side by side, a count (`int`) and a sum (`float`), with nothing queued on the
# device between them: each alone only moves the wait to the other, so both are the
# aggressive level's; there, both are kept on the device and converted once.
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(50)]
hits = 0
seen = 0.0
for x, y in data:
    x, y = x.to(device), y.to(device)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hits += (model(x).argmax(1) == y).sum().detach().long()  # a count: exact on the device too
    seen += loss.detach().double()
seen = seen.item() if torch.is_tensor(seen) else seen
hits = hits.item() if torch.is_tensor(hits) else hits
print(hits, round(seen, 6))
