# tools/lib/knobs.awk - which known make variable a name is nearly: the
# Makefile's check of the variables a student types.  KNOWN holds the
# names make knows, blank-separated; a name is compared in capitals, so
# `frames` is FRAMES mistyped.  Plain POSIX awk (mawk, gawk, busybox).
#
#   awk -v NAME=FRAME -v KNOWN='...' -f tools/lib/knobs.awk
#     the known name nearest NAME, or nothing when none is near (make
#     refuses a command-line variable it does not know, naming this one)
#   awk -v SEP='|' -v KNOWN='...' -f tools/lib/registry.awk \
#       -f tools/lib/knobs.awk tools/labs/registry tools/labs/knobs
#     the registry's rows, then env:NAME:KNOB for each variable in the
#     environment that is no known name (KNOWN and tools/labs/knobs'
#     names) but one typo from KNOB: the environment holds every other
#     program's variables too, so only a near miss is named (make warns)
#   awk -v KEYS='lab2-tunables lab2' -f tools/lib/knobs.awk tools/labs/knobs
#     a lab's knobs: each knob's line under the first of KEYS that has one
#     (ID-MODE before ID).  Each value in the environment, or else the
#     line's default, is checked against the line's range: the first out
#     of it is printed as "NAME wants ..., not 'VALUE'", exit 2.  Else
#     "NAME DEFAULT" for each knob the environment leaves empty ("NAME"
#     alone when it has no default), exit 0: tools/lib/lib.sh's lab_knobs
#     sets them.  The Makefile checks the knobs typed for a lab so, before
#     anything runs (-v ONLY_CHECK=1: the refusal or nothing).

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
	nkeys = split(KEYS, key, " ")
}

# bytes(V): a size (digits, then K, M or G or nothing) in bytes.
function bytes(v,    u) {
	u = substr(v, length(v))
	if (u !~ /[KMG]/) return v + 0
	return substr(v, 1, length(v) - 1) * (u == "K" ? 1024 : u == "M" ? 1048576 : 1073741824)
}

# refusal(NAME, V, RANGE): why V is not a value of the knob NAME whose
# range is RANGE (tools/labs/knobs: MIN..MAX, with K, M or G a size, or
# "-": any text), or "" when it is one.  A number keeps to what shell
# arithmetic holds (18 digits) and a size to 16 digits and a unit.
function refusal(name, v, r,    b, size) {
	if (r == "-") return ""
	split(r, b, /\.\./)
	size = r ~ /[KMG]/
	if (size && (v !~ /^(0|[1-9][0-9]*)[KMG]?$/ || length(v) > 17 ||
		     bytes(v) < bytes(b[1]) || bytes(v) > bytes(b[2])))
		return name " wants a size (a number, then K, M or G) from " b[1] " to " b[2] ", not '" v "'"
	if (!size && (v !~ /^(0|[1-9][0-9]*)$/ || length(v) > 18 || v + 0 < b[1] + 0 || v + 0 > b[2] + 0))
		return name " wants a whole number from " b[1] " to " b[2] ", not '" v "'"
	return ""
}

# A knob line of one of KEYS: kept when no earlier key has that knob.
KEYS != "" && !/^[ \t]*#/ && NF >= 4 {
	for (i = 1; i <= nkeys; i++)
		if ($1 == key[i] && (!($2 in rank) || i < rank[$2])) {
			if (!($2 in rank)) order[++nknobs] = $2
			rank[$2] = i; dflt[$2] = $3; range[$2] = $4
		}
}

# After registry.awk's END (its knobs holds every row's knobs column).
END {
	if (KEYS != "") {
		for (i = 1; i <= nknobs; i++) {
			n = order[i]; v = ENVIRON[n]
			if (v == "") {
				v = dflt[n] == "-" ? "" : dflt[n]
				unset = unset n (v == "" ? "" : " " v) "\n"
			}
			if (v != "" && (why = refusal(n, v, range[n])) != "") { print why; exit 2 }
		}
		if (!ONLY_CHECK) printf "%s", unset
		exit 0
	}
	learn(knobs)
	for (v in ENVIRON)
		if (v ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && !(v in isknown) && (k = nearest(v, 0)) != "")
			print "env:" v ":" k
}
