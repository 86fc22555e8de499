#!/usr/bin/env bash
# tests/course-grader.sh - the grader a course runs (issue 17): answer
# sheets per student, integrity checks, hostile input, the gradebook CSV,
# feedback, Gradescope and the autograder zip.  One real submission with a
# filled answer sheet is made here; every forgery is a copy of it with one
# thing changed, and each case names its outcome (FAIL, ENV, refused or
# flagged).  No time is asserted anywhere.
. "$(dirname "$0")/lib.sh" || exit 1

CG=$TMP/cg
mkdir -p "$CG"
cg_grade() { tools/grade.sh "$@" >"$CG/out" 2>"$CG/err"; }
cg_has() { grep -q "$1" "$CG/out"; }
cg_n() { grep -c "^$1 " "$CG/out"; }
# knobs small enough for a quick submission
cg_knobs() { env FRAMES=2 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M "$@"; }

# ------------------------------------------------------------ answer sheets
# Three names, three sets of parameters.
p1=$(tools/grading/questions.sh params cg-ada) p2=$(tools/grading/questions.sh params cg-bob) p3=$(tools/grading/questions.sh params cg-eve)
if [ -n "$p1" ] && [ "$p1" != "$p2" ] && [ "$p2" != "$p3" ] && [ "$p1" != "$p3" ] &&
   [ "$(printf '%s\n%s\n%s\n' "$p1" "$p2" "$p3" | tr ' ' '\n' | sort -u | wc -l)" -eq 9 ]; then
	pass "questions: three students, three different sets of parameters"
else
	fail "questions: parameters per student" "$p1 | $p2 | $p3"
fi
check_usage_error "questions: a hidden name is refused" tools/grading/questions.sh params .x

# cg_fill SHEET: every answer worked out from first principles here
# (page size, faults a page read then written, the knobs above), not
# from the grader.  The Lab 4 edge: glibc 2.35-2.42 maps a frame every
# time when its chunk tops 32 MiB - 4 KiB, i.e. a request over 33550312.
cg_fill() {
	awk -v rf="$RF" -v pg="$(getconf PAGESIZE)" -v n=2 -v n4=2 -v b=1048576 '
	function ceil(x) { return (x == int(x)) ? x : int(x) + 1 }
	/^q_size: / { s = $2 } /^q_l4: / { l4 = $2 } /^q_buf: / { buf = $2 }
	/^frame_pages:/ { p = ceil((s + 16) / pg); $0 = $0 " " p }
	/^faults_untuned:/ { $0 = $0 " " 1 + rf * (p - 1) }
	/^mmap_untuned:/ || /^munmap_untuned:/ { $0 = $0 " 1" }
	/^brk_tuned:/ { $0 = $0 " 0" }
	/^faults_tuned:/ { $0 = $0 " " rf * p }
	/^corrupt_tuned:/ { $0 = $0 " " (n - 1) * ceil(s / 64) }
	/^l4_mmap_frames:/ { $0 = $0 " " (l4 > 33550312 ? n4 : 1) }
	/^l4_fix:/ { $0 = $0 " GLIBC_TUNABLES=glibc.malloc.mmap_threshold=64M" }
	/^yes_writes:/ { $0 = $0 " " ceil(b / buf) }
	/^yes_addr_mod:/ { $0 = $0 " 16" }
	{ print }' "$1"
}
RF=$(./frames --csv --frames 1 --size 1M 2>/dev/null | tools/lib/csvget read_faults_per_page)
GMIN=$(./frames --csv --frames 1 --size 1M 2>/dev/null | tools/lib/csvget glibc | cut -d. -f2)
tools/grading/questions.sh sheet cg-ada >"$CG/ada-sheet.txt"
cg_fill "$CG/ada-sheet.txt" >"$CG/ada-filled.txt"
SUB=$CG/ada.txt
cg_knobs STUDENT=cg-ada ANSWERS="$CG/ada-filled.txt" OUT="$SUB" tools/submit.sh >"$CG/sub.out" 2>"$CG/sub.err"; rc=$?
if [ $rc -ne 0 ] || [ ! -f "$SUB" ]; then
	fail "submit ANSWERS=: a submission with an answer sheet" "exit $rc: $(tail -c 300 "$CG/sub.err")"
	SUB=
