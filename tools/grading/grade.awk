# tools/grading/grade.awk - the grader's model: reads submissions (make
# submit, format 3, or 2 before it), each listed in MANIFEST (see "batch"
# at the end), and checks every record against what first principles say
# it must hold.
# Loaded by tools/grade.sh after tools/lib/csv.awk, tools/grading/steps.awk and alike.awk:
#   awk -v MANIFEST=LIST -v PREDICT=tools/grading/predict -v PREDICT_REQ=TMPFILE \
#       -f csv.awk -f steps.awk -f alike.awk -f grade.awk -f gradescope.awk </dev/null
# Variables (a file's own from its MANIFEST line): SHIPPED (the kit's
# own files, see shipped_load()), SUBFILE (the name
# shown), STEPS (tools/grading/steps), KNOBS_FILE
# (the course's knobs, tools/grading/knobs), SUMMARY (a file to append one
# line to, or empty: FEATURES<TAB>CSV row, see csv_row), MODE (report, the
# default; csv: nothing but the row; feedback: each FAIL, ENV and INTEGRITY
# with what it means and what to try; gradescope: results.json, written by
# tools/grading/gradescope.awk; check: make check's file, only the rows
# that grade an exercise, a line a check and a score an exercise, see
# check_out), KIT_DATE (when git committed the file's kit revision, or
# empty: a step whose since is later is SKIP, see grade_one), QKNOBS
# (the student's own parameters: tools/grading/questions.sh params NAME),
# KIT_KNOWN (yes, no or unknown: the kit revision is in the grader's own
# git history, or src-HASH names its own sources; changed: the revision is,
# but the submission's kit_sources are not its sources; as:REV, no revision
# here, but its kit_sources are those of REV: graded as REV; format:N, the
# revision writes format N, newer than the file's), SHOWKEY (1: print
# the answers' key, for the instructor), HANDOUT (1: grade.sh runs in a
# handout: no answer is marked).
#
# Awk: POSIX only, plus "/dev/stderr" as a file name (mawk, gawk and busybox
# awk all have it); tested under all three (tests/lib.sh: TEST_AWK).  No
# division by a value read from the file without a check that it is not 0
# (gawk stops on one).  Lengths count bytes in mawk and characters in gawk:
# nothing here depends on which.
#
# Everything in a submission is data: every byte that is not printable
# ASCII is replaced by "?" as each line is read, so nothing echoed from a
# file can move a terminal's cursor or forge a line; CSV fields are quoted
# and a leading = + - @ is neutralised (csv_field in tools/lib/csv.awk).
# The integrity checks (step "file") are listed in integrity() below, with
# what a text file cannot prove.
#
# Every expected count of the allocator is the kit's one model's
# (tools/include/model.h), asked through tools/grading/predict (PREDICT,
# built in the grader's own tree; PREDICT_REQ: a scratch file for its
# questions) with the submission's header (the knobs, the page size, the
# faults a read-then-written page costs on that kernel, the glibc
# version) and what the program measured of its own heap before its loop
# (heap_top_* columns); never from a program's prediction columns.  This
# file reads, checks and reports: no allocator rule is written here.  Which checks a
# step gets is its row's checker in tools/grading/steps (checker() below).
# Each check prints one line
#   STATUS  step  check  got  want  tolerance  points
# and carries the points its row of the step table gives (its points
# column), so the maximum is the same for every file of one kit revision:
# PASS scores them; FAIL (missing counts too) and ENV do not; a step newer
# than the file's kit is SKIP and out of the maximum.  ENV means the environment the run saw makes the
# count incomparable (the reason is printed below the line); it is never
# turned into a PASS.  INTEGRITY (a file check failed) withholds the whole
# score.  Answers are scored apart, with the runs at the sheet's parameters.
# Exit: 0 every check passed, 1 any FAIL, 3 no FAIL but some ENV,
# 4 INTEGRITY, 2 not a submission.  All arithmetic on values from the file
# is guarded (gawk stops on a division by zero; mawk carries on).
#
# Tolerances (absolute) are the step table's tol column, each with its
# reason beside its rows there; page faults' is fault_tolerance() in
# tools/grading/steps.awk.  Lab 1's munmap calls of two frames allow the
# loader's start-up pieces, +-1 where libc's segments are aligned to more
# than a page (loader_model()).  System calls, corrupt pixels, frames from
# mmap, write() calls and addresses are exact: counted, not sampled.
# make check holds a program's own fault counts to wait4's for its whole
# process: at most wait4's, and at most wait4_gap() (768) fewer: the
# start-up, set-up and exit outside the program's brackets took 82 to
# 211 faults on the kit's VM (4 KiB pages, glibc 2.36; every measured
# run of the kit and of the handout's stubs through wait4run);
# 768 leaves room for a loader with more libraries and a region's own
# set-up (a pool of 2 MiB) and stays under a Lab 1 frame's faults on
# any page size (16200 pages of 4 KiB; 1013 of 64 KiB, 1 fault each).

function trim(s) { sub(/\r$/, "", s); sub(/[ \t]+$/, "", s); return s }
function ceil(x,    i) { i = int(x); return (i < x) ? i + 1 : i }
function max(a, b) { return a > b ? a : b }
function min(a, b) { return a < b ? a : b }
function abs(a) { return a < 0 ? -a : a }
function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }
function rep(s) { if (MODE == "" || MODE == "report") print s }
# feature(s): one value of the copy fingerprint (see csv_row); blanks
# become _ so that the list is one field; at most 400 are kept.
function feature(s) { if (NFEAT < 400) { gsub(/[ \t,]/, "_", s); FEAT[++NFEAT] = s } }

# --------------------------------------------------------------- reading
function read_line(raw) {
	# (each test first: a class is millions of lines, and most need no edit)
	line = raw
	if (line ~ /[ \t\r]$/) line = trim(line)
	# every byte but printable ASCII (C0, C1, DEL, any non-ASCII or broken
	# UTF-8 byte: grade.sh runs awk under LC_ALL=C) becomes "?"
	if (line ~ /[^ -~]/) { gsub(/\t/, " ", line); gsub(/[^ -~]/, "?", line) }
	if (line ~ /^format: /) NFORMAT++
	if (line ~ /^@run /) {
		id = substr(line, 6)
		# A second record of an id is not read (the first one counts) and
		# is a FAIL of its own: "the later wins" cannot be used.
		if (id in seen) { DUP = DUP " " id; inrec = 2; return }
		inrec = 1; nh = 0; seen[id] = 1; order[++nrec] = id; return
	}
	if (line == "@end") { inrec = 0; inans = 0; id = ""; return }
	if (line == "@human") { human = 1; NHUMAN++; return }
	if (human) { if (line != "") HUM[++NHUM] = line; return }
	if (line == "@answers") { inans = 1; NANSBLOCK++; return }
	if (inans) {
		if (line ~ /^[a-z0-9_]+:/) { k = substr(line, 1, index(line, ":") - 1); v = substr(line, length(k) + 2)
			sub(/^ +/, "", v); ANS[k] = v; HAVE_ANS = 1 }
		return
	}
	if (inrec == 2) return
	if (!inrec) {
		if (nrec == 0 && line ~ /^[a-z_]+: /) {
			k = substr(line, 1, index(line, ":") - 1)
			if (k in H) HDUP = HDUP " " k
			H[k] = substr(line, length(k) + 3)
			if (k == "date") feature("date=" H[k])
		}
		return
	}
	if (line ~ /^cmd: /) { CMD[id] = substr(line, 6)
		# the run's temporary directory (strace -o): a name no other run has
		if (match(CMD[id], / -o [^ ]+\//)) feature("tmp=" substr(CMD[id], RSTART + 4, RLENGTH - 4))
		return }
	if (line ~ /^env: /) { ENVL[id] = substr(line, 6); return }
	if (line ~ /^wall_s: /) return
	# make check's records: how the run ended; a run that failed counts
	# nothing it printed (its CSV, system calls or writes)
	if (line ~ /^exit: /) { RUN_EXIT[id] = substr(line, 7); return }
	if (line ~ /^stderr: /) { RUN_ERR[id] = substr(line, 9); return }
	# and the faults the whole process took, as wait4() gave them to the
	# runner (tools/grading/wait4run): read in make check only
	if (line ~ /^wait4: /) {
		if (MODE == "check" && line ~ /^wait4: minflt=[0-9]+ majflt=[0-9]+ (exit|signal)=[0-9]+$/) {
			split(line, a, /[ =]/); W4[id] = a[3] + 0
		}
		return
	}
	if ((id in RUN_EXIT) && RUN_EXIT[id] != "0") return
	if (line ~ /^syscalls: /) {
		n = split(substr(line, 11), a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); SC[id, kv[1]] = kv[2] }
		HAVESC[id] = 1; return
	}
	if (line ~ /^write: /) {
		n = split(substr(line, 8), a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); w[kv[1]] = kv[2] }
		# addr_mod_page; files before the page size was read: addr_mod_4096
		if (w["fd"] > 2) { nw = ++NW[id]
			WR[id, nw, "mod"] = ("addr_mod_page" in w) ? w["addr_mod_page"] : w["addr_mod_4096"]
			WR[id, nw, "mod4096"] = !("addr_mod_page" in w)
			WR[id, nw, "calls"] = w["calls"]; WR[id, nw, "bytes"] = w["bytes"] }
		split("", w)
		HAVEWR[id] = 1; return
	}
	if (line ~ /^csv: /) {
		c = substr(line, 6)
		if (!nh) { nh = csv_split(c, hd); for (i = 1; i <= nh; i++) HD[id, hd[i]] = 1; return }
		# A row given twice (or a second, better one) is not read: the
		# first counts, and the file fails its integrity (rows_once).  The
		# key is found before the row is split, so a file of repeated rows
		# costs one pass, not a CSV parse a row.
		key = id
		if (hd[1] == "label") {                      # Lab 2: a row per label
			if (substr(c, 1, 1) == "\"" || !index(c, ",")) { csv_split(c, f); key = id "/" f[1] }
			else key = id "/" substr(c, 1, index(c, ",") - 1)
		}
		# make check: a student's code shares the run's standard output, so a
		# second row (say, a forged one printed before the kit's own) makes
		# nothing of the run count.
		if ((key in ROW) && MODE == "check") { RUN_EXIT[id] = "0, but printed a second CSV row"; delete ROW[key]; return }
		if (key in ROW) { if (!(key in ROWDUP)) { ROWDUP[key] = 1; NROWDUP++; if (NROWDUP == 1) FIRSTDUP = key } return }
		csv_split(c, f)
		for (i = 1; i <= nh; i++) {
			V[key, hd[i]] = f[i]
			# what a second run never repeats: its times (the fingerprint)
			if (hd[i] ~ /^(time_s|user_s|sys_s|seconds|p50_ns|p999_ns|mean_ns|trim_s|gib_per_s)$/ && f[i] ~ /[1-9]/)
				feature(key "/" hd[i] "=" f[i])
		}
		ROW[key] = 1; ROWID[key] = id
		return
	}
}

# ------------------------------------------------------------- reporting
# pts "": the check's points from the step table (step_points(), steps.awk);
# the answers give their own.  ROW_MADE adds up what each row's checks are
# out of, held to the table's total (rows_add_up()); ROW_CHECKS lists them.
function out(st, step, chk, got, want, tol, pts, why,    p) {
	sub(/\.strace[0-9N]+$/, "", step)     # strace runs are graded under their step
	if (pts == "") pts = step_points(step, chk)
	if (step != "answers" && st != "SKIP") { ROW_MADE[step] += pts; ROW_CHECKS[step] = ROW_CHECKS[step] " " chk "=" pts }
	if (MODE == "check") { check_out(st, step, chk, got, want, tol, pts, why); return }
	# A handout's grader marks no answer, nor the runs whose numbers are
	# the answers: answers() says so in one line.
	if (ANSWERING && !marks_answers()) return
	# The sheet's part: what the model wants is the key (the runs at the
	# sheet's parameters want the answers' very numbers): shown only with
	# SHOWKEY, as is a tolerance that is a share of it.
	if (ANSWERING && !SHOWKEY) { want = "(key)"; if (TOL_LABEL != "") tol = TOL_LABEL }
	p = (st == "PASS") ? pts "/" pts : (st == "SKIP") ? "-" : "0/" pts
	if (st == "INTEGRITY") { integ++; p = "0/" pts }
	rep(sprintf("%-4s  %-19s  %-16s %12s %12s %6s %5s", st, step, chk, got, want, tol, p))
	if (why != "") rep(sprintf("      (%s)", why))
	NOUT++; O_ST[NOUT] = st; O_STEP[NOUT] = step; O_CHK[NOUT] = chk; O_GOT[NOUT] = got
	O_WANT[NOUT] = want; O_TOL[NOUT] = tol; O_PTS[NOUT] = pts; O_WHY[NOUT] = why; O_ANS[NOUT] = ANSWERING
	# Gradescope's visibility of this check's test (tools/grading/gradescope.awk):
	# an answer is hidden until after the due date, since even right or
	# wrong tells too much while the sheet is open; "" is visible.
	O_VIS[NOUT] = ANSWERING ? "after_due_date" : VISIBILITY
	if (ANSWERING) {          # the answer sheet: its own score, listed apart
		if (st == "PASS") { ascore += pts; atotal += pts }
		else if (st == "FAIL") { atotal += pts; fails++; afails++ }
		else if (st == "ENV") { atotal += pts; envs++ }
		return
	}
	if (st == "PASS") { score += pts; total += pts }
	else if (st == "FAIL") { total += pts; fails++ }
	else if (st == "ENV") { total += pts; envs++ }
	else if (st == "INTEGRITY") total += pts
	else skips++
}

