"""The long fuzz: generated and mutated programs, notebooks, host-dialect modules, trace
specs and `[tool.harp]` configs through harp's entry points. Whatever the input, harp
answers with hints or error lines: any traceback or hang is a bug.

    python bench/fuzz.py [--count 1200] [--seed 0] [--timeout 60] [--keep DIR]

Inputs are made from the programs of the repository's tests (`tests/lit`, `tests/codemods`,
`tests/twists`, `examples`), mutated line by line and token by token, plus programs
generated from statement templates nested at random. Each runs in a forked worker (as
`harp.main` / `harp_opt.main` / `load_spec`, in process), given `--timeout` seconds; a
worker that dies or hangs is replaced and the run goes on. Prints tracebacks, crashes (an
abort in native code) and hangs, with the input kept under --keep, the slowest input and
the peak memory of a worker. Exit status 1 when there was any. The quick seeded fuzz of
`make test` (tests/unit/test_fuzz.py) uses the same mutators.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import harp_ir  # noqa: E402,F401  (MLIR before TensorFlow)

#: fragments a token mutation inserts: brackets, keywords in odd places, indentation
TOKENS = ["(", ")", "[", ":", ",", "lambda", "*", "**", "yield", "await", "\t", "    ",
          "\\", "'", '"""', "#", "@", "async ", "global x", "del ", "= ", ".item()", "\n",
          "for i in range(10):\n    ", "with torch.no_grad():\n    ", "if x:\n    ",
          "return ", "nonlocal y", "match x:\n    case 1:\n        ", "print(*a, **k)",
          "x: int = ", "f'{x!r:>{w}}'", "async def g():\n    ", "class C(nn.Module):\n    ",
          "try:\n    pass\nexcept* E:\n    ", "@tf.function\n", "\x00", "\ufeff", "\r"]

#: attribute values a module mutation puts in place of an attribute's
ODD_VALUES = ["7 : i64", "[1, 2]", "unit", '""', "{a = 1}", "1.5 : f32", "true", '"\\FF"',
              '["a", 3]', "@nowhere", "dense<1> : tensor<1xi32>", '"host.module"']


def seed_programs() -> list[Path]:
    """The Python programs of the repository's tests and examples (sorted)."""
    folders = ["examples", "tests/lit/hints", "tests/lit/lowering", "tests/lit/passes",
               "tests/lit/graph", "tests/codemods", "tests/twists"]
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py")
                  if "Output" not in p.parts)


def mutate_source(text: str, rng: random.Random) -> str:
    """Delete, duplicate, swap, truncate lines, or insert a token, one to three times."""
    lines = text.splitlines(keepends=True) or ["\n"]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.choice(["delete", "duplicate", "swap", "insert", "truncate"])
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "insert":
            col = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:col] + rng.choice(TOKENS) + lines[i][col:]
        else:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    return "".join(lines)


def mutate_module(text: str, rng: random.Random) -> str:
    """Swap an attribute's value for one of another kind or for another string of the
    module (a call's qualname for another's: the module still verifies, the passes see odd
    facts), rename an op, drop or duplicate a line, one or two times."""
    lines = text.splitlines()
    strings = sorted(set(re.findall(r'= ("[^"\\]*")', text))) or ['""']
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(lines))
        line = lines[i]
        kind = rng.choice(["value", "value", "retarget", "retarget", "rename", "drop",
                           "duplicate"])
        if kind == "retarget" and ' = "' in line:
            start = rng.choice([k + 3 for k in range(len(line)) if line.startswith(' = "', k)])
            end = line.find('"', start + 1) + 1 or len(line)
            lines[i] = line[:start] + rng.choice(strings) + line[end:]
        elif kind == "value" and " = " in line:
            starts = [k + 3 for k in range(len(line)) if line.startswith(" = ", k)]
            start = rng.choice(starts)
            end = start
            if line[start:start + 1] == '"':
                end = line.find('"', start + 1) + 1 or len(line)
            else:
                while end < len(line) and line[end] not in ",}":
                    end += 1
            lines[i] = line[:start] + rng.choice(ODD_VALUES) + line[end:]
        elif kind == "rename" and '"host' in line:
            lines[i] = line.replace('"host', rng.choice(['"host.x', '"hostcf', '"func']), 1)
        elif kind == "drop":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, line)
    return "\n".join(lines) + "\n"


# --- generated programs: statement templates nested at random ----------------------------

_HEADERS = ["import torch\nimport torch.nn as nn\nimport numpy as np\n",
            "import tensorflow as tf\nimport numpy as np\n",
            "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"]
