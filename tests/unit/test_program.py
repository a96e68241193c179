"""A directory is one program: imports between its modules resolve to their exports."""

from harp_ir.analysis import string_attr, walk
from harp_ir.frontend.program import lower_program
from harp_ir.report import analyze_paths


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted(root.rglob("*.py"))


PROJECT = {
    "pkg/__init__.py": "",
    "pkg/data.py": "import torch\n\ndef batch(n):\n    return torch.randn(n, 4)\n",
    "pkg/util.py": "from .data import batch\n\ndef twice(n):\n    return batch(n) * 2\n",
    "train.py": ("from pkg.data import batch\nfrom pkg import util\nimport pkg.data as d\n"
                 "for i in range(3):\n    a = batch(2)\n    b = util.twice(2)\n"
                 "    c = d.batch(1)\n    if a.sum() > 0:\n        pass\n"),
}


def kinds_in(module, filename):
    return {string_attr(op, "harp.kind_reason"): string_attr(op, "harp.kind")
            for op in walk(module.operation)
            if op.name == "host.call" and filename in str(op.location)}


def test_from_import_of_a_program_module(ctx, tmp_path):
    module, errors = lower_program(write(tmp_path, PROJECT), tmp_path)
    assert errors == []
    assert module.operation.verify()
    reasons = kinds_in(module, "train.py")
    assert reasons.get("batch returns a tensor") == "tensor"


def test_relative_import_and_module_attribute(ctx, tmp_path):
    module, _ = lower_program(write(tmp_path, PROJECT), tmp_path)
    kinds = {string_attr(op, "method"): string_attr(op, "harp.kind")
             for op in walk(module.operation)
             if op.name == "host.call" and "train.py" in str(op.location)}
    assert kinds["twice"] == "tensor"  # pkg.util imports batch from .data
    assert kinds["batch"] == "tensor"  # import pkg.data as d; d.batch(1)


def test_each_file_is_one_host_module(ctx, tmp_path):
    module, _ = lower_program(write(tmp_path, PROJECT), tmp_path)
    names = sorted(string_attr(op.operation, "sym_name") for op in module.body.operations)
    assert names == ["pkg", "pkg.data", "pkg.util", "train"]


def test_import_cycle_terminates(ctx, tmp_path):
    files = write(tmp_path, {"a.py": "from b import g\ndef f():\n    return 1\n",
                             "b.py": "from a import f\ndef g():\n    return f()\n"})
    module, errors = lower_program(files, tmp_path)
    assert errors == [] and module.operation.verify()


def test_syntax_error_in_one_file_keeps_the_others(ctx, tmp_path):
    files = write(tmp_path, {"bad.py": "def (:\n", **PROJECT})
    module, errors = lower_program(files, tmp_path)
    assert len(errors) == 1 and errors[0].filename.endswith("bad.py")
    assert len(module.body.operations) == 4


def test_analyze_directory_uses_cross_file_facts(ctx, tmp_path):
    write(tmp_path, PROJECT)
    hints, errors = analyze_paths([str(tmp_path)])
    assert errors == []
    # `a.sum() > 0` is only known to be a tensor through pkg.data.batch
    assert [(h.id, h.span.line) for h in hints] == [("HARP201", 8)]


def test_parallel_analysis_keeps_cross_file_facts(ctx, tmp_path):
    write(tmp_path, PROJECT)
    calls = []
    serial, _ = analyze_paths([str(tmp_path)], jobs=1)
    parallel, errors = analyze_paths([str(tmp_path)], jobs=2,
                                     progress=lambda done, total: calls.append((done, total)))
    assert errors == []
    assert [(h.id, h.span.file, h.span.line) for h in parallel] == \
        [(h.id, h.span.file, h.span.line) for h in serial]
    assert calls[-1] == (4, 4)


