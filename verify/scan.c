/*
 * scan.c — the static scan of a candidate (DESIGN 5.1): a cheap lexical
 * filter, not the proof. It tokenizes the text (skipping comments, string
 * and character literals) and rejects calls that reach outside the kernel's
 * job — processes, files, sockets, threads, dynamic loading, raw syscalls,
 * signals and exits, clocks (timer patching), the harness's namespace — as
 * well as headers and calls of vendor kernel libraries (unless allow_libs),
 * `#define`s of names the harness relies on, and inline asm whose
 * instructions are not on the allow-list (PTX arithmetic, memory and
 * tensor-core instructions for CUDA; only the empty compiler barrier for C).
 * CUDA stream creation is not rejected here but reported, so the dynamic
 * "escaped" check can say what happened.
 */
#include "internal.h"

#include <ctype.h>
#include <string.h>

static const char *const BAD_CALLS[] = {
    "system", "popen", "pclose", "fork", "vfork", "execl", "execlp", "execle", "execv",
    "execvp", "execvpe", "execve", "fexecve", "posix_spawn", "posix_spawnp", "clone",
    "syscall", "dlopen", "dlsym", "fopen", "freopen", "fdopen", "open", "openat", "creat",
    "read", "write", "close", "pipe", "dup", "dup2", "ioctl", "fcntl", "unlink", "remove",
    "rename", "mkdir", "rmdir", "chdir", "socket", "connect", "bind", "listen", "accept",
    "send", "sendto", "recv", "recvfrom", "getaddrinfo", "gethostbyname", "pthread_create",
    "thrd_create", "kill", "signal", "sigaction", "mmap", "mprotect", "munmap",
    "ptrace", "setrlimit", "setjmp", "longjmp", "atexit", "at_quick_exit", "getenv", "setenv", "putenv", "clock_gettime", "gettimeofday",
    "clock", "time", "rdtsc", "__rdtsc", "__builtin_ia32_rdtsc", "__builtin_readcyclecounter",
    "cudaEventElapsedTime", "cudaDeviceReset", "cudaSetDevice", "cudaCtxResetPersistingL2Cache",
    "cudaProfilerStop", "omp_set_num_threads"};

static const char *const BAD_HEADERS[] = {
    "pthread.h", "threads.h", "thread", "future", "dlfcn.h", "sys/socket.h", "netinet/",
    "arpa/", "netdb.h", "sys/mman.h", "spawn.h", "fstream", "filesystem", "sys/syscall.h",
    "sys/ptrace.h", "unistd.h", "fcntl.h", "setjmp.h", "csetjmp"};

static const char *const LIB_HEADERS[] = {"cublas", "cudnn", "cutlass/", "cute/", "mkl",
                                          "cblas", "openblas", "cusparse", "cufft",
                                          "cusolver", "lapack"};
static const char *const LIB_PREFIXES[] = {"cublas", "cudnn", "cutlass", "cute", "mkl_",
                                           "cblas_", "openblas_", "cusparse", "cufft",
                                           "cusolver", "LAPACKE_", "dgemm_", "sgemm_"};

static const char *const PROTECTED_DEFINES[] = {
    "memcpy", "memcmp", "memset", "malloc", "calloc", "free", "aligned_alloc", "printf",
    "fprintf", "fwrite", "fflush", "main", "fscanf", "clock_gettime", "_Exit"};

static const char *const STREAM_CALLS[] = {"cudaStreamCreate", "cudaStreamCreateWithFlags",
                                           "cudaStreamCreateWithPriority"};

/* PTX instructions a kernel may use: arithmetic, conversion, memory,
 * synchronisation, tensor cores. Reading clocks is not among them. */
