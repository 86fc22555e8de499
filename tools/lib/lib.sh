# tools/lib/lib.sh - shell helpers shared by the kit's scripts and by
# tests/lib.sh (sourced, not run).  A script sets `prog` (its name in
# messages) before it calls die, bad_usage or need_number, and runs under
# `set -u -o pipefail`: nothing here reads an unset variable or ends a pipe
# early.  Each function's comment is its contract; keep callers to it.

# die MESSAGE: a failure of the run, not of the user's input: "prog:
# MESSAGE" on stderr, exit 1.
die() { echo "$prog: $*" >&2; exit 1; }

# shown TEXT: TEXT safe to print in a message (a name, a value typed, a
# line of a student's file): each byte that is not printable ASCII is a ?.
shown() { printf '%s' "$1" | LC_ALL=C tr -c '[:print:]' '?'; }

# bad_usage MESSAGE: the user's input is wrong: "prog: MESSAGE", then the
# script's usage on stderr, exit 2.  The script defines usage(), which
# prints its usage text (first line "usage: ...") on stdout.
bad_usage() {
	echo "$prog: $1" >&2
	usage >&2
	exit 2
}

# need_number NAME VALUE MIN MAX: a knob (an environment variable or an
# argument) must be a whole number from MIN to MAX: digits only, no sign,
# no blank, no leading zero, at most 18 digits (shell arithmetic holds
# them).  Otherwise "prog: NAME wants a whole number from MIN to MAX, not
# 'VALUE'" on stderr and exit 2, before anything has run.
need_number() {
	[[ $2 =~ ^(0|[1-9][0-9]{0,17})$ ]] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && return 0
	echo "$prog: $1 wants a whole number from $3 to $4, not '$2'" >&2
	exit 2
}
# need_count NAME VALUE MAX: need_number NAME VALUE 1 MAX (the older name).
need_count() { need_number "$1" "$2" 1 "$3"; }

# knob NAME DEFAULT MIN MAX: the knob in the environment variable NAME,
# DEFAULT when it is unset or empty, checked by need_number; NAME is set to
# the value used.
knob() {
	local v=${!1:-$2}
	need_number "$1" "$v" "$3" "$4"
	printf -v "$1" '%s' "$v"
}

# lab_knobs ID [MODE]: the knobs of lab ID's driver run in MODE, as
# tools/labs/knobs gives them (ID-MODE's line for a knob, else ID's): each
# the environment leaves empty is set to its default (to "" when it has
# none: the driver says what then), and each value is checked against its
# range.  One out of it: "prog: NAME wants ..., not 'VALUE'" on stderr
# and exit 2, before anything has run.  The knobs' defaults and ranges are
# written there only: make checks the same lines (tools/lib/knobs.awk).
lab_knobs() {
	local out rc name value
	out=$(awk -v KEYS="${2:+$1-$2 }$1" -f tools/lib/knobs.awk tools/labs/knobs)
	rc=$?
	if [ "$rc" -eq 2 ]; then echo "$prog: $out" >&2; exit 2; fi
	[ "$rc" -eq 0 ] || die "tools/labs/knobs cannot be read"
	while read -r name value; do
		[ -z "$name" ] || printf -v "$name" '%s' "$value"
	done <<<"$out"
}

# lab_default ID NAME: the knob NAME's default on lab ID's line of
# tools/labs/knobs, for a driver that leaves an argument out of the
# command it shows when it is the program's own default, which that line
# repeats (tests/registry.sh holds them equal).
lab_default() { awk -v l="$1" -v n="$2" '$1 == l && $2 == n { print $3 }' tools/labs/knobs; }
# knob_over_cap NAME VALUE: when VALUE is a whole number over the grader's
# cap on knob NAME (a "cap NAME N" line of tools/grading/knobs, read from
# the kit's top directory), one line saying so on stdout; nothing when it
# is not (no cap, or VALUE no number: its own check says so).  make submit
# and make check stop on it before anything runs: the grader would refuse
# the file.
knob_over_cap() {
	local cap
	cap=$(awk -v k="$1" '$1 == "cap" && $2 == k { print $3; exit }' tools/grading/knobs 2>/dev/null)
	[[ $cap =~ ^[0-9]{1,18}$ && $2 =~ ^[0-9]{1,18}$ ]] || return 0
	[ "$2" -le "$cap" ] || echo "$1 $2 is over the grader's cap $cap (cap $1, tools/grading/knobs)"
}

