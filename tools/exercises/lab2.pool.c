/* The skeleton as shipped: a "pool" that is malloc under another name. */
static int pool_init(struct pool *pl, size_t block, size_t count)
{
	pl->base = NULL;
	pl->block = block;
	pl->count = count;
	pl->free_list = NULL;
	return 0;
}

static void pool_destroy(struct pool *pl)
{
	(void)pl;
}

static inline void *pool_get(struct pool *pl)
{
	return malloc(pl->block);
}

static inline void pool_put(struct pool *pl, void *p)
{
	(void)pl;
	free(p);
}
