# A directory is searched recursively for .py files, in sorted order.
# RUN: rm -rf %t && mkdir -p %t/pkg/sub && cp %S/Inputs/train.py %t/pkg/sub/a.py && cp %S/Inputs/train.py %t/pkg/b.py
# RUN: %expect-exit 1 %harp analyze %t/pkg > %t.out
# RUN: FileCheck %s < %t.out
# CHECK: pkg/b.py:25:27: HARP201
# CHECK: pkg/sub/a.py:25:27: HARP201
