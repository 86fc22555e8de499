#!/usr/bin/env bash
# tests/claims.sh - claims the documents make about glibc's malloc, held to
# a measurement on this machine, so that a wrong one cannot come back
# unseen.  (The tunables' words are tests/env-check.sh's; mimalloc's 16 MiB
# is tests/lab7.sh's.)
. "$(dirname "$0")/lib.sh" || exit 1

# docs/glossary.md's Chunk entry: each "`malloc(N)` is a M-byte chunk" (or
# "`malloc(N)` a M-byte one") is what tests/bin/chunk measures: two blocks
# in a row from the top of the heap lie M bytes apart (the tcache off, so
# nothing freed before is reused).  On 64-bit only: the entry says so.
if [ "$(getconf LONG_BIT)" != 64 ]; then
	skip "glossary: chunk sizes measured" "the entry's examples are 64-bit; this is $(getconf LONG_BIT)-bit"
else
	sed -n '/^### Chunk$/,/^### /p' docs/glossary.md |
		grep -oE '`malloc\(([0-9]+)\)` (is )?an? [0-9]+-byte' | tr -d '`' |
		sed -E 's/malloc\(([0-9]+)\) (is )?an? ([0-9]+)-byte/\1 \3/' >"$TMP/said"
	if [ ! -s "$TMP/said" ]; then
		fail "glossary: chunk sizes measured" "no '\`malloc(N)\` is a M-byte chunk' in its Chunk entry"
	else
		# shellcheck disable=SC2046
		GLIBC_TUNABLES=glibc.malloc.tcache_count=0 tests/bin/chunk $(cut -d' ' -f1 "$TMP/said") >"$TMP/got" 2>&1
		if cmp -s "$TMP/said" "$TMP/got"; then
			pass "glossary: chunk sizes measured ($(tr '\n' ',' <"$TMP/got" | sed 's/,$//'))"
		else
			fail "glossary: chunk sizes measured" "it says $(tr '\n' ',' <"$TMP/said"); measured $(tr '\n' ',' <"$TMP/got")"
		fi
	fi
fi