_STATEMENTS = [
    "x = torch.randn({n}, {n})", "x = x.cuda()", "y = model(x)", "loss = y.sum()",
    "loss.backward()", "opt.step()", "opt.zero_grad()", "total += loss.item()",
    "print(loss.item())", "v = float(loss)", "a = [t.item() for t in y]",
    "w = torch.ones({n}).to(device)", "z = np.random.randn({n})", "t = torch.tensor(z)",
    "ph = tf.placeholder(tf.float32, [None, {n}])", "op = tf.reduce_sum(ph)",
    "out = sess.run(op, feed_dict={{ph: z}})", "g = tf.constant({n})",
    "idx = np.random.choice({n}, 4, replace=False)", "batch = data[idx]",
    "loader = iter(data)", "x, y = next(loader)", "step = step + 1", "del x",
    "lst.append(loss)", "d[k] = loss.detach()", "s = f'{{loss.item():.3f}}'",
    "x = x if x is not None else torch.zeros(1)", "global total", "pass",
    "yield loss", "return loss", "break", "continue", "raise ValueError('x')",
    "assert loss.item() > 0", "x = lambda v: v.item()", "x = (yield)",
]
_BLOCKS = ["for step in range({n}):", "for x, y in loader:", "while step < {n}:",
           "if step % {n} == 0:", "with torch.no_grad():", "with tf.GradientTape() as tape:",
           "try:", "def train(model, opt, data={n}):", "def helper(x):",
           "async def run():", "class Trainer:", "@tf.function\ndef step(x):",
           "for epoch in range({n}):", "if __name__ == '__main__':"]


def generated_program(rng: random.Random) -> str:
    """A program of random statements and blocks, nested up to four deep; most are valid
    Python, some are not (a `return` outside a function, a `try` with no handler)."""
    def block(depth: int) -> list[str]:
        lines = []
        for _ in range(rng.randint(1, 5)):
            if depth < 4 and rng.random() < 0.35:
                header = rng.choice(_BLOCKS).format(n=rng.choice([1, 2, 10, 1000]))
                pad = "    " * depth
                lines += [pad + h for h in header.splitlines()]
                lines += block(depth + 1)
                if header == "try:":
                    lines += [pad + "except Exception:", pad + "    pass"]
            else:
                statement = rng.choice(_STATEMENTS).format(n=rng.choice([1, 8, 1000]))
                lines.append("    " * depth + statement)
        return lines

    return rng.choice(_HEADERS) + "\n".join(block(0)) + "\n"


# --- notebooks ---------------------------------------------------------------------------

def notebook_text(source: str, rng: random.Random) -> str:
    """`source` as a notebook of cells, then a structural mutation of its JSON: nbformat 3,
    a cell source that is a list, a number or null, an unknown cell type, a magic, a
    missing key, truncated JSON, or none."""
    lines = source.splitlines(keepends=True)
    cuts = sorted(rng.sample(range(len(lines) + 1), min(len(lines), rng.randint(0, 4))))
    pieces = ["".join(lines[a:b]) for a, b in zip([0, *cuts], [*cuts, len(lines)], strict=True)]
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": p} for p in pieces if p]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    kind = rng.choice(["none", "v3", "list", "number", "null", "celltype", "magic",
                       "missing", "truncate", "markdown", "ids", "raw"])
    target = rng.choice(cells) if cells else None
    if kind == "v3":
        nb = {"nbformat": 3, "nbformat_minor": 0, "metadata": {},
              "worksheets": [{"cells": [{"cell_type": "code", "input": c["source"],
                                         "language": "python", "outputs": []}
                                        for c in cells]}]}
    elif target is not None and kind == "list":
        target["source"] = target["source"].splitlines(keepends=True)
    elif target is not None and kind in ("number", "null"):
        target["source"] = 7 if kind == "number" else None
    elif target is not None and kind == "celltype":
        target["cell_type"] = rng.choice(["sql", 3, ""])
    elif target is not None and kind == "magic":
        target["source"] = rng.choice(["%time ", "!pip install x\n", "%%bash\nls\n",
                                       "x = %env\n", "?torch\n"]) + target["source"]
    elif target is not None and kind == "missing":
        del target[rng.choice(["source", "cell_type", "metadata", "outputs"])]
    elif target is not None and kind == "markdown":
        target["cell_type"] = "markdown"
    elif kind == "ids":
        for i, cell in enumerate(cells):
            cell["id"] = "same" if i % 2 else f"c{i}"
    elif kind == "raw":
        nb["metadata"]["language_info"] = {"name": rng.choice(["R", "julia", "python"])}
    text = json.dumps(nb, indent=1)
    if kind == "truncate":
        text = text[:rng.randrange(len(text))]
    return text


