# Exit status: 0 without hints, 1 with hints, 2 on usage or input errors.
# RUN: %expect-exit 0 %harp analyze %s
# RUN: %expect-exit 1 %harp analyze %S/Inputs/train.py > /dev/null
# RUN: %expect-exit 2 %harp analyze %S/Inputs/does-not-exist.py 2> %t.err
# RUN: FileCheck --check-prefix=MISSING %s < %t.err
# MISSING: does-not-exist.py: error: no such file or directory
# RUN: %expect-exit 2 %harp analyze --format yaml %s 2> /dev/null
# RUN: %expect-exit 2 %harp 2> /dev/null
x = 1
