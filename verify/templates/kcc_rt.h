/*
 * kcc_rt.h — the part of kcc's test harness that kcc itself shares: the
 * counter-based input generator, the poison and canary patterns, the
 * buffer hash and the plan/result file formats.
 *
 * It is compiled three ways: into kcc (verify/), into generated C harnesses
 * and, as C++, into generated CUDA harnesses. Because the same text defines
 * the values on every side, the reference and the candidate see identical
 * inputs whatever language they are in, and kcc can recompute any value.
 * Keep it to the common subset of C17 and C++17 and free of globals.
 */
#ifndef KCC_RT_H
#define KCC_RT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Element types, in the order of ir.h's ElemType (ET_F64 == 1 ...). */
enum { KCC_T_NONE, KCC_T_F64, KCC_T_F32, KCC_T_F16, KCC_T_BF16, KCC_T_I64, KCC_T_I32,
       KCC_T_I16, KCC_T_I8, KCC_T_U8 };
enum { KCC_ROLE_IN, KCC_ROLE_OUT, KCC_ROLE_INOUT, KCC_ROLE_SCRATCH };
/* How a call fills its inputs. */
enum { KCC_FILL_RANDOM = 0, KCC_FILL_EXACT = 1 };
/* How a call poisons its outputs. */
enum { KCC_POISON_SENTINEL = 1, KCC_POISON_NAN = 2 };

#define KCC_GUARD_BYTES 4096
#define KCC_CANARY 0xCB
#define KCC_RESULT_MAGIC 0x5243434bu /* "KCCR" */
#define KCC_TAG_CALL 0x4c4c4143u     /* "CALL" */
#define KCC_TAG_SAMPLES 0x504d4153u  /* "SAMP" */
#define KCC_TAG_END 0x21444e45u      /* "END!" */
/* The harness's exit status when its sandbox denied a system call. */
#define KCC_EXIT_FORBIDDEN 6

static inline size_t kcc_elem_size(int t)
{
	static const unsigned char sz[] = {0, 8, 4, 2, 2, 8, 4, 2, 1, 1};
	return t > 0 && t < 10 ? sz[t] : 0;
}

/* splitmix64's finalizer: a good 64-bit mixer, the same in every language. */
static inline uint64_t kcc_mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The random word for element i of parameter p under seed: counter-based,
 * so any element can be computed alone and in any order. */
static inline uint64_t kcc_word(uint64_t seed, int p, uint64_t i)
{
	return kcc_mix(kcc_mix(seed ^ ((uint64_t)(p + 1) << 48)) + i);
}

