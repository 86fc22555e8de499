/*
 * tools/kit/env.c - the environment a run is measured in: the probes, the
 * "# " header and the CSV's columns (what each does: tools/include/env.h).
 *
 * Compiled once a build flavour into DIR/kit/libkit.a (the Makefile's
 * kit_lib) and linked by every program that includes tools/include/env.h:
 * a program compiles the declarations, not this code.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/env.h"

/* ------------------------------------------------------------ the build */

/* The compiler's name without the blanks clang leaves at its end. */
static const char *env_compiler(void)
{
	static char name[64];
	size_t n;

	snprintf(name, sizeof name, "%s", env_build.compiler);
	n = strlen(name);
	while (n > 0 && name[n - 1] == ' ')
		name[--n] = '\0';
	return name;
}

/* The selected word of a sysfs "a [b] c" file, or "?" when unreadable.
 * read() into the stack, not stdio: fopen() mallocs a FILE and a buffer,
 * and their free()s would leave stale bytes beside the heap top, where
 * the next big block (a frame) would start. */
const char *env_sysfs_choice(const char *path, char *buf, size_t len)
{
	char line[256], *l, *r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, line, sizeof line - 1);

	if (fd >= 0)
		close(fd);
	snprintf(buf, len, "?");
	if (n <= 0)
		return buf;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r)
		*r = '\0';
	l = l && r ? l + 1 : line;
	/* Copied by hand: snprintf("%s") into a short buffer draws GCC's
	 * truncation warning although truncation is intended. */
	r = l + strnlen(l, len - 1);
	memcpy(buf, l, (size_t)(r - l));
	buf[r - l] = '\0';
	return buf;
}

/* "enabled=madvise defrag=madvise zero_page=1" */
__attribute__((unused))
static const char *env_thp(char *buf, size_t len)
{
	char e[32], d[32], z[32];

	env_sysfs_choice(ENV_THP_DIR "enabled", e, sizeof e);
	env_sysfs_choice(ENV_THP_DIR "defrag", d, sizeof d);
	env_sysfs_choice(ENV_THP_DIR "use_zero_page", z, sizeof z);
	snprintf(buf, len, "enabled=%s defrag=%s zero_page=%s", e, d, z);
	return buf;
}

int env_thp_sizes(struct env_thp_size *out, int max)
{
	char buf[4096];
	int n = 0, fd = open(ENV_THP_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return 0;
	while ((got = getdents64(fd, buf, sizeof buf)) > 0)
		for (ssize_t at = 0; at < got; at += ((struct dirent64 *)(buf + at))->d_reclen) {
			const char *name = ((struct dirent64 *)(buf + at))->d_name;
			char path[128], *end;
			unsigned long kib;
			int i;

			if (strncmp(name, "hugepages-", 10) || n == max)
				continue;
			kib = strtoul(name + 10, &end, 10);
			if (strcmp(end, "kB") || !kib)
				continue;
			snprintf(path, sizeof path, ENV_THP_DIR "%.40s/enabled", name);
			for (i = n++; i > 0 && out[i - 1].kib > kib; i--)   /* insertion sort */
				out[i] = out[i - 1];
			out[i].kib = kib;
			env_sysfs_choice(path, out[i].setting, sizeof out[i].setting);
		}
	close(fd);
	return n;
}

/* The PMD huge page in bytes (hpage_pmd_size), 0 when the kernel has no
 * THP.  read() into the stack, as everything here. */
unsigned long env_thp_pmd_bytes(void)
{
	char line[32];
	int fd = open(ENV_THP_DIR "hpage_pmd_size", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, line, sizeof line - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	return strtoul(line, NULL, 10);
}

/* The sizes whose setting is not "never": "2048kB=inherit", or "none" when
 * every size is off or there are none. */
__attribute__((unused))
static const char *env_mthp(char *buf, size_t len)
{
	struct env_thp_size sz[ENV_THP_SIZES_MAX];
	int k = env_thp_sizes(sz, ENV_THP_SIZES_MAX);
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < k && n < len; i++)
		if (strcmp(sz[i].setting, "?") && strcmp(sz[i].setting, "never"))
			n += (size_t)snprintf(buf + n, len - n, "%s%lukB=%s", n ? " " : "",
					      sz[i].kib, sz[i].setting);
	if (!n)
		snprintf(buf, len, "none");
	return buf;
}

/* "2 MiB", "32 MiB", "512 MiB": a power-of-two size in its unit. */
const char *env_bytes_unit(unsigned long b, char *buf, size_t len)
{
	if (b >= (1ul << 20) && !(b & ((1ul << 20) - 1)))
		snprintf(buf, len, "%lu MiB", b >> 20);
	else
		snprintf(buf, len, "%lu KiB", b >> 10);
	return buf;
}

/* Could THP back an ordinary (not madvised) mapping of this process?  Then
 * a fault may map a whole huge page: tools/kit/frames.c models that for
 * mapped frames (by address and env_thp_probe()); other counts in base
 * pages are bounds.  Not once the process has turned THP off (prctl). */
int env_thp_always(void)
{
	char e[32];

	return !strcmp(env_sysfs_choice(ENV_THP_DIR "enabled", e, sizeof e), "always") &&
	       prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) != 1;
}

