// Bundles the extension host entry and the engine worker into dist/.
//   dist/extension.js  <- extension/src/extension.ts   (runs on the extension host)
//   dist/worker.js     <- engine/src/rpc/worker.ts      (the engine, in a child process or worker thread)
//   dist/mcp.js        <- engine/src/mcp/bin.ts         (the MCP server VS Code runs: the MCP SDK bundled in)
// Kept external (resolved from node_modules at runtime, packed into the VSIX by vsce):
//   vscode (provided by the host); onnxruntime-node (native .node binaries);
//   web-tree-sitter (loads its runtime wasm relative to itself unless told otherwise).
// Grammars (grammars/wasm, grammars/queries) and the model (models/) are not bundled: the
// extension passes their directories to the worker (see extension/src/ctx.ts).
// Every build also writes dist/THIRD_PARTY_NOTICES.txt (scripts/vscode/notices.cjs) from the
// bundle's metafile, the runtime externals and the grammar packages.
// Usage: node esbuild.config.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { RUNTIME_PACKAGES } = require('./scripts/vscode/targets.cjs');
const { bundledPackageDirs, installedDir, thirdPartyNotices } = require('./scripts/vscode/notices.cjs');
/** Packages the VSIX carries files copied from (scripts/copy-grammars.mjs). */
const GRAMMAR_PACKAGES = ['@vscode/tree-sitter-wasm', 'tree-sitter-wasms'];

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  external: ['vscode', 'onnxruntime-node', 'web-tree-sitter'],
  logLevel: 'info',
  metafile: true,
};

const builds = [
  { ...common, entryPoints: { extension: 'extension/src/extension.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { worker: 'engine/src/rpc/worker.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { mcp: 'engine/src/mcp/bin.ts' }, outdir: 'dist' },
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  const dirs = [...results.flatMap((r) => bundledPackageDirs(r.metafile)), ...[...RUNTIME_PACKAGES, ...GRAMMAR_PACKAGES].map(installedDir)];
  writeFileSync('dist/THIRD_PARTY_NOTICES.txt', thirdPartyNotices(process.cwd(), dirs));
}
