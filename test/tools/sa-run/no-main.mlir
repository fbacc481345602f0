// RUN: not sa-run %s 2>&1 | FileCheck %s
// RUN: not sa-run --entry-point=start %s 2>&1 | FileCheck %s --check-prefix=ENTRY
// CHECK: error: no function @main to run
// ENTRY: error: no function @start to run
func.func @helper() {
  return
}
