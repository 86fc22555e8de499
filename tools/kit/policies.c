/*
 * tools/kit/policies.c - Lab 8's instruments: the options, the command's
 * file read (its ELF, a #! interpreter, set-ID bits), the allocators'
 * libraries found, one run measured, the runs under strace, the medians,
 * a command shown as lines to paste, and the report and CSV (what each
 * does: tools/include/policies.h).
 *
 * Compiled once a build flavour as DIR/kit/policies.o and linked into
 * policies alone: policies.c compiles the declarations, not this code.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/policies.h"
#include "../include/model.h"
#include "../include/work.h"

#include <elf.h>
#include <link.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

/* ------------------------------------------ options: their defaults, usage */

/* Where parse_options() starts, and what usage() calls the default. */
static const struct options defaults = {
	.runs = 5, .timeout = 600, .strace = 1, .blocks = 60, .seed = 3,
	.output = OUTPUT_REPORT,
};

void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options] -- COMMAND [ARGS...]\n"
		"       %s --pack [--blocks N] [--seed N]\n"
		"Runs COMMAND (no shell: its words as given) under each malloc policy set\n"
		"from outside: glibc's defaults, the mmap/trim thresholds pinned, arena_max=2,\n"
		"hugetlb=1, and jemalloc, tcmalloc, mimalloc where installed (LD_PRELOAD).\n"
		"One row a policy: wall, user, sys, minor faults, max RSS, exit status and a\n"
		"checksum of stdout.  Standard input is read once and replayed to every run\n"
		"(a terminal is not read: the runs get /dev/null).\n"
		"  -n, --runs N      runs a policy, interleaved; median and range (default\n"
		"                    %u, at most %u; advice from %u)\n"
		"      --timeout S   seconds a run may take before it is killed (default %u)\n"
		"      --no-strace   no extra run under strace (brk/mmap/munmap/madvise)\n"
		"      --keep DIR    save each run's stdout as DIR/POLICY.RUN.out\n"
		"      --pack        the worked example: a packer's blocks (%u KiB-%u MiB)\n"
		"                    filled, checksummed and freed\n"
		"      --blocks N    --pack: how many (default %u, at most %u; 0: none)\n"
		"      --seed N      --pack: the blocks' sizes (default %" PRIu64 ")\n"
		"      --csv         one CSV row a policy instead of the report\n"
		"      --env         print the environment check and exit\n"
		"  -h, --help        this text\n"
		"ALLOC_LIBDIR=DIR looks for the allocators' libraries in DIR only.\n",
		cli_prog, cli_prog, defaults.runs, MAX_RUNS, advice_min_runs, defaults.timeout,
		PACK_MIN_BYTES >> 10, (PACK_MIN_BYTES << PACK_OCTAVES) >> 20,
		defaults.blocks, MAX_BLOCKS, defaults.seed);
}

static unsigned count_option(const char *s, const char *name, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (cli_parse_u64(s, min, max, &v))
		bad_usage(usage, "--%s wants a whole number from %" PRIu64 " to %" PRIu64
			  ", not '%s'", name, min, max, s);
	return (unsigned)v;
}

/* The options before COMMAND ('+': the first word that is not an option
 * ends them, so the command's own options are never read as ours). */
struct options parse_options(int argc, char **argv)
{
	enum { OPT_TIMEOUT = 256, OPT_NO_STRACE, OPT_KEEP, OPT_PACK, OPT_BLOCKS, OPT_SEED };
	static const struct option longopts[] = {
		CLI_OPT_COUNT("runs"),
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "no-strace", no_argument, NULL, OPT_NO_STRACE },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "pack", no_argument, NULL, OPT_PACK },
		{ "blocks", required_argument, NULL, OPT_BLOCKS },
		{ "seed", required_argument, NULL, OPT_SEED },
		ENV_OPTIONS_END,
	};
	struct options o = defaults;
	int c;

	while ((c = env_getopt(argc, argv, "+:n:h", longopts, usage)) != -1) {
		switch (c) {
		case 'n': o.runs = count_option(optarg, "runs", 1, MAX_RUNS); break;
		case OPT_TIMEOUT: o.timeout = count_option(optarg, "timeout", 1, MAX_TIMEOUT); break;
		case OPT_NO_STRACE: o.strace = 0; break;
		case OPT_KEEP: o.keep = optarg; break;
		case OPT_PACK: o.pack = 1; break;
		case OPT_BLOCKS: o.blocks = count_option(optarg, "blocks", 0, MAX_BLOCKS); break;
		case OPT_SEED: o.seed = cli_seed_option(usage, optarg); break;
		case ENV_OPT_CSV: o.output = OUTPUT_CSV; break;
		}
	}
	if (o.pack)
		cli_no_arguments(usage, argc, argv);
	else if (optind >= argc)
		bad_usage(usage, "no command: give one after --");
	return o;
}

/* When the command is this program's --pack: its options (parsed as the
 * child will parse them), so its faults can be predicted; else NULL. */