# Why a record has no CSV row: the run failed (make check records how),
# or it printed none.
function run_failure(id) {
	if (!(id in seen)) return "no record"
	if (id in W4_WHY) return W4_WHY[id]
	if ((id in RUN_EXIT) && RUN_EXIT[id] != "0")
		return "the run exited " RUN_EXIT[id] ((id in RUN_ERR) ? ": " substr(RUN_ERR[id], 1, 120) : "")
	return "no CSV row"
}

# make check: every run made through tools/grading/wait4run (a record of
# kind run) is held to the kernel's count of the whole process's minor
# faults (wait4), which no code of the student's can reach.  What the
# program printed (its fault columns: minor_faults, fill_faults, and
# faults_per_iter times iters, which the CSV rounds to 4 decimals) can
# never be more than that, and the rest, what start-up, set-up outside the
# program's brackets and exit took, is at most wait4_gap() (a program with
# no fault column, yes, brackets nothing: only the first holds).  A run that
# disagrees counts nothing it printed: each of its checks fails with the
# reason, so its step scores 0.  A run that exited 0 with no wait4 line
# was not measured from outside, and counts nothing either.
function wait4_gap() { return 768 }
function wait4_check(    r, id, k, self, slack, w, counted) {
	for (r = 1; r <= REC_N; r++) {
		id = REC_ID[r]
		if (REC_HOW[r] != "run" || !(id in seen) || ((id in RUN_EXIT) && RUN_EXIT[id] != "0")) continue
		self = slack = 0
		for (k in ROW) {
			if (ROWID[k] != id) continue
			self += V[k, "minor_faults"] + V[k, "fill_faults"]
			if (isnum(V[k, "faults_per_iter"]) && isnum(V[k, "iters"])) {
				self += V[k, "faults_per_iter"] * V[k, "iters"]; slack += V[k, "iters"] * 0.00005
			}
		}
		self = int(self + 0.5)
		# (a program that counts no faults, yes without strace, has no
		# brackets: all it does is outside them, and nothing to compare)
		counted = ((id, "minor_faults") in HD) || ((id, "fill_faults") in HD) || ((id, "faults_per_iter") in HD)
		if (!(id in W4)) W4_WHY[id] = "no count from outside (wait4): the run was not made by wait4run"
		else if (self > W4[id] + slack || (counted && W4[id] - self > wait4_gap())) {
			w = "counts disagree with the kernel's (wait4): " self " vs " W4[id]
			W4_WHY[id] = w
		}
		if (!(id in W4_WHY)) continue
		for (k in ROW) if (ROWID[k] == id) delete ROW[k]
	}
}

# make check's lines (MODE=check), under a heading an exercise:
#   OK|FAIL|SKIP|ENV  step  check  got  want  tolerance  points
# A step's points count only when every check of it passes (the code did
# what the step asks, not part of it); SKIP is a check whose tool is
# missing (strace): it keeps its points.  CUR_EX is the exercise graded.
function check_out(st, step, chk, got, want, tol, pts, why,    s) {
	sub(/\.strace[0-9N]+$/, "", step)
	s = (st == "PASS") ? "OK" : (st == "ENV" && why == NOSTRACE) ? "SKIP" : st
	if (!(CUR_EX in EX_MAX)) { EX_ORDER[++NEX] = CUR_EX; EX_MAX[CUR_EX] = 0 }
	if (CUR_EX != LAST_EX) { printf "%s (%s)\n", CUR_EX, EX_FILE[CUR_EX]; LAST_EX = CUR_EX }
	printf "  %-4s  %-17s %-16s %10s %10s %6s %3s\n", s, step, chk, substr(got, 1, 10), substr(want, 1, 10), tol, pts
	if (why != "" && s != "OK") printf "        (%s)\n", substr(why, 1, 68)
	EX_MAX[CUR_EX] += pts; STEP_PTS[step] += pts
	if (s != "OK" && s != "SKIP") STEP_BAD[step] = 1
	if (!(step in STEP_EXOF)) { STEP_EXOF[step] = CUR_EX; CSTEPS[++NCSTEP] = step }
}
# The end of make check: each step's points to its exercise, a line an
# exercise, then Score: N/M.  0: full marks.
function check_score(    i, st, e) {
	for (i = 1; i <= NCSTEP; i++) {
		st = CSTEPS[i]; e = STEP_EXOF[st]
		if (!(st in STEP_BAD)) EX_GOT[e] += STEP_PTS[st]
		else printf "%s: 0/%d (a step scores when every check of it passes)\n", st, STEP_PTS[st]
	}
	print ""
	for (i = 1; i <= NEX; i++) {
		e = EX_ORDER[i]; score += EX_GOT[e]; total += EX_MAX[e]
		printf "%-24s %-18s %-4s %3d/%d\n", e, EX_FILE[e], (EX_GOT[e] == EX_MAX[e] ? "OK" : "FAIL"), EX_GOT[e], EX_MAX[e]
	}
	printf "Score: %d/%d\n", score, total
	return score == total ? 0 : 1
}

# Why this step cannot be compared, or "".  class: "plain" (nothing in the
# environment changes it), "alloc" (malloc policy), "fault" (also THP).
# Each record carries what its program saw (the env CSV columns); a step
# may set GLIBC_TUNABLES or MALLOC_* itself (its env from the step table,
# not trusted from the file), anything more is pollution.
function why_env(step, key, class,    rid, t, m, own_t, own_m, n, a, i, o, r) {
	if (class == "plain") return ""
	rid = (ROWID[key] == "") ? key : ROWID[key]
	if (!((rid, "glibc_tunables") in HD)) return "no environment columns in the CSV"
	r = ""
	own_t = ""; own_m = ""
	n = split(WANT_ENV[step], a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] ~ /^GLIBC_TUNABLES=/) own_t = substr(a[i], 16)
		else if (a[i] ~ /^MALLOC_/) own_m = own_m " " a[i] " "
	t = V[key, "glibc_tunables"]
	if (t != own_t) { r = r "; GLIBC_TUNABLES=" t; FLAG["tunables"] = 1 }
	n = split(V[key, "malloc_env"], a, " ")
	for (i = 1; i <= n; i++) if (index(own_m, " " a[i] " ") == 0) { r = r "; " a[i]; FLAG["malloc_env"] = 1 }
	if (V[key, "ld_preload"] != "") { r = r "; LD_PRELOAD=" V[key, "ld_preload"]; FLAG["preload"] = 1 }
	o = V[key, "malloc_owner"]; sub(/.*\//, "", o)
	if (o !~ /^libc\.so/ && o !~ /^libc-2\./) { r = r "; malloc() is " o "s"; FLAG["allocator"] = 1 }
	if (V[key, "glibc"] != "" && V[key, "glibc"] != H["glibc"]) { r = r "; ran under glibc " V[key, "glibc"]; FLAG["glibc"] = 1 }
	if (BITS == 32) { r = r "; a 32-bit build (other chunk sizes and caps)"; FLAG["32bit"] = 1 }
	if (class == "fault" && H["thp"] ~ /enabled=always/ && CMD[rid] !~ / --no-thp( |$)/) {
		r = r "; THP always, run without --no-thp"; FLAG["thp_always"] = 1
	}
	return substr(r, 3)
}

# check STEP KEY CHECK GOT WANT CLASS [TOL]: |GOT - WANT| <= TOL, the
# step's tolerance for the check (step_tol(), steps.awk) unless given.
function check(step, key, chk, got, want, class, tol,    why) {
	if (tol == "") tol = step_tol(step, chk, want, VI)
	if (!(step in seen)) { out("FAIL", step, chk, "missing", want, tol, "", "no @run record"); return }
	if (!(key in ROW)) { out("FAIL", step, chk, "missing", want, tol, "", run_failure(step)); return }
	why = why_env(step, key, class)
	if (why == "" && step in GLIBC_WHY) why = GLIBC_WHY[step]
	if (why != "") { out("ENV", step, chk, got, want, (tol == 0 ? "exact" : "+-" tol), "", why); return }
	if (want == "unknown") { out("FAIL", step, chk, got, want, tol, "", "no expectation: the student name has no parameters"); return }
	if (want == "none") { out("FAIL", step, chk, got, want, tol, "", NO_PRED); return }
	if (!isnum(got)) { out("FAIL", step, chk, (got == "" ? "empty" : got), want, tol, "", "not a number"); return }
	# (a difference of two runs may fall below 0 by the loader's slack)
	if (got < 0 && want >= 0 && got < want - NEG_SLACK) { out("FAIL", step, chk, got, want, tol, "", "a count cannot be negative"); return }
	out(abs(got - want) <= tol ? "PASS" : "FAIL", step, chk, got, want, (tol == 0 ? "exact" : "+-" tol), "", CHECK_WHY)
}

# same, for words (via, alignment rules)
function check_str(step, key, chk, got, want, class,    why) {
	if (!(step in seen) || !(key in ROW)) { out("FAIL", step, chk, "missing", want, "exact", "", run_failure(step)); return }
	why = why_env(step, key, class)
	if (why == "" && step in GLIBC_WHY) why = GLIBC_WHY[step]
	if (why != "") { out("ENV", step, chk, got, want, "exact", "", why); return }
	out(got == want ? "PASS" : "FAIL", step, chk, got, want, "exact", "", "")
}

# range: LO <= GOT <= HI (HI "" for no upper bound)
function check_range(step, key, chk, got, lo, hi, class,    why, w) {
	w = (hi == "") ? ">=" lo : lo ".." hi
	if (!(step in seen) || !(key in ROW)) { out("FAIL", step, chk, "missing", w, "range", "", run_failure(step)); return }
	why = why_env(step, key, class)
	if (why != "") { out("ENV", step, chk, got, w, "range", "", why); return }
	if (lo == "none" || hi == "none") { out("FAIL", step, chk, got, w, "range", "", NO_PRED); return }
	out(isnum(got) && got + 0 >= lo + 0 && (hi == "" || got + 0 <= hi + 0) ? "PASS" : "FAIL", step, chk, got, w, "range", "", "")
}

# The commands a step must have run, rebuilt from the step table and the
# header's knobs; its points (the table's), all its records right or none.  The
# strace log path (-o) is a temporary file and is not compared: up to the
# name tools/submit.sh gives it (sc.log, wr.log), for TMPDIR may hold a blank.
function check_commands(step,    i, got, e, bad) {
	bad = ""
	for (i = 1; i <= REC_N; i++) {
		if (REC_STEP[i] != step) continue
		if (!(REC_ID[i] in seen)) { bad = "no @run " REC_ID[i]; break }
		got = CMD[REC_ID[i]]; sub(/ -o .*\/(sc|wr)\.log /, " -o LOG ", got)
		e = ENVL[REC_ID[i]]; if (e == "(none)") e = ""
		if (got != WANT_CMD[REC_ID[i]] || e != REC_ENV[i]) { bad = "ran: " ENVL[REC_ID[i]] " " CMD[REC_ID[i]]; break }
	}
	if (bad == "") out("PASS", step, "commands", "the kit's", "the kit's", "exact", "", "")
	else out("FAIL", step, "commands", "differ", "the kit's", "exact", "", bad)
}

