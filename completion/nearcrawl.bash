# bash completion for nearcrawl. The commands are those `nearcrawl help`
# lists and the options those `nearcrawl COMMAND --help` lists, read when
# completing, so that this file cannot disagree with the program.
_nearcrawl() {
	local cur prev cmd words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		words=$("${COMP_WORDS[0]}" help 2>/dev/null |
		    sed -n 's/^  \([a-z][a-z]*\) .*/\1/p; s/^  \([a-z][a-z]*\)$/\1/p')
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	case $prev in
	--format)
		COMPREPLY=($(compgen -W "text csv jsonl" -- "$cur"))
		return ;;
	-d|--db|-c|--config|-o|--out|--warc|--cacert|--capath|--docs|--pairs|\
	--groups|--queries|--dedup-against|--dedup-against-cdx)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--port|--addr|--refresh|--hosts)
		COMPREPLY=()
		return ;;
	esac
	if [[ $cur == -* ]]; then
		words=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
		    grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _nearcrawl nearcrawl
