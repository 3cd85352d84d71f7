// The float GEMM family's own tables, kept out of the product: its kernels' text (embedded
// from kernels/float_gemm.cl, book_mmul.cl, sgemm_tuned.cl) and its built-in tuning rows.
#pragma once

namespace closure {

// Makes both known to ocl::kernel_source and the tuning database; every entry point of
// the family calls it first (it does the work once).
void use_gemm_tables();

}  // namespace closure
