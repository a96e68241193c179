# A syntax error is file:line:col: error at the place and in the words Python gives, exit 2, no
# traceback; other files are still analysed.
# RUN: %expect-exit 2 %harp analyze %S/Inputs/broken.py %S/Inputs/train.py > %t.out 2> %t.err
# RUN: FileCheck --check-prefix=ERR %s < %t.err
# RUN: FileCheck --check-prefix=OUT %s < %t.out
# ERR: {{.*}}Inputs/broken.py:4:5: error: invalid syntax: '(' was never closed
# ERR-NOT: Traceback
# OUT: train.py:25:27: HARP201
# RUN: %expect-exit 2 %harp import %S/Inputs/broken.py 2> %t.imp
# RUN: FileCheck --check-prefix=ERR %s < %t.imp
