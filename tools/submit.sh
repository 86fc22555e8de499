#!/usr/bin/env bash
# tools/submit.sh - `make submit`: run every lab's graded steps and write
# ONE self-describing text file for a grader, submissions/<who>-<date>.txt.
#
#   make submit STUDENT=ada            (knobs: FRAMES SCALE VARIANCE_ITERS
#                                       COUNT_LARGE BYTES; OUT=path;
#                                       ANSWERS=sheet from make questions)
#   tools/grade.sh submissions/ada-*.txt
#
# The file: a header of `key: value` lines (who, when, the kit's version,
# the compiler and flags, the glibc the programs really ran with, kernel,
# CPU, virtualisation, page size, THP, the zero-page probe, every allocator
# setting inherited from the environment, the knobs), then one record per
# graded run:
#   @run STEP_ID
#   cmd: the exact command          env: what the step itself set
#   csv: the program's CSV header   csv: its row(s)
#   syscalls: brk=N mmap=N munmap=N        (runs under strace -c)
#   write: fd=N addr_mod_page=N calls=N bytes=N   (Lab 5, strace -e raw=write)
#   @end
# then a human-readable summary made from those records.  Every program runs
# directly with --csv: nothing here depends on a make target's human output.
#
# System calls per frame: each Lab 1 mode also runs under strace at 2 and at
# 4 frames.  The difference is exactly two steady-state frames' calls; the
# start-up calls (loader, libc, the environment check's probe) cancel, and
# their number depends on the glibc and loader, not on the lesson.  Lab 2's
# forced-mmap row does the same at 1 and at VARIANCE_ITERS iterations.
#
# make check runs this with MALLOC_LABS_STEPS=exercise: only the rows that
# grade an exercise (tools/grading/steps), a header line "steps: exercise"
# (the grader refuses such a file as a submission), a failing run recorded
# (exit: and its stderr's last line) instead of stopping, each run bounded
# by CHECK_TIMEOUT seconds of CPU (default 20; an honest run takes a few)
# and five times that of wall time (a run that blocks), the whole of it by
# CHECK_WALL seconds (default thirty times CHECK_TIMEOUT), each run not
# under strace made
# through tools/grading/wait4run (its "wait4:" line: the process's faults
# as the kernel counted them), and no summary for a person.
#
# Any run that fails stops everything with the reason and exit 1; the file
# is written as NAME.XXXXXX.part (this run's own) and linked to NAME only
# when complete, never over an existing file.  Progress goes to
# stderr, and only when stderr is a terminal.  The last line on stdout is
# `submission: PATH`; the line on stderr before it says to upload that
# file alone, and names this student's older files beside it, if any.
set -u -o pipefail
case ${ANSWERS:-} in ''|/*) ;; *) ANSWERS=$PWD/$ANSWERS ;; esac   # before the cd
cd "$(dirname "$0")/.." || exit 1
PROG=submit prog=submit
STEPS_KIND=graded
case ${MALLOC_LABS_STEPS:-} in
'') ;;
exercise) STEPS_KIND=exercise PROG=check prog=check ;;
*) echo "$PROG: MALLOC_LABS_STEPS is exercise or unset, not '${MALLOC_LABS_STEPS}'" >&2; exit 2 ;;
esac
CHECK_TIMEOUT=${CHECK_TIMEOUT:-20}
. tools/lib/lib.sh || exit 1        # strace_works, strace_calls, lab_programs
need_number CHECK_TIMEOUT "$CHECK_TIMEOUT" 1 3600
CHECK_WALL=${CHECK_WALL:-$((CHECK_TIMEOUT * 30))}
need_number CHECK_WALL "$CHECK_WALL" 1 86400
# A limit of CPU time, not of wall time, so that a loaded machine scores
# what an idle one does; the wall limit catches a run that blocks.
WALL_TIMEOUT=$((CHECK_TIMEOUT * 5))
# over_limit RC: why a run that exited RC was stopped, or nothing: 124 is
# timeout's (wall), 152 SIGXCPU's and 137 SIGKILL's (ulimit -t, or the
# sandbox's CPU limit; SIGKILL is also what a run out of memory may get).
over_limit() {
	case $1 in
	124) if [ "${2:-$WALL_TIMEOUT}" -lt "$WALL_TIMEOUT" ]; then
		echo " (make check's whole run was out of time: ${RUN_WALL} s of wall time)"
	     else echo " (over ${WALL_TIMEOUT} s of wall time: CHECK_TIMEOUT x 5)"; fi ;;
	152|137) echo " (stopped: over CHECK_TIMEOUT=$CHECK_TIMEOUT s of CPU, or killed)" ;;
	esac
}

usage() {
	echo "usage: tools/submit.sh   (environment: STUDENT FRAMES SCALE VARIANCE_ITERS COUNT_LARGE BYTES OUT ANSWERS)" >&2
	exit 2
}
case ${1:-} in
-h|--help) echo "usage: tools/submit.sh   (environment: STUDENT FRAMES SCALE VARIANCE_ITERS COUNT_LARGE BYTES OUT ANSWERS)"; exit 0 ;;
'') ;;
*) echo "$PROG: unexpected argument '$1'" >&2; usage ;;
esac

# The knobs.  Defaults: the course's (tools/grading/knobs, also the
# grader's minimums); the kit's keep the whole run near a minute of CPU on
# its 2-vCPU VM.  The graded counts scale with them, so any values grade.
knob_default() { awk -v k="$1" '$1 == k { print $2; exit }' tools/grading/knobs; }
FRAMES=${FRAMES:-$(knob_default FRAMES)}
SCALE=${SCALE:-$(knob_default SCALE)}
VARIANCE_ITERS=${VARIANCE_ITERS:-$(knob_default VARIANCE_ITERS)}
COUNT_LARGE=${COUNT_LARGE:-$(knob_default COUNT_LARGE)}
BYTES=${BYTES:-$(knob_default BYTES)}
whole() { # NAME VALUE MIN: a whole number >= MIN, or exit 2
	# No leading zero: FRAMES=08 would run "--frames 08" while the grader
	# rebuilds every command as "--frames 8".
	case $2 in ''|*[!0-9]*|0?*) echo "$PROG: $1 wants a whole number (no leading zero), not '$2'" >&2; usage ;; esac
	[ "$2" -ge "$3" ] 2>/dev/null || { echo "$PROG: $1 must be at least $3, not '$2'" >&2; usage; }
}
whole FRAMES "$FRAMES" 1
whole SCALE "$SCALE" 1
whole VARIANCE_ITERS "$VARIANCE_ITERS" 2
whole COUNT_LARGE "$COUNT_LARGE" 1
# over a cap of the grader's: a file it would refuse (make submit stops
# sooner, in the Makefile; this is the door without make)
for k in FRAMES SCALE VARIANCE_ITERS COUNT_LARGE; do
	over=$(knob_over_cap "$k" "${!k}")
	[ -z "$over" ] || { echo "$PROG: $over" >&2; usage; }
done
case $BYTES in
[1-9]*[KMG]|[1-9]*) bytes_n=${BYTES%[KMG]}
	case $bytes_n in *[!0-9]*) echo "$PROG: BYTES wants a size like 16M, not '$BYTES'" >&2; usage ;; esac ;;
*) echo "$PROG: BYTES wants a size like 16M, not '$BYTES'" >&2; usage ;;
esac
case $BYTES in
*K) bytes_n=$(( bytes_n << 10 )) ;; *M) bytes_n=$(( bytes_n << 20 )) ;; *G) bytes_n=$(( bytes_n << 30 )) ;;
esac

# A name becomes a file name and a CSV field: a letter or digit first (no
# hidden ".name", no "-name" read as an option), then letters, digits and
# @._- only, at most 64.  Shown back as printable characters only.
# The default, login@host, keeps only those characters: a minimal VM's host
# name "(none)" becomes "none" instead of a name submit refuses.
[ -n "${STUDENT:-}" ] ||
	STUDENT=$(printf '%s@%s' "$(id -un 2>/dev/null || echo student)" "$(uname -n)" | tr -cd 'A-Za-z0-9@._-' | sed 's/^[^A-Za-z0-9]*//' | cut -c1-64)
