# malloc-labs: every lab is one C file built with one visible command.
# Each lab is a row of tools/labs/registry: its targets are made from it,
# and make help (every target and knob, lab or not) is drawn from that
# file's ">" lines and rows by tools/lib/help.awk.

# The variables typed on the command line (make lab1 FRAMES=20), by name.
GIVEN_VARS := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(v)))
# A value a recipe or $(shell) writes into its command is single-quoted by
# shq: FILE='a;touch PWNED;b.txt' is a file name, never a command.
shq = '$(subst ','\'',$(1))'

# The variables a target or the script behind it reads, besides the labs'
# knobs (tools/labs/knobs): make knows these and no others (see
# KNOWN_VARS).  KIT_REV: tests pin the revision a copy of the kit builds at.
MAKE_VARS := CC OPT CFLAGS LDLIBS CC32 CC_ARM64 OLD_GLIBC_CC DEMO_FRAMES \
	STUDENT FILE FORMAT ANSWERS OUT CHECK_TIMEOUT CHECK_WALL ALLOW_ENV PLOTS_DIR \
	PLOT_LABS SANITIZE_LABS LABS_TO_RECORD KERNELS T TIER TEST_AWK TEST_JOBS \
	KIT_REV MALLOC_LABS_CACHE MALLOC_LABS_MIRROR MALLOC_LABS_GLIBC_BUILDS
# make's own, which a command line may set too.
MAKE_OWN := MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKEFILES MAKESHELL SHELL .SHELLFLAGS VPATH V

# The labs: tools/labs/registry, one row a lab, read here as one word a lab
# (id|program|driver|more|threads|old|plots|record|knobs; "-" for none, a
# list comma-separated; knobs from tools/labs/knobs).  Each lab's targets
# are made from its row (below: "every lab's targets").  LABS: the
# programs, each once, in the rows' order.  KNOB_LINES: tools/labs/knobs,
# a word a line (lab|knob|default|range).  The same awk run (no process of
# its own: make starts often) names each variable in the environment one
# typo from a knob, as env:NAME:KNOB.
REGISTRY := $(shell awk -v SEP='|' -v KNOWN='$(MAKE_VARS)' -f tools/lib/registry.awk \
	$(if $(filter 0,$(MAKELEVEL)),-f tools/lib/knobs.awk) tools/labs/registry tools/labs/knobs)
$(if $(filter-out 0,$(.SHELLSTATUS)),$(error tools/labs/registry or tools/labs/knobs cannot be read \
	(see above)))
LAB_ROWS := $(filter-out env:% knob:%,$(REGISTRY))
KNOB_LINES := $(patsubst knob:%,%,$(filter knob:%,$(REGISTRY)))
comma := ,
lab_field = $(patsubst -,,$(subst $(comma), ,$(word $(1),$(subst |, ,$(2)))))
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
LAB_IDS := $(foreach r,$(LAB_ROWS),$(call lab_field,1,$(r)))
LABS := $(call uniq,$(foreach r,$(LAB_ROWS),$(call lab_field,2,$(r))))

# The variables make knows: the labs' knobs, MAKE_VARS and MAKE_OWN.  One
# typed after make that is none of them is refused before anything runs
# (or is evaluated), naming the nearest (tools/lib/knobs.awk): a misspelt
# knob would otherwise be ignored without a word.  One in the environment
# is only warned of, and only when one typo from a knob (env:NAME:KNOB
# above): the environment holds every other program's variables too.
KNOWN_VARS := $(MAKE_VARS) $(call uniq,$(foreach k,$(KNOB_LINES),$(word 2,$(subst |, ,$(k)))))
UNKNOWN    := $(firstword $(filter-out $(KNOWN_VARS) $(MAKE_OWN),$(GIVEN_VARS)))
$(if $(UNKNOWN),$(eval NEAREST := $(shell awk -v NAME=$(call shq,$(UNKNOWN)) \
	-v KNOWN=$(call shq,$(KNOWN_VARS)) -f tools/lib/knobs.awk))$(error $(UNKNOWN): no such \
	knob$(if $(NEAREST),; did you mean $(NEAREST)?, (make help lists them))))
env_near = $(if $(filter environment,$(origin $(1))),$(if $(filter-out $(MAKE_OWN),$(1)),$(warning \
	warning: $(1) (environment) is no knob; did you mean $(2)?)))
$(foreach w,$(filter env:%,$(REGISTRY)),$(call env_near,$(word 2,$(subst :, ,$(w))),$(word 3,$(subst :, ,$(w)))))

# Every variable typed on the command line (make submit STUDENT=ada FRAMES=4
# FILE=...) reaches the recipes' environment exactly as typed: made a simple
# variable holding its own text, so a '$(shell ...)' in it is data, never run,
# and exported by hand, because GNU Make (4.3, 4.4) stops exporting a
# command-line variable that the makefile overrides.  Its origin becomes
# "override": $(call given,NAME) asks whether the user set NAME at all.
$(foreach v,$(GIVEN_VARS),$(eval override $(v) := $$(value $(v)))$(eval export $(v)))
given = $(filter command line environment override,$(origin $(1)))

CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  ?= -std=gnu11 -Wall -Wextra $(OPT)
LDLIBS  ?=

# Every recipe runs under bash with pipefail: a failed program in a pipe
# fails the target instead of hiding behind the pipe's last command.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

