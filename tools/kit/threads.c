/*
 * tools/kit/threads.c - Lab 3's instruments: the command line and its
 * bounds, glibc's chunk geometry, the settings in force, what a run
 * records beside its time, the report and the CSV (what each does:
 * tools/include/threads.h).
 *
 * Compiled once a build flavour as DIR/kit/threads.o (the Makefile's
 * lab_units) and linked into threads alone: threads.c compiles the
 * declarations, not this code.
 */
/* This unit reads the program's env_build, it does not define it. */
#define KIT_UNIT 1
#include "../include/threads.h"

#include <limits.h>
#include <malloc.h>

/* ------------------------------------------ options: their defaults, usage */

static const char *const mode_names[] = { "pre25", "default", "tuned" };
_Static_assert(sizeof mode_names / sizeof mode_names[0] == N_MODES, "a name a mode");

/* Where parse_options() starts, and what usage() calls the default: the
 * report's live set (~490 MB) and its bug number as the seed. */
static const struct options defaults = {
	.mode = MODE_PRE25, .live = 490000000, .seed = 1541, .output = OUTPUT_REPORT,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options] SIZE COUNT THREADS\n"
		"Each of THREADS threads keeps a set of live blocks and COUNT times\n"
		"replaces a random one with a new block of a random size up to SIZE\n"
		"bytes (SIZE x u^2, u uniform: a third of SIZE on average), writing\n"
		"every page.  Reports time, faults and CPU time of those requests.\n"
		"      --mode MODE        pre25    threshold pinned at 128 KiB: the policy\n"
		"                                  of glibc before 2.5 (default mode)\n"
		"                         default  today's dynamic threshold\n"
		"                         tuned    mmap threshold 16 MiB, trim threshold\n"
		"                                  twice that\n"
		"      --threshold BYTES  pin M_MMAP_THRESHOLD at BYTES instead, on this\n"
		"                         glibc's heaps (not the report's 2.4 build);\n"
		"                         trim stays as the mode has it\n"
		"  -l, --live BYTES       bytes live across all threads (default %" PRIu64 ")\n"
		"      --weak             weak scaling: --live is per thread, and every\n"
		"                         thread makes the same requests (one seed), so N\n"
		"                         threads do exactly N times the work of one\n"
		"      --seed N           random seed (default %" PRIu64 ")\n"
		"      --fixed            every request is exactly SIZE bytes\n"
		"      --stats            glibc's malloc_stats() and a malloc_info() summary,\n"
		"                         taken when the timed part ends\n"
		"      --csv              print a CSV header and one row instead\n"
		"      --env              print the environment header and exit\n"
		"  -h, --help             this text\n"
		"At most %llu live blocks in all (SIZE/3 bytes each on average).\n"
		"SIZE and BYTES take K, M or G (KiB, MiB, GiB).  Example:\n"
		"  %s --mode pre25 1280000 2000 2\n",
		cli_prog, defaults.live, defaults.seed, MAX_BLOCKS, cli_prog);
}

/* request_size()'s mean (threads.c): SIZE x u^2 has mean SIZE/3. */
double mean_request(const struct options *o)
{
	return o->fixed ? (double)o->size : 1.0 + (double)(o->size - 1) / 3.0;
}

/* ------------------------------------------------ glibc's chunk geometry */