# from_caller NAME...: each variable NAME, a path the user typed relative
# to the directory the script was started in (caller, which the script
# sets to $PWD before its cd to the kit), made absolute; an empty or
# absolute path is left as it is.
from_caller() {
	local v
	for v in "$@"; do
		case ${!v} in ''|/*) ;; *) printf -v "$v" '%s/%s' "$caller" "${!v}" ;; esac
	done
}

# need_built PROGRAM...: each ./PROGRAM (run from the kit's top directory)
# is built, or die naming the make command that builds it.
need_built() {
	local p
	for p in "$@"; do [ -x "./$p" ] || die "./$p is not built; run make $p"; done
}

# scratch_dir: TMPD, a new temporary directory, removed when the script
# exits (this sets the script's EXIT trap); die when none can be made.
scratch_dir() {
	TMPD=$(mktemp -d) || die "cannot make a temporary directory (set TMPDIR)"
	trap 'rm -rf "$TMPD"' EXIT
}

# strace_works [STRACE]: whether STRACE (default strace) is installed and
# may trace here (ptrace can be denied in containers).  Returns 0 if so;
# else 1, with the reason, one line naming the fix, in STRACE_WHY.
strace_works() {
	local strace=${1:-strace}
	STRACE_WHY=
	if ! command -v "$strace" >/dev/null 2>&1; then
		STRACE_WHY="strace is not installed (apt-get install strace)"
	elif ! "$strace" -o /dev/null true >/dev/null 2>&1; then
		STRACE_WHY="strace cannot trace here (ptrace is not permitted)"
	else
		return 0
	fi
	return 1
}

# strace_calls FILE NAME: the calls column of the first `strace -c` table
# in FILE for system call NAME; 0 when the table has no NAME row.  FILE may
# hold other lines: only the table's rows (two numbers first) are read.
strace_calls() {
	awk -v s="$2" '/^ *[0-9.]+ +[0-9.]+ / && $NF == s { print $4; found = 1; exit }
		END { if (!found) print 0 }' "$1"
}

# inherited_settings: the allocator settings this environment holds, one
# NAME=value a line: GLIBC_TUNABLES, LD_PRELOAD and every MALLOC_* variable
# but the kit's own MALLOC_LABS_*.  Pure bash (pin.sh runs with a bare PATH).
inherited_settings() {
	local v
	for v in $(compgen -e); do
		case $v in
		MALLOC_LABS_*) ;;
		GLIBC_TUNABLES|LD_PRELOAD|MALLOC_*) printf '%s=%s\n' "$v" "${!v}" ;;
		esac
	done
}

# leftover_settings WHAT: every lab target calls it before its first run.
# A setting left in the shell (inherited_settings) would silently change
# WHAT, the runs the lab labels untuned or default, so the lab refuses:
# one line on stderr, exit 2.  With ALLOW_ENV=1 it runs, and prints a
# "# warning:" line for each setting.  MALLOC_LABS_INHERITED (exported, the
# settings as found by the first script of the run, blank-separated) tells
# the programs which of their settings are leftovers (tools/include/env.h),
# and a driver called by another keeps its caller's list: the caller's own
# settings are on purpose.
leftover_settings() {
	local w list names=
	if [ -z "${MALLOC_LABS_INHERITED+set}" ]; then
		MALLOC_LABS_INHERITED=$(inherited_settings)
		export MALLOC_LABS_INHERITED=${MALLOC_LABS_INHERITED//$'\n'/ }
	fi
	read -ra list <<<"$MALLOC_LABS_INHERITED"
	[ ${#list[@]} -gt 0 ] || return 0
	for w in "${list[@]}"; do names="$names${names:+ }${w%%=*}"; done
	if [ "${ALLOW_ENV:-0}" != 1 ]; then
		printf '%s: unset %s (or ALLOW_ENV=1): it changes %s\n' \
			"$prog" "$names" "$1" >&2
		exit 2
	fi
	for w in "${list[@]}"; do
		printf '# warning: left in your shell: %.60s\n#   in force in %s\n' "$w" "$1"
	done
}

# ENV_HEADER_RE: an extended regex (awk, grep -E) for the environment
# check's own lines (tools/include/env.h): what every run of a program prints the
# same, as opposed to its "# set:" and "# warning:" lines.
ENV_HEADER_RE='^# (glibc |built: |THP |read fault:|GLIBC_TUNABLES=|LD_PRELOAD=|malloc: )'

# drop_env_header: a filter, stdin to stdout, without the environment
# check's lines (a run after the first shows only what it adds).  Exits 0
# whatever it reads.
drop_env_header() { awk -v re="$ENV_HEADER_RE" '$0 !~ re'; }

# read_faults_per_page: 1 or 2, the faults a page read, then written, costs
# on this kernel, as ./frames --env measured it ("read fault:" line);
# nothing when there is no such line.  Run from the kit's top directory.
read_faults_per_page() {
	./frames --env 2>/dev/null | sed -n 's/.*read fault:.*(\([12]\) a page).*/\1/p'
}

