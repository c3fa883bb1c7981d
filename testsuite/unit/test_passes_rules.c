/*
 * test_passes_rules.c — the prompts' hardware section for the flagship
 * case without a GPU: examples/gemm_f16.cu's spec (f16 in, f32 out) on an
 * H100 as cuda's describe reports it, with per-unit peaks. The roofline
 * must be against the fp16 tensor cores, not fp32 FMA; the shared-memory
 * opt-in, the register limits and the sm_90a build line must be there.
 * (The rules' tolerance needs a prepared reference: the lit cases check it.)
 */
#include "../../passes/internal.h"
#include "check.h"

static void flagship(Arena *a)
{
	Unit u = {.path = "../examples/gemm_f16.cu", .lang = LANG_CUDA};
	char *text;
	CHECK(file_read(a, u.path, &text, &u.len) == 0);
	u.text = text;
	CHECK(spec_parse(a, &u) == 0);
	SearchConfig cfg = {.orig = &u, .target = target_find("cuda")};
	SearchResult r = {.device = "NVIDIA H100 80GB HBM3 (sm_90a), 132 SMs"};
	Search s = {.a = a, .cfg = &cfg, .r = &r, .peaks_done = true};
	s.info = (TargetInfo){.present = true, .arch = "sm_90a", .cores = 132,
	                      .smem_block = 48 << 10, .smem_block_optin = 227 << 10,
	                      .smem_sm = 228 << 10, .regs_block = 65536, .regs_sm = 65536,
	                      .threads_sm = 2048,
	                      .build_line = "nvcc -std=c++17 -O3 -gencode "
	                                    "arch=compute_90a,code=sm_90a -o harness harness.cu "
	                                    "(the harness #includes your file)"};
	s.peaks.gflops = s.peaks.unit[PEAK_FP32] = 51000;
	s.peaks.unit[PEAK_TC_F16] = 660000;
	s.peaks.unit[PEAK_TC_TF32] = 330000;
	s.peaks.gbps = 3000;
	s.peaks.source = "measured on this device";
	const char *h = rules_hardware(&s);
	printf("%s\n", h);
	CHECK(strstr(h, "- fp16 tensor cores (f32 accumulate): 660000 GFLOP/s") != NULL);
	CHECK(strstr(h, "This kernel computes in f16: its roofline is fp16 tensor cores "
	                "(f32 accumulate) at 660000 GFLOP/s and DRAM at 3000 GB/s (ridge "
	                "point 220.0 flop/byte)") != NULL);
	CHECK(strstr(h, "so it is compute-bound at best: at these rates the roofline's time is 1.67 ms (data the caches hold can beat it; the physical floor in the rules is lower)") != NULL);
	CHECK(strstr(h, "- shared memory: 48 KiB per block as declared") != NULL);
	CHECK(strstr(h, "up to 227 KiB per block as dynamic shared memory after "
	                "cudaFuncSetAttribute(kernel, "
	                "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)") != NULL);
	CHECK(strstr(h, "- registers: at most 255 per thread; 65536 per block, 65536 per SM") !=
	      NULL);
	CHECK(strstr(h, "- threads: at most 1024 per block, 2048 resident per SM") != NULL);
	CHECK(strstr(h, "`nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -o harness "
	                "harness.cu`") != NULL);
	/* without tensor-core peaks, fp32 FMA is the roof, and it says so */
	s.peaks.unit[PEAK_TC_F16] = 0;
	h = rules_hardware(&s);
	CHECK(strstr(h, "This kernel computes in f16: its roofline is fp32 FMA at 51000") != NULL);
}

int main(void)
{
	diag_init(COLOR_NEVER);
	Arena *a = arena_new();
	flagship(a);
	arena_free(a);
	return check_summary("test_passes_rules");
}
