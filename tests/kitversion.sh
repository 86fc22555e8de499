#!/usr/bin/env bash
# tests/kitversion.sh - the kit knows what it is without git (a ZIP
# download, git not installed): tools/lib/kitversion names a copy without
# .git by its sources' hash (src-HASH), and a `git archive` by its commit
# (export-subst) only while its sources are that commit's
# (tools/lib/kit-sources, which this file holds to the sources); the
# grader accepts an honest src- kit and an honest download graded by its
# own kit, while a changed source is still flagged.  The hash is sha256
# over the sources: the same files give the same hash on any machine, so
# every check is exact.  make test-all also runs the archive's own make
# test (issue 36: the kit must pass its tests as a ZIP download).
. "$(dirname "$0")/lib.sh" || exit 1

own=$(tools/lib/kitversion --sources)
if [[ $own =~ ^[0-9a-f]{12}$ ]]; then pass "kitversion --sources: 12 hex digits ($own)"
else fail "kitversion --sources" "got '$own'"; fi

# git: git is installed and this kit is its checkout (not a kit copied
# into another project's tree: kitversion asks the same).
git=0
top=$(git rev-parse --show-toplevel 2>/dev/null) && [ "$top" -ef . ] && git=1

# tools/lib/kit-sources is the sources' hash as committed: a commit that
# changes a source without it would be a ZIP download that names no commit.
# Checked in the work tree, so the failure comes before the commit.  A
# handout's sources are the student's to edit, and a copy without git may
# be a download edited on purpose: there kitversion must only read the
# files as they are.
recorded=$(tr -cd '0-9a-f' <tools/lib/kit-sources 2>/dev/null)
commit=$(tr -cd 'A-Za-z0-9' <tools/lib/kit-commit 2>/dev/null)
case $commit in Format*) commit= ;; esac
if [ "$HANDOUT" = 1 ]; then
	skip "tools/lib/kit-sources holds the sources' hash" "a handout: its sources are yours to edit"
elif [ $git = 1 ]; then
	if [ "$recorded" = "$own" ]; then pass "tools/lib/kit-sources holds the sources' hash ($own)"
	else fail "tools/lib/kit-sources holds the sources' hash" \
		"it holds '$recorded', the sources hash to $own: a ZIP download of this commit would not name it. Update it: tools/lib/kitversion --sources >tools/lib/kit-sources"; fi
else
	want=src-$own
	[ -n "$commit" ] && [ "$recorded" = "$own" ] && want=$commit
	got=$(tools/lib/kitversion)
	if [ "$got" = "$want" ]; then pass "no git: kitversion is $got (kit-commit '$commit', kit-sources $recorded)"
	else fail "kitversion without git" "got '$got', want $want (kit-commit '$commit', kit-sources '$recorded', sources $own)"; fi
fi

# A copy of the kit's files without .git (git is still installed here: the
# copy is outside any work tree), its kit-commit and kit-sources written
# as each kind of copy holds them.
Z=$TMP/zip
kit_copy "$Z" || fail "a copy of the kit" "kit_copy failed"
if (cd "$Z" && git rev-parse --git-dir >/dev/null 2>&1); then
	skip "kitversion in a copy without .git" "$TMP is inside a git work tree"
else
	printf '%s\n' "$own" >"$Z/tools/lib/kit-sources"
	printf '%s\n' '$Format:%h$' >"$Z/tools/lib/kit-commit"
	got=$("$Z/tools/lib/kitversion")
	if [ "$got" = "src-$own" ]; then pass "a copy whose kit-commit names no commit (a handout) is src-HASH ($got)"
	else fail "kitversion in a copy without .git" "got '$got', want src-$own"; fi
	printf 'abc1234\n' >"$Z/tools/lib/kit-commit"
	got=$("$Z/tools/lib/kitversion")
	if [ "$got" = abc1234 ]; then pass "a download whose sources hash to its kit-sources names its commit"
	else fail "kitversion in a download" "got '$got', want abc1234 (kit-sources $own)"; fi
	printf '/* a student edit */\n' >>"$Z/frames.c"
	got=$("$Z/tools/lib/kitversion")
	if [ "$got" != "src-$own" ] && [[ $got =~ ^src-[0-9a-f]{12}$ ]]; then
		pass "a download with a changed frames.c names no commit: its own hash ($got)"
	else
		fail "kitversion after a source edit" "got '$got'; the download is abc1234, its sources src-$own"
	fi
fi

# The grader's kit check on the reference submission with its kit line
# swapped: src- and this kit's hash passes; another hash, or kit_sources
# that are not the revision's, is INTEGRITY (issue 24: not the kit's programs).
REF=results/reference-submission.txt
kit_status() { # GRADER FILE: the status word of GRADER's "file kit" line
	"$1" "$2" 2>/dev/null | awk '$2 == "file" && $3 == "kit" { print $1; exit }'
}
# with_kit KIT SOURCES: the reference submission with those kit and
# kit_sources lines, in format 3 as make submit writes it now (it was
# recorded in format 2, before kit_sources was written; a format 2 file
# of a kit that writes 3 is INTEGRITY kit on its own).
with_kit() {
	sed "/^kit_sources: /d; s/^format: .*/format: malloc-labs-submission 3/; s/^kit: .*/kit: $1\nkit_sources: $2/" "$REF"
}
with_kit "src-$own" "$own" >"$TMP/src.txt"
st=$(kit_status tools/grade.sh "$TMP/src.txt")
if [ "$st" = PASS ]; then pass "grade: kit src-$own (this kit's sources, no git) passes"
else fail "grade: an honest no-git kit" "the kit check says '$st'"; fi
with_kit src-000000000000 000000000000 >"$TMP/other.txt"
st=$(kit_status tools/grade.sh "$TMP/other.txt")
if [ "$st" = INTEGRITY ]; then pass "grade: kit src-000000000000 (other sources) is INTEGRITY"
else fail "grade: a no-git kit with other sources" "the kit check says '$st'"; fi
if [ $git = 1 ]; then
	rev=$(git rev-parse --short HEAD)
	with_kit "$rev" 000000000000 >"$TMP/forged.txt"
	st=$(kit_status tools/grade.sh "$TMP/forged.txt")
	if [ "$st" = INTEGRITY ]; then pass "grade: kit $rev with kit_sources that are not its sources is INTEGRITY"
	else fail "grade: a revision with changed kit_sources" "the kit check says '$st'"; fi
