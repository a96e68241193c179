"""Run a command and succeed only if it exits with the given status: lit's internal shell
has no `$?`.  Usage: expect_exit.py STATUS COMMAND [ARGS...]"""

import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    print(f"expect_exit: '{' '.join(sys.argv[2:])}' exited {got}, expected {want}",
          file=sys.stderr)
    sys.exit(1)
