#!/usr/bin/env bash
# tests/grade.sh - make submit and tools/grade.sh.  One real submission,
# made through make with small knobs (shared_submission), must grade
# clean; every other case is a copy of it with one thing changed, so the
# whole file costs at most one short submission (no times asserted).
. "$(dirname "$0")/lib.sh" || exit 1

G_SUB=$TMP/g_sub.txt
g_grade() { # FILE...: grade into $TMP/g_out, return the grader's status
	tools/grade.sh "$@" >"$TMP/g_out" 2>"$TMP/g_err"
}
g_lines() { grep -c "^$1 " "$TMP/g_out"; }   # how many checks had status $1

# The reference in results/ was made by the kit (make reference) at the
# default knobs (FRAMES=10): it must grade clean wherever it is graded.
if [ -f results/reference-submission.txt ]; then
	g_grade results/reference-submission.txt; rc=$?
	if [ $rc -eq 0 ] && [ "$(g_lines FAIL)" -eq 0 ] && [ "$(g_lines ENV)" -eq 0 ] &&
	   grep -q '^frames: 10$' results/reference-submission.txt; then
		pass "grade: the reference submission (FRAMES=10) grades clean ($(tail -n 1 "$TMP/g_out"))"
	else
		fail "grade: the reference submission" "exit $rc: $(grep -m 3 -E '^(FAIL|ENV)' "$TMP/g_out")"
	fi
else
	fail "grade: the reference submission" "results/reference-submission.txt is missing (make reference)"
fi

# A short real submission, made through make as typed (the run's shared
# one: tests/lib.sh), copied here so the cases below can edit the copy.
if shared_submission && cp "$SUB" "$G_SUB" &&
   [ "$(tail -n 1 "$(dirname "$SUB")/sub.out")" = "submission: $SUB" ] && [ ! -e "$SUB.part" ]; then
	pass "make submit: exit 0, the last line names the file, no .part left"
else
	fail "make submit" "${SUB_WHY:-the last line: $(tail -n 1 "$(dirname "$SUB")/sub.out")}"
fi
g_grade "$G_SUB"; rc=$?
if [ "$HANDOUT" = 1 ]; then
	graded_clean "grade: a FRAMES=2 submission made through make" "$rc" "$TMP/g_out"
elif [ $rc -eq 0 ] && [ "$(g_lines FAIL)" -eq 0 ] && [ "$(g_lines ENV)" -eq 0 ] && [ "$(g_lines PASS)" -gt 100 ]; then
	pass "grade: a FRAMES=2 submission made through make grades clean ($(tail -n 1 "$TMP/g_out"))"
else
	fail "grade: a fresh submission" "exit $rc: $(grep -m 3 -E '^(FAIL|ENV)' "$TMP/g_out") $(head -c 200 "$TMP/g_err")"
fi
cp "$TMP/g_out" "$TMP/g_clean"; g_rc0=$rc
# make grade FILE= as a student types it: its first line is the grade's,
# not make's echo of its recipe; the status line stays for a failure (a
# handout's stubs fail their steps: make's 2, the grader's status first).
want_rc=0 want_err=
[ $rc -eq 0 ] || want_rc=2 want_err="make grade: tools/grade.sh exited $rc"
make --no-print-directory grade FILE="$G_SUB" >"$TMP/g_make" 2>"$TMP/g_make.err"; rc=$?
if [ $rc -eq $want_rc ] && cmp -s "$TMP/g_clean" "$TMP/g_make" &&
   { [ -z "$want_err" ] && [ ! -s "$TMP/g_make.err" ] || [ "$(head -n 1 "$TMP/g_make.err")" = "$want_err" ]; }; then
	pass "make grade FILE=: exactly tools/grade.sh's report, from its first line ($(head -n 1 "$TMP/g_make" | cut -c 1-40)...)"
else
	fail "make grade FILE=: the report alone" "exit $rc; first line: $(head -n 1 "$TMP/g_make" | cut -c 1-100)"
fi

# g_changes: "STATUS step check" for each check whose status differs from
# the clean grade ($TMP/g_clean), sorted: a mutation case names exactly the
# checks it must change, and nothing else may move.
g_changes() {
	diff <(awk '/^(PASS|FAIL|ENV|INTEGRITY|SKIP) / { print $1, $2, $3 }' "$TMP/g_clean" | sort) \
	     <(awk '/^(PASS|FAIL|ENV|INTEGRITY|SKIP) / { print $1, $2, $3 }' "$TMP/g_out" | sort) | sed -n 's/^> //p'
}

# g_edit STEP FIELD VALUE < IN > OUT: set FIELD (by header name) in STEP's
# CSV row.  The fields before the environment columns hold no commas.
g_edit() {
	awk -v step="$1" -v col="$2" -v val="$3" '
		$0 == "@run " step { inrec = 1 }
		inrec && /^csv: / { if (!k) { n = split(substr($0, 6), h, ","); for (i = 1; i <= n; i++) if (h[i] == col) k = i }
			else { line = substr($0, 6); n = split(line, f, ","); f[k] = val; line = f[1]
				for (i = 2; i <= n; i++) line = line "," f[i]; $0 = "csv: " line } }
		$0 == "@end" { inrec = 0; k = 0 }
		{ print }'
}

# One count 10% off fails exactly that check, and the file's own readable
# table (which still holds the true count) no longer agrees with it: the
# status INTEGRITY, exit 4, no score.
f34=$(awk '$0 == "@run lab4.34M" { r = 1 } r && /^csv: [a-z]/ && ++n == 2 { split($0, f, ","); print f[7]; exit }' "$G_SUB")
g_edit lab4.34M minor_faults $(( f34 + f34 / 10 )) <"$G_SUB" >"$TMP/g_bad.txt"
g_grade "$TMP/g_bad.txt"; rc=$?
# Exactly these checks change from the clean grade: the count, and the
# readable table that still says the true value.
want=$(printf 'FAIL lab4.34M minor_faults\nINTEGRITY file human_table')
g_score() { sed -n 's/^Score: \([0-9]*\)\/.*/\1/p' "$TMP/g_out"; }
bad_score=$(g_score)
if [ $rc -eq 4 ] && [ "$(g_changes)" = "$want" ] && [ "$bad_score" = 0 ] && grep -q '^Status: INTEGRITY' "$TMP/g_out"; then
	pass "grade: lab4.34M faults +10% ($f34 -> $(( f34 + f34 / 10 ))), the table stale: FAIL minor_faults, INTEGRITY human_table, Score 0, exit 4"
