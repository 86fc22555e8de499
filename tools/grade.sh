#!/bin/sh
# tools/grade.sh FILE|DIR... - grade malloc-labs submissions (`make submit`)
# from first principles.  Shell and awk only (any POSIX awk: mawk has no
# FPAT, so CSV goes through tools/csv.awk's csv_split).
#
# Every expected count is computed here from the submission's header - the
# frames, sizes and knobs, the page size, the faults a read-then-written
# page costs on that kernel (read_faults_per_page), the glibc version's
# rules - and never read from a program's own prediction columns.  Each
# check prints one line:
#   PASS|FAIL|ENV|SKIP  step  check  got  want  tolerance  points
# then `Score: N/M` (M counts PASS, FAIL and ENV checks; SKIP is not
# applicable, e.g. no strace).  ENV means the environment the run saw makes
# the count incomparable (the reason follows); it is never turned into a
# PASS.  Times are recorded and listed as "not graded".
#
# Exit: 0 every check passed, 1 any FAIL, 3 no FAIL but some ENV, 2 bad
# usage or a file that is not a submission (no header).
# Given a DIR, every file in it is graded, then one CSV row a submission:
#   file,student,score,max,fails,envs,env_flags
#
# Tolerances (absolute, and why):
#   page faults, Lab 1 and 4:  8 + 2 per frame.  The counts are exact to a
#       few faults: 8 for the process's own pages touched in the measured
#       window (stack, libc data), 2 a frame for the pages whose first touch
#       is malloc's header write rather than the renderer's read (they cost
#       1, not RF, where a read maps the zero page).  A relative tolerance
#       would hide the lessons: 1% of 10 frames' faults is more than the
#       33 pages a trim keeps per frame.
#   Lab 2 faults: forced mmap 8 + iters/10000 (set-up, and the CSV's four
#       decimals); the other rows 64 + iters/10000 (their set-up faults:
#       the heap's first growth; none per call).
#   Lab 3, pre-2.5 faults vs mmapped pages: max(64, 3%): the requests below
#       the 128 KiB threshold grow the heap too (measured +0.3% to +1.3%).
#   system calls, corrupt pixels, frames from mmap, write() calls, addresses:
#       exact (0).  They are counted, not sampled.
set -u
LIB=$(dirname "$0")/csv.awk
[ -r "$LIB" ] || { echo "grade: $LIB is missing" >&2; exit 2; }

usage() { echo "usage: tools/grade.sh FILE|DIR..." >&2; exit 2; }
[ $# -ge 1 ] || usage
case $1 in -h|--help) echo "usage: tools/grade.sh FILE|DIR..."; exit 0 ;; -*) echo "grade: unknown option '$1'" >&2; usage ;; esac

PROGRAM=$(cat "$LIB")'
function trim(s) { sub(/\r$/, "", s); sub(/[ \t]+$/, "", s); return s }
function ceil(x,    i) { i = int(x); return (i < x) ? i + 1 : i }
function max(a, b) { return a > b ? a : b }
function abs(a) { return a < 0 ? -a : a }

# --------------------------------------------------------------- reading
{
	line = trim($0)
	if (line ~ /^@run /) { id = substr(line, 6); inrec = 1; nh = 0; seen[id] = 1; order[++nrec] = id; next }
	if (line == "@end") { inrec = 0; id = ""; next }
	if (line == "@human") { human = 1; next }
	if (human) next
	if (!inrec) {
		if (nrec == 0 && line ~ /^[a-z_]+: /) {
			k = substr(line, 1, index(line, ":") - 1); H[k] = substr(line, length(k) + 3)
		}
		next
	}
	if (line ~ /^cmd: /) { CMD[id] = substr(line, 6); next }
	if (line ~ /^env: /) { ENVL[id] = substr(line, 6); next }
	if (line ~ /^wall_s: /) next
	if (line ~ /^syscalls: /) {
		n = split(substr(line, 11), a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); SC[id, kv[1]] = kv[2] }
		HAVESC[id] = 1; next
	}
	if (line ~ /^write: /) {
		n = split(substr(line, 8), a, " ")
		for (i = 1; i <= n; i++) { split(a[i], kv, "="); w[kv[1]] = kv[2] }
		if (w["fd"] > 2) { nw = ++NW[id]; WR[id, nw, "mod"] = w["addr_mod_4096"]
			WR[id, nw, "calls"] = w["calls"]; WR[id, nw, "bytes"] = w["bytes"] }
		HAVEWR[id] = 1; next
	}
	if (line ~ /^csv: /) {
		c = substr(line, 6)
		if (!nh) { nh = csv_split(c, hd); for (i = 1; i <= nh; i++) HD[id, hd[i]] = 1; next }
		csv_split(c, f)
		key = id
		if (hd[1] == "label") key = id "/" f[1]      # Lab 2: a row per label
		for (i = 1; i <= nh; i++) V[key, hd[i]] = f[i]
		ROW[key] = 1; ROWID[key] = id
		next
	}
}

