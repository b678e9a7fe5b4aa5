#!/bin/bash
# Every test: set-up, the lint, unit tests (mocha), the VSIX of every platform (built and checked: contents,
# size, links), then the extension in a real VS Code (code-server + chromium), from the development
# folder and installed from the linux-x64 VSIX. The last line is the total as `N passed, M failed`; the exit status is non-zero when
# anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
# The team index tests start a PostgreSQL server of their own (test/unit/team.helpers.ts).
bash scripts/team/install-postgres.sh || { echo "0 passed, 1 failed"; exit 1; }
# The offline test traces the engine process's system calls (test/unit/offline.test.ts).
if ! command -v strace >/dev/null; then
  apt-get install -y -q strace >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q strace >/dev/null; } || { echo "apt-get install strace failed"; echo "0 passed, 1 failed"; exit 1; }
fi
# The bench's protocol N test runs Debian's ripgrep, the agent's search it measures against (test/unit/benchNaturalLanguage.test.ts).
if ! command -v rg >/dev/null; then
  apt-get install -y -q ripgrep >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q ripgrep >/dev/null; } || { echo "apt-get install ripgrep failed"; echo "0 passed, 1 failed"; exit 1; }
fi
# The bench's protocol R test asks Debian's clangd for C definitions over LSP (test/unit/benchResolutionTruth.test.ts).
if ! command -v clangd >/dev/null; then
  apt-get install -y -q clangd >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q clangd >/dev/null; } || { echo "apt-get install clangd failed"; echo "0 passed, 1 failed"; exit 1; }
fi

# The lint and the format check (ESLint with typescript-eslint and @stylistic, eslint.config.mjs): one result;
# any warning fails it. `npm run format` fixes the format.
if npm run --silent lint; then lp=1; lf=0; else lp=0; lf=1; fi

UNIT_SUMMARY=$(mktemp)
npx mocha --reporter test/mocha-summary-reporter.js --reporter-option summaryFile="$UNIT_SUMMARY" 'out/test/unit/**/*.test.js'
unit_status=$?
read -r up uf < "$UNIT_SUMMARY" || { up=0; uf=1; }

# One result per target: package.sh checks each VSIX it builds (scripts/vscode/targets.cjs checkVsix).
PKG_LOG=$(mktemp)
npm run --silent package -- --target all 2>&1 | tee "$PKG_LOG"
pkg_status=${PIPESTATUS[0]}
pp=$(grep -cE '^reporecall-[^ ]+\.vsix: [0-9]+ MB' "$PKG_LOG")
pf=$(( $(node scripts/vscode/targets.cjs targets | wc -w) - pp ))
if [ "$pkg_status" -ne 0 ] && [ "$pf" -le 0 ]; then pf=1; fi
VSIX_LINUX=$(grep -oE '^reporecall-[^ :]+-linux-x64\.vsix' "$PKG_LOG" | tail -1)

INT_LOG=$(mktemp)
# The UI test runs again on the linux-x64 VSIX installed as a user installs it (none: that suite fails).
WITH_VSIX=1 VSIX=${VSIX_LINUX:-missing-linux-x64.vsix} npm run --silent test:integration 2>&1 | tee "$INT_LOG"
int_status=${PIPESTATUS[0]}
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$INT_LOG" | tail -1)
ip=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); ip=${ip:-0}
if_=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/'); if_=${if_:-0}
if [ "$int_status" -ne 0 ] && [ "$if_" -eq 0 ]; then if_=1; fi

echo "lint: $lp passed, $lf failed; unit: $up passed, $uf failed; package: $pp passed, $pf failed; integration: $ip passed, $if_ failed"
echo "$((lp + up + pp + ip)) passed, $((lf + uf + pf + if_)) failed"
[ "$lf" -eq 0 ] && [ "$unit_status" -eq 0 ] && [ "$pkg_status" -eq 0 ] && [ "$int_status" -eq 0 ]
