/*
 * tools/grading/sandbox.c - runs one command of a student's code where it
 * cannot reach the grader: the re-run (tools/grading/recheck.sh) builds
 * and runs every program with a student's regions through this.
 *
 *   sandbox --dir DIR [--tmpfs BYTES] [--ro PATH]... [--uid N] [--cpu S]
 *           [--as BYTES] [--mem BYTES] [--procs N] [--fsize BYTES]
 *           -- COMMAND [ARG...]
 *   sandbox --probe     what isolation this machine allows, one line
 *
 * COMMAND runs:
 *   - as another uid: as root, uid/gid N (--uid, 64999 by default: no
 *     account's, so no file of the system is its own and RLIMIT_NPROC
 *     counts only its processes), no supplementary groups; without root,
 *     in a user namespace of the caller's own uid (the grader's files are
 *     then kept from it by the file system below, not by the uid);
 *   - with no_new_privs (no set-uid program gives it more);
 *   - in new mount, PID, network, IPC and UTS namespaces: no network but
 *     a loopback that is down; its processes all end when it ends (the
 *     namespace's first process, this program's, exits with it); it sees
 *     no process of the grader's;
 *   - on a file system of its own: a tmpfs root holding only the system's
 *     directories (/usr /bin /sbin /lib* /etc /sys), /dev/null, zero,
 *     full, random, urandom, a /proc of its own, each --ro PATH and DIR,
 *     at their own paths; all read-only but DIR.  The kit, the grader's
 *     files, the solutions, homes, /tmp, /run and the other students'
 *     files are not there at all.  With --tmpfs, DIR is a new tmpfs of
 *     that size (and 4096 files at most), empty, gone when COMMAND ends:
 *     what the run may write, all its files together, is bounded;
 *   - with nothing of the caller's open: standard input /dev/null, every
 *     descriptor above 2 closed (standard output and error stay the
 *     caller's: the files it opened for this run), no signal ignored or
 *     blocked, a session keyring of its own and the uid's emptied;
 *   - with DIR as TMPDIR and HOME (as root DIR is made N's, mode 0700),
 *     PATH the system's, and of the rest of the environment only what
 *     the programs and a build read: the locale, TERM, TZ, MALLOC_*,
 *     GLIBC_TUNABLES, LD_PRELOAD, CC, CFLAGS;
 *   - under limits: CPU seconds (--cpu, 60), address space (--as, 2G),
 *     processes of its uid (--procs, 64), the size of any file it writes,
 *     its standard output and error included (--fsize, 16M), no core;
 *     as root, the memory of all its processes and its tmpfs together
 *     (--mem, 2G), in a cgroup of its own where one can be made.
 * The working directory stays (it must be DIR or under a --ro PATH).
 * As root where namespaces are refused (a container's seccomp), the uid,
 * no_new_privs, the descriptors and the limits only (no --tmpfs: DIR is
 * DIR), every process of the uid killed after the command; --probe says
 * so.  Without root and without user
 * namespaces, nothing: exit 125.
 * Exit: COMMAND's status (128+N if signal N ended it); 125 when the
 * sandbox could not be made (the reason on stderr: then nothing ran);
 * 2 bad usage.  --probe: 0 and a line saying what isolates, or 125 and
 * why nothing can.
 */
#define _GNU_SOURCE
#include "../include/cli.h"
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <grp.h>
#include <limits.h>
#include <linux/keyctl.h>
#include <linux/mount.h>

#define SANDBOX_FAIL 125
/* the system's commands, all the new root holds (a PATH of the caller's,
 * a directory of links, say, is not there) */
#define SANDBOX_PATH "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
#define MAX_RO 16
/* where the new root is assembled: any directory will do, the mount over
 * it is this namespace's alone; the sources are opened before it hides
 * them (a DIR under /tmp stays reachable) */
#define STAGE "/tmp"

static void usage(FILE *f)
{
	fprintf(f, "usage: %s --dir DIR [--tmpfs BYTES] [--ro PATH]... [--uid N] [--cpu S] [--as BYTES]\n"
		"       [--mem BYTES] [--procs N] [--fsize BYTES] -- COMMAND [ARG...]\n       %s --probe\n",
		cli_prog, cli_prog);
}