# ------------------------------------------------------------- reporting
function out(st, step, chk, got, want, tol, pts, why,    p) {
	sub(/\.strace[0-9N]+$/, "", step)     # strace runs are graded under their step
	p = (st == "PASS") ? pts "/" pts : (st == "SKIP") ? "-" : "0/" pts
	printf "%-4s  %-19s  %-17s %11s %11s %7s %5s%s\n", st, step, chk, got, want, tol, p, (why == "" ? "" : "  (" why ")")
	if (st == "PASS") { score += pts; total += pts }
	else if (st == "FAIL") { total += pts; fails++ }
	else if (st == "ENV") { total += pts; envs++ }
	else skips++
}

# Why this step cannot be compared, or "".  class: "plain" (nothing in the
# environment changes it), "alloc" (malloc policy), "fault" (also THP).
# Each record carries what its program saw (the env CSV columns); a step
# may set GLIBC_TUNABLES or MALLOC_* itself (its env: line, rebuilt here
# from the step table, not trusted), anything more is pollution.
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
	if (class == "fault" && H["thp"] ~ /enabled=always/) { r = r "; THP always"; FLAG["thp_always"] = 1 }
	return substr(r, 3)
}

# num: a count with nothing else in it
function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }

# check STEP KEY CHECK GOT WANT TOL POINTS CLASS: |GOT - WANT| <= TOL.
function check(step, key, chk, got, want, tol, pts, class,    why) {
	if (!(step in seen)) { out("FAIL", step, chk, "missing", want, tol, pts, "no @run record"); return }
	if (!(key in ROW)) { out("FAIL", step, chk, "missing", want, tol, pts, "no CSV row"); return }
	why = why_env(step, key, class)
	if (why == "" && step in GLIBC_WHY) why = GLIBC_WHY[step]
	if (why == "" && class == "p4096" && PAGE != 4096) why = "page size " PAGE ": the program counts 4096-byte pages"
	if (why != "") { out("ENV", step, chk, got, want, (tol == 0 ? "exact" : "+-" tol), pts, why); return }
	if (!isnum(got)) { out("FAIL", step, chk, (got == "" ? "empty" : got), want, tol, pts, "not a number"); return }
	out(abs(got - want) <= tol ? "PASS" : "FAIL", step, chk, got, want, (tol == 0 ? "exact" : "+-" tol), pts, "")
}

# same, for words (via, alignment rules)
function check_str(step, key, chk, got, want, pts, class,    why) {
	if (!(step in seen) || !(key in ROW)) { out("FAIL", step, chk, "missing", want, "exact", pts, "no record"); return }
	why = why_env(step, key, class)
	if (why == "" && step in GLIBC_WHY) why = GLIBC_WHY[step]
	if (why != "") { out("ENV", step, chk, got, want, "exact", pts, why); return }
	out(got == want ? "PASS" : "FAIL", step, chk, got, want, "exact", pts, "")
}

