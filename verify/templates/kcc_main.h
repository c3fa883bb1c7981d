/*
 * kcc_main.h — the harness's main(), the same for every target (memory,
 * synchronisation and timers come from the target header included before).
 * It sits before the kernel file in the generated harness, so macros the
 * kernel defines cannot rewrite it.
 *
 *   harness PLAN [RESULTS]   (PLAN a file, or - for stdin: kcc sends it there)
 *
 * Results go to the descriptor the plan names: the write end of a pipe kcc
 * created (runners/proc.c), at a number drawn at random for every run, made
 * close-on-exec at once; nothing is written to the file system. The
 * (Remote runners, which move files and not descriptors, name a RESULTS
 * file instead; everything else is the same.) The
 * harness writes one record per planned call and an end record, then leaves
 * with _exit() so no exit handler of the candidate's runs after it; kcc
 * rejects any run whose records are not exactly the planned calls.
 *
 * Check mode runs the plan's calls in order in this one process (A, B, A',
 * repeats: DESIGN 5.6-5.7); for each call it fills or poisons every buffer
 * between canary guard zones, calls the entry, synchronises the stream and
 * then the device, and writes one record: per buffer the guard status, the
 * hash of its contents before and after the call, whether an output
 * changed after the stream sync (escaped work) and the output bytes. kcc
 * compares; the harness never judges.
 *
 * Bench mode keeps several input sets, warms up, then takes samples (flush,
 * re-poison outputs, time one call) until the standard error is small, and
 * writes the samples plus the outputs of one set's last timed call.
 *
 * Profile mode (built with -DKCC_PROFILE, run by a profiler: callgrind,
 * perf, ncu, the riscv64 plugin) fills the inputs of the plan's one call
 * as check mode does, leaves the host caches cold as the timed runs have
 * them, and calls the entry once from kcc_profile_calls(), the function
 * the profiler isolates, so the counts are the kernel's and not the
 * filling's. It writes no results and installs no sandbox (a profiler's
 * injected library must reach its host).
 */
#ifndef KCC_MAIN_H
#define KCC_MAIN_H

#define KCC_NS1 (KCC_NS + 1)
/* A target's runtime header says how strict its sandbox can be; one that
 * does not (a new target) gets the runtime level. */
#ifndef KCC_SANDBOX_LEVEL
#define KCC_SANDBOX_LEVEL KCC_SANDBOX_RUNTIME
#endif

typedef struct {
	long long set, seed, fill, poison, pert;
	long long n[KCC_NP], lo[KCC_NP], hi[KCC_NP];
	long long s[KCC_NS1];
} KccCall;

typedef struct {
	void *base[KCC_NP];   /* device allocation: guard, data, guard */
	size_t bytes[KCC_NP]; /* data bytes */
} KccSet;

static unsigned char *kcc_host[KCC_NP], *kcc_snap[KCC_NP];
static size_t kcc_hostcap[KCC_NP];
/* Per run, from the plan: the guard zones' byte stream and the poison's
 * salt (kcc_rt.h), so neither is a constant a candidate could look for. */
static uint64_t kcc_gseed, kcc_psalt;

static size_t kcc_bytes(int p, long long n)
{
	return (size_t)n * kcc_elem_size(kcc_params[p].store);
}

static void kcc_read_call(FILE *f, KccCall *c)
{
	c->set = kcc_read_num(f);
	c->seed = kcc_read_num(f);
	c->fill = kcc_read_num(f);
	c->poison = kcc_read_num(f);
	c->pert = kcc_read_num(f);
	for (int p = 0; p < KCC_NP; p++) {
		c->n[p] = kcc_read_num(f);
		c->lo[p] = kcc_read_num(f);
		c->hi[p] = kcc_read_num(f);
		if (c->n[p] < 0)
			kcc_fail(2, "negative extent");
	}
	for (int i = 0; i < KCC_NS; i++)
		c->s[i] = kcc_read_num(f);
}

static unsigned char *kcc_staging(int p, size_t bytes)
{
	size_t need = bytes + 2 * KCC_GUARD_BYTES;
	if (kcc_hostcap[p] < need) {
		free(kcc_host[p]);
		free(kcc_snap[p]);
		kcc_host[p] = (unsigned char *)kcc_xmalloc(need);
		kcc_snap[p] = (unsigned char *)kcc_xmalloc(need);
		kcc_hostcap[p] = need;
	}
	return kcc_host[p];
}