# Lab 1 strace: calls made by frames 3 and 4 (the 4-frame run minus the
# 2-frame run).
# munmap: the loader's own start-up pieces (loader_model()) may differ
# between the two runs by LD_HI - LD_LO; the why line says so.
function check_sc(base, call, want,    s2, s4) {
	s2 = base ".strace2"; s4 = base ".strace4"
	if (!HAVE_STRACE) { out("ENV", base, call "/2frames", "-", want, "exact", "", NOSTRACE); return }
	if (!(s2 in HAVESC) || !(s4 in HAVESC)) { out("FAIL", base, call "/2frames", "missing", want, "exact", "", "no strace record"); return }
	if (call == "munmap") check_munmap_diff(s4, s4, call "/2frames", SC[s4, call] - SC[s2, call], want)
	else check(s4, s4, call "/2frames", SC[s4, call] - SC[s2, call], want, "alloc")
}
# check_munmap_diff STEP KEY CHECK GOT WANT: GOT, two runs' munmap counts
# subtracted, against WANT give or take the loader's own pieces
# (loader_model()): the why line names them, and the difference may fall
# below 0 by as much (NEG_SLACK, read by check()).
function check_munmap_diff(step, key, chk, got, want) {
	NEG_SLACK = LD_HI - LD_LO
	CHECK_WHY = NEG_SLACK ? "the loader unmaps " LD_LO " or " LD_HI " pieces of libc's " LD_ALIGN "-byte-aligned segments in each run" : ""
	check(step, key, chk, got, want, "alloc", NEG_SLACK)
	CHECK_WHY = ""; NEG_SLACK = 0
}

# ------------------------------------------- the model, asked (predict)
# Every count the allocator decides is the kit's one model's
# (tools/include/model.h), asked through tools/grading/predict, which
# the grader builds in its own tree (PREDICT; PREDICT_REQ: a scratch
# file of its own).  grade_one() gathers every question a file needs
# (ask_*), then asks them in one run of the tool (predictions()); the
# checkers read the answers with pred().  Nothing of glibc's policy is
# worked out here.  From the file, only the heap its run found before
# the loop (the heap_top_* columns) goes to the model, and only as
# numbers checked here first (heap_words()); the rest comes from the
# step table, the header's machine facts and the student's parameters.
function ask(key, words,    g) {
	g = GV1 "." GV2
	NASK++; ASK_KEY[NASK] = key
	ASK_LINE[NASK] = "id=" NASK " " words " page=" PAGE " glibc=" g " bits=" (BITS == 32 ? 32 : 64) \
		(words ~ /^kind=(frames|vary) / ? " rf=" RF : "")
}
# The heap the run found (frames' heap_top_* columns), as request words;
# "" for a record without them (the model then starts as the loop's
# first malloc would), "bad" when they are not numbers.
function heap_words(rec,    o, b, m) {
	if (!((rec, "heap_top_bytes") in V) || V[rec, "heap_top_bytes"] == "") return ""
	o = V[rec, "heap_top_offset"]; b = V[rec, "heap_top_bytes"]; m = V[rec, "heap_top_mapped"]
	if (o !~ /^[0-9]+$/ || b !~ /^[0-9]+$/ || m !~ /^[0-9;-]*$/ || length(o b m) > 600) return "bad"
	return " top_offset=" o " top_bytes=" b " top_mapped=" m
}
# The step's policy (the step table's, never the file's, as steps.awk
# splits it) as the model's words: env=NAME=VALUE for its environment,
# WORD=1 for the program's own policy WORD (tune=1: the model knows what
# --tune does; a word it does not know is its error).
function env_words(env,    n, a, i, w) {
	w = ""; n = split(env, a, " ")
	for (i = 1; i <= n; i++) w = w " env=" a[i]
	return w
}
# ask_frames(KEY, REC, CMD, OWN, ENV, FRAMES, ALLOC): one ./frames run of
# command CMD under the step's policy (OWN, the program's own word, and
# ENV) at FRAMES frames (ALLOC: the command's own when ""), from the heap
# record REC found; answered as PR[KEY, ...]: faults, mmap_frames,
# corrupt_pixels, frame_pages, and brk, mmap, munmap (frames 3 and 4).
function ask_frames(key, rec, cmd, own, env, frames, alloc,    h, s, w) {
	h = heap_words(rec)
	if (h == "bad") { PR[key] = "the heap_top columns of " rec " are not numbers"; return }
	if (alloc == "") alloc = cmd_word(cmd, "--alloc")
	s = cmd_word(cmd, "--size")
	w = "kind=frames frames=" frames (s != "" ? " size=" s : "") (alloc != "" ? " alloc=" alloc : "") \
		(own != "" ? " " own "=1" : "") env_words(env) h
	ask(key, w)
}
# Ask every question at once; PR[KEY] is "ok" or why there is no answer.
# The tool answers a line a request, in order; fewer is the grader's
# failure (exit 2), not the student's.
function predictions(    i, cmd, line, a, n, id, k, got) {
	if (NASK == 0) return 1
	for (i = 1; i <= NASK; i++) print ASK_LINE[i] > PREDICT_REQ
	close(PREDICT_REQ)
	cmd = sh_word(PREDICT) " < " sh_word(PREDICT_REQ)
	got = 0
	while ((cmd | getline line) > 0) {
		n = split(line, a, " "); id = a[1] + 0
		if (id < 1 || id > NASK) continue
		got++; k = ASK_KEY[id]
		if (a[2] != "ok") { PR[k] = substr(line, length(a[1]) + 8); continue }
		PR[k] = "ok"
		for (i = 3; i <= n; i++) if (index(a[i], "=") > 1) PR[k, substr(a[i], 1, index(a[i], "=") - 1)] = substr(a[i], index(a[i], "=") + 1)
	}
	close(cmd)
	if (got != NASK) {
		print "grade: " PREDICT " answered " got " of " NASK " questions (make tools/grading/predict)" > "/dev/stderr"
		return 0
	}
	return 1
}
# A path as one sh word: quoted, each ' in it as '\'' (the kit may sit
# under /tmp/it's here/).
function sh_word(s,    q, w, i) {
	q = "'"; w = ""
	while ((i = index(s, q)) > 0) { w = w substr(s, 1, i - 1) q "\\" q q; s = substr(s, i + 1) }
	return q w s q
}
# pred(KEY, FIELD): the model's answer, or "none" (NO_PRED says why;
# check() and check_range() fail a check that wants "none").
function pred(key, field) {
	if (PR[key] == "ok" && (key, field) in PR) return PR[key, field]
	NO_PRED = "no prediction: " (PR[key] == "" || PR[key] == "ok" ? "not asked" : PR[key])
	return "none"
}

# page_bytes as the model takes it: digits, a power of two, 1 KiB..1 GiB.
function page_ok(v,    p) {
	if (v !~ /^[0-9]+$/ || length(v) > 10) return 0
	for (p = 1024; p < v + 0 && p < 1073741824; p *= 2) ;
	return p == v + 0
}
# The questions each graded step's checker will read (grade_one(),
# before any checker runs): what its checker needs from the model.
# A count from the file the model may be asked about: digits, and not
# so many that a C integer would overflow.
function count_ok(v) { return v ~ /^[0-9]+$/ && length(v) <= 12 }
function ask_step(s, spec,    c, cmd, own, env, n, sz) {
	c = spec; sub(/:.*/, "", c); cmd = WANT_CMD[s]; own = STEP_OWN[STEP_N[s]]; env = WANT_ENV[s]
	n = cmd_word(cmd, "--frames") + 0
	if (c == "frames_lab1" || c == "frames") {
		ask_frames(s, s, cmd, own, env, n, "")
		if (c == "frames_lab1") ask_frames(s ".strace4", s ".strace4", cmd, own, env, 4, "")
	} else if (c == "frame_fix") {
		ask_frames(s ".strace4", s ".strace4", cmd, own, env, 4, "calloc")
		ask_frames(s ".memset", s, cmd, own, env, n, "memset")
		ask_frames(s ".calloc", s, cmd, own, env, n, "calloc")
	} else if (c == "frames_vary")
		ask(s, "kind=vary frames=" n " size=" cmd_word(cmd, "--size") " vary=" cmd_word(cmd, "--vary"))
	else if (c == "threads_pre25" && count_ok(V[s, "mmapped"]))
		ask(s, "kind=pre25 blocks=" V[s, "mmapped"])
	else if (c == "trim" && count_ok(V[s, "anon_start_kib"]) && count_ok(V[s, "live_blocks"]) && count_ok(V[s, "arenas"]))
		ask(s, "kind=trim start_kib=" V[s, "anon_start_kib"] " live_blocks=" V[s, "live_blocks"] " arenas=" V[s, "arenas"] \
			(count_ok(V[s, "anon_after_kib"]) ? " after_kib=" V[s, "anon_after_kib"] : ""))
	else if (c == "writes" && cmd_word(cmd, "--align") == "malloc" && (sz = size_of(cmd_word(cmd, "--size"))) > 0)
		ask(s, "kind=block size=" sz env_words(env))
}

function cmd_word(cmd, opt,    s) {
	if (!match(cmd, opt " [^ ]+")) return ""
	return substr(cmd, RSTART + length(opt) + 1, RLENGTH - length(opt) - 1)
}
# Grade one frames step of Lab 1 or Lab 4: faults, corrupt pixels, frames
# from mmap, and (Lab 1) the system calls of two steady frames.
function grade_frames(s, lab1,    t) {
	t = s ".strace4"
	EXPECT[s] = pred(s, "faults")
	check(s, s, "minor_faults", V[s, "minor_faults"], pred(s, "faults"), "fault")
	if (lab1) check(s, s, "corrupt_pixels", V[s, "corrupt_pixels"], pred(s, "corrupt_pixels"), "alloc")
	check(s, s, "mmap_frames", V[s, "mmap_frames"], pred(s, "mmap_frames"), "alloc")
	if (lab1) { check_sc(s, "brk", pred(t, "brk")); check_sc(s, "mmap", pred(t, "mmap")); check_sc(s, "munmap", pred(t, "munmap")) }
}

# ------------------------------------------------------------ checkers
# Each graded row of tools/grading/steps names one, NAME or NAME:ARG:ARG,
# and gives its points and tolerances (steps.awk: step_points(),
# step_tol()).  CHECKERS: each name and how many ARGs it takes; the table
# is held to it once a batch (checkers_known()), before any file, so a
# row naming another stops the grader (exit 2).  A new kind of
# expectation is a function below, its name here and its line in
# checker() (awk has no function values: the names meet the functions
# there, and only there).  Two need no awk of a new lab's own: its rows
# configure them (the step's CSV row, and its check named by COLUMN):
#   equals:COLUMN:VALUE   the column holds VALUE, word for word (Lab 2's
#                         self-test: equals:self_test:ok)
#   range:COLUMN:LO:HI    the column is a number from LO to HI, both
#                         whole numbers, LO <= HI
# The values are the table's words: no |, no blank, no : (the split).
BEGIN {
	CHECKERS = "frames_lab1:0 frames:0 frames_vary:0 frame_fix:0 variance_rows:0 variance_mmap:0 " \
		"variance_pool:0 threads_pre25:0 threads_tuned:1 writes:0 arenas:1-2 trim:0 integrity:0 " \
		"equals:2 range:3"
}
function checkers_known(n,    i, c, a, m, k, want) {
	m = split(CHECKERS, c, " ")
	for (k = 1; k <= m; k++) { split(c[k], a, ":"); want[a[1]] = a[2] }
	for (i = 1; i <= n; i++) {
		if (STEP_CHECK[i] == "") continue
		m = split(STEP_CHECK[i], a, ":") - 1
		if ((a[1] == "integrity") != steps_has(i, "file")) m = -1    # the row "file" only
		if (!(a[1] in want) || (m "" != want[a[1]] && !(want[a[1]] ~ /-/ && m >= substr(want[a[1]], 1, 1) + 0 && m <= substr(want[a[1]], 3) + 0))) {
			print "grade: tools/grading/steps: step " STEP_ID[i] " names checker '" STEP_CHECK[i] "', which grade.awk does not have" > "/dev/stderr"
			exit 2
		}
		if ((a[1] == "equals" || a[1] == "range") && a[2] !~ /^[a-z][a-z0-9_]*$/ || a[1] == "equals" && a[3] == "" ||
		    a[1] == "range" && (a[3] !~ /^-?[0-9]+$/ || a[4] !~ /^-?[0-9]+$/ || a[3] + 0 > a[4] + 0)) {
			print "grade: tools/grading/steps: step " STEP_ID[i] ": checker '" STEP_CHECK[i] "' wants " \
				(a[1] == "equals" ? "equals:COLUMN:VALUE" : "range:COLUMN:LO:HI (whole numbers, LO <= HI)") > "/dev/stderr"
			exit 2
		}
	}
}
function checker(s, spec,    a, c) {
	split(spec, a, ":"); c = a[1]
	ANSWERING = (s in STUDENT_STEP)     # the sheet's own runs count with it
	if (c == "frames_lab1" || c == "frames") grade_frames(s, c == "frames_lab1")
	else if (c == "frames_vary") check_vary(s)
	else if (c == "frame_fix") check_frame_fix(s)
	else if (c == "variance_rows") check_variance_rows(s)
	else if (c == "variance_mmap") check_variance_mmap(s)
	else if (c == "equals") check_str(s, s, a[2], V[s, a[2]], a[3], "plain")
	else if (c == "range") check_range(s, s, a[2], V[s, a[2]], a[3], a[4], "plain")
	else if (c == "variance_pool") check_variance_pool(s)
	else if (c == "threads_pre25") check_pre25(s)
	else if (c == "threads_tuned") check_tuned(s, a[2])
	else if (c == "writes") check_writes(s)
	else if (c == "arenas") check_arenas(s, a[2], a[3])
	else if (c == "trim") check_trim(s)
	ANSWERING = 0
}
# rows_add_up(): each row graded scored out of its total in the table
# (make check: less its commands check, which make check has not); a
# table whose points and checks disagree stops the grader (exit 2).
function rows_add_up(    i, s, t) {
	for (i = 1; i <= ngraded + 1; i++) {
		s = (i <= ngraded) ? GRADED[i] : "file"
		if (!(s in ROW_MADE)) continue
		t = STEP_TOTAL[STEP_N[s]] - ((MODE == "check" && !steps_has(STEP_N[s], "check")) ? step_points(s, "commands") : 0)
		if (ROW_MADE[s] != t) {
			print "grade: tools/grading/steps: step " s ": its checks are out of " ROW_MADE[s] " points, its row says " t \
				" (its checker " STEP_CHECK[STEP_N[s]] " made" ROW_CHECKS[s] ")" > "/dev/stderr"
			exit 2
		}
	}
}

