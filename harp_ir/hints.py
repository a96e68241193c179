"""The hint catalogue: one table, from which `harp --list-hints`, `harp explain` and the
README's table are generated. Ids are stable and never reused."""

from __future__ import annotations

from dataclasses import dataclass

DOCS = "https://github.com/harp-ir/harp/blob/main/README.md"


@dataclass(frozen=True)
class HintSpec:
    id: str
    name: str
    finds: str
    refactoring: str
    pass_flag: str
    fix: str  # whether `harp refactor` can fix it: none, safe, unsafe (or when each)
    before: str = ""
    after: str = ""

    @property
    def anchor(self) -> str:
        return f"{DOCS}#{self.id.lower()}-{self.name}"


HINTS: tuple[HintSpec, ...] = (
    HintSpec(
        "HARP101", "graph-built-in-loop",
        "TF graph construction (op constructors, `tf.Variable`, optimizers, savers, "
        "initializers, `tf.gradients`) inside a Python loop that also runs the graph: the "
        "graph grows every iteration",
        "build the graph once before the loop; feed the changing values",
        "harp-graph-built-in-loop", "safe",
        before="for x in batches:\n    y = tf.matmul(x_ph, w)\n"
               "    sess.run(y, {x_ph: x})\n",
        after="y = tf.matmul(x_ph, w)\nfor x in batches:\n    sess.run(y, {x_ph: x})\n"),
    HintSpec(
        "HARP102", "retracing",
        "a `tf.function` called in a loop with a Python value that changes per iteration, "
        "or defined inside the loop: it is traced again and again",
        "pass tensors, set `input_signature` or `reduce_retracing`, hoist the definition",
        "harp-retracing", "safe (a number passed as a tensor: unsafe unless proved)",
        before="for step in range(100):\n    loss = train_step(x, step)\n",
        after="for step in range(100):\n    loss = train_step(x, tf.constant(step))\n"),
    HintSpec(
        "HARP103", "eager-step",
        "a TF2 training step (`tf.GradientTape`) run eagerly in a loop whose body is "
        "graph-compatible",
        "wrap the step in `tf.function`",
        "harp-eager-step", "safe",
        before="for x, y in data:\n    with tf.GradientTape() as tape:\n"
               "        loss = loss_fn(model(x), y)\n    ...\n",
        after="@tf.function\ndef step(x, y):\n    with tf.GradientTape() as tape:\n"
              "        loss = loss_fn(model(x), y)\n    ...\nfor x, y in data:\n"
              "    step(x, y)\n"),
    HintSpec(
        "HARP104", "split-session-runs",
        "several `Session.run` calls in one iteration whose fetches share a subgraph",
        "one `run` with all fetches",
        "harp-split-session-runs", "none",
        before="sess.run(train_op, feed)\nl = sess.run(loss, feed)\n",
        after="_, l = sess.run([train_op, loss], feed)\n"),
    HintSpec(
        "HARP201", "host-sync-in-loop",
        "a tensor converted to a host value inside a loop (`.item()`, `.numpy()`, `.cpu()`, "
        "`.tolist()`, `float(t)`/`int(t)`/`bool(t)`, a tensor as an `if`/`while` "
        "condition): every iteration waits for the device",
        "keep the value on the device (accumulate with tensor ops) and sync once after "
        "the loop",
        "harp-host-sync-in-loop", "safe (unsafe in an epoch loop)",
        before="for x, y in loader:\n    loss = step(x, y)\n    total += loss.item()\n",
        after="total = torch.zeros(())\nfor x, y in loader:\n    loss = step(x, y)\n"
              "    total += loss.detach()\ntotal = total.item()\n"),
    HintSpec(
        "HARP202", "transfer-in-loop",
        "`.to(device)`, `.cuda()`, `torch.tensor(array)`, `tf.convert_to_tensor` of a "
        "loop-invariant value inside a loop: the same data crosses to the device every "
        "iteration",
        "convert once before the loop and reuse the result",
        "harp-transfer-in-loop", "safe",
        before="for step in range(n):\n    w = torch.tensor(weights)\n    y = x @ w\n",
        after="w = torch.tensor(weights)\nfor step in range(n):\n    y = x @ w\n"),
    HintSpec(
        "HARP203", "feed-invariant",
        "`feed_dict` values that do not change across iterations",
        "a constant or variable in the graph, or `tf.data` for streaming data",
        "harp-feed-invariant", "none",
        before="for step in range(n):\n    sess.run(train, {x_ph: X, y_ph: Y})\n",
        after="X_c, Y_c = tf.constant(X), tf.constant(Y)  # and build the graph on them\n"),
    HintSpec(
        "HARP204", "graph-round-trip",
        "a tensor taken to numpy/Python, computed on, and turned back into a tensor in a "
        "loop",
        "keep the computation in framework ops",
        "harp-graph-round-trip", "none",
        before="for x in xs:\n    a = model(x).detach().numpy()\n"
               "    t = torch.from_numpy(a * 2)\n",
        after="for x in xs:\n    t = model(x).detach() * 2\n"),
    HintSpec(
        "HARP205", "host-random-to-device",
        "random numbers drawn on the host (`numpy.random.*`, a torch factory without "
        "`device=`) and copied to the device (`.to(device)`, `.cuda()`, "
        "`torch.cuda.FloatTensor(...)`) on every step of a loop that runs a model",
        "draw them on the device (`torch.randn(..., device=device)`, "
        "`Tensor(*size).normal_()`, `tf.random.normal`); the numbers differ, so it is "
        "never a safe fix",
        "harp-host-random-to-device", "unsafe",
        before="for x, _ in loader:\n"
               "    z = torch.from_numpy(np.random.normal(0, 1, (64, 100))).to(device)\n"
               "    loss = step(G(z), x)\n",
        after="for x, _ in loader:\n"
              "    z = torch.normal(0.0, 1.0, (64, 100), device=device)\n"
              "    loss = step(G(z), x)\n"),
    HintSpec(
        "HARP301", "loop-invariant-graph-computation",
        "a pure graph computation in a loop whose inputs are all loop-invariant",
        "hoist it out of the loop",
        "harp-loop-invariant", "safe",
        before="for x in xs:\n    y = x @ torch.linalg.inv(W)\n",
        after="W_inv = torch.linalg.inv(W)\nfor x in xs:\n    y = x @ W_inv\n"),
    HintSpec(
        "HARP302", "redundant-graph-call",
        "the same pure graph computation with the same inputs evaluated twice",
        "reuse the result",
        "harp-redundant-call", "none",
        before="a = torch.matmul(x, w)\nb = torch.matmul(x, w) + 1\n",
        after="a = torch.matmul(x, w)\nb = a + 1\n"),
    HintSpec(
        "HARP303", "missing-no-grad",
        "PyTorch inference or evaluation (no backward, no optimizer step in the loop) "
        "without `torch.no_grad()`/`inference_mode()`",
        "wrap the loop in `torch.inference_mode()`",
        "harp-missing-no-grad", "safe when no-backward is low risk, else unsafe",
        before="for x, y in val_loader:\n    correct += (model(x).argmax(1) == y).sum()\n",
        after="with torch.inference_mode():\n    for x, y in val_loader:\n"
              "        correct += (model(x).argmax(1) == y).sum()\n"),
    HintSpec(
        "HARP401", "elementwise-python-loop",
        "a Python loop over tensor indices or elements doing per-element tensor ops",
        "the vectorized op",
        "harp-elementwise-loop", "safe (element-wise bodies of one statement)",
        before="for i in range(len(x)):\n    out[i] = x[i] * 2 + 1\n",
        after="out[:len(x)] = x * 2 + 1\n"),
    HintSpec(
        "HARP402", "concat-in-loop",
        "`torch.cat`/`torch.stack`/`tf.concat`/`np.concatenate` accumulation inside a loop: "
        "every iteration copies everything so far (quadratic)",
        "append the pieces to a list and concatenate once after the loop",
        "harp-concat-in-loop", "safe",
        before="out = torch.empty(0, d)\nfor x in xs:\n    out = torch.cat([out, f(x)])\n",
        after="parts = []\nfor x in xs:\n    parts.append(f(x))\nout = torch.cat(parts)\n"),
    HintSpec(
        "HARP403", "per-sample-call",
        "a model or graph function called on one example at a time in a loop when the "
        "calls are independent",
        "one batched call",
        "harp-per-sample-call", "none",
        before="preds = [model(x[i:i + 1]) for i in range(len(x))]\n",
        after="preds = model(x)\n"),
    HintSpec(
        "HARP501", "dataloader-serial",
        "`DataLoader` without workers or pinned memory in a training program",
        "`num_workers`, `pin_memory`",
        "harp-dataloader-serial", "none",
        before="loader = DataLoader(ds, batch_size=64)\n",
        after="loader = DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)\n"),
    HintSpec(
        "HARP502", "zero-grad-keeps-memory",
        "`zero_grad(set_to_none=False)` or a manual `.grad.zero_()`: gradient buffers are "
        "kept and zeroed instead of released",
        "`optimizer.zero_grad()` (set to None)",
        "harp-zero-grad", "safe",
        before="optimizer.zero_grad(set_to_none=False)\n",
        after="optimizer.zero_grad()\n"),
    HintSpec(
        "HARP503", "rebuilt-in-loop",
        "an optimizer or a model with parameters constructed on every step of a training "
        "loop: the construction repeats and the object starts over (an optimizer forgets "
        "its moments, a model its weights)",
        "construct it once before the loop",
        "harp-rebuilt-in-loop", "none",
        before="for x, y in loader:\n"
               "    opt = torch.optim.Adam(model.parameters())\n"
               "    loss_fn(model(x), y).backward()\n    opt.step()\n",
        after="opt = torch.optim.Adam(model.parameters())\nfor x, y in loader:\n"
              "    opt.zero_grad()\n    loss_fn(model(x), y).backward()\n    opt.step()\n"),
)

