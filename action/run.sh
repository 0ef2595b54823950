#!/usr/bin/env bash
# One run of the suite (or, with INPUT_MERGE_REPORTS, the merge of a matrix of shards) from the Action's
# inputs, and only from them: every input becomes a flag, and the CLI starts with a clean environment
# (env -i: PATH, HOME, the temp directories, the GITHUB_* names its CI output writes to, the keys and
# headers, and the runner's proxy and CA variables) in an empty working directory, so neither the job's
# env (PLAN, ONLY, PROFILE…) nor a .env in the workspace can narrow or change the run. The key travels in
# API_KEY / EXHAUST_API_KEY, the headers in ASC_HEADER, the shard key in ASC_SHARD_KEY, never on a command line. Writes the outputs verdict, gate, gate-reason, report, exit-code and artifact-name; the exit code
# itself is left for the gate step, so the reports are uploaded whatever the verdict.
set -uo pipefail
ws="${GITHUB_WORKSPACE:?}"
report_dir="$ws/${INPUT_REPORT_DIR:-conformance-reports}"
in_ws() { case "$1" in /*) echo "$1" ;; *) echo "$ws/$1" ;; esac; }
is_true() { [ "${1:-}" = "true" ]; }

args=(--report-dir "$report_dir")
if [ -n "${INPUT_MERGE_REPORTS:-}" ]; then
  # The shards' blob/ files, as download-artifact left them (the blob/ folder or the folder above it).
  blobs="$(in_ws "$INPUT_MERGE_REPORTS")"
  if [ -d "$blobs/blob" ]; then blobs="$blobs/blob"; fi
  args+=(--merge-reports "$blobs")
  # The nonce the merge issued its shards: with it, a shard of any other run is refused.
  if [ -n "${INPUT_RUN_NONCE:-}" ]; then args+=(--run-nonce "$INPUT_RUN_NONCE"); fi
else
  if [ -n "${INPUT_TARGET:-}" ]; then args+=(--target "$INPUT_TARGET"); fi
  if [ -n "${INPUT_PROFILE:-}" ]; then args+=(--profile "$INPUT_PROFILE"); fi
  if [ -n "${INPUT_PLAN:-}" ]; then args+=(--plan "$INPUT_PLAN"); fi
  if [ -n "${INPUT_CATEGORY_IDS:-}" ]; then args+=(--category-ids "$INPUT_CATEGORY_IDS"); fi
  if [ -n "${INPUT_RATE_WINDOW:-}" ]; then args+=(--rate-window "$INPUT_RATE_WINDOW"); fi
  seed="${INPUT_SEED:-}"
  # Shards must share a seed: by default the workflow run's id, the same in every matrix job.
  if [ -z "$seed" ] && [ -n "${INPUT_SHARD:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then seed=$((GITHUB_RUN_ID % 2147483647)); fi
  if [ -n "$seed" ]; then args+=("--seed=$seed"); fi
  if [ -n "${INPUT_SHARD:-}" ]; then args+=(--shard "$INPUT_SHARD"); fi
  # Shards of one run share a nonce too, so the merge refuses a shard of another run (or another attempt).
  nonce="${INPUT_RUN_NONCE:-}"
  if [ -z "$nonce" ] && [ -n "${INPUT_SHARD:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then nonce="${GITHUB_RUN_ID}-${GITHUB_RUN_ATTEMPT:-1}"; fi
  if [ -n "$nonce" ]; then args+=(--run-nonce "$nonce"); fi
  if [ -n "${INPUT_MAX_DURATION:-}" ]; then args+=(--max-duration "$INPUT_MAX_DURATION"); fi
  if is_true "${INPUT_READ_ONLY:-}"; then args+=(--read-only); fi
  # How staging is reached: a private CA (a file in the workspace) and, for a self-signed test server, no TLS check.
  if [ -n "${INPUT_CA_CERT:-}" ]; then args+=(--ca-cert "$(in_ws "$INPUT_CA_CERT")"); fi
  if is_true "${INPUT_INSECURE:-}"; then args+=(--insecure); fi
fi
# The gate's own policy: given to a run and to the merge job alike.
if [ -n "${INPUT_BASELINE:-}" ]; then args+=(--baseline "$(in_ws "$INPUT_BASELINE")"); fi
if is_true "${INPUT_STRICT:-}"; then args+=(--strict); fi
# A shard is PARTIAL by construction: the merge job judges completeness (its require-complete is the gate).
if is_true "${INPUT_REQUIRE_COMPLETE:-}" && [ -z "${INPUT_SHARD:-}" ]; then args+=(--require-complete); fi
if [ -n "${INPUT_EXPECTED_DEVIATIONS:-}" ]; then args+=(--expected-deviations "$(in_ws "$INPUT_EXPECTED_DEVIATIONS")"); fi
if [ -n "${INPUT_CERTIFY:-}" ]; then args+=(--certify "$(in_ws "$INPUT_CERTIFY")"); fi
if [ -n "${INPUT_SIGN_KEY:-}" ]; then args+=(--sign-key "$(in_ws "$INPUT_SIGN_KEY")"); fi

# Secrets travel in the environment, never on a command line: the gateway's headers (one per line, each
# value masked in the log first, as the key is) and the proxy, whose URL may hold credentials. Only the
# inputs set them: the job's own ASC_HEADER or ASC_PROXY never reaches the CLI.
ASC_HEADER=""
ASC_PROXY=""
if [ -n "${INPUT_HEADERS:-}" ] && [ -z "${INPUT_MERGE_REPORTS:-}" ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    value="${line#*:}"
    value="${value#"${value%%[![:space:]]*}"}"
    value="${value%"${value##*[![:space:]]}"}"
    if [ -n "$value" ] && [ "$value" != "$line" ]; then echo "::add-mask::$value"; fi
  done <<< "$INPUT_HEADERS"
  ASC_HEADER="$INPUT_HEADERS"
fi
if [ -n "${INPUT_PROXY:-}" ] && [ -z "${INPUT_MERGE_REPORTS:-}" ]; then ASC_PROXY="$INPUT_PROXY"; fi
# The shard key authenticates a shard's reports to the merge: masked first, as the headers are, and only
# the input sets it (a job's own ASC_SHARD_KEY never reaches the CLI).
ASC_SHARD_KEY="${INPUT_SHARD_KEY:-}"
if [ -n "$ASC_SHARD_KEY" ]; then echo "::add-mask::$ASC_SHARD_KEY"; fi
if [ -n "${INPUT_NO_PROXY:-}" ]; then NO_PROXY="$INPUT_NO_PROXY"; fi

# The CLI's whole environment. Empty inputs are not keys: a key variable is set only when given. Of the
# job's environment only what reaches staging passes on: a self-hosted runner's proxy (HTTPS_PROXY,
# HTTP_PROXY, NO_PROXY, either case) and its extra CAs (NODE_EXTRA_CA_CERTS); nothing that could narrow or
# change the run (ASC_*, a PLAN or ONLY of the job's) does.
clean=(PATH="$NODE_BIN:$PATH" HOME="${HOME:-}")
for name in TMPDIR RUNNER_TEMP GITHUB_ACTIONS GITHUB_STEP_SUMMARY API_KEY EXHAUST_API_KEY ASC_HEADER ASC_PROXY ASC_SHARD_KEY \
  HTTPS_PROXY https_proxy HTTP_PROXY http_proxy NO_PROXY no_proxy NODE_EXTRA_CA_CERTS; do
  if [ -n "${!name:-}" ]; then clean+=("$name=${!name}"); fi
done
# An empty working directory: no .env, no config file of the caller's is there to be read.
cwd="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/animal-store-conformance-run.XXXXXX")"
(cd "$cwd" && env -i "${clean[@]}" "$NODE_BIN/node" "${GITHUB_ACTION_PATH:?}/dist/bin/cli.js" "${args[@]}")
code=$?
rmdir "$cwd" 2>/dev/null || true

# verdict=, gate= and gate-reason= (why the gate decided so, the line the console and summary show).
decision=$("$NODE_BIN/node" "${GITHUB_ACTION_PATH:?}/action/gate.mjs" "$report_dir/conformance.json" "$code")
if [ -z "$decision" ]; then decision=$(printf 'verdict=incomplete\ngate=fail\ngate-reason=INCOMPLETE: the gate could not be read (exit %s)' "$code"); fi
# A run that wrote no report said nothing on GitHub yet: say why here (a report's run said it already).
if [ ! -f "$report_dir/conformance.json" ] || ! [[ "$code" =~ ^[012]$ ]]; then
  why="$(printf '%s\n' "$decision" | sed -n 's/^gate-reason=//p')"
  echo "::error title=Gate fail::${why//%/%25}"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then printf '## Animal Store conformance: INCOMPLETE\n\n**Gate: fail** (exit %s): `%s`\n' "$code" "$why" >> "$GITHUB_STEP_SUMMARY"; fi
fi

# Unique per job and matrix entry unless named: the job, the shard, and a digest of what this run tests.
name="${INPUT_ARTIFACT_NAME:-}"
if [ -z "$name" ]; then
  digest=$(printf '%s\n' "${INPUT_TARGET:-}" "${INPUT_PROFILE:-}" "${INPUT_PLAN:-}" "${INPUT_SEED:-}" "${INPUT_READ_ONLY:-}" "${INPUT_STRICT:-}" "${INPUT_CATEGORY_IDS:-}" "${INPUT_RATE_WINDOW:-}" "${INPUT_MERGE_REPORTS:-}" "${INPUT_REPORT_DIR:-}" | sha256sum | cut -c1-8)
  name="animal-store-conformance-${GITHUB_JOB:-job}${INPUT_SHARD:+-shard-$INPUT_SHARD}${INPUT_MERGE_REPORTS:+-merged}-$digest"
fi
# Characters an artifact name may not hold (a shard's "/" among them) become "-".
name=$(printf '%s' "$name" | tr '":<>|*?\\/\r\n' '-----------')

{
  printf '%s\n' "$decision"
  echo "report=$report_dir/conformance.json"
  echo "report-dir=$report_dir"
  echo "exit-code=$code"
  echo "artifact-name=$name"
} >> "${GITHUB_OUTPUT:?}"
exit 0
