#!/usr/bin/env node
// The CLI entry: the compiled TypeScript lives in out/ (npm run compile) or dist/ (bundle).
const path = require('path');
const fs = require('fs');
const candidates = [path.join(__dirname, '../dist/cli.js'), path.join(__dirname, '../out/engine/src/cli.js')];
const entry = candidates.find((p) => fs.existsSync(p));
if (!entry) {
  console.error('reporecall: not built yet; run `npm run compile` first');
  process.exit(2);
}
require(entry).main(process.argv.slice(2)).then((code) => process.exit(code ?? 0), (err) => {
  console.error(`reporecall: ${err && err.message ? err.message : err}`);
  process.exit(1);
});
