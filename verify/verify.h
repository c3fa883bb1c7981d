/*
 * verify.h — the Verifier: differential execution of a candidate against the
 * original kernel (DESIGN.md section 5). Never an LLM.
 *
 * A verdict names one reason from a fixed vocabulary, so the search, the
 * report and the mutant corpus (testsuite/mutants/, each file tagged
 * `// kcc-mutant: expect=REASON`) all speak the same words.
 */
#ifndef KCC_VERIFY_H
#define KCC_VERIFY_H

#include "../ir/ir.h"

/* The reasons a candidate is rejected. The string names (verify_reason_name)
 * are stable: reports, tests and mutant tags use them. */
typedef enum {
	VR_OK = 0,
	VR_PARSE,          /* "parse": the candidate does not parse */
	VR_SIGNATURE,      /* "signature": entry missing or its signature changed */
	VR_PRAGMA,         /* "pragma": spec pragmas changed (other than adding tune) */
	VR_FORBIDDEN,      /* "forbidden": static scan found a forbidden call */
	VR_BUILD,          /* "build": the compiler rejected it */
	VR_CRASH,          /* "crash": died on a signal or returned an error */
	VR_TIMEOUT,        /* "timeout": exceeded its time limit */
	VR_CUDA_ERROR,     /* "cuda-error": a CUDA API or launch error */
	VR_UNWRITTEN,      /* "unwritten": an output element kept its poison */
	VR_WRONG,          /* "wrong": outputs differ beyond tolerance */
	VR_NAN,            /* "nan": NaN/Inf mask differs from the reference's */
	VR_INPUT_MODIFIED, /* "input-modified": an `in` buffer changed */
	VR_GUARD,          /* "guard": wrote outside a buffer (canary zone) */
	VR_STATEFUL,       /* "stateful": wrong on a later call in the same process */
	VR_NONDETERMINISTIC, /* "nondeterministic": results move between repeats */
	VR_BENCH_SHAPE,    /* "bench-shape": wrong at the timed shape only */
	VR_SANITIZER,      /* "sanitizer": compute-sanitizer reported an error */
	VR_ESCAPED,        /* "escaped": work finished after the harness's sync
	                      (another stream), or event time far below wall time */
	VR_PRECISION,      /* "precision": error above the reference's own error */
	VR__COUNT
} VerifyReason;

const char *verify_reason_name(VerifyReason r);
VerifyReason verify_reason_parse(const char *name); /* VR__COUNT if unknown */

#endif
