/*
 * policies.c - Lab 8: your own program under glibc's malloc policies.
 *
 * Every other lab measures a program the kit wrote.  This one runs any
 * command, unchanged and without a rebuild, under each policy a user can
 * set from outside: glibc's defaults; the mmap and trim thresholds pinned
 * high (the fix a packer's owner found for 20% of its time in the kernel);
 * arena_max=2 (what threaded servers set); hugetlb=1; and jemalloc,
 * tcmalloc and mimalloc through LD_PRELOAD where they are installed.  Each
 * row is the command's wall, user and sys time, minor faults and peak RSS
 * (wait4: the command and its children), its exit status and a checksum of
 * its standard output: a policy under which the output changes has found a
 * bug (memory read before it was written, which one policy hid).
 * It reads the command's ELF first and says what it cannot see: a static
 * program ignores LD_PRELOAD; one without glibc's malloc (musl, Go), or a
 * setuid one that runs as another user (AT_SECURE), ignores every row, so
 * no table is printed.
 *
 * Its worked example is a mode of this program, --pack: a packer after
 * the one whose owner found the fix, blocks of 256 KiB to 64 MiB, each
 * filled, checksummed and freed.  Its faults under the defaults and under
 * the pin are predicted from glibc's rules (pack_model() in the kit).
 *
 * Build: make policies
 * Run:   ./policies -- python3 -c 'print(1)'   every policy, 5 runs each
 *        ./policies --runs 3 -- ./policies --pack   the worked example
 *        make lab8                          the worked example, 5 runs
 *        make lab8 CMD='sort -n big.txt'    your own command, as typed
 * Look at: sys and faults against the defaults' (the "x" table), the
 *        "output" column (a "!" is a finding), "advice:" and the line
 *        that gives it without a rebuild.
 * Read on: the policies, the packer, each policy's row, the runs, the
 * rule and its advice, main().  What reads the command's file, runs and
 * times it, traces it and reports is the kit's: tools/kit/policies.c,
 * declared in tools/include/policies.h.
 */
#include "tools/include/policies.h"   /* the kit: options, the command, a run, the report */
#include "tools/include/model.h"      /* the pin's thresholds */

/* STR(N): a number as the string a setting spells it in, so the pin's
 * thresholds (model.h's) are typed once. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* ------------------------------------------------------------- policies */

/* One row a policy, the defaults first: every other row is measured
 * against theirs (each field: struct policy, tools/include/policies.h). */
static const struct policy policy_table[] = {
	{ "defaults", NULL, NULL, NULL, NULL, "nothing: glibc's defaults" },
	{ "pin", "glibc.malloc.mmap_threshold=" STR(MODEL_PIN_MMAP_THRESHOLD)
	  ":glibc.malloc.trim_threshold=" STR(MODEL_PIN_TRIM_THRESHOLD),
	  "MALLOC_MMAP_THRESHOLD_=" STR(MODEL_PIN_MMAP_THRESHOLD)
	  " MALLOC_TRIM_THRESHOLD_=" STR(MODEL_PIN_TRIM_THRESHOLD),
	  NULL, NULL, "mallopt(M_MMAP_THRESHOLD, " STR(MODEL_PIN_MMAP_THRESHOLD) ");\n"
	  "mallopt(M_TRIM_THRESHOLD, " STR(MODEL_PIN_TRIM_THRESHOLD) ");" },
	{ "arenas2", "glibc.malloc.arena_max=2", "MALLOC_ARENA_MAX=2", NULL, NULL,
	  "mallopt(M_ARENA_MAX, 2);" },
	{ "hugetlb1", "glibc.malloc.hugetlb=1", NULL, NULL, NULL,
	  "none: hugetlb is a tunable only (no mallopt)" },
	{ "jemalloc", NULL, NULL, "libjemalloc.so.2", "libjemalloc2",
	  "link with -ljemalloc (libjemalloc-dev)" },
	{ "tcmalloc", NULL, NULL, "libtcmalloc_minimal.so.4", "libtcmalloc-minimal4",
	  "link with -ltcmalloc_minimal (libgoogle-perftools-dev)" },
	{ "mimalloc", NULL, NULL, "libmimalloc.so.2", "libmimalloc2.0",
	  "link with -lmimalloc (libmimalloc-dev)" },
};
#define N_POLICIES (sizeof policy_table / sizeof policy_table[0])

/* ------------------------------------------------------------ the packer */

/* What a packer does with each input: a buffer as big as the file, filled,
 * checksummed, freed.  Its stdout is the same under every policy. */
static int pack(const struct options *o)
{
	uint64_t state = o->seed, sum = 0, bytes = 0;

	for (unsigned i = 0; i < o->blocks; i++) {
		size_t n = pack_size(&state);
		uint64_t *p = malloc(n);

		if (!p)
			die("malloc(%zu)", n);
		memset(p, 'a' + (int)(i % 26), n);
		for (size_t w = 0; w < n / sizeof *p; w++)
			sum = sum * 31 + p[w];
		bytes += n;
		free(p);
	}
	printf("blocks: %u\nbytes: %" PRIu64 "\nchecksum: %016" PRIx64 "\n",
	       o->blocks, bytes, sum);
	return 0;
}