static const char *const PTX_OK[] = {
    "mov", "ld", "st", "cvt", "cvta", "mma", "wmma", "wgmma", "ldmatrix", "stmatrix", "cp",
    "bar", "barrier", "fence", "membar", "shfl", "prmt", "fma", "add", "sub", "mul", "mad",
    "min", "max", "setp", "selp", "and", "or", "xor", "not", "shl", "shr", "red", "atom",
    "ex2", "lg2", "rcp", "sqrt", "rsqrt", "tanh", "brev", "bfe", "bfi", "popc", "clz",
    "div", "neg", "abs", "vote", "activemask", "griddepcontrol", "elect", "mbarrier",
    "tcgen05", "cp.async", "prefetch", "discard", "isspacep", "lop3", "dp4a", "dp2a",
    "copysign", "sin", "cos", "testp", "slct", "set", "redux", "match", "nanosleep",
    "createpolicy", "applypriority", "multimem", "st.async", "red.async", "tensormap",
    "setmaxnreg", "stackrestore", "stacksave", "ret", "bra", "exit", "trap", "pmevent",
    "shf", "mapa", "getctarank", "movmatrix", "bfind", "fns", "szext", "bmsk", "cvt.pack"};

typedef struct {
	const char *s, *end;
	int line;
	Lang lang;
	bool allow_libs;
	const char *what;
	int what_line;
	bool streams;
} Lex;

static bool in_list(const char *w, size_t n, const char *const *list, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (strlen(list[i]) == n && !strncmp(list[i], w, n))
			return true;
	return false;
}

static bool has_prefix(const char *w, size_t n, const char *const *list, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		size_t k = strlen(list[i]);
		if (n >= k && !strncmp(list[i], w, k))
			return true;
	}
	return false;
}

static void reject(Lex *x, const char *what)
{
	if (!x->what) {
		x->what = what;
		x->what_line = x->line;
	}
}

/* Skip a literal starting at q (a quote); copy its body into body if given. */
static const char *skip_literal(Lex *x, const char *q, Strbuf *body)
{
	char quote = *q++;
	while (q < x->end && *q != quote) {
		if (*q == '\\' && q + 1 < x->end) {
			if (body)
				sb_addn(body, q, 2);
			q += 2;
			continue;
		}
		if (*q == '\n')
			x->line++;
		if (body)
			sb_addc(body, *q);
		q++;
	}
	return q < x->end ? q + 1 : q;
}

static const char *skip_space_comments(Lex *x, const char *p)
{
	for (;;) {
		while (p < x->end && isspace((unsigned char)*p)) {
			if (*p == '\n')
				x->line++;
			p++;
		}
		if (p + 1 < x->end && p[0] == '/' && p[1] == '/') {
			while (p < x->end && *p != '\n')
				p++;
		} else if (p + 1 < x->end && p[0] == '/' && p[1] == '*') {
			p += 2;
			while (p + 1 < x->end && !(p[0] == '*' && p[1] == '/')) {
				if (*p == '\n')
					x->line++;
				p++;
			}
			p = p + 2 <= x->end ? p + 2 : x->end;
		} else {
			return p;
		}
	}
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static void check_asm_text(Lex *x, const char *text)
{
	if (x->lang == LANG_C) {
		if (text[strspn(text, " \t\n")])
			reject(x, "inline asm (only the empty compiler barrier is allowed in C)");
		return;
	}
	if (strstr(text, "%clock") || strstr(text, "%globaltimer"))
		reject(x, "inline asm reading a clock");
	/* Each instruction's mnemonic: after start, ';', '{', '}' or a newline,
	 * skipping predicates (@p) and labels. */
	for (const char *p = text; *p;) {
		while (*p && (isspace((unsigned char)*p) || *p == ';' || *p == '{' || *p == '}' ||
		              (*p == '\\' && p[1] == 'n') || (*p == '\\' && p[1] == 't')))
			p += (*p == '\\') ? 2 : 1;
		if (*p == '@')
			while (*p && !isspace((unsigned char)*p))
				p++;
		while (*p && isspace((unsigned char)*p))
			p++;
		const char *w = p;
		while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '%' ||
		              *p == '$' || *p == ':'))
			p++;
		size_t n = (size_t)(p - w);
		const char *dot = memchr(w, '.', n);
		size_t base = dot ? (size_t)(dot - w) : n;
		bool label = n && w[n - 1] == ':';
		bool decl = n && (w[0] == '.' || w[0] == '%'); /* .reg, .pred, %r */
		if (n && !label && !decl && !in_list(w, base, PTX_OK, ARRAY_LEN(PTX_OK)))
			reject(x, "inline asm instruction not on the allow-list");
		while (*p && *p != ';' && *p != '\n' && !(*p == '\\' && p[1] == 'n'))
			p++;
	}
}

