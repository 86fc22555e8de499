# malloc-labs: every lab is one C file built with one visible command.
#   make              build every lab
#   make run          Lab 1's walkthrough, step by step (FRAMES=20 shortens it)
#   make step1..step8 one step of the walkthrough, for class
#   make variance     Lab 2: latency percentiles per size class, pinned
#                     (also variance-strace, -hist, -history, -threads, -mlock)
#   make lab3         Lab 3: the bug report's cases at 1 and N threads, repeated,
#                     and the speed-up's range (alias bug1541); knobs COUNT_LARGE,
#                     COUNT_SMALL, LIVE, REPEATS, THREADS, CSV=1 (every run as CSV)
#   make lab3-tunables  Lab 3's policies set from outside (GLIBC_TUNABLES)
#   make lab3-strace  Lab 3's system calls per mode (alias bug1541-strace)
#   make sizes        Lab 4: the 32 MiB cap, untuned vs env vars vs tunables
#   make gotcha       Lab 4: the loop -O2 deletes, beside the kit's guard
#   make yes-table    Lab 5: buffer size and alignment vs write()
#   make matrix       Lab 1 + Lab 4 steps under glibc 2.31, 2.36, 2.41, newest
#   make glibc-2.31   the labs built against glibc 2.31, in build/glibc-2.31/
#   make plots        SVG pictures of Labs 1, 2, 4 and 5 in PLOTS_DIR (plots/)
#   make test         the kit's checks; ends with "N passed, M failed"
#   make submit       every lab's graded runs into one file for a grader
#                     (STUDENT=name; FRAMES SCALE VARIANCE_ITERS COUNT_LARGE BYTES)
#   make grade FILE=f tools/grade.sh: check a submission from first principles
#   make reference    rewrite results/ on this machine, on purpose (minutes;
#                     `make results` is the same, kept as an old name)
#   make clean        remove what make built
# Change the compiler or optimisation like this: make CC=clang OPT=-O0

CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  ?= -std=gnu11 -Wall -Wextra $(OPT)
LDLIBS  ?=
FRAMES  ?= 100

LABS := frames malloc_variance threads yes
TEST_BINS := tests/bin/gotcha tests/bin/test_bench tests/bin/env_items

.PHONY: all run test clean help results reference submit grade
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

# ------------------------------------------------------- graders, results/
# submit: one file in submissions/ (gitignored) for tools/grade.sh.  Its own
# defaults (10 frames, SCALE=10, 20,000 iterations, COUNT_LARGE=1000, 16M)
# keep it to a minute or two; a FRAMES or VARIANCE_ITERS given to make wins.
# reference: the only target that writes results/ (the reference outputs and
# a graded reference submission), so ordinary runs never change tracked
# files.  LABS_TO_RECORD picks some labs.  `results` is its old name.
LABS_TO_RECORD ?= lab1 lab2 lab3 lab4 lab5 submission
submit: $(LABS)
	@$(if $(filter file,$(origin FRAMES)),,FRAMES=$(FRAMES)) \
	$(if $(filter file,$(origin VARIANCE_ITERS)),,VARIANCE_ITERS=$(VARIANCE_ITERS)) \
	CC="$(CC)" CFLAGS="$(CFLAGS)" tools/submit.sh

grade:
	@test -n "$(FILE)" || { echo "usage: make grade FILE=submissions/NAME.txt (or a directory)" >&2; exit 2; }
	tools/grade.sh $(FILE)

reference: $(LABS) $(TEST_BINS)
	tools/record.sh $(LABS_TO_RECORD)

results:
	@echo "make results is now make reference: it rewrites results/ on purpose"
	@$(MAKE) --no-print-directory reference

# ------------------------------------------------------------------ Lab 1
# The walkthrough: each step echoes the command it runs.  `make stepN` runs
# one step; `make run` runs them all and ends with a table.
STEPS := 1 2 3 4 5 6 7 8
run: frames
	@FRAMES=$(FRAMES) tools/walkthrough.sh all

