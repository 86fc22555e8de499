#!/usr/bin/env bash
# tools/labs/lab5.sh [table|tunables|strace] - Lab 5's runs, as `make lab5`,
# `make lab5-tunables` and `make lab5-strace` start them.  Every command is
# printed before it runs, exactly as a student would type it.
#   table     the size x alignment table with writer and reader on one CPU,
#             then on two; GNU yes through the same kind of pipe into
#             `./yes --read`, placed the same two ways, and the size of GNU
#             yes's writes (strace), to compare with the table's row
#   tunables  where malloc() puts the buffer, and what that costs: the
#             malloc column under glibc's defaults, under
#             glibc.malloc.mmap_threshold=4096, and with top_pad=0 added
#   strace    strace -f -c of a 4 KiB and a 16 KiB run (write() calls =
#             bytes / size; the reader's read() calls), and GNU yes's writes
# BYTES=N sets the bytes per run (K, M or G; GNU yes gets 8 times that;
# its default and range: tools/labs/knobs).  Checked before anything
# runs; a failed run stops it all.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/lib/lib.sh
prog=lab5
MODE=${1:-table}
# BYTES as ./yes takes it, in the spelling make help shows: a whole number
# with an optional K, M or G, checked against its range (GNU yes gets 8
# times as many bytes).
lab_knobs lab5 "$MODE"
num=${BYTES%[KMG]} unit=${BYTES#"$num"}
usage() { echo "usage: tools/labs/lab5.sh [table|tunables|strace]"; }
case $MODE in
table|tunables|strace) ;;
*) bad_usage "no mode '$MODE'" ;;
esac
gnu_bytes=$(( num * 8 ))$unit
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
need_built yes
leftover_settings "the default buffer"
scratch_dir

# say WORDS...: the command as typed; a long one broken after its
# VAR=value words with a backslash (still valid shell).
say() { echo; show_cmd "$@"; }
# run WORDS...: print and run; the environment check was printed once at
# the top, so a run shows only what it adds (its # set: and # warning: lines).
# The table is kept until the run ends, then shown: streamed through the
# filter it would race ./yes's progress lines on stderr (each awk buffers
# differently), and a table line could land on the end of one.
run() {
	say "$@"
	env "$@" >"$TMPD/run.out" || die "the run failed: $*"
	drop_env_header <"$TMPD/run.out"
}

gnu_yes_writes() {
	if ! strace_works; then
		echo; echo "GNU yes's write size: skipped: $STRACE_WHY"; return 0
	fi
	if [ ! -x /usr/bin/yes ]; then
		echo; echo "GNU yes's write size: skipped (/usr/bin/yes is not installed)"; return 0
	fi
	say "strace -o gnu-yes.strace -e trace=write /usr/bin/yes | head -c 1M >/dev/null"
	# GNU yes ends on the broken pipe (SIGPIPE) when head is done: expected.
	strace -o "$TMPD/gnu-yes.strace" -e trace=write /usr/bin/yes | head -c 1M >/dev/null
	echo "GNU yes's write() sizes (count, bytes):"
	sed -nE 's/^write\(1, .*\) += ([0-9]+)$/\1/p' "$TMPD/gnu-yes.strace" | sort -n | uniq -c |
		sort -rn | head -n 3
}

table() {
	run ./yes --cpus 0,0 --bytes "$BYTES"
	if [ "$NCPU" -ge 2 ]; then
		run ./yes --cpus 0,1 --bytes "$BYTES"
	else
		echo "(one CPU online: no two-CPU table)"
	fi
	if [ ! -x /usr/bin/yes ]; then
		echo; echo "GNU yes: skipped (/usr/bin/yes is not installed)"; return 0
	fi
	# GNU yes runs once, not median of 3 with 5 alignments: give it more bytes.
	if command -v taskset >/dev/null 2>&1; then
		say "taskset -c 0 /usr/bin/yes | taskset -c 0 ./yes --read $gnu_bytes"
		taskset -c 0 /usr/bin/yes | taskset -c 0 ./yes --read "$gnu_bytes" |
			drop_env_header
		# yes is killed by SIGPIPE when the reader has its bytes: only the
		# reader's status counts.
		[ "${PIPESTATUS[1]}" -eq 0 ] || die "the reader failed"
		if [ "$NCPU" -ge 2 ]; then
			say "taskset -c 0 /usr/bin/yes | taskset -c 1 ./yes --read $gnu_bytes"
			taskset -c 0 /usr/bin/yes | taskset -c 1 ./yes --read "$gnu_bytes" |
				drop_env_header
			[ "${PIPESTATUS[1]}" -eq 0 ] || die "the reader failed"
		fi
	else
		say "/usr/bin/yes | ./yes --read $gnu_bytes    (taskset missing: not pinned)"
		/usr/bin/yes | ./yes --read "$gnu_bytes" | drop_env_header
		[ "${PIPESTATUS[1]}" -eq 0 ] || die "the reader failed"
	fi
	gnu_yes_writes
}