else
	fail "grade: a count 10% off" "exit $rc, score $bad_score; changed from the clean grade: $(g_changes)"
fi
# The same count wrong in the table as well (an honest-looking failing
# count): exit 1, and it scores more than the flagged forgery.
sed "s/^\(lab4\.34M  *[0-9][0-9]*  *\)$f34 /\1$(( f34 + f34 / 10 )) /" "$TMP/g_bad.txt" >"$TMP/g_fail.txt"
g_grade "$TMP/g_fail.txt"; rc=$?
fail_score=$(g_score)
if [ $rc -eq 1 ] && [ "$(g_changes)" = "FAIL lab4.34M minor_faults" ] && [ "${fail_score:-0}" -gt "$bad_score" ]; then
	pass "grade: a failing count with its table agreeing: exit 1, Score $fail_score > the flagged file's $bad_score"
else
	fail "grade: a consistent failing count" "exit $rc, score '$fail_score'; changed: $(g_changes)"
fi

# Inherited allocator settings make the allocator's checks ENV (exit 3),
# never PASS; what no setting changes (write() counts) still passes.  The
# copy carries the setting where a real run would show it: the header and
# every run's environment columns, counted from the end (a step that sets GLIBC_TUNABLES itself
# replaces an inherited one).
g_pollute() { # WHAT VALUE: set the env column (glibc_tunables|malloc_env)
	awk -v what="$1" -v val="$2" '
		/^malloc_env: / && what == "malloc_env" { $0 = "malloc_env: " val }
		/^glibc_tunables: / && what == "glibc_tunables" { $0 = "glibc_tunables: " val }
		/^@run / { hdr = 1 }
		/^csv: / && hdr { hdr = 0; n = split($0, h, ","); for (i = 1; i <= n; i++) if (h[i] == what) off = n - i; print; next }
		/^csv: / && off { n = split($0, f, ","); k = n - off   # counted from the end: a label may hold a comma
			if (what == "malloc_env" || f[k] == "") f[k] = val
			line = f[1]; for (i = 2; i <= n; i++) line = line "," f[i]; $0 = line }
		{ print }' "$G_SUB"
}
for g_case in "malloc_env MALLOC_MMAP_MAX_=0" "glibc_tunables glibc.malloc.mmap_max=0"; do
	set -- $g_case
	needs_solution "every exercise" "grade: $2 inherited: ENV, no FAIL" || continue
	g_pollute "$1" "$2" >"$TMP/g_env.txt"
	g_grade "$TMP/g_env.txt"; rc=$?
	if [ $rc -eq 3 ] && [ "$(g_lines FAIL)" -eq 0 ] &&
	   grep -A1 "^ENV   lab1\.default-malloc  *minor_faults " "$TMP/g_out" | grep -q "$2" &&
	   grep -q '^PASS  lab5\.4K\.page  *writes ' "$TMP/g_out"; then
		pass "grade: $2 inherited: $(g_lines ENV) checks ENV, exit 3"
	else
		fail "grade: $2 inherited" "exit $rc, $(g_lines ENV) ENV, $(g_lines FAIL) FAIL"
	fi
done

full_only "grade: line ends, a class, the step table, escapes, copies, batches"

# g_same NAME FILE: FILE grades exactly as the clean copy did, its exit
# status 0 (in a handout, the stubs' 1 too: their FAILs are the same).
g_same() {
	g_grade "$2"; local rc=$?
	if [ $rc -le "$HANDOUT" ] && diff <(sed 1d "$TMP/g_clean") <(sed 1d "$TMP/g_out") >/dev/null; then
		pass "grade: $1 grades the same"
	else
		fail "grade: $1" "exit $rc: $(diff <(sed 1d "$TMP/g_clean") <(sed 1d "$TMP/g_out") | head -n 4)"
	fi
}
# CRLF line ends and trailing blanks grade the same.
sed 's/$/  \r/' "$G_SUB" >"$TMP/g_crlf.txt"
g_same "a CRLF copy with trailing blanks" "$TMP/g_crlf.txt"