$(addprefix step,$(STEPS)): frames
	@FRAMES=$(FRAMES) tools/walkthrough.sh $(@:step%=%)

# ------------------------------------------------------------------ Lab 2
# variance: every row at VARIANCE_ITERS samples, pinned to one CPU; pin.sh
# first says what else could add noise.  variance-strace counts the system
# calls behind the forced-mmap row.  The rest are the take-it-further runs.
VARIANCE_ITERS ?= 200000
.PHONY: variance variance-strace variance-hist variance-history \
	variance-threads variance-mlock
variance: malloc_variance
	tools/pin.sh ./malloc_variance all --iters $(VARIANCE_ITERS)

variance-strace: malloc_variance
	strace -f -c -S calls ./malloc_variance large-mmap --iters $(VARIANCE_ITERS)

variance-hist: malloc_variance
	tools/pin.sh -q ./malloc_variance all --hist --iters $(VARIANCE_ITERS)

# The rows in one process: each inherits the heap the rows before it left.
variance-history: malloc_variance
	tools/pin.sh -q ./malloc_variance all --history --iters $(VARIANCE_ITERS)

# Unpinned on purpose: two threads pinned to one CPU would take turns.
variance-threads: malloc_variance
	./malloc_variance all --threads 2 --iters $(VARIANCE_ITERS)

# 20,000 samples: locked, each forced mmap faults in all 257 pages of its
# block (~0.4 ms), so 200,000 would take over a minute.
variance-mlock: malloc_variance
	tools/pin.sh -q ./malloc_variance all --mlock --iters 20000

# ------------------------------------------------------------------ Lab 3
# lab3 (alias bug1541): the report's cases at 1 and at N = CPUs threads as
# weak scaling (each thread LIVE/N bytes live, the same requests), today's
# default and a tuned run; the speed-up pairs run REPEATS times.
# lab3-tunables: --mode default under the tuned thresholds as GLIBC_TUNABLES
# and as MALLOC_*_ (the same faults as --mode tuned), and arena_max=1.
# lab3-strace (alias bug1541-strace): strace -f -c, the calls that matter.
# Every command is printed.  COUNT_LARGE=500 is quick; LIVE shrinks the fill.
COUNT_LARGE ?= 4000
COUNT_SMALL ?= 10000
LIVE        ?= 490000000
REPEATS     ?= 3
LAB3_KNOBS = COUNT_LARGE='$(COUNT_LARGE)' COUNT_SMALL='$(COUNT_SMALL)' LIVE='$(LIVE)' \
	REPEATS='$(REPEATS)' CSV='$(or $(CSV),0)' $(if $(THREADS),THREADS='$(THREADS)')
.PHONY: lab3 bug1541 lab3-tunables lab3-strace bug1541-strace
lab3 bug1541: threads
	@$(LAB3_KNOBS) tools/bug1541.sh table

lab3-tunables: threads
	@$(LAB3_KNOBS) tools/bug1541.sh tunables

lab3-strace bug1541-strace: threads
	@$(LAB3_KNOBS) tools/bug1541.sh strace

# ------------------------------------------------------------------ Lab 4
# sizes: frames of 1-48 MiB, fixed and varying, untuned vs MALLOC_*_ vs
# GLIBC_TUNABLES (SCALE=10 runs a tenth of the frames).  gotcha: the loop
# that -O2 deletes, beside the kit's guard.
.PHONY: sizes gotcha
sizes: frames
	SCALE=$(or $(SCALE),1) tools/sizes.sh

gotcha: tests/bin/gotcha
	tests/bin/gotcha

# ------------------------------------------------------------------ Lab 5
# yes-table: the size x alignment table with writer and reader on one CPU and
# on two, then GNU yes through the same pipe; each command is printed.
# (`make yes` builds ./yes.)  BYTES=64M makes it quicker.
.PHONY: yes-table
yes-table: yes
	@BYTES=$(or $(BYTES),128M) tools/yes-table.sh