/* A failure to build the sandbox: the reason, exit 125; nothing ran. */
__attribute__((format(printf, 1, 2), noreturn))
static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(SANDBOX_FAIL, "no isolation: ", fmt, ap);
}

/* S into the file PATH: 0, or -1.  writev, not write: make check counts a
 * run's write() calls with strace around this program, and these are the
 * sandbox's, not the run's. */
static int put(const char *path, const char *s)
{
	struct iovec v = { (void *)s, strlen(s) };
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = writev(fd, &v, 1) == (ssize_t)v.iov_len;
	close(fd);
	return ok ? 0 : -1;
}

static void write_file(const char *path, const char *s)
{
	if (put(path, s) != 0)
		fail("%s", path);
}

/* mkdir -p of PATH (absolute) under STAGE; the last part a file when
 * FILE (a bind of /dev/null needs a file to cover). */
static void stage_path(const char *path, int file)
{
	char p[PATH_MAX];
	size_t i, n = (size_t)snprintf(p, sizeof(p), "%s%s", STAGE, path);

	if (n >= sizeof(p))
		fail("path too long: %s", path);
	for (i = strlen(STAGE) + 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (i == n && file) {
			int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
			if (fd < 0)
				fail("%s", p);
			close(fd);
		} else if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			fail("mkdir %s", p);
		}
		if (i < n)
			p[i] = '/';
	}
}

struct bind { const char *path; int fd, file; };

static int by_length(const void *a, const void *b)
{
	size_t x = strlen(((const struct bind *)a)->path), y = strlen(((const struct bind *)b)->path);

	return (x > y) - (x < y);
}

/* Bind what FD (opened before STAGE was covered) is at PATH in the new
 * root, its submounts too. */
static void bind_at(const struct bind *b)
{
	char src[64], dst[PATH_MAX];

	snprintf(src, sizeof(src), "/proc/self/fd/%d", b->fd);
	snprintf(dst, sizeof(dst), "%s%s", STAGE, b->path);
	stage_path(b->path, b->file);
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) != 0)
		fail("bind %s", b->path);
}

static int mount_setattr_(const char *path, unsigned flags, uint64_t set, uint64_t clr)
{
	struct mount_attr a = { .attr_set = set, .attr_clr = clr };

	return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &a, sizeof(a));
}

struct opts {
	const char *dir, *ro[MAX_RO];
	int n_ro, probe, ns;      /* ns: 0 when root may not make namespaces */
	uint64_t uid, cpu, as, procs, fsize, tmpfs, mem;   /* tmpfs: 0, DIR itself */
};

/* The whole run's memory (--mem): a cgroup of its own, a child of this
 * process's (cgroup v2's, or v1's memory controller), its tmpfs pages
 * and every process in it counted together.  Made as root only (a user's
 * cgroups are seldom delegated); "" where none could be made, and then
 * only RLIMIT_AS holds, a process at a time (--probe says which). */
static char cg_dir[PATH_MAX];
/* cg_dir's parent and name: the cgroup is removed through a descriptor
 * of its parent opened before the new root (which, pivoted, is this
 * process's too, read-only) */
static int cg_parent = -1;
static const char *cg_name;

static int cg_put(const char *file, const char *s)
{
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/%s", cg_dir, file);
	return put(p, s);
}

/* Once the run's processes are gone (a dying one may linger a moment). */
static void cgroup_remove(void)
{
	struct timespec t = { 0, 20 * 1000 * 1000 };
	int i;

	for (i = 0; cg_dir[0] && i < 100 && unlinkat(cg_parent, cg_name, AT_REMOVEDIR) != 0 && errno == EBUSY; i++)
		nanosleep(&t, NULL);
}

