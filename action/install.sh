#!/usr/bin/env bash
# The suite's run-time dependencies only (no dev dependencies), from npm's cache when it holds them.
# Runs in the Action's own directory; NODE_BIN is the suite's Node (node.sh), not the caller's.
set -euo pipefail
export PATH="$NODE_BIN:$PATH"
npm ci --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error
