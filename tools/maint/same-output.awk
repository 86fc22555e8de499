# tools/maint/same-output.awk - the masks of tools/maint/same-output.sh:
# each file is one command's transcript ("$ COMMAND", its stdout, its
# stderr as "2> " lines, "exit N"), printed with what legitimately differs
# from run to run of one build replaced by "~".  Load tools/lib/csv.awk
# first; -v TOL=N: the grader's fault tolerance (tools/grading/steps.awk).
#
# The masks are the fields that differed when the command list ran six
# times on one build and twice on a git archive build of the same commit
# (and the us or ms cells of malloc_variance's times table, met when two
# runs went side by side); clock and timer step, times too, are masked
# though they did not differ there.  A mask names its program: the same
# label in another program is held to its value.  Kinds, with reasons:
#   time      a time, a rate or a ratio of times (the machine's load)
#   kit       the kit's revision (each build names its own)
#   faults    a fault count held to the prediction printed beside it:
#             masked only when within TOL of it ("exact within 4");
#             without a prediction ("n/a", "none"), it is startup's
#   resident  a figure read from /proc (VmHWM, VmRSS, RssAnon, max RSS,
#             ru_maxrss) or a ratio of one: the kernel's pages of the
#             process's own, its threads' stacks, sampled every ms
#   sched     what the scheduler decides between threads or processes:
#             context switches, pipe sleeps, the bytes threads hold at
#             one moment, the faults and heap bytes of arenas that
#             threads race into
#   startup   a fault count measured with nothing to hold it to (first
#             touches of stack and code, a few pages either way)
#   machine   a counter of the whole machine (TLB shootdowns: every
#             process's, so any other load's, count)

# The labelled report lines masked ("  label:   value"): the first number
# of the value, or the first two where the value gives two.
BEGIN {
	lab["*", "time"] = lab["*", "user time"] = lab["*", "sys time"] = 1    # time
	lab["threads", "fill time"] = lab["threads", "per request"] = 1         # time
	lab["arenas", "trim time"] = lab["malloc_variance", "elapsed"] = 1      # time
	lab["malloc_variance", "clock"] = 1                         # time: TSC MHz, calibrated
	lab["malloc_variance", "timer step"] = 2                    # time: ns and TSC ticks
	lab["frames", "max RSS"] = 1                                # resident
	lab["frames", "rss before trim"] = lab["frames", "rss after trim"] = 1   # resident
	split("VmHWM|RssAnon start|RssAnon peak|RssAnon after|RssAnon trimmed|VmRSS after|" \
	      "VmRSS trimmed|grown|grown/live|peak/live peak|trimmed/live", r, "|")
	for (i in r) lab["arenas", r[i]] = 2                        # resident (and "was N")
	lab["threads", "waits"] = 1                                 # sched
	lab["threads", "fill faults"] = lab["threads", "minor faults"] = 1     # startup
	lab["threads", "faults/request"] = 1                        # startup
	lab["threads", "TLB shootdowns"] = 1                        # machine
	lab["arenas", "live peak"] = lab["arenas", "minor faults"] = 1   # sched
	lab["arenas", "arena"] = lab["arenas", "uordblks"] = 1      # sched (arena_max=2)
	lab["arenas", "fordblks"] = 2                               # sched: bytes, chunks
	lab["arenas", "VmSize grown"] = 1                           # sched: arenas made
	lab["policies", "start-up"] = 1                             # startup (see below)
	lab["yes", "writer sleeps"] = lab["yes", "reader sleeps"] = 1   # sched
	lab["yes", "reads"] = 1                                     # sched: the pipe's chunks
	lab["yes", "throughput"] = 1                                # time: a rate
	lab["yes", "widest spread"] = 1                             # time (and its size, below)

	# The CSV columns masked, by header name.
	split("time_s user_s sys_s fill_s trim_s us_per_request wall_s wall_min_s " \
	      "wall_max_s seconds gib_per_s min_ns p50_ns p90_ns p99_ns p999_ns max_ns " \
	      "mean_ns", r, " ")
	for (i in r) col["*", r[i]] = 1                             # time
	col["*", "kit"] = 1                                         # kit
	col["frames", "max_rss_mib"] = col["policies", "max_rss_kib"] = 1   # resident
	split("hwm_kib anon_start_kib anon_peak_kib anon_after_kib rss_after_kib " \
	      "anon_trimmed_kib rss_trimmed_kib anon_end_kib", r, " ")
	for (i in r) col["arenas", r[i]] = 1                        # resident
	split("live_peak minor_faults mallinfo_arena mallinfo_uordblks " \
	      "mallinfo_fordblks vmsize_grown_kib", r, " ")
	for (i in r) col["arenas", r[i]] = 1                        # sched
	col["threads", "waits"] = col["threads", "fill_faults"] = 1        # sched, startup
	col["threads", "minor_faults"] = 1                          # startup
	col["threads", "tlb_shootdowns"] = 1                        # machine
	col["yes", "writer_sleeps"] = col["yes", "reader_sleeps"] = 1      # sched
	col["malloc_variance", "faults_per_iter"] = 1               # startup
	col["policies", "minor_faults"] = 1                         # startup
}