# Notepad's "Unicode" is UTF-16 (a BOM, then a NUL after each ASCII byte):
# one line naming it, exit 2, as for any file that is no submission; a
# copy with no BOM too.  Its "UTF-8" (a BOM EF BB BF) grades as before, CRLF
# line ends and all.
if command -v iconv >/dev/null 2>&1; then
	{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$G_SUB"; } >"$TMP/g_u16.txt"
	iconv -f UTF-8 -t UTF-16BE "$G_SUB" >"$TMP/g_u16be.txt"
	for f in g_u16.txt g_u16be.txt; do
		g_grade "$TMP/$f"; rc=$?
		if [ $rc -eq 2 ] && [ ! -s "$TMP/g_out" ] &&
		   [ "$(cat "$TMP/g_err")" = "grade: $TMP/$f: saved as UTF-16 (Notepad's \"Unicode\"): save it as UTF-8" ]; then
			pass "grade: a UTF-16 copy ($f) is named so in one line, exit 2"
		else
			fail "grade: a UTF-16 copy ($f)" "exit $rc: $(head -c 300 "$TMP/g_err")"
		fi
	done
else
	skip "grade: a UTF-16 copy is named so" "iconv is not installed"
fi
{ printf '\357\273\277'; sed 's/$/\r/' "$G_SUB"; } >"$TMP/g_bom.txt"
g_same "a UTF-8 copy with a BOM and CRLF line ends" "$TMP/g_bom.txt"

# A directory of 30 submissions: a report each, then one CSV row each.
# They are copies of one run (renamed; 3 with a count edited): one copy
# group of 30, named in each row, not 29 names a row.
mkdir -p "$TMP/g_dir"
for i in $(seq 1 30); do
	if [ $((i % 10)) -eq 0 ]; then src=$TMP/g_bad.txt; else src=$G_SUB; fi
	sed "s/^student: .*/student: s$i/" "$src" >"$TMP/g_dir/s$i.txt"
done
g_grade "$TMP/g_dir"; rc=$?
sed -n '/^file,student,date,status,score,max,/,$p' "$TMP/g_out" >"$TMP/g_csv"
rows=$(grep -c '^/' "$TMP/g_csv")
integ=$(awk -F, '$4 == "INTEGRITY" && $5 == 0' "$TMP/g_csv" | wc -l)
group=$(grep -Ec ',copy group 1 of 30 files(; score [0-9]+ withheld for review)?$' "$TMP/g_csv")
review=$(grep -c ',REVIEW,0,.*,copy group 1 of 30 files; score [0-9]* withheld for review$' "$TMP/g_csv")
if [ $rc -eq 4 ] && [ "$rows" -eq 30 ] && [ "$integ" -eq 3 ] && [ "$group" -eq 30 ] && [ "$review" -eq 27 ]; then
	pass "grade DIR: 30 copies, 30 CSV rows, the 3 edited ones INTEGRITY with 0, the 27 others REVIEW with 0, all one copy group, exit 4"
else
	fail "grade DIR" "exit $rc, $rows rows, $integ INTEGRITY, $group in the group: $(tail -n 2 "$TMP/g_csv")"
fi

# Not a submission: exit 2.
sed -n '/^@run /,$p' "$G_SUB" >"$TMP/g_nohdr.txt"
check_exit "grade: a file without the header exits 2" 2 tools/grade.sh "$TMP/g_nohdr.txt"
check_exit "grade: a missing file exits 2" 2 tools/grade.sh "$TMP/no-such-file"
# A header the model cannot take is the file's fault, said once (exit 2),
# not 70 checks failed "no prediction" (one batch: each file named).
g_hdrs=()
for g_h in 'glibc: 2.999999999' 'glibc: abc' 'page_bytes: 5000'; do
	g_hdrs+=("$TMP/g_hdr${#g_hdrs[@]}.txt"); sed "s/^${g_h%%:*}: .*/$g_h/" "$G_SUB" >"${g_hdrs[-1]}"
done
g_grade "${g_hdrs[@]}"; rc=$?
if [ $rc = 2 ] && [ "$(grep -c 'g_hdr[0-2]\.txt: the header .*garbles glibc' "$TMP/g_err")" = 2 ] &&
   grep -q 'g_hdr2\.txt: the header .*garbles page_bytes' "$TMP/g_err" && ! grep -q 'no prediction' "$TMP/g_out"; then
	pass "grade: a glibc of 2.999999999 or abc, a page of 5000 bytes: each file stops (exit 2, named)"
else fail "grade: a header the model cannot take" "exit $rc: $(head -c 300 "$TMP/g_err")"; fi
check_exit "grade: no arguments exits 2" 2 tools/grade.sh
check_exit "submit: a bad knob exits 2" 2 env FRAMES=ten tools/submit.sh

# The step table drives the grader (issue 23): each graded row names its
# checker.  A row without one, or with a name grade.awk lacks, stops the
# grade (exit 2, the row named); a new row naming an existing checker is
# graded with no other edit (here a second trim step, its record copied).
g_awk() { # STEPS FILE [KIT_DATE]: grade FILE against another step table
	printf '%s\t%s\t\tyes\t1\t\t%s\n' "$2" "$2" "${3:-}" >"$TMP/g_manifest"
	awk -v STEPS="$1" -v SUMMARY= -v MODE=report -v KNOBS_FILE=tools/grading/knobs -v MANIFEST="$TMP/g_manifest" \
		-v PREDICT=tools/grading/predict -v PREDICT_REQ="$TMP/g_predict" \
		-f tools/lib/csv.awk -f tools/grading/steps.awk -f tools/grading/alike.awk -f tools/grading/grade.awk \
		-f tools/grading/gradescope.awk </dev/null >"$TMP/g_out" 2>"$TMP/g_err"
}
# g_steps_refused NAME SED MESSAGE: the table edited by SED stops the grade
# (exit 2) with MESSAGE on stderr.
g_steps_refused() {
	sed "$2" tools/grading/steps >"$TMP/g_steps"
	g_awk "$TMP/g_steps" "$G_SUB"; rc=$?
	if [ $rc -eq 2 ] && grep -qF "$3" "$TMP/g_err"; then pass "steps: $1 stops the grader (exit 2, the row named)"
	else fail "steps: $1" "exit $rc: $(head -c 200 "$TMP/g_err")"; fi
}
g_steps_refused "a graded row without a checker" 's/| threads_tuned:lab3\.pre25 |/| - |/' \
	'graded step lab3.tuned names no checker'
g_steps_refused "a checker grade.awk does not have" 's/| trim |/| trimm |/' "step lab6.trim names checker 'trimm'"
g_steps_refused "points that do not start with a total" 's/| 3 trimmed_kib=2 \*=1 |/| trimmed_kib=2 |/' \
	"step lab6.trim: points 'trimmed_kib=2' do not start"
g_steps_refused "a tolerance of no known form" 's/| minor_faults=fault | -$/| minor_faults=few | -/' "is not CHECK=N, fault"
g_steps_refused "a since that is no UTC time" 's/^\(lab6\.trim .*\)| -$/\1| 2026-12-03/' "since '2026-12-03' is not"
g_steps_refused "points that its checks do not add up to" 's/| 3 trimmed_kib=2 \*=1 |/| 4 trimmed_kib=2 *=1 |/' \
	"step lab6.trim: its checks are out of 3 points, its row says 4 (its checker trim made commands=1 trimmed_kib=2)"
g_steps_refused "a check its row gives no points" 's/| 3 trimmed_kib=2 \*=1 |/| 3 trimmed=2 |/' \
	"step lab6.trim gives no points for its check"
# A row's policy (issue 45): the table's words, in one place; the grader
# hands it to the model and never reads --tune out of a command.
g_steps_refused "a tunable written without GLIBC_TUNABLES" 's/^\(lab6\.trim .*| \)default \(| \.\/arenas\)/\1mmap_max=0 \2/' \
	"step lab6.trim: policy word 'mmap_max=0' is not default, the program's own (a word) or NAME=VALUE"
g_steps_refused "two policies of the program's own" 's/^\(lab1\.tune-calloc .*| \)tune \(| \.\/frames\)/\1tune once \2/' \
	"step lab1.tune-calloc: two policies of the program's own: tune and once"
g_steps_refused "a run row with no policy" 's/^\(lab6\.trim .*| \)default \(| \.\/arenas\)/\1- \2/' \
	"step lab6.trim: policy '-' is the row"
g_steps_refused "a command that says --tune itself" 's/^\(lab1\.default-calloc .*\)--alloc calloc/\1--tune --alloc calloc/' \
	"step lab1.default-calloc: its command says --tune: write \$POLICY there and tune in its policy"
g_steps_refused "a policy tune with no \$POLICY in its command" 's/^\(lab1\.tune-memset .*\)\$POLICY /\1/' \
	"step lab1.tune-memset: its policy is tune and its command has no \$POLICY for --tune"
# The model is handed the row's policy: a word of the program's own it
# does not know is no prediction (its reason), not a default.
sed 's/^\(lab1\.tune-calloc .*| \)tune \(| \.\/frames\)/\1tunes \2/' tools/grading/steps >"$TMP/g_steps"
g_awk "$TMP/g_steps" "$G_SUB"
if grep -A1 '^FAIL  lab1\.tune-calloc  *minor_faults' "$TMP/g_out" | grep -q 'no prediction: unknown key tunes'; then
	pass "steps: a policy word the model does not know: its checks FAIL, no prediction, the word named"
else fail "steps: a policy word the model does not know" "$(grep -A1 'lab1.tune-calloc  *minor' "$TMP/g_out" | head -4)"; fi

# One model (issue 38): grade.awk asks tools/grading/predict, and works
# out none of glibc's policy itself.  A predictor that answers fewer
# questions than asked stops the grade (exit 2: the grader's fault, never
# a student's FAIL); one that answers "error" fails the checks it was
# asked for, with the reason.  And no allocator rule is left in the awk:
# none of the tunables' names, the chunk layout's sizes or a division by
# the page size.
g_pred() { # PREDICT: grade $G_SUB with that predictor
	printf '%s\t%s\t\tyes\t1\t\t\n' "$G_SUB" "$G_SUB" >"$TMP/g_manifest"
	awk -v STEPS=tools/grading/steps -v SUMMARY= -v MODE=report -v KNOBS_FILE=tools/grading/knobs -v MANIFEST="$TMP/g_manifest" \
		-v PREDICT="$1" -v PREDICT_REQ="$TMP/g_predict" \
		-f tools/lib/csv.awk -f tools/grading/steps.awk -f tools/grading/alike.awk -f tools/grading/grade.awk \
		-f tools/grading/gradescope.awk </dev/null >"$TMP/g_out" 2>"$TMP/g_err"
}
g_pred /bin/true; rc=$?
if [ $rc -eq 2 ] && grep -q 'answered 0 of [0-9]* questions' "$TMP/g_err"; then
	pass "grade: a predictor that answers nothing stops the grade (exit 2)"
else
	fail "grade: a predictor that answers nothing" "exit $rc: $(head -c 200 "$TMP/g_err")"
fi
printf '#!/bin/sh\nsed "s/^id=\\([0-9]*\\) .*/\\1 error no model here/"\n' >"$TMP/g_errpred"; chmod +x "$TMP/g_errpred"
g_pred "$TMP/g_errpred"; rc=$?
if [ $rc -eq 1 ] && grep -q '^FAIL  lab1\.default-malloc  *minor_faults .* none ' "$TMP/g_out" &&
   grep -q '(no prediction: no model here)' "$TMP/g_out" && ! grep -q '^PASS .*minor_faults' "$TMP/g_out"; then
	pass "grade: a question the model cannot answer fails its checks, with the reason"
else
	fail "grade: a question the model cannot answer" "exit $rc: $(grep -m 3 'minor_faults' "$TMP/g_out")"
fi
# The kit checked out under a path with a space and a ' in it: the model
# is still asked (grade.awk quotes both paths for sh).
mkdir -p "$TMP/it's here" && ln -sf "$PWD/tools/grading/predict" "$TMP/it's here/predict"
g_pred "$TMP/it's here/predict"; rc=$?
if [ $rc != 2 ] && [ ! -s "$TMP/g_err" ] && ! grep -q 'no prediction' "$TMP/g_out" && grep -q '^PASS .*minor_faults' "$TMP/g_out"; then
	pass "grade: a predictor under a path with a space and a ' answers every question"
else fail "grade: a predictor under /tmp/it's here/" "exit $rc: $(head -c 200 "$TMP/g_err")"; fi
g_rules=$(grep -nE 'mmap_threshold|trim_threshold|top_pad|mmap_max|perturb|66355200|131072|33554432|656|/ *PAGE' \
	tools/grading/grade.awk | grep -v '^[0-9]*:[[:space:]]*#')
if [ -z "$g_rules" ]; then pass "grade.awk holds no allocator rule (tunables, chunk sizes, pages): the model does"
else fail "grade.awk holds allocator rules" "$(printf '%s' "$g_rules" | head -n 3)"; fi

# The table carries the scoring (issue 38): the graded rows' points and the
# row "file" add up to the maximum a file is graded out of, the exercise
# rows' to make check's; a row's points and tolerance are read from it.
g_max=$(awk -v KIND=maximum -f tools/grading/steps.awk tools/grading/steps | paste -sd' ')
tools/grade.sh "$G_SUB" >"$TMP/g_sub.out" 2>/dev/null
# A heap forged in frames' heap_top_* columns (2^56 bytes, all mapped: it
# would take Lab 1's tuned want to 0 faults) is no prediction, so those
# checks FAIL, saying why; and the next file in the batch is graded as alone.
awk -F, -v OFS=, '!/^csv: / { hb = 0 } /^csv: / && !csv { hb = hm = 0
	for (i = 1; i <= NF; i++) { if ($i == "heap_top_bytes") hb = i; if ($i == "heap_top_mapped") hm = i } }
	/^csv: / && csv && hb && $hb != "" { $hb = "72057594037927936"; $hm = "0-99999999999999" }
	{ csv = /^csv: / } { print }' "$G_SUB" >"$TMP/g_heap.txt"
