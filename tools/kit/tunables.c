/*
 * tools/kit/tunables.c - how the running glibc reads the malloc settings a
 * program inherits (what each does: tools/include/tunables.h).
 *
 * Compiled once a build flavour into DIR/kit/libkit.a (the Makefile's
 * kit_lib) and linked by every program that includes tools/include/tunables.h:
 * a program compiles the declarations, not this code.
 */
#include "../include/tunables.h"

struct env_glibc env_glibc(void)
{
	struct env_glibc v = { 0, 0 };

	if (sscanf(gnu_get_libc_version(), "%d.%d", &v.major, &v.minor) != 2)
		v.major = v.minor = 0;
	return v;
}

/* Is glibc v at least 2.<minor>?  (3.x is newer than any 2.x.) */
static int env_glibc_is_at_least(struct env_glibc v, int minor)
{
	return v.major > 2 || (v.major == 2 && v.minor >= minor);
}

/* At least glibc 2.<minor> (the running one)? */
int env_glibc_at_least(int minor)
{
	return env_glibc_is_at_least(env_glibc(), minor);
}

static const struct env_tunable *env_find_tunable(const struct env_reader *r, const char *name)
{
	for (size_t i = 0; i < ENV_N_TUNABLES; i++)
		if (!strcmp(env_tunables[i].name, name) &&
		    env_glibc_is_at_least(r->glibc, env_tunables[i].since))
			return &env_tunables[i];
	return NULL;
}

/* The dynamic loader this process runs under: the mapping that starts at
 * AT_BASE, or (when the loader was run as a command, `ld.so ./prog`) the
 * mapped file named ld-*.  Read with read(): no stdio, no malloc. */