# range: LO <= GOT <= HI (HI "" for no upper bound)
function check_range(step, key, chk, got, lo, hi, pts, class,    why, w) {
	w = (hi == "") ? ">=" lo : lo ".." hi
	if (!(step in seen) || !(key in ROW)) { out("FAIL", step, chk, "missing", w, "range", pts, "no record"); return }
	why = why_env(step, key, class)
	if (why == "" && class == "p4096" && PAGE != 4096) why = "page size " PAGE ": the program counts 4096-byte pages"
	if (why != "") { out("ENV", step, chk, got, w, "range", pts, why); return }
	out(isnum(got) && got + 0 >= lo + 0 && (hi == "" || got + 0 <= hi + 0) ? "PASS" : "FAIL", step, chk, got, w, "range", pts, "")
}

# The command a step must have run, rebuilt from the knobs; the strace log
# path (-o) is a temporary file and is not compared.
function want_cmd(step, c, e) { WANT_CMD[step] = c; WANT_ENV[step] = e; STEPS[++nsteps] = step }
function check_cmd(step,    got, e) {
	if (!(step in seen)) { out("FAIL", step, "recorded", "missing", "a record", "", 1, "no @run " step); return }
	got = CMD[step]; gsub(/ -o [^ ]+/, " -o LOG", got)
	e = ENVL[step]; if (e == "(none)") e = ""
	if (got != WANT_CMD[step] || e != WANT_ENV[step])
		out("FAIL", step, "command", "differs", "the kit", "exact", 1, "ran: " ENVL[step] " " CMD[step])
	else { total += 0 }
}

# Lab 1 strace: calls made by frames 3 and 4 (the 4-frame run minus the
# 2-frame run).
function check_sc(base, call, want,    s2, s4, why) {
	s2 = base ".strace2"; s4 = base ".strace4"
	if (!HAVE_STRACE) { out("SKIP", base, call "/2frames", "-", want, "exact", 1, "no strace in the submission"); return }
	if (!(s2 in HAVESC) || !(s4 in HAVESC)) { out("FAIL", base, call "/2frames", "missing", want, "exact", 1, "no strace record"); return }
	check(s4, s4, call "/2frames", SC[s4, call] - SC[s2, call], want, 0, 1, "alloc")
}

