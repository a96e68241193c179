"""Run the ecosystem corpus's safe fixes for real: `harp refactor --apply --verify` on a copy
of each program that the default level's safe fixes apply to and that runs on a CPU,
original and refactored, outputs compared; the others are listed with why they cannot run.

    python bench/verify_corpus.py [--repos DIR]

The programs read MNIST or CIFAR-10 through torchvision, which cannot run here (the package
index's torchvision is built against another torch: "operator torchvision::nms does not
exist", and there is no network for the data), and plot or write images with matplotlib,
scipy and imageio, which are not installed. So the runs see stand-ins (written to a
temporary folder, never committed): MNIST/CIFAR-shaped random data from a seeded generator,
pass-through transforms, plotting and image writing that do nothing; a `sitecustomize`
seeds torch, and `verify_seeded` seeds TensorFlow, so that unseeded programs print the
same on every run. The programs themselves run unchanged.
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

#: (checkout under --repos, program folder, file to refactor, command run in the folder):
#: the programs the default level's safe fixes apply to (`python bench/one_truth.py
#: --list`) that can run here. The pytorch/examples and yunjey programs this script ran
#: before get no safe fix now: their `.item()` beside a blocking copy of the batch is the
#: aggressive level's.
#: A GAN of the collection prints its losses only every 100 steps, more than a stand-in
#: epoch has, so its command also prints a checksum of the weights it saved.
_GANS = "znxlwm+pytorch-generative-model-collections@0d183bb5ea2f"
PROGRAMS = [
    ("YunYang1994+TensorFlow2.0-Examples@299fd6689f24", "2-Basical_Models",
     "Linear_Regression.py", "python -m verify_seeded Linear_Regression.py"),
] + [(_GANS, ".", f"{gan}.py",
      f'python main.py --gan_type {gan} --epoch 1 --gpu_mode "" | grep -v " time" '
      f'&& python -m verify_weights')  # its timings differ on every run
     for gan in ("GAN", "LSGAN", "CGAN", "ACGAN", "infoGAN", "EBGAN", "BEGAN", "DRAGAN")]
#: refactorable programs of the corpus that cannot run here, and why
CANNOT_RUN = {
    "L1aoXingyu+pytorch-beginner@a57dd7ea35c9/09-Generative Adversarial network/conv_gan.py "
    "(HARP304), 06-Natural Language Process/seq-lstm.py (HARP402)": "the originals fail on "
    "current torch (`loss.data[0]` of a 0-d tensor)",
    "nlintz+TensorFlow-Tutorials@d6bdab7df464/11_gan.py (HARP101 x2)": "needs "
    "tensorflow.examples.tutorials, gone since TensorFlow 2",
    "YunYang1994+TensorFlow2.0-Examples@299fd6689f24/Logistic_Regression.py, autoencoder.py, "
    "dragen1860+TensorFlow-2.x-Tutorials@9861a308283d/03, 06, 11, 12 (HARP103 x6)": "they read "
    "MNIST or CIFAR-10 through tf.keras.datasets, which downloads (no network here) and "
    "checks the file's hash, so no stand-in can be put in its place",
    "YunYang1994+TensorFlow2.0-Examples@299fd6689f24/*.ipynb (HARP103 x2)": "notebook twins "
    "of the .py files; Linear_Regression.py's fix is run here",
    "marload+DeepRL-TensorFlow2@876266d9a5fc/A2C, A3C, PPO (HARP404 x5), "
    "germain-hug+Deep-RL-Keras@a50cc30bea78/DDPG (HARP404)": "they need gym and its "
    "environments, not installed here",
    "poutyne-1.19.0/examples/medium_post/pure_pytorch.py (HARP201)": "it splits MNIST by "
    "its real size (50,000 and 10,000): a stand-in that large trains 5 epochs of 50,000 "
    "images on this CPU, too long for this check",
    "pytorch+examples@77f55b912142/legacy/snli/train.py (HARP201)": "torchtext's legacy API, "
    "gone from torchtext",
    "udacity+deep-learning-v2-pytorch@c9404fc86181/char-rnn notebook (HARP201)": "a notebook "
    "that reads its text from data/anna.txt, not in the checkout",
    "openai+improved-diffusion@1bc7bbbdc414/train_util.py (HARP201)": "needs mpi4py and an "
    "image folder to train on",
    "dennybritz+cnn-text-classification-tf@18762b459e21/eval.py (HARP402)": "needs a trained "
    "checkpoint and the MR data",
}

STUB = {
    "torchvision/__init__.py": "from . import datasets, transforms, utils  # noqa: F401\n",
    "torchvision/utils.py": "def save_image(*args, **kwargs):\n    pass\n",
    # plots and image files the programs write: nothing to compare, nothing installed
    "matplotlib/__init__.py": "def use(*args, **kwargs):\n    pass\n",
    "matplotlib/pyplot.py": "def __getattr__(name):\n    return lambda *args, **kwargs: None\n",
    "scipy/__init__.py": "",
    "scipy/misc.py": "def imsave(*args, **kwargs):\n    pass\n",
    "imageio.py": "def __getattr__(name):\n    return lambda *args, **kwargs: []\n",
    # TF2 programs draw unseeded: seed, then run the file as `python FILE` would
    "verify_seeded.py": "import runpy\nimport sys\n\nimport tensorflow as tf\n\n"
                        "tf.random.set_seed(0)\nrunpy.run_path(sys.argv[1], run_name='__main__')\n",
    # the weights every saved state dict holds, summed per tensor (a bias of a few numbers
    # shows a changed update that a sum over the whole model could hide)
    "verify_weights.py": "import glob\n\nimport torch\n\nfor f in sorted(glob.glob("
                         "'models/**/*_[GD].pkl', recursive=True)):\n"
                         "    for name, v in torch.load(f).items():\n"
                         "        print(f, name, round(float(v.double().sum()), 6))\n",
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
        for number, (repo, folder, file, command) in enumerate(PROGRAMS):
            source = args.repos / repo / folder
            if not source.is_dir():
                print(f"{repo}/{folder}: skipped (no checkout; run bench/ecosystem.py first)")
                continue
            work = Path(tmp) / "run" / str(number) / folder
            shutil.copytree(source, work)
            cmd = f"sh -c 'PYTHONPATH={stub} {command.replace('python ', f'{sys.executable} ')}'"
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