const struct options *packer_options(const struct job *j, struct options *out)
{
	char self[PATH_MAX], cmd[PATH_MAX];
	int argc = 0, pack = 0;

	if (!realpath("/proc/self/exe", self) || !realpath(j->path, cmd) || strcmp(self, cmd))
		return NULL;
	while (j->argv[argc])
		pack |= !strcmp(j->argv[argc++], "--pack");
	if (!pack)
		return NULL;
	optind = 0;             /* glibc: start getopt afresh */
	*out = parse_options(argc, (char **)j->argv);
	return out;
}

/* ------------------------------------------------------------ the packer */

/* Block i's size: an octave, then a point inside it, both from the seed. */
size_t pack_size(uint64_t *state)
{
	size_t base = (size_t)PACK_MIN_BYTES << (work_random(state) % PACK_OCTAVES);

	return base + (size_t)(work_random(state) % base);
}

/* The loop's faults predicted for o's blocks under a row's settings (its
 * GLIBC_TUNABLES, read as this glibc reads them): a number to set beside
 * the row, from glibc's rules (model.h's top chunk, a block at a time). */
static uint64_t pack_model(const struct options *o, const struct policy *row)
{
	char tunables[256];
	const char *words[] = { tunables };
	struct env_malloc m;
	struct model_top top = { .top = 0 };
	const struct model_machine mc = {
		.page = (uint64_t)sysconf(_SC_PAGESIZE),
		.glibc_minor = model_glibc_minor(env_glibc()),
		.bits = (int)sizeof(size_t) * 8,
	};
	uint64_t state = o->seed, faults = 0;

	snprintf(tunables, sizeof tunables, "GLIBC_TUNABLES=%s", row->tunables ? row->tunables : "");
	env_malloc_policy_of(&m, words, row->tunables != NULL, env_glibc(), mc.bits);
	top.pol = model_policy_from_env(&m);
	for (unsigned i = 0; i < o->blocks; i++)
		faults += model_top_block(&mc, &top, pack_size(&state));
	return faults;
}

/* --------------------------------------------------- the command's file */

/* The command's file as execvp finds it: a name with a slash as it is,
 * else the first executable regular file of that name on PATH. */
int find_command(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *dir, *end;
	struct stat st;

	if (!*name)
		return -1;
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return stat(out, &st) == 0 && S_ISREG(st.st_mode) && !access(out, X_OK) ? 0 : -1;
	}
	for (dir = path ? path : "/usr/local/bin:/usr/bin:/bin"; ; dir = end + 1) {
		end = strchrnul(dir, ':');
		/* an empty entry is the current directory */
		snprintf(out, len, "%.*s%s%s", (int)(end - dir), dir, end > dir ? "/" : "", name);
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && !access(out, X_OK))
			return 0;
		if (!*end)
			return -1;
	}
}

/* Where virtual address va lies in the file, through the PT_LOAD
 * segments; 0 when none holds it. */
static size_t elf_offset(const ElfW(Phdr) *ph, unsigned n, uint64_t va)
{
	for (unsigned i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr &&
		    va < ph[i].p_vaddr + ph[i].p_filesz)
			return ph[i].p_offset + (va - ph[i].p_vaddr);
	return 0;
}

/* Which library provides libc, from the dynamic section's DT_NEEDED: 1 if
 * one of them is glibc's libc.so.6, 0 if not (its first name in `other`). */
static int elf_needs_glibc(const unsigned char *f, size_t len, const ElfW(Phdr) *ph,
			   unsigned n, const ElfW(Phdr) *dyn, char *other, size_t olen)
{
	const ElfW(Dyn) *d;
	size_t count, strtab = 0;

	if (dyn->p_offset >= len || dyn->p_filesz > len - dyn->p_offset)
		return 0;
	d = (const ElfW(Dyn) *)(f + dyn->p_offset);
	count = dyn->p_filesz / sizeof *d;
	for (size_t i = 0; i < count && d[i].d_tag != DT_NULL; i++)
		if (d[i].d_tag == DT_STRTAB)
			strtab = elf_offset(ph, n, d[i].d_un.d_ptr);
	snprintf(other, olen, "none");
	for (size_t i = 0; strtab && i < count && d[i].d_tag != DT_NULL; i++) {
		const char *name;

		if (d[i].d_tag != DT_NEEDED || strtab + d[i].d_un.d_val >= len)
			continue;
		name = (const char *)f + strtab + d[i].d_un.d_val;
		if (!memchr(name, '\0', len - strtab - d[i].d_un.d_val))
			continue;
		if (!strcmp(name, "libc.so.6"))
			return 1;
		if (i == 0 || !strcmp(other, "none"))
			snprintf(other, olen, "%.60s", name);
	}
	return 0;
}

/* Read the ELF program headers of f: static (no PT_INTERP), or dynamic
 * and linked to libc.so.6, or neither. */
