# The buffer's `.to(...)` argument is a parameter: a device by its name only (a dtype would
# make `device=` wrong), so the rewrite is not safe and harp declines without --unsafe-fixes.
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 5)

    def forward(self, x, target_device):
        outputs = torch.zeros(2, 1000, 500).to(target_device)
        outputs[0, :4, :5] = self.fc(x)
        return outputs[0, :4, :5]


model = Decoder().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in [torch.randn(4, 3) for _ in range(5)]:
    loss = model(x.to(device), device).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print([round(v, 5) for v in model.fc.weight.flatten().tolist()])