# make submit and make check with a knob over the grader's cap (a "cap"
# line of tools/grading/knobs: FRAMES 1000) would write a file the grader
# refuses: one line naming the cap, before anything is built or run.  (The
# group's ":" keeps it a command when no knob is given.)
CAPPED_KNOBS := FRAMES SCALE VARIANCE_ITERS COUNT_LARGE
ifneq ($(filter submit check,$(MAKECMDGOALS)),)
OVER_CAP := $(shell . tools/lib/lib.sh && { :; $(foreach k,$(CAPPED_KNOBS),$(if $(call \
	given,$(k)),knob_over_cap $(k) $(call shq,$($(k)));)) } | head -n 1)
$(if $(OVER_CAP),$(error $(OVER_CAP)))
endif

# The programs that run threads: ThreadSanitizer builds them too.
THREADED := $(call uniq,$(foreach r,$(LAB_ROWS),$(if $(filter yes,$(call lab_field,5,$(r))),$(call lab_field,2,$(r)))))
TEST_BINS := tests/bin/gotcha tests/bin/test_bench tests/bin/env_items tests/bin/perturb \
	tests/bin/mmapmax tests/bin/nons tests/bin/setters tests/bin/chunk \
	tests/bin/uninit

.PHONY: all run test clean help results reference submit check handout grade questions autograder rerun
all: $(LABS)

