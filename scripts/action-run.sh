#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml at the top of the repository),
# kept here so that a test runs exactly what the action runs
# (cmd/journal-lint/testdata/action/action_run.txtar).
#
#   action-run.sh build     go install ./cmd/journal-lint from the action's
#                           own checkout into $RUNNER_TEMP/journal-lint/bin
#   action-run.sh check     the gate: SARIF file, annotations, step summary,
#                           outputs; exits 0 when journal-lint judged the
#                           tree (result=passed|failed in $GITHUB_OUTPUT)
#   action-run.sh verdict   exits 1 when the check step's result is failed
#
# The check step fails at once only when journal-lint could not judge the
# tree (exit 2: usage or configuration error, such as a shallow clone
# without the merge base; exit 3: journal-lint failed). Findings fail the
# last step instead, so that the outputs of the check step are set and the
# SARIF file can be uploaded either way.
#
# Environment (the runner's, and the action's inputs):
#   GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
#   GITHUB_EVENT_NAME, GITHUB_EVENT_PATH (the event's payload, read with jq),
#   GITHUB_BASE_REF (set for pull requests)
#   INPUT_ROOT       Journal root ("" = the configuration's root, else journals/)
#   INPUT_CONFIG     configuration file ("" = .journal-lint.yaml found as usual)
#   INPUT_AGAINST    revision to compare with through its merge base with HEAD
#                    ("" = by the event, see base below)
#   INPUT_FAIL_ON    error (default), warning or none
#   INPUT_NEW_ONLY   true: lint findings only on the revisions added
#   INPUT_SARIF_FILE where to write the SARIF log ("" = $RUNNER_TEMP/journal-lint/journal-lint.sarif)
#   RESULT           (verdict) the check step's result output
set -euo pipefail

bindir=${RUNNER_TEMP:?RUNNER_TEMP is not set}/journal-lint/bin

build() {
	mkdir -p "$bindir"
	cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
	GOBIN=$bindir go install ./cmd/journal-lint
	"$bindir/journal-lint" --version
}

# output NAME VALUE: a step output.
output() {
	printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
}

# annotate MESSAGE...: an error annotation of the action itself, for a
# failure that stops the check step (workflow commands escape %, CR and LF).
annotate() {
	local msg="$*"
	msg=${msg//'%'/'%25'}
	msg=${msg//$'\r'/'%0D'}
	msg=${msg//$'\n'/'%0A'}
	printf '::error title=journal-lint cannot judge the tree::%s\n' "$msg"
}

# event_field FILTER: sets field to a string field of the event's payload
# ("" when absent).
event_field() {
	local payload=${GITHUB_EVENT_PATH:-}
	if [ -z "$payload" ] || [ ! -f "$payload" ]; then
		annotate "the $GITHUB_EVENT_NAME event has no payload (GITHUB_EVENT_PATH): give the revision to compare with in the input against"
		exit 2
	fi
	if ! command -v jq >/dev/null 2>&1; then
		annotate "reading the $GITHUB_EVENT_NAME event's payload needs jq on the runner (GitHub's runners have it): install it, or give the input against"
		exit 2
	fi
	field=$(jq -r "$1 // empty" "$payload")
}

# need_commit SHA WHAT: fails the step unless SHA is a commit of the clone,
# fetched from origin when the clone lacks it (a commit no branch holds any
# more, such as the one before a force push).
need_commit() {
	if ! git cat-file -e "$1^{commit}" 2>/dev/null; then
		git fetch -q --no-tags origin "$1" 2>/dev/null || :
	fi
	if ! git cat-file -e "$1^{commit}" 2>/dev/null; then
		annotate "$2 $1 is not in the clone: check out with fetch-depth: 0"
		exit 2
	fi
}

# base: sets against to the revision the gate compares with, by the event
# (docs/ci.md, "Events"), when the input against is empty:
#   pull_request, pull_request_target  origin/<base branch> (GITHUB_BASE_REF)
#   merge_group   merge_group.base_sha: the base branch under the queued merge
#                 (GitHub leaves GITHUB_BASE_REF empty for this event)
#   push          before: what the branch held before the push; when the
#                 push created the branch (before is all zeros), the
#                 repository's default branch (origin/<default_branch>)
#   workflow_run, issue_comment  none: the input against must name one
#   others        HEAD (workflow_dispatch, schedule, ...): the tree and the
#                 commit itself, the baseline whose fingerprints match the
#                 pull requests' (docs/ci.md, "Fingerprints")
base() {
	local field
	case ${GITHUB_EVENT_NAME:-} in
	pull_request | pull_request_target)
		if [ -z "${GITHUB_BASE_REF:-}" ]; then
			annotate "GITHUB_BASE_REF is empty on a $GITHUB_EVENT_NAME event: give the revision to compare with in the input against"
			exit 2
		fi
		against=origin/$GITHUB_BASE_REF
		if [ "$GITHUB_EVENT_NAME" = pull_request_target ] &&
			[ "$(git rev-parse -q --verify HEAD)" = "$(git rev-parse -q --verify "$against^{commit}")" ]; then
			annotate "pull_request_target checks out the base branch itself, which leaves nothing to judge: check out the pull request's merge commit (actions/checkout with ref: refs/pull/<number>/merge), or run on pull_request"
			exit 2
		fi
		;;
	merge_group)
		event_field .merge_group.base_sha
		if [ -z "$field" ]; then
			annotate "the merge_group event's payload has no merge_group.base_sha"
			exit 2
		fi
		need_commit "$field" "the merge queue's base commit"
		against=$field
		;;
	push)
		event_field .before
		if [ -z "$field" ] || [ -z "${field//0/}" ]; then
			event_field .repository.default_branch
			if [ -z "$field" ]; then
				annotate "the push event's payload has neither before nor repository.default_branch"
				exit 2
			fi
			against=origin/$field
		else
			need_commit "$field" "the commit before the push,"
			against=$field
			if ! git merge-base --is-ancestor "$against" HEAD; then
				# A force push: the merge base of before and HEAD is older
				# than before and lacks what the branch accepted since.
				event_field .repository.default_branch
				if [ -z "$field" ] || [ "${GITHUB_REF:-}" = "refs/heads/$field" ]; then
					annotate "the push rewrote the history of ${GITHUB_REF:-the branch} (a force push: $against is not an ancestor of the pushed commit), so the revisions it had accepted cannot be judged; restore its history, or give the revision to compare with in the input against"
					exit 2
				fi
				against=origin/$field
			fi
		fi
		;;
	workflow_run | issue_comment)
		# They run on the default branch's commit whatever the workflow
		# checks out: HEAD would let a checked-out pull request judge
		# itself by its own configuration.
		annotate "the $GITHUB_EVENT_NAME event names no commit to compare with: give it in the input against"
		exit 2
		;;
	*) against=HEAD ;;
	esac
}