BY_ID: dict[str, HintSpec] = {h.id: h for h in HINTS}


def markdown_table() -> str:
    rows = ["| id | name | finds | refactoring | pass | automatic fix |",
            "| --- | --- | --- | --- | --- | --- |"]
    rows += [f"| {h.id} | {h.name} | {h.finds} | {h.refactoring} | `--{h.pass_flag}` | "
             f"{h.fix} |" for h in HINTS]
    return "\n".join(rows)


BEGIN, END = "<!-- hints:begin (generated by python -m harp_ir.hints README.md) -->", \
    "<!-- hints:end -->"


def markdown_section() -> str:
    """The README's hint table and one section per hint, with its before/after example."""
    parts = [BEGIN, markdown_table(), ""]
    for h in HINTS:
        parts += [f'<a id="{h.id.lower()}-{h.name}"></a>', f"### {h.id} {h.name}", "",
                  f"Finds {h.finds}. Refactoring: {h.refactoring}. Pass: `--{h.pass_flag}`.",
                  ""]
        if h.before:
            parts += ["```python", "# before", h.before.rstrip(), "# after", h.after.rstrip(),
                      "```", ""]
    parts.append(END)
    return "\n".join(parts)


def update_readme(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:start] + markdown_section() + text[end:])


if __name__ == "__main__":
    import sys

    update_readme(sys.argv[1] if len(sys.argv) > 1 else "README.md")
