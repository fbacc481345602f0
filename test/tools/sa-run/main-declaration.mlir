// RUN: not sa-run %s 2>&1 | FileCheck %s
// CHECK: error: @main is only a declaration
func.func private @main()