static void elf_classify(const unsigned char *f, size_t len, struct program *p)
{
	const ElfW(Ehdr) *e = (const void *)f;
	const ElfW(Phdr) *ph, *interp = NULL, *dyn = NULL;
	char other[64];

	p->kind = PROG_UNKNOWN;
	if (len < sizeof *e || memcmp(f, ELFMAG, SELFMAG) ||
	    f[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    e->e_phoff >= len || (uint64_t)e->e_phnum * sizeof *ph > len - e->e_phoff) {
		snprintf(p->what, sizeof p->what, "not an ELF program of this machine's"
			 " class: its malloc is not checked");
		return;
	}
	ph = (const void *)(f + e->e_phoff);
	for (unsigned i = 0; i < e->e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP)
			interp = &ph[i];
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = &ph[i];
	}
	if (!interp) {
		/* A static glibc program carries the tunables' parser. */
		int glibc = memmem(f, len, "GLIBC_TUNABLES", 14) != NULL;

		p->kind = glibc ? PROG_STATIC : PROG_NO_GLIBC;
		snprintf(p->what, sizeof p->what, glibc
			 ? "static glibc: its tunables rows run; LD_PRELOAD never loads"
			 : "static, without glibc's tunables (musl? Go?): not glibc's malloc");
		return;
	}
	if (dyn && elf_needs_glibc(f, len, ph, e->e_phnum, dyn, other, sizeof other)) {
		p->kind = PROG_GLIBC;
		snprintf(p->what, sizeof p->what, "dynamic, libc.so.6: glibc's malloc");
		return;
	}
	p->kind = PROG_NO_GLIBC;
	snprintf(p->what, sizeof p->what, "dynamic, needs %.40s but not libc.so.6"
		 " (musl? Go?): not glibc's malloc", other);
}

/* The interpreter a "#!" line names (its first word; /usr/bin/env's next
 * word looked up on PATH), into out; -1 if there is none. */
static int script_interpreter(const unsigned char *f, size_t len, char *out, size_t olen)
{
	char line[256], *w, *save;
	size_t n = 0;

	if (len < 2 || f[0] != '#' || f[1] != '!')
		return -1;
	while (n + 2 < len && n < sizeof line - 1 && f[n + 2] != '\n')
		n++;
	memcpy(line, f + 2, n);
	line[n] = '\0';
	if (!(w = strtok_r(line, " \t", &save)))
		return -1;
	if (!strcmp(strrchr(w, '/') ? strrchr(w, '/') + 1 : w, "env") &&
	    (w = strtok_r(NULL, " \t", &save)) != NULL)
		return find_command(w, out, olen);
	snprintf(out, olen, "%s", w);
	return 0;
}

/* Does exec'ing this file change the effective user or group ID, so
 * that the kernel gives it AT_SECURE?  (A setgid bit without group
 * execute is not setgid: it marks mandatory locking.) */
static int set_id_switches(const struct stat *st, int fd)
{
	struct statvfs vfs;

	if (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOSUID))
		return 0;
	return ((st->st_mode & S_ISUID) && st->st_uid != getuid()) ||
	       ((st->st_mode & S_ISGID) && (st->st_mode & S_IXGRP) && st->st_gid != getgid());
}

/* What the rows can change for the file at path (a #! script: for its
 * interpreter, a few levels: a pyenv shim is a bash script). */
void read_program(const char *path, struct program *p, int depth)
{
	struct stat st;
	unsigned char *f;
	char interp[PATH_MAX];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	snprintf(p->file, sizeof p->file, "%s", path);
	p->kind = PROG_UNKNOWN;
	snprintf(p->what, sizeof p->what, "cannot be read: its malloc is not checked");
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* AT_SECURE (glibc-2.36): malloc's tunables are not read, whether
	 * from GLIBC_TUNABLES or a MALLOC_* alias (elf/dl-tunables.c:226-245,
	 * 320-346); LD_PRELOAD loses a name with a '/' (elf/rtld.c:180-190)
	 * and loads one without only if the library is itself set-user-ID
	 * (elf/dl-load.c:1882-1891).  The kernel sets AT_SECURE only when
	 * the ID it switches to is not the caller's real one (measured: a
	 * set-user-ID file run by its owner gets 0, owned by another user
	 * 1), and a nosuid mount switches nothing: those run every row. */
	if (set_id_switches(&st, fd)) {
		p->kind = PROG_SECURE;
		snprintf(p->what, sizeof p->what, "set%cid: AT_SECURE, so glibc drops"
			 " GLIBC_TUNABLES and LD_PRELOAD", st.st_mode & S_ISUID ? 'u' : 'g');
		close(fd);
		return;
	}
	f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f == MAP_FAILED)
		return;
	if (depth < 3 && script_interpreter(f, (size_t)st.st_size, interp, sizeof interp) == 0)
		read_program(interp, p, depth + 1);
	else
		elf_classify(f, (size_t)st.st_size, p);
	munmap(f, (size_t)st.st_size);
}

/* ---------------------------------------------------------- the libraries */

