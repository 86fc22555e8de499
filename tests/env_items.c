/*
 * tests/env_items.c - print what tools/include/env.h makes of the environment's
 * malloc settings, one line per item: "NAME VALUE FATE" (VALUE in hex,
 * as `ld.so --list-tunables` prints SIZE_T tunables), then the policy
 * the model will use.  tests/env-check.sh compares the items with what the
 * running loader itself parsed, for each glibc it can run.
 */
#include "tools/include/env.h"

static const char *const fates[] = {
	"applied", "misread", "unknown", "malformed", "range", "refused", "secure",
	"unmodelled", "overridden", "dropped",
};

int main(int argc, char **argv)
{
	const struct env_malloc *m;

	cli_start(argv[0]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s (reads GLIBC_TUNABLES and MALLOC_* only)\n", argv[0]);
		return 2;
	}
	m = env_malloc_policy();
	for (int i = 0; i < m->n_items; i++)
		printf("%s 0x%" PRIx64 " %s\n", m->items[i].name, m->items[i].value,
		       fates[m->items[i].fate]);
	printf("policy mmap_threshold=%" PRIu64 " trim_threshold=%" PRIu64 " top_pad=%" PRIu64
	       " mmap_max=%" PRIu64 " perturb=%u dynamic=%d glibc=%s\n", m->mmap_threshold,
	       m->trim_threshold, m->top_pad, m->mmap_max, m->perturb, m->dynamic,
	       gnu_get_libc_version());
	return 0;
}