# --- trace specs and [tool.harp] configs -------------------------------------------------

_SPEC_VALUES = ['"m.py:f"', '"m.py"', "1", '"5"', "-1", "[1, 2]", '[{shape = [2, 3]}]',
                '[{shape = [2, "x"]}]', '[{shape = [1], dtype = "float"}]', "{a = 1}",
                '"torch"', '"tf"', '"jax"', "true", "1e400", '""', "[]", "inf", "nan"]
_SPEC_KEYS = ["target", "framework", "args", "kwargs", "inputs", "name", "timeout", "batch"]
_CONFIG_LINES = ['level = "aggressive"', 'level = 3', 'select = ["HARP201"]',
                 "select = [201]", 'ignore = "HARP201"', 'assume = ["tensor:x"]',
                 'deny = ["nothing"]', 'exclude = ["*.py"]', 'exclude = [1]', "trace = 1",
                 "unknown = true", 'assume = ["pure", "hot-loop"]', "[tool.harp.trace]"]


def spec_text(rng: random.Random) -> str:
    """A trace spec of zero to three entries, valid or of random keys and values."""
    parts = []
    for _ in range(rng.randint(0, 3)):
        parts.append("[[entry]]")
        if rng.random() < 0.3:  # a valid entry, so specs that pass the schema are made too
            parts += ['target = "m.py:f"', f'framework = "{rng.choice(["torch", "tf"])}"',
                      f"inputs = [{{shape = [{rng.randint(0, 4)}, 3]}}]"]
            continue
        for key in rng.sample(_SPEC_KEYS, rng.randint(0, len(_SPEC_KEYS))):
            parts.append(f"{key} = {rng.choice(_SPEC_VALUES)}")
    if rng.random() < 0.2:
        parts.append(rng.choice(["entry = 1", "entries = []", "[entry]", "= 3", "\x00"]))
    return "\n".join(parts) + "\n"


def config_text(rng: random.Random) -> str:
    return "[tool.harp]\n" + "\n".join(rng.sample(_CONFIG_LINES, rng.randint(0, 4))) + "\n"


# --- the run -----------------------------------------------------------------------------

