import pytest

import harp_ir  # noqa: F401  (the MLIR bindings must be imported before TensorFlow)
from harp_ir.context import make_context


@pytest.fixture
def ctx():
    with make_context() as context:
        yield context