/* ------------------------------------------------------------- the rows */

/* The environment every row starts from: this one without GLIBC_TUNABLES,
 * LD_PRELOAD and MALLOC_* (the kit's MALLOC_LABS_* kept), so "defaults"
 * is glibc's defaults; each dropped one is named once.  Two slots spare:
 * a row's setting and the end. */
static void clean_environment(struct job *j, int quiet)
{
	extern char **environ;
	size_t n = 0;

	for (char **e = environ; *e; e++)
		n++;
	j->env = calloc(n + 2, sizeof *j->env);
	if (!j->env)
		die("calloc");
	for (char **e = environ; *e; e++) {
		if (!strncmp(*e, "GLIBC_TUNABLES=", 15) || !strncmp(*e, "LD_PRELOAD=", 11) ||
		    (!strncmp(*e, "MALLOC_", 7) && strncmp(*e, "MALLOC_LABS_", 12))) {
			if (!quiet)
				printf("# warning: not passed on (each row sets its own): %.40s\n", *e);
			continue;
		}
		j->env[j->n_env++] = *e;
	}
}

/* Each policy's row: its setting, or why it is skipped for this program. */
static size_t make_rows(struct row *rows, const struct program *prog)
{
	char lib[PATH_MAX];

	for (size_t i = 0; i < N_POLICIES; i++) {
		struct row *w = &rows[i];

		w->p = &policy_table[i];
		if (w->p->tunables)
			snprintf(w->setting, sizeof w->setting, "GLIBC_TUNABLES=%s", w->p->tunables);
		if (!w->p->soname)
			continue;
		if (prog->kind == PROG_STATIC)
			snprintf(w->skip, sizeof w->skip, "static: no loader reads LD_PRELOAD");
		else if (find_library(w->p->soname, lib, sizeof lib) != 0)
			snprintf(w->skip, sizeof w->skip, "%s is not installed (apt-get install %s)",
				 w->p->soname, w->p->package);
		else
			snprintf(w->setting, sizeof w->setting, "LD_PRELOAD=%s", lib);
	}
	return N_POLICIES;
}

/* ------------------------------------------------------------- the runs */

/* A row's environment: the clean one plus its setting. */
static char **row_env(struct job *j, struct row *w)
{
	j->env[j->n_env] = w->setting[0] ? w->setting : NULL;
	j->env[j->n_env + 1] = NULL;
	return j->env;
}

/* The runs: round after round, each row once a round, each round starting
 * one row later (ABC BCA CAB ...), so a machine that slows down slows every
 * row alike, and no row always follows the same one. */
static void run_rows(struct job *j, const struct options *o, struct row *rows, size_t n)
{
	size_t active = 0, done = 0;

	for (size_t i = 0; i < n; i++)
		active += !rows[i].skip[0];
	for (unsigned r = 0; r < o->runs; r++)
		for (size_t k = 0; k < n; k++) {
			struct row *w = &rows[(k + r) % n];
			int keep;

			if (w->skip[0])
				continue;
			cli_progress(1, "run %zu of %zu: %s", ++done, active * o->runs, w->p->name);
			keep = keep_file(o, w, r);
			run_once(j, j->path, j->argv, row_env(j, w), o->timeout, keep, &w->runs[r]);
			if (keep >= 0)
				close(keep);
			w->failed += !run_ok(&w->runs[r]);
		}
	cli_progress_done();
}

/* ------------------------------------------------------------- the rule */

/* The advice's rule, printed above it (docs/labs.md's Lab 8 says it too,
 * with a measured case).  Faults are counted: one run's differ from the
 * next by a few pages.  Wall time moves with the machine's load, so it
 * alone advises nothing; it only keeps out a row slower in every run than
 * the defaults in any. */
const unsigned advice_min_runs = 3;     /* runs a policy (usage() says it too) */
static const double advice_faults = 0.75;       /* an advised row's median faults,
						   at most this fraction of the defaults' */

/* 0: row i passes the rule; 1: it cuts the faults but its fastest run was
 * slower than the defaults' slowest; -1: it does not cut them cleanly. */
static int advice_rule(const struct row *rows, size_t i, const struct summary *s,
		       unsigned runs, int base_same)
{
	if (rows[i].skip[0] || rows[i].failed ||
	    (base_same && !same_output(&rows[i], &rows[0], runs)) ||
	    s[i].faults_hi >= s[0].faults_lo || s[i].faults > advice_faults * s[0].faults)
		return -1;
	return s[i].wall_lo > s[0].wall_hi;
}

/* The advice: the first row after the defaults that passes the rule, with
 * the lines that set it, or why none did. */