case $STUDENT in
[A-Za-z0-9]*) ;;
*) echo "$PROG: STUDENT must start with a letter or digit, not '$(shown "$STUDENT")'" >&2; usage ;;
esac
case $STUDENT in *[!A-Za-z0-9@._-]*)
	echo "$PROG: STUDENT may hold letters, digits and @._- only, not '$(shown "$STUDENT")'" >&2; usage ;;
esac
[ ${#STUDENT} -le 64 ] || { echo "$PROG: STUDENT is longer than 64 characters" >&2; usage; }

PROGRAMS=$(lab_programs) || exit 1         # tools/labs/registry
for p in $PROGRAMS; do
	[ -x "./$p" ] || { echo "$PROG: ./$p is not built; run make (make submit builds it)" >&2; exit 1; }
done
[ $STEPS_KIND = graded ] || [ -x tools/grading/wait4run ] ||
	{ echo "$PROG: tools/grading/wait4run is not built (make check builds it)" >&2; exit 1; }

# Inherited allocator settings would make most counts incomparable: say so
# now, not at grading.  ALLOW_ENV=1 submits anyway (the grader marks ENV).
polluted=$(inherited_settings | cut -c1-60 | tr '\n' ' ')   # tools/lib/lib.sh
if [ -n "$polluted" ] && [ "${ALLOW_ENV:-0}" != 1 ]; then
	echo "$PROG: the environment sets ${polluted% }: unset it (or ALLOW_ENV=1 to submit anyway)" >&2
	exit 2
fi

# The compiler line must be the binaries' own: each ELF file names its
# compiler in .comment ("GCC: (...) 12.2.0", or "clang version 14...") and
# gcc with -g records its flags (DW_AT_producer, "GNU C11 12.2.0 ... -O2").
# Read as printable strings of the file, so no binutils are needed.
bin_strings() { tr -c '[:print:]' '\n' <"$1" | grep -E '^(GCC: \(|GNU C[0-9]* |.*clang version [0-9])' | sort -u; }
bin_compiler() { # FILE: "clang VERSION" or "gcc VERSION"
	bin_strings "$1" | awk '/clang version/ { sub(/.*clang version /, ""); c = "clang " $1 }
		/^GCC: / && !g { g = "gcc " $NF } END { print (c != "" ? c : g != "" ? g : "unknown") }'
}
bin_opt() { # FILE: the last -O flag gcc recorded, "-O0" if none, or "unknown"
	bin_strings "$1" | awk '/^GNU C/ { o = "-O0"; for (i = 1; i <= NF; i++) if ($i ~ /^-O/) o = $i }
		END { print (o == "" ? "unknown" : o) }'
}
cc_name=${CC:-cc}
cc_line=$($cc_name --version 2>/dev/null | head -n 1)
case $cc_line in *clang*) cc_fam=clang ;; '') cc_fam=unknown ;; *) cc_fam=gcc ;; esac
cc_ver=$(printf '%s\n' "$cc_line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+/) v = $i; print v; exit }')
[ "$cc_fam" = clang ] && cc_ver=$(printf '%s\n' "$cc_line" | sed -n 's/.*clang version \([^ ]*\).*/\1/p')
want_opt=$(printf '%s\n' "${CFLAGS:-}" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^-O/) o = $i } END { print (o == "" ? "-O0" : o) }')
bin_cc=$(bin_compiler frames); bin_o=$(bin_opt frames)
for p in $PROGRAMS; do
	c=$(bin_compiler "$p"); o=$(bin_opt "$p")
	if [ "$c" != "$bin_cc" ] || [ "$o" != "$bin_o" ]; then
		echo "$PROG: ./$p was built by $c $o but ./frames by $bin_cc $bin_o: run make clean, then make submit" >&2
		exit 1
	fi
