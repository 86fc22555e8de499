#!/usr/bin/env bash
# tests/grade.sh - make submit and tools/grade.sh.  One real submission,
# made here with small knobs, must grade clean; every other case is a copy
# of it with one thing changed, so the whole file costs one short
# submission (no times asserted anywhere).
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

# A short real submission.
FRAMES=2 SCALE=50 VARIANCE_ITERS=2000 COUNT_LARGE=200 BYTES=1M STUDENT=tester OUT=$G_SUB \
	tools/submit.sh >"$TMP/g_submit" 2>"$TMP/g_submit_err"; rc=$?
if [ $rc -eq 0 ] && [ "$(tail -n 1 "$TMP/g_submit")" = "submission: $G_SUB" ] && [ -f "$G_SUB" ] &&
   [ ! -e "$G_SUB.part" ]; then
	pass "submit: exit 0, the last line names the file, no .part left"
else
	fail "submit" "exit $rc: $(tail -c 300 "$TMP/g_submit_err")"
fi
g_grade "$G_SUB"; rc=$?
if [ $rc -eq 0 ] && [ "$(g_lines FAIL)" -eq 0 ] && [ "$(g_lines ENV)" -eq 0 ] && [ "$(g_lines PASS)" -gt 100 ]; then
	pass "grade: a FRAMES=2 submission made here grades clean ($(tail -n 1 "$TMP/g_out"))"
else
	fail "grade: a fresh submission" "exit $rc: $(grep -m 3 -E '^(FAIL|ENV)' "$TMP/g_out") $(head -c 200 "$TMP/g_err")"
fi
cp "$TMP/g_out" "$TMP/g_clean"

# g_changes: "STATUS step check" for each check whose status differs from
# the clean grade ($TMP/g_clean), sorted: a mutation case names exactly the
# checks it must change, and nothing else may move.
g_changes() {
	diff <(awk '/^(PASS|FAIL|ENV|SKIP) / { print $1, $2, $3 }' "$TMP/g_clean" | sort) \
	     <(awk '/^(PASS|FAIL|ENV|SKIP) / { print $1, $2, $3 }' "$TMP/g_out" | sort) | sed -n 's/^> //p'
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
# table (which still holds the true count) no longer agrees with it.
f34=$(awk '$0 == "@run lab4.34M" { r = 1 } r && /^csv: [a-z]/ && ++n == 2 { split($0, f, ","); print f[7]; exit }' "$G_SUB")
g_edit lab4.34M minor_faults $(( f34 + f34 / 10 )) <"$G_SUB" >"$TMP/g_bad.txt"
g_grade "$TMP/g_bad.txt"; rc=$?
# Exactly these checks change from the clean grade: the count, and the
# readable table that still says the true value.
want=$(printf 'FAIL file human_table\nFAIL lab4.34M minor_faults')
if [ $rc -eq 1 ] && [ "$(g_changes)" = "$want" ]; then
	pass "grade: lab4.34M faults +10% ($f34 -> $(( f34 + f34 / 10 ))): exactly minor_faults and human_table fail, exit 1"
else
	fail "grade: a count 10% off" "exit $rc; changed from the clean grade: $(g_changes)"
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

# CRLF line ends and trailing blanks grade the same.
sed 's/$/  \r/' "$G_SUB" >"$TMP/g_crlf.txt"
g_grade "$TMP/g_crlf.txt"; rc=$?
if [ $rc -eq 0 ] && diff <(sed 1d "$TMP/g_clean") <(sed 1d "$TMP/g_out") >/dev/null; then
	pass "grade: a CRLF copy with trailing blanks grades the same"
else
	fail "grade: CRLF copy" "exit $rc: $(diff <(sed 1d "$TMP/g_clean") <(sed 1d "$TMP/g_out") | head -n 4)"
fi

# A directory of 30 submissions: a report each, then one CSV row each.
mkdir -p "$TMP/g_dir"
for i in $(seq 1 30); do
	if [ $((i % 10)) -eq 0 ]; then src=$TMP/g_bad.txt; else src=$G_SUB; fi
	sed "s/^student: .*/student: s$i/" "$src" >"$TMP/g_dir/s$i.txt"
done
g_grade "$TMP/g_dir"; rc=$?
rows=$(sed -n '/^file,student,date,score,max,answers,answers_max,fails,envs,/,$p' "$TMP/g_out" | grep -c '^/')
fails=$(sed -n '/^file,student,/,$p' "$TMP/g_out" | awk -F, '$8 == 2' | wc -l)
if [ $rc -eq 1 ] && [ "$rows" -eq 30 ] && [ "$fails" -eq 3 ]; then
	pass "grade DIR: 30 submissions, 30 CSV rows, the 3 bad ones with 2 fails each"
else
	fail "grade DIR" "exit $rc, $rows rows, $fails with one fail"
fi

# Not a submission: exit 2.
sed -n '/^@run /,$p' "$G_SUB" >"$TMP/g_nohdr.txt"
check_exit "grade: a file without the header exits 2" 2 tools/grade.sh "$TMP/g_nohdr.txt"
check_exit "grade: a missing file exits 2" 2 tools/grade.sh "$TMP/no-such-file"
check_exit "grade: no arguments exits 2" 2 tools/grade.sh
check_exit "submit: a bad knob exits 2" 2 env FRAMES=ten tools/submit.sh