static long env_thread_minflt(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		die("getrusage");
	return ru.ru_minflt;
}

/*
 * Faults taken by a page that is first read, then written: 2 where a read
 * of untouched anonymous memory maps the shared zero page (the write then
 * faults again for a private copy), 1 where the read fault already
 * allocates the private page (kernels that do not map the zero page, such
 * as some VM kernels booted with a no-zero-page option).  No file says
 * which, so it is measured once: read 32 fresh pages, then write them,
 * counting this thread's minor faults.  One mmap and one munmap.
 */
int env_read_faults_per_page(void)
{
	static int cached;
	const long page = sysconf(_SC_PAGESIZE), n = 32;
	volatile char *m;
	long f0, f1, f2;
	char sum = 0;

	if (cached)
		return cached;
#ifdef ENV_READ_FAULTS_FORCE
	/* A test build's stand-in for another machine (tests/thp.sh): the
	 * recording machine's read faults, not this one's. */
	return cached = ENV_READ_FAULTS_FORCE;
#endif
	m = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die("mmap for the zero-page probe");
	madvise((void *)m, (size_t)(n * page), MADV_NOHUGEPAGE);  /* 4 KiB faults only */
	f0 = env_thread_minflt();
	for (long i = 0; i < n; i++)
		sum += m[i * page];
	f1 = env_thread_minflt();
	for (long i = 0; i < n; i++)
		m[i * page] = (char)(sum + 1);
	f2 = env_thread_minflt();
	munmap((void *)m, (size_t)(n * page));
	/* Reads that faulted and writes that faulted again: the zero page. */
	cached = (f1 - f0 >= n / 2 && f2 - f1 >= n / 2) ? 2 : 1;
	return cached;
}

/* One counter of /proc/vmstat ("thp_fault_fallback"), -1 when unreadable.
 * read() into a static buffer: no malloc (see env_sysfs_choice). */
