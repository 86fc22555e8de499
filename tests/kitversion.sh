#!/usr/bin/env bash
# tests/kitversion.sh - the kit knows what it is without git (a ZIP
# download, git not installed): tools/lib/kitversion names a copy without
# .git by its sources' hash (src-HASH), a `git archive` by its commit
# (export-subst), and the grader accepts an honest src- kit while a changed
# source is still flagged.  The hash is sha256 over the sources: the same
# files give the same hash on any machine, so every check is exact.
. "$(dirname "$0")/lib.sh" || exit 1

own=$(tools/lib/kitversion --sources)
if [[ $own =~ ^[0-9a-f]{12}$ ]]; then pass "kitversion --sources: 12 hex digits ($own)"
else fail "kitversion --sources" "got '$own'"; fi

# A copy of the tracked files without .git, as a ZIP holds them (git is
# still installed here: the copy is outside any work tree).
Z=$TMP/zip
kit_copy "$Z" || fail "a copy of the kit" "kit_copy failed"
if (cd "$Z" && git rev-parse --git-dir >/dev/null 2>&1); then
	skip "kitversion in a copy without .git" "$TMP is inside a git work tree"
else
	got=$("$Z/tools/lib/kitversion")
	if [ "$got" = "src-$own" ]; then pass "a copy without .git is src-HASH, the same hash as here ($got)"
	else fail "kitversion in a copy without .git" "got '$got', want src-$own"; fi
	printf '/* a student edit */\n' >>"$Z/frames.c"
	got=$("$Z/tools/lib/kitversion")
	if [ "$got" != "src-$own" ] && [[ $got =~ ^src-[0-9a-f]{12}$ ]]; then
		pass "a changed frames.c changes the hash ($got)"
	else
		fail "kitversion after a source edit" "got '$got', the unchanged kit is src-$own"
	fi
fi

# git archive (what a ZIP download from a git host is): export-subst
# writes the commit into tools/lib/kit-commit, and the sources' hash is
# the commit's own (kitversion --sources REV reads it from git).
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip "git archive names its commit" "no git here"
elif ! git cat-file -e HEAD:tools/lib/kit-commit 2>/dev/null || ! git cat-file -e HEAD:.gitattributes 2>/dev/null; then
	skip "git archive names its commit" "tools/lib/kit-commit is not committed yet"
else
	A=$TMP/archive
	mkdir -p "$A" && git archive HEAD | tar -xf - -C "$A"
	got=$("$A/tools/lib/kitversion") want=$(git rev-parse HEAD)
	if [ -n "$got" ] && [ "${want#"$got"}" != "$want" ]; then pass "git archive HEAD: kitversion names the commit ($got)"
	else fail "git archive HEAD: kitversion" "got '$got', HEAD is $want"; fi
	got=$("$A/tools/lib/kitversion" --sources 2>/dev/null) want=$(tools/lib/kitversion --sources HEAD)
	if [ "$got" = "$want" ]; then pass "kitversion --sources HEAD (from git) equals the archive's own ($got)"
	else fail "kitversion --sources HEAD" "git says '$want', the archive's files '$got'"; fi
fi

# The grader's kit check on the reference submission with its kit line
# swapped: src- and this kit's hash passes; another hash, or kit_sources
# that are not the revision's, is INTEGRITY (issue 24: not the kit's programs).
REF=results/reference-submission.txt
kit_status() { # FILE: the status word of the grader's "file kit" line
	tools/grade.sh "$1" 2>/dev/null | awk '$2 == "file" && $3 == "kit" { print $1; exit }'
}
sed "s/^kit: .*/kit: src-$own/" "$REF" >"$TMP/src.txt"
st=$(kit_status "$TMP/src.txt")
if [ "$st" = PASS ]; then pass "grade: kit src-$own (this kit's sources, no git) passes"
else fail "grade: an honest no-git kit" "the kit check says '$st'"; fi
sed "s/^kit: .*/kit: src-000000000000/" "$REF" >"$TMP/other.txt"
st=$(kit_status "$TMP/other.txt")
if [ "$st" = INTEGRITY ]; then pass "grade: kit src-000000000000 (other sources) is INTEGRITY"
else fail "grade: a no-git kit with other sources" "the kit check says '$st'"; fi
if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
	rev=$(git rev-parse --short HEAD)
	{ sed "s/^kit: .*/kit: $rev/" "$REF" | grep -v '^kit_sources:'; echo "kit_sources: 000000000000"; } >"$TMP/forged.txt"
	st=$(kit_status "$TMP/forged.txt")
	if [ "$st" = INTEGRITY ]; then pass "grade: kit $rev with kit_sources that are not its sources is INTEGRITY"
	else fail "grade: a revision with changed kit_sources" "the kit check says '$st'"; fi
else
	skip "grade: a revision with changed kit_sources" "no git here to read the revision's sources"
fi