/* The multiarch directory Debian keeps this machine's libraries in. */
#if defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#elif defined(__i386__)
#define MULTIARCH "i386-linux-gnu"
#else
#define MULTIARCH "."
#endif

/* The installed file of a library, as tools/labs/lab7.sh finds it:
 * ALLOC_LIBDIR when set (and only there), else ldconfig's cache
 * (ldconfig -p, run without a shell), else /usr/lib/MULTIARCH.  0 found. */
int find_library(const char *soname, char *out, size_t len)
{
	const char *dir = getenv("ALLOC_LIBDIR");
	char line[512], name[256], path[PATH_MAX];
	int fds[2], found = -1;
	pid_t pid;
	FILE *in;

	if (dir && *dir) {
		snprintf(out, len, "%s/%s", dir, soname);
		return access(out, R_OK);
	}
	if (pipe2(fds, O_CLOEXEC) == 0 && (pid = fork()) >= 0) {
		if (pid == 0) {
			dup2(fds[1], 1);
			execl("/sbin/ldconfig", "ldconfig", "-p", (char *)NULL);
			_exit(127);
		}
		close(fds[1]);
		if ((in = fdopen(fds[0], "r")) != NULL) {
			while (fgets(line, sizeof line, in))
				if (found && sscanf(line, " %255s %*[^>]> %4095s", name, path) == 2 &&
				    !strcmp(name, soname)) {
					snprintf(out, len, "%s", path);
					found = 0;
				}
			fclose(in);
		}
		waitpid(pid, NULL, 0);
		if (!found)
			return 0;
	}
	snprintf(out, len, "/usr/lib/%s/%s", MULTIARCH, soname);
	return access(out, R_OK);
}

/* --------------------------------------------------------------- running */

/* The input, read once: a memfd every run starts at offset 0 of; -1 in
 * *bytes when stdin is a terminal (then /dev/null). */