/*
 * Did a block come straight from mmap()?  Asked without reading outside
 * the block: malloc_usable_size() and the pointer's offset in its page
 * answer it, because glibc (malloc/malloc.c, 2.26 to 2.43 at least) gives
 * the two kinds of chunk usable sizes that can never be equal:
 *   request2size(r) = max(MINSIZE, align_up(r + SIZE_SZ, MALLOC_ALIGNMENT))
 *   mmapped (sysmalloc_mmap): the mapping is align_up(nb + SIZE_SZ, page)
 *     bytes (plus MALLOC_ALIGN_MASK where the alignment exceeds the
 *     header, as on i386), the user pointer is MALLOC_ALIGNMENT bytes into
 *     it, and musable() gives chunksize - CHUNK_HDR_SZ = mapping - ALIGN
 *     (2.43: mapping = align_up(nb + 16, page), usable = mapping - 16 - SIZE_SZ);
 *   heap: musable() gives chunksize - SIZE_SZ (the next chunk's prev_size
 *     field is usable), with nb <= chunksize < nb + MINSIZE: a free chunk
 *     is split unless the rest would be smaller than MINSIZE.
 * Chunk sizes are multiples of MALLOC_ALIGNMENT, so a heap chunk's usable
 * size is SIZE_SZ short of one and, up to 2.42, an mmapped chunk's is a
 * multiple of it; from 2.43 both are SIZE_SZ short, and only the page
 * rounding of the mapped one tells them apart.
 * (Memory tagging on arm64, glibc.mem.tagging, changes musable(): then the
 * sizes no longer fit and the count says n/a.)
 *
 * The sizes are the kit's model's (tools/include/model.h, model_chunk_sizes)
 * for this process's page size, glibc and word size: `machine`, set by
 * machine_setup() before any thread starts (read faults play no part here).
 */
static struct model_machine machine;
static long page_bytes;         /* sysconf(_SC_PAGESIZE), set by machine_setup() */

enum origin { FROM_HEAP, FROM_MMAP, UNEXPLAINED };

static enum origin block_origin(const void *p, uint64_t r)
{
	const struct model_machine *mc = &machine;
	const struct model_chunk c = model_chunk_sizes(mc, r);
	const uint64_t u = malloc_usable_size((void *)p), sz = model_size_sz(mc);
	const uint64_t align = model_align(mc);

	if (u == c.usable && ((uintptr_t)p - c.offset) % (uint64_t)page_bytes == 0)
		return FROM_MMAP;
	if (u + sz >= c.nb && u + sz < c.nb + model_minsize(mc) && (u + sz) % align == 0)
		return FROM_HEAP;
	return UNEXPLAINED;      /* not glibc's malloc, or not this geometry */
}

/* Pages a fresh mapping faults in when all `size` bytes are written: the
 * user bytes start 16 bytes (model_chunk_sizes: offset) into the first
 * page.  Written, never read first, so one fault a page whether or not
 * the kernel maps the zero page on a read. */
static uint64_t pages_written(uint64_t size)
{
	return model_pages_of(size + model_chunk_sizes(&machine, size).offset, (uint64_t)page_bytes);
}

/* The page size and the model's machine, set before the options are read
 * (check_bounds() weighs the live set against memory in pages). */
void machine_setup(void)
{
	page_bytes = sysconf(_SC_PAGESIZE);
	machine.page = (uint64_t)page_bytes;
	machine.read_faults_per_page = 2;
	machine.glibc_minor = model_glibc_minor(env_glibc());
	machine.bits = (int)sizeof(size_t) * 8;
	if (page_bytes <= 0)
		die("sysconf(_SC_PAGESIZE)");
}

/* ---------------------------------------------------------------- tally */

/* Count a block just written: a request, its bytes, and whether it came
 * straight from mmap() (then each page written was a fault). */
void count_block(struct tally *t, const void *p, uint64_t size)
{
	t->requests++;
	t->bytes += size;
	switch (block_origin(p, size)) {
	case FROM_MMAP:
		t->mmapped++;
		t->mmapped_pages += pages_written(size);
		break;
	case FROM_HEAP:
		break;
	case UNEXPLAINED:
		t->unexplained++;
		break;
	}
}

/* ------------------------------------------------------------- settings */

/* The policy the environment set, as the running glibc read it
 * (tools/include/env.h: GLIBC_TUNABLES and the MALLOC_* aliases, misspellings and
 * rejected values already dropped).  Setting any of mmap_threshold,
 * trim_threshold, top_pad or mmap_max switches the dynamic threshold off,
 * as mallopt does. */
