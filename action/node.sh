#!/usr/bin/env bash
# The Node the suite runs on, found without touching the caller's: the runner's tool cache first (hosted
# runners keep several versions there), else a download into $RUNNER_TEMP. Nothing is added to
# $GITHUB_PATH, so the caller's later steps keep their own node. Writes the output `bin` (a directory).
set -euo pipefail
want="${INPUT_NODE_VERSION:-24}"
want="${want#v}"

case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "::error::no Node build for $(uname -m)"; exit 1 ;; esac

found=""
if [ -n "${RUNNER_TOOL_CACHE:-}" ] && [ -d "$RUNNER_TOOL_CACHE/node" ]; then
  # The newest cached version whose major (or major.minor, or full version) matches.
  for version in $(ls "$RUNNER_TOOL_CACHE/node" | sort -V); do
    case "$version" in
      "$want" | "$want".*) if [ -x "$RUNNER_TOOL_CACHE/node/$version/$arch/bin/node" ]; then found="$RUNNER_TOOL_CACHE/node/$version/$arch/bin"; fi ;;
    esac
  done
fi

if [ -z "$found" ]; then
  os="$(uname -s | tr '[:upper:]' '[:lower:]')"
  # The newest release of that line, from the release index.
  version="$(curl -fsSL https://nodejs.org/dist/index.json | grep -oE "\"version\":\"v${want//./\\.}(\\.[0-9]+)*\"" | head -n 1 | cut -d'"' -f4)"
  [ -n "$version" ] || { echo "::error::no Node release matches node-version '$want'"; exit 1; }
  dest="${RUNNER_TEMP:?}/animal-store-conformance-node"
  mkdir -p "$dest"
  curl -fsSL "https://nodejs.org/dist/$version/node-$version-$os-$arch.tar.xz" | tar -xJ -C "$dest" --strip-components=1
  found="$dest/bin"
fi

echo "Node for the suite: $("$found/node" --version) ($found)"
echo "bin=$found" >> "$GITHUB_OUTPUT"