static inline uint32_t kcc_f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* float -> IEEE half, round to nearest even (subnormals and overflow too). */
static inline uint16_t kcc_f16_from_float(float f)
{
	uint32_t x = kcc_f32_bits(f), sign = (x >> 16) & 0x8000u;
	uint32_t ax = x & 0x7fffffffu;
	if (ax >= 0x7f800000u)
		return (uint16_t)(sign | (ax > 0x7f800000u ? 0x7e00u : 0x7c00u));
	if (ax >= 0x477ff000u) /* rounds to >= 65520: infinity */
		return (uint16_t)(sign | 0x7c00u);
	if (ax < 0x38800000u) { /* below 2^-14: subnormal half */
		if (ax < 0x33000000u)
			return (uint16_t)sign;
		uint32_t m = (ax & 0x7fffffu) | 0x800000u;
		int shift = 126 - (int)(ax >> 23); /* 14..24 */
		uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((ax >> 13) - (112u << 10)), rem = ax & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

static inline uint16_t kcc_bf16_from_float(float f)
{
	uint32_t x = kcc_f32_bits(f);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40);
	x += 0x7fffu + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

static inline float kcc_float_from_f16(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, x;
	if (e == 0x1f)
		x = sign | 0x7f800000u | (m << 13);
	else if (e)
		x = sign | ((e + 112) << 23) | (m << 13);
	else if (!m)
		x = sign;
	else { /* subnormal: normalise */
		e = 113;
		while (!(m & 0x400)) {
			m <<= 1;
			e--;
		}
		x = sign | (e << 23) | ((m & 0x3ff) << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static inline float kcc_float_from_bf16(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* Store v as type t at dst (floats round, integers are already exact). */
static inline void kcc_store(void *dst, int t, double v)
{
	switch (t) {
	case KCC_T_F64: memcpy(dst, &v, 8); break;
	case KCC_T_F32: { float f = (float)v; memcpy(dst, &f, 4); break; }
	case KCC_T_F16: { uint16_t h = kcc_f16_from_float((float)v); memcpy(dst, &h, 2); break; }
	case KCC_T_BF16: { uint16_t h = kcc_bf16_from_float((float)v); memcpy(dst, &h, 2); break; }
	case KCC_T_I64: { int64_t x = (int64_t)v; memcpy(dst, &x, 8); break; }
	case KCC_T_I32: { int32_t x = (int32_t)v; memcpy(dst, &x, 4); break; }
	case KCC_T_I16: { int16_t x = (int16_t)v; memcpy(dst, &x, 2); break; }
	case KCC_T_I8: { int8_t x = (int8_t)v; memcpy(dst, &x, 1); break; }
	case KCC_T_U8: { uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
	default: break;
	}
}

/* Read element i of a buffer of type t as a double (kcc's comparison). */
static inline double kcc_load(const void *buf, int t, size_t i)
{
	const unsigned char *p = (const unsigned char *)buf + i * kcc_elem_size(t);
	switch (t) {
	case KCC_T_F64: { double v; memcpy(&v, p, 8); return v; }
	case KCC_T_F32: { float v; memcpy(&v, p, 4); return v; }
	case KCC_T_F16: { uint16_t h; memcpy(&h, p, 2); return kcc_float_from_f16(h); }
	case KCC_T_BF16: { uint16_t h; memcpy(&h, p, 2); return kcc_float_from_bf16(h); }
	case KCC_T_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
	case KCC_T_I32: { int32_t v; memcpy(&v, p, 4); return v; }
	case KCC_T_I16: { int16_t v; memcpy(&v, p, 2); return v; }
	case KCC_T_I8: { int8_t v; memcpy(&v, p, 1); return v; }
	case KCC_T_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
	default: return 0;
	}
}

/* The default range of integer inputs without a spec range(lo,hi): the
 * whole type for narrow types, +-2^16 for wide ones so sums do not overflow. */
static inline void kcc_int_range(int t, long long *lo, long long *hi)
{
	switch (t) {
	case KCC_T_I8: *lo = -128; *hi = 128; break;
	case KCC_T_U8: *lo = 0; *hi = 256; break;
	case KCC_T_I16: *lo = -32768; *hi = 32768; break;
	default: *lo = -65536; *hi = 65536; break;
	}
}

/* The value of element i of parameter p: floats uniform in [-1,1) (exact
 * mode: an integer in [-4,4], [-2,2] for 16-bit floats, so any summation
 * order is exact); integers uniform in [lo,hi) (lo == hi: the default). The
 * value is produced in the logical type: a promoted (f64-stored) f32 input
 * holds exactly the f32 value. */
static inline double kcc_value(uint64_t seed, int p, uint64_t i, int logical, int fill,
                               long long lo, long long hi)
{
	uint64_t w = kcc_word(seed, p, i);
	if (logical >= KCC_T_I64) {
		if (lo >= hi)
			kcc_int_range(logical, &lo, &hi);
		return (double)(lo + (long long)(w % (uint64_t)(hi - lo)));
	}
	double v;
	if (fill == KCC_FILL_EXACT) {
		int k = (logical == KCC_T_F16 || logical == KCC_T_BF16) ? 2 : 4;
		v = (double)((long long)(w % (uint64_t)(2 * k + 1)) - k);
	} else {
		v = (double)(w >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
	}
	if (logical == KCC_T_F32)
		v = (double)(float)v;
	else if (logical == KCC_T_F16)
		v = kcc_float_from_f16(kcc_f16_from_float((float)v));
	else if (logical == KCC_T_BF16)
		v = kcc_float_from_bf16(kcc_bf16_from_float((float)v));
	return v;
}

/* The poison an output element holds before the call, as bytes of type t:
 * a NaN with a recognisable payload, or a finite sentinel (12345.0, and
 * -0x5A5A-like patterns for integers; DESIGN 5.4). Integers have no NaN, so
 * the "NaN" run gets a second pattern. */
static inline void kcc_poison_elem(void *dst, int t, int kind)
{
	static const unsigned char nanb[][8] = {
	    {0}, {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xf8, 0x7f}, {0xa5, 0xa5, 0xc5, 0x7f},
	    {0x5a, 0x7e}, {0xc5, 0x7f}};
	if (kind == KCC_POISON_NAN && t <= KCC_T_BF16) {
		memcpy(dst, nanb[t], kcc_elem_size(t));
	} else if (kind == KCC_POISON_NAN) {
		kcc_store(dst, t, t == KCC_T_U8 ? 0x7e : t == KCC_T_I8 ? 0x7e
		                  : t == KCC_T_I16 ? 0x7e7e : 0x7e7e7e7e);
	} else if (t <= KCC_T_BF16) {
		kcc_store(dst, t, t == KCC_T_F16 || t == KCC_T_BF16 ? 1234.0 : 12345.0);
	} else {
		kcc_store(dst, t, t == KCC_T_U8 ? 0xa5 : t == KCC_T_I8 ? -0x5a : -0x5a5a);
	}
}

/* The poison of output element i under a per-run salt (DESIGN 5.4, issue
 * 17): a different value for every element and every run, so a candidate
 * cannot recognise "the harness's poison" by its value, by its payload or
 * by all elements being equal. The salt is one per run; the kind tells the
 * two runs apart. Sentinel: a finite value of magnitude 1000..51000 with a
 * random sign and fraction; NaN: a quiet NaN with a random payload;
 * integers: random bits (the "NaN" run the same bits xor 0xa5).
 * Salt 0 gives the fixed patterns of kcc_poison_elem. */
static inline void kcc_poison_at(void *dst, int t, int kind, uint64_t salt, uint64_t i)
{
	if (!salt) {
		kcc_poison_elem(dst, t, kind);
		return;
	}
	uint64_t w = kcc_mix(salt ^ kcc_mix(i));
	if (kind == KCC_POISON_NAN && t <= KCC_T_BF16) {
		if (t == KCC_T_F64) {
			uint64_t b = 0x7ff8000000000000ull | (w & 0x0007ffffffffffffull) | 1;
			memcpy(dst, &b, 8);
		} else if (t == KCC_T_F32) {
			uint32_t b = 0x7fc00000u | ((uint32_t)w & 0x003fffffu) | 1;
			memcpy(dst, &b, 4);
		} else {
			uint16_t b = t == KCC_T_F16 ? (uint16_t)(0x7e00u | (w & 0x1ffu) | 1)
			                            : (uint16_t)(0x7fc0u | (w & 0x3fu) | 1);
			memcpy(dst, &b, 2);
		}
	} else if (t <= KCC_T_BF16) {
		double v = 1000.0 + (double)((w >> 8) % 50000) + (double)((w >> 40) & 7) / 8.0;
		kcc_store(dst, t, (w & 1) ? -v : v);
	} else {
		/* The two runs differ in every byte: an element equal to both is
		 * impossible, so "unwritten in both" is never a coincidence. */
		if (kind == KCC_POISON_NAN)
			w ^= 0xa5a5a5a5a5a5a5a5ull;
		memcpy(dst, &w, kcc_elem_size(t));
	}
}

/* Guard byte j of a canary zone under a per-run seed: a random stream,
 * not a constant a candidate could look for before its buffers. */
static inline unsigned char kcc_guard_byte(uint64_t seed, uint64_t j)
{
	if (!seed)
		return KCC_CANARY;
	return (unsigned char)(kcc_mix(seed + (j >> 3)) >> (8 * (j & 7)));
}

/* Perturbation call: the k-th redrawn element of parameter p and the seed
 * its new value is drawn with. */
static inline uint64_t kcc_perturb_index(uint64_t seed, int p, uint64_t k, uint64_t n)
{
	return kcc_mix(seed ^ 0x7065727475726221ull ^ ((uint64_t)(p + 1) << 40) ^ k) % n;
}

static inline uint64_t kcc_perturb_seed(uint64_t seed, uint64_t k)
{
	return kcc_mix(seed ^ 0x5045525455524221ull) + k;
}

/* FNV-1a over 64-bit words, then the tail: fast enough for bench shapes. */
static inline uint64_t kcc_hash(const void *data, size_t n)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return kcc_mix(h ^ n);
}

#endif
