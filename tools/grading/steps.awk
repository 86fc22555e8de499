# tools/grading/steps.awk - reads tools/grading/steps (the kit's step table) for awk and for
# the shell scripts, so every reader expands a step the same way.  Load it
# before a program (awk -f tools/grading/steps.awk -f prog.awk), or from the shell:
#   awk -v KIND=graded -v KNOBS="FRAMES=10 ..." -v STRACE=1 [-v QUESTIONS=1] -f tools/grading/steps.awk tools/grading/steps
#   awk -v KIND=tolerance -f tools/grading/steps.awk      (fault_tolerance(), below)
#   awk -v KIND=define -v NAME=MODEL_PIN_MMAP_THRESHOLD -f tools/grading/steps.awk
#       (a fact the C holds, c_define(): tools/include/model.h)
#   awk -v KIND=groups -f tools/grading/steps.awk tools/grading/steps
#       ("GROUP POINTS": the file, then each lab's graded rows, in the table's
#       order: the Classroom workflow's groups, tools/grading/classroom/run.sh)
#   awk -v KIND=knob -v NAME=THR -f tools/grading/steps.awk
#       (a derived knob's value, steps_derive(): tools/labs/lab4.sh's THR, TRIM)
#   awk -v KIND=maximum -f tools/grading/steps.awk tools/grading/steps
#       (the maximum a file is graded out of, and make check's: the rows' points)
#   awk -v KIND=exercise -v KNOBS=... -v STRACE=1 -f tools/grading/steps.awk tools/grading/steps
#       (make check: the rows that grade an exercise, and the rows their
#       checkers compare with)
# MODEL_H, if given, is where tools/include/model.h is (for a reader whose
# directory is not the kit's: tools/grade.sh).
# KNOBS holds the knobs as given (FRAMES SCALE VARIANCE_ITERS COUNT_LARGE
# BYTES, and the student's Q_*); steps_derive() adds the derived ones.
# Prints one line a record: ID|HOW|ENV|COMMAND, HOW one of run, sc (strace -c
# of brk, mmap, munmap) or wr (strace of write() with raw arguments); with
# KIND=matrix, ID|LABEL|ENV|COMMAND for each matrix row.  The steps marked
# "student" come only with QUESTIONS=1 (their knobs: tools/grading/questions.sh).
# Awk: POSIX only (getline from a file), plus "/dev/stderr" as a file name,
# which mawk, gawk and busybox awk all know; tested under all three.