done
if [ "$bin_cc" != "$cc_fam $cc_ver" ] || { [ -n "${CFLAGS:-}" ] && [ "$bin_o" != unknown ] && [ "$bin_o" != "$want_opt" ]; }; then
	echo "$PROG: the programs were built by $bin_cc $bin_o, not by CC=$cc_name ($cc_fam $cc_ver) ${CFLAGS:+$want_opt}: run make clean, then make submit with the CC and OPT you mean" >&2
	exit 1
fi

# An answer sheet (make questions STUDENT=NAME, filled in): it must be this
# student's, with the parameters derived from this name.  Its answers go
# into the file; the steps at the student's parameters run too.
QKNOBS='' questions=0
if [ -n "${ANSWERS:-}" ]; then
	[ -f "$ANSWERS" ] && [ -r "$ANSWERS" ] || { echo "$PROG: cannot read ANSWERS='$(shown "$ANSWERS")'" >&2; exit 2; }
	QKNOBS=$(tools/grading/questions.sh params "$STUDENT") || exit 2
	sheet_bad=$(awk -v who="$STUDENT" -v knobs="$QKNOBS" '
		{ sub(/\r$/, "") }
		/^answers: / { fmt = $0 } /^student: / { st = substr($0, 10) }
		/^q_[a-z0-9]+: / { k = toupper(substr($1, 1, length($1) - 1)); got = got " " k "=" $2 }
		END { if (fmt != "answers: malloc-labs-answers 1") { print "not an answer sheet (make questions STUDENT=" who ")"; exit }
		      if (st != who) { print "the sheet is for \"" st "\", not " who; exit }
		      if (substr(got, 2) != knobs) print "its parameters are not those of " who " (" knobs ")" }' "$ANSWERS")
	[ -z "$sheet_bad" ] || { echo "$PROG: ANSWERS: $sheet_bad" >&2; exit 2; }
	questions=1
fi

STAMP=$(date -u '+%Y%m%d-%H%M%S')
default_out=0; [ -n "${OUT:-}" ] || default_out=1
OUT=${OUT:-submissions/$STUDENT-$STAMP.txt}
mkdir -p "$(dirname "$OUT")" || exit 1
# Never over another submission: refuse now, and again at the end (below).
[ ! -e "$OUT" ] || { echo "$PROG: $OUT exists: not overwriting a submission (remove it, or choose OUT=)" >&2; exit 2; }
# A .part of this run's own (two runs with the same OUT never share one).
PART=$(mktemp --suffix=.part "$OUT.XXXXXX") || exit 1
WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"; rm -f "$PART"' EXIT
# Someone else's code (tools/grading/recheck.sh): CHECK_SANDBOX, the path
# of tools/grading/sandbox, runs each of make check's programs with BOX,
# a private tmpfs of 64 MiB, for its files, and sees of the kit only
# RUNDIR: copies of the programs, read-only (not the grader, its key or
# the solutions).  What measures it stays outside: wait4run, and strace,
# whose log the code cannot reach (it counts the sandbox's own calls too,
# the same in every run of a step: only differences are graded).
box=() RUNDIR=$PWD
new_box() { :; }
if [ $STEPS_KIND = exercise ] && [ -n "${CHECK_SANDBOX:-}" ]; then
	BOX=$WORK/box RUNDIR=$WORK/run
	chmod 711 "$WORK" && mkdir -m 755 "$RUNDIR" && cp $PROGRAMS "$RUNDIR/" || exit 1
	box=("$CHECK_SANDBOX" --dir "$BOX" --tmpfs 64M --ro "$RUNDIR" --cpu "$CHECK_TIMEOUT" --)
	new_box() { rm -rf "$BOX" && mkdir -m 700 "$BOX" || exit 1; }
fi
trap 'exit 130' INT TERM

# --------------------------------------------------------------- the header
# One fact per line.  The glibc and the zero-page probe come from the
# programs themselves (frames --csv), not from ldd: the running glibc is the
# one that decided the counts.
new_box
(cd "$RUNDIR" && exec ${box[@]+"${box[@]}"} ./frames --csv --frames 1 --size 1M) </dev/null >"$WORK/probe.csv" 2>"$WORK/probe.err" ||
	{ echo "$PROG: ./frames does not run: $(head -c 300 "$WORK/probe.err")" >&2; exit 1; }
col() { tools/lib/csvget "$1" "$WORK/probe.csv"; }
page=$(col page_bytes)
case $page in ''|*[!0-9]*|0) echo "$PROG: ./frames reported no page size" >&2; exit 1 ;; esac
# The alignment of the libc's loadable segments (the largest PT_LOAD
# p_align of its ELF program headers, read with od): where it exceeds the
# page size the loader maps more than it needs and unmaps the pieces at
# start-up, 0 to 2 munmap calls a run (the grader models them).
elf_num() { od -An -tu"$3" -j "$2" -N "$3" "$1" 2>/dev/null | tr -d ' '; }
load_align() { # ELF FILE: the largest PT_LOAD p_align, or "unknown"
	local f=$1 cls off esz num i a best=0 w
	cls=$(elf_num "$f" 4 1)
	case $cls in
	2) off=$(elf_num "$f" 32 8) esz=$(elf_num "$f" 54 2) num=$(elf_num "$f" 56 2) w=8 ;;
	1) off=$(elf_num "$f" 28 4) esz=$(elf_num "$f" 42 2) num=$(elf_num "$f" 44 2) w=4 ;;
	*) echo unknown; return ;;
	esac
	case $off$esz$num in ''|*[!0-9]*) echo unknown; return ;; esac
	for ((i = 0; i < num && i < 64; i++)); do
		[ "$(elf_num "$f" $((off + i * esz)) 4)" = 1 ] || continue
		a=$(elf_num "$f" $((off + i * esz + (w == 8 ? 48 : 28))) "$w")
		[ -n "$a" ] && [ "$a" -gt "$best" ] && best=$a
	done
	[ "$best" -gt 0 ] && echo "$best" || echo unknown
}
# The kit: a git revision, the commit a git archive (a ZIP download)
# recorded, or src-HASH without either; kit_sources, the hash of the
# programs' sources as they are here, lets the grader tell whether they
# are that revision's (tools/lib/kitversion).  Format 3 makes that line
# mandatory: the grader refuses a file without it.
kit=$(tools/lib/kitversion 2>/dev/null) || kit=
[ -n "$kit" ] || kit="unknown (not a checkout)"
kit_sources=$(tools/lib/kitversion --sources 2>/dev/null) ||
	die "cannot hash the programs' sources (tools/lib/kitversion --sources)"