static void cgroup_make(const struct opts *o)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX], lim[32], up[PATH_MAX + 32];
	const char *base = NULL, *limit = NULL;
	char *ctl, *path = NULL;

	while (f && fgets(line, sizeof(line), f)) {       /* ID:CONTROLLERS:PATH */
		line[strcspn(line, "\n")] = '\0';
		if (!(ctl = strchr(line, ':')) || !(path = strchr(++ctl, ':')))
			continue;
		*path++ = '\0';
		if (!*ctl && access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0) {
			base = "/sys/fs/cgroup", limit = "memory.max";
			break;
		}
		if (!strcmp(ctl, "memory") || strstr(ctl, ",memory") || !strncmp(ctl, "memory,", 7)) {
			base = "/sys/fs/cgroup/memory", limit = "memory.limit_in_bytes";
			break;
		}
	}
	if (f)
		fclose(f);
	if (!base || snprintf(cg_dir, sizeof(cg_dir), "%s%s", base, path) >= (int)sizeof(cg_dir) - 40) {
		cg_dir[0] = '\0';
		return;
	}
	snprintf(up, sizeof(up), "%s/cgroup.subtree_control", cg_dir);
	put(up, "+memory");                /* v2: may be refused; then no memory.max below */
	cg_parent = open(cg_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cg_name = cg_dir + strlen(cg_dir) + 1;
	snprintf(cg_dir + strlen(cg_dir), 40, "/malloc-labs-sandbox.%d", (int)getpid());
	snprintf(lim, sizeof(lim), "%" PRIu64, o->mem);
	if (cg_parent < 0 || mkdir(cg_dir, 0755) != 0) {
		cg_dir[0] = '\0';
		return;
	}
	if (cg_put(limit, lim) != 0) {
		cgroup_remove();
		cg_dir[0] = '\0';
		return;
	}
	cg_put("memory.swap.max", "0");    /* v2: no swap beyond it either */
}

/* The run's first process joins it, before anything of the run. */
static void cgroup_join(void)
{
	if (cg_dir[0] && cg_put("cgroup.procs", "0") != 0)
		fail("joining the cgroup %s", cg_dir);
}


/* DIR as a new tmpfs of o->tmpfs bytes, owned by the uid that runs. */
static void tmpfs_at(const struct opts *o, int root)
{
	char dst[PATH_MAX], data[128];

	snprintf(dst, sizeof(dst), "%s%s", STAGE, o->dir);
	stage_path(o->dir, 0);
	snprintf(data, sizeof(data), "mode=0700,size=%" PRIu64 ",nr_inodes=4096,uid=%u,gid=%u", o->tmpfs,
		 root ? (unsigned)o->uid : (unsigned)getuid(), root ? (unsigned)o->uid : (unsigned)getgid());
	if (mount("tmpfs", dst, "tmpfs", MS_NOSUID | MS_NODEV, data) != 0)
		fail("a tmpfs of %" PRIu64 " bytes for %s", o->tmpfs, o->dir);
}

/* The new root: the system's directories, the /dev nodes, each --ro and
 * DIR, then a /proc of this PID namespace; read-only but DIR. */
