#!/usr/bin/env bash
# tools/labs/lab2.sh [table|tunables|strace] - Lab 2's runs, as `make lab2`,
# `make lab2-tunables` and `make lab2-strace` start them; each command is
# printed before it runs.
#   table     every row at VARIANCE_ITERS samples, pinned to one CPU
#             (tools/labs/pin.sh first says what else could add noise)
#   tunables  the 32 B row from outside: tools/labs/lab2-tunables.sh
#   strace    the system calls behind the forced-mmap row
# Knobs (environment): VARIANCE_ITERS, RUN_DIR (tunables' detail file);
# their defaults and ranges are tools/labs/knobs'.  Checked before anything
# runs.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab2
usage() { echo "usage: tools/labs/lab2.sh [table|tunables|strace]"; }
MODE=${1:-table}
case $MODE in table | tunables | strace) ;; *) bad_usage "no mode '$MODE'" ;; esac
[ $# -le 1 ] || bad_usage "one mode at a time"
lab_knobs lab2 "$MODE"          # tools/lib/lib.sh: default, range, or exit 2
need_built malloc_variance
leftover_settings "the untuned rows"    # tools/lib/lib.sh

case $MODE in
table)
	show_cmd tools/labs/pin.sh ./malloc_variance all --iters "$VARIANCE_ITERS"
	exec tools/labs/pin.sh ./malloc_variance all --iters "$VARIANCE_ITERS" ;;
tunables)
	exec tools/labs/lab2-tunables.sh ;;
strace)
	if ! strace_works; then echo "$prog: skipped: $STRACE_WHY"; exit 0; fi
	echo "(times under strace are strace's: every system call stops the program, so the"
	echo " mmap row runs many times slower than in make lab2; read the counts, not the ns)"
	show_cmd strace -f -c -S calls ./malloc_variance large-mmap --iters "$VARIANCE_ITERS"
	exec strace -f -c -S calls ./malloc_variance large-mmap --iters "$VARIANCE_ITERS" ;;
esac