struct policy policy_from_environment(void)
{
	const struct env_malloc *m = env_malloc_policy();
	struct policy p = { 0, 0, 0, NULL, NULL, NULL, m->dynamic, NULL };

	for (int i = 0; i < m->n_items; i++) {
		const struct env_item *it = &m->items[i];
		const char *name = it->name + 13;     /* after "glibc.malloc." */

		if ((it->fate != ENV_APPLIED && it->fate != ENV_MISREAD) ||
		    strncmp(it->name, "glibc.malloc.", 13))
			continue;
		if (!strcmp(name, "mmap_threshold"))
			p.mmap_threshold = it->value, p.mmap_from = it->source;
		else if (!strcmp(name, "trim_threshold"))
			p.trim_threshold = it->value, p.trim_from = it->source;
		else if (!strcmp(name, "arena_max"))
			p.arena_max = it->value, p.arena_from = it->source;
		if (strstr("mmap_threshold trim_threshold top_pad mmap_max", name))
			p.pinned_by = it->source;
	}
	return p;
}

void set_or_die(int param, const char *name, uint64_t value)
{
	errno = 0;      /* mallopt() sets no errno: keep die() from blaming a stale one */
	if (mallopt(param, (int)value) != 1)
		die("mallopt(%s, %" PRIu64 ") was refused", name, value);
}

/* ------------------------------------ what a run records, beside its time */

/* TLB shootdowns so far, summed over CPUs, from the "TLB:" line of
 * /proc/interrupts; -1 where there is none (not x86, or no /proc).  The
 * count is system-wide: other processes' munmaps add to it. */
long tlb_shootdowns(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096], *p, *end;
	long sum = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "TLB:", 4))
			continue;
		sum = 0;
		for (p += 4;; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		break;
	}
	fclose(f);
	return sum;
}

/* One thread's tally added into the run's. */
void add_tally(struct tally *sum, const struct tally *t)
{
	sum->requests += t->requests;
	sum->bytes += t->bytes;
	sum->mmapped += t->mmapped;
	sum->mmapped_pages += t->mmapped_pages;
	sum->unexplained += t->unexplained;
}

/* Read a whole stream that was written through its descriptor. */
static char *slurp(FILE *f)
{
	long n;
	char *s;

	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("reading glibc's statistics back");
	s = malloc((size_t)n + 1);
	if (!s)
		die("malloc(%ld) failed", n + 1);
	s[fread(s, 1, (size_t)n, f)] = '\0';
	return s;
}

/* malloc_stats() writes to stderr: point descriptor 2 at a temporary file
 * meanwhile, so the text can be printed with the report on stdout.
 * malloc_info() gives the same facts as XML; only its totals are kept. */
struct glibc_view take_glibc_view(void)
{
	struct glibc_view v = { NULL, -1, 0, 0, 0 };
	FILE *stats = tmpfile(), *info = tmpfile();
	char line[512];
	int saved, depth = 0;
	unsigned long long a, b;

	if (!stats || !info)
		die("tmpfile");
	fflush(stderr);
	saved = dup(2);
	if (saved < 0 || dup2(fileno(stats), 2) < 0)
		die("dup2");
	malloc_stats();
	fflush(stderr);
	if (dup2(saved, 2) < 0)
		die("dup2");
	close(saved);
	v.stats = slurp(stats);
	fclose(stats);

	if (malloc_info(0, info) != 0)
		die("malloc_info");
	rewind(info);
	v.arenas = 0;
	while (fgets(line, sizeof line, info)) {
		if (!strncmp(line, "<heap nr=", 9)) {
			v.arenas++;
			depth = 1;
		} else if (!strncmp(line, "</heap>", 7)) {
			depth = 0;
		} else if (depth == 1 && sscanf(line, "<system type=\"current\" size=\"%llu\"", &a) == 1) {
			v.heap_bytes += a;
		} else if (!depth && sscanf(line, "<total type=\"mmap\" count=\"%llu\" size=\"%llu\"",
					    &a, &b) == 2) {
			v.mmap_count = a;
			v.mmap_bytes = b;
		}
	}
	fclose(info);
	return v;
}

