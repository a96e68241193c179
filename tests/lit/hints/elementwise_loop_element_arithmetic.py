# RUN: %check-hints %s
# A loop over a batch's elements is element-wise work when its arithmetic reads the
# element. A loader's batch of file paths renamed one by one (`p.replace(root, root +
# "_cropped")`: the only arithmetic joins two other strings) runs no framework op per
# element, whatever the batch is assumed to hold.
import torch
from torch.utils.data import DataLoader

root = "data/faces"
loader = DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 3)), batch_size=16)
model = torch.nn.Linear(3, 1)
crop_paths = []
norms = []

with torch.no_grad():
    for x, b_paths in loader:
        crops = [p.replace(root, root + "_cropped") for p in b_paths]
        crop_paths.extend(crops)
        model(x)

for x, paths in loader:
    for row in x:  # expected-hint HARP401
        scaled = row * 2.0
        norms.append(scaled.norm())
