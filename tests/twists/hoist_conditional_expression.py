# twist: the invariant call is in the untaken branch of a conditional expression; run
# before the loop it raises on a machine without CUDA
# expect: HARP202 unsafe "it needs the loop to run at least once"
import torch

torch.manual_seed(0)
weights = torch.randn(3, 3)
use_cuda = torch.cuda.is_available()
for x in [torch.randn(3) for _ in range(40)]:
    w = weights.to("cuda") if use_cuda else weights
    print(f"{(w.cpu() @ x).sum().item():.4f}")
