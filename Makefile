# malloc-labs: every lab is one C file built with one visible command.
# Each lab has three targets that a student can guess: labN (the main run),
# labN-tunables (the same program set from outside with GLIBC_TUNABLES) and
# labN-strace (strace -f -c of the calls that matter).  Old names in ( ).
#   make lab1 (run)           Lab 1: the walkthrough, steps 1-9, then a table
#   make lab1-tunables        steps 3, 4, 6 and 9: the policy from outside
#   make lab1-strace (step2)  brk/mmap/munmap behind the skeleton's frames
#   make step1 .. step9       one step of the walkthrough
#   make lab2 (variance)      Lab 2: latency percentiles per size, pinned
#   make lab2-tunables        32 B malloc, 1 and 2 threads: default,
#                             tcache_count=0, tcache_count=0:arena_max=1
#   make lab2-strace (variance-strace)  the forced-mmap row under strace
#                             (also variance-hist, -history, -threads, -mlock)
#   make lab3 (bug1541)       Lab 3: the bug report's cases, 1 and N threads
#   make lab3-tunables        Lab 3's policies set from outside
#   make lab3-strace (bug1541-strace)  Lab 3's system calls per mode
#   make lab4 (sizes)         Lab 4: the 32 MiB cap: untuned, MALLOC_*_, tunables
#   make lab4-tunables        the 34 MiB row: untuned, MALLOC_*_, tunables
#   make lab4-strace          mmap/munmap per frame: 30 MiB row vs 34 MiB row
#   make gotcha               Lab 4: the loop -O2 deletes, beside the guard
#   make lab5 (yes-table)     Lab 5: buffer size and alignment vs write()
#   make lab5-tunables        malloc's buffer address: default vs
#                             mmap_threshold=4096 (and top_pad=0)
#   make lab5-strace          write() counts and sizes: ./yes and GNU yes
#   make demo-strace          default vs tuned, side by side (80 columns)
#   make test                 the kit's checks; ends "N passed, M failed"
#   make results              rerun the labs into results/ (minutes)
#   make clean                remove what make built
# Knobs (make lab1 FRAMES=20, or FRAMES=20 make lab1):
#   FRAMES=100            frames per Lab 1 run (lab1*, step*)
#   RUN_DIR=.run          where the walkthrough keeps its outputs
#   DEMO_FRAMES=20        frames per run in demo-strace
#   VARIANCE_ITERS=200000 samples per Lab 2 row (variance-mlock: a tenth)
#   COUNT_LARGE=4000      Lab 3 requests per thread (also COUNT_SMALL,
#                         LIVE, REPEATS, THREADS: see the Lab 3 section)
#   SCALE=1               Lab 4: divide every frame count by SCALE
#   BYTES=128M            Lab 5: bytes per run (a number, K, M or G)
#   CC=cc OPT="-O2 -g"    compiler and optimisation: make CC=clang OPT=-O0

CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  ?= -std=gnu11 -Wall -Wextra $(OPT)
LDLIBS  ?=
FRAMES  ?= 100
RUN_DIR ?= .run

# Every recipe runs under bash with pipefail: a failed program in a pipe
# fails the target instead of hiding behind the pipe's last command.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

LABS := frames malloc_variance threads yes
TEST_BINS := tests/bin/gotcha tests/bin/test_bench

.PHONY: all run test clean help results
all: $(LABS)

# Each lab is one .c file plus the shared header.  The recipe is echoed on
# purpose: the flags are part of what a student should see.
%: %.c tools/bench.h tools/env.h
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS) -pthread

tests/bin/%: tests/%.c tools/bench.h tools/env.h
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -I. -o $@ $< -pthread

help:
	@awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' Makefile