# The programs stamp the revision they were built at into every row; the
# grader holds the rows to the header, so a build older than the checkout
# is refused here (make submit rebuilds it), not marked at grading.
built_kit=$(col kit)
if [ -n "$built_kit" ] && [ "$built_kit" != unknown ] && [ "$kit" != "unknown (not a checkout)" ] &&
   [ "$built_kit" != "$(printf %s "$kit" | tr -cd 'A-Za-z0-9._+-')" ]; then
	echo "$PROG: the programs were built at kit $built_kit, the checkout is $kit: run make (make submit rebuilds them)" >&2
	exit 1
fi
compiler=$cc_line
# Which of the programs' sources differ from that revision (a -dirty kit
# may only have edited notes): the grader marks a changed source ENV.
changed=$(git status --porcelain -- '*.c' 'tools/*.h' 2>/dev/null | awk '{ print $NF }' | tr '\n' ' ')
changed=${changed% }
git rev-parse --git-dir >/dev/null 2>&1 || changed="(unknown: no git; see kit_sources)"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
if command -v systemd-detect-virt >/dev/null 2>&1; then
	virt="$(systemd-detect-virt 2>/dev/null) (systemd-detect-virt)"
elif grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
	virt="a hypervisor (cpuinfo flag)"
else
	virt="none seen (no hypervisor flag)"
