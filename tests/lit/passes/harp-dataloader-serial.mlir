// Pass test for --harp-dataloader-serial (HARP501) on the IR harp imports from:
//   import torch
//   from torch.utils.data import DataLoader
//   loader = DataLoader(ds)
//   ok = DataLoader(ds, num_workers=2, pin_memory=True)
//   loss.backward()
// RUN: %harp-opt %s --harp-dataloader-serial | FileCheck %s
// RUN: %harp-opt %s | FileCheck --check-prefix=NOPASS %s
// NOPASS-NOT: harp.hints
// CHECK: harp.hints = [{{.*}}id = "HARP501", message = "this DataLoader feeds a training loop without `num_workers` and `pin_memory=True`
// CHECK-NOT: id = "HARP501"
module {
  "host.module"() ({
    %0 = "host.import"() {module = "torch", qualname = "torch"} : () -> !host.obj loc(#loc2)
    "host.store"(%0) {name = "torch"} : (!host.obj) -> () loc(#loc2)
    %1 = "host.import"() {module = "torch.utils.data", name = "DataLoader", qualname = "torch.utils.data.DataLoader"} : () -> !host.obj loc(#loc3)
    "host.store"(%1) {name = "DataLoader"} : (!host.obj) -> () loc(#loc3)
    %2 = "host.load"() {name = "DataLoader", qualname = "torch.utils.data.DataLoader"} : () -> !host.obj loc(#loc4)
    %3 = "host.load"() {name = "ds"} : () -> !host.obj loc(#loc5)
    %4 = "host.call"(%2, %3) {effect = "construct", harp.framework = "torch", harp.kind = "dataloader", harp.kind_status = "proved", kwnames = [""], qualname = "torch.utils.data.DataLoader"} : (!host.obj, !host.obj) -> !host.obj loc(#loc6)
    "host.store"(%4) {name = "loader"} : (!host.obj) -> () loc(#loc7)
    %5 = "host.load"() {name = "DataLoader", qualname = "torch.utils.data.DataLoader"} : () -> !host.obj loc(#loc8)
    %6 = "host.load"() {name = "ds"} : () -> !host.obj loc(#loc9)
    %7 = "host.constant"() {kind = "int", value = 2 : i64} : () -> !host.obj loc(#loc10)
    %8 = "host.constant"() {kind = "bool", value = true} : () -> !host.obj loc(#loc11)
    %9 = "host.call"(%5, %6, %7, %8) {effect = "construct", harp.framework = "torch", harp.kind = "dataloader", harp.kind_status = "proved", kwnames = ["", "num_workers", "pin_memory"], qualname = "torch.utils.data.DataLoader"} : (!host.obj, !host.obj, !host.obj, !host.obj) -> !host.obj loc(#loc12)
    "host.store"(%9) {name = "ok"} : (!host.obj) -> () loc(#loc13)
    %10 = "host.load"() {name = "loss"} : () -> !host.obj loc(#loc14)
    %11 = "host.getattr"(%10) {attr = "backward", qualname = "torch.Tensor.backward"} : (!host.obj) -> !host.obj loc(#loc15)
    %12 = "host.call"(%11) {effect = "mutate", harp.receiver = "loss", harp.receiver_reason = "`loss` is assumed to be a torch tensor because `.backward()` is torch.Tensor.backward", kwnames = [], method = "backward", qualname = "torch.Tensor.backward"} : (!host.obj) -> !host.obj loc(#loc16)
    "hostcf.yield"() : () -> () loc(#loc1)
  }) {filename = "harp-dataloader-serial.py", sym_name = "harp-dataloader-serial"} : () -> () loc(#loc1)
} loc(#loc)
#loc = loc("harp-dataloader-serial.py":1:1)
#loc1 = loc("harp-dataloader-serial.py":1:1 to 6:1)
#loc2 = loc("harp-dataloader-serial.py":1:8 to :13)
#loc3 = loc("harp-dataloader-serial.py":2:30 to :40)
#loc4 = loc("harp-dataloader-serial.py":3:10 to :20)
#loc5 = loc("harp-dataloader-serial.py":3:21 to :23)
#loc6 = loc("harp-dataloader-serial.py":3:10 to :24)
#loc7 = loc("harp-dataloader-serial.py":3:1 to :7)
#loc8 = loc("harp-dataloader-serial.py":4:6 to :16)
#loc9 = loc("harp-dataloader-serial.py":4:17 to :19)
#loc10 = loc("harp-dataloader-serial.py":4:33 to :34)
#loc11 = loc("harp-dataloader-serial.py":4:47 to :51)
#loc12 = loc("harp-dataloader-serial.py":4:6 to :52)
#loc13 = loc("harp-dataloader-serial.py":4:1 to :3)
#loc14 = loc("harp-dataloader-serial.py":5:1 to :5)
#loc15 = loc("harp-dataloader-serial.py":5:1 to :14)
#loc16 = loc("harp-dataloader-serial.py":5:1 to :16)