# A knob must be a whole number from 1 to MAX, checked before anything
# runs: $(call count,NAME,MAX) stops make with one line naming the knob.
count = $(if $(shell v='$(subst ','\'',$($(1)))'; [[ $$v =~ ^[1-9][0-9]{0,9}$$ ]] && \
	[ $$v -le $(2) ] && echo ok),$($(1)),$(error $(1) wants a whole number from 1 to $(2), not '$($(1))'))

# A size knob (BYTES): a whole number with an optional K, M or G.
size = $(if $(shell v='$(subst ','\'',$($(1)))'; [[ $$v =~ ^[1-9][0-9]{0,9}[KMG]?$$ ]] && echo ok),$($(1)),$(error $(1) wants a size like 128M (a whole number, then K, M or G), not '$($(1))'))

# strace is needed only by the -strace targets: without it (or without
# permission to trace) they say so and succeed, since nothing failed.
STRACE_OK = if ! command -v strace >/dev/null 2>&1; then \
	echo "$@: skipped: strace is not installed (apt-get install strace)"; exit 0; \
	elif ! strace -o /dev/null true >/dev/null 2>&1; then \
	echo "$@: skipped: strace cannot trace here (ptrace is not permitted)"; exit 0; fi

# results/ is written only by the kit: each lab's main target, run here,
# under a header naming the machine.  LABS_TO_RECORD picks some.
LABS_TO_RECORD ?= lab1 lab2 lab3 lab4 lab5
results: $(LABS) $(TEST_BINS)
	tools/record.sh $(LABS_TO_RECORD)

# ------------------------------------------------------------------ Lab 1
# The walkthrough: each step echoes the command it runs.  `make stepN` runs
# one step; `make lab1` (`make run`) runs them all and ends with a table.
# lab1-tunables is the steps that set the policy from outside, lab1-strace
# the step that counts the system calls.
STEPS := 1 2 3 4 5 6 7 8 9
WALK = @FRAMES=$(call count,FRAMES,1000000) RUN_DIR='$(RUN_DIR)' tools/walkthrough.sh
.PHONY: lab1 lab1-tunables lab1-strace $(addprefix step,$(STEPS))
lab1 run: frames
	$(WALK) all

lab1-tunables: frames
	$(WALK) 3 4 6 9

lab1-strace: step2

$(addprefix step,$(STEPS)): frames
	$(WALK) $(@:step%=%)

# demo-strace: Lab 1's completed program with glibc's default policy and
# tuned, side by side for a projector: brk/mmap/munmap and page faults,
# DEMO_FRAMES frames each.
DEMO_FRAMES ?= 20
.PHONY: demo-strace
demo-strace: frames
	@FRAMES=$(call count,DEMO_FRAMES,1000000) tools/demo-strace.sh

# ------------------------------------------------------------------ Lab 2
# variance: every row at VARIANCE_ITERS samples, pinned to one CPU; pin.sh
# first says what else could add noise.  lab2-tunables runs the 32 B row
# with the tcache and the per-thread arenas switched off from outside, at
# one thread and two.  variance-strace counts the system calls behind the
# forced-mmap row.  The rest are the take-it-further runs.
VARIANCE_ITERS ?= 200000
ITERS = $(call count,VARIANCE_ITERS,50000000)
.PHONY: lab2 lab2-tunables lab2-strace variance variance-strace variance-hist \
	variance-history variance-threads variance-mlock
lab2 variance: malloc_variance
	tools/pin.sh ./malloc_variance all --iters $(ITERS)

lab2-tunables: malloc_variance
	@VARIANCE_ITERS=$(ITERS) tools/variance-tunables.sh

lab2-strace variance-strace: malloc_variance
	@$(STRACE_OK); \
	echo "(times under strace are strace's: every system call stops the program, so the"; \
	echo " mmap row runs many times slower than in make lab2; read the counts, not the ns)"; \
	echo '$$ strace -f -c -S calls ./malloc_variance large-mmap --iters $(ITERS)'; \
	strace -f -c -S calls ./malloc_variance large-mmap --iters $(ITERS)

variance-hist: malloc_variance
	tools/pin.sh -q ./malloc_variance all --hist --iters $(ITERS)

# The rows in one process: each inherits the heap the rows before it left.
variance-history: malloc_variance
	tools/pin.sh -q ./malloc_variance all --history --iters $(ITERS)

# Unpinned on purpose: two threads pinned to one CPU would take turns.
variance-threads: malloc_variance
	./malloc_variance all --threads 2 --iters $(ITERS)

# A tenth of VARIANCE_ITERS (20,000): locked, each forced mmap faults in all
# 257 pages of its block (~0.4 ms), so 200,000 would take over a minute.
variance-mlock: malloc_variance
	@n=$$(( ($(ITERS) + 9) / 10 )); echo "tools/pin.sh -q ./malloc_variance all --mlock --iters $$n"; \
	tools/pin.sh -q ./malloc_variance all --mlock --iters $$n

# ------------------------------------------------------------------ Lab 3
# bug1541: the report's four cases at 1 and at N = CPUs threads, plus today's
# default and a tuned run, as a table with ratios; each command is printed.
# Scale with COUNT_LARGE=N (requests per thread at SIZE 1280000; default 4000).
.PHONY: bug1541 bug1541-strace
bug1541: threads
	@COUNT_LARGE=$(or $(COUNT_LARGE),4000) tools/bug1541.sh table

bug1541-strace: threads
	@COUNT_LARGE=$(or $(COUNT_LARGE),4000) tools/bug1541.sh strace

# ------------------------------------------------------------------ Lab 4
# sizes: frames of 1-48 MiB, fixed and varying, untuned vs MALLOC_*_ vs
# GLIBC_TUNABLES (SCALE=10 runs a tenth of the frames).  lab4-tunables: the
# 34 MiB row in full, the three ways.  lab4-strace: the 30 and 34 MiB rows'
# mmap/munmap.  gotcha: the loop that -O2 deletes, beside the kit's guard.
SCALE ?= 1
.PHONY: lab4 lab4-tunables lab4-strace sizes gotcha
lab4 sizes: frames
	@SCALE=$(call count,SCALE,1000000) tools/sizes.sh table

lab4-tunables: frames
	@SCALE=$(call count,SCALE,1000000) tools/sizes.sh tunables

lab4-strace: frames
	@SCALE=$(call count,SCALE,1000000) tools/sizes.sh strace

gotcha: tests/bin/gotcha
	@echo '$$ tests/bin/gotcha'
	@tests/bin/gotcha
	@echo "Read it: 'unguarded' at one fault a block or fewer means the compiler deleted"
	@echo "the memset (the one fault is the page malloc writes its header into; none if it"
	@echo "deleted the whole loop): the 'benchmark' measured nothing.  'guarded' is the loop"
	@echo "the source describes, every page written, and matches 'expected guarded'."

# ------------------------------------------------------------------ Lab 5
# yes-table: the size x alignment table with writer and reader on one CPU and
# on two, then GNU yes through the same pipe; each command is printed.
# lab5-tunables: where malloc() puts the buffer, default vs a 4 KiB mmap
# threshold (and top_pad=0).  lab5-strace: write() counts and sizes.
# (`make yes` builds ./yes.)  BYTES=64M makes it quicker.
BYTES ?= 128M
.PHONY: lab5 lab5-tunables lab5-strace yes-table
lab5 yes-table: yes
	@BYTES=$(call size,BYTES) tools/yes-table.sh table

lab5-tunables: yes
	@BYTES=$(call size,BYTES) tools/yes-table.sh tunables

lab5-strace: yes
	@BYTES=$(call size,BYTES) tools/yes-table.sh strace

# ------------------------------------------------------------------ tests
test: $(LABS) $(TEST_BINS)
	@tests/run.sh

clean:
	rm -f $(LABS)
	rm -rf tests/bin
	rm -rf .run