# Lab 1 (frames_lab1) and Lab 4 (frames): the run's faults and frames
# from mmap, and Lab 1's corrupt pixels and system calls of frames 3 and
# 4, as the model replays the loop under the step's policy (what each
# count is for each policy, and why: tools/include/model.h).  Grades
# one step (grade_frames()).

# Lab 1's black-frame exercise (frame_fix): new_frame() under a kept heap
# (the step sets mmap_max=0 and a trim threshold over every frame, so the
# student's tune_allocator() plays no part).  Whatever new_frame() calls,
# no sampled pixel may hold the last frame's picture, no frame may come
# from mmap, and two steady frames make no brk, mmap or munmap; the faults
# are at most what calloc or malloc + memset would take (the larger of the
# two replays): a fix that maps each frame afresh is not one.
function check_frame_fix(s,    fc, fm, t, hi) {
	t = s ".strace4"
	fm = pred(s ".memset", "faults"); fc = pred(s ".calloc", "faults")
	hi = (fm == "none" || fc == "none") ? "none" : max(fc, fm) + step_tol(s, "minor_faults", 0, VI)
	check(s, s, "corrupt_pixels", V[s, "corrupt_pixels"], 0, "alloc")
	check_range(s, s, "minor_faults", V[s, "minor_faults"], 0, hi, "fault")
	check(s, s, "mmap_frames", V[s, "mmap_frames"], pred(s ".calloc", "mmap_frames"), "alloc")
	check_sc(s, "brk", pred(t, "brk")); check_sc(s, "mmap", pred(t, "mmap")); check_sc(s, "munmap", pred(t, "munmap"))
}

# Lab 2's pool row alone (variance_pool): it took the pool's path and did
# not fault on its hot path (the rows' own tolerance, in its row).
function check_variance_pool(s,    k, got) {
	k = s "/pool 64 B"
	check_str(s, k, "via", V[k, "via"], "pool", "plain")
	got = (k in ROW) && isnum(V[k, "faults_per_iter"]) && isnum(V[k, "iters"]) ? int(V[k, "faults_per_iter"] * V[k, "iters"] + 0.5) : ""
	check(s, k, "faults", got, 0, "plain")
}

# Lab 4's 8 MiB +- 1.5 MiB: sizes that vary are bounds only, the
# model's (kind vary) widened by the step's fault tolerance.
function check_vary(s,    t, lo, hi) {
	t = step_tol(s, "minor_faults", 0, VI)
	lo = pred(s, "min_faults"); hi = pred(s, "max_faults")
	check_range(s, s, "minor_faults", V[s, "minor_faults"], (lo == "none" ? lo : lo - t), (hi == "none" ? hi : hi + t), "fault")
	check_range(s, s, "mmap_frames", V[s, "mmap_frames"], pred(s, "min_mmap_frames"), pred(s, "max_mmap_frames"), "alloc")
}

# Lab 2: each row is a fresh process: 32 B (tcache), 4 KiB (bins) and
# 1 MiB with the dynamic threshold (the first free raises it) come from
# the heap and fault only while setting up, never per call.  Forced mmap
# (the threshold pinned at 512 KiB): every call maps a fresh 1 MiB block
# and writes its header: 1 fault a call, one mmap and one munmap a call.
function check_variance_rows(s,    nl, L2, L2N, VIA, i, k, lab, cls, got) {
	nl = split("timer floor|malloc 32 B|malloc 4 KiB|malloc 1 MiB (default)|malloc 1 MiB (forced mmap)|malloc 1 MiB (heap, no trim)|pool 64 B", L2, "|")
	split("timer|32B|4KiB|1MiB-default|1MiB-mmap|1MiB-heap|pool", L2N, "|")
	VIA["timer floor"] = "-"; VIA["pool 64 B"] = "pool"; VIA["malloc 1 MiB (forced mmap)"] = "mmap"
	for (i = 1; i <= nl; i++) {
		k = s "/" L2[i]; lab = L2N[i]
		cls = (L2[i] ~ /^malloc/) ? "alloc" : "plain"
		check_str(s, k, "via:" lab, V[k, "via"], (L2[i] in VIA) ? VIA[L2[i]] : "heap", cls)
		got = (k in ROW) && isnum(V[k, "faults_per_iter"]) && isnum(V[k, "iters"]) ? int(V[k, "faults_per_iter"] * V[k, "iters"] + 0.5) : ""
		if (L2[i] ~ /forced/) check(s, k, "faults:" lab, got, VI, "alloc")
		else if (L2[i] != "timer floor") check(s, k, "faults:" lab, got, 0, cls)
	}
}
# strace: the run at VARIANCE_ITERS minus the run at 1 iteration (munmap:
# give or take the loader's pieces, as in Lab 1).
function check_variance_mmap(s,    k, n1, nN) {
	if (!HAVE_STRACE) {
		out("ENV", s, "mmap_calls", "-", VI - 1, "exact", "", NOSTRACE)
		out("ENV", s, "munmap_calls", "-", VI - 1, "exact", "", NOSTRACE)
		return
	}
	n1 = s ".strace1"; nN = s ".straceN"
	k = nN "/malloc 1 MiB (forced mmap)"
	if (!(n1 in HAVESC)) delete ROW[k]
	check(nN, k, "mmap_calls", SC[nN, "mmap"] - SC[n1, "mmap"], VI - 1, "alloc")
	check_munmap_diff(nN, k, "munmap_calls", SC[nN, "munmap"] - SC[n1, "munmap"], VI - 1)
}

# Lab 3: pre25 pins the threshold at 128 KiB: every request whose chunk
# reaches it is a fresh mapping, each page written once (memset): the
# faults are the mapped pages; the pages a mapped block spans lie between
# the model's bounds for the smallest and largest request (kind pre25).
function check_pre25(s) {
	check(s, s, "requests", V[s, "requests"], 2 * CL, "plain")
	check(s, s, "faults~mmap_pages", V[s, "minor_faults"], V[s, "mmapped_pages"], "alloc")
	check_range(s, s, "mmap_pages/block", V[s, "mmapped_pages"], pred(s, "min_pages"), pred(s, "max_pages"), "alloc")
}
# tuned (threshold 16 MiB, over every request) maps nothing and reuses the
# heaps: its faults are only the heaps growing, at least 3x fewer than
# pre25's at COUNT_LARGE >= 200 (measured 4x at 100, 10x at 500, 44x at
# 4000; a shorter run cannot tell, and fails).  A lower bound, so THP
# "always" cannot spoil it: pre25's blocks (at most 1.25 MiB mappings)
# hold no huge page, while huge pages only lower tuned's faults.
function check_tuned(t, s,    r) {
	check(t, t, "mmapped", V[t, "mmapped"], 0, "alloc")
	if (CL < 200) { out("FAIL", t, "pre25/tuned", "-", ">=3", "range", "", "count_large " CL " < 200: too short to tell"); return }
	r = (isnum(V[t, "minor_faults"]) && V[t, "minor_faults"] > 0 && isnum(V[s, "minor_faults"])) ? \
		sprintf("%.1f", V[s, "minor_faults"] / V[t, "minor_faults"]) : "none"
	check_range(t, t, "pre25/tuned", r, 3, "", "alloc")
}

# Lab 5: a blocking write() to a pipe returns when all of it is written:
# BYTES take exactly ceil(BYTES / size) calls, none short.  strace saw
# them (raw arguments): the buffer's address mod the page size must be
# the one the CSV claims (files that kept it mod 4096: compared so).
# page, page+8, page+16 are placed by hand (0, 8, 16); as malloc returned
# it: a 1 MiB block is mapped on its own, its user bytes 16 bytes (the
# chunk header) past a page boundary; a heap block is 16-byte aligned.
function check_writes(s,    sz, al, mod, hit, k, want, calls, a) {
	sz = size_of(cmd_word(WANT_CMD[s], "--size")); al = cmd_word(WANT_CMD[s], "--align")
	# sz is 0 where the step's size is the sheet's and the name has none:
	# no expectation then, and no division (gawk stops on one).
	calls = sz > 0 ? ceil(B / sz) : "unknown"
	check(s, s, "writes", V[s, "writes"], calls, "plain")
	check(s, s, "short_writes", V[s, "short_writes"], 0, "plain")
	mod = ((s, "addr_mod_page") in V) ? V[s, "addr_mod_page"] : V[s, "addr_mod_4096"]
	if (al == "malloc" && pred(s, "mapped") == 1) check(s, s, "addr_mod_page", mod, pred(s, "page_offset"), "alloc")
	else if (al == "malloc" && pred(s, "mapped") == "none") check(s, s, "addr_mod_page", mod, "none", "alloc")
	else if (al == "malloc") {       # a heap block: aligned as malloc aligns (the model's align)
		a = pred(s, "align")
		check(s, s, "addr_mod_" a, (isnum(mod) && a + 0 > 0 ? mod % a : mod), (a + 0 > 0 ? 0 : "none"), "alloc")
	}
	else check(s, s, "addr_mod_page", mod, (al == "page" ? 0 : al == "page+8" ? 8 : 16), "plain")
	if (!HAVE_STRACE) {
		out("ENV", s, "strace_writes", "-", calls, "exact", "", NOSTRACE)
		out("ENV", s, "strace_addr_mod", "-", mod, "exact", "", NOSTRACE)
		return
	}
	hit = 0
	for (k = 1; k <= NW[s]; k++) if (WR[s, k, "bytes"] == B) hit = k
	check(s, s, "strace_writes", hit ? WR[s, hit, "calls"] : "none", calls, "plain")
	want = (hit && WR[s, hit, "mod4096"] && isnum(mod)) ? mod % 4096 : mod
	check(s, s, "strace_addr_mod", hit ? WR[s, hit, "mod"] : "none", want, "plain")
}

# Lab 6: a thread's first malloc gives it an arena of its own while fewer
# than the limit exist; the limit (8 x CPUs, or arena_max) is only looked
# at once more than arena_test (8) arenas exist.  3 threads: the main
# arena and 3 more, on any machine.  MALLOC_ARENA_MAX=2: 2.  The same
# seed gives the same live set under both (arenas:N:SAME_AS).
function check_arenas(s, n, same) {
	check(s, s, "arenas", V[s, "arenas"], n, "alloc")
	if (same != "") check(s, s, "live_after", V[s, "live_after"], V[same, "live_after"], "plain")
}
# malloc_trim(0): RssAnon after the trim is at most the model's bound
# (kind trim: what the live blocks and the arenas' headers keep).
function check_trim(u) {
	check_range(u, u, "trimmed_kib", V[u, "anon_trimmed_kib"], 0, pred(u, "max_kib"), "alloc")
}

