// Copies the tree-sitter runtime and the grammar .wasm files the chunker uses from their npm
// packages into grammars/wasm/ (gitignored: ~12 MB of binaries that npm already pins by version;
// the VSIX packs grammars/ so the extension finds them next to dist/).
// Runs on `npm install` (postinstall) and via `npm run grammars`.
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const outDir = join(root, 'grammars', 'wasm');

function packageDir(name) {
  return dirname(require.resolve(`${name}/package.json`));
}

// Microsoft's grammars (the ones VS Code itself ships) wherever they exist; C is not among them,
// so it comes from tree-sitter-wasms. All load with web-tree-sitter 0.25 (ABI 14/15).
const vscodeWasm = join(packageDir('@vscode/tree-sitter-wasm'), 'wasm');
const treeSitterWasms = join(packageDir('tree-sitter-wasms'), 'out');
const sources = [
  // [file name in grammars/wasm, source directory, file name there]
  // web-tree-sitter's package.json is not exported; its runtime wasm is.
  ['tree-sitter.wasm', dirname(require.resolve('web-tree-sitter/tree-sitter.wasm')), 'tree-sitter.wasm'],
  ['tree-sitter-typescript.wasm', vscodeWasm, 'tree-sitter-typescript.wasm'],
  ['tree-sitter-tsx.wasm', vscodeWasm, 'tree-sitter-tsx.wasm'],
  ['tree-sitter-javascript.wasm', vscodeWasm, 'tree-sitter-javascript.wasm'],
  ['tree-sitter-python.wasm', vscodeWasm, 'tree-sitter-python.wasm'],
  ['tree-sitter-go.wasm', vscodeWasm, 'tree-sitter-go.wasm'],
  ['tree-sitter-java.wasm', vscodeWasm, 'tree-sitter-java.wasm'],
  ['tree-sitter-rust.wasm', vscodeWasm, 'tree-sitter-rust.wasm'],
  ['tree-sitter-cpp.wasm', vscodeWasm, 'tree-sitter-cpp.wasm'],
  ['tree-sitter-c.wasm', treeSitterWasms, 'tree-sitter-c.wasm'],
];

mkdirSync(outDir, { recursive: true });
let copied = 0;
for (const [target, dir, file] of sources) {
  const from = join(dir, file);
  const to = join(outDir, target);
  if (!existsSync(from)) {
    console.error(`copy-grammars: missing ${from} (is the package installed?)`);
    process.exitCode = 1;
    continue;
  }
  if (existsSync(to) && statSync(to).size === statSync(from).size && statSync(to).mtimeMs >= statSync(from).mtimeMs) continue;
  copyFileSync(from, to);
  copied++;
}
console.log(`copy-grammars: ${copied} file(s) copied, ${sources.length - copied} up to date in ${outDir}`);
