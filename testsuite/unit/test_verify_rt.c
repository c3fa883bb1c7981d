/*
 * test_verify_rt.c — the harness runtime kcc shares with every harness:
 * the counter-based generator (deterministic, in range, exact mode gives
 * small integers, promoted f32 values are the f32 values), half and bfloat
 * conversions, poison patterns, the hash; and the reason names.
 */
#include "testsuite/unit/check.h"
#include "verify/templates/kcc_rt.h"
#include "verify/verify.h"

#include <math.h>

int main(void)
{
	/* Same seed, same value; another seed, parameter or index, another. */
	double v = kcc_value(1, 0, 5, KCC_T_F32, KCC_FILL_RANDOM, 0, 0);
	CHECK(v == kcc_value(1, 0, 5, KCC_T_F32, KCC_FILL_RANDOM, 0, 0));
	CHECK(v != kcc_value(2, 0, 5, KCC_T_F32, KCC_FILL_RANDOM, 0, 0));
	CHECK(v != kcc_value(1, 1, 5, KCC_T_F32, KCC_FILL_RANDOM, 0, 0));
	CHECK(v != kcc_value(1, 0, 6, KCC_T_F32, KCC_FILL_RANDOM, 0, 0));
	/* A fixed value pins the generator across versions and languages. */
	CHECK(kcc_mix(0) == 0xe220a8397b1dcdafull);

	double lo = 0, hi = 0, sum = 0;
	for (uint64_t i = 0; i < 100000; i++) {
		double f = kcc_value(3, 2, i, KCC_T_F32, KCC_FILL_RANDOM, 0, 0);
		CHECK(f >= -1 && f < 1);
		CHECK(f == (double)(float)f); /* exactly an f32 value */
		lo = fmin(lo, f), hi = fmax(hi, f), sum += f;
		double e = kcc_value(3, 2, i, KCC_T_F32, KCC_FILL_EXACT, 0, 0);
		CHECK(e == floor(e) && e >= -4 && e <= 4);
		double h = kcc_value(3, 2, i, KCC_T_F16, KCC_FILL_EXACT, 0, 0);
		CHECK(h >= -2 && h <= 2);
		double n = kcc_value(3, 2, i, KCC_T_I32, KCC_FILL_RANDOM, 5, 9);
		CHECK(n >= 5 && n < 9 && n == floor(n));
		double u8 = kcc_value(3, 2, i, KCC_T_U8, KCC_FILL_RANDOM, 0, 0);
		CHECK(u8 >= 0 && u8 < 256);
		if (check_failures)
			break;
	}
	CHECK(lo < -0.999 && hi > 0.999 && fabs(sum / 100000) < 0.01);

	/* Half and bfloat16: exact values round-trip, rounding is to nearest. */
	CHECK(kcc_f16_from_float(1.0f) == 0x3c00);
	CHECK(kcc_f16_from_float(-2.0f) == 0xc000);
	CHECK(kcc_f16_from_float(65504.0f) == 0x7bff);
	CHECK(kcc_f16_from_float(1e6f) == 0x7c00);
	CHECK(kcc_f16_from_float(5.9604645e-8f) == 0x0001); /* smallest subnormal */
	CHECK(kcc_float_from_f16(0x0001) == 5.9604645e-8f);
	CHECK(kcc_float_from_f16(0x3555) > 0.333f && kcc_float_from_f16(0x3555) < 0.3334f);
	CHECK(kcc_f16_from_float(1.0f + 0x1p-11f) == 0x3c00); /* tie to even */
	CHECK(kcc_bf16_from_float(1.0f) == 0x3f80);
	CHECK(kcc_float_from_bf16(kcc_bf16_from_float(3.0f)) == 3.0f);
	for (int i = -2048; i <= 2048; i++)
		CHECK(kcc_float_from_f16(kcc_f16_from_float((float)i)) == (float)i);

	/* Poison: NaN for floats with a payload, finite sentinels otherwise. */
	float pf;
	kcc_poison_elem(&pf, KCC_T_F32, KCC_POISON_NAN);
	CHECK(isnan(pf) && kcc_f32_bits(pf) == 0x7fc5a5a5u);
	kcc_poison_elem(&pf, KCC_T_F32, KCC_POISON_SENTINEL);
	CHECK(pf == 12345.0f);
	double pd;
	kcc_poison_elem(&pd, KCC_T_F64, KCC_POISON_NAN);
	CHECK(isnan(pd));
	uint16_t ph;
	kcc_poison_elem(&ph, KCC_T_F16, KCC_POISON_NAN);
	CHECK(isnan(kcc_float_from_f16(ph)));
	kcc_poison_elem(&ph, KCC_T_BF16, KCC_POISON_SENTINEL);
	CHECK(kcc_float_from_bf16(ph) > 1200 && kcc_float_from_bf16(ph) < 1240);

	/* The hash sees every byte and the length. */
	unsigned char buf[37] = {0};
	uint64_t h0 = kcc_hash(buf, 37);
	buf[36] = 1;
	CHECK(kcc_hash(buf, 37) != h0);
	CHECK(kcc_hash(buf, 36) != kcc_hash(buf, 35));

	/* Reason names round-trip; unknown ones are rejected. */
	for (int r = 0; r < VR__COUNT; r++)
		CHECK(verify_reason_parse(verify_reason_name((VerifyReason)r)) == (VerifyReason)r);
	CHECK(verify_reason_parse("input-modified") == VR_INPUT_MODIFIED);
	CHECK(verify_reason_parse("bogus") == VR__COUNT);
	return check_summary("test_verify_rt");
}