g_grade "$TMP/g_heap.txt" "$G_SUB"
sed '1,/^== .*g_sub\.txt$/d; /^== one row a submission$/,$d' "$TMP/g_out" >"$TMP/g_after"
if grep -q '^FAIL  lab1\.tune-malloc  *minor_faults ' "$TMP/g_out" &&
   grep -q "(no prediction: a heap larger than frames' start-up makes)" "$TMP/g_out" &&
   cmp -s "$TMP/g_after" "$TMP/g_sub.out"; then
	pass "grade: a forged heap (2^56 bytes, mapped) FAILs its checks; the next file grades as alone"
else fail "grade: a forged heap" "$(grep -m 2 'tune-malloc  *minor' "$TMP/g_out"; diff "$TMP/g_after" "$TMP/g_sub.out" | head -n 4)"; fi
g_got=$(sed -n 's/^Score: [0-9]*\///p' "$TMP/g_sub.out")
if [ -n "$g_got" ] && [ "${g_max% check *}" = "submission $g_got" ]; then
	pass "steps: the rows' points add up to the maximum the grader prints ($g_max)"
else fail "steps: the rows' points add up to the maximum" "table: $g_max; the grader: $g_got"; fi
sed 's/^\(lab6\.trim .*\)| 3 trimmed_kib=2 \*=1 |/\1| 5 trimmed_kib=4 *=1 |/; s/^\(lab4\.30M  .*\)| minor_faults=fault |/\1| minor_faults=77 |/' \
	tools/grading/steps >"$TMP/g_steps"