STAR = {
    "pkg/__init__.py": "from .a import *\nfrom .b import *\n",
    "pkg/a.py": ("import torch\n__all__ = ['torch', 'batch']\n\n"
                 "def batch(n):\n    return torch.randn(n, 4)\n\ndef hidden():\n    return 0\n"),
    "pkg/b.py": "from .a import *\nfrom .c import *\n\ndef _private():\n    return 1\n",
    "pkg/c.py": "from .b import *\nC = 3\n",  # a cycle with b
    "train.py": "from pkg import *\nfrom torch.nn import *\nx = batch(2)\ny = torch.zeros(3)\n",
}


def star_names(module, filename):
    """The names bound by imports in `filename`, with the qualnames they resolve to."""
    return {string_attr(op, "name"): string_attr(op, "module") for op in walk(module.operation)
            if op.name == "host.import" and str(op.location).find(filename) >= 0}


def test_star_import_of_a_program_module_binds_its_exports(ctx, tmp_path):
    module, errors = lower_program(write(tmp_path, STAR), tmp_path)
    assert errors == [] and module.operation.verify()
    bound = star_names(module, "train.py")
    # `__all__` of a.py; b.py's public names, its own re-exports included; not `_private`
    assert {"torch", "batch", "C"} <= set(bound) and "hidden" not in bound
    assert "_private" not in bound
    kinds = {string_attr(op, "harp.kind_reason"): string_attr(op, "harp.kind")
             for op in walk(module.operation)
             if op.name == "host.call" and "train.py" in str(op.location)}
    assert kinds.get("batch returns a tensor") == "tensor"  # through two re-exports
    qualnames = {string_attr(op, "qualname") for op in walk(module.operation)
                 if op.name == "host.call" and "train.py" in str(op.location)}
    assert "torch.zeros" in qualnames  # `torch` re-exported by a.py's `__all__`


def test_star_import_of_a_library_stays_opaque(ctx, tmp_path):
    module, _ = lower_program(write(tmp_path, STAR), tmp_path)
    reasons = [string_attr(op, "reason") for op in walk(module.operation)
               if op.name == "host.opaque" and "train.py" in str(op.location)]
    assert reasons == ["from torch.nn import *"]


#: a decoder in a folder, run only by an evaluation under `no_grad` in the file above it
EVALUATED = {
    "modules/__init__.py": "",
    "modules/decoder.py": (
        "import torch\nfrom torch import nn\n\n\nclass Decoder(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.out = nn.Linear(4, 4)\n\n"
        "    def forward(self, h, steps):\n"
        "        probs = torch.zeros(steps, 4)\n"
        "        for i in range(steps):\n"
        "            probs[i] = self.out(h).sum(0)\n"
        "        return probs\n"),
    "evaluate.py": (
        "import torch\nfrom modules.decoder import Decoder\n\ndecoder = Decoder()\n"
        "with torch.no_grad():\n    for h in [torch.randn(2, 4) for _ in range(50)]:\n"
        "        print(decoder(h, 20))\n"),
}


def test_a_folder_beside_the_files_above_it_is_part_of_their_program(ctx, tmp_path):
    """`harp analyze evaluate.py modules`: the decoder's loop runs only under the caller's
    `no_grad`, which only the whole program shows (alone, `modules` would get a HARP303)."""
    write(tmp_path, EVALUATED)
    alone, _ = analyze_paths([str(tmp_path / "modules")])
    assert [h.id for h in alone] == ["HARP303"]
    together, errors = analyze_paths([str(tmp_path / "evaluate.py"), str(tmp_path / "modules")])
    assert errors == [] and together == []
    # the folder first, then the file: the same program
    reversed_order, _ = analyze_paths([str(tmp_path / "modules"), str(tmp_path / "evaluate.py")])
    assert reversed_order == []


def test_a_folder_the_files_above_it_do_not_import_stays_its_own_program(ctx, tmp_path):
    """Another program kept beside a script (`other/` importing its own `decoder`) is not
    joined: its imports resolve from its own folder."""
    write(tmp_path, {**EVALUATED, "evaluate.py": "print('no imports of modules/')\n"})
    alone, _ = analyze_paths([str(tmp_path / "evaluate.py"), str(tmp_path / "modules")])
    assert [h.id for h in alone] == ["HARP303"]