/* Fill parameter p's staging buffer (data and guards) as call c says. */
static void kcc_prepare(int p, const KccCall *c, size_t bytes)
{
	unsigned char *h = kcc_staging(p, bytes);
	const KccParam *kp = &kcc_params[p];
	size_t es = kcc_elem_size(kp->store);
	for (size_t j = 0; j < KCC_GUARD_BYTES; j++) {
		h[j] = kcc_guard_byte(kcc_gseed, j);
		h[KCC_GUARD_BYTES + bytes + j] = kcc_guard_byte(kcc_gseed, KCC_GUARD_BYTES + j);
	}
	unsigned char *d = h + KCC_GUARD_BYTES;
	for (long long i = 0; i < c->n[p]; i++) {
		if (kp->role == KCC_ROLE_OUT || kp->role == KCC_ROLE_SCRATCH)
			kcc_poison_at(d + (size_t)i * es, kp->store, (int)c->poison, kcc_psalt,
			              (uint64_t)i);
		else
			kcc_store(d + (size_t)i * es, kp->store,
			          kcc_value((uint64_t)c->seed, p, (uint64_t)i, kp->type,
			                    (int)c->fill, c->lo[p], c->hi[p]));
	}
	/* A perturbation call: the same inputs with a few elements redrawn
	 * (kcc_perturb_index/seed of kcc_rt.h), so a memo keyed on samples,
	 * pointers or sizes returns a stale answer. */
	if ((kp->role == KCC_ROLE_IN || kp->role == KCC_ROLE_INOUT) && c->n[p] > 0)
		for (long long k = 0; k < c->pert; k++) {
			uint64_t i = kcc_perturb_index((uint64_t)c->seed, p, (uint64_t)k,
			                               (uint64_t)c->n[p]);
			kcc_store(d + i * es, kp->store,
			          kcc_value(kcc_perturb_seed((uint64_t)c->seed, (uint64_t)k), p, i,
			                    kp->type, (int)c->fill, c->lo[p], c->hi[p]));
		}
}

static void kcc_alloc_set(KccSet *st, const KccCall *c)
{
	for (int p = 0; p < KCC_NP; p++) {
		size_t b = kcc_bytes(p, c->n[p]);
		if (st->base[p] && st->bytes[p] == b)
			continue;
		if (st->base[p])
			kcc_dfree(st->base[p]);
		st->base[p] = kcc_dalloc(b + 2 * KCC_GUARD_BYTES);
		st->bytes[p] = b;
	}
}

static void *kcc_data(const KccSet *st, int p)
{
	return (unsigned char *)st->base[p] + KCC_GUARD_BYTES;
}

#ifdef KCC_ASAN
/* The sanitizer build (cpu): during the call the guard zones are poisoned
 * for ASan (any access, even one undone before returning, is reported)
 * and the pages of `in` buffers are read-only (a write faults). */
static void kcc_protect(const KccSet *st, int on)
{
	for (int p = 0; p < KCC_NP; p++) {
		unsigned char *b = (unsigned char *)st->base[p];
		size_t n = st->bytes[p];
		if (on) {
			ASAN_POISON_MEMORY_REGION(b, KCC_GUARD_BYTES);
			ASAN_POISON_MEMORY_REGION(b + KCC_GUARD_BYTES + n, KCC_GUARD_BYTES);
		} else {
			ASAN_UNPOISON_MEMORY_REGION(b, KCC_GUARD_BYTES);
			ASAN_UNPOISON_MEMORY_REGION(b + KCC_GUARD_BYTES + n, KCC_GUARD_BYTES);
		}
		if (kcc_params[p].role == KCC_ROLE_IN && n)
			mprotect(b + KCC_GUARD_BYTES, (n + 4095) / 4096 * 4096,
			         on ? PROT_READ : PROT_READ | PROT_WRITE);
	}
}
#else
static void kcc_protect(const KccSet *st, int on)
{
	(void)st;
	(void)on;
}
#endif

static void kcc_call_entry(const KccSet *st, const KccCall *c)
{
	void *ptr[KCC_NP];
	for (int p = 0; p < KCC_NP; p++)
		ptr[p] = kcc_data(st, p);
	kcc_protect(st, 1);
	int rc = kcc_call(ptr, c->s);
	kcc_protect(st, 0);
	kcc_after_call();
	if (rc != 0)
		kcc_fail(4, "the entry returned %d", rc);
}

static int kcc_guard_ok(const unsigned char *h, size_t bytes)
{
	for (size_t i = 0; i < KCC_GUARD_BYTES; i++)
		if (h[i] != kcc_guard_byte(kcc_gseed, i) ||
		    h[KCC_GUARD_BYTES + bytes + i] != kcc_guard_byte(kcc_gseed, KCC_GUARD_BYTES + i))
			return 0;
	return 1;
}