function grade_one() {
	gsub(/[^ -~]/, "?", SUBFILE)
	# Format 3 (make submit today) must carry kit_sources, the hash the
	# kit check holds to the revision's sources; format 2 (the kit's older
	# files: the reference, the fixtures) is graded as it always was, and
	# tools/grade.sh says INTEGRITY when its revision writes format 3.
	if (H["format"] !~ /^malloc-labs-submission [23]$/ || H["glibc"] == "" || H["page_bytes"] == "") {
		if (H["format"] ~ /^malloc-labs-submission [0-9]+$/)
			print "grade: " SUBFILE ": " H["format"] ": this kit grades formats 2 and 3 only (make submit again with this kit)" > "/dev/stderr"
		else print "grade: " SUBFILE ": not a malloc-labs submission (no header: format, glibc, page_bytes)" > "/dev/stderr"
		return 2
	}
	if (H["format"] ~ / 3$/ && (length(H["kit_sources"]) != 12 || H["kit_sources"] ~ /[^0-9a-f]/)) {
		B_WHY = "format 3 without a kit_sources line (12 hex digits, as make submit writes it)"
		print "grade: " SUBFILE ": not graded: " B_WHY > "/dev/stderr"
		return 2
	}
	if ((H["steps"] ~ /^exercise/) != (MODE == "check")) {
		if (MODE == "check") print "grade: " SUBFILE ": not a make check record" > "/dev/stderr"
		else print "grade: " SUBFILE ": a make check record (steps: exercise), not a submission: make submit writes those" > "/dev/stderr"
		return 2
	}
	PAGE = H["page_bytes"] + 0; RF = H["read_faults_per_page"] + 0; BITS = H["binary_bits"]
	N = H["frames"] + 0; SCALE = H["scale"] + 0; VI = H["variance_iters"] + 0
	CL = H["count_large"] + 0; B = H["bytes_per_run"] + 0
	if (!page_ok(H["page_bytes"]) || (RF != 1 && RF != 2) || N < 1 || SCALE < 1 || VI < 2 || CL < 1 || B < 1) {
		print "grade: " SUBFILE ": the header lacks or garbles page_bytes, read_faults_per_page or a knob" > "/dev/stderr"
		return 2
	}
	# The model takes MAJOR.MINOR (a development glibc says 2.39.9000).
	if (H["glibc"] !~ /^[0-9][0-9]?\.[0-9][0-9]?[0-9]?(\.[0-9]+)?$/ || H["glibc"] + 0 < 2) {
		print "grade: " SUBFILE ": the header garbles glibc (not MAJOR.MINOR, as gnu_get_libc_version() gives it)" > "/dev/stderr"
		return 2
	}
	if ((B_WHY = over_cap()) != "") {
		print "grade: " SUBFILE ": not graded: " B_WHY > "/dev/stderr"
		return 2
	}
	split(H["glibc"], gv, "."); GMIN = (gv[1] > 2) ? 99 : gv[2] + 0
	HAVE_STRACE = H["strace"] !~ /^none/
	# Without strace the system-call checks cannot be made: ENV (points
	# withheld, exit 3), never a silent SKIP a forger could ask for.
	NOSTRACE = "no strace in the submission: install strace (and allow ptrace), then submit again"
	TOL = fault_tolerance()
	loader_model()

	# ------------------------------------------------------- the steps
	# The student's parameters come from the name (tools/grading/questions.sh, via
	# QKNOBS), never from the file: a file renamed to another student runs
	# the wrong commands.  No name to derive them from: zeros, so the
	# commands check fails.
	HAVE_Q = ("questions" in H) || HAVE_ANS
	steps_knobs("FRAMES=" N " SCALE=" SCALE " VARIANCE_ITERS=" VI " COUNT_LARGE=" CL \
		" BYTES=" H["bytes"] " " (QKNOBS != "" ? QKNOBS : "Q_SIZE=0 Q_L4=0 Q_BUF=0"), K)
	steps_derive(K); N4 = K["N4"]
	if (!NSTEPS) { NSTEPS = steps_load(STEPS); steps_exercise(NSTEPS); checkers_known(NSTEPS) }   # the table, once a batch
	nst = NSTEPS
	for (i = 1; i <= nst; i++) {
		if (MODE == "check" ? !(i in EXERCISE_ROW) : !steps_has(i, "graded")) continue
		# A step that came after the file's kit (its since, after the date
		# git gives the kit's revision: KIT_DATE) was never asked of it:
		# SKIP, and out of its maximum.  Its records are not the kit's.
		if (STEP_SINCE[i] != "" && KIT_DATE != "" && KIT_DATE < STEP_SINCE[i]) { NEWER[++nnewer] = i; continue }
		# The answer sheet's steps come only with an answer sheet.
		if (steps_has(i, "student")) { if (!HAVE_Q) continue; STUDENT_STEP[STEP_ID[i]] = 1 }
		first = REC_N + 1
		steps_records(i, K, HAVE_STRACE)
		for (r = first; r <= REC_N; r++) {
			c = REC_CMD[r]
			if (REC_HOW[r] == "sc") c = "strace -f -c -e trace=brk,mmap,munmap -o LOG " c
			if (REC_HOW[r] == "wr") c = "strace -f -e trace=write -e raw=write -o LOG " c
			WANT_CMD[REC_ID[r]] = c; WANT_ENV[REC_ID[r]] = REC_ENV[r]; REC_STEP[r] = STEP_ID[i]
		}
		GRADED[++ngraded] = STEP_ID[i]; GCHECK[ngraded] = STEP_CHECK[i]
		# No GLIBC_TUNABLES before glibc 2.26: those steps ran untuned.
		if (STEP_ENV[i] ~ /GLIBC_TUNABLES/ && GMIN < 26)
			GLIBC_WHY[STEP_ID[i]] = GLIBC_WHY[STEP_ID[i] ".strace4"] = "glibc " H["glibc"] " has no GLIBC_TUNABLES"
	}
	# What the model expects of every step graded (and of the sheet), asked
	# at once before any checker runs.
	GV1 = gv[1] + 0; GV2 = gv[2] + 0
	for (i = 1; i <= ngraded; i++)
		if (MODE != "check" || STEP_EX[STEP_N[GRADED[i]]] != "") ask_step(GRADED[i], GCHECK[i])
	if (HAVE_ANS && marks_answers() && MODE != "check") ask_answers()
	if (!predictions()) return 2

	if (MODE == "check") {
		# EXFILES: "NAME=FILE ..." (tools/lib/exercise.awk's list)
		n = split(EXFILES, a, " ")
		for (i = 1; i <= n; i++) if ((k = index(a[i], "=")) > 0) EX_FILE[substr(a[i], 1, k - 1)] = substr(a[i], k + 1)
		printf "make check: glibc %s, page %d B, %d fault(s) a page read then written\n", H["glibc"], PAGE, RF
		printf "THP %s\n", substr(H["thp"], 1, 70)
		printf "  %-4s  %-17s %-16s %10s %10s %6s %3s\n", "", "step", "check", "got", "want", "tol", "pts"
		wait4_check()
		for (i = 1; i <= ngraded; i++) {
			CUR_EX = STEP_EX[STEP_N[GRADED[i]]]
			if (CUR_EX != "") checker(GRADED[i], GCHECK[i])
		}
		rows_add_up()
		return check_score()
	}
	rep(sprintf("# %s: %s, glibc %s, page %d B", SUBFILE, H["student"], H["glibc"], PAGE))
	rep(sprintf("# %d fault(s) a read-then-written page, THP %s", RF, H["thp"]))
	rep(sprintf("# knobs: frames %d, scale %d, variance_iters %d, count_large %d, bytes %s", N, SCALE, VI, CL, H["bytes"]))
	# (issue 34: what a file can prove, said where it is graded)
	rep("# a file graded alone is a self-check of the machine that wrote it, not proof")
	rep("# of whose code ran: make check, or a course's re-run, measures the code")
	if (H["format"] ~ / 2$/) rep("# legacy: submission format 2 (kit_sources not required); make submit writes 3")
	if (KIT_KNOWN ~ /^as:/)
		rep("# kit " H["kit"] ": not a revision here; its sources are " substr(KIT_KNOWN, 4) "'s: graded as " substr(KIT_KNOWN, 4))
	rep(sprintf("%-4s  %-19s  %-16s %12s %12s %6s %5s", "", "step", "check", "got", "want", "tol", "pts"))
	integrity()
	for (i = 1; i <= nnewer; i++)
		out("SKIP", STEP_ID[NEWER[i]], "since", "-", "-", "-", 0, "a step since " STEP_SINCE[NEWER[i]] \
			": the kit, " H["kit"] ", is of " KIT_DATE " (out of the maximum)")
	for (i = 1; i <= ngraded; i++) { ANSWERING = (GRADED[i] in STUDENT_STEP); check_commands(GRADED[i]) }
	ANSWERING = 0
	for (i = 1; i <= ngraded; i++) checker(GRADED[i], GCHECK[i])
	answers()
	rows_add_up()

	rep("Times (recorded, not graded):")
	for (i = 1; i <= nrec; i++) { r = order[i]
		if (r ~ /strace/) continue
		if ((r, "time_s") in V) rep(sprintf("  %-26s %10s s", r, V[r, "time_s"]))
		else if ((r, "seconds") in V) rep(sprintf("  %-26s %10s s  %s GiB/s", r, V[r, "seconds"], V[r, "gib_per_s"]))
	}
	k = "lab2.all/pool 64 B"; k2 = "lab2.all/malloc 32 B"
	if (k in ROW && k2 in ROW) rep(sprintf("  %-26s %10s ns  (malloc 32 B p50 %s ns)", "lab2 pool 64 B p50", V[k, "p50_ns"], V[k2, "p50_ns"]))
	fl = ""; for (fg in FLAG) fl = fl (fl == "" ? "" : ";") fg
	if (envs) rep(sprintf("ENV: %d check(s) not comparable here (%s); their points are not given", envs, fl))
	if (KNOBS_BELOW != "") rep("Knobs below the course's minimums (tools/grading/knobs):" KNOBS_BELOW)
	if (EXPECT_OUT != "")
		for (s in EXPECT) printf "%s %s\n", s, EXPECT[s] > EXPECT_OUT
	STATUS = integ ? "INTEGRITY" : fails ? "FAIL" : envs ? "ENV" : "CLEAN"
	# INTEGRITY: no score, whatever passed (an honest failing count always
	# outscores a flagged file); the maximum is the same for every file.
	if (integ) { score = 0; ascore = 0 }
	rep(sprintf("Status: %s%s", STATUS, integ ? " (" integ " integrity check(s) failed: no score)" : ""))
	rep(sprintf("Answers: %s", !HAVE_ANS ? "none (no answer sheet in the submission)" : \
		!marks_answers() ? "not marked in a handout" : ascore + 0 "/" atotal))
	rep(sprintf("Score: %d/%d", score, total))
	if (MODE == "feedback") feedback()
	if (MODE == "gradescope") gradescope()
	if (SUMMARY != "") printf "%s\t%s\n", features(), csv_row(fl) >> SUMMARY
	return integ ? 4 : fails ? 1 : envs ? 3 : 0
}

# The loader's own munmap calls (loader_model: LD_LO..LD_HI a run).  Where
# the libc's loadable segments are aligned to more than a page (Debian's
# arm64 libc: 64 KiB, libc_load_align in the header; a file without that
# line: 64 KiB on aarch64, a page elsewhere), the loader reserves the
# aligned size and unmaps what is left: the piece after the library
# always, the piece before it unless the reservation happened to start
# aligned (glibc's _dl_map_segment): 1 or 2 calls a run, by address
# randomisation.  The kit's programs load one library (libc).  So two
# runs' munmap counts differ by the lab's calls plus -1, 0 or +1: the
# check allows exactly that, and is exact wherever the alignment is a
# page (x86-64; arm64 with 64 KiB pages).
function loader_model(    a) {
	a = H["libc_load_align"]
	if (a !~ /^[0-9]+$/) a = (H["malloc_owner"] ~ /aarch64/ || H["kernel"] ~ / aarch64$/) ? 65536 : PAGE
	LD_ALIGN = a + 0
	LD_LO = LD_HI = 0
	if (LD_ALIGN > PAGE) { LD_LO = 1; LD_HI = 2 }
}