char *verify_asm_rules(Arena *a, Lang lang)
{
	if (lang == LANG_C)
		return arena_strdup(a, "no inline asm, except the empty compiler barrier "
		                       "`asm volatile(\"\" ::: \"memory\")`; use intrinsics");
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "inline PTX may use these instructions (any suffixes): ");
	for (size_t i = 0; i < ARRAY_LEN(PTX_OK); i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", PTX_OK[i]);
	sb_adds(&sb, "; it must not read %clock, %clock64 or %globaltimer");
	return sb_to_arena(&sb, a);
}

/* asm ( [volatile] "text" "text" ... : ...): collect the template. */
static const char *scan_asm(Lex *x, const char *p)
{
	p = skip_space_comments(x, p);
	while (p < x->end && ident_char(*p)) { /* volatile, goto, __volatile__ */
		while (p < x->end && ident_char(*p))
			p++;
		p = skip_space_comments(x, p);
	}
	if (p >= x->end || *p != '(')
		return p;
	p = skip_space_comments(x, p + 1);
	Strbuf body = STRBUF_INIT;
	while (p < x->end && *p == '"') {
		p = skip_literal(x, p, &body);
		sb_addc(&body, '\n');
		p = skip_space_comments(x, p);
	}
	check_asm_text(x, sb_str(&body));
	sb_release(&body);
	return p;
}

static void check_include(Lex *x, const char *h, size_t n)
{
	for (size_t i = 0; i < ARRAY_LEN(BAD_HEADERS); i++) {
		size_t k = strlen(BAD_HEADERS[i]);
		if ((BAD_HEADERS[i][k - 1] == '/' && n >= k && !strncmp(h, BAD_HEADERS[i], k)) ||
		    (n == k && !strncmp(h, BAD_HEADERS[i], k)))
			reject(x, "#include of a header for processes, files, threads or signals");
	}
	if (!x->allow_libs && has_prefix(h, n, LIB_HEADERS, ARRAY_LEN(LIB_HEADERS)))
		reject(x, "#include of a vendor kernel library (pass --allow-libs to permit)");
}

/* A preprocessor line: #include <h> / "h", #define NAME. */
static const char *scan_directive(Lex *x, const char *p)
{
	p++;
	while (p < x->end && (*p == ' ' || *p == '\t'))
		p++;
	const char *w = p;
	while (p < x->end && ident_char(*p))
		p++;
	size_t n = (size_t)(p - w);
	while (p < x->end && (*p == ' ' || *p == '\t'))
		p++;
	if (n == 7 && !strncmp(w, "include", 7) && p < x->end && (*p == '<' || *p == '"')) {
		char close = *p == '<' ? '>' : '"';
		const char *h = ++p;
		while (p < x->end && *p != close && *p != '\n')
			p++;
		check_include(x, h, (size_t)(p - h));
	} else if ((n == 6 && !strncmp(w, "define", 6)) || (n == 5 && !strncmp(w, "undef", 5))) {
		const char *m = p;
		while (p < x->end && ident_char(*p))
			p++;
		size_t k = (size_t)(p - m);
		if (in_list(m, k, PROTECTED_DEFINES, ARRAY_LEN(PROTECTED_DEFINES)) ||
		    (k >= 4 && (!strncmp(m, "kcc_", 4) || !strncmp(m, "KCC_", 4) ||
		                !strncmp(m, "cuda", 4))) ||
		    in_list(m, k, BAD_CALLS, ARRAY_LEN(BAD_CALLS)))
			reject(x, "#define of a name the harness relies on");
	}
	return p;
}

/* The harness's own globals (templates/): a kernel naming one could reach
 * into the harness. Other kcc_* names are merely unwise. */