/* Copy set st back (guards included) and write one CALL record. hb holds
 * the hashes taken before the call; snap says whether kcc_snap holds the
 * outputs as they were right after the stream sync. */
static void kcc_record(FILE *out, unsigned idx, const KccSet *st, const uint64_t *hb,
                       int snap)
{
	kcc_put32(out, KCC_TAG_CALL);
	kcc_put32(out, idx);
	kcc_put32(out, KCC_NP);
	for (int p = 0; p < KCC_NP; p++) {
		size_t b = st->bytes[p];
		unsigned char *h = kcc_staging(p, b);
		kcc_d2h(h, st->base[p], b + 2 * KCC_GUARD_BYTES);
		const unsigned char *d = h + KCC_GUARD_BYTES;
		int is_out = kcc_params[p].role == KCC_ROLE_OUT ||
		             kcc_params[p].role == KCC_ROLE_INOUT; /* scratch: never compared */
		int escaped = snap && is_out && memcmp(kcc_snap[p], d, b) != 0;
		kcc_put32(out, (uint32_t)kcc_guard_ok(h, b));
		kcc_put32(out, (uint32_t)escaped);
		kcc_put64(out, hb[p]);
		kcc_put64(out, kcc_hash(d, b));
		kcc_put64(out, is_out ? b : 0);
		if (is_out)
			kcc_put(out, d, b);
	}
	fflush(out);
}

static void kcc_upload(KccSet *st, const KccCall *c, uint64_t *hb)
{
	for (int p = 0; p < KCC_NP; p++) {
		size_t b = st->bytes[p];
		kcc_prepare(p, c, b);
		hb[p] = kcc_hash(kcc_host[p] + KCC_GUARD_BYTES, b);
		kcc_h2d(st->base[p], kcc_host[p], b + 2 * KCC_GUARD_BYTES);
	}
}

static void kcc_check_mode(const KccCall *calls, FILE *out, long long ncalls)
{
	static KccSet sets[2];
	for (long long i = 0; i < ncalls; i++) {
		KccCall c = calls[i];
		uint64_t hb[KCC_NP];
		KccSet *st = &sets[c.set & 1];
		kcc_alloc_set(st, &c);
		kcc_upload(st, &c, hb);
		kcc_sync_device();
		kcc_call_entry(st, &c);
		kcc_sync_stream();
		if (KCC_HAS_STREAMS)
			for (int p = 0; p < KCC_NP; p++)
				if (kcc_params[p].role == KCC_ROLE_OUT ||
				    kcc_params[p].role == KCC_ROLE_INOUT)
					kcc_d2h(kcc_snap[p], kcc_data(st, p), st->bytes[p]);
		kcc_sync_device();
		kcc_record(out, (unsigned)i, st, hb, KCC_HAS_STREAMS);
	}
}