int read_input(off_t *bytes)
{
	char buf[65536];
	ssize_t n;
	int fd;

	if (isatty(0)) {
		*bytes = -1;
		if ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
			die("/dev/null");
		return fd;
	}
	if ((fd = memfd_create("policies-stdin", MFD_CLOEXEC)) < 0)
		die("memfd_create");
	*bytes = 0;
	while ((n = read(0, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno == EBADF)     /* stdin closed: nothing to replay */
				break;
			die("reading standard input");
		}
		if (write(fd, buf, (size_t)n) != n)
			die("keeping standard input");
		*bytes += n;
	}
	return fd;
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* The last non-empty line of what the run wrote to stderr, printable. */
static void last_line(int fd, char *out, size_t len)
{
	char buf[4096];
	off_t size = lseek(fd, 0, SEEK_END);
	ssize_t n = pread(fd, buf, sizeof buf - 1, size > (off_t)sizeof buf - 1 ?
			  size - (off_t)sizeof buf + 1 : 0);
	char *s;

	out[0] = '\0';
	if (n <= 0)
		return;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	buf[n] = '\0';
	s = strrchr(buf, '\n') ? strrchr(buf, '\n') + 1 : buf;
	snprintf(out, len, "%.*s", (int)len - 1, s);
	for (char *c = out; *c; c++)
		if ((unsigned char)*c < ' ' || (unsigned char)*c > '~')
			*c = '?';
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The child: its own process group (a timeout kills all of it), the
 * input from the start, stdout to the pipe, stderr to the memfd. */
__attribute__((noreturn))
static void child(const struct job *j, const char *path, char *const *argv, char **env, int out_fd)
{
	setpgid(0, 0);
	if (dup2(j->stdin_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(j->err_fd, 2) < 0)
		_exit(127);
	execve(path, argv, env);
	fprintf(stderr, "%s: cannot run %s: %s\n", cli_prog, path, strerror(errno));
	_exit(127);
}

/* Read the child's stdout to its end (or the deadline) into the checksum
 * and the keep file; then reap it, killing its group at the deadline. */
static void collect(pid_t pid, int fd, int keep_fd, const struct timespec *t0,
		    unsigned timeout, struct run *r, struct rusage *ru)
{
	unsigned char buf[65536];
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	double left;
	ssize_t n;

	r->sum = 0xcbf29ce484222325ull;
	while ((left = timeout - since(t0)) > 0) {
		int ready = poll(&pf, 1, (int)(left * 1000) + 1);

		if (ready < 0 && errno != EINTR)
			die("poll");
		if (ready <= 0)
			continue;
		if ((n = read(fd, buf, sizeof buf)) <= 0)
			break;
		r->sum = fnv1a(r->sum, buf, (size_t)n);
		if (keep_fd >= 0 && write(keep_fd, buf, (size_t)n) != n)
			die("writing the kept output");
	}
	while (wait4(pid, &r->status, WNOHANG, ru) == 0) {
		if (timeout - since(t0) <= 0) {
			r->timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			wait4(pid, &r->status, 0, ru);
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 5000000 }, NULL);
	}
}

/* One run of path/argv with env: the measurement into r. */
void run_once(const struct job *j, const char *path, char *const *argv, char **env,
	      unsigned timeout, int keep_fd, struct run *r)
{
	struct timespec t0;
	struct rusage ru;
	int fds[2];
	pid_t pid;

	memset(r, 0, sizeof *r);
	if (lseek(j->stdin_fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		die("rewinding the input");
	if (ftruncate(j->err_fd, 0) != 0 || lseek(j->err_fd, 0, SEEK_SET) < 0)
		die("clearing the stderr file");
	if (pipe2(fds, O_CLOEXEC) != 0)
		die("pipe");
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0)
		child(j, path, argv, env, fds[1]);
	setpgid(pid, pid);      /* either side may win the race; both ask */
	close(fds[1]);
	collect(pid, fds[0], keep_fd, &t0, timeout, r, &ru);
	r->wall_s = since(&t0);
	close(fds[0]);
	r->user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	r->sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->faults = ru.ru_minflt;
	r->rss_kib = ru.ru_maxrss;
	last_line(j->err_fd, r->err, sizeof r->err);
}

int run_ok(const struct run *r)
{
	return !r->timed_out && WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

/* DIR/POLICY.RUN.out for --keep, or -1. */
int keep_file(const struct options *o, const struct row *w, unsigned run)
{
	char name[PATH_MAX];
	int fd;

	if (!o->keep)
		return -1;
	snprintf(name, sizeof name, "%s/%s.%u.out", o->keep, w->p->name, run + 1);
	if ((fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		die("cannot write %s", name);
	return fd;
}

/* ----------------------------------------------------------- under strace */

static const char *const traced_calls[4] = { "brk", "mmap", "munmap", "madvise" };

/* strace -f -c's calls column for brk, mmap, munmap and madvise: rows
 * whose first two fields are numbers, the name last, the calls fourth. */
static int read_strace(const char *file, long calls[4])
{
	char line[256], f[6][64];
	FILE *in = fopen(file, "r");
	int total = 0;

	if (!in)
		return -1;
	while (fgets(line, sizeof line, in)) {
		int n = sscanf(line, "%63s %63s %63s %63s %63s %63s", f[0], f[1], f[2], f[3], f[4], f[5]);
		char *end;

		if (n < 5 || (strtod(f[0], &end), *end) || (strtod(f[1], &end), *end))
			continue;
		for (int c = 0; c < 4; c++)
			if (!strcmp(f[n - 1], traced_calls[c]))
				calls[c] = strtol(f[3], NULL, 10);
		total |= !strcmp(f[n - 1], "total");
	}
	fclose(in);
	return total ? 0 : -1;
}

/* One more run of each row under strace (never timed): the calls that
 * take memory from the kernel and give it back.  The row's setting goes
 * to the command only (strace -E), never to strace. */
void trace_rows(struct job *j, const struct options *o, struct row *rows, size_t n,
		char *why, size_t wlen)
{
	char strace[PATH_MAX], out[PATH_MAX];
	const char *fixed[] = { "strace", "-f", "-c", "-o", out, "-e",
				"trace=brk,mmap,munmap,madvise" };
	size_t nf = sizeof fixed / sizeof *fixed, na = 0;
	const char **argv;
	struct run r;
	int fd;

	if (find_command("strace", strace, sizeof strace) != 0) {
		snprintf(why, wlen, "strace is not installed (apt-get install strace)");
		return;
	}
	snprintf(out, sizeof out, "%s/policies-strace.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	while (j->argv[na])
		na++;
	if (!(argv = calloc(nf + na + 4, sizeof *argv)) || (fd = mkstemp(out)) < 0)
		die("preparing the strace runs");
	close(fd);
	for (size_t i = 0; i < n; i++) {
		size_t k = nf;

		if (rows[i].skip[0] || rows[i].failed)
			continue;
		cli_progress(1, "under strace: %s", rows[i].p->name);
		memcpy(argv, fixed, sizeof fixed);
		if (rows[i].setting[0]) {
			argv[k++] = "-E";
			argv[k++] = rows[i].setting;
		}
		argv[k++] = "--";
		argv[k++] = j->path;
		for (size_t a = 1; a <= na; a++)
			argv[k++] = j->argv[a];
		j->env[j->n_env] = NULL;
		run_once(j, strace, (char *const *)argv, j->env, o->timeout, -1, &r);
		if (read_strace(out, rows[i].calls) != 0) {
			snprintf(why, wlen, "strace cannot trace here: %.50s", r.err);
			break;
		}
		rows[i].traced = 1;
	}
	unlink(out);
	free(argv);
}

/* ------------------------------------------------------------ statistics */

/* A row's medians, and the ranges of its wall time and faults. */
static struct summary summarise(const struct row *w, unsigned runs)
{
	double v[5][MAX_RUNS];
	struct summary s;

	for (unsigned r = 0; r < runs; r++) {
		v[0][r] = w->runs[r].wall_s;
		v[1][r] = w->runs[r].user_s;
		v[2][r] = w->runs[r].sys_s;
		v[3][r] = (double)w->runs[r].faults;
		v[4][r] = (double)w->runs[r].rss_kib;
	}
	s.wall = bench_median(v[0], runs);
	s.wall_lo = v[0][0];
	s.wall_hi = v[0][runs - 1];
	s.user = bench_median(v[1], runs);
	s.sys = bench_median(v[2], runs);
	s.faults = bench_median(v[3], runs);
	s.faults_lo = v[3][0];
	s.faults_hi = v[3][runs - 1];
	s.rss_kib = bench_median(v[4], runs);
	return s;
}

void summarise_rows(const struct row *rows, size_t n, unsigned runs, struct summary *s)
{
	memset(s, 0, n * sizeof *s);
	for (size_t i = 0; i < n; i++)
		if (!rows[i].skip[0] && !rows[i].failed)
			s[i] = summarise(&rows[i], runs);
}

int defaults_agree(const struct row *base, unsigned runs)
{
	int same = !base->failed;

	for (unsigned r = 1; r < runs; r++)
		same &= base->runs[r].sum == base->runs[0].sum;
	return same;
}

/* Does every run of w print what the defaults' first run printed? */
int same_output(const struct row *w, const struct row *base, unsigned runs)
{
	for (unsigned r = 0; r < runs; r++)
		if (w->runs[r].sum != base->runs[0].sum)
			return 0;
	return 1;
}

static int overlaps(const struct summary *a, const struct summary *b)
{
	return a->wall_lo <= b->wall_hi && b->wall_lo <= a->wall_hi;
}

/* ------------------------------------------------------ a command, shown */

/* Lines of at most 80 columns: a break between words is " \" and a new
 * line indented 4; a word too long for a line is cut where the shell
 * joins it again ('...'\ newline '...' inside quotes, \ newline outside). */
struct fold {
	int col;
	int quoted;             /* inside '...' */
	int words;              /* words on the line so far */
};

#define FOLD_WIDTH 78           /* then " \" or "'\" */

static void fold_char(struct fold *f, const char *c, int len)
{
	if (f->col + len > FOLD_WIDTH) {
		fputs(f->quoted ? "'\\\n'" : "\\\n", stdout);
		f->col = f->quoted;
	}
	fwrite(c, 1, (size_t)len, stdout);
	f->col += len;
}

/* A word as the shell must see it: as it is when every byte is safe,
 * else in single quotes (a quote inside as '\''). */
static size_t shell_quote(const char *w, char *out, size_t len)
{
	size_t n = 0;
	int safe = *w != '\0';

	for (const char *c = w; *c; c++)
		safe &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || strchr("_./:=,+-@%", *c);
	if (safe)
		return (size_t)snprintf(out, len, "%s", w);
	out[n++] = '\'';
	for (const char *c = w; *c && n + 6 < len; c++)
		if (*c == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else {
			out[n++] = *c;
		}
	out[n++] = '\'';
	out[n] = '\0';
	return n;
}

static void fold_word(struct fold *f, const char *w)
{
	char q[8192];
	size_t n = shell_quote(w, q, sizeof q);

	if (f->words && f->col > 4 && f->col + 1 + (int)n > FOLD_WIDTH) {
		fputs(" \\\n    ", stdout);
		f->col = 4;
	} else if (f->words) {
		fold_char(f, " ", 1);
	}
	f->words++;
	for (size_t i = 0; i < n; i++) {
		int len = 1;

		/* a long unquoted setting breaks after a ':' when what follows
		 * up to the next ':' would not fit */
		if (!f->quoted && i > 0 && q[i - 1] == ':' &&
		    f->col + (int)strcspn(q + i, ":'") > FOLD_WIDTH) {
			fputs("\\\n", stdout);
			f->col = 0;
		}

		if (!f->quoted && q[i] == '\\')
			len = 2;        /* \' : never cut between the two */
		else if (q[i] == '\'')
			f->quoted = !f->quoted;
		if (q[i] == '\'' && !f->quoted) {
			/* the closing quote goes on this line whatever its width */
			putchar('\'');
			f->col++;
			continue;
		}
		fold_char(f, q + i, len);
		i += (size_t)len - 1;
	}
}

/* "  SETTING... COMMAND ARGS", folded: a line a student can paste. */
void print_command(const char *settings, char *const *argv)
{
	char words[512], *w, *save;
	struct fold f = { 2, 0, 0 };

	fputs("  ", stdout);
	snprintf(words, sizeof words, "%s", settings);
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		fold_word(&f, w);
	for (char *const *a = argv; *a; a++)
		fold_word(&f, *a);
	putchar('\n');
}

/* ---------------------------------------------------------------- report */

static void print_exit(const struct run *r, char *buf, size_t len)
{
	if (r->timed_out)
		snprintf(buf, len, "T/O");
	else if (WIFSIGNALED(r->status))
		snprintf(buf, len, "S%d", WTERMSIG(r->status));
	else
		snprintf(buf, len, "%d", WEXITSTATUS(r->status));
}

/* The first failed run of w, explained. */
static void print_failure(const struct row *w, const struct options *o)
{
	for (unsigned r = 0; r < o->runs; r++) {
		const struct run *x = &w->runs[r];
		char st[16];

		if (run_ok(x))
			continue;
		print_exit(x, st, sizeof st);
		if (x->timed_out)
			printf("failed: %s, run %u: killed after --timeout %u s\n", w->p->name,
			       r + 1, o->timeout);
		else
			printf("failed: %s, run %u: exit %s; stderr's last line: %.30s\n",
			       w->p->name, r + 1, st, x->err[0] ? x->err : "(none)");
		return;
	}
}

static void print_table(const struct row *rows, size_t n, const struct options *o,
			const struct summary *s, int base_same)
{
	int rw = o->runs > 1 ? 15 : 0;     /* the range column, when there is one */

	printf("\n%-9s %8s %*s %6s %6s %9s %7s %4s %s\n", "policy", "wall s", rw,
	       rw ? "(min - max)" : "", "user s", "sys s", "faults", "RSS MiB", "exit", "out");
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		char st[16], range[24] = "";

		if (w->skip[0])
			continue;
		print_exit(&w->runs[0], st, sizeof st);
		if (w->failed) {
			printf("%-9s %8s %*s %6s %6s %9s %7s %4s\n", w->p->name, "-", rw, "", "-",
			       "-", "-", "-", st);
			continue;
		}
		if (o->runs > 1)
			snprintf(range, sizeof range, "(%.3f-%.3f)", s[i].wall_lo, s[i].wall_hi);
		printf("%-9s %8.3f %*s %6.2f %6.2f %9.0f %7.1f %4s %s\n", w->p->name, s[i].wall,
		       rw, range, s[i].user, s[i].sys, s[i].faults, s[i].rss_kib / 1024, st,
		       !base_same ? "?" : same_output(w, &rows[0], o->runs) ? "=" : "!");
	}
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

static void print_ratios(const struct row *rows, size_t n, const struct options *o,
			 const struct summary *s)
{
	printf("\nagainst the defaults (x): the medians' ratios\n%s",
	       o->runs > 1 ? "(~: its wall range overlaps the defaults': noise)\n" : "");
	printf("%-9s %8s %8s %8s %9s %8s\n", "policy", "wall", "user", "sys", "faults", "RSS");
	for (size_t i = 1; i < n; i++) {
		if (rows[i].skip[0] || rows[i].failed)
			continue;
		printf("%-9s %7.2f%c %8.2f %8.2f %9.3f %8.2f\n", rows[i].p->name,
		       ratio(s[i].wall, s[0].wall),
		       o->runs > 1 && overlaps(&s[i], &s[0]) ? '~' : ' ',
		       ratio(s[i].user, s[0].user), ratio(s[i].sys, s[0].sys),
		       ratio(s[i].faults, s[0].faults), ratio(s[i].rss_kib, s[0].rss_kib));
	}
}

static void print_calls(const struct row *rows, size_t n, const char *why)
{
	if (why[0]) {
		printf("\nsystem calls: not counted: %s\n", why);
		return;
	}
	printf("\nsystem calls (one more run each under strace -f -c, not timed):\n");
	printf("%-9s %9s %9s %9s %9s\n", "policy", "brk", "mmap", "munmap", "madvise");
	for (size_t i = 0; i < n; i++)
		if (rows[i].traced)
			printf("%-9s %9ld %9ld %9ld %9ld\n", rows[i].p->name, rows[i].calls[0],
			       rows[i].calls[1], rows[i].calls[2], rows[i].calls[3]);
}

/* The worked example's faults against the model's, when the command is
 * this program's --pack: start-up (a --blocks 0 run) plus the loop. */
static void print_predictions(struct job *j, const struct options *child,
			      const struct row *rows, const struct summary *s)
{
	char **argv;
	size_t n = 0;
	struct run r;

	while (j->argv[n])
		n++;
	if (!(argv = calloc(n + 3, sizeof *argv)))
		die("calloc");
	memcpy(argv, j->argv, n * sizeof *argv);
	argv[n] = "--blocks";
	argv[n + 1] = "0";
	j->env[j->n_env] = NULL;
	run_once(j, j->path, argv, j->env, 60, -1, &r);
	free(argv);
	printf("\nthe packer's faults, predicted (start-up %ld: a --blocks 0 run;\n"
	       "  the loop's from glibc's rules: %u blocks, seed %" PRIu64 "):\n",
	       r.faults, child->blocks, child->seed);
	for (int pinned = 0; pinned <= 1; pinned++) {
		uint64_t want = (uint64_t)r.faults + pack_model(child, rows[pinned].p);

		if (rows[pinned].failed)
			continue;
		printf("  %-9s predicted %9" PRIu64 "  measured %9.0f  (%+.1f%%)\n",
		       rows[pinned].p->name, want, s[pinned].faults,
		       100 * (s[pinned].faults - (double)want) / (double)want);
	}
	if (env_thp_always())
		printf("  (THP always: heap pages may come as huge pages; the heap's"
		       " faults are bounds)\n");
}

static void print_csv(const struct row *rows, size_t n, const struct options *o,
		      const struct summary *s, int base_same)
{
	printf("policy,setting,runs,wall_s,wall_min_s,wall_max_s,user_s,sys_s,minor_faults,"
	       "max_rss_kib,failed_runs,output_same,brk,mmap,munmap,madvise,skipped");
	env_csv_header(stdout);
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];

		printf("%s,", w->p->name);
		cli_csv_str(stdout, w->setting);
		if (w->skip[0] || w->failed)
			printf(",%u,,,,,,,,%u,,,,,,", w->skip[0] ? 0 : o->runs, w->failed);
		else
			printf(",%u,%.4f,%.4f,%.4f,%.3f,%.3f,%.0f,%.0f,0,%s,", o->runs, s[i].wall,
			       s[i].wall_lo, s[i].wall_hi, s[i].user, s[i].sys, s[i].faults,
			       s[i].rss_kib, !base_same ? "" : same_output(w, &rows[0], o->runs)
			       ? "1" : "0");
		if (w->traced)
			printf("%ld,%ld,%ld,%ld,", w->calls[0], w->calls[1], w->calls[2], w->calls[3]);
		else if (!w->skip[0] && !w->failed)
			printf(",,,,");
		cli_csv_str(stdout, w->skip);
		env_csv_fields(stdout);
		putchar('\n');
	}
}

/* The lines before the table: what runs, on what input, and how. */
void print_preamble(const struct job *j, const struct program *prog,
		    const struct options *o, off_t input, const struct row *rows, size_t n)
{
	printf("command:");
	for (char *const *a = j->argv; *a; a++) {
		char q[256];

		shell_quote(*a, q, sizeof q);
		printf(" %.60s%s", q, strlen(q) > 60 ? "..." : "");
	}
	printf("\nprogram: %s\n  %s\n", prog->file, prog->what);
	printf("runs: %u a policy, interleaved; at most %u s each\n", o->runs, o->timeout);
	if (input >= 0)
		printf("input: %lld bytes, read once, replayed to every run\n", (long long)input);
	else
		printf("input: a terminal, not read: every run gets /dev/null\n");
	printf("policies:\n");
	for (size_t i = 0; i < n; i++) {
		const struct policy *p = rows[i].p;

		if (p->tunables) {
			struct fold f = { 12, 0, 0 };
			char word[256];

			snprintf(word, sizeof word, "GLIBC_TUNABLES=%s", p->tunables);
			printf("  %-9s ", p->name);
			fold_word(&f, word);
			putchar('\n');
		} else if (p->soname)
			printf("  %-9s LD_PRELOAD=%s\n", p->name, p->soname);
		else
			printf("  %-9s glibc's, nothing set\n", p->name);
	}
}

/* "skipped: NAME: why", its "(...)" on a line of its own when the whole
 * would pass 80 columns. */
static void print_skip(const struct row *w)
{
	const char *paren = strstr(w->skip, " (");
	int head = paren ? (int)(paren - w->skip) : (int)strlen(w->skip);

	if (!paren || 11 + strlen(w->p->name) + strlen(w->skip) <= 80)
		printf("skipped: %s: %s\n", w->p->name, w->skip);
	else
		printf("skipped: %s: %.*s\n  %s\n", w->p->name, head, w->skip, paren + 1);
}

/* The report up to the advice, or the CSV; 1 when a run failed. */
int report(struct job *j, const struct options *o, const struct row *rows, size_t n,
	   const struct summary *s, int base_same, const struct options *packer,
	   const char *trace_why)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++)
		failed |= rows[i].failed > 0;
	if (o->output == OUTPUT_CSV) {
		print_csv(rows, n, o, s, base_same);
		return failed;
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].skip[0])
			print_skip(&rows[i]);
	print_table(rows, n, o, s, base_same);
	printf("(out: = the defaults' stdout, ! different: a finding, ? not compared)\n");
	for (size_t i = 0; i < n; i++)
		if (rows[i].failed)
			print_failure(&rows[i], o);
	if (!rows[0].failed && !base_same)
		printf("output: the defaults' own runs differ: the command's output varies,"
		       " so\n  no row's output is compared\n");
	for (size_t i = 1; base_same && i < n; i++)
		if (!rows[i].skip[0] && !rows[i].failed && !same_output(&rows[i], &rows[0], o->runs))
			printf("finding: %s's output differs from the defaults': memory read before"
			       "\n  it was written? (--keep DIR saves each run's output to compare)\n",
			       rows[i].p->name);
	if (!rows[0].failed) {
		print_ratios(rows, n, o, s);
		print_calls(rows, n, trace_why);
		if (packer)
			print_predictions(j, packer, rows, s);
	}
	return failed;
}
