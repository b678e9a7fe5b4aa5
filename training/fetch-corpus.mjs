// Builds the training corpus from code the package registries provide:
//  - npm: `npm pack NAME@VERSION` (tarball only, no install scripts) → TypeScript/JavaScript sources;
//  - Debian: Python sources of installed python3-* packages and the Python standard library.
// Everything matching the benchmark deny-list is dropped, and each drop is printed.
// Output: $CACHE/corpus.jsonl (one {source, license, lang, path, text} per file) and
//         $CACHE/corpus-manifest.json (per-source counts, exclusions).
// Options (environment):
//   REPORECALL_TRAIN_CACHE  scratch directory outside the repository (default ~/.cache/reporecall-train)
//   REPORECALL_DENYLIST     deny-list file (default /work/shared/bench/train-denylist.txt)
//   REPORECALL_CORPUS_SOURCES  sources file (default training/corpus-sources.json). With another file
//                           (heldout-sources.json: projects for a held-out validation split), every
//                           package that is also a training source is excluded, and printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cacheDir = process.env.REPORECALL_TRAIN_CACHE || path.join(os.homedir(), '.cache', 'reporecall-train');
const denyFile = process.env.REPORECALL_DENYLIST || '/work/shared/bench/train-denylist.txt';
const trainingSourcesFile = path.join(here, 'corpus-sources.json');
const sourcesFile = path.resolve(process.env.REPORECALL_CORPUS_SOURCES || trainingSourcesFile);
const sources = JSON.parse(fs.readFileSync(sourcesFile, 'utf8'));
// A held-out corpus must share no package with the training corpus.
const trainingSources = JSON.parse(fs.readFileSync(trainingSourcesFile, 'utf8'));
const trainingPackages = sourcesFile === trainingSourcesFile ? new Set() : new Set([
  ...trainingSources.npm.map((spec) => `npm:${spec.slice(0, spec.lastIndexOf('@'))}`),
  ...trainingSources.debian.map((d) => `debian:${d.package}`),
]);

const MAX_FILE_BYTES = 512 * 1024;
const PERMISSIVE = /^(MIT|Apache-2\.0|BSD-2-Clause|BSD-3-Clause|PSF-2\.0|Python-2\.0)$/i;
// Folders that hold duplicate builds (ESM/UMD copies of the same code) or vendored third-party code.
const DUPLICATE_BUILD_DIRS = new Set(['umd', 'bundles', 'min', 'browser', 'esm', 'es', 'mjs', 'module', 'esm5', 'esm2015', 'fesm2015', 'fesm2020', 'node_modules']);

const denyPatterns = fs.readFileSync(denyFile, 'utf8').split('\n')
  .map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
  .map((p) => ({ pattern: p, re: new RegExp('^' + p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + '$', 'i') }));
const deniedBy = (name) => denyPatterns.find((d) => d.re.test(name))?.pattern;

const excluded = [];
function exclude(what, reason) {
  excluded.push({ what, reason });
  console.log(`EXCLUDED ${what}: ${reason}`);
}

/** A path is denied when any folder name, or the file's base name without extension, is on the deny-list. */
function deniedPath(rel) {
  const parts = rel.split('/');
  parts[parts.length - 1] = parts[parts.length - 1].replace(/\.[^.]+$/, '');
  for (const p of parts) { const d = deniedBy(p); if (d) return d; }
  return undefined;
}