long env_vmstat(const char *name)
{
	static char text[16384];
	size_t n = 0, len = strlen(name);
	ssize_t r;
	int fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (n < sizeof text - 1 && (r = read(fd, text + n, sizeof text - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	text[n] = '\0';
	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

const struct env_thp_probe *env_thp_probe(void)
{
	static struct env_thp_probe p;
	static int done;
	const unsigned long huge = env_thp_pmd_bytes(), page = (unsigned long)sysconf(_SC_PAGESIZE);
	volatile char *a;
	char e[32], *m, sum = 0;
	long f[5], fb0;

	if (done)
		return &p;
	done = 1;
#ifdef ENV_THP_PROBE_FORCE
	/* A test build's stand-in for another kernel (tests/thp.sh): the
	 * model's arithmetic for an outcome this machine does not show. */
	p.rw = ENV_THP_PROBE_FORCE;
	return &p;
#endif
	p.rw = ENV_THP_NOT_PROBED;
	env_sysfs_choice(ENV_THP_DIR "enabled", e, sizeof e);
	if (!huge || !strcmp(e, "never") || !strcmp(e, "?"))
		return p.not_probed = "THP is off", &p;
	if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1)
		return p.not_probed = "THP disabled for this process", &p;
	if (huge > ENV_THP_PROBE_MAX)
		return p.not_probed = "a huge page this big costs too much to probe", &p;
	m = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die("mmap for the THP probe");
	a = (volatile char *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
	if (madvise((void *)a, huge, MADV_HUGEPAGE) != 0) {
		munmap(m, 2 * huge);
		return p.not_probed = "madvise(MADV_HUGEPAGE) refused", &p;
	}
	fb0 = env_vmstat("thp_fault_fallback");
	f[0] = env_thread_minflt();
	sum += a[0];
	f[1] = env_thread_minflt();
	sum += a[huge - page];
	f[2] = env_thread_minflt();
	a[0] = (char)(sum + 1);
	f[3] = env_thread_minflt();
	a[huge - page] = (char)(sum + 1);
	f[4] = env_thread_minflt();
	p.fallbacks = fb0 < 0 ? 0 : env_vmstat("thp_fault_fallback") - fb0;
	munmap(m, 2 * huge);
	p.read_faults = f[1] - f[0], p.write_faults = f[3] - f[2];
	/* A huge mapping answers the second touch of each kind without a fault. */
	if (f[2] - f[1] != 0)
		p.rw = p.fallbacks > 0 ? ENV_THP_FALLBACK : ENV_THP_NO_HUGE;
	else if (p.write_faults == 0)
		p.rw = ENV_THP_READ_ALLOCATES;
	else if (f[4] - f[3] == 0)
		p.rw = ENV_THP_WRITE_ALLOCATES;
	else
		p.rw = p.fallbacks > 0 ? ENV_THP_FALLBACK : ENV_THP_WRITE_SPLITS;
	return &p;
}

/* Faults a huge-page-sized block of read-first memory takes when every one
 * of its `touched` base pages is read, then written, by the probe's
 * outcome; -1 where no huge page is to be expected. */
long env_thp_read_write_faults(long touched)
{
	switch (env_thp_probe()->rw) {
	case ENV_THP_WRITE_ALLOCATES: return 2;
	case ENV_THP_WRITE_SPLITS:    return 1 + touched;
	case ENV_THP_READ_ALLOCATES:  return 1;
	default:                      return -1;
	}
}

/* The header's line for it: "1+1 faults, huge page (...)". */
__attribute__((unused))
static const char *env_thp_probe_text(char *buf, size_t len)
{
	const struct env_thp_probe *p = env_thp_probe();
	char size[24];
	long base = (long)(env_thp_pmd_bytes() / (unsigned long)sysconf(_SC_PAGESIZE));

	env_bytes_unit(env_thp_pmd_bytes(), size, sizeof size);
	switch (p->rw) {
	case ENV_THP_WRITE_ALLOCATES:
		snprintf(buf, len, "1+1 faults a %s page: the write allocates it (6.13+)", size);
		break;
	case ENV_THP_WRITE_SPLITS:
		snprintf(buf, len, "1+%ld faults a %s page: the write splits the zero page",
			 base, size);
		break;
	case ENV_THP_READ_ALLOCATES:
		snprintf(buf, len, "1+0 faults a %s page: the read allocates it", size);
		break;
	case ENV_THP_FALLBACK:
		snprintf(buf, len, "no huge page to be had (thp_fault_fallback +%ld)", p->fallbacks);
		break;
	case ENV_THP_NO_HUGE:
		snprintf(buf, len, "no huge page: the read faulted a base page");
		break;
	default:
		snprintf(buf, len, "not probed (%s)", p->not_probed);
	}
	return buf;
}

/* The whole of /proc/self/status into buf, read with read() into the
 * caller's buffer: stdio would malloc a FILE and a buffer in the main
 * arena, the very memory a lab is measuring.  Returns buf. */
char *env_read_status(char *buf, size_t len)
{
	ssize_t n = 0, r;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open /proc/self/status");
	while (n < (ssize_t)len - 1 && (r = read(fd, buf + n, len - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return buf;
}

/* One "Name:  123 kB" field of that text in KiB, -1 when absent (RssAnon
 * is Linux 4.5+). */
long env_status_kib(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ':')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

/* The file that defines the malloc() this program calls: glibc's libc,
 * an LD_PRELOADed allocator, or the program itself (AddressSanitizer). */
const char *env_malloc_owner(void)
{
	Dl_info info;
	void *(*volatile m)(size_t) = malloc;

	if (dladdr((void *)m, &info) && info.dli_fname)
		return info.dli_fname;
	return "?";
}

/* The owner's file name without its directory. */
static const char *env_malloc_owner_base(void)
{
	const char *f = strrchr(env_malloc_owner(), '/');

	return f ? f + 1 : env_malloc_owner();
}

int env_malloc_is_glibc(void)
{
	const char *f = env_malloc_owner_base();

	return !strncmp(f, "libc.so", 7) || !strncmp(f, "libc-2.", 7);
}

/* The allocator an LD_PRELOAD brings in ("libjemalloc.so.2"): the file
 * whose malloc() this program calls when LD_PRELOAD is set and that file
 * is not glibc's libc; NULL otherwise (ASan's own malloc is not a
 * preload).  A lab measuring glibc warns; a lab about allocators names it. */
__attribute__((unused))
static const char *env_preloaded_allocator(void)
{
	if (!getenv("LD_PRELOAD") || !*getenv("LD_PRELOAD") || env_malloc_is_glibc())
		return NULL;
	return env_malloc_owner_base();
}

/* Was VAR, with the value it has now, left in the shell the lab started
 * from?  The lab's driver lists those as blank-separated NAME=value words
 * in MALLOC_LABS_INHERITED (leftover_settings in tools/lib/lib.sh); a
 * setting the lab makes on purpose replaces the value, so it is not one.
 * A program run by hand is not told: a setting typed before its name and
 * one exported earlier look alike to it. */
static int env_inherited(const char *var)
{
	const char *list = getenv("MALLOC_LABS_INHERITED"), *val = getenv(var), *p;
	size_t nv = strlen(var), nl;

	if (!list || !val)
		return 0;
	nl = nv + 1 + strlen(val);
	for (p = list; (p = strstr(p, var)) != NULL; p++)
		if ((p == list || p[-1] == ' ') && p[nv] == '=' &&
		    !strncmp(p + nv + 1, val, nl - nv - 1) && (p[nl] == ' ' || !p[nl]))
			return 1;
	return 0;
}

/* Do glibc's malloc rules (the labs' predictions) hold?  Under glibc's own
 * malloc, and under its libc_malloc_debug.so, whose hooks call glibc's
 * malloc; not under another allocator. */
int env_glibc_model_applies(void)
{
	const char *f = strrchr(env_malloc_owner(), '/');

	return env_malloc_is_glibc() || (f && !strncmp(f + 1, "libc_malloc_debug", 17));
}

/* The allocator behind malloc() with its version, for the header and for
 * a lab that compares allocators: "glibc 2.36", or a preloaded one asked
 * through its own interface (jemalloc's mallctl("version"), gperftools'
 * tc_version(), mimalloc's mi_version()), else the defining file's name.
 * Looked up with dlsym, so nothing links against them.  Into buf. */
const char *env_allocator(char *buf, size_t len)
{
	const char *owner = env_malloc_owner(), *f = strrchr(owner, '/');
	int (*je_ctl)(const char *, void *, size_t *, void *, size_t) =
		(int (*)(const char *, void *, size_t *, void *, size_t))dlsym(RTLD_DEFAULT, "mallctl");
	const char *(*tc_ver)(int *, int *, const char **) =
		(const char *(*)(int *, int *, const char **))dlsym(RTLD_DEFAULT, "tc_version");
	int (*mi_ver)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "mi_version");
	const char *v = NULL;
	size_t vlen = sizeof v;
	int major, minor;

	f = f ? f + 1 : owner;
	if (env_malloc_is_glibc())
		snprintf(buf, len, "glibc %s", gnu_get_libc_version());
	else if (je_ctl && je_ctl("version", (void *)&v, &vlen, NULL, 0) == 0 && v)
		/* "5.3.0-0-g54eaed1d...": the release, not the commit */
		snprintf(buf, len, "jemalloc %.*s", (int)strcspn(v, "-"), v);
	else if (tc_ver && tc_ver(&major, &minor, &v))
		snprintf(buf, len, "gperftools tcmalloc %d.%d%s", major, minor, v ? v : "");
	else if (mi_ver)   /* 209 is 2.0.9 (MI_MALLOC_VERSION) */
		snprintf(buf, len, "mimalloc %d.%d.%d", mi_ver() / 100, mi_ver() / 10 % 10,
			 mi_ver() % 10);
	else
		snprintf(buf, len, "%s", f);
	return buf;
}

/* The variable, or "(unset)"; the caller cuts it to fit its line. */
static const char *env_or_unset(const char *name)
{
	const char *v = getenv(name);

	return v ? v : "(unset)";
}

/* The header every program prints first: each line starts with "# " so
 * label: value readers skip it, and fits 80 columns (a projector's).  Each setting the
 * environment makes is named with what this glibc does with it; the ones
 * that do not do what they say, and anything else that makes the counts
 * incomparable, are "# warning:" lines. */
void env_print_header(FILE *out)
{
	const struct env_malloc *m = env_malloc_policy();
	struct utsname u;
	char thp[128], mthp[160], what[96], alloc[64], pmd[24];
	const char *pre = getenv("LD_PRELOAD"), *owner = strrchr(env_malloc_owner(), '/');
	int left_over = 0;

	if (uname(&u) != 0)
		die("uname");
	fprintf(out, "# glibc %s | %s %.40s %s | page %ld B | %ld CPUs\n",
		gnu_get_libc_version(), u.sysname, u.release, u.machine,
		sysconf(_SC_PAGESIZE), sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(out, "# built: %.20s, %s | kit %.24s\n", env_compiler(),
		env_build.optimised ? "optimised (-O1+)" : "unoptimised (-O0)",
		env_build.kit);
	fprintf(out, "# THP %s | mTHP %.40s\n", env_thp(thp, sizeof thp),
		env_mthp(mthp, sizeof mthp));
	if (env_thp_pmd_bytes())
		fprintf(out, "# THP PMD huge page: %s (%ld base pages)\n",
			env_bytes_unit(env_thp_pmd_bytes(), pmd, sizeof pmd),
			(long)(env_thp_pmd_bytes() / (unsigned long)sysconf(_SC_PAGESIZE)));
	/* What a huge page of read-first memory costs here (probed): only
	 * where THP can apply. */
	if (env_thp_pmd_bytes() && strcmp(env_sysfs_choice(ENV_THP_DIR "enabled", what,
							   sizeof what), "never"))
		fprintf(out, "# THP read+write: %s\n", env_thp_probe_text(what, sizeof what));
	fprintf(out, "# read fault: %s\n", env_read_faults_per_page() == 2
		? "zero page (2 a page): a read maps it in, the write copies it"
		: "no zero page (1 a page): reading a fresh page allocates it");
	/* Cut to fit 80 columns: the "# set:" lines below name every item. */
	fprintf(out, "# GLIBC_TUNABLES=%.60s%s\n", env_or_unset("GLIBC_TUNABLES"),
		strlen(env_or_unset("GLIBC_TUNABLES")) > 60 ? "..." : "");
	if (pre)
		fprintf(out, "# LD_PRELOAD=%.80s\n", pre);
	/* Another allocator: named, and none of glibc's predictions is made. */
	if (!env_glibc_model_applies())
		fprintf(out, "# malloc: %s, not glibc's: glibc's model does not apply\n",
			env_allocator(alloc, 34));
	for (int i = 0; i < m->n_items; i++) {
		const struct env_item *it = &m->items[i];
		int left = env_inherited(it->source);

		left_over += left;
		env_describe(it, what, sizeof what);
		/* A MALLOC_* variable is shown as written; its tunable is implied. */
		fprintf(out, "# %s %.34s%s%.16s%s: %s\n",
			!left && (it->fate == ENV_APPLIED || (it->fate == ENV_UNMODELLED &&
			strncmp(it->name, "glibc.malloc.", 13))) ? "set:" : "warning:",
			strcmp(it->source, "GLIBC_TUNABLES") ? it->source : it->name,
			it->has_eq ? "=" : "", it->text, left ? " (shell)" : "", what);
	}
	if (left_over)
		fprintf(out, "# warning: (shell): left in your shell, so in force in every run\n"
			"#   of this lab that does not set it, the untuned/default ones too\n");
	if (env_preloaded_allocator())
		fprintf(out, "# warning: LD_PRELOAD: malloc() comes from %.40s, not libc\n",
			env_preloaded_allocator());
	else if (!env_malloc_is_glibc())
		/* a shared library by its file name; the program itself
		 * (a static sanitizer runtime) by its path */
		fprintf(out, "# warning: malloc() comes from %.48s, not libc\n",
			owner && strstr(owner, ".so") ? owner + 1 : env_malloc_owner());
	if (env_thp_always())
		fprintf(out, "# warning: THP always: a large mapping's aligned part may get huge\n"
			"#   pages (THP read+write: what each costs); frames predicts its\n"
			"#   mmapped frames by their addresses, other counts are bounds\n");
	if (m->hugetlb == 1)
		fprintf(out, "# warning: hugetlb=1: malloc madvises huge pages; frames predicts its\n"
			"#   mmapped frames by their addresses, other counts are bounds\n");
}

/* The header before a run meant for people; none under --csv, whose rows
 * carry the same facts as columns.  Flushed: no thread or child starts
 * with it unwritten. */
void env_print_header_unless_csv(int csv)
{
	if (!csv)
		env_print_header(stdout);
	fflush(stdout);
}

void env_csv_header(FILE *out)
{
	fputs(ENV_CSV_COLUMNS, out);
}

void env_csv_fields(FILE *out)
{
	extern char **environ;
	char thp[128], mthp[160], menv[512];
	size_t n = 0;

	menv[0] = '\0';
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "MALLOC_", 7) && strncmp(*e, "MALLOC_LABS_", 12) && n < sizeof menv)
			n += (size_t)snprintf(menv + n, sizeof menv - n, "%s%s", n ? " " : "", *e);
	fprintf(out, ",%s,", gnu_get_libc_version());
	cli_csv_str(out, env_thp(thp, sizeof thp));
	fputc(',', out);
	cli_csv_str(out, env_mthp(mthp, sizeof mthp));
	fprintf(out, ",%ld,%d,", sysconf(_SC_PAGESIZE), env_read_faults_per_page());
	cli_csv_str(out, getenv("GLIBC_TUNABLES") ? getenv("GLIBC_TUNABLES") : "");
	fputc(',', out);
	cli_csv_str(out, menv);
	fputc(',', out);
	cli_csv_str(out, getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "");
	fputc(',', out);
	cli_csv_str(out, env_malloc_owner());
	fputc(',', out);
	cli_csv_str(out, env_compiler());
	fprintf(out, ",%d,", env_build.optimised);
	cli_csv_str(out, env_build.kit);
}

/* cli_getopt() for a lab: it also answers --env, with the check above on
 * stdout and exit 0, so a student can see the machine without a run. */
int env_getopt(int argc, char **argv, const char *shortopts,
		      const struct option *longopts, void (*usage)(FILE *))
{
	int c = cli_getopt(argc, argv, shortopts, longopts, usage);

	if (c == ENV_OPT_ENV) {
		env_print_header(stdout);
		exit(0);
	}
	return c;
}