static void new_root(const struct opts *o, int root, const char *cwd)
{
	static const char *const sys[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
					   "/etc", "/sys" };
	static const char *const dev[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/random",
					   "/dev/urandom" };
	struct bind b[32];
	char link[PATH_MAX], dst[PATH_MAX];
	struct stat st;
	size_t i;
	int n = 0, k;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		fail("a private mount namespace");
	for (i = 0; i < sizeof(sys) / sizeof(*sys); i++) {
		if (lstat(sys[i], &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode))        /* merged /usr: /bin -> usr/bin, made below */
			b[n++] = (struct bind){ sys[i], -2, 0 };
		else
			b[n++] = (struct bind){ sys[i], open(sys[i], O_PATH | O_CLOEXEC), 0 };
	}
	for (i = 0; i < sizeof(dev) / sizeof(*dev); i++)
		b[n++] = (struct bind){ dev[i], open(dev[i], O_PATH | O_CLOEXEC), 1 };
	for (k = 0; k < o->n_ro; k++)
		b[n++] = (struct bind){ o->ro[k], open(o->ro[k], O_PATH | O_CLOEXEC), 0 };
	b[n++] = (struct bind){ o->dir, o->tmpfs ? -3 : open(o->dir, O_PATH | O_DIRECTORY | O_CLOEXEC), 0 };
	for (k = 0; k < n; k++)
		if (b[k].fd == -1)
			fail("%s", b[k].path);
	/* a path before any under it (DIR under a --ro PATH, or around one) */
	qsort(b, (size_t)n, sizeof(*b), by_length);
	if (mount("tmpfs", STAGE, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0)
		fail("a tmpfs for the new root");
	for (k = 0; k < n; k++) {
		if (b[k].fd == -3) {
			tmpfs_at(o, root);
			continue;
		}
		if (b[k].fd == -2) {
			ssize_t l = readlink(b[k].path, link, sizeof(link) - 1);
			link[l < 0 ? 0 : l] = '\0';
			snprintf(dst, sizeof(dst), "%s%s", STAGE, b[k].path);
			if (l < 0 || symlink(link, dst) != 0)
				fail("symlink %s", b[k].path);
			continue;
		}
		bind_at(&b[k]);
		close(b[k].fd);
	}
	stage_path("/proc", 0);
	if (mount("proc", STAGE "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
		fail("a /proc of its own");
	/* pivot_root(".", "."): the old root stacks under the new, then goes */
	if (chdir(STAGE) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0)
		fail("pivot_root");
	if (mount_setattr_("/", AT_RECURSIVE, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0) != 0)
		fail("a read-only root");
	if (mount_setattr_(o->dir, 0, 0, MOUNT_ATTR_RDONLY) != 0)
		fail("a writable %s", o->dir);
	if (chdir(cwd) != 0)
		fail("the working directory %s is neither DIR nor under a --ro PATH", cwd);
}

static void set_limit(int what, uint64_t v, const char *name)
{
	struct rlimit r = { (rlim_t)v, (rlim_t)v };

	if (setrlimit(what, &r) != 0)
		fail("%s", name);
}

/* The environment the programs read (the allocator's settings, their
 * own knobs, the locale; the compiler for a build); nothing else of the
 * grader's (a token in a regrade's environment, say). */
static void keep_env(void)
{
	static const char *const keep[] = { "LANG=", "LANGUAGE=", "TERM=", "TZ=", "LC_", "MALLOC_",
					    "GLIBC_TUNABLES=", "LD_PRELOAD=", "CC=", "CFLAGS=" };
	size_t i, k, n = 0;

	for (i = 0; environ[i]; i++)
		for (k = 0; k < sizeof(keep) / sizeof(*keep); k++)
			if (!strncmp(environ[i], keep[k], strlen(keep[k]))) {
				environ[n++] = environ[i];
				break;
			}
	environ[n] = NULL;
}

/* Nothing of the caller's open but standard output and error: stdin is
 * /dev/null (a step list it could rewrite or rewind, once), every other
 * descriptor closed (a shell's saved ones, a file the caller had open);
 * and no signal of the caller's ignored or blocked (a shell that ignores
 * SIGXFSZ would turn the file-size limit's end into a write error). */
static void close_inherited(void)
{
	int fd = open("/dev/null", O_RDONLY), sig;
	long i, max = sysconf(_SC_OPEN_MAX);
	sigset_t none;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);          /* (SIGKILL, SIGSTOP and the gaps refuse: no matter) */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (fd < 0 || dup2(fd, 0) != 0)
		fail("standard input from /dev/null");
	if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
		return;
	for (i = 3; i < (max > 0 ? max : 65536); i++)      /* a kernel before 5.9 */
		close((int)i);
}

/* No key of the caller's: the session keyring it inherits is the
 * caller's (a token there would be the run's to read), and the uid's own
 * keyrings outlive a run (what one run leaves there, the next could
 * read).  A new session keyring, the uid's emptied.  Where keyctl() is
 * refused (a container's seccomp), it is refused to the run as well. */
static void fresh_keyrings(void)
{
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS && errno != EPERM)
		fail("a session keyring of its own");
	syscall(SYS_keyctl, KEYCTL_CLEAR, KEY_SPEC_USER_KEYRING);
	syscall(SYS_keyctl, KEYCTL_CLEAR, KEY_SPEC_USER_SESSION_KEYRING);
}

/* The command's process: its uid, limits and environment, then exec. */
__attribute__((noreturn))
static void run(const struct opts *o, int root, char **argv)
{
	close_inherited();
	if (root) {
		gid_t g = (gid_t)o->uid;
		if (setgroups(0, NULL) != 0 || setresgid(g, g, g) != 0 || setresuid((uid_t)o->uid, (uid_t)o->uid,
										   (uid_t)o->uid) != 0)
			fail("uid %" PRIu64, o->uid);
	}
	fresh_keyrings();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		fail("no_new_privs");
	set_limit(RLIMIT_CPU, o->cpu, "RLIMIT_CPU");
	set_limit(RLIMIT_AS, o->as, "RLIMIT_AS");
	set_limit(RLIMIT_NPROC, o->procs, "RLIMIT_NPROC");
	set_limit(RLIMIT_FSIZE, o->fsize, "RLIMIT_FSIZE");
	set_limit(RLIMIT_CORE, 0, "RLIMIT_CORE");
	keep_env();
	if (setenv("TMPDIR", o->dir, 1) != 0 || setenv("HOME", o->dir, 1) != 0 ||
	    setenv("PATH", SANDBOX_PATH, 1) != 0)
		fail("setenv");
	if (o->probe) {
		if (root)
			printf("uid %" PRIu64 " (dropped from root), ", o->uid);
		else
			printf("the caller's uid in a user namespace, ");
		if (o->ns)
			printf("namespaces: mount (a root of its own, read-only but DIR), pid, net, ipc, uts");
		else
			printf("NO namespaces (unshare refused): the network is open, files kept by their modes");
		printf("; stdin /dev/null, no other descriptor, no key");
		if (o->tmpfs && o->ns)
			printf("; DIR a tmpfs of %" PRIu64 " MiB", o->tmpfs >> 20);
		else if (o->tmpfs)
			printf("; DIR on the disk (no tmpfs without a mount namespace)");
		printf("; no_new_privs; limits: cpu %" PRIu64 " s, as %" PRIu64 " MiB, procs %" PRIu64
		       ", fsize %" PRIu64 " MiB", o->cpu, o->as >> 20, o->procs, o->fsize >> 20);
		if (cg_dir[0])
			printf("; memory %" PRIu64 " MiB for the whole run (a cgroup)\n", o->mem >> 20);
		else
			printf("; memory: no cgroup here, as a process at a time\n");
		fflush(stdout);
		_exit(0);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", cli_prog, argv[0], strerror(errno));
	_exit(127);
}

/* Without a PID namespace: a process of the uid's signals every other
 * (kill -1): one SIGKILL ends them all, a fork under way too (the kernel
 * cancels a fork whose parent has a fatal signal pending).  kill(-1)
 * returns 0 while any process exists, so once is all it can be asked. */
static void kill_uid(const struct opts *o)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setresgid((gid_t)o->uid, (gid_t)o->uid, (gid_t)o->uid) != 0 ||
		    setresuid((uid_t)o->uid, (uid_t)o->uid, (uid_t)o->uid) != 0)
			_exit(1);
		_exit(kill(-1, SIGKILL) != 0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static const struct opts *the_opts;
static pid_t the_child;

/* Stopped before the command ended: its processes end too (with
 * namespaces, the first of them, PID 1 of its namespace; without, every
 * process of the uid), and its cgroup goes. */
static void stopped(int sig)
{
	if (the_opts->ns && the_child > 0) {
		kill(the_child, SIGKILL);
		waitpid(the_child, NULL, 0);
	} else {
		kill_uid(the_opts);
	}
	cgroup_remove();
	_exit(128 + sig);
}

/* the status a shell would give for STATUS */
static int shell_status(int status)
{
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static int wait_for(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid");
	return shell_status(status);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' }, { "ro", required_argument, NULL, 'r' },
		{ "uid", required_argument, NULL, 'u' }, { "cpu", required_argument, NULL, 'c' },
		{ "as", required_argument, NULL, 'a' }, { "procs", required_argument, NULL, 'p' },
		{ "fsize", required_argument, NULL, 'f' }, { "probe", no_argument, NULL, 'P' },
		{ "tmpfs", required_argument, NULL, 't' }, { "mem", required_argument, NULL, 'm' },
		CLI_OPTIONS_END
	};
	struct opts o = { .uid = 64999, .cpu = 60, .as = 2ull << 30, .procs = 64, .fsize = 16ull << 20,
			  .mem = 2ull << 30 };
	char cwd[PATH_MAX], probe_dir[] = "/tmp/sandbox-probe.XXXXXX", map[64];
	char *probe_argv[] = { "true", NULL };
	int c, root = geteuid() == 0, flags, probe_parent = -1;
	uid_t uid = getuid();
	gid_t gid = getgid();
	pid_t pid;

	cli_start("sandbox");
	while ((c = cli_getopt(argc, argv, "+:h", longopts, usage)) != -1) {
		switch (c) {
		case 'd':
			o.dir = optarg;
			break;
		case 'r':
			if (o.n_ro == MAX_RO)
				bad_usage(usage, "at most %d --ro", MAX_RO);
			o.ro[o.n_ro++] = optarg;
			break;
		case 'u':
			if (cli_parse_u64(optarg, 1, 4294967294u, &o.uid))
				bad_usage(usage, "--uid wants a uid above 0");
			break;
		case 'c':
			if (cli_parse_u64(optarg, 1, 86400, &o.cpu))
				bad_usage(usage, "--cpu wants 1..86400 seconds");
			break;
		case 'a':
			if (cli_parse_size(optarg, 16 << 20, 1ull << 40, &o.as))
				bad_usage(usage, "--as wants a size of 16M..1024G");
			break;
		case 'p':
			if (cli_parse_u64(optarg, 1, 4096, &o.procs))
				bad_usage(usage, "--procs wants 1..4096");
			break;
		case 'f':
			if (cli_parse_size(optarg, 1, 1ull << 40, &o.fsize))
				bad_usage(usage, "--fsize wants a size like 16M");
			break;
		case 't':
			if (cli_parse_size(optarg, 1 << 20, 1ull << 40, &o.tmpfs))
				bad_usage(usage, "--tmpfs wants a size of 1M..1024G");
			break;
		case 'm':
			if (cli_parse_size(optarg, 16 << 20, 1ull << 40, &o.mem))
				bad_usage(usage, "--mem wants a size of 16M..1024G");
			break;
		case 'P': o.probe = 1; break;
		}
	}
	if (o.probe) {
		if (optind != argc || o.dir)
			bad_usage(usage, "--probe takes no DIR or COMMAND");
		if (!mkdtemp(probe_dir) || (probe_parent = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			fail("%s", probe_dir);
		o.dir = probe_dir;
		argv = probe_argv;
		if (chdir(probe_dir) != 0)
			fail("%s", probe_dir);
	} else {
		if (!o.dir || o.dir[0] != '/')
			bad_usage(usage, "no --dir DIR (an absolute path)");
		if (optind == argc)
			bad_usage(usage, "no COMMAND");
		argv += optind;
	}
	for (c = 0; c < o.n_ro; c++)
		if (o.ro[c][0] != '/')
			bad_usage(usage, "--ro wants an absolute path, not '%s'", o.ro[c]);
	if (!getcwd(cwd, sizeof(cwd)))
		fail("getcwd");
	if (root && (chown(o.dir, (uid_t)o.uid, (gid_t)o.uid) != 0 || chmod(o.dir, 0700) != 0))
		fail("%s for uid %" PRIu64, o.dir, o.uid);
	fflush(NULL);
	flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
	o.ns = unshare(flags | (root ? 0 : CLONE_NEWUSER)) == 0;
	if (!o.ns && !root)
		fail("unshare (a user namespace)");
	the_opts = &o;
	signal(SIGTERM, stopped);
	signal(SIGINT, stopped);
	signal(SIGHUP, stopped);
	if (root)
		cgroup_make(&o);
	if (!o.ns) {
		/* Root in a container that may not make namespaces (seccomp):
		 * the uid and the limits only; every process left of the uid is
		 * killed after the command, or when this is stopped (timeout).
		 * They are reparented here, not to PID 1, and reaped: a zombie
		 * still counts against the next run's process limit. */
		if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
			fail("prctl(PR_SET_CHILD_SUBREAPER)");
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0) {
			cgroup_join();
			run(&o, root, argv);
		}
		c = wait_for(pid);
		kill_uid(&o);
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			continue;
		cgroup_remove();
		if (o.probe)
			unlinkat(probe_parent, probe_dir + 5, AT_REMOVEDIR);
		return c;
	}
	if (!root) {
		write_file("/proc/self/setgroups", "deny");
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
		write_file("/proc/self/uid_map", map);
		snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
		write_file("/proc/self/gid_map", map);
	}
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		/* PID 1 of the namespace: its end ends every process in it */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			fail("PR_SET_PDEATHSIG");
		cgroup_join();
		new_root(&o, root, cwd);
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0)
			run(&o, root, argv);
		_exit(wait_for(pid));
	}
	the_child = pid;
	c = wait_for(pid);
	cgroup_remove();
	if (o.probe)             /* (through /tmp as it was: the root is now the run's) */
		unlinkat(probe_parent, probe_dir + 5, AT_REMOVEDIR);
	return c;
}