fi
if [ -n "$SUB" ]; then
	cg_grade "$SUB"; rc=$?
	if [ "$RF" != 1 ] && [ "$RF" != 2 ] || [ "$GMIN" -lt 35 ] || [ "$GMIN" -gt 42 ]; then
		skip "grade: a correct answer sheet" "this glibc/kernel is outside what cg_fill models (glibc 2.$GMIN, $RF faults a page)"
	elif [ $rc -eq 0 ] && cg_has '^Answers: 15/15$' && [ "$(cg_n FAIL)" -eq 0 ] && [ "$(cg_n ENV)" -eq 0 ]; then
		pass "grade: a clean submission with a correct answer sheet: exit 0, Answers 15/15 ($(tail -n 1 "$CG/out"))"
	else
		fail "grade: a correct answer sheet" "exit $rc: $(grep -m 4 -A1 -E '^(FAIL|ENV)' "$CG/out")"
	fi
	cp "$CG/out" "$CG/clean.out"
	score=$(sed -n 's/^Score: \([0-9]*\)\/.*/\1/p' "$CG/clean.out")
	ascore=$(sed -n 's/^Answers: \([0-9]*\)\/.*/\1/p' "$CG/clean.out")

	# The answers apart from the runs: a blank sheet fails every answer,
	# the runs' score is the same.
	awk '/^@answers$/ { a = 1 } a && /^[a-z0-9_]+: / { sub(/: .*/, ": ") } /^@end$/ { a = 0 } { print }' "$SUB" >"$CG/blank.txt"
	cg_grade "$CG/blank.txt"; rc=$?
	if [ $rc -eq 1 ] && cg_has '^Answers: 0/15$' && cg_has "^Score: $score/" &&
	   [ "$(grep -c '^FAIL  answers ' "$CG/out")" -eq 11 ]; then
		pass "grade: blank answers: 11 answer FAILs, Answers 0/15, the runs' Score unchanged"
	else
		fail "grade: blank answers" "exit $rc: $(grep -E '^(Answers|Score)' "$CG/out")"
	fi
fi

# A copied sheet: make submit refuses another student's sheet, and one
# relabelled to this student (name and parameters) keeps the other's answers.
cg_knobs STUDENT=cg-bob ANSWERS="$CG/ada-filled.txt" OUT="$CG/bob.txt" tools/submit.sh >"$CG/sub.out" 2>"$CG/sub.err"; rc=$?
if [ $rc -eq 2 ] && [ ! -e "$CG/bob.txt" ] && grep -q 'is for "cg-ada", not cg-bob' "$CG/sub.err"; then
	pass "submit: another student's answer sheet is refused (exit 2, one line)"
else
	fail "submit: another student's answer sheet" "exit $rc: $(cat "$CG/sub.err")"
fi
tools/grading/questions.sh sheet cg-bob | awk 'NR == FNR { if (/^[a-z_0-9]+: / && $1 !~ /^(answers|student|q_[a-z0-9]+):$/) ans[$1] = $0; next }
	($1 in ans) { $0 = ans[$1] } { print }' "$CG/ada-filled.txt" - >"$CG/bob-copied.txt"
cg_knobs STUDENT=cg-bob ANSWERS="$CG/bob-copied.txt" OUT="$CG/bob.txt" tools/submit.sh >"$CG/sub.out" 2>"$CG/sub.err"
if [ -f "$CG/bob.txt" ]; then
	cg_grade "$CG/bob.txt"; rc=$?
	a=$(sed -n 's/^Answers: \([0-9]*\)\/15$/\1/p' "$CG/out")
	if [ $rc -eq 1 ] && [ -n "$a" ] && [ "$a" -lt 15 ] && [ "$(grep -c '^FAIL  answers ' "$CG/out")" -ge 4 ] &&
	   [ "$(grep '^FAIL  ' "$CG/out" | grep -vc '^FAIL  answers ')" -eq 0 ]; then
		pass "grade: ada's answers copied onto bob's sheet: $(grep -c '^FAIL  answers ' "$CG/out") answers FAIL, Answers $a/15 (copied: FAIL)"
	else
		fail "grade: copied answers" "exit $rc, Answers '$a': $(grep -m 3 '^FAIL' "$CG/out")"
	fi