static bool harness_name(const char *w, size_t n)
{
	static const char *const names[] = {
	    "kcc_params", "kcc_call", "kcc_host", "kcc_snap", "kcc_hostcap", "kcc_ev0",
	    "kcc_ev1", "kcc_t0", "kcc_fail", "kcc_record", "kcc_flush", "kcc_tstart",
	    "kcc_tstop", "kcc_now", "kcc_put", "kcc_put32", "kcc_put64", "kcc_hash",
	    "kcc_guard_ok", "kcc_call_entry", "kcc_check_mode", "kcc_bench_mode", "kcc_upload",
	    "kcc_prepare", "kcc_staging", "kcc_sync_stream", "kcc_sync_device", "kcc_d2h",
	    "kcc_h2d", "kcc_d2d", "kcc_dset", "kcc_dalloc", "kcc_dfree", "kcc_after_call",
	    "kcc_finish", "kcc_init", "kcc_value", "kcc_store", "kcc_poison_elem", "kcc_mix",
	    "kcc_word", "kcc_reset_set", "kcc_alloc_set", "kcc_data", "kcc_read_call"};
	return in_list(w, n, names, ARRAY_LEN(names)) ||
	       (n > 4 && !strncmp(w, "KCC_", 4));
}

static void check_ident(Lex *x, const char *w, size_t n, const char *prev, const char *next)
{
	bool call = next < x->end && *next == '(';
	bool two = prev && prev > x->s;
	bool member = prev && (*prev == '.' || (*prev == '>' && two && prev[-1] == '-'));
	bool scoped = prev && *prev == ':' && two && prev[-1] == ':';
	if (harness_name(w, n))
		reject(x, "use of a name of kcc's harness");
	if ((n == 11 && !strncmp(w, "constructor", 11)) || (n == 10 && !strncmp(w, "destructor", 10)))
		reject(x, "constructor/destructor attribute (code outside the entry)");
	if (call && !member && !scoped && in_list(w, n, BAD_CALLS, ARRAY_LEN(BAD_CALLS)))
		reject(x, "call outside the allow-list (process, file, network, thread, signal, "
		          "clock or exit)");
	if (scoped && in_list(w, n, (const char *const[]){"thread", "jthread", "async",
	                                                   "system", "ofstream", "ifstream",
	                                                   "fstream"}, 7))
		reject(x, "C++ thread, process or file facility");
	if (!x->allow_libs && has_prefix(w, n, LIB_PREFIXES, ARRAY_LEN(LIB_PREFIXES)))
		reject(x, "vendor kernel library (pass --allow-libs to permit)");
	if (call && in_list(w, n, STREAM_CALLS, ARRAY_LEN(STREAM_CALLS)))
		x->streams = true;
}

VerifyReason verify_scan(const char *text, size_t len, Lang lang, bool allow_libs,
                         const char **what, int *line, bool *streams)
{
	Lex x = {.s = text, .end = text + len, .line = 1, .lang = lang, .allow_libs = allow_libs};
	const char *prev = NULL; /* last significant character */
	bool line_start = true;
	for (const char *p = text; p < x.end;) {
		int before = x.line;
		p = skip_space_comments(&x, p);
		if (x.line != before)
			line_start = true;
		if (p >= x.end)
			break;
		if (*p == '#' && line_start) {
			p = scan_directive(&x, p);
		} else if (*p == '"' || *p == '\'') {
			p = skip_literal(&x, p, NULL);
			prev = p - 1;
		} else if (ident_char(*p) && !isdigit((unsigned char)*p)) {
			const char *w = p;
			while (p < x.end && ident_char(*p))
				p++;
			size_t n = (size_t)(p - w);
			int l = x.line;
			const char *next = skip_space_comments(&x, p);
			x.line = l; /* counted again when p moves there */
			if ((n == 3 && !strncmp(w, "asm", 3)) || (n == 7 && !strncmp(w, "__asm__", 7)) ||
			    (n == 5 && !strncmp(w, "__asm", 5)))
				p = scan_asm(&x, p);
			else
				check_ident(&x, w, n, prev, next);
			prev = p - 1;
		} else {
			prev = p++;
		}
		line_start = false;
	}
	if (streams)
		*streams = x.streams;
	if (what)
		*what = x.what;
	if (line)
		*line = x.what ? x.what_line : 0;
	return x.what ? VR_FORBIDDEN : VR_OK;
}
