#!/usr/bin/env bash
# The body of the tfcapi-lint GitHub Action (action.yml calls this script).
# Inputs arrive as INPUT_* environment variables; results go to stdout
# (annotations), $GITHUB_STEP_SUMMARY (via --format github), $GITHUB_OUTPUT
# and, when asked, a SARIF file.
#
#   INPUT_PATH        newline- or space-separated paths (default ".")
#   INPUT_ROLE        cluster | machine | machinepool (default: config or detection)
#   INPUT_RECURSIVE   "true" to lint every module directory under the paths
#   INPUT_FORMAT      report format printed to the log (default github)
#   INPUT_FAIL_ON     error | warning | info | never; empty: the CLI decides
#                     (its exit code, i.e. config fail_on, default error)
#   INPUT_CONFIG      config file (--config)
#   INPUT_SARIF_FILE  also write a SARIF report to this path
#   INPUT_VERSION     empty or "bundled": the CLI from this action's checkout;
#                     otherwise an npm version/tag run through npx
#   INPUT_ARGS        extra arguments, split on whitespace
set -uo pipefail

die() {
  echo "::error title=tfcapi-lint action::$1"
  exit "${2:-3}"
}

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
workspace="${GITHUB_WORKSPACE:-$PWD}"
cd "$workspace" || die "cannot enter the workspace $workspace" 2

version="${INPUT_VERSION:-}"
if [[ -z "$version" || "$version" == "bundled" ]]; then
  [[ -f "$action_path/dist/cli.js" ]] || die "the bundled CLI is not built ($action_path/dist/cli.js is missing): run npm ci && npm run build in the action directory" 2
  cli=(node "$action_path/bin/tfcapi-lint.js")
else
  cli=(npx --yes "tfcapi-lint@$version")
fi

# Paths: one per line (or separated by spaces); blank lines ignored; no
# wildcard expansion (use recursive: true for a tree of modules).
paths=()
set -f
while IFS= read -r line; do
  for word in $line; do paths+=("$word"); done
done <<< "${INPUT_PATH:-.}"
set +f
[[ ${#paths[@]} -gt 0 ]] || paths=(.)

common=()
[[ -n "${INPUT_ROLE:-}" ]] && common+=(--role "$INPUT_ROLE")
case "${INPUT_RECURSIVE:-false}" in
  true | TRUE | True | 1 | yes) common+=(--recursive) ;;
  false | FALSE | False | 0 | no | "") ;;
  *) die "recursive must be true or false, got \"$INPUT_RECURSIVE\"" ;;
esac
[[ -n "${INPUT_CONFIG:-}" ]] && common+=(--config "$INPUT_CONFIG")
if [[ -n "${INPUT_ARGS:-}" ]]; then
  read -r -a extra <<< "$INPUT_ARGS"
  common+=("${extra[@]}")
fi

fail_on="${INPUT_FAIL_ON:-}"
case "$fail_on" in
  "" | error | warning | info | never) ;;
  *) die "fail-on must be error, warning, info or never, got \"$fail_on\"" ;;
esac

format="${INPUT_FORMAT:-github}"
tmp="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tfcapi-lint.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# 1. The counts, from the JSON report (one object per module, or an array).
"${cli[@]}" "${common[@]}" --format json --output-file "$tmp/report.json" -- "${paths[@]}" 2> "$tmp/json.err"
json_status=$?
if [[ $json_status -ge 2 ]]; then
  cat "$tmp/json.err" >&2
  die "tfcapi-lint could not lint ${paths[*]} (exit $json_status)" "$json_status"
fi
counts="$(node -e '
  const docs = [].concat(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")));
  const sum = { error: 0, warning: 0, info: 0 };
  for (const d of docs) for (const k of Object.keys(sum)) sum[k] += d.summary[k];
  process.stdout.write(`${sum.error} ${sum.warning} ${sum.info} ${docs.length}`);
' "$tmp/report.json")" || die "cannot read the JSON report" 2
read -r errors warnings infos modules <<< "$counts"

# 2. The report for the log: annotations and the job summary with "github".
"${cli[@]}" "${common[@]}" --format "$format" -- "${paths[@]}"
status=$?
[[ $status -ge 2 ]] && die "tfcapi-lint failed (exit $status)" "$status"

# 3. SARIF for code scanning.
sarif_file="${INPUT_SARIF_FILE:-}"
if [[ -n "$sarif_file" ]]; then
  mkdir -p "$(dirname "$sarif_file")"
  "${cli[@]}" "${common[@]}" --format sarif --output-file "$sarif_file" -- "${paths[@]}"
  sarif_status=$?
  [[ $sarif_status -ge 2 ]] && die "tfcapi-lint could not write $sarif_file (exit $sarif_status)" "$sarif_status"
fi

if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  {
    echo "findings=$((errors + warnings + infos))"
    echo "errors=$errors"
    echo "warnings=$warnings"
    echo "notices=$infos"
    echo "modules=$modules"
    echo "sarif-file=$sarif_file"
    echo "exit-code=$status"
  } >> "$GITHUB_OUTPUT"
fi

case "$fail_on" in
  "") exit "$status" ;;
  never) exit 0 ;;
  error) [[ $errors -gt 0 ]] && exit 1 ;;
  warning) [[ $((errors + warnings)) -gt 0 ]] && exit 1 ;;
  info) [[ $((errors + warnings + infos)) -gt 0 ]] && exit 1 ;;
esac
exit 0