g_awk "$TMP/g_steps" "$G_SUB"; rc=$?
if ! needs_solution lab6.give_memory_back "steps: a row's points and tolerance come from the table"; then :
elif [ $rc -eq 0 ] && grep -q '^PASS  lab6\.trim  *trimmed_kib .*  4/4$' "$TMP/g_out" &&
   grep -q '^PASS  lab4\.30M  *minor_faults .* +-77 ' "$TMP/g_out" && grep -q '^Score: 231/231$' "$TMP/g_out"; then
	pass "steps: a row's points and tolerance come from the table (trimmed_kib 4 points, Lab 4's faults +-77)"
else fail "steps: points and tolerance from the table" "exit $rc: $(grep -E 'trimmed_kib|30M  *minor|^Score' "$TMP/g_out" | tr '\n' '|')"; fi

# A step the file's kit did not have (since: after the date of the kit's
# revision) is SKIP, named, and out of the maximum: the score, the maximum
# and the exit status are the file's without the step.  A kit that had it
# (or an undated kit) is graded on it, and a record deleted FAILs.
g_since=2026-12-03T12:00:00Z
{ cat tools/grading/steps
  echo "lab6.trim-again | run | L6 trim, again | default | ./arenas --csv --trim --threads 4 | trim | - | 3 trimmed_kib=2 *=1 | - | $g_since"; } >"$TMP/g_steps"
sed -n '/^@run lab6\.trim$/,/^@end$/p' "$G_SUB" | sed 's/^@run lab6\.trim$/@run lab6.trim-again/' >"$TMP/g_rec"
awk -v rec="$TMP/g_rec" '/^@human$/ { while ((getline l < rec) > 0) print l; print "" } { print }' "$G_SUB" >"$TMP/g_new.txt"
g_awk tools/grading/steps "$G_SUB"; g_rc0=$?; g_score0=$(grep '^Score: ' "$TMP/g_out")
g_awk "$TMP/g_steps" "$G_SUB" 2026-12-03T11:59:59Z; rc=$?
if [ $rc -eq $g_rc0 ] && [ "$(grep '^Score: ' "$TMP/g_out")" = "$g_score0" ] &&
   grep -q "^SKIP  lab6\.trim-again  *since .*  -$" "$TMP/g_out" && grep -q "(a step since $g_since: " "$TMP/g_out" &&
   ! grep -q '^[A-Z]*  lab6\.trim-again  *\(commands\|trimmed_kib\) ' "$TMP/g_out"; then
	pass "since: a step after the file's kit is SKIP, named; score, maximum and exit as without it ($g_score0)"
else fail "since: a step after the file's kit" "exit $rc (want $g_rc0): $(grep -E 'trim-again|^Score' "$TMP/g_out" | tr '\n' '|')"; fi
g_awk "$TMP/g_steps" "$G_SUB" "$g_since"; rc=$?
if [ $rc -eq 1 ] && grep -q '^FAIL  lab6\.trim-again  *trimmed_kib  *missing ' "$TMP/g_out"; then
	pass "since: a kit that had the step and a file without its record: FAIL (deleting a record gains nothing)"
else fail "since: a missing record of a step the kit had" "exit $rc: $(grep -E 'trim-again|^Score' "$TMP/g_out" | tr '\n' '|')"; fi
g_awk "$TMP/g_steps" "$TMP/g_new.txt" 2026-12-03T11:59:59Z; rc=$?
if [ $rc -eq 4 ] && grep -q '^INTEGRITY  *file  *records_known .*' "$TMP/g_out"; then
	pass "since: a record of a step the file's kit did not have is not the kit's (INTEGRITY)"
else fail "since: a record its kit could not make" "exit $rc: $(grep -E 'records_known|^Score' "$TMP/g_out" | tr '\n' '|')"; fi
g_awk "$TMP/g_steps" "$TMP/g_new.txt"; rc=$?
if ! needs_solution lab6.give_memory_back "steps: a new row naming the trim checker is graded by it"; then :
elif [ $rc -eq 0 ] && grep -q '^PASS  lab6\.trim-again  *trimmed_kib ' "$TMP/g_out" &&
   grep -q '^PASS  lab6\.trim-again  *commands ' "$TMP/g_out"; then
	pass "steps: a new row naming the trim checker is graded by it, with no other edit"
else
	fail "steps: a new row" "exit $rc: $(grep -m 3 -E '^(FAIL|INTEGRITY)|trim-again' "$TMP/g_out") $(head -c 200 "$TMP/g_err")"
fi

# 24: terminal escapes.  A literal \033 in a file name (dash's echo made
# it ESC), an ESC byte and a C1 CSI (0x9b) in the student line: nothing
# but printable ASCII reaches the output, in every mode and in DIR mode.
mkdir -p "$TMP/g_esc"
sed "s/^student: .*/student: x$(printf '\233')2J$(printf '\033')[31mred/" "$G_SUB" >"$TMP/g_esc/"'a\033[2Jb.txt'
cp "$G_SUB" "$TMP/g_esc/ok.txt"
for m in report csv feedback; do tools/grade.sh --format $m "$TMP/g_esc" >"$TMP/g_esc.$m" 2>&1; done
tools/grade.sh --format gradescope "$TMP/g_esc/"'a\033[2Jb.txt' >"$TMP/g_esc.gs" 2>&1
if ! LC_ALL=C grep -q '[^ -~]' "$TMP"/g_esc.report "$TMP"/g_esc.csv "$TMP"/g_esc.feedback "$TMP"/g_esc.gs; then
	pass "24: ESC, C1 and a literal \\033 in a file name never reach the output (report, csv, feedback, gradescope, DIR)"