# ------------------------------------------------------------------ plots
# plots: short runs of Labs 1, 2, 4 and 5, drawn as SVG by tools/plot (the
# kit's own C program) into PLOTS_DIR; the CSVs go beside them.  Shorter
# still: FRAMES=N (default here 10), VARIANCE_ITERS=N (50000), BYTES=N (32M).
# reference-plots redraws the committed pictures in results/.
PLOTS_DIR ?= plots
PLOT_KNOBS = FRAMES=$(if $(filter file,$(origin FRAMES)),10,$(FRAMES)) \
	VARIANCE_ITERS=$(if $(filter file,$(origin VARIANCE_ITERS)),50000,$(VARIANCE_ITERS)) \
	BYTES=$(or $(BYTES),32M)
.PHONY: plots reference-plots clean-plot
tools/plot: tools/plot.c tools/bench.h
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS) -lm

plots: $(LABS) tools/plot
	@PLOTS_DIR=$(PLOTS_DIR) $(PLOT_KNOBS) tools/plots.sh

reference-plots: $(LABS) tools/plot
	@PLOTS_DIR=results CSV_DIR=.run/plots $(PLOT_KNOBS) tools/plots.sh

test: tools/plot tests/bin/xmlcheck
clean: clean-plot
clean-plot:
	rm -f tools/plot

# ------------------------------------------------------------------ tests
# A 2.31 build, once made, is kept up to date for tests/lab9-glibc.sh.
test: $(LABS) $(TEST_BINS) $(if $(wildcard build/glibc-2.31/frames),glibc-2.31)
	@tests/run.sh

clean:
	rm -f $(LABS)
	rm -rf tests/bin
	rm -rf .run
	rm -rf build

# ------------------------------------------------------------------ glibc versions
# Other glibc releases, each through its own loader (tools/glibc.sh fetches
# Debian's libc6 into a cache outside this tree).  glibc-2.31: the labs
# rebuilt against Debian bullseye's headers and libraries into
# build/glibc-2.31/ (a binary built here needs GLIBC_2.34 and does not start
# on 2.31); gcc only: clang would also look for libgcc_s in the sysroot.
# matrix: Lab 1 and Lab 4 steps under 2.31, 2.36, 2.41 and the newest, one
# table; FRAMES a step (default 4 here, not 100).
OLD_GLIBC_CC ?= gcc
MULTIARCH    := $(shell $(OLD_GLIBC_CC) -print-multiarch 2>/dev/null)
OLD_LABS     := $(addprefix build/glibc-2.31/,$(LABS))
.PHONY: glibc-2.31 matrix
glibc-2.31: $(OLD_LABS)

# Fetched (once, cached) only when a 2.31 binary is to be built.
OLD_SYSROOT = $(eval OLD_SYSROOT := $$(shell tools/glibc.sh sysroot bullseye))$(OLD_SYSROOT)

# --sysroot moves the headers; -B and -L put bullseye's crt files and
# libraries before the ones gcc finds beside itself.
build/glibc-2.31/%: %.c tools/bench.h tools/env.h
	$(if $(OLD_SYSROOT),,$(error no glibc 2.31 sysroot: tools/glibc.sh sysroot bullseye failed))
	@mkdir -p $(@D)
	$(OLD_GLIBC_CC) $(CFLAGS) --sysroot=$(OLD_SYSROOT) -B$(OLD_SYSROOT)/usr/lib/$(MULTIARCH)/ \
		-L$(OLD_SYSROOT)/usr/lib/$(MULTIARCH) -L$(OLD_SYSROOT)/lib/$(MULTIARCH) -o $@ $< $(LDLIBS) -pthread -ldl

matrix: frames
	-@$(MAKE) --no-print-directory -q glibc-2.31 || $(MAKE) --no-print-directory glibc-2.31
	@FRAMES=$(if $(filter command line environment,$(origin FRAMES)),$(FRAMES),4) tools/matrix.sh
