// The word every kernel packs bits into, shared by every kernel file through
// `#include "gpuword.cl"` (ocl::kernel_source inlines it: a program built from a string
// has no include path). Column j of a row is bit j % GPUWORD_BITS of the row's word
// j / GPUWORD_BITS. A word has 32 bits, as the host's word_t, unless a kernel narrows the
// unit a work-item owns to 16 or 8 bits by defining UNIT_BITS first (propagate.cl):
// on a little-endian device the layout in memory stays the same.

#if !defined(UNIT_BITS) || UNIT_BITS == 32
typedef uint gpuword;
#define GPUWORD_SHIFT 5
#elif UNIT_BITS == 16
typedef ushort gpuword;
#define GPUWORD_SHIFT 4
#elif UNIT_BITS == 8
typedef uchar gpuword;
#define GPUWORD_SHIFT 3
#else
#error "UNIT_BITS must be 32, 16 or 8"
#endif
#define GPUWORD_BITS (1u << GPUWORD_SHIFT)

// Column j's bit in its word.
inline gpuword word_bit(const uint j) {
  return (gpuword)(1u << (j & (GPUWORD_BITS - 1)));
}