else
	fail "24: terminal escapes" "$(LC_ALL=C grep -l '[^ -~]' "$TMP"/g_esc.* | tr '\n' ' ')"
fi

# 24: copy detection by fingerprint.  A copy with its date, a time and its
# temporary directory edited is still found, with how alike; an honest
# second run (the fixtures: other machines) is not.
sed 's/^date: .*/date: 2031-01-01 00:00:00 UTC/; s|/tmp/tmp\.[A-Za-z0-9]*/|/tmp/tmp.EDITEDxxxx/|' "$G_SUB" |
	awk '/^csv: / && !d && $0 ~ /,0\.[0-9]+,/ { sub(/,0\.[0-9]+,/, ",0.999,"); d = 1 } { print }' |
	sed 's/^student: .*/student: other/' >"$TMP/g_copy.txt"
tools/grade.sh --csv "$G_SUB" "$TMP/g_copy.txt" tests/fixtures/zero-page-6.18/submission-frames2.txt >"$TMP/g_out" 2>"$TMP/g_err"; rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c ',copy group 1 of 2 files; score [0-9]* withheld for review$' "$TMP/g_out")" -eq 2 ] &&
   grep -q 'zero-page-6.18.*,$' "$TMP/g_out" && grep -q 'copies of one run: .*g_copy\.txt ~ .*g_sub\.txt: [0-9]* of [0-9]* values alike' "$TMP/g_err"; then
	pass "24: a copy with its date, temporary name and a time edited is still one run's ($(grep -o '[0-9]*%' "$TMP/g_err" | head -n 1) alike)"
else
	fail "24: copy detection" "exit $rc: $(cut -c 1-60 "$TMP/g_out" | tr '\n' '|') $(head -c 300 "$TMP/g_err")"
fi

# 24: one awk grades a whole class (tools/grading/grade.awk, batch), so
# nothing of one file may reach the next.  Under gawk, which lists every
# global a program has: each is cleared by file_reset() or named in
# BATCH_GLOBALS.  Then, under the awk in use: a class of honest, edited,
# foreign (other page sizes) and broken files graded in one run gives
# each file the report it gets alone, heading aside (a failing file first:
# its FAIL must not reach the clean one after it).
if command -v gawk >/dev/null 2>&1; then
	printf '%s\t%s\t\tyes\t1\n' "$G_SUB" "$G_SUB" >"$TMP/g_manifest"
	gawk --dump-variables="$TMP/g_vars" -v STEPS=tools/grading/steps -v SUMMARY= -v MODE=report \
		-v KNOBS_FILE=tools/grading/knobs -v MANIFEST="$TMP/g_manifest" -f tools/lib/csv.awk \
		-v PREDICT=tools/grading/predict -v PREDICT_REQ="$TMP/g_predict" \
		-f tools/grading/steps.awk -f tools/grading/alike.awk -f tools/grading/grade.awk -f tools/grading/gradescope.awk \
		</dev/null >/dev/null 2>&1
	g_builtin=" ARGC ARGIND ARGV BINMODE CONVFMT ENVIRON ERRNO FIELDWIDTHS FILENAME FNR FPAT FS FUNCTAB IGNORECASE LINT NF NR OFMT OFS ORS PREC PROCINFO ROUNDMODE RLENGTH RS RSTART RT SUBSEP SYMTAB TEXTDOMAIN "
	g_kept=$(sed -n '/^function file_reset()/,/^}/p; /BATCH_GLOBALS = /,/"$/p' tools/grading/grade.awk |
		tr -c 'A-Za-z0-9_' '\n' | sort -u | tr '\n' ' ')
	g_missing=
	while read -r v _; do
		v=${v%:}
		case "$g_builtin" in *" $v "*) continue ;; esac
		case " $g_kept " in *" $v "*) ;; *) g_missing="$g_missing $v" ;; esac
	done <"$TMP/g_vars"
	if [ -s "$TMP/g_vars" ] && [ -z "$g_missing" ]; then
		pass "24: every global of the grader ($(wc -l <"$TMP/g_vars") in gawk's list) is reset a file or the batch's own"
	else
		fail "24: globals a batch would carry from one file to the next" "${g_missing:-gawk listed none}"
	fi
else
	skip "24: every global of the grader is reset a file" "gawk is not installed"
fi
sed 's/^format: .*/format: malloc-labs-submission 1/' "$G_SUB" >"$TMP/g_fmt1.txt"
cat "$G_SUB" "$G_SUB" >"$TMP/g_twice.txt"
g_class=("$G_SUB" "$TMP/g_fail.txt" tests/fixtures/arm64-6.12-64k/submission-frames2.txt "$TMP/g_copy.txt" "$TMP/g_nohdr.txt"
	tests/fixtures/zero-page-6.18/submission-frames2.txt "$TMP/g_twice.txt" "$TMP/g_fmt1.txt"
	tests/fixtures/arm64-6.12-16k/submission-frames2.txt "$G_SUB")
tools/grade.sh "${g_class[@]}" >"$TMP/g_batch" 2>/dev/null
g_bad=
for i in "${!g_class[@]}"; do
	tools/grade.sh "${g_class[$i]}" >"$TMP/g_alone" 2>/dev/null
	awk -v n=$((i + 1)) '/^== / { k++; next } k == n' "$TMP/g_batch" >"$TMP/g_part"
	cmp -s "$TMP/g_alone" "$TMP/g_part" || g_bad="$g_bad ${g_class[$i]##*/}"
done
if [ -z "$g_bad" ] && [ -s "$TMP/g_part" ]; then
	pass "24: ${#g_class[@]} files graded in one run: each report as when graded alone"
else
	fail "24: a file graded in a class differs from it graded alone" "$g_bad"