/* --------------------------------------------------------------- report */

static const char *describe_mmap(const struct policy *p, char *buf, size_t len)
{
	if (p->mmap_from)
		snprintf(buf, len, "%" PRIu64 " (pinned by %s: no dynamic threshold)",
			 p->mmap_threshold, p->mmap_from);
	else if (!p->dynamic)
		snprintf(buf, len, "131072 (fixed: setting %s stops it adapting)",
			 p->pinned_by);
	else
		snprintf(buf, len, "dynamic (starts at 131072, rises on free)");
	return buf;
}

static const char *describe_trim(const struct policy *p, char *buf, size_t len)
{
	if (p->trim_from)
		snprintf(buf, len, "%" PRIu64 " (set by %s)", p->trim_threshold, p->trim_from);
	else if (!p->dynamic)
		snprintf(buf, len, "131072 (default)");
	else
		snprintf(buf, len, "dynamic (twice the mmap threshold)");
	return buf;
}

static double per_request(double total, uint64_t requests)
{
	return requests ? total / (double)requests : 0.0;
}

/* The IS_MMAPPED count means something only with glibc's allocator. */
static int mmapped_known(const struct result *r)
{
	return env_malloc_is_glibc() && !r->churn.unexplained && !r->fill.unexplained;
}

static void print_glibc_view(const struct options *o, const struct result *r)
{
	const char *s;

	if (!o->stats)
		return;
	if (!r->view.stats) {
		printf("glibc's view: n/a (malloc here is not glibc's)\n");
		return;
	}
	printf("glibc's view when the timed part ended (malloc_stats(), live set allocated):\n");
	for (s = r->view.stats; *s; ) {
		size_t n = strcspn(s, "\n");

		printf("  | %.*s\n", (int)n, s);
		s += n + (s[n] == '\n');
	}
	printf("  arenas:          %ld (malloc_info's <heap> entries)\n", r->view.arenas);
	printf("  heap bytes:      %" PRIu64 " (system bytes of every arena's heaps)\n",
	       r->view.heap_bytes);
	printf("  mmapped blocks:  %" PRIu64 " (%" PRIu64 " bytes, each its own mapping)\n",
	       r->view.mmap_count, r->view.mmap_bytes);
}

void print_report(const struct options *o, const struct policy *p,
		  const struct result *r)
{
	char buf[128];
	const struct tally *c = &r->churn;

	printf("  mode:            %s\n", mode_names[o->mode]);
	printf("  mmap threshold:  %s\n", describe_mmap(p, buf, sizeof buf));
	printf("  trim threshold:  %s\n", describe_trim(p, buf, sizeof buf));
	if (p->arena_from)
		printf("  arena limit:     %" PRIu64 " (set by %s)\n", p->arena_max, p->arena_from);
	else
		printf("  arena limit:     8 per CPU (default)\n");
	printf("  size:            %" PRIu64 " (largest request%s)\n", o->size,
	       o->fixed ? ", every request" : "");
	printf("  threads:         %u\n", o->threads);
	printf("  scaling:         %s\n", o->weak
	       ? "weak (--live per thread, every thread the same requests)"
	       : "the report's (--live shared by the threads, COUNT each)");
	printf("  seed:            %" PRIu64 "\n", o->seed);
	printf("  live blocks:     %" PRIu64 " per thread\n", r->slots);
	printf("  live:            %" PRIu64 " B when the timed part starts, %" PRIu64
	       " B when it ends\n", r->live_start, r->live_end);
	printf("  fill time:       %.3f s\n", r->fill_s);
	printf("  fill faults:     %ld\n", r->fill_use.minflt);
	printf("timed: %" PRIu64 " requests per thread, each freeing a live block\n", o->count);
	printf("  requests:        %" PRIu64 "\n", c->requests);
	printf("  bytes:           %" PRIu64 " (requested)\n", c->bytes);
	printf("  average request: %.0f B\n", per_request((double)c->bytes, c->requests));
	printf("  time:            %.3f s\n", r->churn_s);
	printf("  per request:     %.2f us\n", per_request(r->churn_s * 1e6, c->requests));
	printf("  minor faults:    %ld\n", r->churn_use.minflt);
	printf("  faults/request:  %.1f\n", per_request((double)r->churn_use.minflt, c->requests));
	if (mmapped_known(r)) {
		printf("  mmapped:         %" PRIu64 " requests (told by malloc_usable_size)\n",
		       c->mmapped);
		printf("  mmapped pages:   %" PRIu64 " (pages written in them: the predicted"
		       " minimum of faults)\n", c->mmapped_pages);
	} else {
		printf("  mmapped:         n/a (malloc here is not glibc's)\n");
		printf("  mmapped pages:   n/a\n");
	}
	printf("  user time:       %.3f s\n", r->churn_use.user_s);
	printf("  sys time:        %.3f s\n", r->churn_use.sys_s);
	printf("  waits:           %ld (voluntary context switches: a lock, a futex)\n",
	       r->churn_use.nvcsw);
	if (r->tlb_ipis >= 0)
		printf("  TLB shootdowns:  %ld (all CPUs, system-wide)\n", r->tlb_ipis);
	else
		printf("  TLB shootdowns:  n/a (no TLB line in /proc/interrupts)\n");
	print_glibc_view(o, r);
}

