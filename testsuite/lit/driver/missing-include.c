// A missing header is an error at the #include line.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: missing-include.c:[[@LINE+1]]:10: error: 'no_such_header.h' file not found
#include "no_such_header.h"
#pragma kcc entry f
