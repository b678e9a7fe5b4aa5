// dist/THIRD_PARTY_NOTICES.txt: the licence of every npm package whose code the VSIX carries —
// bundled into dist/ by esbuild (found from its metafile), shipped in node_modules (the runtime
// externals), or copied from it (the grammar .wasm files). MIT, BSD and Apache-2.0 ask that their
// notice travel with the code; a package that ships no licence file gets its package.json's
// licence id and repository instead, said as such.
'use strict';
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const LICENCE_FILE = /^(?:licen[cs]e|copying|notice)(?:[.-].*)?$/i;

/** The package directory (`node_modules/name` or `node_modules/@scope/name`) an input path lies in, or undefined. */
function packageDirOf(input) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const n = parts[at + 1].startsWith('@') ? 3 : 2;
  return parts.slice(0, at + n).join('/');
}

/** The package directories an esbuild metafile's inputs come from. */
function bundledPackageDirs(metafile) {
  return [...new Set(Object.keys(metafile.inputs).map(packageDirOf).filter(Boolean))];
}

function noticeOf(root, dir) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const licence = typeof pkg.license === 'string' ? pkg.license : pkg.license?.type ?? 'UNKNOWN';
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const files = readdirSync(join(root, dir)).filter((f) => LICENCE_FILE.test(f)).sort();
  const head = `${pkg.name} ${pkg.version} — ${licence}${repo ? ` — ${repo}` : ''}`;
  const body = files.length
    ? files.map((f) => readFileSync(join(root, dir, f), 'utf8').trim()).join('\n\n')
    : `(The npm package ships no licence file; its package.json declares ${licence}. The full notice is in its repository${repo ? `: ${repo}` : ''}.)`;
  return `${head}\n${'-'.repeat(Math.min(head.length, 100))}\n${body}`;
}

/** The notices text for `dirs` (package directories relative to `root`), one section per package, sorted by name. */
function thirdPartyNotices(root, dirs) {
  const unique = [...new Set(dirs.map((d) => relative(root, join(root, d)).split(sep).join('/')))].filter((d) => existsSync(join(root, d, 'package.json')));
  const sections = unique.sort().map((d) => noticeOf(root, d));
  return `RepoRecall includes the following third-party software.\n\n${sections.join('\n\n\n')}\n`;
}

/** The directory of an installed package, from the project root (package.json exports are not consulted). */
const installedDir = (name) => join('node_modules', ...name.split('/'));

module.exports = { packageDirOf, bundledPackageDirs, thirdPartyNotices, installedDir };
