#!/usr/bin/env bash
# The Node the suite runs on, found without touching the caller's. node-version takes setup-node's syntax:
# a version or its prefix (20, 20.x, 20.18, v20.18.1), lts/* or lts/<codename>, latest / current / node
# (the newest release); 'runner' or empty: the node already on the runner's PATH. A version is taken from
# the runner's tool cache first (hosted runners keep several there), else from nodejs.org's release index
# and downloaded into $RUNNER_TEMP. Nothing is added to $GITHUB_PATH, so the caller's later steps keep
# their own node. Writes the output `bin` (a directory). Every failure says why in a ::error:: line and
# exits 1 (no set -e: a failing pipeline must reach its message).
set -uo pipefail
MINIMUM=20.18.0
DIST=https://nodejs.org/dist
asked="${INPUT_NODE_VERSION:-}"
asked="$(printf '%s' "$asked" | tr -d '[:space:]')"

fail() {
  echo "::error::node-version '$asked': $*"
  exit 1
}
# True when version $1 (no v) is $MINIMUM or later.
recent_enough() { [ "$(printf '%s\n%s\n' "$MINIMUM" "$1" | sort -V | head -n 1)" = "$MINIMUM" ]; }
done_with() {
  local bin="$1" version
  version="$("$bin/node" --version 2>/dev/null)" || fail "$bin/node does not run"
  recent_enough "${version#v}" || fail "the suite needs Node $MINIMUM or later, $bin/node is $version"
  echo "Node for the suite: $version ($bin)"
  echo "bin=$bin" >> "${GITHUB_OUTPUT:?}"
  exit 0
}

if [ -z "$asked" ] || [ "$asked" = runner ]; then
  node_path="$(command -v node)" || fail "no node on the runner's PATH: name a version (e.g. node-version: 22)"
  done_with "$(dirname "$node_path")"
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no Node build for the machine $(uname -m)" ;;
esac
os="$(uname -s | tr '[:upper:]' '[:lower:]')"

# What was asked: a version prefix (prefix) or a line of the release index (keyword).
prefix=""
keyword=""
case "$asked" in
  latest | current | node) keyword=latest ;;
  lts/\*) keyword=lts ;;
  lts/*) keyword="lts:$(printf '%s' "${asked#lts/}" | tr '[:upper:]' '[:lower:]')" ;;
  *)
    prefix="${asked#v}"
    while [ "${prefix%.x}" != "$prefix" ]; do prefix="${prefix%.x}"; done
    [[ "$prefix" =~ ^[0-9]+(\.[0-9]+){0,2}$ ]] || fail "not a version: use 20, 20.x, 20.18, v20.18.1, lts/*, latest or runner"
    ;;
esac

cached() { # $1 the exact version (no v): its bin directory in the tool cache, if there
  local bin="${RUNNER_TOOL_CACHE:-}/node/$1/$arch/bin"
  if [ -n "${RUNNER_TOOL_CACHE:-}" ] && [ -x "$bin/node" ]; then echo "$bin"; fi
}

matches() { [ "$1" = "$prefix" ] || [ "${1#"$prefix".}" != "$1" ]; }

# A prefix: the newest cached version that matches it and is recent enough.
if [ -n "$prefix" ] && [ -n "${RUNNER_TOOL_CACHE:-}" ] && [ -d "$RUNNER_TOOL_CACHE/node" ]; then
  found=""
  for version in $(ls "$RUNNER_TOOL_CACHE/node" | sort -V); do
    if matches "$version" && recent_enough "$version" && [ -n "$(cached "$version")" ]; then found="$(cached "$version")"; fi
  done
  if [ -n "$found" ]; then done_with "$found"; fi
fi

# The release index, newest first: one "<version> <lts codename or false>" line per release.
index="$(curl -fsSL "$DIST/index.json")" || fail "could not read the release index $DIST/index.json (curl exited $?)"
releases="$(printf '%s' "$index" | tr -d '\n' | grep -oE '\{[^{}]*\}' | sed -nE 's/.*"version": *"v([0-9.]+)".*"lts": *("([^"]*)"|false).*/\1 \3/p')"
[ -n "$releases" ] || fail "the release index $DIST/index.json lists no release"

version=""
while read -r release lts; do
  case "$keyword" in
    latest) version="$release" ;;
    lts) if [ -n "$lts" ]; then version="$release"; fi ;;
    lts:*) if [ "$(printf '%s' "$lts" | tr '[:upper:]' '[:lower:]')" = "${keyword#lts:}" ]; then version="$release"; fi ;;
    *) if matches "$release" && recent_enough "$release"; then version="$release"; fi ;;
  esac
  if [ -n "$version" ]; then break; fi
done <<< "$releases"
[ -n "$version" ] || fail "no Node release (of $MINIMUM or later) in $DIST/index.json matches it"
recent_enough "$version" || fail "it resolves to v$version: the suite needs Node $MINIMUM or later"

if [ -n "$(cached "$version")" ]; then done_with "$(cached "$version")"; fi

dest="${RUNNER_TEMP:?}/animal-store-conformance-node-$version"
mkdir -p "$dest" || fail "cannot create $dest"
url="$DIST/v$version/node-v$version-$os-$arch.tar.xz"
curl -fsSL "$url" | tar -xJ -C "$dest" --strip-components=1 || fail "could not download and unpack $url"
done_with "$dest/bin"