# ------------------------------------------------------------- integrity
# What a text file can be checked for without a secret (step "file"):
# that it is one submission, each record and each row once and each one
# the kit makes; every row agreeing with the header (glibc, THP, page
# size, faults a read page, the kit and the compiler that built the
# program) and with the file's own readable table; every count a whole
# number; strace, kit and compiler lines consistent with the records; the
# knobs at the course's minimums (tools/grading/knobs, when it says so).
# Any of them failing is the status INTEGRITY (exit 4): a line each, and
# no score.  Two exceptions are ENV, not INTEGRITY: a kit that was not a
# git checkout (a download cannot say its revision) and nothing else.
# What this cannot prove: a forger who edits every copy of a number
# consistently, or runs a patched program built and committed to look
# clean; only a re-run on the grader's machine can (docs/grading.md,
# "What a text file cannot prove").
function fcheck(chk, bad) {
	if (bad == "") out("PASS", "file", chk, "consistent", "consistent", "exact", "", "")
	else out("INTEGRITY", "file", chk, "differs", "consistent", "exact", "", bad)
}
function hum_cmp(r, a, cols,    c, n, i) {
	n = split(cols, c, " ")
	for (i = 1; i <= n; i++)
		if (a[i + 1] != V[r, c[i]]) return r ": the @human table says " c[i] " " a[i + 1] ", the record " V[r, c[i]]
	return ""
}
function last_opt(s,    n, a, i, o) {
	n = split(s, a, " "); o = ""
	for (i = 1; i <= n; i++) if (a[i] ~ /^-O/) o = a[i]
	return o
}
# size_of("16M"): bytes
function size_of(s,    n) {
	n = s + 0
	if (s ~ /[kK]$/) n *= 1024; else if (s ~ /[mM]$/) n *= MIB; else if (s ~ /[gG]$/) n *= 1024 * MIB
	return n
}
# The course's minimums (tools/grading/knobs: KNOB VALUE at-least|at-most,
# and "below flag|integrity"); each knob under one is named in
# KNOBS_BELOW.  An unreadable or malformed file stops the grade (exit 2).
function knobs_check(    line, f, n, got, want, bad, action, rc) {
	if (KNOBS_FILE == "") return ""
	action = "flag"
	while ((rc = (getline line < KNOBS_FILE)) > 0) {
		if (line ~ /^[ \t]*(#|$)/) continue
		n = split(line, f, " ")
		if (f[1] == "below" && n == 2 && (f[2] == "flag" || f[2] == "integrity")) { action = f[2]; continue }
		if (f[1] == "cap") continue     # read once a batch: knob_caps()
		if (n != 3 || f[3] !~ /^at-(least|most)$/ || f[2] !~ /^[1-9][0-9]*[KMG]?$/ || \
		    f[1] !~ /^(FRAMES|SCALE|VARIANCE_ITERS|COUNT_LARGE|BYTES)$/) {
			print "grade: " KNOBS_FILE ": not KNOB VALUE at-least|at-most: " line > "/dev/stderr"; exit 2
		}
		got = (f[1] == "FRAMES") ? N : (f[1] == "SCALE") ? SCALE : (f[1] == "VARIANCE_ITERS") ? VI : \
		      (f[1] == "COUNT_LARGE") ? CL : B
		want = size_of(f[2])
		if ((f[3] == "at-least" && got < want) || (f[3] == "at-most" && got > want))
			KNOBS_BELOW = KNOBS_BELOW " " f[1] " " (f[1] == "BYTES" ? H["bytes"] : got) (f[3] == "at-least" ? " < " : " > ") f[2]
	}
	if (rc < 0) { print "grade: cannot read " KNOBS_FILE > "/dev/stderr"; exit 2 }
	close(KNOBS_FILE)
	if (KNOBS_BELOW != "") FLAG["knobs"] = 1
	return (action == "integrity" && KNOBS_BELOW != "") ? "knobs below the course's minimums:" KNOBS_BELOW : ""
}
# The files the kit ships (SHIPPED: PATH<TAB>NAME SHOWN a line each, by
# tools/grade.sh: results/reference-submission.txt, tests/fixtures/,
# ../shared/fixtures/): their fingerprints (feature(), as copies.awk
# compares a batch's) once a batch, each value's first owner in
# SHIP_OWN.  shipped_copy(): "a copy of FILE ..." when this file is
# alike() one of them (tools/grading/alike.awk) and names another
# student; a shipped file graded as itself (its own student line) is
# not one.
function shipped_load(    line, rc, p, si, i, f) {
	if (SHIPPED == "") return
	while ((rc = (getline line < SHIPPED)) > 0) {
		split(line, f, "\t"); p = f[1]
		file_reset()
		while ((getline line < p) > 0) read_line(line)
		close(p)
		si = ++SHIP_N; SHIP_NAME[si] = f[2]; SHIP_WHO[si] = H["student"]
		for (i = 1; i <= NFEAT; i++) {
			if ((si, FEAT[i]) in SHIP_MINE) continue
			SHIP_MINE[si, FEAT[i]] = 1; SHIP_NF[si]++
			if (!(FEAT[i] in SHIP_OWN)) SHIP_OWN[FEAT[i]] = si
		}
	}
	close(SHIPPED)
	file_reset()
}
function shipped_copy(    i, si, mine, shared, best, nf) {
	if (!SHIP_N) return ""
	nf = 0
	for (i = 1; i <= NFEAT; i++) {
		if (FEAT[i] in mine) continue
		mine[FEAT[i]] = 1; nf++
		if (FEAT[i] in SHIP_OWN) shared[SHIP_OWN[FEAT[i]]]++
	}
	for (si in shared)
		if (alike(shared[si], nf, SHIP_NF[si]) && SHIP_WHO[si] != H["student"])
			return "a copy of " SHIP_NAME[si] " (" shared[si] "/" (nf < SHIP_NF[si] ? nf : SHIP_NF[si]) " values alike)"
	return ""
}

# knob_caps(): the caps of tools/grading/knobs ("cap WHAT VALUE") into
# KCAP[WHAT], once a batch; a malformed one stops the grade (exit 2).
# file_bytes and record_rows are tools/grade.sh's, checked before awk.
function knob_caps(    line, f, n, rc) {
	if (KNOBS_FILE == "") return
	while ((rc = (getline line < KNOBS_FILE)) > 0) {
		n = split(line, f, " ")
		if (f[1] != "cap") continue
		if (n != 3 || f[2] !~ /^(FRAMES|SCALE|VARIANCE_ITERS|COUNT_LARGE|BYTES|file_bytes|record_rows)$/ || \
		    f[3] !~ /^[1-9][0-9]*[KMG]?$/) {
			print "grade: " KNOBS_FILE ": not cap KNOB|file_bytes|record_rows VALUE: " line > "/dev/stderr"; exit 2
		}
		KCAP[f[2]] = size_of(f[3])
	}
	if (rc < 0) { print "grade: cannot read " KNOBS_FILE > "/dev/stderr"; exit 2 }
	close(KNOBS_FILE)
}
# over_cap(): the first knob of the header over its cap ("frames 1000000
# > cap 1000"), or "": such a file is not graded at all, before any
# replay (the cost of Lab 1's replay grows with its frames).
function over_cap(    i, n, k, got, nm) {
	n = split("FRAMES SCALE VARIANCE_ITERS COUNT_LARGE BYTES", k, " ")
	for (i = 1; i <= n; i++) {
		if (!(k[i] in KCAP)) continue
		nm = tolower(k[i]); if (nm == "bytes") nm = "bytes_per_run"
		got = H[nm] + 0
		if (got > KCAP[k[i]]) return nm " " substr(H[nm], 1, 20) " > cap " KCAP[k[i]] " (tools/grading/knobs)"
	}
	return ""
}
function integrity(    i, r, k, n, a, c, col, nc, bad, known, rid, b, o, fam, seenh, nseen, hc, hk) {
	bad = (NFORMAT > 1) ? NFORMAT " format lines: two submissions in one file (concatenated?)" : \
	      (NHUMAN > 1) ? NHUMAN " @human tables" : (HDUP != "") ? "header lines given twice:" HDUP : \
	      (NANSBLOCK > 1) ? NANSBLOCK " answer blocks" : ""
	fcheck("one_submission", bad)
	fcheck("records_once", DUP == "" ? "" : "a second @run of" DUP " (not read: the first counts)")
	fcheck("rows_once", NROWDUP ? NROWDUP " row(s) given twice in a record, the first " FIRSTDUP " (not read: the first counts)" : "")
	for (i = 1; i <= REC_N; i++) known[REC_ID[i]] = 1
	bad = ""
	for (i = 1; i <= nrec; i++) if (!(order[i] in known)) { bad = "a record the kit does not make here: " order[i]; break }
	fcheck("records_known", bad)
	# a name make submit accepts (the student's parameters come from it)
	n = H["student"]
	fcheck("student", (n ~ /^[A-Za-z0-9][A-Za-z0-9@._-]*$/ && length(n) <= 64) ? "" : \
		"student '" substr(n, 1, 64) "' is not a name make submit accepts")

	# strace: none, yet records that ran under strace (the rest deleted?)
	bad = ""
	if (!HAVE_STRACE)
		for (i = 1; i <= nrec; i++) {
			r = order[i]
			if (r ~ /\.strace/ || CMD[r] ~ /^strace / || (r in HAVESC) || (r in HAVEWR)) { bad = "strace: none, but " r " ran under strace"; break }
		}
	fcheck("strace_line", bad)

	# every row against the header: what the run saw is the machine's, and
	# the program that wrote it was built from the header's kit by the
	# header's compiler (the build stamps both into every row)
	bad = ""
	nc = split("glibc thp mthp page_bytes read_faults_per_page kit", col, " ")
	hc = H["binary_compiler"]; sub(/ -O.*/, "", hc); sub(/ \(read from .*/, "", hc)
	# a kit that was no checkout: its programs were built without git too
	hk = (H["kit"] ~ /^unknown/) ? "unknown" : H["kit"]
	for (k in ROW) {
		r = ROWID[k]
		for (c = 1; c <= nc; c++)
			if (((r, col[c]) in HD) && (col[c] in H) && V[k, col[c]] != (col[c] == "kit" ? hk : H[col[c]])) {
				bad = r ": " col[c] " " V[k, col[c]] " in the row, " H[col[c]] " in the header"; break
			}
		if (bad == "" && ((r, "compiler") in HD) && V[k, "compiler"] != hc)
			bad = r ": compiler " V[k, "compiler"] " in the row, " hc " in the header"
		if (bad != "") break
	}
	fcheck("rows_vs_header", bad)

	# the binary's bits: a 64-bit program loads a 64-bit libc
	b = H["binary_bits"]; bad = ""
	if (b != "32" && b != "64") bad = "binary_bits is '" b "', not 32 or 64"
	else for (k in ROW) {
		o = V[k, "malloc_owner"]
		if ((b == 64 && o ~ /i386|i686|\/lib32\//) || (b == 32 && o ~ /x86_64|aarch64|\/lib64\//)) {
			bad = "binary_bits " b ", but malloc() came from " o; break
		}
	}
	fcheck("binary_bits", bad)

	# counts are whole numbers, never negative
	bad = ""
	nc = split("frames size minor_faults corrupt_pixels sampled_pixels mmap_frames requests mmapped " \
		"mmapped_pages writes short_writes live_after anon_after_kib iters", col, " ")
	for (k in ROW) {
		rid = ROWID[k]
		for (c = 1; c <= nc; c++)
			if (((rid, col[c]) in HD) && V[k, col[c]] !~ /^[0-9]+$/) { bad = rid ": " col[c] " '" V[k, col[c]] "' is not a whole number"; break }
		if (bad == "" && ((rid, "faults_per_iter") in HD) && V[k, "faults_per_iter"] !~ /^[0-9]+(\.[0-9]+)?$/)
			bad = rid ": faults_per_iter '" V[k, "faults_per_iter"] "' is not a number >= 0"
		if (bad != "") break
	}
	for (k in SC) if (bad == "" && SC[k] !~ /^[0-9]+$/) { split(k, a, SUBSEP); bad = a[1] ": syscalls " a[2] "=" SC[k] " is not a whole number" }
	for (k in WR) if (bad == "" && WR[k] !~ /^[0-9]+$/) { split(k, a, SUBSEP); bad = a[1] ": write " a[3] "=" WR[k] " is not a whole number" }
	fcheck("numbers", bad)

	# the readable table against the records (an edit of one copy shows)
	bad = (NHUMAN == 0) ? "no @human table" : ""
	for (i = 1; i <= NHUM && bad == ""; i++) {
		n = split(HUM[i], a, " "); r = a[1]
		if (!(r in ROW) || r ~ /strace/ || (r in seenh)) continue
		seenh[r] = 1; nseen++
		if (r ~ /^lab[14]\./) bad = hum_cmp(r, a, "frames minor_faults corrupt_pixels mmap_frames")
		else if (r ~ /^lab3\./) bad = hum_cmp(r, a, "requests minor_faults mmapped mmapped_pages")
		else if (r ~ /^lab5\./) bad = hum_cmp(r, a, "writes " (((r, "addr_mod_page") in V) ? "addr_mod_page" : "addr_mod_4096"))
	}
	for (i = 1; i <= nrec && bad == ""; i++) {
		r = order[i]
		if (r ~ /^lab[1345]\./ && r !~ /strace/ && (r in ROW) && !(r in seenh)) bad = r " is not in the @human table"
	}
	fcheck("human_table", bad)

	# the compiler line against what the binaries say they were built by
	fam = (H["compiler"] ~ /clang/) ? "clang" : "gcc"; bad = ""
	if (!("binary_compiler" in H)) bad = "no binary_compiler line"
	else if (H["binary_compiler"] !~ ("^" fam " ")) bad = "compiler: " H["compiler"] "; the binaries: " H["binary_compiler"]
	else if (last_opt(H["cflags"]) != "" && H["binary_compiler"] ~ / -O/ && last_opt(H["cflags"]) != last_opt(H["binary_compiler"]))
		bad = "cflags " last_opt(H["cflags"]) "; the binaries: " H["binary_compiler"]
	fcheck("compiler", bad)

	# the kit: a clean revision of this kit.  Changed program sources, or a
	# revision this kit never had (a local commit of changes), mean the
	# counts are not the kit's programs': INTEGRITY.  A kit that was no
	# git checkout cannot say: ENV (its points withheld).
	k = H["kit"]; bad = ""
	if (k == "" || k ~ /^unknown/) {
		out("ENV", "file", "kit", "unknown", "a revision", "exact", "", "the kit was not a git checkout: which programs ran cannot be told")
		FLAG["kit"] = 1
	} else {
		if (k ~ /-dirty$/ && H["sources_changed"] != "(none)")
			bad = "kit " k ": the programs' sources had local changes (" (("sources_changed" in H) ? H["sources_changed"] : "which: not recorded") ")"
		else if (KIT_KNOWN == "no") bad = "kit " k " is not a revision of this kit (a local commit?)"
		else if (KIT_KNOWN == "changed") bad = "kit " k ": kit_sources " H["kit_sources"] " are not that revision's sources"
		else if (KIT_KNOWN ~ /^format:/) bad = "kit " k " writes format " substr(KIT_KNOWN, 8) ", not " substr(H["format"], 24) " (a line taken out?)"
		fcheck("kit", bad)
	}
	# a copy of a file the kit ships (make reference's, a fixture) under
	# another student's name: INTEGRITY, the line shown only then (0
	# points: the maximum stays one number)
	if ((bad = shipped_copy()) != "") out("INTEGRITY", "file", "shipped_copy", "a copy", "own run", "exact", "", bad)
	bad = knobs_check()
	if (bad == "" && KNOBS_BELOW != "")
		out("PASS", "file", "knobs", "flagged", "minimums", "flag", "", "below the course's minimums:" KNOBS_BELOW)
	else fcheck("knobs", bad)
}

# ------------------------------------------------------------- answers
# ---- KEY: what marks the answers, so computes their key.  make handout
# (tools/grading/handout.sh) ships grade.awk with the lines from here to
# END KEY left out and the "#handout: " lines below it as code: a handout
# holds nothing that marks an answer, marker file or not (tests/handout.sh).
# marks_answers(): whether the sheet's part is marked and shown.
function marks_answers() { return !HANDOUT }
# Each answer against first principles for this student's parameters
# (tools/grading/questions.sh) and this machine's header, as grade_frames()
# models the runs; listed and scored apart from the runs (Answers: N/M,
# with the checks of the runs at the sheet's parameters).  A line says
# right or wrong and the student's own measurement, never the key: the
# key is shown only with SHOWKEY=1 (tools/grade.sh --key, the instructor's).
# An answer counts only when the file carries the runs at the sheet's
# parameters and its questions: line is the name's: else 0, and why.
function ans_num(key, want, tol, pts, measured, tol_label,    v, t, w) {
	t = (tol == 0) ? "exact" : "+-" tol
	w = want; TOL_LABEL = tol_label
	if (ANS_BAD != "") { out("FAIL", "answers", key, "not graded", w, t, pts, ANS_BAD); return }
	if (!(key in ANS)) { out("FAIL", "answers", key, "missing", w, t, pts, "no line for it on the sheet"); return }
	v = ANS[key]
	if (v == "") { out("FAIL", "answers", key, "blank", w, t, pts, "not answered"); return }
	if (v !~ /^[0-9]+$/) { out("FAIL", "answers", key, substr(v, 1, 12), w, t, pts, "not a whole number"); return }
	if (want == "unknown") { out("FAIL", "answers", key, v, w, t, pts, "no parameters for this student name"); return }
	if (want == "none") { out("FAIL", "answers", key, v, w, t, pts, NO_PRED); return }
	out(abs(v - want) <= tol ? "PASS" : "FAIL", "answers", key, substr(v, 1, 12), w, t, pts, \
		(abs(v - want) <= tol ? "right" : "wrong") "; measured: " (measured == "" ? "not measured" : measured))
	TOL_LABEL = ""
}
# Why the answers cannot count, or "".
function answers_gate(    i, miss) {
	if (!("questions" in H)) return "no questions: line: the runs at your parameters are not in the file"
	if (QKNOBS == "" || H["questions"] != QKNOBS) return "the questions: line is not the parameters of " H["student"]
	miss = ""
	for (i = 1; i <= REC_N; i++)
		if ((REC_STEP[i] in STUDENT_STEP) && !(REC_ID[i] in seen)) { miss = REC_ID[i]; break }
	return miss == "" ? "" : "the runs at your parameters are not all in the file (no " miss ")"
}
# The sheet's questions to the model (grade_one() asks them with the
# steps'): Lab 1 at the student's size S, untuned and tuned, from the heap
# each run found; Lab 4 at L4; the l4_fix answer tried on the model as
# the environment of a 34 MiB run (the size of the step table's
# lab4.34M); Lab 5's buffer.  S, L4 and BUF are digits (the student's
# parameters, tools/grading/questions.sh), 0 for a name without any.
function ask_answers(    S, L4, BUF, u, t, i, big) {
	S = K["Q_SIZE"] + 0; L4 = K["Q_L4"] + 0; BUF = K["Q_BUF"] + 0
	u = "lab1.q-untuned"; t = "lab1.q-tuned"
	if (S > 0) {
		ask_frames("ans.one", "", " --size " S, STEP_OWN[STEP_N[u]], STEP_ENV[STEP_N[u]], 1, "malloc")
		ask_frames("ans.u4", u ".strace4", " --size " S, STEP_OWN[STEP_N[u]], STEP_ENV[STEP_N[u]], 4, "malloc")
		ask_frames("ans.t4", t ".strace4", " --size " S, STEP_OWN[STEP_N[t]], STEP_ENV[STEP_N[t]], 4, "malloc")
		ask_frames("ans.t", t, " --size " S, STEP_OWN[STEP_N[t]], STEP_ENV[STEP_N[t]], N, "malloc")
	}
	if (L4 > 0) ask_frames("ans.l4", "lab4.q-size", " --size " L4, STEP_OWN[STEP_N["lab4.q-size"]], STEP_ENV[STEP_N["lab4.q-size"]], N4, "memset")
	for (i = 1; i <= NSTEPS; i++) if (STEP_ID[i] == "lab4.34M") big = cmd_word(STEP_CMD[i], "--size")
	if (big != "") ask_frames("ans.fix", "", " --size " big, "", fix_env(ANS["l4_fix"]), N4, "memset")
	if (BUF > 0) ask("ans.yes", "kind=block size=" BUF)
}
# An l4_fix answer as environment words: each NAME=VALUE in it (at most
# four), as an environment variable (MALLOC_X_=V, or a bare x=V taken as
# MALLOC_X_=V) or a tunable (glibc.malloc.x=V, or GLIBC_TUNABLES=...).
# glibc then reads them as it would (the model's rules: a value "40M" is
# 40 on glibc 2.36, a threshold over 32 MiB refused before 2.35).  A word
# that is none of these is left out.
function fix_env(v,    n, a, i, k, name, val, w, c) {
	n = split(v, a, /[ ,;]+/); w = ""; c = 0
	for (i = 1; i <= n && c < 4; i++) {
		if ((k = index(a[i], "=")) < 2) continue
		name = substr(a[i], 1, k - 1); val = substr(a[i], k + 1)
		if (tolower(name) == "glibc_tunables" && val ~ /^[a-z0-9_.=:]+$/ && length(val) <= 120) w = w " GLIBC_TUNABLES=" val
		else if (val !~ /^[0-9A-Za-z]+$/ || length(val) > 24) continue
		else if (tolower(name) ~ /^glibc\.malloc\.[a-z_]+$/) w = w " GLIBC_TUNABLES=" tolower(name) "=" val
		else if (tolower(name) ~ /^malloc_[a-z_]+_$/) w = w " " toupper(name) "=" val
		else if (tolower(name) ~ /^[a-z_]+$/ && length(name) <= 24) w = w " MALLOC_" toupper(name) "_=" val
		else continue
		c++
	}
	return substr(w, 2)
}
function answers(    S, P, BUF, u, t, v, ok, w, f) {
	if (!HAVE_ANS) {
		out("SKIP", "answers", "sheet", "-", "-", "-", 0, "no answer sheet (make questions STUDENT=name; make submit ANSWERS=file)")
		return
	}
	if (!marks_answers()) {
		out("SKIP", "answers", "sheet", "-", "-", "-", 0, "a handout marks no answer: your course's grader does")
		return
	}
	ANSWERING = 1
	ANS_BAD = answers_gate()
	S = K["Q_SIZE"] + 0; BUF = K["Q_BUF"] + 0
	u = "lab1.q-untuned"; t = "lab1.q-tuned"
	ans_num("frame_pages", pred("ans.one", "frame_pages"), 0, 1, "")
	ans_num("faults_untuned", pred("ans.one", "faults"), TOL, 2, \
		(u in ROW) && N > 0 && isnum(V[u, "minor_faults"]) ? int(V[u, "minor_faults"] / N + 0.5) : "")
	ans_num("mmap_untuned", half(pred("ans.u4", "mmap")), 0, 1, (u ".strace4" in HAVESC) ? (SC[u ".strace4", "mmap"] - SC[u ".strace2", "mmap"]) / 2 : "")
	ans_num("munmap_untuned", half(pred("ans.u4", "munmap")), 0, 1, (u ".strace4" in HAVESC) ? (SC[u ".strace4", "munmap"] - SC[u ".strace2", "munmap"]) / 2 : "")
	ans_num("brk_tuned", half(pred("ans.t4", "brk")), 0, 1, (t ".strace4" in HAVESC) ? (SC[t ".strace4", "brk"] - SC[t ".strace2", "brk"]) / 2 : "")
	f = pred("ans.t", "faults")
	ans_num("faults_tuned", f, (f == "none" ? 0 : max(TOL, int(f / 100))), 2, V[t, "minor_faults"], "1%")
	f = pred("ans.t", "corrupt_pixels")
	ans_num("corrupt_tuned", f, (f == "none" ? 0 : int(f / 100)), 2, V[t, "corrupt_pixels"], "1%")
	ans_num("l4_mmap_frames", pred("ans.l4", "mmap_frames"), 0, 1, V["lab4.q-size", "mmap_frames"])
	# The fix is right when the model, given it, maps no frame of the run.
	v = ANS["l4_fix"]; f = pred("ans.fix", "mmap_frames"); ok = (f == 0 && f != "none" && f != "")
	w = "no frame from mmap"
	if (ANS_BAD != "") out("FAIL", "answers", "l4_fix", "not graded", w, "rule", 2, ANS_BAD)
	else out(ok ? "PASS" : "FAIL", "answers", "l4_fix", (v == "" ? "blank" : substr(v, 1, 12)), \
		w, "rule", 2, ok ? "right" : f == "none" ? "not graded: " NO_PRED : "wrong")
	# BUF comes from the student line (0 when the name has no parameters):
	# never a divisor unchecked (gawk stops on a division by zero).
	ans_num("yes_writes", BUF > 0 ? ceil(B / BUF) : "unknown", 0, 1, V["lab5.q-buf", "writes"])
	ans_num("yes_addr_mod", pred("ans.yes", "page_offset"), 0, 1, V["lab5.q-buf", "addr_mod_page"])
	ANSWERING = 0
}
# Two frames' system calls, from the model's count for frames 3 and 4.
function half(n) { return n == "none" ? n : n / 2 }
# ---- END KEY
#handout: function marks_answers() { return 0 }
#handout: function ask_answers() { }
#handout: function answers() { out("SKIP", "answers", "sheet", "-", "-", "-", 0, "a handout marks no answer: your course's grader does") }

# ------------------------------------------------------ for the gradebook
# One row: file,student,date,status,score,max,answers,answers_max,fails,
# envs, the five knobs, kit,glibc,kernel,thp,flags (grade.sh adds
# same_run_as), after the copy fingerprint: the values no second run
# repeats (every recorded time, the run's temporary directory, the date),
# blank-separated; grade.sh compares them across files (copies of one run
# share most of them even after a few are edited).
function features(    i, s) {
	s = ""
	for (i = 1; i <= NFEAT; i++) s = s (i > 1 ? " " : "") FEAT[i]
	return s == "" ? "none" : s
}
function csv_row(fl) {
	return csv_field(SUBFILE) "," csv_field(H["student"]) "," csv_field(H["date"]) "," STATUS "," score "," total "," \
		(HAVE_ANS ? ascore + 0 "," atotal : ",") "," fails + 0 "," envs + 0 "," N "," SCALE "," VI "," CL "," \
		csv_field(H["bytes"]) "," csv_field(H["kit"]) "," \
		csv_field(H["glibc"]) "," csv_field(H["kernel"]) "," csv_field(H["thp"]) "," csv_field(fl)
}

# What a FAIL or ENV means, and what to try: for the student's feedback.
function hint_means(i,    c, s) {
	c = O_CHK[i]; s = O_STEP[i]
	if (O_ANS[i] && O_STEP[i] == "answers") return "your answer differs from first principles for your parameters and machine"
	if (O_ST[i] == "INTEGRITY") return "the file is not as make submit wrote it, so it gets no score"
	if (O_ST[i] == "ENV") return "the run's environment makes this count incomparable, so it earns no points"
	if (s == "file") return c == "one_submission" ? "the file holds more than one submission" : \
		c == "records_once" ? "a step is recorded twice" : c == "records_known" ? "a record the kit never makes" : \
		c == "rows_once" ? "a record holds a CSV row twice" : \
		c == "kit" ? "the programs that ran are not this kit's unchanged programs" : \
		c == "knobs" ? "the knobs are below the course's minimums" : \
		c == "shipped_copy" ? "the file is one the kit ships (a reference or a fixture) under another name" : \
		c == "rows_vs_header" ? "a run's own environment columns disagree with the header" : \
		c == "human_table" ? "the readable table disagrees with the records" : \
		c == "numbers" ? "a count is not a whole number of at least 0" : \
		c == "compiler" ? "the compiler line is not what built the programs" : \
		"the file is not as make submit writes it"
	if (c == "commands") return "a record ran another command than the kit's for these knobs"
	if (c == "minor_faults" || c ~ /^faults/) return "page faults differ from the heap model for these knobs on this machine"
	if (c == "corrupt_pixels") return "pixels left from the last frame differ from the model (malloc does not clear)"
	if (c == "mmap_frames" || c ~ /2frames$/ || c ~ /_calls$/) return "system calls or mapped frames differ from malloc's policy"
	if (c ~ /write|addr/) return "write() calls or the buffer's address differ from the pipe and malloc rules"
	if (c ~ /arena|live|trim/) return "arenas or trimmed memory differ from glibc's arena rules"
	return "the measurement differs from the model"
}
function hint_try(i,    w) {
	w = O_WHY[i]
	if (O_ANS[i] && O_STEP[i] == "answers") return "work it again from the lab's explanation; your own measurement is shown"
	if (O_ST[i] == "INTEGRITY" && w ~ /sources|local commit/) return "undo your changes to the programs (git status; git checkout), make clean, then make submit again"
	if (O_ST[i] == "INTEGRITY" && w ~ /minimums/) return "make submit again without lowering the knobs"
	if ((O_ST[i] == "FAIL" || O_ST[i] == "INTEGRITY") && (O_STEP[i] == "file" || O_CHK[i] == "commands"))
		return "hand in the file make submit wrote, unedited (make submit again)"
	if (w ~ /strace/) return "apt-get install strace (a container: allow ptrace), then make submit again"
	if (w ~ /GLIBC_TUNABLES|MALLOC_|LD_PRELOAD|malloc\(\) is/) return "unset the setting (a fresh shell), then make submit again"
	if (w ~ /THP always/) return "make submit again with this kit: its runs use --no-thp"
	if (w ~ /32-bit/) return "build the 64-bit programs (make clean; make), then make submit again"
	if (w ~ /kit/) return "commit or undo your changes to the programs (git status), then make submit again"
	if (w ~ /glibc|page size/) return "ask your instructor: this check needs another glibc or page size"
	if (O_STEP[i] == "file" || O_CHK[i] == "commands") return "hand in the file make submit wrote, unedited (make submit again)"
	return "make clean; make; run the step's command (in your file) alone and compare with the lab"
}
# print prefix + text in lines of at most 100 columns, broken at blanks
function wrap(prefix, text,    w, n, a, i, line) {
	n = split(text, a, " "); line = prefix
	for (i = 1; i <= n; i++) {
		if (length(line) + length(a[i]) + 1 > 100 && line != prefix) { print line; line = "         " }
		line = line (line ~ / $/ ? "" : " ") substr(a[i], 1, 90)
	}
	print line
}
function feedback(    i, m) {
	printf "Feedback for %s (%s): %s, runs %d/%d, answers %s\n", H["student"], SUBFILE, STATUS, score, total, \
		HAVE_ANS ? ascore + 0 "/" atotal : "none"
	for (i = 1; i <= NOUT; i++) {
		if (O_ST[i] != "FAIL" && O_ST[i] != "ENV" && O_ST[i] != "INTEGRITY") continue
		m++
		printf "%s %s %s: got %s, want %s%s\n", O_ST[i], O_STEP[i], O_CHK[i], O_GOT[i], O_WANT[i], \
			(O_TOL[i] ~ /^\+-/ ? " (" O_TOL[i] ")" : "")
		if (O_WHY[i] != "") wrap("  why:   ", O_WHY[i])
		wrap("  means: ", hint_means(i))
		wrap("  try:   ", hint_try(i))
	}
	if (!m) print "Every check passed: nothing to fix."
}

# ----------------------------------------------------------------- batch
# One awk grades every file of a run (500 files: one process, not 500).
# MANIFEST lists them, a line each, tab-separated:
#   PATH  SHOWN  QKNOBS  KIT_KNOWN  READABLE(1|0|utf16)  WHY  KIT_DATE
# (tools/grade.sh writes it; SHOWN is the name as printed).  Each file is
# read with getline, so no name is taken for an awk assignment.  Prints
# each file's report, appends its summary line, and exits with the worst
# status, in the order 2, 4, 1, 3, 0.  MANY: a "== NAME" heading a file.

# file_reset(): forget the last file.  Every global of grade.awk,
# steps.awk and gradescope.awk is cleared here except the batch's own
# (BATCH_GLOBALS); tests/grade.sh checks, under gawk, that the two lists
# hold every global there is, so no value leaks from one student's file
# into the next.  Counters become 0, texts "" and arrays empty.
BEGIN {
	BATCH_GLOBALS = "EXPECT_OUT GS_CHECK GS_ERROR_ONLY GS_EXERCISES GS_MERGE GS_READY GS_SHEET KIND NAME KIT_KNOWN KNOBS KNOBS_FILE " \
		"HANDOUT MANIFEST MANY MIB MODE PREDICT PREDICT_REQ NSTEPS ORD QKNOBS QUESTIONS SHOWKEY STEPS STEP_CHECK " \
		"STEP_CMD STEP_ENV STEP_EX STEP_ID STEP_KINDS STEP_LABEL STEP_N STEP_OWN STRACE SUBFILE SUMMARY " \
		"EXERCISE_ROW EXFILES CHECKERS STEP_TOTAL STEP_POINTS STEP_TOLS STEP_SINCE KIT_DATE C_DEFINE MODEL_H " \
		"KCAP SHIPPED SHIP_N SHIP_NAME SHIP_WHO SHIP_NF SHIP_OWN SHIP_MINE BATCH_GLOBALS B_CODE B_LINE B_M B_PATH B_RC B_WORST B_WHY"
}
function file_reset() {
	split("", ANS); split("", CMD); split("", ENVL); split("", EXPECT); split("", FEAT)
	split("", FLAG); split("", GCHECK); split("", GLIBC_WHY); split("", GRADED); split("", H)
	split("", HAVESC); split("", HAVEWR); split("", HD); split("", HUM); split("", K)
	split("", NW); split("", O_ANS); split("", O_CHK); split("", O_GOT); split("", O_PTS)
	split("", O_ST); split("", O_STEP); split("", O_TOL); split("", O_VIS); split("", O_WANT)
	split("", O_WHY); split("", REC_CMD); split("", REC_ENV); split("", REC_HOW); split("", REC_ID)
	split("", REC_STEP); split("", PR); split("", ASK_KEY); split("", ASK_LINE); split("", ROW); split("", ROWDUP)
	split("", ROWID); split("", SC); split("", STUDENT_STEP); split("", V); split("", WANT_CMD)
	split("", WANT_ENV); split("", WR); split("", a); split("", f); split("", gv)
	split("", hd); split("", kv); split("", order); split("", seen); split("", w)
	split("", RUN_EXIT); split("", RUN_ERR); split("", EX_MAX); split("", EX_GOT); split("", EX_ORDER)
	split("", STEP_PTS); split("", STEP_BAD); split("", STEP_EXOF); split("", CSTEPS)
	split("", EX_FILE); split("", W4); split("", W4_WHY); NEX = NCSTEP = 0; CUR_EX = LAST_EX = ""
	split("", ROW_MADE); split("", ROW_CHECKS); split("", NEWER); nnewer = 0
	ANSWERING = B = BITS = CL = GMIN = GV1 = GV2 = HAVE_ANS = HAVE_Q = HAVE_STRACE = 0
	HI = LD_ALIGN = LD_HI = LD_LO = LO = N = N4 = NANSBLOCK = NASK = NEG_SLACK = NFEAT = NFORMAT = 0
	NHUM = NHUMAN = NOUT = NROWDUP = PAGE = REC_N = RF = SCALE = TOL = VI = 0
	afails = ascore = atotal = envs = fails = human = inans = inrec = integ = ngraded = 0
	nh = nrec = nst = nw = score = skips = total = 0
	ANS_BAD = CHECK_WHY = NO_PRED = DUP = FIRSTDUP = HDUP = KNOBS_BELOW = NOSTRACE = STATUS = ""
	TOL_LABEL = VISIBILITY = c = fg = first = fl = i = id = k = k2 = key = line = n = r = s = v = ""
}

BEGIN {
	if (MANIFEST == "") exit
	if (PREDICT == "" || PREDICT_REQ == "") { print "grade: grade.awk wants PREDICT and PREDICT_REQ (tools/grade.sh sets them)" > "/dev/stderr"; exit 2 }
	MIB = 1048576
	B_WORST = 0
	knob_caps()
	shipped_load()
	while ((B_RC = (getline B_LINE < MANIFEST)) > 0) {
		split(B_LINE, B_M, "\t")
		B_PATH = B_M[1]; SUBFILE = B_M[2]; QKNOBS = B_M[3]; KIT_KNOWN = B_M[4]; KIT_DATE = B_M[7]
		if (MANY && (MODE == "report" || MODE == "feedback")) print "== " SUBFILE
		file_reset()
		B_CODE = 2; B_WHY = ""
		if (B_M[5] == "utf16") print "grade: " SUBFILE ": saved as UTF-16 (Notepad's \"Unicode\"): save it as UTF-8" > "/dev/stderr"
		# over a cap tools/grade.sh checked (file_bytes, record_rows): never read
		else if (B_M[5] == "refused") { B_WHY = B_M[6]; print "grade: " SUBFILE ": not graded: " B_WHY > "/dev/stderr" }
		else if (B_M[5] != 1) print "grade: cannot read '" SUBFILE "'" > "/dev/stderr"
		else {
			while ((B_RC = (getline B_LINE < B_PATH)) > 0) read_line(B_LINE)
			close(B_PATH)
			if (B_RC < 0) print "grade: cannot read '" SUBFILE "'" > "/dev/stderr"
			else B_CODE = grade_one()
		}
		if (B_CODE == 2 && SUMMARY != "") printf "none\t%s\t%s\n", SUBFILE, B_WHY >> SUMMARY
		if (B_CODE == 2) B_WORST = 2
		else if (B_CODE == 4 && B_WORST != 2) B_WORST = 4
		else if (B_CODE == 1 && B_WORST != 2 && B_WORST != 4) B_WORST = 1
		else if (B_CODE == 3 && B_WORST == 0) B_WORST = 3
	}
	if (B_RC < 0) { print "grade: cannot read the list of files " MANIFEST > "/dev/stderr"; exit 2 }
	exit B_WORST
}