void print_csv(const struct options *o, const struct policy *p,
	       const struct result *r)
{
	const struct tally *c = &r->churn;
	char mm[24], tr[24], ar[24], pg[24];

	if (p->mmap_from)
		snprintf(mm, sizeof mm, "%" PRIu64, p->mmap_threshold);
	else
		snprintf(mm, sizeof mm, "%s", p->dynamic ? "dynamic" : "131072");
	if (p->trim_from)
		snprintf(tr, sizeof tr, "%" PRIu64, p->trim_threshold);
	else
		snprintf(tr, sizeof tr, "%s", p->dynamic ? "dynamic" : "131072");
	snprintf(ar, sizeof ar, "%" PRIu64, p->arena_max);
	snprintf(pg, sizeof pg, "%" PRIu64, c->mmapped_pages);
	printf("mode,mmap_threshold,trim_threshold,arena_max,size,count,threads,weak,seed,"
	       "live_blocks,live_start,live_end,requests,bytes,avg_request,time_s,"
	       "us_per_request,minor_faults,mmapped,mmapped_pages,user_s,sys_s,waits,"
	       "tlb_shootdowns,fill_s,fill_faults,arenas");
	env_csv_header(stdout);   /* the environment's columns, from env.h */
	putchar('\n');
	printf("%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%u,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64
	       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.0f,%.6f,%.3f,%ld,",
	       mode_names[o->mode], mm, tr, p->arena_from ? ar : "default", o->size, o->count,
	       o->threads, o->weak, o->seed, r->slots, r->live_start, r->live_end,
	       c->requests, c->bytes, per_request((double)c->bytes, c->requests), r->churn_s,
	       per_request(r->churn_s * 1e6, c->requests), r->churn_use.minflt);
	if (mmapped_known(r))
		printf("%" PRIu64 ",%s,", c->mmapped, pg);
	else
		printf("n/a,n/a,");
	printf("%.3f,%.3f,%ld,%ld,%.3f,%ld,", r->churn_use.user_s, r->churn_use.sys_s,
	       r->churn_use.nvcsw, r->tlb_ipis, r->fill_s, r->fill_use.minflt);
	if (r->view.arenas >= 0)
		printf("%ld", r->view.arenas);
	env_csv_fields(stdout);
	putchar('\n');
}

/* ------------------------------------------------------- options: parsing */

/* A count, or with `sized` a byte size with K/M/G.  Both cli.h parsers
 * want a digit first: a blank, a tab or a sign is refused. */