# A number in a string: the first N masked.
function mask_numbers(s, n,    out) {
	out = ""
	while (n-- > 0 && match(s, /[0-9]+(\.[0-9]+)?/)) {
		out = out substr(s, 1, RSTART - 1) "~"
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}
# Fields FROM..TO (from 1; either counted back from the last when <= 0)
# of a table row, each masked with the blanks before it squeezed to one
# (a wider number pushes the columns after it); the other fields keep
# their spacing.  A line whose fields there are not all numbers (a time
# may be written in us or ms when its ns do not fit) is no row:
# the table has ended (table set to ""), the line is returned as it is.
function mask_fields(s, from, to,    n, i, f, out, rest, w) {
	n = split(s, f, " ")
	if (from <= 0) from += n
	if (to <= 0) to += n
	for (i = from; i <= to; i++)
		if (i < 1 || f[i] !~ /^-?[0-9]+(\.[0-9]+)?(us|ms)?$/) { table = ""; return s }
	out = ""; rest = s
	for (i = 1; i <= n; i++) {
		w = index(rest, f[i])
		out = out (i >= from && i <= to ? " ~" : substr(rest, 1, w - 1) f[i])
		rest = substr(rest, w + length(f[i]))
	}
	return out rest
}
# A CSV field as the programs write it: quoted when it holds a comma or a
# quote (tools/lib/csv.awk's csv_field also guards a spreadsheet).
function quoted(v) { if (v ~ /[",]/) { gsub(/"/, "\"\"", v); v = "\"" v "\"" } return v }
function masked_col(name) { return (("*", name) in col) || ((prog, name) in col) }

# One command's transcript, masked, printed into DEST.
function flush(    i, l, label, k, n, f, m, mf, pf, na, out) {
	if (!nl) return
	table = ""; ncol = 0
	# frames: a fault count within TOL of the prediction printed after it.
	mf = -1; pf = -1; na = 0
	for (i = 1; i <= nl; i++) {
		if (line[i] ~ /^  predicted: +n\/a /) na = 1
		if (line[i] ~ /^  minor faults: +[0-9]+$/) { mf = line[i]; sub(/.* /, "", mf) }
		if (line[i] ~ /^  predicted: +[0-9]+ \(exact within /) {
			pf = line[i]; sub(/^  predicted: +/, "", pf); sub(/ .*/, "", pf)
		}
	}
	for (i = 1; i <= nl; i++) {
		l = line[i]
		if (i == 1 || l ~ /^(2> |exit [0-9]+$)/) { print l >DEST; continue }
		if (l ~ /^# built: .*\| kit /) sub(/\| kit .*/, "| kit ~", l)     # kit
		# CSV: a header line names the columns of the rows after it.
		if (l ~ /^[a-z_]+(,[a-z_0-9]+)+$/) { ncol = split(l, cname, ","); print l >DEST; continue }
		if (ncol && l !~ /^#/) {
			n = csv_split(l, f)
			for (k = 1; k <= n; k++) if (masked_col(cname[k])) f[k] = "~"
			csv_faults(f, n)
			out = quoted(f[1])
			for (k = 2; k <= n; k++) out = out "," quoted(f[k])
			print out >DEST; continue
		}
		# The tables, from their header line to a blank line.
		if (l == "") table = ""
		else if (l ~ /^times \(ns\) +min +p50/) table = "times"
		else if (l ~ /^label +mean \(ns\) faults\/it +via$/) table = "means"
		else if (l ~ /: samples per bucket \(ns/) table = "hist"
		else if (l ~ /^ size \(B\) writes\/GiB/) table = "yes"
		else if (l ~ /^policy +wall s +user s +sys s +faults/) table = "policies"
		else if (l ~ /^policy +wall +user +sys +faults +RSS$/) table = "ratios"
		else if (table == "hist") continue      # time: which buckets, their counts
		else if (table == "times") l = mask_fields(l, -5, 0)      # time: ns
		else if (table == "means") l = mask_fields(l, -2, -1)     # time; startup
		else if (table == "yes") l = mask_fields(l, 4, 0)         # time: GiB/s; sched
		else if (table == "policies") l = mask_fields(l, 2, 6)    # time, startup, resident
		else if (table == "ratios") l = mask_fields(l, 2, 0)      # ratios of those
		else if (prog == "policies") {
			# The packer's faults: measured, and predicted from a
			# start-up measured by a run of its own (startup).
			sub(/\(start-up [0-9]+:/, "(start-up ~:", l)
			if (l ~ /^  [a-z0-9]+ +predicted +[0-9]+ +measured +[0-9]+/) {
				l = mask_numbers(l, 2); sub(/\([-+]?[0-9.]+%\)/, "(~%)", l)
			}
		} else if (prog == "malloc_variance" && l ~ /^  [^:]+ p50: /)
			gsub(/[0-9]+\.[0-9]+x/, "~x", l)     # time: "mmap/heap p50: 2195.3x"
		# yes, outside its table (the line after it may end it): time, a
		# row's rate ("  4096 page+1: 0.09 GiB/s"), a ratio of two ("  16K /
		# 4K:  1.20x"), and the size whose alignments spread widest, the
		# line after its label
		if (prog == "yes" && table == "") {
			sub(/: [0-9]+\.[0-9]+ GiB\/s/, ": ~ GiB/s", l)
			if (l ~ /^  16K \/ 4K: /) sub(/[0-9]+\.[0-9]+x/, "~x", l)
			if (l ~ /^ +of one size \(at [0-9]+ B\)$/) sub(/[0-9]+ B\)$/, "~ B)", l)
		}
		if (match(l, /^  [A-Za-z][A-Za-z0-9 \/-]*: /)) {
			label = substr(l, 3, RLENGTH - 4)
			m = (("*", label) in lab) ? lab["*", label] : \
			    ((prog, label) in lab) ? lab[prog, label] : 0
			if (prog == "frames" && (label == "minor faults" || label == "faults/frame") &&
			    (na || within(mf, pf)))
				m = 1
			if (m) l = substr(l, 1, RLENGTH) mask_numbers(substr(l, RLENGTH + 1), m)
		}
		print l >DEST
	}
	nl = 0
}
function within(a, b) { return a >= 0 && b >= 0 && a - b <= TOL && b - a <= TOL }
# frames' CSV row: minor_faults and faults_per_frame masked when within
# TOL of an exact prediction (faults), or when there is none (startup).
function csv_faults(f, n,    k, mf, pf, ex) {
	if (prog != "frames") return
	for (k = 1; k <= n; k++) {
		if (cname[k] == "minor_faults") mf = f[k]
		if (cname[k] == "predicted_faults") pf = f[k]
		if (cname[k] == "prediction") ex = f[k]
	}
	if (ex != "none" && (ex != "exact" || mf == "" || pf == "" || !within(mf + 0, pf + 0)))
		return
	for (k = 1; k <= n; k++)
		if (cname[k] == "minor_faults" || cname[k] == "faults_per_frame") f[k] = "~"
}

FNR == 1 {
	flush()
	# The program: the command's first word after VAR=value settings.
	n = split($0, w, " ")
	for (k = 2; k <= n && w[k] ~ /^[A-Za-z_][A-Za-z0-9_]*=/; k++) ;
	prog = w[k]; sub(/.*\//, "", prog)
	close(DEST); DEST = FILENAME; sub(/\.txt$/, ".masked", DEST)
}
{ line[++nl] = $0 }
END { flush() }