static double kcc_mean_se(const double *x, long long n, double *se)
{
	double m = 0, v = 0;
	for (long long i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (long long i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	*se = n > 1 ? sqrt(v / (double)(n - 1) / (double)n) : m;
	return m;
}

/* Restore one set before a timed call: outputs re-poisoned (0xFF bytes: a
 * NaN or -1), inout buffers copied back from their pristine twin. */
static void kcc_reset_set(KccSet *st, KccSet *pristine)
{
	for (int p = 0; p < KCC_NP; p++) {
		if (kcc_params[p].role == KCC_ROLE_OUT || kcc_params[p].role == KCC_ROLE_SCRATCH)
			kcc_dset(kcc_data(st, p), 0xff, st->bytes[p]);
		else if (kcc_params[p].role == KCC_ROLE_INOUT)
			kcc_d2d(kcc_data(st, p), kcc_data(pristine, p), st->bytes[p]);
	}
}

typedef struct {
	KccCall c;
	long long nsets, check, minn, maxn;
	double warm, cap, rel_se;
} KccBench;

static void kcc_read_bench(FILE *plan, KccBench *b)
{
	kcc_read_call(plan, &b->c);
	b->nsets = kcc_read_num(plan);
	b->check = kcc_read_num(plan);
	b->warm = kcc_read_dbl(plan);
	b->cap = kcc_read_dbl(plan);
	b->minn = kcc_read_num(plan);
	b->maxn = kcc_read_num(plan);
	b->rel_se = kcc_read_dbl(plan);
	if (b->nsets < 1 || b->nsets > 16 || b->check < 0 || b->check >= b->nsets ||
	    b->minn < 1 || b->maxn < b->minn)
		kcc_fail(2, "malformed bench plan");
}

/* Cold caches before a sample. On x86-64 the cpu target evicts the set's
 * own lines from every cache level (clflush, then a fence): what the timed
 * call reads must come from memory, as a flush of twice the last-level
 * cache makes it, without writing that much (532 MB a sample where a VM
 * reports its host's 260 MB L3), which took most of a timing run and
 * starved a second kcc timing beside it of memory bandwidth. Elsewhere
 * the target's flush. */
static void kcc_cool(const KccSet *st, size_t flush)
{
#if defined(KCC_CPU_H) && defined(__x86_64__)
	(void)flush;
	for (int p = 0; p < KCC_NP; p++) {
		const char *b = (const char *)st->base[p];
		size_t n = st->bytes[p] + 2 * KCC_GUARD_BYTES;
		for (size_t i = 0; i < n; i += 64)
			__builtin_ia32_clflush(b + i);
	}
	__builtin_ia32_mfence();
#else
	(void)st;
	kcc_flush(flush);
#endif
}

static void kcc_bench_mode(const KccBench *bp, FILE *out, size_t flush)
{
	KccCall c = bp->c;
	long long nsets = bp->nsets, check = bp->check, minn = bp->minn, maxn = bp->maxn;
	double warm = bp->warm, cap = bp->cap, rel_se = bp->rel_se;
	KccSet *sets = (KccSet *)calloc((size_t)nsets * 2, sizeof(KccSet));
	uint64_t *hb = (uint64_t *)calloc((size_t)nsets * KCC_NP, sizeof(uint64_t));
	if (!sets || !hb)
		kcc_fail(5, "out of host memory");
	long long seed0 = c.seed;
	for (long long k = 0; k < nsets; k++) {
		c.seed = seed0 + k;
		kcc_alloc_set(&sets[k], &c);
		kcc_upload(&sets[k], &c, hb + k * KCC_NP);
		for (int p = 0; p < KCC_NP; p++) { /* pristine twins of inout buffers */
			if (kcc_params[p].role != KCC_ROLE_INOUT)
				continue;
			KccSet *tw = &sets[nsets + k];
			tw->bytes[p] = sets[k].bytes[p];
			tw->base[p] = kcc_dalloc(tw->bytes[p] + 2 * KCC_GUARD_BYTES);
			kcc_d2d(kcc_data(tw, p), kcc_data(&sets[k], p), sets[k].bytes[p]);
		}
	}
	kcc_sync_device();
	/* Warm-up by time; the first call (module load, first touch) is
	 * excluded. A kernel slower than the warm-up time is warm after it. */
	double t1 = kcc_now();
	kcc_call_entry(&sets[0], &c);
	kcc_sync_device();
	for (double t0 = kcc_now(); t0 - t1 < warm && kcc_now() - t0 < warm;) {
		kcc_call_entry(&sets[0], &c);
		kcc_sync_device();
	}
	double *ev = (double *)kcc_xmalloc((size_t)maxn * sizeof(double));
	double *wall = (double *)kcc_xmalloc((size_t)maxn * sizeof(double));
	long long n = 0;
	double start = kcc_now(), se = 0;
	while (n < maxn) {
		KccSet *st = &sets[n % nsets];
		kcc_cool(st, flush);
		kcc_reset_set(st, &sets[nsets + n % nsets]);
		kcc_sync_device();
		double w0 = kcc_now();
		kcc_tstart();
		kcc_call_entry(st, &c);
		ev[n] = kcc_tstop();
		kcc_sync_device();
		wall[n] = kcc_now() - w0;
		n++;
		double m = kcc_mean_se(ev, n, &se);
		if (n >= minn && (se <= rel_se * m || kcc_now() - start > cap))
			break;
		if (n >= 3 && kcc_now() - start > 3 * cap)
			break; /* very slow kernels: a few samples rather than a timeout */
	}
	kcc_put32(out, KCC_TAG_SAMPLES);
	kcc_put32(out, (uint32_t)n);
	for (long long i = 0; i < n; i++) {
		kcc_put(out, &ev[i], sizeof(double));
		kcc_put(out, &wall[i], sizeof(double));
	}
	/* The outputs of the check set's last timed call, compared by kcc
	 * (DESIGN 5.8); the set is synchronised already. */
	kcc_record(out, (unsigned)check, &sets[check], hb + check * KCC_NP, 0);
}

#ifdef KCC_PROFILE
static KccSet kcc_prof_set;
static KccCall kcc_prof_call;
static void *kcc_prof_ptr[KCC_NP];
static int kcc_prof_rc;
/* Only the call: everything it needs is ready, so the profile counts
 * (almost) nothing but the entry. */
#ifdef __cplusplus
extern "C"
#endif
    __attribute__((noinline, used)) void
    kcc_profile_calls(void)
{
	kcc_prof_rc = kcc_call(kcc_prof_ptr, kcc_prof_call.s);
}
#endif

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3)
		kcc_fail(2, "usage: harness PLAN [RESULTS] (PLAN a file or - for stdin)");
	FILE *plan = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!plan)
		kcc_fail(2, "cannot open the plan");
	char magic[8] = {0};
	if (fscanf(plan, "%7s", magic) != 1 || strcmp(magic, "KCCP") != 0)
		kcc_fail(2, "not a kcc plan");
	long long version = kcc_read_num(plan), chan = kcc_read_num(plan);
	long long mode = kcc_read_num(plan);
	long long np = kcc_read_num(plan), ns = kcc_read_num(plan);
	long long flush = kcc_read_num(plan), ncalls = kcc_read_num(plan);
	long long sandbox = kcc_read_num(plan);
	kcc_gseed = (uint64_t)kcc_read_num(plan);
	kcc_psalt = (uint64_t)kcc_read_num(plan);
	if (version != 2 || np != KCC_NP || ns != KCC_NS || flush < 0 || ncalls < 0 ||
	    ncalls > 100000)
		kcc_fail(2, "plan does not match this harness");
	/* The whole plan is read before the entry can run. */
	KccCall *calls = NULL;
	KccBench bench;
	if (mode == 0 || mode == 2) {
		calls = (KccCall *)kcc_xmalloc(sizeof(KccCall) * (size_t)(ncalls + 1));
		for (long long i = 0; i < ncalls; i++)
			kcc_read_call(plan, &calls[i]);
	} else
		kcc_read_bench(plan, &bench);
	if (plan != stdin)
		fclose(plan);
	/* RESULTS: a file, for runners that bring files back (ssh, slurm). */
	FILE *out = chan >= 3 ? fdopen((int)chan, "wb")
	                      : fopen(argc == 3 ? argv[2] : "/dev/null", "wb");
	if (!out)
		kcc_fail(2, "no results channel");
	if (chan >= 3)
		fcntl((int)chan, F_SETFD, FD_CLOEXEC);
	kcc_init();