# frame_bytes: the bytes of a Lab 1 frame (model.h's MODEL_FRAME_BYTES, 3840 x
# 2160 x 8), as ./frames --help gives its --size default: the scripts ask
# the program, so the number is written once.  Empty when it does not say.
frame_bytes() {
	./frames --help 2>/dev/null | sed -n 's/.*--size BYTES .*(default \([0-9][0-9]*\);.*/\1/p'
}

# median_range FILE...: "MEDIAN MIN MAX" of the time_s column of the
# kit's --csv files (the middle one of an odd count; of an even count the
# mean of the two middle ones); die when a file has no time_s.
median_range() {
	local f t all=
	for f in "$@"; do
		t=$(tools/lib/csvget time_s "$f") || die "no time_s in $f"
		all="$all$t"$'\n'
	done
	printf '%s' "$all" | sort -g |
		awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			print m, v[1], v[NR] }'
}

# show_cmd WORDS...: print a command as a student would type it, "$ cmd",
# in lines of at most 78 columns: a long one is broken between words with a
# backslash, and a VAR=value word too long for a line after a ':' in it (a
# backslash-newline is removed by the shell, even inside a word), so what
# is shown can still be pasted.
show_cmd() {
	local cur='$' w head
	for w in "$@"; do
		if [ ${#w} -gt 74 ] && [[ $w == *=* && ${w:0:74} == *:* ]]; then
			head=${w:0:74}
			head=${head%:*}:
			# the rest of the word goes on at column 0 (spaces would split it)
			if [ "$cur" = '$' ]; then printf '$ %s\\\n' "$head"
			else printf '%s \\\n    %s\\\n' "$cur" "$head"; fi
			cur=${w:${#head}}
			continue
		fi
		if [ ${#cur} -gt 4 ] && [ $(( ${#cur} + 1 + ${#w} )) -gt 76 ]; then
			printf '%s \\\n' "$cur"
			cur="   "
		fi
		cur="$cur $w"
	done
	printf '%s\n' "$cur"
}

# progress TEXT...: "prog: TEXT (N s)" on stderr, only when stderr is a
# terminal, overwritten in place, in 79 columns (TEXT is cut, never the
# seconds); `progress` alone clears it.  Clear it before printing a line,
# so no progress is ever left inside a table or a file.  N counts from when
# this library was sourced.  The first line drawn sets progress_interrupted
# as the INT trap, unless the script has one of its own.
PROGRESS_T0=$SECONDS PROGRESS_SHOWN=0 PROGRESS_TRAP=0
progress() {
	[ -t 2 ] || return 0
	if [ $# -gt 0 ]; then
		local line="$prog: $*" tail=" ($((SECONDS - PROGRESS_T0)) s)"
		printf '\r\033[K%s%s' "${line:0:$((79 - ${#tail}))}" "$tail" >&2
		PROGRESS_SHOWN=1
		if [ $PROGRESS_TRAP = 0 ]; then
			PROGRESS_TRAP=1
			[ -n "$(trap -p INT)" ] || trap progress_interrupted INT
		fi
	else
		printf '\r\033[K' >&2
		PROGRESS_SHOWN=0
	fi
	return 0
}
# progress_end: a progress line on the terminal now ends with a newline,
# kept for the reader (what was running when it stopped).
progress_end() {
	[ $PROGRESS_SHOWN = 0 ] || printf '\n' >&2
	PROGRESS_SHOWN=0
}
# progress_interrupted: Ctrl-C.  The line is ended, so that make's
# "make: *** ... Interrupt" starts a line of its own; the script's runs in
# the background go too (they ignore SIGINT: the shell started them so);
# then the script dies of SIGINT, as it would have without the trap.
progress_interrupted() {
	progress_end
	local j
	for j in $(jobs -p); do kill "$j" 2>/dev/null; done
	trap - INT
	kill -INT "$BASHPID"
}

# lab_rows [ID...]: tools/labs/registry, one line a lab (ID... only, when
# given): "id program driver more threads old plots record knobs quick...",
# read with `read -r id program driver more threads old plots record knobs
# quick` ("-" for none; a list comma-separated; quick is the rest).  Dies
# when the registry cannot be read or an ID is not in it.  Run from the
# kit's top directory.
lab_rows() {
	local rows id
	rows=$(awk -f tools/lib/registry.awk tools/labs/registry tools/labs/knobs) ||
		die "tools/labs/registry or tools/labs/knobs cannot be read"
	[ $# -gt 0 ] || { printf '%s\n' "$rows"; return 0; }
	for id in "$@"; do
		printf '%s\n' "$rows" | awk -v id="$id" '$1 == id { print; f = 1 } END { exit !f }' ||
			die "no lab '$id' in tools/labs/registry"
	done
}

# lab_programs: each lab's program once, in the registry's order.
lab_programs() { lab_rows | awk '!seen[$2]++ { print $2 }'; }

# kit_regions: the exercise regions of the lab programs, a line each:
# NAME FILE FIRST LAST (tools/lib/exercise.awk), in the registry's order.
# shellcheck disable=SC2046
kit_regions() { awk -v DO=list -f tools/lib/exercise.awk $(lab_programs | sed 's/$/.c/'); }

# kit_copy DEST: the kit's files as a ZIP download holds them, without
# .git, into the directory DEST (made if missing): the files git tracks and
# the untracked ones it does not ignore, as they are in the working tree;
# without git, the tree minus .git and what make builds (the programs:
# the registry's).  Run from the kit's top directory.  Returns non-zero
# when the copy failed.
kit_copy() {
	local p built=
	mkdir -p "$1" || return 1
	if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$1"
	else
		p=$(lab_programs) || return 1
		for p in $p; do built="$built --exclude=./$p"; done
		# (the names are the registry's, labN's program: no blank in one)
		tar -cf - --exclude=./.git --exclude=./build --exclude=./.run --exclude=./submissions \
			--exclude=./answers --exclude=./plots --exclude=./tests/bin $built \
			--exclude=./tools/plots/plot --exclude=./tools/grading/regioncheck \
			--exclude=./tools/grading/wait4run --exclude=./tools/grading/predict \
			--exclude=./tools/grading/sandbox . | tar -xf - -C "$1"
	fi
}

# The files of an upload (Gradescope's submission/, a student's clone) are
# data: their names may hold any byte, a newline too, and a leading dash;
# an entry may be a symlink out of the upload, a device or a FIFO.  The
# grader lists them NUL-separated, never follows a symlink, reads only
# regular files within UPLOAD_MAX_KB and UPLOAD_SECONDS each, and works on
# its own copies after.  (a lab program is ~40 KB, a submission ~50 KB)
UPLOAD_MAX_KB=4096 UPLOAD_SECONDS=10
# upload_files DIR NAME [DEPTH]: the regular files named NAME (a find
# -name pattern) in DIR, at most DEPTH (default 3) directories down, each
# ended by a NUL, the shallowest first, then by path.  Left out: what lies
# under a hidden name, a symlink (find walks DIR without following one, so
# every path lies inside DIR), a device, a FIFO, a socket, a file this
# user cannot read or one over UPLOAD_MAX_KB, and what find has not
# reached in UPLOAD_SECONDS.  DIR itself may be a symlink.
upload_files() {
	local d=$1
	case $d in -*) d=./$d ;; esac
	timeout "$UPLOAD_SECONDS" find -H "$d" -mindepth 1 -maxdepth "${3:-3}" -name '.*' -prune -o \
		-type f -name "$2" -readable -size -"$UPLOAD_MAX_KB"k -printf '%d %p\0' 2>/dev/null |
		sort -z -k1,1n -k2 | cut -z -d' ' -f2-
}
# upload_copy FILE DEST: the grader's own copy of an upload's FILE (one
# upload_files listed) at DEST: at most UPLOAD_MAX_KB read, in at most
# UPLOAD_SECONDS (FILE may have been swapped for a FIFO or a device since);
# non-zero when FILE is no longer a regular file or could not be read.
upload_copy() {
	[ -f "$1" ] && [ ! -L "$1" ] || return 1
	timeout "$UPLOAD_SECONDS" head -c "$((UPLOAD_MAX_KB * 1024))" -- "$1" >"$2" 2>/dev/null
}
