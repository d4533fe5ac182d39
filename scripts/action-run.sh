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
#   GITHUB_BASE_REF (set for pull requests)
#   INPUT_ROOT       Journal root ("" = the configuration's root, else journals/)
#   INPUT_CONFIG     configuration file ("" = .journal-lint.yaml found as usual)
#   INPUT_AGAINST    revision to compare with through its merge base with HEAD
#                    ("" = origin/$GITHUB_BASE_REF for pull requests, else HEAD)
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

check() {
	local jl=$bindir/journal-lint
	[ -x "$jl" ] || { echo "::error::journal-lint is not built: run the build step first"; exit 3; }
	local against=${INPUT_AGAINST:-}
	if [ -z "$against" ]; then
		if [ -n "${GITHUB_BASE_REF:-}" ]; then
			against=origin/$GITHUB_BASE_REF
		else
			# A push: the same gate against the pushed commit itself, so
			# code scanning has a baseline whose fingerprints match the
			# pull requests' (docs/ci.md, "Fingerprints").
			against=HEAD
		fi
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
	local status=0
	"$jl" check "${gate[@]}" --format sarif "${root[@]}" >"$sarif" || status=$?
	if [ "$status" -ge 2 ]; then
		exit "$status"
	fi
	output sarif "$sarif"

	# Annotations on the pull request's files; journal-lint appends every
	# finding to the step summary itself ($GITHUB_STEP_SUMMARY).
	status=0
	"$jl" check "${gate[@]}" --format github "${root[@]}" || status=$?
	if [ "$status" -ge 2 ]; then
		exit "$status"
	fi

	# What the revisions added since the merge base change, for the
	# reviewer; never a failure of its own: the gate is check, which has
	# already reported why a chain cannot be compared (diff exits 2 then).
	if [ "$against" != HEAD ]; then
		"$jl" diff "${diffargs[@]}" --format markdown --fail-on none >>"${GITHUB_STEP_SUMMARY:-/dev/null}" || :
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