fi
# The ELF class of the binary that ran: byte 5 is 1 for 32-bit, 2 for 64-bit.
bits=$(od -An -tu1 -j4 -N1 frames 2>/dev/null | tr -d ' ')
case $bits in 1) bits=32 ;; 2) bits=64 ;; *) bits=unknown ;; esac
menv=$(env | grep '^MALLOC_' | grep -v '^MALLOC_LABS_' | sort | tr '\n' ' ' | sed 's/ $//')
if strace_works; then
	have_strace=1; strace_v=$(strace -V 2>/dev/null | head -n 1)
else
	have_strace=0; strace_v="none ($STRACE_WHY): system-call checks are skipped"
fi

{
	echo "# malloc-labs submission: check it with tools/grade.sh FILE"
	echo "format: malloc-labs-submission 3"
	echo "student: $STUDENT"
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "kit: $kit"
	echo "sources_changed: ${changed:-(none)}"
	echo "kit_sources: $kit_sources"
	echo "compiler: ${compiler:-unknown ($cc_name)}"
	echo "cflags: ${CFLAGS:-(not passed; the Makefile default is -std=gnu11 -Wall -Wextra -O2 -g)}"
	echo "binary_bits: $bits"
	echo "binary_compiler: $bin_cc $bin_o (read from ./frames)"
	echo "glibc: $(col glibc)"
	echo "kernel: $(uname -srm)"
	echo "cpu: ${cpu:-unknown}"
	echo "cpus: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo unknown)"
	echo "virtualisation: $virt"
	echo "page_bytes: $(col page_bytes)"
	echo "thp: $(col thp)"
	echo "mthp: $(col mthp)"
	echo "read_faults_per_page: $(col read_faults_per_page)"
	echo "glibc_tunables: ${GLIBC_TUNABLES-(unset)}"
	echo "malloc_env: ${menv:-(none)}"
	echo "ld_preload: ${LD_PRELOAD-(unset)}"
	echo "malloc_owner: $(col malloc_owner)"
	echo "libc_load_align: $(load_align "$(col malloc_owner)")"
	echo "strace: $strace_v"
	echo "frames: $FRAMES"
	echo "scale: $SCALE"
	echo "variance_iters: $VARIANCE_ITERS"
	echo "count_large: $COUNT_LARGE"
	echo "bytes: $BYTES"
	echo "bytes_per_run: $bytes_n"
	[ $questions = 1 ] && echo "questions: $QKNOBS"
	[ $STEPS_KIND = exercise ] && echo "steps: exercise (make check: not a submission)"
	echo
	if [ $questions = 1 ]; then
		# the answers as written: key: value, printable, at most 80 characters
		echo "@answers"
		awk '{ sub(/\r$/, "") } /^[a-z0-9_]+:/ && !/^(answers|student|q_[a-z0-9]+):/ {
			k = substr($0, 1, index($0, ":") - 1); v = substr($0, length(k) + 2)
			gsub(/[^ -~]/, "?", v); sub(/^ +/, "", v); sub(/ +$/, "", v)
			print k ": " substr(v, 1, 80) }' "$ANSWERS"
		echo "@end"
		echo
	fi
} >"$PART" || exit 1