def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def make_inputs(count: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(kind, file name, text) for `count` inputs, shared out over the five kinds."""
    from harp_ir.context import make_context
    from harp_ir.frontend.lower import lower_source
    from harp_ir.frontend.source import FrontendError

    seeds = [p.read_text(encoding="utf-8", errors="replace") for p in seed_programs()]
    modules = []
    with make_context():
        for text in rng.sample(seeds, min(40, len(seeds))):
            try:
                modules.append(lower_source(text, "seed.py").operation.get_asm(
                    enable_debug_info=True, print_generic_op_form=rng.random() < 0.5))
            except FrontendError:
                continue
    inputs = []
    for i in range(count):
        kind = ["program", "program", "generated", "notebook", "module", "module", "spec",
                "config"][i % 8]
        if kind == "program":
            inputs.append((kind, "train.py", mutate_source(rng.choice(seeds), rng)))
        elif kind == "generated":
            inputs.append((kind, "gen.py", generated_program(rng)))
        elif kind == "notebook":
            base = rng.choice([rng.choice(seeds), generated_program(rng)])
            inputs.append((kind, "nb.ipynb", notebook_text(
                mutate_source(base, rng) if rng.random() < 0.5 else base, rng)))
        elif kind == "module":
            inputs.append((kind, "m.mlir", mutate_module(rng.choice(modules), rng)))
        elif kind == "spec":
            inputs.append((kind, "trace.toml", spec_text(rng)))
        else:
            inputs.append((kind, "pyproject.toml", config_text(rng)))
    return inputs


def run_one(kind: str, path: Path, rng: random.Random) -> tuple[int | None, str]:
    """Run one input through its entry point: (exit status or None, captured stderr)."""
    from harp_ir.cli import harp, harp_opt
    from harp_ir.passes import analysis_pipeline
    from harp_ir.trace import TraceError, load_spec

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        if kind in ("program", "generated", "notebook"):
            command = rng.choice([["analyze", "--no-config", "--no-cache", "-j", "1"],
                                  ["analyze", "--no-config", "-j", "1", "--output-format",
                                   rng.choice(["json", "full", "github", "sarif"])],
                                  ["refactor", "--no-config"], ["import"]])
            if command == ["import"] and kind == "notebook":
                command = ["analyze", "--no-config", "--output-format", "full"]
            status = harp.main([*command, str(path)])
        elif kind == "module":
            extra = rng.choice([[], ["--no-verify-each"], ["--mlir-print-op-generic"]])
            status = harp_opt.main([str(path), *extra,
                                    *(f"--{p}" for p in analysis_pipeline())])
        elif kind == "spec":
            try:
                load_spec(path)
                status = 0
            except TraceError as e:
                print(e, file=sys.stderr)
                status = 2
        else:
            (path.parent / "train.py").write_text("import torch\nx = torch.ones(2)\n")
            status = harp.main(["analyze", "-j", "1", "--no-cache",
                                str(path.parent / "train.py")])
    return status, err.getvalue()


def _worker(conn, inputs, seed: int, scratch: str) -> None:
    """Run the inputs the parent names, one at a time, answering (status, problem, peak
    RSS) for each; a crash or a hang ends the process, and the parent starts another.
    Results are cached in the scratch folder (the cache is fuzzed too), not the checkout."""
    os.environ["HARP_CACHE_DIR"] = str(Path(scratch) / "cache")
    while True:
        i = conn.recv()
        if i is None:
            return
        kind, name, text = inputs[i]
        folder = Path(scratch) / str(i)
        folder.mkdir()
        path = folder / name
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        try:
            status, err = run_one(kind, path, random.Random(seed * 100003 + i))
            problem = ("Traceback" in err or "harp failed on this file" in err) and \
                f"internal error in stderr:\n{err[-1500:]}"
        except SystemExit as e:
            status, problem = e.code, None
        except BaseException:  # noqa: BLE001  (what the fuzz looks for)
            status, problem = None, traceback.format_exc(limit=-8)
        if status not in (0, 1, 2) and not problem:
            problem = f"exit status {status!r}"
        conn.send((status, problem or None, peak_rss_mb()))


def main(argv: list[str] | None = None) -> int:
    import multiprocessing
    import tempfile

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=1200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=int, default=60)
    p.add_argument("--keep", default="/tmp/harp-fuzz-failures",
                   help="where inputs that failed are kept")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    inputs = make_inputs(args.count, rng)
    print(f"{len(inputs)} inputs made in {time.perf_counter() - started:.0f} s", flush=True)
    fork = multiprocessing.get_context("fork")
    failures, hangs, slowest, by_kind, peak = [], [], (0.0, ""), {}, 0.0
    keep = Path(args.keep)
    with tempfile.TemporaryDirectory() as scratch:
        worker = conn = None
        for i, (kind, name, text) in enumerate(inputs):
            if worker is None:
                conn, child = fork.Pipe()
                worker = fork.Process(target=_worker, args=(child, inputs, args.seed,
                                                            scratch), daemon=True)
                worker.start()
            start = time.perf_counter()
            conn.send(i)
            if conn.poll(args.timeout):
                try:
                    status, problem, rss = conn.recv()
                    peak = max(peak, rss)
                except EOFError:  # the worker died: an abort in native code
                    worker.join()
                    status, problem = None, f"crash (exit code {worker.exitcode})"
                    worker = None
            else:
                worker.kill()
                worker.join()
                status, problem, worker = None, "hang", None
            elapsed = time.perf_counter() - start
            slowest = max(slowest, (elapsed, f"#{i} {kind}"))
            by_kind.setdefault(kind, [0, 0, {}])[0] += 1
            by_kind[kind][2][status] = by_kind[kind][2].get(status, 0) + 1
            if problem:
                by_kind[kind][1] += 1
                (hangs if problem == "hang" else failures).append((i, kind, problem))
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"{i}-{name}").write_text(text, encoding="utf-8",
                                                  errors="surrogateescape")
                print(f"#{i} {kind}: {problem.splitlines()[0]}", flush=True)
            if (i + 1) % 500 == 0:
                print(f"  {i + 1} done, {time.perf_counter() - started:.0f} s", flush=True)
        if worker is not None:
            conn.send(None)
            worker.join()
    print(f"\n{len(inputs)} inputs in {time.perf_counter() - started:.0f} s: "
          f"{len(failures)} tracebacks, crashes or bad exits, {len(hangs)} hangs "
          f"(over {args.timeout} s); slowest {slowest[1]} {slowest[0]:.1f} s; "
          f"peak RSS of a worker {peak:.0f} MB")
    for kind, (n, bad, statuses) in sorted(by_kind.items()):
        exits = ", ".join(f"{count} exit {status}" for status, count in
                          sorted(statuses.items(), key=lambda kv: str(kv[0])))
        print(f"  {kind:<10} {n:5} inputs, {bad} failed ({exits})")
    for i, kind, problem in failures[:20]:
        print(f"\n--- #{i} {kind} (kept in {keep}) ---\n{problem}")
    return 1 if failures or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
