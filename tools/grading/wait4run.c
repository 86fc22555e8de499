/*
 * tools/grading/wait4run.c - runs one command and reports, from outside
 * it, the page faults the kernel charged to it.  make check
 * (tools/submit.sh, MALLOC_LABS_STEPS=exercise) runs each measured
 * program through this: the program's own CSV says how many faults its
 * loop took (getrusage inside the process a student's region runs in, so
 * a region that scribbles memory could change what is printed); this
 * process holds none of the student's code, and wait4() gives the whole
 * child's count as the kernel kept it.  The grader
 * (tools/grading/grade.awk) holds the two against each other.
 *
 *   wait4run --report FILE COMMAND [ARG...]
 *
 * forks, execs COMMAND (PATH searched as execvp does), waits for it and
 * writes one line to FILE:
 *   wait4: minflt=N majflt=N exit=N        (or signal=N)
 * ru_minflt and ru_majflt count the child and every descendant it
 * waited for (the kernel's RUSAGE_BOTH in wait_task_zombie), from fork to
 * exit: the forked copy's few faults before execve, the loader, the
 * program, its threads and its exit.  Standard input, output and error
 * are the child's, untouched; the report goes only to FILE, which the
 * child never sees open.
 * Exit: the command's status (128+N if signal N ended it, as a shell
 * says), 127 when it could not be run; 2 bad usage; 1 a failure here
 * (fork, wait4, FILE not written).
 */
#define _GNU_SOURCE
#include "../include/cli.h"
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: %s --report FILE COMMAND [ARG...]\n", cli_prog);
}

/* The child's side: nothing between fork and exec but the exec, so that
 * the faults charged before the program starts are the fork's copy-on-
 * write of this small process's stack, no more. */
static void run_child(char **argv)
{
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", cli_prog, argv[0], strerror(errno));
	_exit(127);
}

/* The report is written only once the child is gone: it was never open
 * while the child ran, so nothing the child does can write it. */
static void report(const char *path, const struct rusage *ru, int status)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s", path);
	if (WIFSIGNALED(status))
		fprintf(f, "wait4: minflt=%ld majflt=%ld signal=%d\n", ru->ru_minflt, ru->ru_majflt,
			WTERMSIG(status));
	else
		fprintf(f, "wait4: minflt=%ld majflt=%ld exit=%d\n", ru->ru_minflt, ru->ru_majflt,
			WEXITSTATUS(status));
	if (fclose(f) != 0)
		die("%s", path);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "report", required_argument, NULL, 'r' },
		CLI_OPTIONS_END
	};
	const char *path = NULL;
	struct rusage ru;
	int c, status;
	pid_t pid;

	cli_start("wait4run");
	/* "+": options end at COMMAND, whose own options are its own. */
	while ((c = cli_getopt(argc, argv, "+:h", longopts, usage)) != -1)
		if (c == 'r')
			path = optarg;
	if (!path || !*path)
		bad_usage(usage, "no --report FILE");
	if (optind == argc)
		bad_usage(usage, "no COMMAND");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		run_child(argv + optind);
	/* EINTR cannot end the wait early: no handler is installed here, and
	 * a signal that ends this process (timeout's) ends the report too. */
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die("wait4");
	report(path, &ru, status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