static void print_advice(const struct row *rows, size_t n, const struct summary *s,
			 const struct job *j, const struct options *o, int base_same)
{
	int named = -1, slower = -1;
	char also[96] = "";
	const struct row *w;

	printf("\nrule: a policy is advised when, in %u or more interleaved runs, its\n"
	       "  output is the defaults', its most faults fewer than their fewest, its\n"
	       "  median at most %.0f%% of theirs, and its fastest run no slower than\n"
	       "  their slowest; wall time alone advises none (it varies, faults are\n"
	       "  counted); of those that pass, the first in the table: the least change\n",
	       advice_min_runs, advice_faults * 100);
	if (o->runs < advice_min_runs) {
		printf("advice: none: %u run%s a policy cannot measure the noise"
		       " (--runs %u or more)\n", o->runs, o->runs > 1 ? "s" : "", advice_min_runs);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		int v = advice_rule(rows, i, s, o->runs, base_same);

		if (v == 1 && slower < 0)
			slower = (int)i;
		if (v == 0 && named < 0)
			named = (int)i;
		else if (v == 0)
			snprintf(also + strlen(also), sizeof also - strlen(also), " %s",
				 rows[i].p->name);
	}
	if (named < 0) {
		printf("advice: the defaults are as good: no policy passed the rule");
		if (slower >= 0)
			printf("\n  (%s cut the faults, but ran slower in every run)",
			       rows[slower].p->name);
		printf(";\n  nothing to set\n");
		return;
	}
	w = &rows[named];
	printf("advice: %s%s%s%s\n", w->p->name, also[0] ? " (also passed:" : "", also,
	       also[0] ? ")" : "");
	printf("  faults %.0f a run (median), the defaults' %.0f: %.2f x\n"
	       "  wall %.3f s (median), the defaults' %.3f s: %.2f x\n"
	       "  max RSS %.1f MiB, the defaults' %.1f MiB: %.2f x\n", s[named].faults,
	       s[0].faults, ratio(s[named].faults, s[0].faults), s[named].wall, s[0].wall,
	       ratio(s[named].wall, s[0].wall), s[named].rss_kib / 1024, s[0].rss_kib / 1024,
	       ratio(s[named].rss_kib, s[0].rss_kib));
	printf("without a rebuild:\n");
	print_command(w->setting, j->argv);
	if (w->p->alias) {
		printf("or, the older spelling:\n");
		print_command(w->p->alias, j->argv);
	}
	printf("with a rebuild, at the start of main():\n  ");
	for (const char *c = w->p->rebuild; *c; c++)
		fputs(*c == '\n' ? "\n  " : (char[2]){ *c, 0 }, stdout);
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct options o, child_opts;
	const struct options *packer;
	struct program prog;
	struct job j = { 0 };
	struct row *rows;
	size_t n;
	off_t input;
	struct summary s[N_POLICIES];
	char trace_why[128] = "";
	int base_same, failed;

	cli_start(argv[0]);
	o = parse_options(argc, argv);
	if (o.pack)
		return pack(&o);
	j.argv = argv + optind;
	if (find_command(j.argv[0], j.path, sizeof j.path) != 0)
		bad_usage(usage, "command '%s' not found%s", j.argv[0],
			  strchr(j.argv[0], '/') ? " (or not an executable file)" : " on PATH");
	if (o.keep && access(o.keep, W_OK) != 0)
		bad_usage(usage, "--keep %s: not a directory this program can write to", o.keep);
	packer = packer_options(&j, &child_opts);
	read_program(j.path, &prog, 0);
	env_print_header_unless_csv(o.output == OUTPUT_CSV);
	if (prog.kind == PROG_NO_GLIBC || prog.kind == PROG_SECURE) {
		printf("program: %s\n  %s:\n  no policy here changes anything for it, so no table\n",
		       prog.file, prog.what);
		return 0;
	}
	if (!(rows = calloc(N_POLICIES, sizeof *rows)))
		die("calloc");
	clean_environment(&j, o.output == OUTPUT_CSV);
	j.stdin_fd = read_input(&input);
	if ((j.err_fd = memfd_create("policies-stderr", MFD_CLOEXEC)) < 0)
		die("memfd_create");
	n = make_rows(rows, &prog);
	if (o.output == OUTPUT_REPORT)
		print_preamble(&j, &prog, &o, input, rows, n);
	fflush(stdout);
	run_rows(&j, &o, rows, n);
	if (o.strace)
		trace_rows(&j, &o, rows, n, trace_why, sizeof trace_why);
	else
		snprintf(trace_why, sizeof trace_why, "--no-strace");
	cli_progress_done();
	summarise_rows(rows, n, o.runs, s);
	base_same = defaults_agree(&rows[0], o.runs);
	failed = report(&j, &o, rows, n, s, base_same, packer, trace_why);
	if (o.output == OUTPUT_REPORT && !rows[0].failed)
		print_advice(rows, n, s, &j, &o, base_same);
	free(rows);
	free(j.env);
	return failed;
}