fi
# Shared out between awks (one a CPU for a class of 16 or more): the
# same output, byte for byte, and the same exit status as one awk.
g_many=("${g_class[@]}" "${g_class[@]}")
GRADE_SHARES=1 tools/grade.sh "${g_many[@]}" >"$TMP/g_one" 2>/dev/null; rc1=$?
GRADE_SHARES=3 tools/grade.sh "${g_many[@]}" >"$TMP/g_three" 2>/dev/null; rc3=$?
if [ $rc1 -eq $rc3 ] && cmp -s "$TMP/g_one" "$TMP/g_three" && [ "$(grep -c '^== ' "$TMP/g_three")" -eq $((${#g_many[@]} + 1)) ]; then
	pass "24: ${#g_many[@]} files in 3 awks side by side: the report of one awk, exit $rc3 both"
else
	fail "24: a class shared between awks" "exit $rc1 vs $rc3; $(diff "$TMP/g_one" "$TMP/g_three" | head -n 4)"
fi

# 34 (item 6): a file is a self-check, and never beats work.  Each row is
# an attack and its outcome; none scores above the honest failure above
# ($fail_score: a failing count, its table agreeing).
# g_over WHAT FILE WHY: FILE is refused: exit 2, one line on stderr naming
# it and WHY, no report.
g_over() {
	g_grade "$2"; rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/g_err")" -eq 1 ] && grep -qF "$2: not graded: " "$TMP/g_err" &&
	   grep -qF "$3" "$TMP/g_err" && [ ! -s "$TMP/g_out" ]; then
		pass "34: $1 -> refused, exit 2, one line ($(cut -c 1-60 "$TMP/g_err" | sed 's/^grade: [^:]*: //')...)"
	else
		fail "34: $1 -> refused" "exit $rc: $(head -c 300 "$TMP/g_err")"
	fi
}
g_cap() { awk -v w="$1" '$1 == "cap" && $2 == w { print $3 }' tools/grading/knobs; }
sed 's/^frames: .*/frames: 1000000/' "$G_SUB" >"$TMP/g_frames.txt"
g_over "frames: 1000000 (Lab 1's replay would cost 10^5 times FRAMES=10's)" "$TMP/g_frames.txt" \
	"frames 1000000 > cap $(g_cap FRAMES)"
# a file over file_bytes: the reference padded with readable lines
awk '{ print } /^@human$/ { for (i = 0; i < 40000; i++) print "# padding, padding, padding, padding, padding, padding" }' \
	"$G_SUB" >"$TMP/g_big.txt"
g_over "a $(wc -c <"$TMP/g_big.txt")-byte file (cap file_bytes $(g_cap file_bytes))" "$TMP/g_big.txt" "bytes > cap "
awk -v n="$(g_cap record_rows)" '$0 == "@run lab4.34M" { r = 1 } { print }
	r && /^csv: / && ++k == 2 { for (i = 0; i < n; i++) print; r = 0 }' "$G_SUB" >"$TMP/g_rows.txt"
g_over "one record of $(( $(g_cap record_rows) + 2 )) CSV lines (cap record_rows $(g_cap record_rows))" "$TMP/g_rows.txt" \
	"record lab4.34M: over $(g_cap record_rows) CSV lines"
# A batch with them: every other file graded, each refused one a CSV row
# with its reason; the worst status (2).
g_fx=tests/fixtures/arm64-6.12-4k/submission-frames2.txt
tools/grade.sh --csv "$G_SUB" "$TMP/g_frames.txt" "$TMP/g_big.txt" "$TMP/g_rows.txt" "$g_fx" \
	>"$TMP/g_out" 2>"$TMP/g_err"; rc=$?
if [ $rc -eq 2 ] && [ "$(grep -c . "$TMP/g_out")" -eq 6 ] &&
   grep -q "^$G_SUB,tester,.*,CLEAN,[1-9]" "$TMP/g_out" && grep -q "^$g_fx,arm64-p4096,.*,CLEAN,[1-9]" "$TMP/g_out" &&
   [ "$(grep -c '^[^,]*,,,none,.*cap .*,$' "$TMP/g_out")" -eq 3 ]; then
	pass "34: a batch with the three refused files: the others graded, each refused one a row naming its cap, exit 2"
else
	fail "34: a batch with refused files" "exit $rc: $(cut -c 1-100 "$TMP/g_out")"
fi
# The caps are the knobs file's: a malformed one stops the grade.
{ cat tools/grading/knobs; echo 'cap FRAMES lots'; } >"$TMP/g_knobs"
check_exit "34: a malformed cap line in the knobs stops the grade (exit 2)" 2 tools/grade.sh --knobs "$TMP/g_knobs" "$G_SUB"

# A shipped file (make reference's, a fixture) under another student's
# name: INTEGRITY shipped_copy, Score 0; graded as itself: CLEAN.
for f in results/reference-submission.txt tests/fixtures/zero-page-6.18/submission-frames10.txt; do
	[ -f "$f" ] || { fail "34: $f under another name" "$f is missing"; continue; }
	sed 's/^student: .*/student: mallory/' "$f" >"$TMP/g_ship.txt"
	g_grade "$TMP/g_ship.txt"; rc=$?
	if [ $rc -eq 4 ] && grep -q '^INTEGRITY  file  *shipped_copy ' "$TMP/g_out" && grep -qF "(a copy of $f (" "$TMP/g_out" &&
	   grep -q '^Score: 0/' "$TMP/g_out"; then
		pass "34: $f renamed to mallory -> INTEGRITY shipped_copy, Score 0, exit 4"
	else
		fail "34: $f renamed" "exit $rc: $(grep -A1 -E '^(INTEGRITY|Status|Score)' "$TMP/g_out" | head -n 4)"
	fi
	g_grade "$f"; rc=$?
	if [ $rc -eq 0 ] && ! grep -q 'shipped_copy' "$TMP/g_out"; then
		pass "34: $f graded as itself: clean, no shipped_copy line"
	else
		fail "34: $f as itself" "exit $rc: $(grep -A1 shipped_copy "$TMP/g_out")"
	fi
done

# Another file of the batch renamed (copies of one run): each copy's
# status REVIEW and score 0, the score it would have had in same_run_as.
sed 's/^student: .*/student: mallory/' "$G_SUB" >"$TMP/g_ren.txt"
tools/grade.sh --csv "$G_SUB" "$TMP/g_ren.txt" "$TMP/g_fail.txt" >"$TMP/g_out" 2>"$TMP/g_err"; rc=$?
clean=$(sed -n 's/^Score: \([0-9]*\)\/.*/\1/p' "$TMP/g_clean")
rev=$(grep -c ",REVIEW,0,.*,copy group 1 of 3 files; score [0-9]* withheld for review\$" "$TMP/g_out")
# (g_fail.txt is a copy of that run too, its one count edited: 3 copies)
if [ $rc -eq 1 ] && [ "$rev" -eq 3 ] && grep -q "^$G_SUB,tester,.*,REVIEW,0,.*; score $clean withheld for review\$" "$TMP/g_out" &&
   grep -q "g_ren\.txt,mallory,.*,REVIEW,0,.*; score $clean withheld for review\$" "$TMP/g_out" &&
   grep -q "g_fail\.txt,tester,.*,REVIEW,0,.*; score $fail_score withheld for review\$" "$TMP/g_out"; then
	pass "34: a file of the batch renamed: every copy REVIEW with score 0 (below the honest failure's $fail_score), the withheld score named, exit 1"
else
	fail "34: a renamed copy in a batch" "exit $rc, $rev REVIEW: $(cut -c 1-40,150- "$TMP/g_out")"
fi

# Format 3 (make submit's) must carry kit_sources: a file without the
# line, or with one that is no hash, is not graded (exit 2, one line
# saying why, the CSV row status none with the reason).
for g_ks in '/^kit_sources: /d' 's/^kit_sources: .*/kit_sources: unknown/'; do
	sed "$g_ks" "$G_SUB" >"$TMP/g_f3.txt"
	tools/grade.sh --csv "$TMP/g_f3.txt" >"$TMP/g_out" 2>"$TMP/g_err"; rc=$?
	if grep -qx 'format: malloc-labs-submission 3' "$G_SUB" && [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/g_err")" -eq 1 ] &&
	   grep -q 'format 3 without a kit_sources line' "$TMP/g_err" &&
	   grep -q ',none,.*"format 3 without a kit_sources line' "$TMP/g_out"; then
		pass "34: format 3 with '$g_ks' -> not graded, exit 2, one line, the reason in the row"
	else
		fail "34: format 3 with '$g_ks'" "exit $rc: $(head -c 200 "$TMP/g_err") $(tail -n 1 "$TMP/g_out" | cut -c 1-100)"
	fi
done

# Format 2 (the kit's older files: the reference, the fixtures, kept as
# the legacy examples) grades as it always did: clean, its row CLEAN at
# full score with no word of the format, its report one legacy line more
# than a format 3 file's (none).
f=tests/fixtures/zero-page-6.18/submission-frames10.txt
g_grade "$f"; rc=$?
tools/grade.sh --csv "$f" >"$TMP/g_csv" 2>/dev/null
row=$(tail -n 1 "$TMP/g_csv")
if grep -qx 'format: malloc-labs-submission 2' "$f" && [ $rc -eq 0 ] &&
   [ "$(grep -c '^# legacy: submission format 2 ' "$TMP/g_out")" -eq 1 ] &&
   ! grep -q '^# legacy' "$TMP/g_clean" && ! grep -qi 'legacy\|format' "$TMP/g_csv" &&
   [[ $row == *,CLEAN,*,* ]] && [ "$(sed -n 's/^Score: \([0-9]*\)\/\([0-9]*\)$/\1 \2/p' "$TMP/g_out" | awk '{ print $1 == $2 }')" = 1 ]; then
	pass "34: a format 2 fixture grades clean, one legacy line in the report, none in its CSV row"
else
	fail "34: a format 2 fixture as legacy" "exit $rc: $(grep -m 2 -E '^(# legacy|FAIL|ENV|INTEGRITY)' "$TMP/g_out") $(cut -c 1-100 <<<"$row")"
fi

# The kit's word on a revision (git: its history; see tools/grade.sh's
# kit_known): a format 2 file of a revision whose make submit writes
# format 3 is INTEGRITY kit (kit_sources taken out to pass as legacy); a
# revision this kit never had whose kit_sources are a known revision's
# sources (a student's own commit of an answer sheet) grades as that
# revision, nothing else moving; with sources no revision has: INTEGRITY.
g_kit=$(sed -n 's/^kit: //p' "$G_SUB")
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip "34: a revision known by its sources" "no git here: the grader knows no history"
elif ! grep -q '^PASS  file  *kit ' "$TMP/g_clean" || [ "${g_kit%-dirty}" != "$g_kit" ]; then
	skip "34: a revision known by its sources" "the fresh submission's kit ($g_kit) is not a clean known revision"
else
	# g_kit_integrity NAME FILE WHY: FILE is INTEGRITY kit, WHY its reason,
	# exit 4, and no other check moves from the clean grade.
	g_kit_integrity() {
		g_grade "$2"; rc=$?
		if [ $rc -eq 4 ] && [ "$(g_changes)" = "INTEGRITY file kit" ] && grep -qF "($3" "$TMP/g_out"; then
			pass "34: $1 -> INTEGRITY kit, exit 4"
		else
			fail "34: $1" "exit $rc: $(g_changes) $(grep -A1 '^INTEGRITY' "$TMP/g_out" | head -n 2)"
		fi
	}
	sed '/^kit_sources: /d; s/^format: .*/format: malloc-labs-submission 2/' "$G_SUB" >"$TMP/g_f2.txt"
	g_kit_integrity "a format 3 revision's file relabelled format 2 without kit_sources" "$TMP/g_f2.txt" \
		"kit $g_kit writes format 3, not 2 "
	sed "s/^kit: .*/kit: 0123abc/; /^csv: /s/,$g_kit\$/,0123abc/" "$G_SUB" >"$TMP/g_local.txt"
	g_grade "$TMP/g_local.txt"; rc=$?
	if [ "$rc" = "$g_rc0" ] && [ -z "$(g_changes)" ] && grep -q '^PASS  file  *kit ' "$TMP/g_out" &&
	   grep -Eq '^# kit 0123abc: not a revision here; its sources are [0-9a-f]+.s: graded as [0-9a-f]+$' "$TMP/g_out"; then
		pass "34: kit 0123abc (no revision here) with a known revision's kit_sources -> $(sed -n 's/.*graded as //p' "$TMP/g_out"), exit $rc"
	else
		fail "34: an unknown revision with known sources" "exit $rc (want $g_rc0): $(g_changes) $(grep '^# kit' "$TMP/g_out")"
	fi
	sed 's/^kit_sources: .*/kit_sources: 000000000000/' "$TMP/g_local.txt" >"$TMP/g_local0.txt"
	g_kit_integrity "kit 0123abc with sources no revision has" "$TMP/g_local0.txt" \
		"kit 0123abc is not a revision of this kit"
fi
