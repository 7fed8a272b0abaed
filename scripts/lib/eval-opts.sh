# Sourced by the evaluation scripts (scripts/eval/eval-fixture.sh, eval-uni.sh,
# eval-uni2.sh; POSIX sh): read their leading options.
#
#   eval_opts "$@"; shift "$EVAL_SHIFT"
#
# Sets BIN from --nearcrawl BIN (default ./nearcrawl), KEEP from --keep DIR
# (default empty) and EVAL_SHIFT to how many arguments those took; the
# first other argument ends them (the rest are crawl options).
eval_opts() {
	BIN=./nearcrawl
	KEEP=""
	EVAL_SHIFT=0
	while [ $# -ge 2 ]; do
		case $1 in
		--nearcrawl) BIN=$2 ;;
		--keep) KEEP=$2 ;;
		*) break ;;
		esac
		shift 2
		EVAL_SHIFT=$((EVAL_SHIFT + 2))
	done
}
