static char *page_buffer(uint64_t size, uintptr_t page)
{
	/* The skeleton as shipped: where malloc() puts it (Lab 5's first
	 * column says where that is). */
	(void)page;
	return malloc(size);
}
