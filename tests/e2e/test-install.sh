#!/bin/sh
# make install with PREFIX and DESTDIR; the man page generated from the
# option table (so it lists every option --help does); the bash
# completion, which reads the commands and options from the program.
. tests/e2e/lib.sh

S=$E2E_TMP/stage
make -s install DESTDIR="$S" PREFIX=/opt/nc >"$E2E_TMP/make.out" 2>&1
eq "make install DESTDIR=... PREFIX=/opt/nc exits 0" "$?" 0
ok "the binary" test -x "$S/opt/nc/bin/nearcrawl"
ok "the man page" test -s "$S/opt/nc/share/man/man1/nearcrawl.1"
ok "the bash completion" test -s "$S/opt/nc/share/bash-completion/completions/nearcrawl"
eq "the installed binary runs" "$("$S/opt/nc/bin/nearcrawl" --version | cut -d' ' -f1)" nearcrawl

M=$S/opt/nc/share/man/man1/nearcrawl.1
# Every long option of the --help of crawl and of the commands with
# option tables (config/cmdopt.c: search, index, serve) is in the man
# page's OPTIONS, and no other.
for c in crawl search index serve; do
	"$NEARCRAWL" $c --help
done | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$E2E_TMP/help.opts"
sed -n '/^\.SH OPTIONS/,/^\.SH EXIT/p' "$M" | sed 's/\\-/-/g' |
    grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$E2E_TMP/man.opts"
eq "the man page's options are --help's" \
    "$(comm -3 "$E2E_TMP/help.opts" "$E2E_TMP/man.opts" | tr -d ' \t' | tr '\n' ' ')" ""
ok "it is a page man can read" sh -c "man -l '$M' 2>&1 | grep -q 'EXIT STATUS'"
ok "... without troff warnings" sh -c "[ -z \"\$(groff -man -z -ww '$M' 2>&1)\" ]"
ok "make nearcrawl.1 writes the same page" sh -c \
    "make -s nearcrawl.1 >/dev/null && cmp -s nearcrawl.1 '$M'"
rm -f nearcrawl.1

C=$S/opt/nc/share/bash-completion/completions/nearcrawl
complete_words() {
	bash -c ". '$C'; COMP_WORDS=($*); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1));
	    _nearcrawl; echo \"\${COMPREPLY[*]}\""
}
eq "completion: commands" "$(complete_words "$NEARCRAWL" cr)" crawl
eq "completion: crawl's options" "$(complete_words "$NEARCRAWL" crawl --del)" \
    "--delay --delay-ms"
eq "completion: dedup's options are its own" \
    "$(complete_words "$NEARCRAWL" dedup --pro)" ""
eq "completion: search, serve and index" "$(complete_words "$NEARCRAWL" se) $(
    complete_words "$NEARCRAWL" ind)" "serve search index"
eq "completion: search's options and formats" \
    "$(complete_words "$NEARCRAWL" search --fo) $(
    complete_words "$NEARCRAWL" search --format j)" "--format jsonl"
eq "completion: check" "$(complete_words "$NEARCRAWL" chec)" check
eq "completion: check's options" "$(complete_words "$NEARCRAWL" check --w)" \
    "--warc"
make -s uninstall DESTDIR="$S" PREFIX=/opt/nc
ok "make uninstall removes them" test ! -e "$S/opt/nc/bin/nearcrawl" -a ! -e "$M" -a ! -e "$C"

e2e_finish
