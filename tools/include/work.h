/*
 * tools/include/work.h - what the labs' workloads share beside the bench
 * header: the work they do must happen, repeat and start together.
 *   work_sink()              keeps the compiler from deleting measured work
 *   work_random()            a repeatable random stream (a seed names a run)
 *   work_thread_start(), work_thread_join()  threads, or die()
 *   work_gate_init(), work_gate()  a start line threads pass together
 * Include it after tools/include/bench.h (which asks for _GNU_SOURCE).
 */
#ifndef MALLOC_LABS_WORK_H
#define MALLOC_LABS_WORK_H

#include "cli.h"
#if defined(__linux__) && defined(__GLIBC__)   /* else cli.h said why */

#include <pthread.h>

/* -------------------------------------------------------------- the sink */

/* Tell the compiler that `p` escapes and memory may have been read and
 * written here.  Without it GCC and clang may delete a malloc/memset/free
 * whose memory is never read, or turn malloc + reads into calloc, and the
 * lab would measure nothing. */
#define work_sink(p) __asm__ __volatile__("" : : "r"(p) : "memory")

/* ------------------------------------------------------- random, threads */

/* splitmix64: small, fast, and the same sequence on every machine, so a
 * seed names a run exactly. */
__attribute__((unused))
static uint64_t work_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A thread running fn(arg), or die(). */
__attribute__((unused))
static void work_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	errno = pthread_create(tid, NULL, fn, arg);
	if (errno)
		die("pthread_create");
}

/* Wait for a thread to end, or die(). */
__attribute__((unused))
static void work_thread_join(pthread_t tid)
{
	errno = pthread_join(tid, NULL);
	if (errno)
		die("pthread_join");
}

/* A start line for n threads (main() included), or die(). */
__attribute__((unused))
static void work_gate_init(pthread_barrier_t *gate, unsigned n)
{
	errno = pthread_barrier_init(gate, NULL, n);
	if (errno)
		die("pthread_barrier_init");
}

/* Wait at a start line shared by main() and its workers: the phase a
 * getrusage() snapshot brackets begins for every thread at once. */
__attribute__((unused))
static void work_gate(pthread_barrier_t *gate)
{
	int e = pthread_barrier_wait(gate);

	if (e && e != PTHREAD_BARRIER_SERIAL_THREAD) {
		errno = e;
		die("pthread_barrier_wait");
	}
}

#endif /* Linux and glibc */
#endif /* MALLOC_LABS_WORK_H */
