# A large buffer (a million numbers) made on the host and moved in a model's forward, on
# every training step: made on the device instead (`device=` proved a device by its
# definition).
import torch
from torch import nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 5)

    def forward(self, x):
        outputs = torch.zeros(2, 1000, 500, dtype=torch.float64, device=device)
        outputs[0, :4, :5] = self.fc(x).double()
        return outputs[0, :4, :5] + outputs[1, :4, :5]


model = Decoder().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in [torch.randn(4, 3) for _ in range(5)]:
    loss = model(x.to(device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print([round(v, 5) for v in model.fc.weight.flatten().tolist()])