# The kit's headers: the command line, measuring, the environment check,
# the rules glibc reads its tunables by, the fault model, and each lab
# program's instruments (its options, predictions and reports).
HEADERS := $(wildcard tools/include/*.h)
# The kit's compiled units (tools/kit/NAME.c, declared in
# tools/include/NAME.h): built once a flavour and linked, so a program
# compiles their declarations, not their code.  A unit named after a lab
# is that lab's own instruments (its options, predictions, reports),
# linked into it alone as DIR/kit/LAB.o; the others, every program's, are
# archived in DIR/kit/libkit.a.
LAB_UNITS := $(filter $(LABS:%=tools/kit/%.c),$(wildcard tools/kit/*.c))
KIT_UNITS := $(filter-out $(LAB_UNITS),$(wildcard tools/kit/*.c))
# $(call lab_units,DIR): each lab with a unit of its own links DIR/kit/LAB.o
# (a prerequisite of DIR/LAB; the recipes link the .o files they are given).
lab_units = $(foreach u,$(LAB_UNITS:tools/kit/%.c=%),$(eval $(1)$(u): $(or $(1),build/)kit/$(u).o))

# The kit's revision, compiled into every lab (the "# built:" line, the
# CSV's kit column): tools/lib/kitversion (git describe; without git, the
# commit a git archive recorded, or src- and a hash of the sources).
# build/kit-rev holds the revision the labs were built at and changes only
# with it, so a new commit rebuilds them and none names a stale revision.
# It is brought up to date as the Makefile is read, not by a recipe that
# always runs: then `make -n` lists only the builds a make would do.
KIT_REV := $(shell tools/lib/kitversion 2>/dev/null | tr -cd 'A-Za-z0-9._+-')
KIT_REV := $(or $(KIT_REV),unknown)
KIT_DEF  = -DKIT_REV='"$(KIT_REV)"'
$(shell [ "$$(cat build/kit-rev 2>/dev/null)" = '$(KIT_REV)' ] || { mkdir -p build && \
	echo '$(KIT_REV)' >build/kit-rev.$$$$ && mv -f build/kit-rev.$$$$ build/kit-rev; } 2>/dev/null)
build/kit-rev:
	@mkdir -p $(@D); echo '$(KIT_REV)' >$@

# build/flags holds the compiler and flags the labs were built with, so a
# new CC, OPT, CFLAGS or LDLIBS rebuilds them and none says a compiler that
# did not build it (the other builds below take CFLAGS and LDLIBS too).
# Read here (no process), it is remade only when it differs: then `make -n`
# lists the rebuild and writes nothing (a make -n that wrote it would leave
# the next make rebuilding for no reason, under tests running the labs).
BUILD_FLAGS = $(strip CC=$(CC) CFLAGS=$(CFLAGS) LDLIBS=$(LDLIBS))
ifneq ($(strip $(file <build/flags)),$(BUILD_FLAGS))
build/flags: FORCE
endif
.PHONY: FORCE
build/flags:
	@mkdir -p $(@D); printf '%s\n' $(call shq,$(BUILD_FLAGS)) >$@

# The kit's library of one flavour: $(call kit_lib,DIR,CC,FLAGS,PACKAGES)
# makes DIR/kit/NAME.o of each unit with the compiler CC and FLAGS (as
# that flavour builds its programs) and DIR/kit/libkit.a of them, by the
# ar CC names (a cross compiler's own).  The build's own facts (the
# revision, the compiler, -O) are compiled into each program, not here
# (tools/include/env.h's env_build).  PACKAGES: as for libc_check.
kit_objs = $(patsubst tools/kit/%.c,$(1)/kit/%.o,$(KIT_UNITS))
define kit_lib
$(1)/kit/%.o: tools/kit/%.c $$(HEADERS) $(if $(findstring CFLAGS,$(3)),build/flags)
	@$$(call libc_check,$(2),$(4))
	@mkdir -p $$(@D)
	$(2) $(3) -c -o $$@ $$<
$(1)/kit/libkit.a: $$(call kit_objs,$(1))
	@rm -f $$@
	$$(shell $(2) -print-prog-name=ar) rcs $$@ $$^
endef
$(eval $(call kit_lib,build,$$(CC),$$(CFLAGS) $$(call m32_inc,$$(CC) $$(CFLAGS))))
$(call lab_units,)

# Each lab is one .c file plus the shared headers, linked with its own
# instruments (build/kit/LAB.o, where tools/kit/LAB.c is one) and the
# kit's library.  The recipe is echoed on purpose: the flags are part of what a
# student should see.  -ldl: dladdr() (tools/kit/env.c) lives in libdl
# before glibc 2.34.
%: %.c $(HEADERS) build/kit/libkit.a build/kit-rev build/flags
	@$(call libc_check,$(CC))
	$(CC) $(CFLAGS) $(KIT_DEF) $(call m32_inc,$(CC) $(CFLAGS)) -o $@ $(strip $< $(filter %.o,$^)) build/kit/libkit.a $(LDLIBS) -pthread -ldl

tests/bin/%: tests/%.c $(HEADERS) tests/checkfile.h build/kit/libkit.a build/flags
	@$(call libc_check,$(CC))
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) $(call m32_inc,$(CC) $(CFLAGS)) -I. -o $@ $< build/kit/libkit.a -pthread -ldl

# The kit measures glibc: a compiler that builds against another C library
# (musl-gcc, a BSD) gets one line saying so, not a screen of errors.
# $(call libc_check,CC[,PACKAGES]): PACKAGES, the Debian packages that bring
# a cross toolchain, are named in that line.  The check is in the recipe, so
# it stops make (even make -n) only when a target needs that compiler.
glibc_probe = \043include <features.h>\n\043if !defined(__GLIBC__) || !defined(__linux__)\n\043error\n\043endif\n
libc_check = $(if $(shell printf '$(glibc_probe)' | $(1) -E -x c - >/dev/null 2>&1 && echo ok),,\
	$(error '$(1)' cannot build a program for glibc on Linux (not installed, or another C \
	library)$(if $(2),: apt-get install $(2),; the kit measures glibc's malloc: use gcc or clang with glibc)))

# gcc -m32 on a 64-bit Debian without gcc-multilib (which would remove the
# arm64 cross compiler): the kernel's asm/ headers serve both widths but sit
# in x86_64-linux-gnu/, which -m32 does not search, so point at them.
m32_asm = $(wildcard /usr/include/asm /usr/include/i386-linux-gnu/asm)
m32_inc = $(if $(filter -m32,$(1)),$(if $(m32_asm),,$(if $(wildcard \
	/usr/include/x86_64-linux-gnu/asm),-idirafter /usr/include/x86_64-linux-gnu)))

# make help: drawn from tools/labs/registry (tools/lib/help.awk): the kit's
# targets and knobs, and every lab's targets and knobs from its row, so a
# lab added there is listed with no other edit.
help:
	@awk -v HELP=1 -f tools/lib/registry.awk -f tools/lib/help.awk tools/labs/registry tools/labs/knobs

# A lab that does not exist (make lab7, make lab9, make lab2-foo): one line
# naming the labs this help lists, exit 2, instead of make's "No rule".
lab%:
	$(error no $@; labs: $(LAB_IDS) (make help))

# A knob of make's own (DEMO_FRAMES; FRAMES for make kernels) must be a
# whole number from 1 to MAX, checked before anything runs:
# $(call count,NAME,MAX) stops make with one line naming the knob.
count = $(if $(shell v='$(subst ','\'',$($(1)))'; [[ $$v =~ ^[1-9][0-9]{0,9}$$ ]] && \
	[ $$v -le $(2) ] && echo ok),$($(1)),$(error $(1) wants a whole number from 1 to $(2), not '$($(1))'))

# A lab's knobs: their defaults and ranges are tools/labs/knobs' and only
# there.  Those given for a lab named on the command line (or from the
# environment) are checked here against its lines, before anything runs
# or is built: one out of its range stops make with one line naming the
# knob, its range and the value (tools/lib/knobs.awk).  The driver then
# gets the knobs given, as typed, and its defaults for the rest from the
# same lines (tools/lib/lib.sh: lab_knobs): no lab gets another's default.
# $(call goal_keys,GOAL): the labs' lines GOAL reads, its mode's before its
# lab's (lab2-tunables lab2); none for a goal that runs no lab's driver.
# Lab 1's steps and make run (lab1.sh short) and Lab 2's take-it-further
# runs (variance-*) read their lab's; make plots (tools/plots/plots.sh)
# the knobs of the labs it runs short.
row_keys = $(if $(filter $(2) $(filter-out %-tunables %-strace,$(4)),$(1)),$(2))$(strip \
	$(foreach m,$(3),$(if $(filter $(2)-$(m) %-$(m),$(filter $(1),$(2)-$(m) $(4))), $(2)-$(m) $(2))))
goal_keys = $(strip $(foreach r,$(LAB_ROWS),$(call row_keys,$(1),$(call lab_field,1,$(r)),$\
	$(call lab_field,4,$(r)),$(call lab_field,6,$(r))))$(if $(filter step%,$(1)), lab1)$\
	$(if $(filter run,$(1)), lab1-short lab1)$(if $(filter variance-%,$(1)), lab2)$\
	$(if $(filter plots reference-plots,$(1)), lab1 lab2 lab5 lab6))
knob_names = $(call uniq,$(foreach k,$(KNOB_LINES),$(if $(filter $(1),$(word 1,$(subst |, ,$(k)))),$\
	$(word 2,$(subst |, ,$(k))))))
knob_default = $(word 3,$(subst |, ,$(filter $(1)|$(2)|%,$(KNOB_LINES))))
knob_check = $(if $(strip $(foreach n,$(2),$(if $(call given,$(n)),$($(n))))),$(call knob_refuse,$\
	$(shell $(foreach n,$(2),$(if $(call given,$(n)),$(n)=$(call shq,$($(n))))) awk -v KEYS='$(1)' \
	-v ONLY_CHECK=1 -f tools/lib/knobs.awk tools/labs/knobs)))
knob_refuse = $(if $(1),$(error $(1)))
$(foreach g,$(or $(MAKECMDGOALS),all),$(if $(call goal_keys,$(g)),$\
	$(call knob_check,$(call goal_keys,$(g)),$(call knob_names,$(call goal_keys,$(g))))))
# The knobs given reach a lab's driver as NAME='value' (in its environment
# already: shown so by make -n): $(call knob_args,NAME...).
knob_args = $(strip $(foreach k,$(1),$(if $(call given,$(k)),$(if $($(k)),$(k)=$(call shq,$($(k)))))))

# Leftover settings: an allocator setting left in the shell (GLIBC_TUNABLES,
# MALLOC_*, LD_PRELOAD) would change every run a lab calls untuned, so a
# lab target refuses it; ALLOW_ENV=1 runs anyway, a "# warning:" line for
# each.  The drivers in tools/labs/ check for themselves; a target that
# runs a program itself starts with $(call LEFTOVER,WHAT IT CHANGES) and
# is in LEFTOVER_TARGETS, whose recipes are told the list (the programs
# print those settings as warnings: tools/include/env.h).
LEFTOVER = . tools/lib/lib.sh && prog=$@ && leftover_settings $(call shq,$(1))
LEFTOVER_TARGETS = variance-hist variance-history variance-threads variance-mlock gotcha plots
# (Looked up once, and only when one of them runs: a `:=` here would run
# the shell once per target every time make starts.)
inherited = $(eval inherited := $$(shell . tools/lib/lib.sh && inherited_settings))$(inherited)
$(LEFTOVER_TARGETS): export MALLOC_LABS_INHERITED = $(inherited)

# ------------------------------------------------------- graders, results/
# submit: one file in submissions/ (gitignored) for tools/grade.sh.  Its own
# defaults (10 frames, SCALE=10, 20,000 iterations, COUNT_LARGE=1000, 16M)
# keep it to a minute or two; a knob given to make (FRAMES=4) wins.
# reference: the only target that writes results/ (the reference outputs and
# a graded reference submission), so ordinary runs never change tracked
# files.  LABS_TO_RECORD picks some labs (`setup` is make run); `kernels`
# and `kernels-arm64` (make kernels, amd64 and arm64: tens of minutes under
# qemu) are recorded only when named there.  `results` is its old name.
LABS_TO_RECORD ?= setup lab1 lab2 lab3 lab4 lab5 lab6 recheck submission
# The knobs typed on the command line reach tools/submit.sh through its
# environment (exported at the top of this file); its own defaults apply
# to the rest.
submit: $(LABS)
	@CC=$(call shq,$(CC)) CFLAGS=$(call shq,$(CFLAGS)) tools/submit.sh

# check: the exercises (the code a student writes, between the markers of
# tools/lib/exercise.awk), graded by the course's own re-run
# (tools/grading/recheck.sh) on this tree: each region held to the same
# rules (a refused one graded as its stub, with the reason), then built and
# measured here against the kit's model: one line a check, then Score: N/M;
# short of full marks it fails.  It builds the programs itself, so that a
# region that does not compile still leaves the others a score.  The
# knobs typed (FRAMES=4 ...) reach it as they reach make submit.
check:
	@CC=$(call shq,$(CC)) CFLAGS=$(call shq,$(CFLAGS)) tools/grading/recheck.sh .

# handout: the students' copy of this kit in OUT (tools/grading/handout.sh):
# every exercise region its stub, so no solution; its grader shows no key.
handout:
	@tools/grading/handout.sh $(call shq,$(OUT))
# questions: the student's answer sheet, answers/NAME.txt, with parameters
# of their own (tools/grading/questions.sh); make submit ANSWERS=answers/NAME.txt.
questions:
	@s=$(call shq,$(STUDENT)); f=answers/$$s.txt; \
	tools/grading/questions.sh params "$$s" >/dev/null || exit 2; \
	if [ -e "$$f" ]; then echo "make questions: $$f exists: not overwriting your answers" >&2; exit 2; fi; \
	mkdir -p answers && tools/grading/questions.sh sheet "$$s" >"$$f.tmp" && mv "$$f.tmp" "$$f" && \
	echo "answer sheet: $$f (fill it in, then make submit STUDENT=$$s ANSWERS=$$f)"

# rerun: the submission made HERE from each answer sheet (the kit built
# and make submit run on this machine at the sheet's name), then graded.
rerun:
	@test -n $(call shq,$(ANSWERS)) || { echo "usage: make rerun ANSWERS=sheet" >&2; exit 2; }
	tools/grading/rerun.sh $(call shq,$(ANSWERS)) || { rc=$$?; echo "make rerun: tools/grading/rerun.sh exited $$rc" >&2; exit $$rc; }

# autograder: build/autograder.zip for Gradescope (tools/grading/autograder/: it
# grades the uploaded file).  tools/grading/classroom/malloc-labs.yml: the GitHub
# Classroom workflow (it re-runs the labs on the runner, then grades), whose
# steps are tools/grading/classroom/run.sh.
autograder:
	tools/grading/autograder/build.sh

# make exits 2 whenever a recipe fails, so the grader's own status (1: a
# FAIL, 3: ENV only) is printed here; scripts call tools/grade.sh directly.
FORMAT ?= report
grade:
	@test -n $(call shq,$(FILE)) || { echo "usage: make grade FILE=submissions/NAME.txt (or a directory) [FORMAT=csv|feedback|gradescope]" >&2; exit 2; }
	@tools/grade.sh --format $(call shq,$(FORMAT)) $(call shq,$(FILE)) || { rc=$$?; echo "make grade: tools/grade.sh exited $$rc" >&2; exit $$rc; }

# The plots are drawn after results/ is rewritten, which makes the tree
# -dirty: they keep the revision the recordings were made at (the same
# programs; only results/ differs).
reference: $(LABS) $(TEST_BINS) tools/plots/plot
	tools/maint/record.sh $(LABS_TO_RECORD)
	@$(MAKE) --no-print-directory reference-plots KIT_REV=$(KIT_REV)

results:
	@echo "make results is now make reference: it rewrites results/ on purpose"
	@$(MAKE) --no-print-directory reference

# ------------------------------------------------------------------ Lab 1
# The walkthrough: each step echoes the command it runs.  `make stepN` runs
# one step; `make lab1` runs them all and ends with a table.
# lab1-tunables is the steps that set the policy from outside, lab1-strace
# the step that counts the system calls.
STEPS := 1 2 3 4 5 6 7 8 9
WALK = @$(call knob_args,FRAMES RUN_DIR) tools/labs/lab1.sh
# run, set-up's first command: every lab built (a compiler problem shows at
# once), then the walkthrough cut to a first sitting: fewer frames a run
# (tools/labs/knobs: lab1-short) and 3 rounds of step 8's benchmark, where
# make lab1 runs 5.  A FRAMES given to make wins.
run: $(LABS)
	@$(call knob_args,FRAMES RUN_DIR) tools/labs/lab1.sh short
.PHONY: $(addprefix step,$(STEPS))
$(addprefix step,$(STEPS)): frames
	$(WALK) $(@:step%=%)

# demo-strace: Lab 1's completed program with glibc's default policy and
# tuned, side by side for a projector: brk/mmap/munmap and page faults,
# DEMO_FRAMES frames each (at most frames' cap, MODEL_FRAMES_MAX:
# tools/include/model.h).
DEMO_FRAMES ?= 20
.PHONY: demo-strace
demo-strace: frames
	@FRAMES=$(call count,DEMO_FRAMES,1000000) tools/labs/demo-strace.sh

# ------------------------------------------------------------------ Lab 2
# variance: every row at VARIANCE_ITERS samples, pinned to one CPU; pin.sh
# first says what else could add noise.  lab2-tunables runs the 32 B row
# with the tcache and the per-thread arenas switched off from outside, at
# one thread and two: one screen, every line of its runs in
# RUN_DIR/lab2-tunables.txt.  variance-strace counts the system calls behind the
# forced-mmap row.  The rest are the take-it-further runs.
ITERS = $(or $(VARIANCE_ITERS),$(call knob_default,lab2,VARIANCE_ITERS))
.PHONY: variance-hist variance-history variance-threads variance-mlock
variance-hist: malloc_variance
	@$(call LEFTOVER,every row (all untuned))
	tools/labs/pin.sh -q ./malloc_variance all --hist --iters $(ITERS)

# The rows in one process: each inherits the heap the rows before it left.
variance-history: malloc_variance
	@$(call LEFTOVER,every row (all untuned))
	tools/labs/pin.sh -q ./malloc_variance all --history --iters $(ITERS)

# Unpinned on purpose: two threads pinned to one CPU would take turns.
variance-threads: malloc_variance
	@$(call LEFTOVER,every row (all untuned))
	./malloc_variance all --threads 2 --iters $(ITERS)

# A tenth of VARIANCE_ITERS (20,000): locked, each forced mmap faults in all
# 257 pages of its block (~0.4 ms), so 200,000 would take over a minute.
variance-mlock: malloc_variance
	@$(call LEFTOVER,every row (all untuned))
	@n=$$(( ($(ITERS) + 9) / 10 )); echo "tools/labs/pin.sh -q ./malloc_variance all --mlock --iters $$n"; \
	tools/labs/pin.sh -q ./malloc_variance all --mlock --iters $$n

# ------------------------------------------------------------------ Lab 3
# lab3 (alias bug1541): the report's cases at 1 and at N = CPUs threads as
# weak scaling (each thread LIVE/N bytes live, the same requests), today's
# default and a tuned run; the speed-up pairs run REPEATS times.  The
# 1280000 16 MiB and tuned runs make COUNT_FAST requests (default 4 x
# COUNT_LARGE), so their timed part lasts long enough for a speed-up.
# lab3-tunables: --mode default under the tuned thresholds as GLIBC_TUNABLES
# and as MALLOC_*_ (the same faults as --mode tuned), and arena_max=1.
# lab3-strace (alias bug1541-strace): strace -f -c, the calls that matter.
# Every command is printed.  COUNT_LARGE=500 is quick; LIVE shrinks the fill.

# ------------------------------------------------------------------ Lab 4
# sizes: frames of 1-48 MiB, fixed and varying, untuned vs MALLOC_*_ vs
# GLIBC_TUNABLES (SCALE=10 runs a tenth of the frames).  lab4-tunables: the
# 34 MiB row in full, the three ways.  lab4-strace: the 30 and 34 MiB rows'
# mmap/munmap.  gotcha: the loop that -O2 deletes, beside the kit's guard.
.PHONY: gotcha
gotcha: tests/bin/gotcha
	@$(call LEFTOVER,both loops' faults)
	@echo '$$ tests/bin/gotcha'
	@tests/bin/gotcha
	@echo "Read it: 'unguarded' at one fault a block or fewer means the compiler deleted"
	@echo "the memset (the one fault is the page malloc writes its header into; none if it"
	@echo "deleted the whole loop): the 'benchmark' measured nothing.  'guarded' is the"
	@echo "loop the source describes, every page written, and matches 'expected guarded'."

# ------------------------------------------------------------------ Lab 5
# yes-table: the size x alignment table with writer and reader on one CPU and
# on two, then GNU yes through the same pipe; each command is printed.
# lab5-tunables: where malloc() puts the buffer, default vs a 4 KiB mmap
# threshold (and top_pad=0).  lab5-strace: write() counts and sizes.
# (`make yes` builds ./yes.)  BYTES=64M makes it quicker.

# ------------------------------------------------------------------ Lab 6
# lab6: 1, 2, 4 ... MAX_THREADS worker threads, each three ways (glibc's
# defaults, MALLOC_ARENA_MAX=2, malloc_trim(0) after the burst): resident
# memory against the bytes live.  lab6-tunables: the same program at 8
# threads under the settings that change it, from outside.  lab6-strace:
# the system calls behind the heaps and behind malloc_trim.  Every command
# is printed (tools/labs/lab6.sh).  ROUNDS=64 is quicker.

# ------------------------------------------------------- every lab's targets
# From its registry row: ID runs `DRIVER table`, ID-tunables and ID-strace
# (where the row's "more" has them) `DRIVER tunables` and `DRIVER strace`,
# each with its knobs and under its old names too.
# $(call lab_target,TARGET,OLD-NAMES,PROGRAM,DRIVER MODE,KNOBS)
define lab_target
.PHONY: $(1) $(2)
$(1) $(2): $(3)
	@$$(call knob_args,$(5)) tools/labs/$(4)
endef
lab_old = $(if $(filter table,$(2)),$(filter-out %-tunables %-strace,$(1)),$(filter %-$(2),$(1)))
$(foreach r,$(LAB_ROWS),$(foreach m,table $(call lab_field,4,$(r)),$(eval $(call lab_target,$\
	$(call lab_field,1,$(r))$(if $(filter-out table,$(m)),-$(m)),$\
	$(call lab_old,$(call lab_field,6,$(r)),$(m)),$(call lab_field,2,$(r)),$\
	$(call lab_field,3,$(r)) $(m),$(call lab_field,9,$(r))))))

# ------------------------------------------------------------------ plots
# plots: short runs of Labs 1, 2, 4, 5 and 6, drawn as SVG by tools/plots/plot (the
# kit's own C program) into PLOTS_DIR; the CSVs go beside them.  FRAMES,
# VARIANCE_ITERS, BYTES and ROUNDS given to make reach plots.sh; the rest
# keep plots.sh's shorter defaults (10 frames, 50000 samples, 32M, 64).
# PLOT_LABS="lab1 lab4": only those labs' pictures.
# reference-plots redraws the committed pictures in results/.
PLOTS_DIR ?= plots
PLOT_KNOBS = $(call knob_args,FRAMES VARIANCE_ITERS BYTES ROUNDS)
.PHONY: plots reference-plots clean-plot
tools/plots/plot: tools/plots/plot.c tools/include/cli.h build/kit/libkit.a build/flags
	$(CC) $(CFLAGS) -o $@ $< build/kit/libkit.a $(LDLIBS) -lm

# The grader's reader of a student's exercise region (tools/grading/recheck.sh).
tools/grading/regioncheck: tools/grading/regioncheck.c
	$(CC) $(CFLAGS) -o $@ $<
# make check's runner: each measured program's faults as wait4() saw them.
tools/grading/wait4run: tools/grading/wait4run.c tools/include/cli.h build/kit/libkit.a
	$(CC) $(CFLAGS) -o $@ $< build/kit/libkit.a
# The re-run's sandbox: every build and run of a student's code.
tools/grading/sandbox: tools/grading/sandbox.c tools/include/cli.h build/kit/libkit.a
	$(CC) $(CFLAGS) -o $@ $< build/kit/libkit.a
# The grader's expectations from the kit's model (tools/kit/model.c).
tools/grading/predict: tools/grading/predict.c $(HEADERS) build/kit/libkit.a
	$(CC) $(CFLAGS) -o $@ $< build/kit/libkit.a -ldl

plots: $(LABS) tools/plots/plot
	@$(call LEFTOVER,the untuned runs)
	@PLOTS_DIR=$(call shq,$(PLOTS_DIR)) $(PLOT_KNOBS) $(call knob_args,PLOT_LABS) tools/plots/plots.sh

reference-plots: $(LABS) tools/plots/plot
	@PLOTS_DIR=results CSV_DIR=.run/plots $(PLOT_KNOBS) tools/plots/plots.sh

test: tools/plots/plot tests/bin/xmlcheck tests/bin/jsoncheck tools/grading/predict
clean: clean-plot
clean-plot:
	rm -f tools/plots/plot tools/grading/regioncheck tools/grading/wait4run tools/grading/predict tools/grading/sandbox

# ------------------------------------------------------------------ tests
# A 2.31 build, once made, is kept up to date for tests/glibc-versions.sh.
# make test: the quick tier; make test-all: every check (the longest).
# T=NAME runs tests/NAME.sh alone, whole (T="lab1 lab4":
# those two), or only its quick checks with TIER=quick (CI: other awks);
# each word reaches tests/run.sh quoted, as data.
ifneq ($(filter-out quick all,$(TIER)),)
$(error TIER=$(TIER): quick or all)
endif
.PHONY: test-all
test-all: tools/plots/plot tests/bin/xmlcheck tests/bin/jsoncheck tools/grading/predict
test test-all: $(LABS) $(TEST_BINS) $(if $(wildcard build/glibc-2.31/frames),glibc-2.31)
	@TEST_TIER=$(if $(filter test-all,$@),all,$(or $(TIER),$(if $(T),all,quick))) tests/run.sh$(foreach t,$(T), $(call shq,$(t)))

# ---------------------------------------------------- other builds (ports)
# Beside the normal binaries, never over them.  tests/ports.sh runs
# whichever exist (32-bit directly or under qemu-i386, arm64 under
# qemu-aarch64).  CC32 / CC_ARM64 pick the compilers.  build-arm64 makes
# the grader's predict too: make kernels' arm64 guests grade with it.
CC32     ?= gcc -m32
CC_ARM64 ?= aarch64-linux-gnu-gcc
.PHONY: build32 build-arm64 sanitize
build32: $(addprefix build/m32/,$(LABS))
build-arm64: $(addprefix build/arm64/,$(LABS) tools/grading/predict)

$(eval $(call kit_lib,build/m32,$$(CC32),$$(CFLAGS) $$(call m32_inc,$$(CC32)),libc6-dev-i386 lib32gcc-12-dev))
$(call lab_units,build/m32/)
build/m32/%: %.c $(HEADERS) build/m32/kit/libkit.a build/kit-rev build/flags
	@$(call libc_check,$(CC32),libc6-dev-i386 lib32gcc-12-dev)
	@mkdir -p $(@D)
	$(CC32) $(CFLAGS) $(KIT_DEF) $(call m32_inc,$(CC32)) -o $@ $(strip $< $(filter %.o,$^)) build/m32/kit/libkit.a $(LDLIBS) -pthread

$(eval $(call kit_lib,build/arm64,$$(CC_ARM64),$$(CFLAGS),gcc-aarch64-linux-gnu libc6-dev-arm64-cross))
$(call lab_units,build/arm64/)
build/arm64/%: %.c $(HEADERS) build/arm64/kit/libkit.a build/kit-rev build/flags
	@$(call libc_check,$(CC_ARM64),gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
	@mkdir -p $(@D)
	$(CC_ARM64) $(CFLAGS) $(KIT_DEF) -o $@ $(strip $< $(filter %.o,$^)) build/arm64/kit/libkit.a $(LDLIBS) -pthread

# sanitize: every lab under AddressSanitizer + UndefinedBehaviorSanitizer,
# and the threaded ones under ThreadSanitizer, built by gcc and by clang,
# then short runs of every mode (tools/maint/sanitize.sh).  Any report fails.
# SANITIZE_LABS="lab1 lab3": only those labs' programs (default: every lab).
SANITIZE_LABS ?= $(LAB_IDS)
san_rows = $(foreach i,$(SANITIZE_LABS),$(filter $(i)|%,$(LAB_ROWS)))
SAN_PROGS = $(call uniq,$(foreach r,$(san_rows),$(call lab_field,2,$(r))))
SAN_THREADED = $(filter $(THREADED),$(SAN_PROGS))
SAN_CFLAGS = -std=gnu11 -Wall -Wextra -O1 -g -fno-omit-frame-pointer
ASAN = -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN = -fsanitize=thread
SAN_BUILDS = asan-gcc asan-clang tsan-gcc tsan-clang
sanitize: $(foreach b,asan-gcc asan-clang,$(addprefix build/$(b)/,$(SAN_PROGS))) \
	  $(foreach b,tsan-gcc tsan-clang,$(addprefix build/$(b)/,$(SAN_THREADED)))
	SANITIZE_LABS=$(call shq,$(SANITIZE_LABS)) tools/maint/sanitize.sh $(SAN_BUILDS:tsan-%=$(if $(SAN_THREADED),tsan-%))

# One rule, four builds: build/NAME/% by COMPILER with the sanitizer
# FLAGS, linked with the kit's library built the same way.
define san_build
$$(eval $$(call kit_lib,build/$(1),$(2),$$$$(SAN_CFLAGS) $(3)))
$$(call lab_units,build/$(1)/)
build/$(1)/%: %.c $$(HEADERS) build/$(1)/kit/libkit.a build/kit-rev
	@mkdir -p $$(@D)
	$(2) $$(SAN_CFLAGS) $(3) $$(KIT_DEF) -o $$@ $$(strip $$< $$(filter %.o,$$^)) build/$(1)/kit/libkit.a -pthread
endef
$(eval $(call san_build,asan-gcc,gcc,$$(ASAN)))
$(eval $(call san_build,asan-clang,clang,$$(ASAN)))
$(eval $(call san_build,tsan-gcc,gcc,$$(TSAN)))
$(eval $(call san_build,tsan-clang,clang,$$(TSAN)))

clean:
	rm -f $(LABS)
	rm -rf tests/bin
	rm -rf .run
	rm -rf build

# ------------------------------------------------------------------ glibc versions
# Other glibc releases, each through its own loader (tools/platforms/glibc.sh fetches
# Debian's libc6 into a cache outside this tree).  glibc-2.31: the labs
# rebuilt against Debian bullseye's headers and libraries into
# build/glibc-2.31/ (a binary built here needs GLIBC_2.34 and does not start
# on 2.31); gcc only: clang would also look for libgcc_s in the sysroot.
# matrix: every lab's matrix steps (tools/grading/steps) under 2.31, 2.35,
# 2.36, 2.39, 2.41 and the newest, one table; FRAMES a step (default 4 here,
# not 100).  2.35 and 2.39 come from ../shared/glibc (tools/platforms/glibc.sh).
OLD_GLIBC_CC ?= gcc
# (Asked once, and only when a 2.31 binary is built.)
MULTIARCH    = $(eval MULTIARCH := $$(shell $(OLD_GLIBC_CC) -print-multiarch 2>/dev/null))$(MULTIARCH)
OLD_LABS     := $(addprefix build/glibc-2.31/,$(LABS))
.PHONY: glibc-2.31 matrix kernels
glibc-2.31: $(OLD_LABS)

# Fetched (once, cached) only when a 2.31 binary is to be built.
OLD_SYSROOT = $(eval OLD_SYSROOT := $$(shell tools/platforms/glibc.sh sysroot bullseye))$(OLD_SYSROOT)

# --sysroot moves the headers; -B and -L put bullseye's crt files and
# libraries before the ones gcc finds beside itself.
# The kit's library needs only the headers: --sysroot.
$(eval $(call kit_lib,build/glibc-2.31,$$(OLD_GLIBC_CC),$$(CFLAGS) --sysroot=$$(OLD_SYSROOT)))
$(call lab_units,build/glibc-2.31/)
build/glibc-2.31/%: %.c $(HEADERS) build/glibc-2.31/kit/libkit.a build/kit-rev build/flags
	$(if $(OLD_SYSROOT),,$(error no glibc 2.31 sysroot: tools/platforms/glibc.sh sysroot bullseye failed))
	@mkdir -p $(@D)
	$(OLD_GLIBC_CC) $(CFLAGS) $(KIT_DEF) --sysroot=$(OLD_SYSROOT) -B$(OLD_SYSROOT)/usr/lib/$(MULTIARCH)/ \
		-L$(OLD_SYSROOT)/usr/lib/$(MULTIARCH) -L$(OLD_SYSROOT)/lib/$(MULTIARCH) -o $@ $< \
		$(filter %.o,$^) build/glibc-2.31/kit/libkit.a $(LDLIBS) -pthread -ldl

# The 2.31 build is a prerequisite, not the lesson: its compiler lines go
# to stderr (make glibc-2.31 shows them), the table to stdout.
matrix: frames
	-@$(MAKE) --no-print-directory -q glibc-2.31 || $(MAKE) --no-print-directory glibc-2.31 >&2
	@FRAMES=$(if $(call given,FRAMES),$(FRAMES),4) tools/platforms/matrix.sh

# ------------------------------------------------------------------ kernels
# kernels: Debian's stock kernels (bookworm's 6.1, trixie's 6.12, fetched
# once into a cache outside the tree) booted under qemu with this machine's
# root shared read-only; in each, with THP never, madvise and always, the
# Lab 1 and Lab 4 counts against the programs' own predictions and a short
# make submit graded by tools/grade.sh.  The arm64 columns (trixie's 4K
# and 16K kernels, and the 64K one make kernel-64k builds from Debian's
# source) boot an initramfs of Debian's arm64 packages with the labs
# cross-built (build-arm64, made by kernels.sh when it has those columns).
# A table per page size; FRAMES a check (default 4 here).  Minutes under
# TCG; CI runs it, make test not.
.PHONY: kernel-64k
kernels: $(LABS)
	tools/platforms/kernels.sh$(if $(call given,FRAMES), --frames $(call count,FRAMES,100000))$(if \
	$(KERNELS), --suites $(call shq,$(KERNELS)))

kernel-64k:
	tools/platforms/kernels.sh build-64k
