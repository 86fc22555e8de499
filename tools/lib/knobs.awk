# tools/lib/knobs.awk - which known make variable a name is nearly: the
# Makefile's check of the variables a student types.  KNOWN holds the
# names make knows, blank-separated; a name is compared in capitals, so
# `frames` is FRAMES mistyped.  Plain POSIX awk (mawk, gawk, busybox).
#
#   awk -v NAME=FRAME -v KNOWN='...' -f tools/lib/knobs.awk
#     the known name nearest NAME, or nothing when none is near (make
#     refuses a command-line variable it does not know, naming this one)
#   awk -v SEP='|' -v KNOWN='...' -f tools/lib/registry.awk \
#       -f tools/lib/knobs.awk tools/labs/registry
#     the registry's rows, then env:NAME:KNOB for each variable in the
#     environment that is no known name (KNOWN and the registry's knobs
#     column) but one typo from KNOB: the environment holds every other
#     program's variables too, so only a near miss is named (make warns)

# osa(A, B): the edits (a letter added, dropped, changed, or two swapped)
# that turn A into B.
function osa(a, b,    la, lb, i, j, d, x, t) {
	la = length(a); lb = length(b)
	for (i = 0; i <= la; i++) d[i, 0] = i
	for (j = 0; j <= lb; j++) d[0, j] = j
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			x = d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1))
			if (d[i - 1, j] + 1 < x) x = d[i - 1, j] + 1
			if (d[i, j - 1] + 1 < x) x = d[i, j - 1] + 1
			if (i > 1 && j > 1 && substr(a, i, 1) == substr(b, j - 1, 1) &&
			    substr(a, i - 1, 1) == substr(b, j, 1)) {
				t = d[i - 2, j - 2] + 1
				if (t < x) x = t
			}
			d[i, j] = x
		}
	return d[la, lb]
}

# typo(N, K): how far N (in capitals) is from the known K when it is one
# slip from it, else -1: K in other case; one edit from a K of 4 letters
# or more (two from one of 9 or more: VARIANCE_ITERS); a whole word of K
# (VARIANCE, COUNT); with LOOSE (a name typed after make, refused anyway),
# two edits from any K (fewer than N has letters), or K's last word.  Short names get no
# edits: TZ, CXX and LD in an environment are not T, CC and LDLIBS.
function typo(n, k, loose,    ln, lk, n0, d) {
	if (n == k) return 0
	ln = n0 = length(n); lk = length(k)
	if (ln >= 4 && index(k, n "_") == 1) return 1
	if (loose && ln >= 4 && substr(k, lk - ln) == "_" n) return 1
	if (lk < 4 && !loose || ln - lk > 2 || lk - ln > 2) return -1
	# A word one or two slips away keeps its first or last letter; the
	# letters both share at either end cost no edit.
	if (substr(n, 1, 1) != substr(k, 1, 1) && substr(n, ln) != substr(k, lk)) return -1
	while (ln && lk && substr(n, 1, 1) == substr(k, 1, 1)) { n = substr(n, 2); k = substr(k, 2); ln--; lk-- }
	while (ln && lk && substr(n, ln) == substr(k, lk)) { n = substr(n, 1, --ln); k = substr(k, 1, --lk) }
	# What is left differs at both ends: two slips far apart are no typo.
	if (ln > 4 || lk > 4) return -1
	d = osa(n, k)
	if (loose) return d <= 2 && d < n0 ? d : -1
	return d <= (lk >= 9 ? 2 : 1) ? d : -1
}

# nearest(NAME, LOOSE): the known name nearest NAME, "" for none.  Not
# LOOSE, only the names that share NAME's first or last letter are tried
# (typo() wants one of them), as make asks this of every variable in the
# environment each time it starts.
function nearest(name, loose,    n, c, m, i, d, best, bd) {
	n = toupper(name); bd = 99; best = ""
	m = split(loose ? all : first[substr(n, 1, 1)] last[substr(n, length(n))], c, " ")
	for (i = 1; i <= m; i++) {
		d = typo(n, c[i], loose)
		if (d >= 0 && d < bd) { bd = d; best = c[i] }
	}
	return best
}

function learn(list,    w, m, i) {
	m = split(list, w, /[ ,]+/)
	for (i = 1; i <= m; i++)
		if (w[i] != "" && w[i] != "-" && !(w[i] in isknown)) {
			isknown[w[i]] = 1
			all = all " " w[i]
			first[substr(w[i], 1, 1)] = first[substr(w[i], 1, 1)] " " w[i]
			last[substr(w[i], length(w[i]))] = last[substr(w[i], length(w[i]))] " " w[i]
		}
}

BEGIN {
	learn(KNOWN)
	if (NAME != "") { print nearest(NAME, 1); exit }
}

# After registry.awk's END (its knobs holds every row's knobs column).
END {
	learn(knobs)
	for (v in ENVIRON)
		if (v ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && !(v in isknown) && (k = nearest(v, 0)) != "")
			print "env:" v ":" k
}