tunables() {
	local t i
	local set=("" "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096"
		   "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096:glibc.malloc.top_pad=0")
	echo "The malloc column alone (--align malloc), writer and reader on CPU 0, in"
	echo "three ways:"
	echo "  A  glibc's defaults"
	echo "  B  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096"
	echo "  C  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096:glibc.malloc.top_pad=0"
	for i in 0 1 2; do
		t=${set[$i]}
		# shellcheck disable=SC2086
		say $t ./yes --align malloc --cpus 0,0 --bytes "$BYTES"
		# shellcheck disable=SC2086
		env $t ./yes --align malloc --cpus 0,0 --bytes "$BYTES" >"$TMPD/t$i" ||
			die "the run failed: $t ./yes --align malloc --cpus 0,0 --bytes $BYTES"
		grep '^# \(set\|warning\):' "$TMPD/t$i"
	done
	echo
	printf '%9s | %-18s | %-18s | %s\n' "" "A  default" "B  threshold 4096" "C  + top_pad=0"
	printf '%9s | %7s %10s | %7s %10s | %7s %10s\n' size "%page" GiB/s "%page" GiB/s "%page" GiB/s
	# Lines like "     4096 malloc: 0.39 GiB/s (address % page = 688)".
	awk 'FNR == 1 { f++ }
	     $2 == "malloc:" { s[$1] = 1; a[f, $1] = $NF; sub(/\)$/, "", a[f, $1]); g[f, $1] = $3
			       if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	     END { for (i = 1; i <= n; i++) { z = order[i]
			printf "%9s | %7s %10s | %7s %10s | %7s %10s\n", z, a[1, z], g[1, z],
			       a[2, z], g[2, z], a[3, z], g[3, z] } }' "$TMPD/t0" "$TMPD/t1" "$TMPD/t2" ||
		die "cannot read the runs' output"
	echo
	printf '%s\n' "Read it: %page is the buffer's address mod the page size ($(getconf PAGESIZE) bytes" \
		"here): where it starts in its page; 16 means its own mapping (page-aligned," \
		"after malloc's 16-byte header).  B lowers the mmap threshold to 4 KiB, yet" \
		"small buffers still come from the heap: glibc tries mmap only when the heap's" \
		"top chunk is too small, and the top is already big (top_pad, 128 KiB, is added" \
		"whenever the heap grows).  C removes that pad: from 4 KiB every buffer is" \
		"mapped.  No column gives a page-aligned buffer, and GiB/s follows size, not" \
		"%page."
}

strace_rows() {
	local size w r
	if ! strace_works; then echo "$prog: skipped: $STRACE_WHY"; return 0; fi
	for size in 4K 16K; do
		say "strace -f -c -e trace=read,write ./yes --size $size --align page --reps 1" \
			"--cpus 0,0 --bytes $BYTES"
		strace -f -c -e trace=read,write -o "$TMPD/$size.strace" ./yes --size "$size" \
			--align page --reps 1 --cpus 0,0 --bytes "$BYTES" >"$TMPD/$size.out" ||
			die "the run failed under strace: ./yes --size $size --bytes $BYTES"
		cat "$TMPD/$size.strace"
	done
	echo
	printf '%6s %12s %14s %12s\n' size "write calls" "bytes / size" "read calls"
	for size in 4K 16K; do
		w=$(strace_calls "$TMPD/$size.strace" write)
		r=$(strace_calls "$TMPD/$size.strace" read)
		printf '%6s %12s %14s %12s\n' "$size" "${w:-0}" \
			"$(awk -v b="$(awk '{ l = $0; sub(/^ +/, "", l) } l ~ /^bytes written:/ { print $3 }' \
				"$TMPD/$size.out")" -v s="${size%K}" 'BEGIN { printf "%d", b / (s * 1024) }')" \
			"${r:-0}"
	done
	echo
	echo "Read it: the writer makes one write() per buffer (bytes / size, plus a few for"
	echo "the report and the reader's tally); 16 KiB buffers need a quarter of the calls."
	echo "The reader's read() calls follow what the pipe holds at each wake-up, not the"
	echo "writer's size.  Under strace every call stops the program: the times are"
	echo "strace's."
	gnu_yes_writes
}

# The environment check once, at the top (./yes prints it with every table;
# the tables below drop it).  --env runs nothing: a run here drew its
# progress line on the terminal while awk, reading the pipe, printed the
# header onto the end of it.
./yes --env || die "./yes does not run"
case $MODE in
table) table ;;
tunables) tunables ;;
strace) strace_rows ;;
esac