# judge OUT ARGS...: runs journal-lint ARGS, its stdout to the file OUT (-:
# the log), and sets status to its exit status. When it cannot judge the
# tree (exit 2 or 3), its message becomes an annotation too and the step
# fails with that status.
judge() {
	local out=$1 err
	shift
	err=$(mktemp)
	status=0
	if [ "$out" = - ]; then
		"$@" 2>"$err" || status=$?
	else
		"$@" >"$out" 2>"$err" || status=$?
	fi
	cat "$err" >&2
	if [ "$status" -ge 2 ]; then
		annotate "$(cat "$err")"
		rm -f "$err"
		exit "$status"
	fi
	rm -f "$err"
}

check() {
	local jl=$bindir/journal-lint
	[ -x "$jl" ] || { echo "::error::journal-lint is not built: run the build step first"; exit 3; }
	local against=${INPUT_AGAINST:-}
	if [ -z "$against" ]; then
		base
	fi
	local -a common=(--against "$against")
	if [ -n "${INPUT_CONFIG:-}" ]; then
		common+=(--config "$INPUT_CONFIG")
	fi
	local -a gate=("${common[@]}") diffargs=("${common[@]}")
	if [ -n "${INPUT_ROOT:-}" ]; then
		diffargs+=(--root "$INPUT_ROOT")
	fi
	case ${INPUT_FAIL_ON:-error} in
	error | none) ;;
	warning) gate+=(--max-warnings 0) ;;
	*)
		echo "::error::fail-on must be error, warning or none, not '${INPUT_FAIL_ON}'"
		exit 2
		;;
	esac
	case ${INPUT_NEW_ONLY:-false} in
	true) gate+=(--new-only) ;;
	false | "") ;;
	*)
		echo "::error::new-only must be true or false, not '${INPUT_NEW_ONLY}'"
		exit 2
		;;
	esac
	local root=()
	if [ -n "${INPUT_ROOT:-}" ]; then
		root=("$INPUT_ROOT")
	fi
	local sarif=${INPUT_SARIF_FILE:-$RUNNER_TEMP/journal-lint/journal-lint.sarif}
	mkdir -p "$(dirname "$sarif")"

	# The SARIF log for code scanning: findings (exit 1) belong in it.
	local status
	judge "$sarif" "$jl" check "${gate[@]}" --format sarif "${root[@]}"
	output sarif "$sarif"

	# Annotations on the pull request's files; journal-lint appends every
	# finding to the step summary itself ($GITHUB_STEP_SUMMARY).
	judge - "$jl" check "${gate[@]}" --format github "${root[@]}"

	# What the revisions added since the merge base change, for the
	# reviewer, appended to the step summary within what the check's own
	# summary left of GitHub's limit; never a failure of its own: the gate
	# is check, which has already reported why a chain cannot be compared
	# (diff exits 2 then).
	if [ "$against" != HEAD ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		"$jl" diff "${diffargs[@]}" --format markdown --step-summary --fail-on none || :
	fi

	if [ "$status" -eq 1 ] && [ "${INPUT_FAIL_ON:-error}" != none ]; then
		output result failed
	else
		output result passed
	fi
}

verdict() {
	if [ "${RESULT:-}" = failed ]; then
		echo "::error::journal-lint found problems (fail-on: ${INPUT_FAIL_ON:-error}); see the annotations and the step summary"
		exit 1
	fi
}

case ${1:-} in
build | check | verdict) "$1" ;;
*)
	echo "usage: $0 build|check|verdict" >&2
	exit 2
	;;
esac