END {
	if (H["format"] !~ /^malloc-labs-submission / || H["glibc"] == "" || H["page_bytes"] == "") {
		print "grade: " FILENAME ": not a malloc-labs submission (no header: format, glibc, page_bytes)" > "/dev/stderr"
		bad = 1; exit 2
	}
	PAGE = H["page_bytes"] + 0; RF = H["read_faults_per_page"] + 0; BITS = H["binary_bits"]
	N = H["frames"] + 0; SCALE = H["scale"] + 0; VI = H["variance_iters"] + 0
	CL = H["count_large"] + 0; B = H["bytes_per_run"] + 0
	if (PAGE < 1024 || (RF != 1 && RF != 2) || N < 1 || SCALE < 1 || VI < 2 || CL < 1 || B < 1) {
		print "grade: " FILENAME ": the header lacks or garbles page_bytes, read_faults_per_page or a knob" > "/dev/stderr"
		bad = 1; exit 2
	}
	split(H["glibc"], gv, "."); GMIN = (gv[1] > 2) ? 99 : gv[2] + 0
	HAVE_STRACE = H["strace"] !~ /^none/
	MIB = 1048576

	# ------------------------------------------------------- the steps
	FR = "./frames --csv --frames "
	NO_TRIM = "GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295"
	nm = split("default-malloc default-calloc mmap-max-0 no-trim tune-malloc tune-calloc tune-memset perturb once", L1, " ")
	L1A["default-malloc"] = "--alloc malloc"; L1A["default-calloc"] = "--alloc calloc"
	L1A["mmap-max-0"] = "--alloc malloc"; L1E["mmap-max-0"] = "GLIBC_TUNABLES=glibc.malloc.mmap_max=0"
	L1A["no-trim"] = "--alloc malloc"; L1E["no-trim"] = NO_TRIM
	L1A["tune-malloc"] = "--tune --alloc malloc"; L1A["tune-calloc"] = "--tune --alloc calloc"
	L1A["tune-memset"] = "--tune --alloc memset"
	L1A["perturb"] = "--alloc malloc"; L1E["perturb"] = "GLIBC_TUNABLES=glibc.malloc.perturb=170"
	L1A["once"] = "--alloc once"
	for (i = 1; i <= nm; i++) {
		s = "lab1." L1[i]
		want_cmd(s, FR N " " L1A[L1[i]], L1E[L1[i]])
		if (HAVE_STRACE) {
			want_cmd(s ".strace2", "strace -f -c -e trace=brk,mmap,munmap -o LOG " FR 2 " " L1A[L1[i]], L1E[L1[i]])
			want_cmd(s ".strace4", "strace -f -c -e trace=brk,mmap,munmap -o LOG " FR 4 " " L1A[L1[i]], L1E[L1[i]])
		}
		# No GLIBC_TUNABLES before glibc 2.26: those steps ran untuned.
		if (L1E[L1[i]] ~ /GLIBC_TUNABLES/ && GMIN < 26)
			GLIBC_WHY[s] = GLIBC_WHY[s ".strace4"] = "glibc " H["glibc"] " has no GLIBC_TUNABLES"
	}
	want_cmd("lab2.all", "./malloc_variance all --csv --iters " VI, "")
	if (HAVE_STRACE) {
		want_cmd("lab2.mmap.strace1", "strace -f -c -e trace=brk,mmap,munmap -o LOG ./malloc_variance large-mmap --csv --iters 1", "")
		want_cmd("lab2.mmap.straceN", "strace -f -c -e trace=brk,mmap,munmap -o LOG ./malloc_variance large-mmap --csv --iters " VI, "")
	}
	want_cmd("lab3.pre25", "./threads --csv --mode pre25 1280000 " CL " 2", "")
	want_cmd("lab3.tuned", "./threads --csv --mode tuned 1280000 " CL " 2", "")
	N4 = int(100 / SCALE); if (N4 < 1) N4 = 1
	NV = int(300 / SCALE); if (NV < 1) NV = 1
	F4 = "./frames --csv --alloc memset --size "
	want_cmd("lab4.30M", F4 "30M --frames " N4, "")
	want_cmd("lab4.32M", F4 "32M --frames " N4, "")
	want_cmd("lab4.34M", F4 "34M --frames " N4, "")
	want_cmd("lab4.34M-envvars", F4 "34M --frames " N4, "MALLOC_MMAP_THRESHOLD_=268435456 MALLOC_TRIM_THRESHOLD_=536870912")
	want_cmd("lab4.34M-tunables", F4 "34M --frames " N4, "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=536870912")
	want_cmd("lab4.8M-vary", F4 "8M --vary 1536K --frames " NV, "")
	if (GMIN < 26) GLIBC_WHY["lab4.34M-tunables"] = "glibc " H["glibc"] " has no GLIBC_TUNABLES"
	ns = split("4K 16K 1M", L5S, " "); na = split("malloc page page+8 page+16", L5A, " ")
	L5B["4K"] = 4096; L5B["16K"] = 16384; L5B["1M"] = MIB
	for (i = 1; i <= ns; i++) for (j = 1; j <= na; j++)
		want_cmd("lab5." L5S[i] "." L5A[j], (HAVE_STRACE ? "strace -f -e trace=write -e raw=write -o LOG " : "") \
			"./yes --csv --size " L5S[i] " --align " L5A[j] " --reps 1 --bytes " H["bytes"], "")

	printf "# %s: %s, glibc %s, page %d B, %d fault(s) a read-then-written page, THP %s\n", \
		FILENAME, H["student"], H["glibc"], PAGE, RF, H["thp"]
	printf "# knobs: frames %d, scale %d, variance_iters %d, count_large %d, bytes %s\n", N, SCALE, VI, CL, H["bytes"]
	printf "%-4s  %-19s  %-17s %11s %11s %7s %5s\n", "", "step", "check", "got", "want", "tol", "pts"
	for (i = 1; i <= nsteps; i++) check_cmd(STEPS[i])

	# ------------------------------------------------------------ Lab 1
	# A frame is 3840 x 2160 x 8 = 66,355,200 bytes.  Mapped on its own,
	# with glibc 16-byte chunk header before it, it spans
	#   P = ceil((66,355,200 + 16) / page) pages      (16,201 with 4 KiB).
	# malloc writes the header (1 fault, page 1); the renderer reads every
	# other page before writing it: RF faults each (2 where the read maps the
	# zero page, 1 where the kernel allocates on the read; the header says).
	# memset, perturb fill and once write first: 1 fault a page.
	#   untuned (mmap each frame, munmap in free: 63 MiB is over the 32 MiB
	#     cap, the threshold never rises):   N x (1 + RF x (P - 1))
	#   calloc untuned: the same (calloc skips clearing fresh mmap memory)
	#   perturb=170: fill writes first:      N x P, and every sample wrong
	#   tuned / mmap_max=0 + no trim: the heap grows once, later frames
	#     reuse it:                          RF x P (memset: P), and each
	#     frame after the first holds the last one: (N - 1) x 1,036,800
	#     corrupt samples (every 8th pixel: 3840 x 2160 / 8)
	#   mmap_max=0 alone: free trims the heap back to top_pad (128 KiB), so
	#     the next frame finds TP = 131072 / page pages still mapped:
	#                                        RF x (N x P - (N - 1) x TP)
	#     and dirty: systrim keeps top_pad + MINSIZE (32) + 1 bytes at least,
	#     up to the next page boundary, counted from the top chunk, which
	#     starts after the tcache (a 640-byte struct, chunk 656 on 2.30+,
	#     592 on 2.26-2.29, none before).  With o that offset, the
	#     next frame: its first D = ceil((o + 131105) / page) x page - o - 16 bytes
	#     hold the last frame: ceil(D / 64) samples (8-byte pixels, every
	#     8th), (N - 1) times.
	#   once: one mmapped block for the run: P faults (memset), 1 from mmap.
	# strace, frames 3 and 4: an mmap and a munmap a frame untuned; a grow
	# and a trim (2 brk) a frame with mmap_max=0; nothing when the heap is
	# kept.
	P = ceil((66355200 + 16) / PAGE); S = 1036800; TP = int(131072 / PAGE)
	o = (GMIN >= 30) ? 656 : (GMIN >= 26) ? 592 : 0
	D = ceil((o + 131105) / PAGE) * PAGE - o - 16
	T1 = 8 + 2 * N
	EF["default-malloc"] = N * (1 + RF * (P - 1)); EC["default-malloc"] = 0; EM["default-malloc"] = N
	EF["default-calloc"] = N * (1 + RF * (P - 1)); EC["default-calloc"] = 0; EM["default-calloc"] = N
	EF["mmap-max-0"] = RF * (N * P - (N - 1) * TP); EC["mmap-max-0"] = (N - 1) * ceil(D / 64); EM["mmap-max-0"] = 0
	EF["no-trim"] = RF * P; EC["no-trim"] = (N - 1) * S; EM["no-trim"] = 0
	EF["tune-malloc"] = RF * P; EC["tune-malloc"] = (N - 1) * S; EM["tune-malloc"] = 0
	EF["tune-calloc"] = RF * P; EC["tune-calloc"] = 0; EM["tune-calloc"] = 0
	EF["tune-memset"] = P; EC["tune-memset"] = 0; EM["tune-memset"] = 0
	EF["perturb"] = N * P; EC["perturb"] = N * S; EM["perturb"] = N
	EF["once"] = P; EC["once"] = 0; EM["once"] = 1
	SCM["default-malloc"] = SCM["default-calloc"] = SCM["perturb"] = "0 2 2"
	SCM["mmap-max-0"] = "4 0 0"
	for (i = 1; i <= nm; i++) {
		m = L1[i]; s = "lab1." m
		check(s, s, "minor_faults", V[s, "minor_faults"], EF[m], T1, 2, "fault")
		check(s, s, "corrupt_pixels", V[s, "corrupt_pixels"], EC[m], 0, 2, "alloc")
		check(s, s, "mmap_frames", V[s, "mmap_frames"], EM[m], 0, 1, "alloc")
		split(SCM[m] == "" ? "0 0 0" : SCM[m], sc, " ")
		check_sc(s, "brk", sc[1]); check_sc(s, "mmap", sc[2]); check_sc(s, "munmap", sc[3])
	}

	# ------------------------------------------------------------ Lab 2
	# Each row is a fresh process: 32 B (tcache), 4 KiB (bins) and 1 MiB with
	# the dynamic threshold (the first free raises it) come from the heap
	# and fault only while setting up, never per call.  Forced mmap (the
	# threshold pinned at 512 KiB): every call maps a fresh 1 MiB block and
	# writes its header: 1 fault a call, one mmap and one munmap a call.
	# strace: the run at VARIANCE_ITERS minus the run at 1 iteration.
	s = "lab2.all"
	nl = split("timer floor|malloc 32 B|malloc 4 KiB|malloc 1 MiB (default)|malloc 1 MiB (forced mmap)|malloc 1 MiB (heap, no trim)|pool 64 B", L2, "|")
	split("timer|32B|4KiB|1MiB-default|1MiB-mmap|1MiB-heap|pool", L2N, "|")
	VIA["timer floor"] = "-"; VIA["pool 64 B"] = "pool"; VIA["malloc 1 MiB (forced mmap)"] = "mmap"
	for (i = 1; i <= nl; i++) {
		k = s "/" L2[i]; lab = L2N[i]
		cls = (L2[i] ~ /^malloc/) ? "alloc" : "plain"
		check_str(s, k, "via:" lab, V[k, "via"], (L2[i] in VIA) ? VIA[L2[i]] : "heap", 1, cls)
		got = (k in ROW) ? int(V[k, "faults_per_iter"] * V[k, "iters"] + 0.5) : ""
		if (L2[i] ~ /forced/) check(s, k, "faults:" lab, got, VI, 8 + int(VI / 10000), 2, "alloc")
		else if (L2[i] != "timer floor") check(s, k, "faults:" lab, got, 0, 64 + int(VI / 10000), 1, cls)
	}
	if (!HAVE_STRACE) {
		out("SKIP", "lab2.mmap", "mmap_calls", "-", VI - 1, "exact", 1, "no strace in the submission")
		out("SKIP", "lab2.mmap", "munmap_calls", "-", VI - 1, "exact", 1, "no strace in the submission")
	} else {
		k = "lab2.mmap.straceN/malloc 1 MiB (forced mmap)"
		if (!("lab2.mmap.strace1" in HAVESC)) delete ROW[k]
		check("lab2.mmap.straceN", k, "mmap_calls", SC["lab2.mmap.straceN", "mmap"] - SC["lab2.mmap.strace1", "mmap"], VI - 1, 0, 1, "alloc")
		check("lab2.mmap.straceN", k, "munmap_calls", SC["lab2.mmap.straceN", "munmap"] - SC["lab2.mmap.strace1", "munmap"], VI - 1, 0, 1, "alloc")
	}

	# ------------------------------------------------------------ Lab 3
	# pre25 pins the threshold at 128 KiB: every request whose chunk
	# reaches it is a fresh mapping, each page written once (memset): the
	# faults are the mapped pages, ceil((size + 16) / 4096) a block, and a
	# mapped block has 33 (131,049 B, the smallest chunk of 128 KiB) to
	# 313 (1,280,000 B) of them.  tuned (threshold 16 MiB, over every
	# request) maps nothing and reuses the heaps: its faults are only the
	# heaps growing, at least 3x fewer than pre25 at COUNT_LARGE >= 200
	# (measured 4x at 100, 10x at 500, 44x at 4000; shorter runs skip it).
	s = "lab3.pre25"; t = "lab3.tuned"
	check(s, s, "requests", V[s, "requests"], 2 * CL, 0, 1, "plain")
	check(s, s, "faults~mmap_pages", V[s, "minor_faults"], V[s, "mmapped_pages"], max(64, int(V[s, "mmapped_pages"] * 0.03)), 2, "p4096")
	check_range(s, s, "mmap_pages/block", V[s, "mmapped_pages"], 33 * V[s, "mmapped"], 313 * V[s, "mmapped"], 1, "p4096")
	check(t, t, "mmapped", V[t, "mmapped"], 0, 0, 1, "alloc")
	if (CL < 200) out("SKIP", t, "pre25/tuned", "-", ">=3", "range", 2, "count_large < 200: too short")
	else check_range(t, t, "pre25/tuned", (V[t, "minor_faults"] > 0 ? sprintf("%.1f", V[s, "minor_faults"] / V[t, "minor_faults"]) : "inf"), 3, "", 2, "fault")

	# ------------------------------------------------------------ Lab 4
	# malloc + memset (1 fault a page) of S bytes: P(S) = ceil((S + 16) / page).
	# Under the 32 MiB cap the first free raises the threshold: frame 1 is
	# mapped, frame 2 grows the heap, the rest reuse it:  min(N, 2) x P.
	# A 32 MiB block maps 32 MiB + a page, 34 MiB more: over the cap, the
	# threshold never rises, every frame is a fresh mapping: N x P.
	# Thresholds 256 MiB / 512 MiB, by MALLOC_*_ or GLIBC_TUNABLES: the heap
	# grows once: P, nothing from mmap.  glibc <= 2.34 refuses a threshold
	# over 32 MiB, but the trim setting still freezes it at 128 KiB: N x P.
	# 8 MiB +- 1.5 MiB: the threshold rises only to the largest block freed
	# so far, so a larger one maps again; bounds only: at least one mapped
	# frame and min(N, 2) of the smallest blocks, at most N of the largest.
	T4 = 8 + 2 * N4
	P30 = ceil((30 * MIB + 16) / PAGE); P32 = ceil((32 * MIB + 16) / PAGE); P34 = ceil((34 * MIB + 16) / PAGE)
	check("lab4.30M", "lab4.30M", "minor_faults", V["lab4.30M", "minor_faults"], (N4 < 2 ? N4 : 2) * P30, T4, 2, "fault")
	check("lab4.30M", "lab4.30M", "mmap_frames", V["lab4.30M", "mmap_frames"], 1, 0, 1, "alloc")
	check("lab4.32M", "lab4.32M", "minor_faults", V["lab4.32M", "minor_faults"], N4 * P32, T4, 2, "fault")
	check("lab4.32M", "lab4.32M", "mmap_frames", V["lab4.32M", "mmap_frames"], N4, 0, 1, "alloc")
	check("lab4.34M", "lab4.34M", "minor_faults", V["lab4.34M", "minor_faults"], N4 * P34, T4, 2, "fault")
	check("lab4.34M", "lab4.34M", "mmap_frames", V["lab4.34M", "mmap_frames"], N4, 0, 1, "alloc")
	split("lab4.34M-envvars lab4.34M-tunables", L4, " ")
	for (i = 1; i <= 2; i++) {
		s = L4[i]
		check(s, s, "minor_faults", V[s, "minor_faults"], (GMIN <= 34 ? N4 : 1) * P34, T4, 2, "fault")
		check(s, s, "mmap_frames", V[s, "mmap_frames"], (GMIN <= 34 ? N4 : 0), 0, 1, "alloc")
	}
	s = "lab4.8M-vary"
	PMIN = ceil((8 * MIB - 1572864 + 16) / PAGE); PMAX = ceil((8 * MIB + 1572864 + 16) / PAGE)
	check_range(s, s, "minor_faults", V[s, "minor_faults"], (NV < 2 ? NV : 2) * PMIN - T4, NV * PMAX + T4, 1, "fault")
	check_range(s, s, "mmap_frames", V[s, "mmap_frames"], 1, NV, 1, "alloc")

	# ------------------------------------------------------------ Lab 5
	# A blocking write() to a pipe returns when all of it is written: BYTES
	# take exactly ceil(BYTES / size) calls, none short.  strace saw them
	# (raw arguments): the address of the buffer mod 4096 must be the one the
	# CSV claims.  page, page+8, page+16 are placed by hand (0, 8, 16);
	# as malloc returned it: a 1 MiB block is mapped on its own, its user bytes 16
	# bytes (the chunk header) past a page boundary; a heap block is 16-byte
	# aligned, anywhere.
	for (i = 1; i <= ns; i++) for (j = 1; j <= na; j++) {
		s = "lab5." L5S[i] "." L5A[j]; sz = L5B[L5S[i]]
		check(s, s, "writes", V[s, "writes"], ceil(B / sz), 0, 1, "plain")
		check(s, s, "short_writes", V[s, "short_writes"], 0, 0, 1, "plain")
		# the CSV column of yes: addr_mod_page (addr_mod_4096 before the page size came from sysconf)
		mod = ((s, "addr_mod_page") in V) ? V[s, "addr_mod_page"] : V[s, "addr_mod_4096"]
		if (L5A[j] == "malloc" && sz >= MIB) check(s, s, "addr_mod_4096", mod, 16, 0, 1, "alloc")
		else if (L5A[j] == "malloc") check(s, s, "addr_mod_16", (isnum(mod) ? mod % 16 : mod), 0, 0, 1, "alloc")
		else check(s, s, "addr_mod_4096", mod, (L5A[j] == "page" ? 0 : L5A[j] == "page+8" ? 8 : 16), 0, 1, "plain")
		if (!HAVE_STRACE) { out("SKIP", s, "strace_writes", "-", ceil(B / sz), "exact", 1, "no strace in the submission"); continue }
		hit = 0
		for (k = 1; k <= NW[s]; k++) if (WR[s, k, "bytes"] == B) hit = k
		check(s, s, "strace_writes", hit ? WR[s, hit, "calls"] : "none", ceil(B / sz), 0, 1, "plain")
		check(s, s, "strace_addr_mod", hit ? WR[s, hit, "mod"] : "none", mod, 0, 1, "plain")
	}

	# ------------------------------------------------------------- times
	printf "Times (recorded, not graded):\n"
	for (i = 1; i <= nrec; i++) { r = order[i]
		if (r ~ /strace/) continue
		if ((r, "time_s") in V) printf "  %-26s %10s s\n", r, V[r, "time_s"]
		else if ((r, "seconds") in V) printf "  %-26s %10s s  %s GiB/s\n", r, V[r, "seconds"], V[r, "gib_per_s"]
	}
	k = "lab2.all/pool 64 B"; k2 = "lab2.all/malloc 32 B"
	if (k in ROW && k2 in ROW) printf "  %-26s %10s ns  (malloc 32 B p50 %s ns)\n", "lab2 pool 64 B p50", V[k, "p50_ns"], V[k2, "p50_ns"]
	fl = ""; for (fg in FLAG) fl = fl (fl == "" ? "" : ";") fg
	if (envs) printf "ENV: %d check(s) not comparable in this environment (%s); their points are not given\n", envs, fl
	printf "Score: %d/%d\n", score, total
	if (SUMMARY != "") printf "%s,%s,%d,%d,%d,%d,%s\n", FILENAME, H["student"], score, total, fails + 0, envs + 0, fl >> SUMMARY
	exit fails ? 1 : envs ? 3 : 0
}'