else
	fail "submit: bob's sheet with copied answers" "$(tail -c 300 "$CG/sub.err")"
fi

[ -n "$SUB" ] || { skip "grade: forgeries and hostile input" "no base submission"; SUB=/nonexistent; }

# ------------------------------------------------------------- forgeries
# cg_case NAME WANT_RC PATTERN... : grade $CG/f.txt; exit WANT_RC and every
# PATTERN (a grep -E regex) in the report.
cg_case() {
	local name=$1 want=$2 rc p miss=''
	shift 2
	cg_grade "$CG/f.txt"; rc=$?
	for p in "$@"; do grep -Eq "$p" "$CG/out" || miss="$miss [$p]"; done
	if [ $rc -eq "$want" ] && [ -z "$miss" ]; then pass "$name: exit $rc"
	else fail "$name" "exit $rc (want $want), missing:$miss; $(grep -m 3 -A1 -E '^(FAIL|ENV)' "$CG/out") $(head -c 200 "$CG/err")"; fi
}
# cg_row STEP COL VALUE: set COL (by header name) in STEP's data row.
cg_row() {
	awk -v step="$1" -v col="$2" -v val="$3" "$(cat tools/lib/csv.awk)"'
		$0 == "@run " step { r = 1; k = 0 }
		r && /^csv: / { line = substr($0, 6); n = csv_split(line, f)
			if (!k) { for (i = 1; i <= n; i++) if (f[i] == col) k = i }
			else { f[k] = val; line = ""
				for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") (f[i] ~ /[ ,]/ ? "\"" f[i] "\"" : f[i])
				$0 = "csv: " line } }
		$0 == "@end" { r = 0 }
		{ print }' "$SUB"
}
if [ -f "$SUB" ]; then
	f34=$(tools/lib/csvget minor_faults <(sed -n '/^@run lab4.34M$/,/^@end/s/^csv: //p' "$SUB"))
	cg_row lab4.34M minor_faults $((f34 + 1000)) >"$CG/f.txt"
	cg_case "forgery: one count edited, the readable table true -> FAIL (the count, human_table)" 1 \
		'^FAIL  lab4\.34M +minor_faults' '^FAIL  file +human_table'

	sed 's/^student: cg-ada$/student: cg-bob/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: another student's file, the name changed -> FAIL (their parameters' commands, answers)" 1 \
		'^FAIL  lab1\.q-untuned +commands' '^FAIL  lab5\.q-buf +commands' '^FAIL  answers +frame_pages'
	cp "$CG/f.txt" "$CG/bob-renamed.txt"

	thp=$(sed -n 's/^thp: //p' "$SUB")
	awk -v t="$thp" '/^csv: / { i = index($0, t); if (i) $0 = substr($0, 1, i - 1) "enabled=always defrag=madvise zero_page=1" substr($0, i + length(t)) } { print }' "$SUB" >"$CG/f.txt"
	cg_case "forgery: rows say THP always under a header that says $thp -> FAIL rows_vs_header" 1 '^FAIL  file +rows_vs_header'

	other=$((3 - RF))
	cg_row lab1.default-malloc read_faults_per_page $other >"$CG/f.txt"
	cg_case "forgery: a row says $other fault(s) a read page, the header $RF -> FAIL rows_vs_header" 1 '^FAIL  file +rows_vs_header'

	grep -v '^binary_bits: ' "$SUB" >"$CG/f.txt"
	cg_case "forgery: binary_bits deleted -> FAIL binary_bits" 1 '^FAIL  file +binary_bits'

	# strace: none with the strace records deleted: the system-call checks
	# are ENV (no points), never PASS; with them left, a FAIL.
	awk '/^strace: / { $0 = "strace: none (not installed or ptrace denied): system-call checks are skipped" }
		/^@run .*\.strace/ { skip = 1 } !skip { print } /^@end$/ { skip = 0 }' "$SUB" |
		awk '/^@run lab5\./ { r = 1 } r && /^cmd: strace / { sub(/^cmd: strace -f -e trace=write -e raw=write -o [^ ]+ /, "cmd: ") }
		     r && /^write: / { next } /^@end$/ { r = 0 } { print }' >"$CG/f.txt"
	cg_case "forgery: strace: none and the strace records deleted -> ENV (no system-call points), exit 3" 3 \
		'^ENV   lab1\.default-malloc +mmap/2frames' '^ENV   lab5\.4K\.page +strace_writes' '^PASS  file +strace_line'
	sed 's/^strace: .*/strace: none (not installed)/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: strace: none with the strace records left -> FAIL strace_line" 1 '^FAIL  file +strace_line'

	# A second @run after the real one, with a wrong count: not read.
	{ cat "$SUB"; sed -n '/^@run lab4.34M$/,/^@end$/p' "$SUB" | sed "s/,$f34,/,1,/"; } >"$CG/f.txt"
	cg_case "forgery: a duplicate @run after the real one -> FAIL records_once; the first counts" 1 \
		'^FAIL  file +records_once' '^PASS  lab4\.34M +minor_faults'

	cat "$SUB" "$SUB" >"$CG/f.txt"
	cg_case "forgery: the file concatenated twice -> FAIL one_submission" 1 '^FAIL  file +one_submission'

	cg_row lab4.34M mmap_frames -2 >"$CG/f.txt"
	cg_case "forgery: a negative count -> FAIL (numbers; not counted as 0)" 1 '^FAIL  file +numbers' '^FAIL  lab4\.34M +mmap_frames'
	cg_row lab4.34M minor_faults 17k >"$CG/f.txt"
	cg_case "forgery: a non-numeric count -> FAIL (not a number)" 1 '^FAIL  file +numbers' '^FAIL  lab4\.34M +minor_faults .*17k'

	sed 's/^kit: \([0-9a-f]*\).*/kit: \1-dirty/; s/^sources_changed: .*/sources_changed: frames.c/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: kit -dirty with frames.c changed -> ENV kit, exit 3" 3 '^ENV   file +kit'
	sed 's/^kit: .*/kit: 0123abc/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: a kit revision this kit never had -> ENV kit" 3 '^ENV   file +kit'
	sed 's/^kit: .*/kit: unknown (not a checkout)/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: a kit that is not a checkout -> ENV kit" 3 '^ENV   file +kit'

	sed 's/^compiler: .*/compiler: Debian clang version 14.0.6/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: compiler line clang, the binaries gcc -> FAIL compiler" 1 '^FAIL  file +compiler'

	sed '/^@run lab4.34M$/,/^@end$/d' "$SUB" >"$CG/f.txt"
	cg_case "forgery: a record deleted -> FAIL (commands, missing)" 1 '^FAIL  lab4\.34M +commands' '^FAIL  lab4\.34M +minor_faults +missing'
	sed '/^@human$/,$d' "$SUB" >"$CG/f.txt"
	cg_case "forgery: the @human table deleted -> FAIL human_table" 1 '^FAIL  file +human_table'

	# a format 2 file without an answer sheet still grades clean
	awk '/^questions: / { next } /^@answers$/ { s = 1 } /^@run lab[0-9]\.q-/ { s = 1 } !s { print } /^@end$/ { s = 0 }' "$SUB" |
		awk '/^@human$/ { h = 1 } h && /^lab[0-9]\.q-/ { next } { print }' >"$CG/f.txt"
	cg_case "grade: a file without answers or their steps grades clean, the answers SKIP" 0 \
		'^SKIP  answers +sheet' '^Answers: none'
fi

# --------------------------------------------------------- hostile input
if [ -f "$SUB" ]; then
	# the gradebook: eve's name as CSV, a formula, a newline in a file name
	mkdir -p "$CG/dir"
	sed 's/^student: .*/student: eve,172,172,0,0,/' "$SUB" >"$CG/dir/a.txt"
	sed 's/^student: .*/student: =HYPERLINK("http:\/\/x","Score")/' "$SUB" >"$CG/dir/b.txt"
	cp "$SUB" "$CG/dir/c
d.txt"
	tools/grade.sh --csv "$CG/dir" >"$CG/csv" 2>"$CG/err"; rc=$?
	fields=$(awk "$(cat tools/lib/csv.awk)"'{ print csv_split($0, f) }' "$CG/csv" | sort -u | tr '\n' ' ')
	if [ "$(wc -l <"$CG/csv")" -eq 4 ] && [ "$fields" = "15 " ] &&
	   grep -q '^[^,]*a\.txt,"eve,172,172,0,0,",' "$CG/csv" && grep -q ",\"'=HYPERLINK(" "$CG/csv" &&
	   grep -q 'c?d\.txt' "$CG/csv"; then
		pass "grade --csv: a name with commas, a =HYPERLINK and a newline in a file name stay one quoted field each (4 lines, 15 fields)"
	else
		fail "grade --csv: hostile fields" "exit $rc, $(wc -l <"$CG/csv") lines, fields: $fields; $(head -c 400 "$CG/csv")"
	fi

	# terminal escapes in a field are never echoed
	sed "s/^student: .*/student: x$(printf '\033')[2J$(printf '\033')[HScore: 999\/999/; s/^glibc: 2\.\([0-9]*\)/glibc: 2.\1$(printf '\033')[31m/" "$SUB" >"$CG/esc.txt"
	for m in report csv feedback gradescope; do
		tools/grade.sh --format $m "$CG/esc.txt" >"$CG/o.$m" 2>&1
	done
	if ! grep -q "$(printf '\033')" "$CG"/o.*; then
		pass "grade: terminal escapes in a submission never reach the output (report, csv, feedback, gradescope)"
	else
		fail "grade: terminal escapes" "an ESC byte in $(grep -l "$(printf '\033')" "$CG"/o.*)"
	fi

	# a file name that looks like an awk assignment is a file
	cp "$SUB" "$CG/FRAMES=1.txt"
	check_exit "grade: a file named FRAMES=1.txt is graded, not an awk assignment" 0 tools/grade.sh "$CG/FRAMES=1.txt"
fi

# make grade: the value of FILE is never a command (shell or make)
rm -f PWNED PWNED2
make --no-print-directory grade FILE='a;touch PWNED;b.txt' >"$CG/mk" 2>&1; rc=$?
make --no-print-directory grade FILE='$(shell touch PWNED2)' >>"$CG/mk" 2>&1
if [ $rc -ne 0 ] && [ ! -e PWNED ] && [ ! -e PWNED2 ] && grep -q "cannot read 'a;touch PWNED;b.txt'" "$CG/mk"; then
	pass "make grade FILE='a;touch PWNED;b.txt' (and a \$(shell ...)) runs nothing: refused as a missing file"
else
	fail "make grade: FILE injection" "exit $rc, PWNED: $(ls PWNED PWNED2 2>&1 | tr '\n' ' ')"
fi
rm -f PWNED PWNED2
if [ -f "$SUB" ]; then
	sed 's/^kit: .*/kit: unknown (not a checkout)/' "$SUB" >"$CG/env.txt"
	make --no-print-directory grade FILE="$CG/env.txt" >"$CG/mk" 2>&1; rc=$?
	# make itself can only exit 0 or 2: it names the grader's status
	if [ $rc -ne 0 ] && grep -q 'make grade: tools/grade.sh exited 3' "$CG/mk"; then
		pass "make grade: the grader's exit 3 is named (make's own status is 2)"
	else
		fail "make grade: the grader's status" "exit $rc: $(tail -n 2 "$CG/mk")"
	fi
fi

# make submit's input: names, knobs, the environment, the compiler
for s in .hidden -x 'a/b' 'a b' ''; do
	[ -z "$s" ] && continue
	cg_knobs STUDENT="$s" OUT="$CG/never.txt" tools/submit.sh >"$CG/o" 2>"$CG/e"; rc=$?
	if [ $rc -eq 2 ] && [ "$(grep -vc '^usage' "$CG/e")" -eq 1 ] && [ ! -e "$CG/never.txt" ]; then
		pass "submit: STUDENT='$s' refused in one line, exit 2"
	else
		fail "submit: STUDENT='$s'" "exit $rc: $(cat "$CG/e")"
	fi
done
check_usage_error "submit: FRAMES=08 (a leading zero) refused" env FRAMES=08 tools/submit.sh
check_exit "submit: MALLOC_ARENA_MAX=1 inherited is refused before any run" 2 env MALLOC_ARENA_MAX=1 tools/submit.sh
check_exit "submit: an LD_PRELOAD is refused before any run" 2 env LD_PRELOAD=/nonexistent.so tools/submit.sh
if command -v clang >/dev/null 2>&1; then
	env CC=clang CFLAGS='-std=gnu11 -Wall -Wextra -O0' STUDENT=cg OUT="$CG/never.txt" tools/submit.sh >"$CG/o" 2>"$CG/e"; rc=$?
	if [ $rc -eq 1 ] && grep -q 'were built by gcc.*not by CC=clang' "$CG/e" && [ ! -e "$CG/never.txt" ]; then
		pass "submit CC=clang OPT=-O0 after make (gcc -O2): refused, the compiler line would not be the binaries'"
	else
		fail "submit CC=clang after make" "exit $rc: $(cat "$CG/e")"
	fi
else
	skip "submit CC=clang after make" "clang is not installed"
fi
touch "$CG/exists.txt"
check_exit "submit: an OUT= that exists is refused (never overwritten)" 2 env STUDENT=cg OUT="$CG/exists.txt" tools/submit.sh

# Two make submit with the same OUT at once: one file, whole, and the other
# run exits non-zero with its reason; never two exit 0 with one file lost.
( cg_knobs STUDENT=cg-twin OUT="$CG/twin.txt" tools/submit.sh >"$CG/t1.out" 2>"$CG/t1.err"; echo $? >"$CG/t1.rc" ) &
( cg_knobs STUDENT=cg-twin OUT="$CG/twin.txt" tools/submit.sh >"$CG/t2.out" 2>"$CG/t2.err"; echo $? >"$CG/t2.rc" ) &
wait
r1=$(cat "$CG/t1.rc") r2=$(cat "$CG/t2.rc")
zeros=$(( (r1 == 0) + (r2 == 0) ))
if [ $zeros -eq 1 ] && tools/grade.sh "$CG/twin.txt" >/dev/null 2>&1 &&
   grep -qh -e 'appeared while this ran' -e 'exists: not overwriting' "$CG/t1.err" "$CG/t2.err"; then
	pass "submit: two runs with one OUT: one file (grades clean), the other refused ($r1, $r2)"
else
	fail "submit: two runs with one OUT" "exits $r1 $r2: $(cat "$CG/t1.err" "$CG/t2.err" | grep -v '^submit: [0-9]* runs')"
fi

# kill -9 leaves this run's .part: the directory mode names it, never grades it
mkdir -p "$CG/killed"
cg_knobs STUDENT=cg-killed OUT="$CG/killed/k.txt" tools/submit.sh >/dev/null 2>&1 &
kpid=$!
for i in $(seq 1 100); do ls "$CG"/killed/k.txt.*.part >/dev/null 2>&1 && break; sleep 0.1; done
kill -9 $kpid 2>/dev/null; wait $kpid 2>/dev/null
sleep 1                                  # its current child ends on its own
if ls "$CG"/killed/k.txt.*.part >/dev/null 2>&1 && [ -f "$SUB" ]; then
	cp "$SUB" "$CG/killed/ok.txt"; cp "$SUB" "$CG/killed/.hidden.txt"
	tools/grade.sh --csv "$CG/killed" >"$CG/csv" 2>"$CG/err"; rc=$?
	if [ "$(grep -c . "$CG/csv")" -eq 2 ] && ! grep -q 'part' "$CG/csv" && grep -q 'not grading .*\.part' "$CG/err" &&
	   grep -q 'not grading .*\.hidden\.txt: a hidden file' "$CG/err"; then
		pass "grade DIR: a kill -9's .part and a hidden file are named on stderr, never graded as rows"
	else
		fail "grade DIR: .part" "exit $rc: $(cat "$CG/csv" "$CG/err" | head -c 400)"
	fi
else
	skip "grade DIR: a kill -9's .part" "the run ended before a .part was seen"
fi

# a full stdout is a failure, the file is still there
cg_knobs STUDENT=cg-full OUT="$CG/full.txt" tools/submit.sh >/dev/full 2>"$CG/e"; rc=$?
if [ $rc -ne 0 ] && [ -f "$CG/full.txt" ] && grep -q 'cannot write to standard output' "$CG/e"; then
	pass "submit >/dev/full: exit $rc, not 0 (the file is written and named on stderr)"
else
	fail "submit >/dev/full" "exit $rc: $(tail -n 2 "$CG/e")"
fi
if [ -f "$SUB" ]; then
	tools/grade.sh "$SUB" >/dev/full 2>/dev/null; rc=$?
	cmp_num "grade >/dev/full: not exit 0" "$rc" -ne 0
fi

# --------------------------------------------------------- the gradebook
if [ -f "$SUB" ]; then
	# copies of one run are flagged, the CSV has one header for all arguments
	mkdir -p "$CG/class"
	cp "$SUB" "$CG/class/ada.txt"; cp "$CG/bob-renamed.txt" "$CG/class/bob.txt"
	[ -f "$CG/bob.txt" ] && cp "$CG/bob.txt" "$CG/class/bob-own.txt"
	tools/grade.sh --csv "$CG/class" "$SUB" >"$CG/csv" 2>"$CG/err"; rc=$?
	heads=$(grep -c '^file,student,date,score,max,answers,answers_max,fails,envs,kit,glibc,kernel,thp,flags,same_run_as$' "$CG/csv")
	flagged=$(grep -c 'ada\.txt.*bob\.txt\|bob\.txt.*ada\.txt' "$CG/csv")
	if [ $rc -eq 1 ] && [ "$heads" -eq 1 ] && [ "$(grep -c . "$CG/csv")" -eq 5 ] && [ "$flagged" -ge 2 ] &&
	   ! grep -q 'bob-own.txt,.*,[^,]*ada' "$CG/csv"; then
		pass "grade --csv DIR FILE: one header, a row a file; ada's file renamed to bob flagged same_run_as (bob's own run not)"
	else
		fail "grade --csv: copies of one run" "exit $rc, $heads header(s): $(cut -c1-120 "$CG/csv")"
	fi

	# feedback: each FAIL and ENV with what it means and what to try
	cg_row lab4.34M minor_faults $((f34 + 1000)) | sed 's/^kit: .*/kit: unknown (not a checkout)/' >"$CG/f.txt"
	tools/grade.sh "$CG/f.txt" >"$CG/out" 2>&1
	want=$(grep -cE '^(FAIL|ENV) ' "$CG/out")
	tools/grade.sh --feedback "$CG/f.txt" >"$CG/fb" 2>&1; rc=$?
	if [ $rc -eq 1 ] && [ "$want" -ge 3 ] && [ "$(grep -c '^  means: ' "$CG/fb")" -eq "$want" ] &&
	   [ "$(grep -c '^  try: ' "$CG/fb")" -eq "$want" ] && ! awk 'length($0) > 100 { exit 1 }' "$CG/fb" | grep -q .; then
		pass "grade --feedback: the $want FAIL/ENV lines each with means: and try: (<= 100 columns)"
	else
		fail "grade --feedback" "exit $rc, $want FAIL/ENV, $(grep -c '^  means: ' "$CG/fb") means"
	fi

	# Gradescope: the tests' scores sum to the top-level score = Score + Answers
	tools/grade.sh --format gradescope "$SUB" >"$CG/results.json" 2>"$CG/err"; rc=$?
	sum=$(awk -F'"score": ' '/^    \{"name": / { split($2, a, ","); s += a[1] } END { print s + 0 }' "$CG/results.json")
	top=$(sed -n 's/^  "score": \([0-9]*\),$/\1/p' "$CG/results.json")
	bad=$(awk 'NR == 1 && $0 != "{" { print NR } /^    \{/ && !/^    \{"name": "[^"]*", "score": [0-9]+, "max_score": [0-9]+, "status": "(passed|failed)", "output": "([^"\\]|\\.)*"\},?$/ { print NR }' "$CG/results.json" | head -n 3)
	if [ $rc -eq 0 ] && [ -n "$top" ] && [ "$sum" -eq "$top" ] && [ "$top" -eq $((score + ascore)) ] && [ -z "$bad" ] &&
	   [ "$(tail -n 1 "$CG/results.json")" = "}" ]; then
		pass "grade --format gradescope: every test well formed; the tests sum to $top = Score $score + Answers $ascore"
	else
		fail "grade --format gradescope" "exit $rc, sum $sum, top '$top', Score $score + $ascore, bad lines: $bad"
	fi
fi

# The autograder zip: Gradescope's layout, and run_autograder grading an upload
if ! command -v zip >/dev/null 2>&1 || ! command -v unzip >/dev/null 2>&1; then
	skip "make autograder" "zip or unzip is not installed"
elif [ -f "$SUB" ]; then
	make --no-print-directory autograder >"$CG/ag.out" 2>&1; rc=$?
	mkdir -p "$CG/ag/source" "$CG/ag/submission"
	if [ $rc -eq 0 ] && (cd "$CG/ag/source" && unzip -q "$OLDPWD/build/autograder.zip") &&
	   [ -x "$CG/ag/source/setup.sh" ] && [ -x "$CG/ag/source/run_autograder" ]; then
		cp "$SUB" "$CG/ag/submission/"
		AUTOGRADER_ROOT=$CG/ag "$CG/ag/source/run_autograder" >"$CG/ag.out" 2>&1; rc=$?
		top=$(sed -n 's/^  "score": \([0-9]*\),$/\1/p' "$CG/ag/results/results.json" 2>/dev/null)
		if [ $rc -eq 0 ] && [ "$top" = "$((score + ascore))" ]; then
			pass "make autograder: setup.sh and run_autograder at the zip's root; run_autograder grades the upload ($top)"
		else
			fail "autograder: run_autograder" "exit $rc, score '$top': $(tail -n 3 "$CG/ag.out")"
		fi
	else
		fail "make autograder" "exit $rc: $(tail -n 3 "$CG/ag.out")"
	fi
fi

# Re-run where it matters: the sheet in, make submit on this machine, graded.
if [ -f "$SUB" ]; then
	cg_knobs tools/grading/rerun.sh "$CG/ada-filled.txt" >"$CG/out" 2>"$CG/err"; rc=$?
	rdir=$(sed -n 's/^rerun: the submissions made here: //p' "$CG/err")
	if [ $rc -eq 0 ] && [ -n "$rdir" ] && [ -f "$rdir/cg-ada.txt" ] && cg_has '^Answers: 15/15$' &&
	   cg_has '^submissions/rerun\.[^,]*/cg-ada\.txt,cg-ada,'; then
		pass "rerun: ada's sheet re-run here (make submit on this machine), graded clean with Answers 15/15"
	else
		fail "rerun" "exit $rc: $(tail -n 3 "$CG/err")"
	fi
	case $rdir in submissions/rerun.*) rm -rf "$rdir" ;; esac
fi

