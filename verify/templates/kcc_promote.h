/*
 * kcc_promote.h — included just before the original kernel when kcc builds
 * its fp64 reference (DESIGN 5.5): every `float` becomes `double` and the
 * single-precision math functions their double twins, so the same
 * algorithm runs in double precision on the same (f32-valued) inputs. The
 * harness stores promoted f32 buffers as f64. Headers are all included
 * before this point, so their declarations keep their types. When the
 * kernel does not build this way, kcc falls back to fixed tolerances.
 */
#define float double
#define sqrtf sqrt
#define expf exp
#define exp2f exp2
#define expm1f expm1
#define logf log
#define log2f log2
#define log1pf log1p
#define fabsf fabs
#define fmaxf fmax
#define fminf fmin
#define fmaf fma
#define powf pow
#define tanhf tanh
#define sinf sin
#define cosf cos
#define tanf tan
#define erff erf
#define floorf floor
#define ceilf ceil
#define roundf round
#define truncf trunc
#define fmodf fmod
#define __expf exp
#define __logf log
#define __fdividef(a, b) ((a) / (b))
#define rsqrtf rsqrt
#undef FLT_MAX
#undef FLT_MIN
#undef FLT_EPSILON
#define FLT_MAX DBL_MAX
#define FLT_MIN DBL_MIN
#define FLT_EPSILON DBL_EPSILON
