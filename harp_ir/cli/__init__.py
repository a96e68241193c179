"""harp's command line tools."""

import functools
import os
import sys


def interruptible(main, prog: str):
    """`main` as a command line tool: Ctrl-C prints one line and exits 130 (the shell's
    128 + SIGINT), not a traceback and not 1, which means "hints found"; a closed pipe
    ends it quietly."""

    @functools.wraps(main)
    def run(argv=None) -> int:
        try:
            return main(argv)
        except KeyboardInterrupt:
            print(f"{prog}: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:  # `harp analyze . | head`: the reader has gone
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
    return run
