# malloc-labs: every lab is one C file built with one visible command.
#   make            build every lab
#   make run        Lab 1's walkthrough, step by step (FRAMES=20 shortens it)
#   make test       the kit's checks; ends with "N passed, M failed"
#   make clean      remove what make built
# Change the compiler or optimisation like this: make CC=clang OPT=-O0

CC      ?= gcc
OPT     ?= -O2 -g
CFLAGS  ?= -std=gnu11 -Wall -Wextra $(OPT)
LDLIBS  ?=
FRAMES  ?= 100

LABS := frames malloc_variance threads yes
TEST_BINS :=

.PHONY: all run test clean help results
all: $(LABS)

# Each lab is one .c file plus the shared header.  The recipe is echoed on
# purpose: the flags are part of what a student should see.
%: %.c tools/bench.h
	$(CC) $(CFLAGS) -o $@ $< $(LDLIBS) -pthread

tests/bin/%: tests/%.c tools/bench.h
	@mkdir -p tests/bin
	$(CC) $(CFLAGS) -I. -o $@ $< -pthread

help:
	@sed -n '2,6p' Makefile | sed 's/^# \{0,1\}//'

# ------------------------------------------------------------------ Lab 1
# The walkthrough: each step echoes the command it runs.  `make stepN` runs
# one step; `make run` runs them all and ends with a table.
STEPS := 1 2 3 4 5 6 7 8
run: frames
	@FRAMES=$(FRAMES) tools/walkthrough.sh all

$(addprefix step,$(STEPS)): frames
	@FRAMES=$(FRAMES) tools/walkthrough.sh $(@:step%=%)

# ------------------------------------------------------------------ Lab 2

# ------------------------------------------------------------------ Lab 3

# ------------------------------------------------------------------ Lab 4

# ------------------------------------------------------------------ Lab 5

# ------------------------------------------------------------------ tests
test: $(LABS) $(TEST_BINS)
	@tests/run.sh

clean:
	rm -f $(LABS)
	rm -rf tests/bin
	rm -rf .run