def test_a_package_folder_resolves_imports_by_the_package_name(ctx, tmp_path):
    """`harp analyze playground` where playground is a package whose files import each
    other as `from playground.memory import Memory`: the sampling method the training loop
    calls is found through that import (the folder's own name is part of every module's)."""
    write(tmp_path, {
        "playground/__init__.py": "",
        "playground/memory.py": (
            "from collections import deque\nimport numpy as np\n\n\nclass Memory:\n"
            "    def __init__(self, capacity=100000):\n"
            "        self.buffer = deque(maxlen=capacity)\n\n"
            "    def add(self, item):\n        self.buffer.append(item)\n\n"
            "    def sample(self, k):\n"
            "        return np.random.choice(range(len(self.buffer)), size=k)\n"),
        "playground/train.py": (
            "import torch\nfrom playground.memory import Memory\n\n"
            "net = torch.nn.Linear(4, 1).cuda()\nopt = torch.optim.SGD(net.parameters(), 0.1)\n"
            "memory = Memory()\nfor step in range(100000):\n"
            "    memory.add(step)\n    idx = memory.sample(32)\n"
            "    loss = net(torch.randn(32, 4).cuda()).sum()\n"
            "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"),
    })
    hints, errors = analyze_paths([str(tmp_path / "playground")])
    assert errors == []
    assert [(h.span.file.rsplit("/", 1)[-1], h.span.line) for h in hints
            if h.id == "HARP505"] == [("memory.py", 13)]


LOSS_NETWORK = {
    "vgg.py": (
        "from torch import nn\n\n\n"
        "class Vgg(nn.Module):\n"
        "    def __init__(self, requires_grad=False):\n"
        "        super().__init__()\n"
        "        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())\n"
        "        if not requires_grad:\n"
        "            for param in self.parameters():\n"
        "                param.requires_grad = False\n\n"
        "    def forward(self, x):\n"
        "        return self.features(x)\n"),
    "train.py": (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n\n"
        "from vgg import Vgg\n\n\n"
        "def train(loader):\n"
        "    device = torch.device('cuda')\n"
        "    transformer = nn.Conv2d(3, 3, 3, padding=1).to(device)\n"
        "    loss_net = Vgg().to(device)\n"
        "    optimizer = torch.optim.Adam(transformer.parameters())\n"
        "    for x, _ in loader:\n"
        "        x = x.to(device)\n"
        "        loss = F.mse_loss(loss_net(transformer(x)), loss_net(x).detach())\n"
        "        optimizer.zero_grad()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"),
}


def test_a_class_that_freezes_its_parameters_in_another_file_is_frozen(ctx, tmp_path):
    write(tmp_path, LOSS_NETWORK)
    hints, errors = analyze_paths([str(tmp_path)])
    assert errors == []
    assert "HARP304" not in [h.id for h in hints]
    # without the freezing loop, each backward computes the loss network's weight gradients
    frozen = LOSS_NETWORK["vgg.py"]
    (tmp_path / "vgg.py").write_text(frozen[:frozen.index("        if not")] +
                                     frozen[frozen.index("    def forward"):])
    hints, errors = analyze_paths([str(tmp_path)])
    assert ("HARP304", "train.py") in [(h.id, h.span.file.rsplit("/", 1)[-1]) for h in hints]


def test_imports_resolve_in_folders_added_to_sys_path(ctx, tmp_path):
    files = write(tmp_path, {
        "play.py": ("import sys\nsys.path.append('game/')\nsys.path.insert(0, '../outside')\n"
                    "import wrapped\nenv = wrapped.make()\n"),
        "game/wrapped.py": "import torch\n\ndef make():\n    return torch.zeros(3)\n",
    })
    module, errors = lower_program(files, tmp_path)
    assert errors == [] and module.operation.verify()
    kinds = {string_attr(op, "method"): string_attr(op, "harp.kind")
             for op in walk(module.operation)
             if op.name == "host.call" and "play.py" in str(op.location)}
    assert kinds["make"] == "tensor"  # `wrapped` is game/wrapped.py, as Python finds it
    names = sorted(string_attr(op.operation, "sym_name") for op in module.body.operations)
    assert names == ["game.wrapped", "play"]  # one module, not a second copy
