#!/usr/bin/env bash
# tests/course-grader.sh - the grader a course runs (issues 17 and 24):
# answer sheets per student (the key never shown), integrity checks (the
# status INTEGRITY, exit 4, no score), hostile input, the gradebook CSV
# with the knobs, copies by fingerprint, feedback, Gradescope and the
# autograder zip.  One real submission with a filled answer sheet is made
# here; every forgery is a copy of it with one thing changed, and each case
# names its outcome (FAIL, ENV, INTEGRITY, refused or flagged).  Each hole
# issue 24 lists is a case below, marked "24:".  No time is asserted.
. "$(dirname "$0")/lib.sh" || exit 1
full_only "answer sheets, the course's grading and make submit's refusals"
needs_solution "every exercise" "the course's grading: a handout's grader marks no answer, and forgeries want clean grades to forge" ||
	exit 0

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
# make questions as typed, for the longest name make submit takes (64):
# every line of the sheet within 80 columns.  (answers/ is the kit's: the
# sheet is removed, and the folder if this made it.)
long=cg-$(printf 'x%.0s' $(seq 61))
[ -d answers ] && had_answers=1 || had_answers=0
make -s --no-print-directory questions STUDENT="$long" >"$CG/q.out" 2>&1; rc=$?
wide=$(awk 'length($0) > 80 { print FNR ": " length($0) " columns" }' "answers/$long.txt" 2>/dev/null)
if [ $rc -eq 0 ] && [ -s "answers/$long.txt" ] && [ -z "$wide" ] && grep -qx "student: $long" "answers/$long.txt"; then
	pass "make questions STUDENT=<64 characters>: every line of the sheet within 80 columns"
else
	fail "make questions: the sheet's width" "exit $rc: $(head -c 200 "$CG/q.out") ${wide:-}"
fi
rm -f "answers/$long.txt"; [ $had_answers = 1 ] || rmdir answers 2>/dev/null

# l4_fix as make lab4's env vars column sets it (THR and TRIM, which
# tools/labs/lab4.sh takes from steps.awk): both thresholds, where one is
# the answer, is right too.
L4_FIX="MALLOC_MMAP_THRESHOLD_=$(awk -v KIND=knob -v NAME=THR -f tools/grading/steps.awk)"
L4_FIX="$L4_FIX MALLOC_TRIM_THRESHOLD_=$(awk -v KIND=knob -v NAME=TRIM -f tools/grading/steps.awk)"
# cg_fill SHEET: every answer worked out from first principles here
# (page size, faults a page read then written, the knobs above), not
# from the grader.  The Lab 4 edge is what ./frames --edge names (its
# value is tests/lab4.sh's to check): past it every frame is mapped, so the
# grader's key and --edge must agree for this sheet to grade clean.
cg_fill() {
	awk -v rf="$RF" -v pg="$(getconf PAGESIZE)" -v n=2 -v n4=2 -v b=1048576 -v fix="$L4_FIX" \
		-v edge="$(./frames --edge)" '
	function ceil(x) { return (x == int(x)) ? x : int(x) + 1 }
	/^q_size: / { s = $2 } /^q_l4: / { l4 = $2 } /^q_buf: / { buf = $2 }
	/^frame_pages:/ { p = ceil((s + 16) / pg); $0 = $0 " " p }
	/^faults_untuned:/ { $0 = $0 " " 1 + rf * (p - 1) }
	/^mmap_untuned:/ || /^munmap_untuned:/ { $0 = $0 " 1" }
	/^brk_tuned:/ { $0 = $0 " 0" }
	/^faults_tuned:/ { $0 = $0 " " rf * p }
	/^corrupt_tuned:/ { $0 = $0 " " (n - 1) * ceil(s / 64) }
	/^l4_mmap_frames:/ { $0 = $0 " " (l4 > edge + 0 ? n4 : 1) }
	/^l4_fix:/ { $0 = $0 " " fix }
	/^yes_writes:/ { $0 = $0 " " ceil(b / buf) }
	/^yes_addr_mod:/ { $0 = $0 " 16" }
	{ print }' "$1"
}
RF=$(./frames --csv --frames 1 --size 1M 2>/dev/null | tools/lib/csvget read_faults_per_page)
GMIN=$(./frames --csv --frames 1 --size 1M 2>/dev/null | tools/lib/csvget glibc | cut -d. -f2)
tools/grading/questions.sh sheet cg-ada >"$CG/ada-sheet.txt"
cg_fill "$CG/ada-sheet.txt" >"$CG/ada-filled.txt"
SUB=$CG/ada.txt
# An older hand-in of ada's beside where this one goes (make submit run
# twice): the new one is named the one to upload, the older not to; the
# answer sheets beside them (student: lines too) are no hand-ins.
sed 's/^student: .*/student: cg-ada/' tests/fixtures/zero-page-6.18/submission-frames2.txt >"$CG/cg-ada-older.txt"
make -s --no-print-directory submit STUDENT=cg-ada ANSWERS="$CG/ada-filled.txt" OUT="$SUB" \
	FRAMES=2 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M >"$CG/sub.out" 2>"$CG/sub.err"; rc=$?