# grade_file FILE: print the report; exit status as above.
grade_file() {
	[ -r "$1" ] && [ -f "$1" ] || { echo "grade: cannot read '$1'" >&2; return 2; }
	awk -v SUMMARY="${SUMMARY:-}" "$PROGRAM" "$1"
}

worst=0
note() { # fold an exit status into the worst so far: 2 > 1 > 3 > 0
	case $1 in
	2) worst=2 ;; 1) [ $worst = 2 ] || worst=1 ;; 3) [ $worst = 0 ] && worst=3 ;;
	esac
}
for arg in "$@"; do
	if [ -d "$arg" ]; then
		SUMMARY=$(mktemp) || exit 2
		export SUMMARY
		n=0
		for f in "$arg"/*; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			echo "== $f"
			grade_file "$f"; rc=$?
			note $rc
			[ $rc = 2 ] && echo "$f,,,,,,not a submission" >>"$SUMMARY"
		done
		[ $n -gt 0 ] || { echo "grade: no files in $arg" >&2; rm -f "$SUMMARY"; exit 2; }
		echo "== $arg: one row a submission"
		echo "file,student,score,max,fails,envs,env_flags"
		cat "$SUMMARY"
		rm -f "$SUMMARY"; SUMMARY=
	else
		grade_file "$arg"; note $?
	fi
done
exit $worst
