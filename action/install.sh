#!/usr/bin/env bash
# The suite as the package ships it, in the Action's own directory: npm ci installs every dependency
# (TypeScript among them) and its `prepare` compiles src/ into dist/; then the dev dependencies go. The
# run uses dist/ with the run-time dependencies only: the same JavaScript the packed package runs, so a
# bundle certified here verifies with the installed package of the same commit, and the reverse.
# NODE_BIN is the suite's Node (node.sh), not the caller's.
set -uo pipefail
fail() {
  echo "::error::installing the suite failed: $*"
  exit 1
}
export PATH="$NODE_BIN:$PATH"
npm ci --prefer-offline --no-audit --no-fund --loglevel=error || fail "npm ci exited $?"
[ -f dist/bin/cli.js ] || fail "npm ci left no dist/bin/cli.js (the prepare script did not build)"
npm prune --omit=dev --no-audit --no-fund --loglevel=error || fail "npm prune --omit=dev exited $?"
# npm keeps a dev dependency that a run-time package also names as an optional peer (the lockfile's
# devOptional: tsx and esbuild through vite, @types/node…); an installed package never has them, so they go.
node -e '
const { rmSync } = require("node:fs");
const { packages } = require("./package-lock.json");
for (const [path, entry] of Object.entries(packages)) if (entry.devOptional) rmSync(path, { recursive: true, force: true });
' || fail "could not remove the dev-only packages npm kept"
find node_modules/.bin -xtype l -delete 2> /dev/null || true