static int parse_number(const char *s, uint64_t min, uint64_t max, int sized, uint64_t *v)
{
	return sized ? cli_parse_size(s, min, max, v) : cli_parse_u64(s, min, max, v);
}

static uint64_t positional(const char *s, const char *what, uint64_t min, uint64_t max,
			   int sized)
{
	uint64_t v;

	if (parse_number(s, min, max, sized, &v))
		bad_usage(usage, "%s wants a whole number from %" PRIu64 " to %" PRIu64
			  "%s, not '%s'", what, min, max, sized ? " (K/M/G allowed)" : "", s);
	return v;
}

/* The live set, checked against the block limit and the machine's memory
 * before anything is allocated. */
static void check_bounds(const struct options *o)
{
	double per_thread = (double)o->live / (o->weak ? 1 : o->threads);
	double blocks = per_thread / mean_request(o);
	double total_blocks = (blocks < 1 ? 1 : blocks) * o->threads;
	double live = per_thread * o->threads;
	double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)page_bytes;

	if (total_blocks > (double)MAX_BLOCKS)
		bad_usage(usage, "SIZE %" PRIu64 " with %.0f bytes live makes %.0f live blocks;"
			  " the limit is %llu: raise SIZE or lower --live", o->size, live,
			  total_blocks, MAX_BLOCKS);
	if (mem > 0 && live > mem / 2)
		bad_usage(usage, "%.0f bytes live is more than half of this machine's %.0f bytes"
			  " of memory: lower --live", live, mem);
}

struct options parse_options(int argc, char **argv)
{
	enum { OPT_MODE = 256, OPT_THRESHOLD, OPT_WEAK, OPT_SEED, OPT_FIXED, OPT_STATS };
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		CLI_OPT_LIVE,
		{ "weak", no_argument, NULL, OPT_WEAK },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "fixed", no_argument, NULL, OPT_FIXED },
		{ "stats", no_argument, NULL, OPT_STATS },
		ENV_OPTIONS_END,
	};
	struct options o = defaults;
	int c, k;

	cli_numbers_hint = "SIZE, COUNT and THREADS are whole numbers from 1";
	while ((c = env_getopt(argc, argv, ":l:h", longopts, usage)) != -1) {
		switch (c) {
		case OPT_MODE:
			k = cli_name_index(mode_names, N_MODES, optarg);
			if (k < 0)
				bad_usage(usage, "--mode wants pre25, default or tuned, not '%s'", optarg);
			o.mode = (enum mode)k;
			break;
		case OPT_THRESHOLD:
			/* mallopt() takes an int. */
			if (parse_number(optarg, 1, INT_MAX, 1, &o.threshold))
				bad_usage(usage, "--threshold wants bytes from 1 to %d, e.g. 16M, not '%s'",
					  INT_MAX, optarg);
			break;
		case 'l':
			if (parse_number(optarg, 1, 1ull << 40, 1, &o.live))
				bad_usage(usage, "--live wants bytes from 1 to 1024G, e.g. 490M, not '%s'", optarg);
			break;
		case OPT_SEED: o.seed = cli_seed_option(usage, optarg); break;
		case OPT_WEAK: o.weak = 1; break;
		case OPT_FIXED: o.fixed = 1; break;
		case OPT_STATS: o.stats = 1; break;
		case ENV_OPT_CSV: o.output = OUTPUT_CSV; break;
		}
	}
	if (argc - optind != 3)
		bad_usage(usage, "wants three arguments, SIZE COUNT THREADS; got %d", argc - optind);
	o.size = positional(argv[optind], "SIZE", 1, MAX_SIZE, 1);
	o.count = positional(argv[optind + 1], "COUNT", 1, MAX_COUNT, 0);
	o.threads = (unsigned)positional(argv[optind + 2], "THREADS", 1, MAX_THREADS, 0);
	check_bounds(&o);
	return o;
}