static const char *env_loader_path(char *buf, size_t len)
{
	static char maps[1 << 16];
	unsigned long base = getauxval(AT_BASE), start;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	ssize_t n = 0, r;
	char *line, *next, *path, *name;

	if (fd < 0)
		return NULL;
	while (n < (ssize_t)sizeof maps - 1 && (r = read(fd, maps + n, sizeof maps - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	maps[n] = '\0';
	for (line = maps; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		path = strchr(line, '/');
		if (!path || sscanf(line, "%lx", &start) != 1)
			continue;
		name = strrchr(path, '/') + 1;
		if ((base && start == base) || (!base && !strncmp(name, "ld-", 3))) {
			snprintf(buf, len, "%s", path);
			return buf;
		}
	}
	return NULL;
}

/*
 * Does the running loader list this tunable (a full name, glibc.x.y)?  Asked only about a
 * name missing from the table above, so a tunable newer than this file is
 * not called a typo.  `ld.so --list-tunables` exists from glibc 2.33; it
 * runs in a child, its output read into a static buffer (no malloc here).
 * 1 yes, 0 no, -1 cannot tell.
 */
static int env_loader_lists(const char *name)
{
	static char out[1 << 15];
	char loader[512], want[80];
	int pfd[2], status;
	ssize_t n = 0, r;
	pid_t pid;

	if (!env_glibc_at_least(33) || !env_loader_path(loader, sizeof loader) || pipe(pfd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *argv[] = { loader, (char *)"--list-tunables", NULL };

		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		execv(loader, argv);
		_exit(127);
	}
	close(pfd[1]);
	while (n < (ssize_t)sizeof out - 1 && (r = read(pfd[0], out + n, sizeof out - 1 - (size_t)n)) > 0)
		n += r;
	close(pfd[0]);
	out[n] = '\0';
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	snprintf(want, sizeof want, "%s:", name);
	return strstr(out, want) != NULL;
}

/*
 * Read a tunable's value the way the running glibc does (_dl_strtoul in
 * elf/dl-misc.c, the same in 2.31 to 2.43): blanks skipped, an optional
 * sign (negative numbers wrap), 0x for hex, a leading 0 for octal, and
 * the number stops at the first character it cannot use.  Up to 2.38
 * tunable_initialize() takes what was read: "64M" is 64, "abc" is 0, "08"
 * is 0, without a word.  From 2.39 anything left over rejects the value
 * (with a warning on stderr); a value with no digits at all ("", "0x")
 * still reads as 0, silently.
 * Returns 0 when the number reads as a person would read it, 1 when glibc
 * reads something else (octal, a suffix dropped), -1 when it is rejected.
 */
static int env_parse_value(const struct env_reader *r, const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0;
	int neg = 0, base = 10, digits = 0, surprise = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, surprise = 1;      /* "010" is 8 */
	for (;; p++, digits++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : 99;

		if (d >= base)
			break;
		v = v > (UINT64_MAX - (unsigned)d) / (unsigned)base ? UINT64_MAX : v * base + (unsigned)d;
	}
	*out = neg ? (uint64_t)0 - v : v;
	/* 2.39+ rejects only a value with something left after the number
	 * (tunable_initialize, glibc-2.39 elf/dl-tunables.c:132-133): an empty
	 * value, blanks, a bare sign or "0x" read as 0 without a word there
	 * too (_dl_strtoul, elf/dl-misc.c:153-176).  tests/env-check.sh
	 * checks both against the loaders. */
	if (*p && env_glibc_is_at_least(r->glibc, 39))
		return -1;
	return *p || !digits || surprise || neg;
}

/* Two names one edit apart (a letter missing, extra, wrong or swapped)? */
static int env_one_edit(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i = 0;

	if (la < lb) {
		const char *t = a; a = b; b = t;
		size_t u = la; la = lb; lb = u;
	}
	if (la - lb > 1)
		return 0;
	while (i < lb && a[i] == b[i])
		i++;
	if (la == lb) {
		if (i == la)
			return 0;
		if (!strcmp(a + i + 1, b + i + 1))
			return 1;
		return a[i] == b[i + 1] && a[i + 1] == b[i] && !strcmp(a + i + 2, b + i + 2);
	}
	return !strcmp(a + i + 1, b + i);
}

/* The real tunable a misspelt name was probably meant to be, or NULL. */
__attribute__((unused))
static const char *env_did_you_mean(const char *name)
{
	if (strncmp(name, "glibc.malloc.", 13))
		return NULL;
	for (size_t i = 0; i < ENV_N_TUNABLES; i++)
		if (env_one_edit(name + 13, env_tunables[i].name))
			return env_tunables[i].name;
	return NULL;
}

/* DEFAULT_MMAP_THRESHOLD_MAX (malloc.c): HEAP_MAX_SIZE / 2, 32 MiB on 64-bit
 * and 512 KiB on 32-bit; the dynamic threshold's cap (model.h) and, up to
 * 2.34, the most do_set_mmap_threshold() keeps. */
uint64_t env_mmap_threshold_max(int bits)
{
	return bits == 64 ? 32u << 20 : 512u << 10;
}

/*
 * The largest value malloc's do_set_<name>() keeps, by glibc release and
 * word size (x86-64 and i386: MALLOC_ALIGNMENT 16); UINT64_MAX where it
 * keeps any.  The loader stores a value in the tunable's range, and
 * `ld.so --list-tunables` shows it; malloc's setter, called later from
 * ptmalloc_init, may still refuse it without a word and keep its default.
 * - mmap_threshold: up to 2.34 at most HEAP_MAX_SIZE / 2 (glibc-2.34
 *   malloc/malloc.c:5226-5238); 2.35 dropped the test (BZ 27801).
 * - tcache_count: MAX_TCACHE_COUNT, UINT16_MAX since 2.30 (glibc-2.36
 *   malloc/malloc.c:5392-5401, the same to 2.43).
 * - mxfast: MAX_FAST_SIZE, 80 * SIZE_SZ / 4: 160 on 64-bit, 80 on 32-bit
 *   (glibc-2.36 malloc/malloc.c:5413-5422, to 2.42).  2.43 removed the
 *   fastbins (bb5a4f5295): its do_set_mxfast keeps anything, to no effect.
 * - tcache_max: up to 2.41 MAX_TCACHE_SIZE, tidx2usize(63) = 63 x 16 +
 *   MINSIZE - SIZE_SZ: 1,032 on 64-bit, 1,020 on i386 (glibc-2.36
 *   malloc/malloc.c:5379-5389).  2.42 added 12 large bins: a request is
 *   kept while its chunk's index, 64 + clz(MAX_TCACHE_SMALL_SIZE) -
 *   clz(chunk), is under 76, i.e. the chunk is under 2^(11 + the bit
 *   length of that size): 4 MiB (2.42 on i386: 2 MiB, its small size
 *   being 1,020; 2.43 made it tidx2csize(63), 1,024), so a request up to
 *   4 MiB - SIZE_SZ - 16 (glibc-2.42 malloc/malloc.c:3164-3170,
 *   5588-5612).  clz() there sees the chunk cut to 32 bits, which lets
 *   some values of 4 GiB and more through: not modelled.
 */
uint64_t env_setter_max(const struct env_reader *r, const char *name)
{
	const uint64_t sz = r->bits == 64 ? 8 : 4;

	if (!strcmp(name, "mmap_threshold") && !env_glibc_is_at_least(r->glibc, 35))
		return env_mmap_threshold_max(r->bits);
	if (!strcmp(name, "tcache_count"))
		return UINT16_MAX;
	if (!strcmp(name, "mxfast") && !env_glibc_is_at_least(r->glibc, 43))
		return 80 * sz / 4;
	if (!strcmp(name, "tcache_max") && !env_glibc_is_at_least(r->glibc, 42))
		return r->bits == 64 ? 1032 : 1020;
	if (!strcmp(name, "tcache_max"))
		return ((r->bits == 32 && !env_glibc_is_at_least(r->glibc, 43) ? 2u : 4u) << 20) - sz - 16;
	return UINT64_MAX;
}

static void env_apply(struct env_malloc *m, const char *name, uint64_t v)
{
	if (!strcmp(name, "mmap_threshold"))
		m->mmap_threshold = v, m->dynamic = 0;
	else if (!strcmp(name, "trim_threshold"))
		m->trim_threshold = v, m->dynamic = 0;
	else if (!strcmp(name, "top_pad"))
		m->top_pad = v, m->dynamic = 0;
	else if (!strcmp(name, "mmap_max"))
		m->mmap_max = v, m->dynamic = 0;
	else if (!strcmp(name, "perturb"))
		m->perturb = (unsigned)v;
	else if (!strcmp(name, "hugetlb"))
		m->hugetlb = (unsigned)v;
	else if (!strcmp(name, "arena_max"))
		m->arena_max = v;
}

/* Is this value inside the tunable's range, as do_tunable_update_val()
 * checks it?  2.39+ truncates an INT_32 value to 32 bits first. */
static int env_in_range(const struct env_reader *r, const struct env_tunable *t, uint64_t *value)
{
	if (t->int32) {
		int64_t v = env_glibc_is_at_least(r->glibc, 39) ? (int32_t)*value : (int64_t)*value;
		int64_t lo = !strcmp(t->name, "mmap_max") && !env_glibc_is_at_least(r->glibc, 34)
			     ? INT32_MIN : t->min;

		*value = (uint64_t)v;
		return v >= lo && v <= (int64_t)t->max;
	}
	return *value >= (uint64_t)t->min && *value <= t->max;
}

/* One "name=value" from GLIBC_TUNABLES (full name) or a MALLOC_* variable
 * (source is the variable, name the tunable it stands for). */
static struct env_item *env_add_item(const struct env_reader *rd, struct env_malloc *m,
				     const char *source, const char *name, const char *val)
{
	static struct env_item spare;
	struct env_item *it;
	const struct env_tunable *t = NULL;
	int r;

	it = m->n_items < ENV_MAX_ITEMS ? &m->items[m->n_items++] : &spare;
	snprintf(it->source, sizeof it->source, "%s", source);
	snprintf(it->name, sizeof it->name, "%s", name);
	snprintf(it->text, sizeof it->text, "%s", val ? val : "");
	it->has_eq = val != NULL;
	it->value = 0;
	if (!strncmp(name, "glibc.malloc.", 13))
		t = env_find_tunable(rd, name + 13);
	if (!t) {
		/* Unknown to this file: ask the loader before calling it a typo
		 * (only the running one can be asked; either way it is ignored). */
		it->fate = rd->live && env_loader_lists(name) == 1 ? ENV_UNMODELLED : ENV_UNKNOWN;
		return it;
	}
	/* Secure mode (setuid): up to 2.38 every malloc tunable is skipped
	 * (a security_level other than NONE, glibc-2.36 elf/dl-tunables.c:
	 * 226-245 and 320-346), check too unless /etc/suid-debug exists
	 * (maybe_enable_malloc_check, 267-272); from 2.39 the loader ignores
	 * all of them. */
	if (rd->live && getauxval(AT_SECURE) &&
	    (env_glibc_is_at_least(rd->glibc, 39) || strcmp(t->name, "check") ||
	     access("/etc/suid-debug", F_OK) != 0)) {
		it->fate = ENV_SECURE;
		return it;
	}
	r = val ? env_parse_value(rd, val, &it->value) : -1;
	if (r < 0) {
		it->fate = ENV_MALFORMED;
		return it;
	}
	/* Out of range: do_tunable_update_val returns before it sets the
	 * value, without a word (glibc-2.36 elf/dl-tunables.c:129-132). */
	if (!env_in_range(rd, t, &it->value)) {
		it->fate = ENV_RANGE;
		return it;
	}
	/* In range, but over what malloc's setter keeps: it changes nothing
	 * (a refused threshold leaves the threshold dynamic). */
	it->limit = env_setter_max(rd, t->name);
	if (it->value > it->limit) {
		it->fate = ENV_REFUSED;
		return it;
	}
	it->fate = r ? ENV_MISREAD : ENV_APPLIED;
	env_apply(m, t->name, it->value);
	return it;
}

static int env_in_force(const struct env_item *it)
{
	return it->fate == ENV_APPLIED || it->fate == ENV_MISREAD;
}

/* GLIBC_TUNABLES, item by item, as the loader reads it.  An item without
 * '=' is skipped and the rest is read (every version).  From 2.39
 * (parse_tunables_string) the loader drops the whole variable, with a
 * warning, when the string ends in a bare name (a trailing ':' counts: its
 * name is empty) or a value holds '='; up to 2.38 that value is read as
 * far as it is a number. */
static void env_read_tunables(const struct env_reader *rd, struct env_malloc *m, const char *t)
{
	const int strict = env_glibc_is_at_least(rd->glibc, 39);
	int first = m->n_items, dropped = 0;

	for (const char *c = t; c && *c; ) {
		size_t len = strcspn(c, ":");
		char item[128], *eq;
		struct env_item *it;

		snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), c);
		eq = strchr(item, '=');
		if (len) {
			if (eq)
				*eq = '\0';
			it = env_add_item(rd, m, "GLIBC_TUNABLES", item, eq ? eq + 1 : NULL);
			if (!eq) {
				it->fate = ENV_MALFORMED;
				dropped |= strict && !c[len];          /* the last item */
			} else if (strict && strchr(eq + 1, '=')) {
				it->fate = ENV_MALFORMED;
				dropped = 1;
			}
		}
		c += len;
		if (*c == ':') {
			c++;
			dropped |= strict && !*c;                  /* an empty last name */
		}
	}
	if (dropped)
		for (int i = first; i < m->n_items; i++)
			m->items[i].fate = ENV_DROPPED;
}

/* Everything an environment sets, as glibc reads it: GLIBC_TUNABLES
 * (tunables: its value, NULL if unset), then each MALLOC_* alias whose
 * tunable GLIBC_TUNABLES did not set (lookup: an alias's value, or NULL) --
 * a set tunable wins over its alias in every version: 2.36's
 * __tunables_init skips an alias whose tunable is initialized, and a
 * GLIBC_TUNABLES read later sets it again, glibc-2.36 elf/dl-tunables.c:
 * 105, 137, 308.  No GLIBC_TUNABLES or alias is read before 2.26
 * (env_tunables' since column). */
static void env_read_policy(const struct env_reader *rd, struct env_malloc *m, const char *tunables,
			    const char *(*lookup)(const char *alias, const void *ctx), const void *ctx)
{
	memset(m, 0, sizeof *m);
	m->mmap_threshold = m->trim_threshold = m->top_pad = 128 << 10;
	m->mmap_max = 65536;
	m->dynamic = 1;
	env_read_tunables(rd, m, tunables);
	/* Items set so far are GLIBC_TUNABLES's; replay the policy after the
	 * aliases so the tunables win. */
	for (size_t i = 0; i < ENV_N_TUNABLES; i++) {
		const char *v = env_tunables[i].alias ? lookup(env_tunables[i].alias, ctx) : NULL;
		char full[64];
		int overridden = 0;

		if (!v)
			continue;
		snprintf(full, sizeof full, "glibc.malloc.%s", env_tunables[i].name);
		for (int k = 0; k < m->n_items; k++)
			overridden |= !strcmp(m->items[k].name, full) && env_in_force(&m->items[k]) &&
				      !strcmp(m->items[k].source, "GLIBC_TUNABLES");
		if (overridden) {
			struct env_item *it = env_add_item(rd, m, env_tunables[i].alias, full, v);

			it->fate = ENV_OVERRIDDEN;
		} else {
			env_add_item(rd, m, env_tunables[i].alias, full, v);
		}
	}
	/* The alias applied last above; a tunable that set the same thing
	 * must win, so apply GLIBC_TUNABLES's items again. */
	for (int k = 0; k < m->n_items; k++)
		if (!strcmp(m->items[k].source, "GLIBC_TUNABLES") && env_in_force(&m->items[k]))
			env_apply(m, m->items[k].name + 13, m->items[k].value);
}

static const char *env_lookup_getenv(const char *name, const void *ctx)
{
	(void)ctx;
	return getenv(name);
}

/* The running process's settings, read once (secure mode and the loader's
 * list of tunables included). */
const struct env_malloc *env_malloc_policy(void)
{
	static struct env_malloc m;
	static int done;
	const struct env_reader rd = { env_glibc(), (int)sizeof(long) * 8, 1 };

	if (!done) {
		done = 1;
		env_read_policy(&rd, &m, getenv("GLIBC_TUNABLES"), env_lookup_getenv, NULL);
	}
	return &m;
}

static const char *env_word_value(const char *name, const void *ctx)
{
	const struct env_words *e = ctx;
	const size_t len = strlen(name);

	for (int i = e->n - 1; i >= 0; i--)
		if (!strncmp(e->w[i], name, len) && e->w[i][len] == '=')
			return e->w[i] + len + 1;
	return NULL;
}

/* The policy a process with these environment words would start with
 * under glibc `glibc` on a `bits`-bit build, by the same rules as
 * env_malloc_policy().  Secure mode (AT_SECURE) and the loader's
 * --list-tunables belong to a running process, not to a prediction: a
 * predicted process is not setuid, and a name this file does not know is
 * ENV_UNKNOWN (ignored either way). */
void env_malloc_policy_of(struct env_malloc *m, const char *const *words, int n,
				 struct env_glibc glibc, int bits)
{
	const struct env_reader rd = { glibc, bits, 0 };
	const struct env_words e = { words, n };

	env_read_policy(&rd, m, env_word_value("GLIBC_TUNABLES", &e), env_word_value, &e);
}

/* "= VALUE; " when glibc's number is not the text as written (4G, 0x1000):
 * what it read is then news; otherwise "" (the line fits 80 columns). */
static const char *env_read_as(const struct env_item *it, char dec[48])
{
	char plain[24];

	snprintf(plain, sizeof plain, "%" PRIu64, it->value);
	if (!strcmp(plain, it->text))
		dec[0] = '\0';
	else
		snprintf(dec, 48, "= %s; ", plain);
	return dec;
}

/* A setting's effect in a few words, or its problem. */
void env_describe(const struct env_item *it, char *buf, size_t len)
{
	const struct env_glibc g = env_glibc();
	char dec[48];
	const char *short_name = strncmp(it->name, "glibc.malloc.", 13) ? it->name : it->name + 13;
	const char *guess;

	switch (it->fate) {
	case ENV_APPLIED:
		if (!strcmp(short_name, "mmap_max") && it->value == 0)
			/* sysmalloc maps a block only while n_mmaps <
			 * n_mmaps_max (glibc-2.36 malloc/malloc.c:2573-2575),
			 * but a thread's arena still mmaps its heaps and,
			 * when a heap cannot hold the block, the block
			 * (2667-2673): tests/claims.c shows it. */
			snprintf(buf, len, "main arena mmaps no block; fixed threshold");
		else if (!strcmp(short_name, "perturb"))
			/* Not blocks the tcache serves: its hit returns before
			 * alloc_perturb, its free before free_perturb (glibc-2.36
			 * malloc/malloc.c:3303-3309, 4475-4479; the same in
			 * 2.26-2.42).  tests/perturb.c shows it. */
			snprintf(buf, len, "0x%02x on malloc; never tcache blocks",
				 (unsigned)(it->value ^ 0xff) & 0xff);
		else if (!strcmp(short_name, "hugetlb"))
			/* 2: MAP_HUGETLB for mmapped blocks of a huge page or
			 * more and for thread heaps, ordinary pages when that
			 * fails; the brk heap never (glibc-2.36
			 * malloc/malloc.c:2579-2586, arena.c:565-575).  1: the
			 * madvise only where THP's mode is madvise; under always
			 * and never no call is made (do_set_hugetlb, 5426-5437). */
			snprintf(buf, len, it->value == 1 ? "malloc madvises huge pages if THP is madvise"
				 : it->value == 2 ? "big blocks from hugetlbfs if reserved"
				 : "no huge pages asked for");
		/* 2.43 removed the fastbins (bb5a4f5295): do_set_mxfast keeps
		 * any value and does nothing with it. */
		else if (!strcmp(short_name, "mxfast") && env_glibc_is_at_least(g, 43))
			snprintf(buf, len, "glibc %d.%d has no fastbins: no effect", g.major, g.minor);
		/* Each do_set_* sets no_dyn_threshold (glibc-2.36
		 * malloc/malloc.c:5308-5344), the default value too. */
		else if (strstr("mmap_threshold trim_threshold top_pad mmap_max", short_name))
			snprintf(buf, len, "%sthe threshold no longer adapts", env_read_as(it, dec));
		else
			snprintf(buf, len, "= %" PRIu64, it->value);
		break;
	case ENV_MISREAD:
		snprintf(buf, len, "glibc %d.%d reads '%s' as %" PRIu64, g.major, g.minor,
			 it->text, it->value);
		break;
	case ENV_UNKNOWN:
		guess = env_did_you_mean(it->name);
		if (guess)
			snprintf(buf, len, "no such tunable: ignored silently (%s?)", guess);
		else
			snprintf(buf, len, "not a tunable of glibc %d.%d: ignored silently",
				 g.major, g.minor);
		break;
	case ENV_MALFORMED:
		if (!it->has_eq)
			snprintf(buf, len, "no '=': glibc %d.%d skips it", g.major, g.minor);
		else
			snprintf(buf, len, "not a number: glibc %d.%d ignores it (and warns)",
				 g.major, g.minor);
		break;
	case ENV_RANGE:
		snprintf(buf, len, "out of range: ignored silently");
		break;
	case ENV_REFUSED:
		/* malloc's setter: the loader stored it (env_setter_max) */
		if (it->limit % (1u << 20) == 0)
			snprintf(buf, len, "above %" PRIu64 " MiB: glibc %d.%d refuses it",
				 it->limit >> 20, g.major, g.minor);
		else if (it->limit % (1u << 10) == 0)
			snprintf(buf, len, "above %" PRIu64 " KiB: glibc %d.%d refuses it",
				 it->limit >> 10, g.major, g.minor);
		else
			snprintf(buf, len, "above %" PRIu64 ": glibc %d.%d refuses it",
				 it->limit, g.major, g.minor);
		break;
	case ENV_SECURE:
		snprintf(buf, len, "secure mode: ignored");
		break;
	case ENV_OVERRIDDEN:
		snprintf(buf, len, "GLIBC_TUNABLES sets it too, and wins: ignored");
		break;
	case ENV_DROPPED:
		snprintf(buf, len, "glibc %d.%d drops the whole GLIBC_TUNABLES (malformed)",
			 g.major, g.minor);
		break;
	case ENV_UNMODELLED:
		if (strncmp(it->name, "glibc.malloc.", 13))
			snprintf(buf, len, "not malloc's: no effect on these counts");
		else
			snprintf(buf, len, "the kit does not model it: predictions may not hold");
		break;
	}
}