# steps_load(path): the table into STEP_ID, STEP_KINDS, STEP_LABEL,
# STEP_CMD, STEP_CHECK, STEP_EX, STEP_TOTAL, STEP_SINCE [1..n], each
# row's points in STEP_POINTS[id, check] and its tolerances in
# STEP_TOLS[id, check] (steps_scoring()), and its policy as STEP_OWN (the
# program's own policy word: tune) and STEP_ENV (its NAME=VALUE words, ""
# for none: what the runners set); returns n.  A malformed line, a policy
# that is not the table's words or disagrees with the command, a graded
# row that names no checker or no points, a check row that grades no
# exercise, or an exercise name that is not labN.name stops awk (exit 2).
function steps_load(path,    line, n, f, k, rc) {
	n = 0
	while ((rc = (getline line < path)) > 0) {
		if (line ~ /^[ \t]*(#|$)/) continue
		if (split(line, f, "|") != 10) {
			print "steps: " path ": not ten |-separated columns: " line > "/dev/stderr"
			exit 2
		}
		for (k = 1; k <= 10; k++) { sub(/^[ \t]+/, "", f[k]); sub(/[ \t]+$/, "", f[k]) }
		n++
		STEP_ID[n] = f[1]; STEP_KINDS[n] = f[2]; STEP_LABEL[n] = f[3]
		STEP_CMD[n] = f[5]
		steps_policy(path, n, f[4])
		STEP_CHECK[n] = (f[6] == "-") ? "" : f[6]
		STEP_EX[n] = (f[7] == "-") ? "" : f[7]
		STEP_SINCE[n] = (f[10] == "-") ? "" : f[10]
		STEP_N[f[1]] = n
		if ((steps_has(n, "graded") || steps_has(n, "check") || steps_has(n, "file")) && STEP_CHECK[n] == "") {
			print "steps: " path ": the graded step " f[1] " names no checker" > "/dev/stderr"
			exit 2
		}
		if (STEP_EX[n] !~ /^(lab[0-9]+\.[a-z0-9_]+)?$/ || (steps_has(n, "check") && STEP_EX[n] == "")) {
			print "steps: " path ": step " f[1] ": exercise '" f[7] "' is not labN.name" > "/dev/stderr"
			exit 2
		}
		if (STEP_SINCE[n] !~ /^([0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z)?$/) {
			print "steps: " path ": step " f[1] ": since '" f[10] "' is not - or YYYY-MM-DDTHH:MM:SSZ" > "/dev/stderr"
			exit 2
		}
		steps_scoring(path, n, f[8], f[9])
	}
	if (rc < 0) { print "steps: cannot read " path > "/dev/stderr"; exit 2 }
	close(path)
	steps_own_flags(path, n)
	return n
}

# steps_policy(path, i, policy): row i's policy as the table's header
# says, into STEP_OWN[i] (the program's own policy word, "" for none)
# and STEP_ENV[i] (the NAME=VALUE words).
function steps_policy(path, i, p,    a, m, j, bad) {
	STEP_OWN[i] = ""; STEP_ENV[i] = ""
	m = split(p, a, " ")
	if (p == "-") { if (!steps_has(i, "file")) bad = "policy '-' is the row \"file\"'s alone (say default)" }
	else if (p == "default") ;
	else for (j = 1; j <= m && bad == ""; j++)
		if (a[j] ~ /^[A-Z_][A-Z0-9_]*=[^ ]*$/) STEP_ENV[i] = STEP_ENV[i] (STEP_ENV[i] == "" ? "" : " ") a[j]
		else if (a[j] !~ /^[a-z][a-z0-9_]*$/ || a[j] == "default")
			bad = "policy word '" a[j] "' is not default, the program's own (a word) or NAME=VALUE"
		else if (STEP_OWN[i] != "") bad = "two policies of the program's own: " STEP_OWN[i] " and " a[j]
		else STEP_OWN[i] = a[j]
	if (bad == "" && STEP_OWN[i] != "" && index(STEP_CMD[i], "$POLICY") == 0)
		bad = "its policy is " STEP_OWN[i] " and its command has no $POLICY for --" STEP_OWN[i]
	if (bad != "") { print "steps: " path ": step " STEP_ID[i] ": " bad > "/dev/stderr"; exit 2 }
}
# steps_own_flags(path, n): no command says a program's policy flag
# itself (--tune): the policy column is its one home, $POLICY its place.
function steps_own_flags(path, n,    i, j, m, a, own) {
	for (i = 1; i <= n; i++) if (STEP_OWN[i] != "") own["--" STEP_OWN[i]] = STEP_OWN[i]
	for (i = 1; i <= n; i++) {
		m = split(STEP_CMD[i], a, " ")
		for (j = 1; j <= m; j++) if (a[j] in own) {
			print "steps: " path ": step " STEP_ID[i] ": its command says " a[j] ": write $POLICY there and " \
				own[a[j]] " in its policy" > "/dev/stderr"
			exit 2
		}
	}
}

# steps_scoring(path, i, points, tol): row i's points ("TOTAL CHECK=P ...")
# and tolerances ("CHECK=T ..." or "-"), checked as the table's header
# says; a row a grade runs checks for must give its points.
function steps_scoring(path, i, pts, tol,    a, m, j, e, bad) {
	STEP_TOTAL[i] = ""
	if (pts != "-") {
		m = split(pts, a, " ")
		if (a[1] !~ /^[0-9]+$/) bad = "points '" pts "' do not start with the row's total"
		STEP_TOTAL[i] = a[1] + 0
		for (j = 2; j <= m && bad == ""; j++)
			if ((e = index(a[j], "=")) < 2 || substr(a[j], e + 1) !~ /^[0-9]+$/) bad = "points: '" a[j] "' is not CHECK=P"
			else STEP_POINTS[STEP_ID[i], substr(a[j], 1, e - 1)] = substr(a[j], e + 1) + 0
	} else if (STEP_CHECK[i] != "") bad = "a row with a checker gives its points"
	if (tol != "-") {
		m = split(tol, a, " ")
		for (j = 1; j <= m && bad == ""; j++)
			if ((e = index(a[j], "=")) < 2 || substr(a[j], e + 1) !~ /^([0-9]+|fault|[0-9]+\+iters\/[1-9][0-9]*|max\([0-9]+,[0-9]+%\))$/)
				bad = "tol: '" a[j] "' is not CHECK=N, fault, N+iters/D or max(N,P%)"
			else STEP_TOLS[STEP_ID[i], substr(a[j], 1, e - 1)] = substr(a[j], e + 1)
	}
	if (bad != "") { print "steps: " path ": step " STEP_ID[i] ": " bad > "/dev/stderr"; exit 2 }
}

# steps_key(A, id, chk): the key of A that check chk of step id reads: the
# check's own name, else its name up to a : or / (via:timer: via), else
# "*"; "" when A has none.
function steps_key(A, id, chk,    k) {
	if ((id, chk) in A) return id SUBSEP chk
	k = chk; sub(/[:\/].*/, "", k)
	if ((id, k) in A) return id SUBSEP k
	return ((id, "*") in A) ? id SUBSEP "*" : ""
}
# step_points(id, chk): the points of check chk of step id (an id with a
# strace suffix is its step's); a check the row gives none stops awk.
function step_points(id, chk,    k) {
	sub(/\.strace[0-9N]+$/, "", id)
	if ((k = steps_key(STEP_POINTS, id, chk)) == "") {
		print "steps: step " id " gives no points for its check " chk " (tools/grading/steps)" > "/dev/stderr"
		exit 2
	}
	return STEP_POINTS[k]
}
# step_tol(id, chk, want, iters): how far check chk of step id may stray
# from want (0: exact), iters the run's VARIANCE_ITERS.
function step_tol(id, chk, want, iters,    k, t, a) {
	sub(/\.strace[0-9N]+$/, "", id)
	if ((k = steps_key(STEP_TOLS, id, chk)) == "") return 0
	t = STEP_TOLS[k]
	if (t == "fault") return fault_tolerance()
	if (t ~ /iters/) { split(t, a, /[+\/]/); return a[1] + int(iters / a[3]) }
	if (t ~ /^max/) { split(t, a, /[(,%]/); want = int(want * (a[3] / 100)); return a[2] + 0 > want ? a[2] + 0 : want }
	return t + 0
}

# steps_maximum(n): the maximum a file is graded out of (each graded row's
# total, the answer sheet's apart, and the row "file") and make check's
# (each exercise row's total less its commands check).
function steps_maximum(n,    i, sub_max, chk_max) {
	for (i = 1; i <= n; i++) {
		if ((steps_has(i, "graded") && !steps_has(i, "student")) || steps_has(i, "file")) sub_max += STEP_TOTAL[i]
		if (STEP_EX[i] != "")
			chk_max += STEP_TOTAL[i] - (steps_has(i, "graded") ? step_points(STEP_ID[i], "commands") : 0)
	}
	printf "submission %d\ncheck %d\n", sub_max, chk_max
}

# steps_groups(n): "GROUP POINTS" a line: the row "file", then labN for
# the graded rows of each lab (the answer sheet's apart), first seen first.
function steps_groups(n,    i, g, order, pts, m) {
	for (i = 1; i <= n; i++) {
		if (!steps_has(i, "file") && (!steps_has(i, "graded") || steps_has(i, "student"))) continue
		g = STEP_ID[i]; sub(/\..*/, "", g)
		if (!(g in pts)) order[++m] = g
		pts[g] += STEP_TOTAL[i]
	}
	for (i = 1; i <= m; i++) print order[i], pts[order[i]]
}

# steps_has(i, kind): step i lists kind; "graded" is any kind a submission
# runs (a "check" row runs only for make check, never in a submission).
function steps_has(i, kind,    k) {
	k = "," STEP_KINDS[i] ","
	if (kind == "graded")
		return k ~ /,(run|frames|iters|writes),/ && k !~ /,check,/
	return index(k, "," kind ",") > 0
}

# steps_exercise(n): EXERCISE_ROW[i] = 1 for each step make check runs: the
# rows that grade an exercise, and the rows their checkers name (lab3.tuned
# is judged against lab3.pre25).
function steps_exercise(n,    i, a, m, j) {
	for (i = 1; i <= n; i++) {
		if (STEP_EX[i] == "") continue
		EXERCISE_ROW[i] = 1
		m = split(STEP_CHECK[i], a, ":")
		for (j = 2; j <= m; j++) if (a[j] in STEP_N) EXERCISE_ROW[STEP_N[a[j]]] = 1
	}
}

# steps_knobs(s, K): "NAME=value NAME=value" into K[NAME].
function steps_knobs(s, K,    n, a, i, e) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) { e = index(a[i], "="); if (e) K[substr(a[i], 1, e - 1)] = substr(a[i], e + 1) }
}

# steps_derive(K): the knobs every reader computes the same way, from the
# ones given.  Lab 4's frames N4 = 100 / SCALE and Lab 4's 8 MiB +- 1.5 MiB
# frames NV = 300 / SCALE (at least 1 each); the thresholds Lab 4 sets:
# THR and TRIM, the pinned ones (model.h).  A knob given stays.
function steps_derive(K) {
	if (("SCALE" in K) && K["SCALE"] + 0 >= 1) {
		if (!("N4" in K)) K["N4"] = max1(int(100 / K["SCALE"]))
		if (!("NV" in K)) K["NV"] = max1(int(300 / K["SCALE"]))
	}
	if (!("THR" in K)) K["THR"] = c_define("MODEL_PIN_MMAP_THRESHOLD")
	if (!("TRIM" in K)) K["TRIM"] = c_define("MODEL_PIN_TRIM_THRESHOLD")
}
function max1(n) { return n < 1 ? 1 : n }

# steps_fill(s, K): s with every $NAME replaced by K[NAME]; an unknown
# knob stops awk, so a typo in the table cannot run a wrong command.  An
# empty knob ($POLICY of a policy with no word of the program's own) takes
# one blank with it.
function steps_fill(s, K,    out, name) {
	out = ""
	while (match(s, /\$[A-Z][A-Z0-9_]*/)) {
		name = substr(s, RSTART + 1, RLENGTH - 1)
		if (!(name in K)) { print "steps: no knob $" name " for: " s > "/dev/stderr"; exit 2 }
		out = out substr(s, 1, RSTART - 1) K[name]
		s = substr(s, RSTART + RLENGTH)
		if (K[name] != "") continue
		if (substr(s, 1, 1) == " ") s = substr(s, 2)
		else if (substr(out, length(out)) == " ") out = substr(out, 1, length(out) - 1)
	}
	return out s
}
# steps_command(i, K): step i's command, its knobs and its policy filled
# ($POLICY: --WORD for the program's own policy WORD, else nothing).
function steps_command(i, K) {
	K["POLICY"] = STEP_OWN[i] != "" ? "--" STEP_OWN[i] : ""
	return steps_fill(STEP_CMD[i], K)
}

# steps_records(i, K, strace): the records step i makes, into REC_ID,
# REC_HOW, REC_ENV, REC_CMD [1..n] (appended after REC_N); returns REC_N.
# The strace variants are the step's own command with one knob changed.
function steps_records(i, K, strace,    save) {
	if (steps_has(i, "frames")) {
		steps_add(i, STEP_ID[i], "run", K)
		if (strace) {
			save = K["FRAMES"]
			K["FRAMES"] = 2; steps_add(i, STEP_ID[i] ".strace2", "sc", K)
			K["FRAMES"] = 4; steps_add(i, STEP_ID[i] ".strace4", "sc", K)
			K["FRAMES"] = save
		}
	} else if (steps_has(i, "iters")) {
		if (strace) {
			save = K["VARIANCE_ITERS"]
			K["VARIANCE_ITERS"] = 1; steps_add(i, STEP_ID[i] ".strace1", "sc", K)
			K["VARIANCE_ITERS"] = save
			steps_add(i, STEP_ID[i] ".straceN", "sc", K)
		}
	} else if (steps_has(i, "writes"))
		steps_add(i, STEP_ID[i], strace ? "wr" : "run", K)
	else if (steps_has(i, "run"))
		steps_add(i, STEP_ID[i], "run", K)
	return REC_N
}

function steps_add(i, id, how, K) {
	REC_N++
	REC_ID[REC_N] = id; REC_HOW[REC_N] = how; REC_CMD[REC_N] = steps_command(i, K)
	REC_ENV[REC_N] = steps_fill(STEP_ENV[i], K)
}

# How far a measured fault count may stray from the model's, in faults,
# for the grader and the tests alike: the C's (model.h, where its reason
# is said).
function fault_tolerance() { return c_define("MODEL_FAULT_TOLERANCE") + 0 }

# c_define(NAME): the digits of "#define NAME digits" in the kit's model
# (tools/include/model.h, or MODEL_H), the one home of a fact the C, the
# grader and the scripts share.  Kept as a string: mawk would print a
# large number as 5.36871e+08.  None there stops awk (exit 2).
function c_define(name,    f, line, a) {
	if (name in C_DEFINE) return C_DEFINE[name]
	f = MODEL_H != "" ? MODEL_H : "tools/include/model.h"
	while ((getline line < f) > 0)
		if (split(line, a, " ") == 3 && a[1] == "#define" && a[2] == name && a[3] ~ /^[0-9]+$/) {
			C_DEFINE[name] = a[3]
			break
		}
	close(f)
	if (!(name in C_DEFINE)) { print "steps: no #define " name " in " f > "/dev/stderr"; exit 2 }
	return C_DEFINE[name]
}

# For the shell: print the records of every step of KIND (see the top).
function steps_print(path,    n, i, K) {
	steps_knobs(KNOBS, K)
	steps_derive(K)
	n = steps_load(path)
	if (KIND == "exercise") steps_exercise(n)
	for (i = 1; i <= n; i++)
		if (KIND == "exercise") { if (i in EXERCISE_ROW) steps_records(i, K, STRACE + 0) }
		else if (KIND == "matrix" && steps_has(i, KIND))
			printf "%s|%s|%s|%s\n", STEP_ID[i], STEP_LABEL[i],
			       STEP_ENV[i] == "" ? "-" : steps_fill(STEP_ENV[i], K), steps_command(i, K)
		else if (steps_has(i, KIND) && (QUESTIONS || !steps_has(i, "student")))
			steps_records(i, K, STRACE + 0)
	for (i = 1; i <= REC_N; i++)
		printf "%s|%s|%s|%s\n", REC_ID[i], REC_HOW[i], REC_ENV[i] == "" ? "-" : REC_ENV[i], REC_CMD[i]
}

BEGIN {
	if (KIND == "tolerance") { print fault_tolerance(); exit }
	if (KIND == "define") { print c_define(NAME); exit }
	if (KIND == "knob") {
		steps_knobs(KNOBS, K); steps_derive(K)
		if (!(NAME in K)) { print "steps: no derived knob '" NAME "'" > "/dev/stderr"; exit 2 }
		print K[NAME]; exit
	}
	if (KIND == "groups") { steps_groups(steps_load(ARGV[1] == "" ? "tools/grading/steps" : ARGV[1])); exit }
	if (KIND == "maximum") { steps_maximum(steps_load(ARGV[1] == "" ? "tools/grading/steps" : ARGV[1])); exit }
	if (KIND != "") {
		steps_print(ARGV[1] == "" ? "tools/grading/steps" : ARGV[1])
		exit
	}
}
