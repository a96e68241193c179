"""Run the ecosystem corpus's safe fixes for real: `harp refactor --apply --verify` on a copy
of each refactorable program that runs on a CPU, original and refactored, outputs compared.

    python bench/verify_corpus.py [--repos DIR]

The programs read MNIST or CIFAR-10 through torchvision, which cannot run here (the package
index's torchvision is built against another torch: "operator torchvision::nms does not
exist", and there is no network for the data). So the runs see a stand-in `torchvision`
(written to a temporary folder, never committed): MNIST/CIFAR-shaped random data from a
seeded generator and pass-through transforms; a `sitecustomize` seeds torch so that
unseeded programs print the same on every run. The programs themselves run unchanged.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOS = Path.home() / ".cache" / "harp-ecosystem" / "repos"
HARP = Path(sys.executable).with_name("harp")

#: (checkout under --repos, program folder, file to refactor, command run in the folder)
PROGRAMS = [
    ("pytorch+examples@77f55b912142", "mnist", "main.py", "python main.py --epochs 1"),
    ("pytorch+examples@77f55b912142", "mnist_rnn", "main.py", "python main.py --epochs 1"),
    ("pytorch+examples@77f55b912142", "mnist_hogwild", "train.py",
     "python main.py --epochs 1 --num-processes 1 | cut -f2-"),  # lines start with a pid
] + [("yunjey+pytorch-tutorial@0500d3df5a2a", f"tutorials/{d}", "main.py", "python main.py")
     for d in ("01-basics/feedforward_neural_network",
               "02-intermediate/bidirectional_recurrent_neural_network",
               "02-intermediate/convolutional_neural_network",
               "02-intermediate/deep_residual_network",
               "02-intermediate/recurrent_neural_network")]
#: refactorable programs of the corpus that cannot run here, and why
CANNOT_RUN = {
    "pytorch+examples@77f55b912142/siamese_network": "needs torchvision.models (a ResNet)",
    "hunkim+DeepLearningZeroToAll@60c707e02af7/pytorch/lab-10-*": "the original fails on "
    "current torch (`avg_cost.data[0]` of a 0-d tensor)",
    "nlintz+TensorFlow-Tutorials@d6bdab7df464/11_gan.py": "needs "
    "tensorflow.examples.tutorials, gone since TensorFlow 2",
}

STUB = {
    "torchvision/__init__.py": "from . import datasets, transforms  # noqa: F401\n",
    "torchvision/datasets.py": '''import torch
from torch.utils.data import Dataset


class MNIST(Dataset):
    shape = (1, 28, 28)

    def __init__(self, root, train=True, transform=None, target_transform=None,
                 download=False):
        g = torch.Generator().manual_seed(1 if train else 2)
        n = 512 if train else 256
        self.data = (torch.rand(n, *self.shape, generator=g) * 255).to(torch.uint8)
        self.targets = torch.randint(0, 10, (n,), generator=g)
        self.transform = transform
        self.test_data, self.test_labels = self.data[:, 0], self.targets

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        img = self.data[i].float().div(255)
        return (self.transform(img) if self.transform else img), int(self.targets[i])


class CIFAR10(MNIST):
    shape = (3, 32, 32)
''',
    "torchvision/transforms.py": '''class _PassThrough:
    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, x):
        return x


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean[0], std[0]

    def __call__(self, x):
        return (x - self.mean) / self.std


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


ToTensor = Pad = RandomHorizontalFlip = RandomCrop = Resize = CenterCrop = _PassThrough
''',
    "sitecustomize.py": "import torch\n\ntorch.manual_seed(0)\n",
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repos", type=Path, default=REPOS)
    args = p.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        stub = Path(tmp) / "stub"
        for name, text in STUB.items():
            (stub / name).parent.mkdir(parents=True, exist_ok=True)
            (stub / name).write_text(text)
        for repo, folder, file, command in PROGRAMS:
            source = args.repos / repo / folder
            if not source.is_dir():
                print(f"{repo}/{folder}: skipped (no checkout; run bench/ecosystem.py first)")
                continue
            work = Path(tmp) / "run" / repo / folder
            shutil.copytree(source, work)
            cmd = (f"sh -c 'PYTHONPATH={stub} {sys.executable} "
                   f"{command.removeprefix('python ')}'")
            run = subprocess.run([str(HARP), "refactor", "--apply", "--verify", cmd, file],
                                 cwd=work, capture_output=True, text=True, timeout=1800,
                                 env={"PYTHONPATH": str(stub), "PATH": "/usr/bin:/bin"})
            lines = [ln for ln in run.stderr.splitlines()
                     if "verify:" in ln or " kept" in ln or " dropped" in ln]
            failed += any(" dropped" in ln for ln in lines) or run.returncode not in (0, 1)
            print(f"{repo}/{folder}/{file}:")
            print("\n".join("  " + ln for ln in lines) or f"  {run.stderr.strip()[-300:]}")
    for where, why in CANNOT_RUN.items():
        print(f"{where}: not run ({why})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
