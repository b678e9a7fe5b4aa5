// One VSIX per platform: which native files each vsce `--target` ships, the .vscodeignore that
// `scripts/vscode/package.sh` hands to vsce for it, and the check of a VSIX's file list (the same
// function checks the VSIX package.sh built and, in test/unit/packaging.test.ts, the list vsce's
// own listFiles() computes for every target without building it).
//
// onnxruntime-node picks its binary at require time by process.platform/process.arch
// (`bin/napi-v6/<platform>/<arch>/onnxruntime_binding.node`, dist/binding.js), and it stays
// external to the esbuild bundle (esbuild.config.mjs), so each VSIX needs that one directory and
// nothing of the others. .vscodeignore drops all of `onnxruntime-node/bin/**`; the per-target
// ignore file appends negations (`!path`) for the target's files, which vsce applies after every
// ignore pattern.
//
// CLI (used by package.sh):
//   node scripts/vscode/targets.cjs ignore-file TARGET OUT_FILE   writes the target's ignore file
//   node scripts/vscode/targets.cjs check TARGET VSIX              checks a built VSIX: its files,
//                                                                  its size, its Markdown's links
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { readVsix } = require('./vsixFile.cjs');
const { deadLinks } = require('./vsixMarkdown.cjs');

const ROOT = path.resolve(__dirname, '..', '..');
const MB = 1024 * 1024;
const ORT_BIN = 'node_modules/onnxruntime-node/bin';

/**
 * The native files each target ships, relative to onnxruntime-node's `bin/napi-v<N>/<platform>/<arch>/`.
 * Only what the CPU execution provider loads (the engine asks for ['cpu'] only):
 * - darwin: the binding links `@rpath/libonnxruntime.1.dylib`; `libonnxruntime.1.30.0.dylib` is a
 *   byte-identical copy (npm keeps no symlinks) and is left out (12 MB compressed).
 * - win32: the binding imports onnxruntime.dll; DirectML.dll is only delay-loaded by the DirectML
 *   provider, dxcompiler.dll/dxil.dll only loaded by the WebGPU provider: both left out (17 MB).
 * `noRuntime`: the target has no onnxruntime binary to ship (why, in words). Its VSIX holds no
 * native file at all and no model (nothing could run it there): the engine finds no binding,
 * opens with the dense signal off and says so once (engine/src/embed/onnxRuntime.ts,
 * IndexStats.modelWarning). onnxruntime-node's JavaScript stays in, so the reason the engine
 * gives names the missing binding rather than a missing package.

 * `maxMB`: the VSIX's size bound, 2-3 MB over what it measured (0.1.0 with onnxruntime-node 1.30.0:
 * linux-x64 25.8, darwin-arm64 21.2, win32-x64 18.9, linux-arm64 18.7, darwin-x64 1.5 MB). Every
 * VSIX with a runtime holds 8.7 MB compressed of the same files (model 7.2, grammars 1.2, dist/
 * 0.2, JavaScript 0.1) plus its runtime (17.2, 12.5, 10.2, 10.0 MB in the order above). The
 * headroom leaves room for a grammar or two and dist/ growing, and is less than any packaging slip
 * adds: a second copy of the model (7.2 MB), another platform's runtime (10 MB or more), the
 * versioned copy of the darwin dylib (12 MB), the benchmark's reference model (~3.5 MB).
 */
const TARGETS = {
  'linux-x64': { dir: 'linux/x64', natives: ['onnxruntime_binding.node', 'libonnxruntime.so.1'], maxMB: 28 },
  'linux-arm64': { dir: 'linux/arm64', natives: ['onnxruntime_binding.node', 'libonnxruntime.so.1'], maxMB: 21 },
  'darwin-arm64': { dir: 'darwin/arm64', natives: ['onnxruntime_binding.node', 'libonnxruntime.1.dylib'], maxMB: 24 },
  'darwin-x64': {
    dir: 'darwin/x64',
    natives: [],
    maxMB: 4,
    noRuntime:
      'onnxruntime-node ships no darwin/x64 (Intel Mac) binary since 1.24.0 (1.23.2 is the last one with it); ' +
      'on Intel Macs RepoRecall runs with the lexical and symbol signals only',
  },
  'win32-x64': { dir: 'win32/x64', natives: ['onnxruntime_binding.node', 'onnxruntime.dll'], maxMB: 21 },
};
const DEFAULT_TARGET = 'linux-x64';

/** Files any VSIX must hold (paths inside the VSIX's `extension/` folder). */
const REQUIRED = [
  'package.json',
  'readme.md',
  'LICENSE.txt',
  'dist/THIRD_PARTY_NOTICES.txt',
  'dist/extension.js',
  'dist/worker.js',
  'dist/mcp.js',
  'grammars/wasm/tree-sitter.wasm',
  'grammars/wasm/tree-sitter-typescript.wasm',
  'grammars/wasm/tree-sitter-python.wasm',
  'grammars/queries/typescript.scm',
  'node_modules/onnxruntime-node/dist/binding.js',
  'node_modules/onnxruntime-common/dist/cjs/index.js',
  'node_modules/web-tree-sitter/tree-sitter.cjs',
  'node_modules/web-tree-sitter/tree-sitter.wasm',
];

