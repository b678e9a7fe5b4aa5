#!/bin/bash
# Installs what the VS Code integration/e2e tests need, from the npm registry and Debian apt only:
#   - Debian packages: chromium (the browser playwright-core drives), ripgrep (stands in for
#     @vscode/ripgrep's GitHub download), libkrb5-dev + pkg-config (code-server's native 'kerberos'
#     module is compiled because its prebuilds live on GitHub), curl (health checks).
#   - code-server (the real VS Code workbench + Node extension host) into a cache dir outside the repo.
#   - the repo's own npm dependencies (playwright-core, @vscode/vsce are devDependencies).
# Idempotent: each step is skipped when its result is already there (a warm run takes ~1 s).
# Env: REPORECALL_CS_DIR (install dir), REPORECALL_CS_VERSION (default 4.100.3 = VS Code 1.100.3,
#      the last code-server whose engines.node is 20), REPORECALL_CS_NODE_DIR (a Node directory,
#      install-node.sh's, to install and build code-server with when its engines.node is newer).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CS_DIR=${REPORECALL_CS_DIR:-$HOME/.cache/reporecall/code-server}
CS_VERSION=${REPORECALL_CS_VERSION:-4.100.3}
t0=$(date +%s)

need_apt=()
for bin_pkg in chromium:chromium rg:ripgrep pkg-config:pkg-config krb5-config:libkrb5-dev curl:curl; do
  command -v "${bin_pkg%%:*}" >/dev/null 2>&1 || need_apt+=("${bin_pkg#*:}")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "apt: installing ${need_apt[*]}"
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need_apt[@]}" >/dev/null
fi

CS_BIN="$CS_DIR/node_modules/.bin/code-server"
installed=$(node -p "try{require('$CS_DIR/node_modules/code-server/package.json').version}catch{''}" 2>/dev/null || true)
if [ "$installed" != "$CS_VERSION" ] || [ ! -x "$CS_BIN" ]; then
  # @vscode/ripgrep's postinstall downloads from GitHub unless its cache already holds the tarball:
  # seed it with Debian's rg (13.0.0, the version code-server 4.100.3's @vscode/ripgrep 1.15.11 pins).
  RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-${RG_PKG_VERSION:-1.15.11}"
  mkdir -p "$RG_CACHE"
  STAGE=$(mktemp -d); cp "$(command -v rg)" "$STAGE/rg"
  tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$STAGE" rg; rm -rf "$STAGE"
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || echo '{"name":"reporecall-code-server","private":true}' > "$CS_DIR/package.json"
  echo "npm: installing code-server@$CS_VERSION into $CS_DIR (about a minute)"
  # Another Node: npm runs under it (code-server's postinstall checks the version npm reports) and
  # node-gyp builds against its headers.
  # unsafe_perm: code-server's postinstall checks it when run as root; yes: node-pty's postinstall runs `npx node-gyp`.
  # Twice at most: a cold install once ended at once with nothing in its log (s24, code-server 4.139.1 on a new
  # machine); the same command a minute later took 73 s and worked.
  cs_install() {
    (cd "$CS_DIR" && if [ -n "${REPORECALL_CS_NODE_DIR:-}" ]; then export PATH="$REPORECALL_CS_NODE_DIR/bin:$PATH" npm_config_nodedir="$REPORECALL_CS_NODE_DIR"; fi
      npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund "code-server@$CS_VERSION" > "$CS_DIR/install.log" 2>&1)
  }
  cs_install || { echo "npm install code-server@$CS_VERSION failed (exit $?), once more:"; tail -40 "$CS_DIR/install.log"; cs_install; } \
    || { tail -40 "$CS_DIR/install.log"; exit 1; }
fi
t1=$(date +%s)

# The repo's own dependencies. onnxruntime-node's postinstall fetches CUDA files from nuget: skip it
# (the CPU binaries are inside the npm tarball).
if [ ! -d "$ROOT/node_modules/playwright-core" ] || [ ! -d "$ROOT/node_modules/@vscode/vsce" ] || [ ! -d "$ROOT/node_modules/hnswlib-node" ]; then
  (cd "$ROOT" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund)
fi
echo "install: code-server@$CS_VERSION at $CS_BIN ($((t1 - t0))s), npm deps ($(( $(date +%s) - t1 ))s)"