function walk(dir, skipTop = [], rel = '') {
  const out = [];
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${ent.name}` : ent.name;
    if (ent.isDirectory()) {
      if (!rel && skipTop.includes(ent.name)) continue;
      if (ent.name === '__pycache__' || ent.name.startsWith('.')) continue;
      out.push(...walk(path.join(dir, ent.name), skipTop, r));
    } else if (ent.isFile()) out.push(r);
  }
  return out;
}

/** Minified or generated files teach nothing about how people write code. */
function looksMinified(text) {
  const lines = text.split('\n');
  return lines.some((l) => l.length > 2000) || text.length / Math.max(1, lines.length) > 200;
}

const seen = new Set();
fs.mkdirSync(cacheDir, { recursive: true });
const out = fs.createWriteStream(path.join(cacheDir, 'corpus.jsonl.tmp'), { flags: 'w' });
const manifest = { npm: [], debian: [], excluded, denylist: denyFile };

function emit(source, license, lang, rel, text) {
  const h = crypto.createHash('sha1').update(text).digest('hex');
  if (seen.has(h)) return false;
  seen.add(h);
  out.write(JSON.stringify({ source, license, lang, path: rel, text }) + '\n');
  return true;
}

function readCode(file) {
  const st = fs.statSync(file);
  if (st.size > MAX_FILE_BYTES || st.size === 0) return undefined;
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes('\uFFFD') || looksMinified(text)) return undefined;
  return text;
}

// ---- npm ----
const tarDir = path.join(cacheDir, 'npm-tarballs');
const pkgDir = path.join(cacheDir, 'npm');
fs.mkdirSync(tarDir, { recursive: true });
fs.mkdirSync(pkgDir, { recursive: true });
for (const spec of sources.npm) {
  const at = spec.lastIndexOf('@');
  const name = spec.slice(0, at);
  const d = deniedBy(name) ?? (name.startsWith('@') ? deniedBy(name.split('/')[1]) : undefined);
  if (d) { exclude(`npm ${spec}`, `deny-list pattern "${d}"`); continue; }
  if (trainingPackages.has(`npm:${name}`)) { exclude(`npm ${spec}`, 'a training source'); continue; }
  const dest = path.join(pkgDir, name.replace('/', '__'));
  if (!fs.existsSync(path.join(dest, 'package', 'package.json'))) {
    const packed = JSON.parse(execFileSync('npm', ['pack', spec, '--json', '--pack-destination', tarDir], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'inherit'] }));
    fs.mkdirSync(dest, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(tarDir, packed[0].filename), '-C', dest]);
  }
  const root = path.join(dest, 'package');
  const license = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).license;
  if (typeof license !== 'string' || !PERMISSIVE.test(license)) { exclude(`npm ${spec}`, `licence ${JSON.stringify(license)} not in the permissive list`); continue; }
  const all = walk(root).filter((f) => !f.split('/').includes('node_modules'));
  const ts = all.filter((f) => /\.(ts|tsx|mts|cts)$/.test(f) && !/\.d\.[mc]?ts$/.test(f));
  let chosen;
  if (ts.length >= 5) chosen = ts; // the package ships its TypeScript sources: the JS builds are copies
  else {
    const js = all.filter((f) => /\.(js|mjs|cjs)$/.test(f) && !/\.min\.js$/.test(f));
    const primary = js.filter((f) => !f.split('/').slice(0, -1).some((s) => DUPLICATE_BUILD_DIRS.has(s)));
    chosen = primary.length ? primary : js;
  }
  let files = 0, bytes = 0;
  for (const rel of chosen) {
    const dp = deniedPath(rel);
    if (dp) { exclude(`npm ${spec}/${rel}`, `path matches deny-list pattern "${dp}"`); continue; }
    const text = readCode(path.join(root, rel));
    if (text === undefined) continue;
    const lang = /\.(ts|tsx|mts|cts)$/.test(rel) ? 'typescript' : 'javascript';
    if (emit(`npm:${name}`, license, lang, `${name}/${rel}`, text)) { files++; bytes += text.length; }
  }
  manifest.npm.push({ spec, license, files, bytes });
  console.log(`npm ${spec} (${license}): ${files} files, ${(bytes / 1e6).toFixed(2)} MB`);
}

// ---- Debian Python ----
for (const src of sources.debian) {
  const d = deniedBy(src.package) ?? deniedBy(path.basename(src.root));
  if (d) { exclude(`debian ${src.package}`, `deny-list pattern "${d}"`); continue; }
  if (trainingPackages.has(`debian:${src.package}`)) { exclude(`debian ${src.package}`, 'a training source'); continue; }
  try { execFileSync('dpkg', ['-s', src.package], { stdio: 'ignore' }); } catch {
    exclude(`debian ${src.package}`, `not installed (apt-get install -y ${src.package})`); continue;
  }
  if (!PERMISSIVE.test(src.license)) { exclude(`debian ${src.package}`, `licence ${src.license} not permissive`); continue; }
  const copyright = `/usr/share/doc/${src.package}/copyright`;
  const family = src.license.split('-')[0];
  if (fs.existsSync(copyright) && !new RegExp(family === 'MIT' ? 'MIT|Expat' : family === 'PSF' ? 'PSF|Python' : family, 'i').test(fs.readFileSync(copyright, 'utf8'))) {
    exclude(`debian ${src.package}`, `${copyright} does not mention ${src.license}`); continue;
  }
  let files = 0, bytes = 0;
  for (const rel of walk(src.root, src.skip ?? []).filter((f) => f.endsWith('.py'))) {
    const full = `${path.basename(src.root)}/${rel}`;
    const dp = deniedPath(full);
    if (dp) { exclude(`debian ${src.package}:${full}`, `path matches deny-list pattern "${dp}"`); continue; }
    let text;
    try { text = readCode(path.join(src.root, rel)); } catch { continue; }
    if (text === undefined) continue;
    if (emit(`debian:${src.package}`, src.license, 'python', full, text)) { files++; bytes += text.length; }
  }
  manifest.debian.push({ package: src.package, license: src.license, files, bytes });
  console.log(`debian ${src.package} (${src.license}): ${files} files, ${(bytes / 1e6).toFixed(2)} MB`);
}

out.end(() => {
  fs.renameSync(path.join(cacheDir, 'corpus.jsonl.tmp'), path.join(cacheDir, 'corpus.jsonl'));
  fs.writeFileSync(path.join(cacheDir, 'corpus-manifest.json'), JSON.stringify(manifest, null, 1));
  const denied = excluded.filter((e) => e.reason.includes('deny-list')).length;
  console.log(`deny-list ${denyFile}: ${denyPatterns.length} patterns, ${denied} packages/files excluded by it`);
  console.log(`corpus: ${seen.size} files → ${path.join(cacheDir, 'corpus.jsonl')}; ${excluded.length} exclusions in all`);
});
