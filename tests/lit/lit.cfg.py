# lit configuration for harp: lowering tests (.py), pass tests (.mlir), CLI and hint tests.
import os
import shutil
import sys

import lit.formats

config.name = "harp"
config.test_format = lit.formats.ShTest()
config.suffixes = [".py", ".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")
config.excludes = ["lit.cfg.py", "Inputs"]

bindir = os.path.dirname(sys.executable)


def tool(name):
    path = shutil.which(name, path=bindir) or shutil.which(name)
    if path is None:
        lit_config.fatal(f"cannot find '{name}': install harp with its test extras")
    return path


config.substitutions.append(("%harp-opt", tool("harp-opt")))
config.substitutions.append(("%harp", tool("harp")))
config.substitutions.append(("%torch-mlir-opt", tool("torch-mlir-opt")))
config.substitutions.append(("%check-hints", f"{sys.executable} -m harp_ir.expected_hints"))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%expect-exit", f"{sys.executable} {os.path.join(config.test_source_root, 'Inputs', 'expect_exit.py')}"))
config.substitutions.append(("FileCheck", tool("filecheck")))
config.environment["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
# harp analyze's result cache: under lit's output folder, not beside the tests
config.environment["HARP_CACHE_DIR"] = os.path.join(config.test_exec_root, "harp_cache")