if [ $rc -ne 0 ] || [ ! -f "$SUB" ]; then
	fail "submit ANSWERS=: a submission with an answer sheet" "exit $rc: $(tail -c 300 "$CG/sub.err")"
	SUB=
elif [ "$(tail -n 3 "$CG/sub.err")" = "submit: older hand-ins of this student, not to upload:
  $CG/cg-ada-older.txt
submit: upload this one, the newest, and only it:" ] && [ "$(tail -n 1 "$CG/sub.out")" = "submission: $SUB" ]; then
	pass "make submit beside an older hand-in of the student: names it not to upload, ends with the one to upload"
else
	fail "make submit beside an older hand-in" "stderr ends: $(tail -n 3 "$CG/sub.err"); stdout: $(tail -n 1 "$CG/sub.out")"
fi
rm -f "$CG/cg-ada-older.txt"
if [ -n "$SUB" ]; then
	cg_grade "$SUB"; rc=$?
	if [ "$RF" != 1 ] && [ "$RF" != 2 ] || [ "$GMIN" -lt 35 ] || [ "$GMIN" -gt 42 ]; then
		skip "grade: a correct answer sheet" "this glibc/kernel is outside what cg_fill models (glibc 2.$GMIN, $RF faults a page)"
	elif [ $rc -eq 0 ] && grep -Eq '^Answers: ([0-9]+)/\1$' "$CG/out" && [ "$(cg_n FAIL)" -eq 0 ] && [ "$(cg_n ENV)" -eq 0 ]; then
		pass "grade: a clean submission with a correct answer sheet: exit 0, $(grep '^Answers' "$CG/out") ($(tail -n 1 "$CG/out"))"
	else
		fail "grade: a correct answer sheet" "exit $rc: $(grep -m 4 -A1 -E '^(FAIL|ENV)' "$CG/out")"
	fi
	cp "$CG/out" "$CG/clean.out"
	score=$(sed -n 's/^Score: \([0-9]*\)\/.*/\1/p' "$CG/clean.out")
	ascore=$(sed -n 's/^Answers: \([0-9]*\)\/.*/\1/p' "$CG/clean.out")

	amax=$(sed -n 's/^Answers: [0-9]*\/\([0-9]*\)$/\1/p' "$CG/clean.out")

	# The answers apart from the runs: a blank sheet fails every answer,
	# the runs' score is the same.
	awk '/^@answers$/ { a = 1 } a && /^[a-z0-9_]+: / { sub(/: .*/, ": ") } /^@end$/ { a = 0 } { print }' "$SUB" >"$CG/blank.txt"
	cg_grade "$CG/blank.txt"; rc=$?
	if [ $rc -eq 1 ] && cg_has "^Answers: $((ascore - 15))/$amax$" && cg_has "^Score: $score/" &&
	   [ "$(grep -c '^FAIL  answers ' "$CG/out")" -eq 11 ]; then
		pass "grade: blank answers: 11 answer FAILs (15 points fewer), the runs' Score unchanged"
	else
		fail "grade: blank answers" "exit $rc: $(grep -E '^(Answers|Score)' "$CG/out")"
	fi
	# 24: the grader handed out the key.  Every line of the sheet's part
	# (the answers and the runs at its parameters) wants "(key)", locally,
	# in the feedback and in results.json; --key, the instructor's, shows
	# the numbers cg_fill worked out.
	p=$(sed -n 's/^frame_pages: //p' "$CG/ada-filled.txt")
	keyed=$(grep -E '^(PASS|FAIL) +(answers|lab[0-9]\.q-[a-z-]+) ' "$CG/out" | grep -v ' (key) ' | head -n 2)
	tools/grade.sh --feedback "$CG/blank.txt" >"$CG/fb" 2>&1
	tools/grade.sh --format gradescope "$CG/blank.txt" >"$CG/blank.json" 2>&1
	tools/grade.sh --key "$CG/blank.txt" >"$CG/key" 2>&1
	if [ -z "$keyed" ] && ! grep -q "want $p\b" "$CG/fb" && ! grep -q "want $p\b" "$CG/blank.json" &&
	   grep -q "^FAIL  answers  *frame_pages  *blank  *$p " "$CG/key"; then
		pass "24: the key is never printed (report, feedback, results.json: want (key)); --key shows it ($p pages)"
	else
		fail "24: the key printed" "lines with a key: $keyed; --key: $(grep 'frame_pages' "$CG/key")"
	fi
	# l4_fix is marked by the model: the answer, read as glibc reads the
	# environment, must leave no frame of the 34 MiB run to mmap.  Right on
	# any glibc: mmap_max=0, bare or as a tunable; a threshold of 40,000,000
	# B from 2.35 on (older ones refuse one over 32 MiB); never a top_pad,
	# nor "40M" (up to 2.38 read as 40, from 2.39 rejected:
	# tools/include/tunables.h); a word that is no setting is no answer,
	# and nothing breaks.
	cg_fix() { # ANSWER: graded with --key; prints PASS or FAIL
		sed "s/^l4_fix: .*/l4_fix: $1/" "$SUB" >"$CG/fix.txt"
		tools/grade.sh --key "$CG/fix.txt" 2>/dev/null | awk '$2 == "answers" && $3 == "l4_fix" { print $1 }'
	}
	want_big=FAIL; [ "$GMIN" -ge 35 ] && want_big=PASS
	got="$(cg_fix mmap_max=0) $(cg_fix glibc.malloc.mmap_max=0) $(cg_fix MALLOC_MMAP_THRESHOLD_=40000000)"
	got="$got $(cg_fix MALLOC_TOP_PAD_=1) $(cg_fix MALLOC_MMAP_THRESHOLD_=40M) $(cg_fix 'a=\$(reboot);b=c:d')"
	if [ "$got" = "PASS PASS $want_big FAIL FAIL FAIL" ]; then
		pass "l4_fix marked by the model: mmap_max=0 both ways, a 40 MB threshold ($want_big on 2.$GMIN), top_pad, 40M, junk"
	else
		fail "l4_fix marked by the model" "got $got, want PASS PASS $want_big FAIL FAIL FAIL"
	fi
	# 24: answers without their runs earn nothing: the questions: line and
	# the runs at the sheet's parameters deleted, the answers kept.
	awk '/^questions: / { next } /^@run lab[0-9]\.q-/ { s = 1 } !s { print } /^@end$/ { s = 0 }' "$SUB" |
		awk '/^@human$/ { h = 1 } h && /^lab[0-9]\.q-/ { next } { print }' >"$CG/f.txt"
	cg_grade "$CG/f.txt"; rc=$?
	if [ $rc -eq 1 ] && cg_has "^Answers: 0/$amax$" && [ "$(grep -c '^FAIL  answers  *[a-z0-9_]*  *not graded ' "$CG/out")" -eq 11 ] &&
	   grep -A1 '^FAIL  answers  *frame_pages' "$CG/out" | grep -q 'no questions: line'; then
		pass "24: answers without the runs at their parameters: every answer 0 with the reason, Answers 0/$amax"
	else
		fail "24: answers without their runs" "exit $rc: $(grep -E '^Answers' "$CG/out") $(grep -m 2 -A1 '^FAIL  answers' "$CG/out")"
	fi
	sed 's/^questions: Q_SIZE=[0-9]*/questions: Q_SIZE=40000000/' "$SUB" >"$CG/f.txt"
	cg_grade "$CG/f.txt"; rc=$?
	if cg_has "^Answers: $((ascore - 15))/$amax$" && grep -A1 '^FAIL  answers  *frame_pages' "$CG/out" | grep -q 'not the parameters of cg-ada'; then
		pass "24: a questions: line that is not the name's parameters: every answer 0 with the reason"
	else
		fail "24: a wrong questions: line" "exit $rc: $(grep -E '^Answers' "$CG/out")"
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
	a=$(sed -n 's/^Answers: \([0-9]*\)\/[0-9]*$/\1/p' "$CG/out")
	if [ $rc -eq 1 ] && [ -n "$a" ] && [ "$a" -lt "${ascore:-0}" ] && [ "$(grep -c '^FAIL  answers ' "$CG/out")" -ge 4 ] &&
	   [ "$(grep '^FAIL  ' "$CG/out" | grep -vc '^FAIL  answers ')" -eq 0 ]; then
		pass "grade: ada's answers copied onto bob's sheet: $(grep -c '^FAIL  answers ' "$CG/out") answers FAIL, Answers $a (copied: FAIL)"
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
	cg_case "24: one count edited, the readable table stale -> INTEGRITY human_table, Score 0, exit 4" 4 \
		'^FAIL  lab4\.34M +minor_faults' '^INTEGRITY  file +human_table' '^Score: 0/' '^Status: INTEGRITY'

	sed 's/^student: cg-ada$/student: cg-bob/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: another student's file, the name changed -> FAIL (their parameters' commands, answers)" 1 \
		'^FAIL  lab1\.q-untuned +commands' '^FAIL  lab5\.q-buf +commands' '^FAIL  answers +frame_pages'
	cp "$CG/f.txt" "$CG/bob-renamed.txt"

	thp=$(sed -n 's/^thp: //p' "$SUB")
	awk -v t="$thp" '/^csv: / { i = index($0, t); if (i) $0 = substr($0, 1, i - 1) "enabled=always defrag=madvise zero_page=1" substr($0, i + length(t)) } { print }' "$SUB" >"$CG/f.txt"
	cg_case "forgery: rows say THP always under a header that says $thp -> INTEGRITY rows_vs_header" 4 '^INTEGRITY  file +rows_vs_header'

	other=$((3 - RF))
	cg_row lab1.default-malloc read_faults_per_page $other >"$CG/f.txt"
	cg_case "forgery: a row says $other fault(s) a read page, the header $RF -> INTEGRITY rows_vs_header" 4 '^INTEGRITY  file +rows_vs_header'

	# 24: rows against the header's kit and compiler.  A patched frames.c
	# built here stamps KIT-dirty into its rows; the header edited to the
	# clean revision with no changed sources no longer hides it.
	kit=$(sed -n 's/^kit: //p' "$SUB")
	cg_row lab1.default-malloc kit "${kit%-dirty}-dirty" | sed "s/^kit: .*/kit: ${kit%-dirty}/; s/^sources_changed: .*/sources_changed: (none)/" >"$CG/f.txt"
	cg_case "24: a row built from a dirty kit, the header made clean -> INTEGRITY rows_vs_header" 4 \
		'^INTEGRITY  file +rows_vs_header' 'kit .*-dirty in the row'
	cg_row lab1.default-malloc compiler "clang 14.0.6" >"$CG/f.txt"
	cg_case "24: a row built by another compiler than the header's -> INTEGRITY rows_vs_header" 4 \
		'^INTEGRITY  file +rows_vs_header' 'compiler clang 14\.0\.6 in the row'

	grep -v '^binary_bits: ' "$SUB" >"$CG/f.txt"
	cg_case "forgery: binary_bits deleted -> INTEGRITY binary_bits" 4 '^INTEGRITY  file +binary_bits'

	# strace: none with the strace records deleted: the system-call checks
	# are ENV (no points), never PASS; with them left, INTEGRITY.
	awk '/^strace: / { $0 = "strace: none (not installed or ptrace denied): system-call checks are skipped" }
		/^@run .*\.strace/ { skip = 1 } !skip { print } /^@end$/ { skip = 0 }' "$SUB" |
		awk '/^@run lab5\./ { r = 1 } r && /^cmd: strace / { sub(/^cmd: strace -f -e trace=write -e raw=write -o [^ ]+ /, "cmd: ") }
		     r && /^write: / { next } /^@end$/ { r = 0 } { print }' >"$CG/nostrace.txt"
	cp "$CG/nostrace.txt" "$CG/f.txt"
	cg_case "forgery: strace: none and the strace records deleted -> ENV (no system-call points), exit 3" 3 \
		'^ENV   lab1\.default-malloc +mmap/2frames' '^ENV   lab5\.4K\.page +strace_writes' '^PASS  file +strace_line'
	sed 's/^strace: .*/strace: none (not installed)/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: strace: none with the strace records left -> INTEGRITY strace_line" 4 '^INTEGRITY  file +strace_line'

	# 24: repeated, extra or concatenated records and rows: INTEGRITY, and
	# the first copy is the one read.
	{ cat "$SUB"; sed -n '/^@run lab4.34M$/,/^@end$/p' "$SUB" | sed "s/,$f34,/,1,/"; } >"$CG/f.txt"
	cg_case "24: a duplicate @run after the real one -> INTEGRITY records_once; the first counts" 4 \
		'^INTEGRITY  file +records_once' '^PASS  lab4\.34M +minor_faults'
	cat "$SUB" "$SUB" >"$CG/f.txt"
	cg_case "24: the file concatenated twice -> INTEGRITY one_submission, Score 0" 4 '^INTEGRITY  file +one_submission' '^Score: 0/'
	awk -v f="$f34" '$0 == "@run lab4.34M" { r = 1 } { print } r && /^csv: / && ++n == 2 { l = $0; sub("," f ",", ",1,", l); print l; r = 0 }' "$SUB" >"$CG/f.txt"
	cg_case "24: a second, better CSV row inside one record -> INTEGRITY rows_once; the first counts" 4 \
		'^INTEGRITY  file +rows_once' '^PASS  lab4\.34M +minor_faults'
	awk '$0 == "@run lab4.34M" { r = 1 } { print } r && /^csv: / && ++n == 2 { for (i = 0; i < 50; i++) print; r = 0 }' "$SUB" >"$CG/f.txt"
	cg_case "24: one row repeated 50 times -> INTEGRITY rows_once" 4 '^INTEGRITY  file +rows_once'
	# 34: past the row cap (tools/grading/knobs: cap record_rows) the file
	# is not read at all: refused in one line, exit 2
	awk '$0 == "@run lab4.34M" { r = 1 } { print } r && /^csv: / && ++n == 2 { for (i = 0; i < 5000; i++) print; r = 0 }' "$SUB" >"$CG/f.txt"
	cg_grade "$CG/f.txt"; rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$CG/err")" -eq 1 ] && grep -q 'not graded: record lab4\.34M: over [0-9]* CSV lines' "$CG/err"; then
		pass "34: one row repeated 5,000 times -> refused by the row cap (exit 2, one line)"
	else
		fail "34: one row repeated 5,000 times" "exit $rc: $(head -c 300 "$CG/err")"
	fi

	# 24: relabelled as format 1 (which had no Lab 6): this kit grades
	# formats 2 and 3 only, so it is not a submission at all.
	sed 's/^format: malloc-labs-submission [0-9]*$/format: malloc-labs-submission 1/; s/ --no-thp//' "$SUB" |
		awk '/^@run lab6\./ { s = 1 } !s { print } /^@end$/ { s = 0 }' >"$CG/f.txt"
	cg_grade "$CG/f.txt"; rc=$?
	if [ $rc -eq 2 ] && grep -q 'formats 2 and 3 only' "$CG/err"; then
		pass "24: relabelled as format 1, Lab 6 deleted -> not graded (exit 2: this kit grades formats 2 and 3 only)"
	else
		fail "24: a format 1 relabel" "exit $rc: $(head -c 200 "$CG/err") $(tail -n 1 "$CG/out")"
	fi

	cg_row lab4.34M mmap_frames -2 >"$CG/f.txt"
	cg_case "forgery: a negative count -> INTEGRITY numbers (not counted as 0)" 4 '^INTEGRITY  file +numbers' '^FAIL  lab4\.34M +mmap_frames'
	cg_row lab4.34M minor_faults 17k >"$CG/f.txt"
	cg_case "forgery: a non-numeric count -> INTEGRITY numbers (not a number)" 4 '^INTEGRITY  file +numbers' '^FAIL  lab4\.34M +minor_faults .*17k'

	sed 's/^kit: \([0-9a-f]*\).*/kit: \1-dirty/; s/^sources_changed: .*/sources_changed: frames.c/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: kit -dirty with frames.c changed -> INTEGRITY kit (not the kit's programs)" 4 '^INTEGRITY  file +kit'
	sed 's/^kit: .*/kit: 0123abc/; s/^kit_sources: .*/kit_sources: 000000000000/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: a kit revision this kit never had, sources no revision has -> INTEGRITY kit" 4 '^INTEGRITY  file +kit'
	# not a checkout: the programs were built without git too (rows: unknown)
	cg_nokit() { sed "s/^kit: .*/kit: unknown (not a checkout)/; /^csv: /s/,$kit\$/,unknown/" "$SUB"; }
	cg_nokit >"$CG/f.txt"
	cg_case "grade: a kit that is not a checkout -> ENV kit (a download cannot say), exit 3" 3 '^ENV   file +kit'

	sed 's/^compiler: .*/compiler: Debian clang version 14.0.6/' "$SUB" >"$CG/f.txt"
	cg_case "forgery: compiler line clang, the binaries gcc -> INTEGRITY compiler" 4 '^INTEGRITY  file +compiler'

	sed '/^@run lab4.34M$/,/^@end$/d' "$SUB" >"$CG/f.txt"
	cg_case "forgery: a record deleted -> FAIL (commands, missing)" 1 '^FAIL  lab4\.34M +commands' '^FAIL  lab4\.34M +minor_faults +missing'
	sed '/^@human$/,$d' "$SUB" >"$CG/f.txt"
	cg_case "forgery: the @human table deleted -> INTEGRITY human_table" 4 '^INTEGRITY  file +human_table'

	# a format 2 file without an answer sheet still grades clean
	awk '/^questions: / { next } /^@answers$/ { s = 1 } /^@run lab[0-9]\.q-/ { s = 1 } !s { print } /^@end$/ { s = 0 }' "$SUB" |
		awk '/^@human$/ { h = 1 } h && /^lab[0-9]\.q-/ { next } { print }' >"$CG/noans.txt"
	cp "$CG/noans.txt" "$CG/f.txt"
	cg_case "grade: a file without answers or their steps grades clean, the answers SKIP" 0 \
		'^SKIP  answers +sheet' '^Answers: none'

	# 24 (item 9): one maximum whatever the file holds: clean, without its
	# sheet, without strace, with a record deleted, COUNT_LARGE under 200.
	sed '/^@run lab4.34M$/,/^@end$/d' "$SUB" >"$CG/max1.txt"
	sed 's/^count_large: .*/count_large: 100/' "$SUB" >"$CG/max2.txt"
	maxes=$(for f in "$SUB" "$CG/noans.txt" "$CG/nostrace.txt" "$CG/max1.txt" "$CG/max2.txt"; do
		tools/grade.sh "$f" 2>/dev/null | sed -n 's/^Score: [0-9]*\//max /p'; done)
	if [ "$(printf '%s\n' "$maxes" | sort -u | wc -l)" -eq 1 ] && [ "$(printf '%s\n' "$maxes" | wc -l)" -eq 5 ]; then
		pass "24: one maximum: clean, no sheet, no strace, a record deleted, COUNT_LARGE 100 all $(printf '%s\n' "$maxes" | head -n 1)"
	else
		fail "24: one maximum" "$(printf '%s\n' "$maxes" | tr '\n' ' ')"
	fi

	# 24: knobs have a minimum.  The course's (tools/grading/knobs: make
	# submit's defaults) flag this short file, and the gradebook shows
	# every knob; a course that says "below integrity" gets INTEGRITY.
	tools/grade.sh --csv "$SUB" >"$CG/csv" 2>/dev/null
	row=$(sed -n 2p "$CG/csv")
	if cg_grade "$SUB" && cg_has '^PASS  file  *knobs  *flagged ' && cg_has "^Knobs below the course's minimums.*FRAMES 2 < 10" &&
	   head -n 1 "$CG/csv" | grep -q ',frames,scale,variance_iters,count_large,bytes,' &&
	   printf '%s\n' "$row" | grep -q ',2,50,2000,200,1M,.*knobs'; then
		pass "24: knobs under the course's minimums flagged (report, the CSV's flags), every knob in the CSV"
	else
		fail "24: knob minimums" "$(grep -i knobs "$CG/out" | head -n 2) | $row"
	fi
	sed 's/^below .*/below integrity/' tools/grading/knobs >"$CG/knobs"
	tools/grade.sh --knobs "$CG/knobs" "$SUB" >"$CG/out" 2>&1; rc=$?
	if [ $rc -eq 4 ] && cg_has '^INTEGRITY  file  *knobs ' && cg_has '^Score: 0/'; then
		pass "24: --knobs with 'below integrity': the short file is INTEGRITY, exit 4"
	else
		fail "24: --knobs below integrity" "exit $rc: $(grep -A1 'knobs' "$CG/out" | head -n 3)"
	fi
	printf 'FRAMES ten at-least\n' >"$CG/knobs"
	check_exit "grade: a malformed knobs file stops the grade (exit 2)" 2 tools/grade.sh --knobs "$CG/knobs" "$SUB"
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
	if [ "$(wc -l <"$CG/csv")" -eq 4 ] && [ "$fields" = "21 " ] &&
	   grep -q '^[^,]*a\.txt,"eve,172,172,0,0,",' "$CG/csv" && grep -q ",\"'=HYPERLINK(" "$CG/csv" &&
	   grep -q 'c?d\.txt' "$CG/csv"; then
		pass "grade --csv: a name with commas, a =HYPERLINK and a newline in a file name stay one quoted field each (4 lines, 21 fields)"
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
	sed "s/^kit: .*/kit: unknown (not a checkout)/; /^csv: /s/,$(sed -n 's/^kit: //p' "$SUB")\$/,unknown/" "$SUB" >"$CG/env.txt"
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
	# 24: copies of one run are flagged as one group (named, not listed
	# member by member), each pair on stderr with how alike; the CSV has
	# one header for all arguments
	mkdir -p "$CG/class"
	cp "$SUB" "$CG/class/ada.txt"; cp "$CG/bob-renamed.txt" "$CG/class/bob.txt"
	[ -f "$CG/bob.txt" ] && cp "$CG/bob.txt" "$CG/class/bob-own.txt"
	tools/grade.sh --csv "$CG/class" "$SUB" >"$CG/csv" 2>"$CG/err"; rc=$?
	heads=$(grep -c '^file,student,date,status,score,max,answers,answers_max,fails,envs,frames,scale,variance_iters,count_large,bytes,kit,glibc,kernel,thp,flags,same_run_as$' "$CG/csv")
	flagged=$(grep -Ec ',copy group 1 of 3 files(; score [0-9]+ withheld for review)?$' "$CG/csv")
	pairs=$(grep -c '^grade: copies of one run: .* ~ .*: [0-9]* of [0-9]* values alike ([0-9]*%)$' "$CG/err")
	if [ $rc -eq 4 ] || [ $rc -eq 1 ] && [ "$heads" -eq 1 ] && [ "$(grep -c . "$CG/csv")" -eq 5 ] && [ "$flagged" -eq 3 ] &&
	   [ "$pairs" -eq 2 ] && grep -q 'bob-own\.txt,.*,$' "$CG/csv"; then
		pass "24: grade --csv DIR FILE: ada's run under three names is copy group 1 of 3 files, 2 pairs on stderr (bob's own run not)"
	else
		fail "grade --csv: copies of one run" "exit $rc, $heads header(s), $flagged in the group, $pairs pairs: $(cut -c1-120 "$CG/csv")"
	fi
	# Two hand-ins of one student in a batch (make submit run twice, both
	# uploaded): stderr names the files, each row's flags say duplicate
	# (the columns as they were), and neither is picked by its date line,
	# the file's own word.  Here ada's file twice, and bob's two: the
	# renamed copy of ada's run and his own, later one.
	dups=$(grep -c '^grade: 2 files of one student, ' "$CG/err")
	if [ "$dups" -eq 2 ] &&
	   grep -q '^grade: 2 files of one student, cg-bob: .*/bob-own\.txt, .*/bob\.txt; none picked (a date line is the file.s own word)$' "$CG/err" &&
	   grep -q 'bob-own\.txt,.*,knobs;duplicate,$' "$CG/csv" && grep -q '/bob\.txt,.*,knobs;duplicate,' "$CG/csv" &&
	   grep -q "^$SUB,.*;duplicate," "$CG/csv" && grep -q 'class/ada\.txt,.*;duplicate,' "$CG/csv" &&
	   ! grep -q 'duplicate-' "$CG/csv"; then
		pass "grade --csv: two files of one student are named on stderr and flagged duplicate, none picked, twice"
	else
		fail "grade --csv: duplicates of one student" "$dups on stderr: $(grep 'of one student' "$CG/err"); $(grep -o ',[^,]*,[^,]*$' "$CG/csv" | tr '\n' ' ')"
	fi
	# 24: many copies: each row names its group in a few words, not the
	# other files (500 copies listed 499 names a row).  60 here; the time
	# of 500 is tools/maint/grade-timing.sh's (results/grade-timing.txt).
	mkdir -p "$CG/many"
	for i in $(seq 1 60); do sed "s/^student: .*/student: c$i/" "$CG/noans.txt" >"$CG/many/c$i.txt"; done
	tools/grade.sh --csv "$CG/many" >"$CG/csv" 2>"$CG/err"; rc=$?
	longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$CG/csv")
	if [ $rc -eq 1 ] && [ "$(grep -c ',REVIEW,0,.*,copy group 1 of 60 files; score [0-9]* withheld for review$' "$CG/csv")" -eq 60 ] && [ "$longest" -lt 400 ]; then
		pass "24: 60 copies: one group of 60 named in each row, the longest CSV row $longest characters"
	else
		fail "24: 60 copies" "exit $rc, longest row $longest: $(tail -n 1 "$CG/csv" | cut -c 1-200)"
	fi

	# feedback: each FAIL and ENV with what it means and what to try
	cg_row lab4.34M minor_faults $((f34 + 1000)) |
		sed "s/^kit: .*/kit: unknown (not a checkout)/; /^csv: /s/,$kit\$/,unknown/" >"$CG/f.txt"
	tools/grade.sh "$CG/f.txt" >"$CG/out" 2>&1
	want=$(grep -cE '^(FAIL|ENV|INTEGRITY) ' "$CG/out")
	tools/grade.sh --feedback "$CG/f.txt" >"$CG/fb" 2>&1; rc=$?
	if [ $rc -eq 4 ] && [ "$want" -ge 3 ] && [ "$(grep -c '^  means: ' "$CG/fb")" -eq "$want" ] &&
	   [ "$(grep -c '^  try: ' "$CG/fb")" -eq "$want" ] && ! awk 'length($0) > 100 { exit 1 }' "$CG/fb" | grep -q .; then
		pass "grade --feedback: the $want FAIL/ENV/INTEGRITY lines each with means: and try: (<= 100 columns)"
	else
		fail "grade --feedback" "exit $rc, $want FAIL/ENV, $(grep -c '^  means: ' "$CG/fb") means"
	fi

	# Gradescope: the tests' scores sum to the top-level score = Score + Answers
	tools/grade.sh --format gradescope "$SUB" >"$CG/results.json" 2>"$CG/err"; rc=$?
	sum=$(awk -F'"score": ' '/^    \{"name": / { split($2, a, ","); s += a[1] } END { print s + 0 }' "$CG/results.json")
	top=$(sed -n 's/^  "score": \([0-9]*\),$/\1/p' "$CG/results.json")
	# Each test carries its visibility (gradescope.awk, from grade.awk's
	# out()): the 11 answers and the runs at the sheet's parameters (scored
	# with them: lab1.q-untuned ...) after_due_date, every other visible.
	bad=$(awk 'NR == 1 && $0 != "{" { print NR } /^    \{/ && !/^    \{"name": "[^"]*", "score": [0-9]+, "max_score": [0-9]+, "status": "(passed|failed)", "visibility": "(visible|after_due_date)", "output": "([^"\\]|\\.)*"\},?$/ { print NR }' "$CG/results.json" | head -n 3)
	hidden=$(grep -c '^    {"name": "answer: [^"]*", .*"visibility": "after_due_date", "output": ' "$CG/results.json")
	qruns=$(grep -c '^    {"name": "lab[0-9]\.q-[^"]*", .*"visibility": "after_due_date", "output": ' "$CG/results.json")
	shown=$(grep '^    {"name": ' "$CG/results.json" | grep -Ev '^    \{"name": "(answer: |lab[0-9]\.q-)' |
		grep -vc '"visibility": "visible", "output": ')
	if [ $rc -eq 0 ] && [ -n "$top" ] && [ "$sum" -eq "$top" ] && [ "$top" -eq $((score + ascore)) ] && [ -z "$bad" ] &&
	   [ "$hidden" -eq 11 ] && [ "$qruns" -ge 1 ] && [ "$shown" -eq 0 ] && [ "$(tail -n 1 "$CG/results.json")" = "}" ]; then
		pass "grade --format gradescope: every test well formed, the 11 answers and the $qruns runs at the sheet's parameters after_due_date, the rest visible; the tests sum to $top = Score $score + Answers $ascore"
	else
		fail "grade --format gradescope" "exit $rc, sum $sum, top '$top', Score $score + $ascore, bad lines: $bad; $hidden answers and $qruns sheet runs after_due_date, $shown others not visible"
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
		# GRADE=file: a course that still grades files (the default, code,
		# scores a file alone 0: tests/gradescope.sh)
		GRADE=file AUTOGRADER_ROOT=$CG/ag "$CG/ag/source/run_autograder" >"$CG/ag.out" 2>&1; rc=$?
		top=$(sed -n 's/^  "score": \([0-9]*\),$/\1/p' "$CG/ag/results/results.json" 2>/dev/null)
		if [ $rc -eq 0 ] && [ "$top" = "$((score + ascore))" ]; then
			pass "make autograder: setup.sh and run_autograder at the zip's root; GRADE=file run_autograder grades the upload ($top)"
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
	if [ $rc -eq 0 ] && [ -n "$rdir" ] && [ -f "$rdir/cg-ada.txt" ] && grep -Eq '^Answers: ([0-9]+)/\1$' "$CG/out" &&
	   cg_has '^submissions/rerun\.[^,]*/cg-ada\.txt,cg-ada,'; then
		pass "rerun: ada's sheet re-run here (make submit on this machine), graded clean with every answer point"
	else
		fail "rerun" "exit $rc: $(tail -n 3 "$CG/err")"
	fi
	case $rdir in submissions/rerun.*) rm -rf "$rdir" ;; esac
fi

