import os
import tempfile

import pytest

import harp_ir  # noqa: F401  (the MLIR bindings must be imported before TensorFlow)
from harp_ir.context import make_context


@pytest.fixture
def ctx():
    with make_context() as context:
        yield context


# harp analyze keeps results under .harp_cache in the working directory: the tests' runs
# keep theirs in a folder of their own, not in the checkout
os.environ.setdefault("HARP_CACHE_DIR", tempfile.mkdtemp(prefix="harp-test-cache-"))
