# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Two syncs in one iteration with nothing queued on the device between them: the first
# waits for the iteration's work, the second finds the device idle and only copies, and
# removing the first alone moves the wait to the second: both are the aggressive level's.
# Near miss: a tensor op between two syncs queues work that the later one waits for.
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(8, 8).to(device)
frames, depths, totals = [], [], []
with torch.no_grad():
    for x in [torch.randn(4, 8, device=device) for _ in range(100)]:
        rgb = model(x)
        depth = rgb.mean(1)
        frames.append(rgb.cpu().numpy())  # expected-hint@aggressive HARP201
        depths.append(depth.cpu().numpy())  # expected-hint@aggressive HARP201
        totals.append(model(rgb).sum().cpu().numpy())  # expected-hint@aggressive HARP201
print(len(frames), len(depths), len(totals))
