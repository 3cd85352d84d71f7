// Element-wise helpers for repeated squaring, so nothing but a flag crosses the bus.

#include "gpuword.cl"

// *changed = 1 if a and b differ in any of their `count` words. Racing writers all store
// the same value, so no atomic is needed.
__kernel void words_differ(__global const gpuword* a, __global const gpuword* b,
                           __global int* changed, int count) {
  const int i = get_global_id(0);
  if (i < count && a[i] != b[i]) *changed = 1;
}