else
	skip "grade: a revision with changed kit_sources" "no git here to read the revision's sources"
fi

# git archive, as a ZIP download from a git host makes it: export-subst
# writes the commit into tools/lib/kit-commit.  A work tree with changes
# is archived as a commit of its own (made in a scratch index, named by no
# branch), so what is tested is the tree as it is, not only HEAD.
if [ $git = 0 ]; then
	skip "git archive: the download names its commit" "no git checkout here"
	full_only "make test in a git archive of the kit"
	skip "make test in a git archive of the kit" "no git checkout here"
	exit 0
fi
cp "$(git rev-parse --git-path index)" "$TMP/index" &&
	GIT_INDEX_FILE=$TMP/index git add -A && tree=$(GIT_INDEX_FILE=$TMP/index git write-tree)
ref=HEAD
if [ -z "${tree:-}" ]; then
	fail "git archive: the work tree as a tree" "git add -A or git write-tree failed"
elif [ "$tree" != "$(git rev-parse 'HEAD^{tree}')" ]; then
	ref=$(GIT_AUTHOR_NAME=tests GIT_AUTHOR_EMAIL=tests@localhost GIT_COMMITTER_NAME=tests \
		GIT_COMMITTER_EMAIL=tests@localhost git commit-tree -p HEAD -m "tests/kitversion.sh: the work tree" "$tree") ||
		fail "git archive: a commit of the work tree" "git commit-tree failed"
fi
A=$TMP/archive
mkdir -p "$A" && git archive "$ref" | tar -xf - -C "$A" || fail "git archive $ref" "git archive or tar failed"
docs_in "git archive (a ZIP download)" "$A"
want=$(git rev-parse "$ref")
got=$("$A/tools/lib/kitversion")
named=0
if [ -n "$got" ] && [ "${want#"$got"}" != "$want" ]; then pass "git archive: kitversion names the commit ($got)"; named=1
else fail "git archive: kitversion names the commit" \
	"got '$got', the commit is $want (is tools/lib/kit-sources current? tools/lib/kitversion --sources >tools/lib/kit-sources)"; fi
kit=$got
got=$("$A/tools/lib/kitversion" --sources 2>/dev/null) want=$(tools/lib/kitversion --sources "$ref")
if [ "$got" = "$want" ]; then pass "kitversion --sources of the commit (from git) equals the archive's own ($got)"
else fail "kitversion --sources of the commit" "git says '$want', the archive's files '$got'"; fi

# The download graded by its own kit, without git: its honest kit line
# passes; the same commit with other sources is INTEGRITY.
if [ $named = 0 ]; then
	skip "grade in the download: its own kit" "the download names no commit (above)"
elif (cd "$A" && git rev-parse --git-dir >/dev/null 2>&1); then
	skip "grade in the download: its own kit" "$TMP is inside a git work tree: its grader has git"
else
	with_kit "$kit" "$got" >"$TMP/zip-honest.txt"
	st=$(kit_status "$A/tools/grade.sh" "$TMP/zip-honest.txt")
	if [ "$st" = PASS ]; then pass "grade in the download: its own kit $kit passes"
	else fail "grade in the download: an honest download" "the kit check says '$st'"; fi
	with_kit "$kit" 000000000000 >"$TMP/zip-forged.txt"
	st=$(kit_status "$A/tools/grade.sh" "$TMP/zip-forged.txt")
	if [ "$st" = INTEGRITY ]; then pass "grade in the download: kit $kit with other kit_sources is INTEGRITY"
	else fail "grade in the download: a download's commit with other sources" "the kit check says '$st'"; fi
fi

# An edit to a downloaded source: the download no longer names the commit.
cp -p "$A/frames.c" "$TMP/frames.c.orig"
printf '/* a student edit */\n' >>"$A/frames.c"
got=$("$A/tools/lib/kitversion")
if [[ $got =~ ^src-[0-9a-f]{12}$ ]] && [ "$got" != "src-$own" ]; then pass "git archive, frames.c edited: kitversion is $got"
else fail "git archive, frames.c edited: kitversion" "got '$got', want src- and the edited sources' hash"; fi
cp -p "$TMP/frames.c.orig" "$A/frames.c"

# The archive's own make test, as a student who downloaded it types it.
# (Its quick tier: this file's archive checks skip there, no git checkout.)
full_only "make test in a git archive of the kit"
(cd "$A" && env -u TESTS_COUNTS -u TESTS_SHARED -u TEST_TIER make --no-print-directory test) >"$TMP/zip-test.out" 2>&1
rc=$?
last=$(tail -n 1 "$TMP/zip-test.out")
if [ $rc = 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed, ]]; then pass "make test in a git archive of the kit: $last"
else fail "make test in a git archive of the kit" "exit $rc: $(grep -E '^(FAIL|kept:)' "$TMP/zip-test.out" | head -n 8)
$last"; fi