# ---------------------------------------------------------------- the steps
# tools/grading/steps declares them; tools/grading/steps.awk expands each into its records
# (ID|HOW|ENV|COMMAND), exactly as tools/grading/grade.awk rebuilds them.
steps() {
	awk -v KIND=$STEPS_KIND -v STRACE=$have_strace -v QUESTIONS=$questions -v KNOBS="FRAMES=$FRAMES SCALE=$SCALE \
VARIANCE_ITERS=$VARIANCE_ITERS COUNT_LARGE=$COUNT_LARGE BYTES=$BYTES $QKNOBS" \
		-f tools/grading/steps.awk tools/grading/steps
}
# The step list is read whole before anything runs, and no run has it
# open: a run's standard input is /dev/null.
steps >"$WORK/steps" && mapfile -t step_lines <"$WORK/steps" && rm -f "$WORK/steps" || exit 1
total=${#step_lines[@]}
start=$SECONDS
tty=0; [ -t 2 ] && tty=1

# summarise_writes LOG: one "write:" line per (process, fd, buffer address)
# that wrote, the address mod the page size (the kit's yes reports it so):
# its last four hex digits hold it for every page up to 64 KiB.
summarise_writes() {
	awk -v page="$page" '
	function hex(s,    i, v) { s = tolower(s); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	match($0, /write\(0x[0-9a-fA-F]+, 0x[0-9a-fA-F]+, 0x[0-9a-fA-F]+/) {
		split(substr($0, RSTART + 6, RLENGTH - 6), a, /, /)
		fd = hex(substr(a[1], 3)); ad = substr(a[2], 3); len = hex(substr(a[3], 3))
		key = $1 " " fd " " ad
		if (!(key in calls)) { order[++n] = key; mod[key] = hex(substr(ad, length(ad) - 3)) % page; fdof[key] = fd }
		calls[key]++; bytes[key] += len
	}
	END { for (i = 1; i <= n; i++) { k = order[i]
		printf "write: fd=%d addr_mod_page=%d calls=%d bytes=%.0f\n", fdof[k], mod[k], calls[k], bytes[k] } }' "$1"
}

# A step is data: its kind one of three, each environment word NAME=VALUE
# (env would run the first word that is not), and its program one of the
# kit's, ./NAME.
bad_step() { echo "$PROG: a step the kit does not run: $(shown "$1"): $2" >&2; exit 2; }
# make check as a whole: at most CHECK_WALL seconds of wall time (an
# honest run takes a few); a run that would start later is recorded as
# stopped, not run, so a re-run that blocks still ends with a grade.
RUN_WALL=$CHECK_WALL
programs=$(echo $PROGRAMS)
i=0
for line in "${step_lines[@]}"; do
	IFS='|' read -r id kind envs args <<<"$line"
	i=$((i + 1))
	[ $tty = 1 ] && printf '\r\033[K%s: step %d of %d: %s (%d s so far)' "$PROG" "$i" "$total" "$id" $((SECONDS - start)) >&2
	envv=(); [ "$envs" = - ] || read -r -a envv <<<"$envs"
	read -r -a argv <<<"$args"
	for w in ${envv[@]+"${envv[@]}"}; do
		[[ $w =~ ^[A-Z][A-Z0-9_]*=[[:graph:]]*$ ]] || bad_step "$line" "'$w' is not NAME=VALUE"
	done
	[[ " $programs " == *" ${argv[0]#./} "* && ${argv[0]} == ./* ]] ||
		bad_step "$line" "its program is not one of the kit's"
	case $kind in
	run) trace=() ;;
	sc)  trace=(strace -f -c -e trace=brk,mmap,munmap -o "$WORK/sc.log") ;;
	wr)  trace=(strace -f -e trace=write -e raw=write -o "$WORK/wr.log") ;;
	*)   bad_step "$line" "no kind '$kind'" ;;
	esac
	cmd=(${trace[@]+"${trace[@]}"} "${argv[@]}")
	t0=$SECONDS
	if [ $STEPS_KIND = exercise ]; then
		# The student's code may crash or hang: the run is recorded as it
		# ended, and the grader scores what it printed.  A run that is
		# not strace's goes through tools/grading/wait4run: the faults
		# the kernel charged to the whole process, seen from outside it
		# (wait4:), which the grader holds the program's own counts to.
		# A file it writes, its output too, stops at 16 MiB (ulimit -f:
		# KiB); the record keeps the first 64 KiB of its output.
		rc=0 outside=() wall=$((start + RUN_WALL - SECONDS))
		[ $wall -lt $WALL_TIMEOUT ] || wall=$WALL_TIMEOUT
		rm -f "$WORK/wait4" "$WORK/sc.log" "$WORK/wr.log"
		: >"$WORK/out" && : >"$WORK/err" || exit 1
		new_box
		[ "$kind" = run ] && outside=("$PWD/tools/grading/wait4run" --report "$WORK/wait4")
		if [ $wall -le 0 ]; then
			rc=124
		else
			(cd "$RUNDIR" && ulimit -f 16384 -t "$CHECK_TIMEOUT" && exec timeout -k 5 "$wall" \
				env ${envv[@]+"${envv[@]}"} ${outside[@]+"${outside[@]}"} ${trace[@]+"${trace[@]}"} \
				${box[@]+"${box[@]}"} "${argv[@]}") </dev/null >"$WORK/out" 2>"$WORK/err" || rc=$?
		fi
		{
			echo "@run $id"
			echo "cmd: ${cmd[*]}"
			echo "env: ${envs/#-/(none)}"
			echo "exit: $rc$(over_limit $rc $wall)"
			[ -s "$WORK/wait4" ] && head -n 1 "$WORK/wait4"
			[ $rc = 0 ] || echo "stderr: $(grep -v '^$' "$WORK/err" | tail -n 1 | cut -c1-200)"
			head -c 65536 "$WORK/out" | sed 's/^/csv: /'
			# (a run that failed has no counts: 0 calls is not what it made)
			if [ "$kind" = sc ] && [ $rc = 0 ]; then
				printf 'syscalls:'
				for s in brk mmap munmap; do printf ' %s=%s' $s "$(strace_calls "$WORK/sc.log" $s)"; done
				echo
			fi
			[ "$kind" = wr ] && [ $rc = 0 ] && summarise_writes "$WORK/wr.log"
			echo "@end"
			echo
		} >>"$PART" || exit 1
		continue
	fi
	if ! env ${envv[@]+"${envv[@]}"} "${cmd[@]}" >"$WORK/out" 2>"$WORK/err" </dev/null; then
		[ $tty = 1 ] && printf '\r\033[K' >&2
		echo "$PROG: step $id failed: ${envv[*]} ${cmd[*]}" >&2
		head -c 600 "$WORK/err" >&2
		echo "$PROG: no submission written" >&2
		exit 1
	fi
	if ! grep -q , "$WORK/out"; then
		echo "$PROG: step $id printed no CSV: ${cmd[*]}" >&2
		exit 1
	fi
	{
		echo "@run $id"
		echo "cmd: ${cmd[*]}"
		echo "env: ${envs/#-/(none)}"
		echo "wall_s: $((SECONDS - t0)) (not graded)"
		sed 's/^/csv: /' "$WORK/out"
		if [ "$kind" = sc ]; then
			printf 'syscalls:'
			for s in brk mmap munmap; do
				printf ' %s=%s' $s "$(strace_calls "$WORK/sc.log" $s)"
			done
			echo
		fi
		[ "$kind" = wr ] && summarise_writes "$WORK/wr.log"
		echo "@end"
		echo
	} >>"$PART" || exit 1
done
[ $tty = 1 ] && printf '\r\033[K' >&2

[ $STEPS_KIND = exercise ] || {
# ------------------------------------------------------ for a person to read
# Tables made from the records above (the same numbers, laid out), and the
# environment check as the programs print it.  Times: recorded, not graded.
{
	echo "@human"
	echo "The environment check, as every program prints it:"
	./frames --env
	echo
	cat >"$WORK/human.awk" <<-'AWK' || exit 1
	/^@run / { id = $2; nh = 0; next }
	/^csv: / { line = substr($0, 6)
		if (!nh) { nh = csv_split(line, h); next }
		csv_split(line, f); for (k = 1; k <= nh; k++) v[h[k]] = f[k]
		if (id ~ /^lab[14]\./ && id !~ /strace/) {
			if (!t[substr(id, 1, 4)]++) printf "%s", (id ~ /^lab4/ ? "\n" : "")
			if (t[substr(id, 1, 4)] == 1) printf "%-22s %7s %12s %10s %10s %9s\n", "frames step", "frames", "minor faults", "corrupt", "from mmap", "time (s)"
			printf "%-22s %7s %12s %10s %10s %9s\n", id, v["frames"], v["minor_faults"], v["corrupt_pixels"], v["mmap_frames"], v["time_s"]
		} else if (id ~ /^lab2\.all/) {
			if (!t2++) printf "\n%-30s %9s %9s %10s %6s\n", "malloc_variance row", "p50 ns", "p99.9 ns", "faults/it", "via"
			printf "%-30s %9s %9s %10s %6s\n", v["label"], v["p50_ns"], v["p999_ns"], v["faults_per_iter"], v["via"]
		} else if (id ~ /^lab3\./) {
			if (!t3++) printf "\n%-12s %9s %12s %9s %14s %9s\n", "threads", "requests", "minor faults", "mmapped", "mmapped pages", "time (s)"
			printf "%-12s %9s %12s %9s %14s %9s\n", id, v["requests"], v["minor_faults"], v["mmapped"], v["mmapped_pages"], v["time_s"]
		} else if (id ~ /^lab5\./) {
			if (!t5++) printf "\n%-20s %9s %13s %8s %8s\n", "yes run", "writes", "addr % 4096", "GiB/s", "sleeps"
			printf "%-20s %9s %13s %8s %8s\n", id, v["writes"], (("addr_mod_page" in v) ? v["addr_mod_page"] : v["addr_mod_4096"]), v["gib_per_s"], v["writer_sleeps"] + v["reader_sleeps"]
		}
	}
	END { print "\n(times and GiB/s are measurements: recorded, not graded)" }
	AWK
	awk -f tools/lib/csv.awk -f "$WORK/human.awk" "$PART" || exit 1
	echo "@end"
} >"$WORK/human" && cat "$WORK/human" >>"$PART" || exit 1
}

# ln, not mv: it refuses a name that now exists (another submit finished
# first with the same name).  The default name then gets -2, -3...; an
# OUT given by hand is refused, and this run's file is kept as the .part.
chmod 644 "$PART" || exit 1
final=$OUT n=1
until ln "$PART" "$final" 2>/dev/null ||
      { [ ! -e "$final" ] && mv -n "$PART" "$final" && [ ! -e "$PART" ]; }; do   # no hard links here
	n=$((n + 1))
	if [ $default_out = 0 ] || [ $n -gt 9 ]; then
		trap 'rm -rf "$WORK"' EXIT
		echo "$PROG: $final appeared while this ran (another make submit?): this run is kept as $PART" >&2
		exit 1
	fi
	final=${OUT%.txt}-$n.txt
done
rm -f "$PART"
trap 'rm -rf "$WORK"' EXIT
echo "$PROG: $total runs in $((SECONDS - start)) s" >&2
# A second make submit leaves a second file beside the first: name the
# older ones, so only this one is uploaded (a course grades one a student).
# They are named as this one is (STUDENT-DATE.txt: only those are read, not
# a whole class's folder under make rerun) and are this student's
# submissions (an answer sheet has a student: line too).  make check's
# record is no hand-in.
if [ $STEPS_KIND = graded ]; then
	dir=$(dirname "$final") older=
	mapfile -t mine < <(grep -lxF "student: $STUDENT" "$dir/$STUDENT"-*.txt 2>/dev/null | grep -vxF "$dir/${final##*/}")
	[ ${#mine[@]} = 0 ] || older=$(grep -l '^format: malloc-labs-submission ' "${mine[@]}" 2>/dev/null)
	if [ -n "$older" ]; then
		echo "$PROG: older hand-ins of this student, not to upload:" >&2
		printf '%s\n' "$older" | LC_ALL=C tr -c '[:print:]\n' '?' | sed 's/^/  /' >&2
		echo "$PROG: upload this one, the newest, and only it:" >&2
	else
		echo "$PROG: upload this one file$([ $questions = 1 ] && echo " (your answers are in it)"):" >&2
	fi
fi
# A stdout that cannot be written (full disk, closed pipe) is a failure.
echo "submission: $final" || { echo "$PROG: cannot write to standard output; the file is $final" >&2; exit 1; }