/** The shipped embedding model: in every VSIX with a runtime to run it, in none without. */
const MODEL = ['models/reporecall-code/model.onnx', 'models/reporecall-code/tokenizer.json'];

/** The packages a VSIX may hold under node_modules/: esbuild's externals and what they require at runtime. */
const RUNTIME_PACKAGES = ['onnxruntime-node', 'onnxruntime-common', 'web-tree-sitter'];

/** A native code file of any platform (a Node addon or a shared library). */
const NATIVE = /\.node$|\.so(\.\d+)*$|\.dylib$|\.dll$/i;

/** What no VSIX may hold, whatever its target: [pattern, what it is]. */
const JUNK = [
  [/\.map$/, 'a source map'],
  [/\.[cm]?ts$/, 'TypeScript source or declarations'],
  [/\.(c|cc|cpp|h|hpp)$/, 'C/C++ source'],
  [/(^|\/)(test|tests|__tests__|spec|fixtures|examples?|benchmarks?)\//, 'a test, fixture or example'],
  [/^(\.bench-out|test-output|out|\.cache|scripts|engine|extension\/src|training)\//, 'sources, tooling or build and bench output'],
  [/\.vsix$/, 'another VSIX'],
  [/(^|\/)\.[^/]/, 'a hidden file'],
  [/^node_modules\/.*\.md$/i, "a package's documentation"],
];

function spec(target) {
  const t = TARGETS[target];
  if (!t) throw new Error(`unknown target "${target}" (one of ${Object.keys(TARGETS).join(', ')})`);
  return t;
}

/** onnxruntime-node's `bin/napi-v<N>` folder(s) as installed (the N-API version is the package's). */
function napiDirs(root = ROOT) {
  const bin = path.join(root, ORT_BIN);
  return fs.readdirSync(bin).filter((d) => /^napi-v\d+$/.test(d)).map((d) => `${ORT_BIN}/${d}`);
}

/** Paths (relative to the repository root) of the native files `target` ships. */
function nativeFiles(target, root = ROOT) {
  const t = spec(target);
  return napiDirs(root).flatMap((d) => t.natives.map((f) => `${d}/${t.dir}/${f}`));
}

/**
 * The text of the ignore file vsce gets for `target`: .vscodeignore plus the target's natives, or,
 * for a target without a runtime, plus the model. Throws when the installed onnxruntime-node lacks
 * a target's natives, or has a binary for a `noRuntime` target (then it should be shipped).
 */
function ignoreFileText(target, root = ROOT) {
  const t = spec(target);
  const base = `${fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').trimEnd()}\n\n${bundledIgnoreLines(root)}`;
  if (t.noRuntime) {
    const found = napiDirs(root).map((d) => `${d}/${t.dir}`).filter((d) => fs.existsSync(path.join(root, d)));
    if (found.length) throw new Error(`${target}: the installed onnxruntime-node has ${found.join(', ')} now: give ${target} its natives in scripts/vscode/targets.cjs instead of noRuntime`);
    return `${base}\n\n# ${target}: no onnxruntime binary exists for it, so no model either (scripts/vscode/targets.cjs)\nmodels/**\n`;
  }
  const files = nativeFiles(target, root);
  for (const f of files) {
    if (!fs.existsSync(path.join(root, f))) throw new Error(`${target}: ${f} is missing from the installed onnxruntime-node`);
  }
  return `${base}\n\n# ${target}: its own native binaries only (scripts/vscode/targets.cjs)\n${files.map((f) => `!${f}`).join('\n')}\n`;
}

/**
 * Every production package other than the runtime externals, left out: esbuild bundled what dist/
 * needs of them (the MCP SDK and its dependencies for dist/mcp.js, pg for the CLI), and vsce would
 * otherwise pack each production dependency's whole tree. Read from package-lock.json.
 */
function bundledIgnoreLines(root) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const names = Object.entries(lock.packages ?? {})
    .filter(([key, p]) => key.startsWith('node_modules/') && !key.slice('node_modules/'.length).includes('/node_modules/') && !p.dev)
    .map(([key]) => key.slice('node_modules/'.length))
    .filter((name) => !RUNTIME_PACKAGES.includes(name))
    .sort();
  return `# Production packages bundled into dist/ by esbuild (scripts/vscode/targets.cjs bundledIgnoreLines)\n${names.map((n) => `node_modules/${n}/**`).join('\n')}`;
}

/** Writes the target's ignore file to `out` and returns `out`. */
function writeIgnoreFile(target, out, root = ROOT) {
  fs.writeFileSync(out, ignoreFileText(target, root));
  return out;
}

/**
 * The files vsce packs for `target` (paths relative to the extension root), computed by vsce's own
 * listFiles() (the collectFiles() `vsce package` uses) with the target's ignore file.
 */
async function listTargetFiles(target, root = ROOT) {
  const vsce = require(require.resolve('@vscode/vsce', { paths: [root] }));
  const os = require('node:os');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-vscodeignore-'));
  try {
    const ignoreFile = writeIgnoreFile(target, path.join(tmp, '.vscodeignore'), root);
    return await vsce.listFiles({ cwd: root, packageManager: vsce.PackageManager.Npm, ignoreFile });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * `files` (listTargetFiles) as vsce names them in the VSIX: it packs the README and CHANGELOG as
 * readme.md and changelog.md, and a LICENSE without an extension as LICENSE.txt.
 */
function asPackaged(files) {
  const renamed = { 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' };
  return files.map((f) => renamed[f] ?? f);
}

/**
 * What is wrong with a VSIX for `target` holding `files` (paths relative to the extension root,
 * i.e. without the VSIX's `extension/` prefix); empty when nothing is.
 */
function checkFiles(target, files, root = ROOT) {
  const problems = [];
  const have = new Set(files);
  for (const f of REQUIRED) if (!have.has(f)) problems.push(`missing ${f}`);
  if (spec(target).noRuntime) {
    // No runtime to run it: the model would be dead weight (and a promise the VSIX cannot keep).
    for (const f of files) if (f.startsWith('models/')) problems.push(`holds ${f}, but ${target} has no ONNX runtime to run a model`);
  } else {
    for (const f of MODEL) if (!have.has(f)) problems.push(`missing ${f}`);
  }
  const own = new Set(nativeFiles(target, root));
  for (const f of own) if (!have.has(f)) problems.push(`missing its native ${f}`);
  const extra = new Set();
  for (const f of files) {
    if (NATIVE.test(f) && !own.has(f)) problems.push(`holds a native file that is not ${target}'s: ${f}`);
    const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
    if (pkg && !RUNTIME_PACKAGES.includes(pkg[1])) extra.add(pkg[1]);
  }
  for (const p of extra) problems.push(`holds node_modules/${p}, not needed at runtime (add it to .vscodeignore)`);
  for (const f of files) {
    const junk = JUNK.find(([re]) => re.test(f));
    if (junk) problems.push(`holds ${f}: ${junk[1]}, not needed at runtime (add it to .vscodeignore)`);
  }
  return problems;
}

/** The licences of the third-party code the VSIX carries (esbuild.config.mjs writes it). */
const NOTICES = 'dist/THIRD_PARTY_NOTICES.txt';

/** Markdown a VSIX shows or ships (readme.md, changelog.md, the model card), whose links must resolve. */
const isShippedMarkdown = (f) => f.endsWith('.md') && !f.startsWith('node_modules/');

/**
 * What is wrong with the built VSIX `vsix` for `target`: its files (checkFiles), its size against
 * the target's bound, every dead link in its Markdown (vsixMarkdown.cjs deadLinks), and a licence
 * notice for each runtime package it ships (dist/THIRD_PARTY_NOTICES.txt). Empty when nothing is.
 */
async function checkVsix(target, vsix, root = ROOT) {
  const { files, texts } = await readVsix(vsix, (f) => isShippedMarkdown(f) || f === NOTICES);
  const problems = checkFiles(target, files, root);
  const size = fs.statSync(vsix).size;
  const { maxMB } = spec(target);
  if (size > maxMB * MB) problems.push(`${(size / MB).toFixed(1)} MB is over ${target}'s ${maxMB} MB bound (scripts/vscode/targets.cjs says why that number)`);
  for (const [file, text] of texts) if (isShippedMarkdown(file)) problems.push(...(await deadLinks(file, text, files)));
  const notices = texts.get(NOTICES) ?? '';
  for (const p of RUNTIME_PACKAGES) if (!notices.includes(`\n${p} `)) problems.push(`${NOTICES} has no notice for ${p}, which the VSIX ships`);
  return problems;
}

module.exports = { TARGETS, DEFAULT_TARGET, MB, REQUIRED, MODEL, RUNTIME_PACKAGES, NATIVE, JUNK, nativeFiles, ignoreFileText, writeIgnoreFile, listTargetFiles, asPackaged, checkFiles, checkVsix };

if (require.main === module) {
  const [cmd, target, arg] = process.argv.slice(2);
  const fail = (e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  };
  try {
    if (cmd === 'ignore-file' && target && arg) {
      writeIgnoreFile(target, arg);
    } else if (cmd === 'check' && target && arg) {
      checkVsix(target, arg).then((problems) => {
        if (problems.length) fail(`${arg}:\n  ${problems.join('\n  ')}`);
      }, fail);
    } else if (cmd === 'targets') {
      console.log(Object.keys(TARGETS).join(' '));
    } else {
      console.error('usage: node scripts/vscode/targets.cjs ignore-file TARGET OUT_FILE | check TARGET VSIX | targets');
      process.exit(2);
    }
  } catch (e) {
    fail(e);
  }
}