#ifdef KCC_PROFILE
	/* In main itself: the riscv64 plugin's window closes at main's next
	 * block after kcc_profile_calls returns. */
	if (mode != 2 || ncalls != 1)
		kcc_fail(2, "a profile build runs one call (mode 2)");
	uint64_t hb[KCC_NP];
	kcc_prof_call = calls[0];
	kcc_alloc_set(&kcc_prof_set, &kcc_prof_call);
	kcc_upload(&kcc_prof_set, &kcc_prof_call, hb);
	kcc_sync_device();
	/* Host caches cold, as the timed runs have them (the target's flush,
	 * which a simulating profiler's cache model sees, where clflush it may
	 * not); a GPU profiler controls the device's caches itself. */
	if (!KCC_HAS_STREAMS)
		kcc_flush((size_t)flush);
	for (int p = 0; p < KCC_NP; p++)
		kcc_prof_ptr[p] = kcc_data(&kcc_prof_set, p);
	kcc_profile_calls();
	kcc_after_call();
	if (kcc_prof_rc != 0)
		kcc_fail(4, "the entry returned %d", kcc_prof_rc);
	kcc_sync_device();
	kcc_finish();
	(void)out;
	_exit(0);
#endif
	if (mode == 2)
		kcc_fail(2, "profile mode needs a build with -DKCC_PROFILE");
	if (sandbox && kcc_sandbox(KCC_SANDBOX_LEVEL) != 0)
		kcc_fail(2, "cannot install the seccomp filter");
	kcc_put32(out, KCC_RESULT_MAGIC);
	if (mode == 0)
		kcc_check_mode(calls, out, ncalls);
	else
		kcc_bench_mode(&bench, out, (size_t)flush);
	kcc_finish();
	kcc_put32(out, KCC_TAG_END);
	if (fflush(out) != 0)
		kcc_fail(2, "cannot write results");
	_exit(0); /* no exit handlers, no destructors of the candidate's */
}

#endif
