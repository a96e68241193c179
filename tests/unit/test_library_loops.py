"""The loops library runners run, as harp models them after lowering."""

from pathlib import Path

from harp_ir.analysis import describe_loop, span, string_attr, walk
from harp_ir.frontend.lower import lower_file
from harp_ir.library_loops import model_library_loops, synthetic

PROGRAM = Path(__file__).resolve().parents[1] / "lit" / "hints" / "library_step_runners.py"


def test_each_runner_call_is_followed_by_its_loops_once(ctx):
    """torchnet's train and test, ignite's run, Lightning's fit (training and validation):
    five loops, each at its runner's line, calling the program's step; a module modelled
    again gets no more, and the module still verifies."""
    module = lower_file(PROGRAM)
    assert model_library_loops(module) == 5
    assert model_library_loops(module) == 0
    module.operation.verify()
    loops = [o for o in walk(module.operation) if "harp.runner" in o.attributes]
    runners = sorted(string_attr(o, "harp.runner") for o in loops)
    assert runners == ["engine.test", "engine.train", "trainer.fit", "trainer.fit",
                       "trainer.run"]
    source = PROGRAM.read_text().splitlines()
    for loop in loops:
        line = source[span(loop.location).line - 1]
        assert string_attr(loop, "harp.runner") + "(" in line
        assert describe_loop(loop).startswith("the loop over batches in `")
    validation = [o for o in walk(module.operation) if o.name == "host.with" and
                  synthetic(o)]
    assert len(validation) == 1  # Lightning's validation_step runs under no_grad
    backward = [o for o in walk(module.operation) if synthetic(o) and
                string_attr(o, "method") == "backward"]
    assert len(backward) == 2  # torchnet's train and Lightning's training_step


def test_no_runner_no_loop(ctx, tmp_path):
    """A method named like a runner's on an object no known runner made adds nothing."""
    path = tmp_path / "plain.py"
    path.write_text("class Engine:\n    def train(self, f, data):\n        for x in data:\n"
                    "            f(x)\n\n\nEngine().train(print, [1, 2])\nmodel.train()\n")
    module = lower_file(path)
    assert model_library_loops(module) == 0
