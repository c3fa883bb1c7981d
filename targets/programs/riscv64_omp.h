/* kcc riscv64: one hart, OpenMP pragmas are ignored (targets/riscv64.c). */
#ifndef KCC_OMP_STUB_H
#define KCC_OMP_STUB_H
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_procs(void) { return 1; }
static inline int omp_in_parallel(void) { return 0; }
static inline void omp_set_num_threads(int n) { (void)n; }
#endif
