// Import resolution for the languages whose import specifiers are neither relative paths (TS/JS)
// nor dotted modules (Python): which repository file an import plausibly names. Used by the call
// graph (a callee imported from a package resolves there, not to a same-named definition
// elsewhere) and by whatever follows a file's imports. No build files are read (go.mod,
// Cargo.toml, include paths): the rules go by the path alone.
import * as path from 'path';

const posix = path.posix;

type Family = 'go' | 'java' | 'rust' | 'c';

function familyOf(file: string): Family | undefined {
  const ext = posix.extname(file).toLowerCase();
  if (ext === '.go') return 'go';
  if (ext === '.java') return 'java';
  if (ext === '.rs') return 'rust';
  if (['.c', '.h', '.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.ipp', '.inl', '.tpp'].includes(ext)) return 'c';
  return undefined;
}

/**
 * Whether `source`, imported in `fromFile`, names `targetFile`, for Go, Java, Rust and C/C++;
 * undefined for other languages (the caller's own rules apply).
 * - Go: `github.com/org/repo/pkg/sub` names the files of a directory ending in `pkg/sub`.
 * - Java: `a.b.c` (the package of `import a.b.c.Name;`) names the files of directory `a/b/c`;
 *   `a.b.C` (a static import's class) names `a/b/C.java`.
 * - Rust: `crate::m::n`, `self::n`, `super::n` and `other_crate::m` name module `m/n` (`m/n.rs`,
 *   `m/n/mod.rs`, or a file under `m/n/`) from the crate's `src/` root or the current module.
 * - C/C++: `#include "a/b.h"` names a file whose path ends in `a/b.h` (relative to the including
 *   file's directory first, else anywhere: include paths are unknown).
 */
export function languageImportMatches(fromFile: string, source: string, targetFile: string): boolean | undefined {
  const family = familyOf(fromFile);
  if (!family) return undefined;
  if (familyOf(targetFile) !== family) return false;
  switch (family) {
    case 'go': {
      const dir = posix.dirname(targetFile);
      return dir !== '.' && (source === dir || source.endsWith(`/${dir}`) || dirSuffixMatches(source, dir));
    }
    case 'java': {
      const slashed = source.replace(/\./g, '/');
      const noExt = targetFile.replace(/\.java$/, '');
      const dir = posix.dirname(targetFile);
      return dir === slashed || dir.endsWith(`/${slashed}`) || noExt === slashed || noExt.endsWith(`/${slashed}`);
    }
    case 'rust':
      return rustModuleDirs(fromFile, source).some((m) => {
        const noExt = targetFile.replace(/\.rs$/, '');
        return noExt === m || noExt === `${m}/mod` || targetFile.startsWith(`${m}/`);
      });
    case 'c': {
      const inc = source.replace(/^["<]|[">]$/g, '');
      if (!inc) return false;
      const relative = posix.normalize(posix.join(posix.dirname(fromFile), inc));
      return targetFile === relative || targetFile === inc || targetFile.endsWith(`/${inc}`);
    }
  }
}

/**
 * Go: the import path's tail names the directory when the repository root is the module root,
 * e.g. `go.uber.org/zap/zapcore` and directory `zapcore`. The last segment must match at least.
 */
function dirSuffixMatches(source: string, dir: string): boolean {
  const s = source.split('/');
  const d = dir.split('/');
  if (d.length > s.length) return false;
  for (let i = 1; i <= d.length; i++) if (s[s.length - i] !== d[d.length - i]) return false;
  return true;
}

/** The module directory of a Rust file: `src/a/b.rs` -> `src/a/b`; `src/a/mod.rs`, `src/lib.rs` -> their directory. */
function rustModuleDir(file: string): string {
  const base = posix.basename(file, '.rs');
  const dir = posix.dirname(file);
  return ['mod', 'lib', 'main'].includes(base) ? dir : posix.join(dir, base);
}

/** Candidate module paths (no extension) that a Rust `use` path names, seen from `fromFile`. */
function rustModuleDirs(fromFile: string, source: string): string[] {
  const segs = source.split('::').filter(Boolean);
  if (!segs.length) return [];
  const srcRoot = (() => {
    const i = fromFile.lastIndexOf('/src/');
    if (i >= 0) return fromFile.slice(0, i + 4);
    return fromFile.startsWith('src/') ? 'src' : posix.dirname(fromFile);
  })();
  let bases: string[];
  let rest = segs;
  if (segs[0] === 'crate') {
    bases = [srcRoot];
    rest = segs.slice(1);
  } else if (segs[0] === 'self' || segs[0] === 'super') {
    let dir = rustModuleDir(fromFile);
    while (rest[0] === 'self' || rest[0] === 'super') {
      if (rest[0] === 'super') dir = posix.dirname(dir);
      rest = rest.slice(1);
    }
    bases = [dir];
  } else {
    if (['std', 'core', 'alloc'].includes(segs[0])) return [];
    // Another crate of the workspace: `axum_core::x` lives in `axum-core/src/x` (or `axum_core/src/x`).
    const names = [...new Set([segs[0], segs[0].replace(/_/g, '-')])];
    const top = srcRoot.includes('/') ? posix.dirname(posix.dirname(srcRoot)) : '.';
    bases = names.map((n) => (top === '.' ? `${n}/src` : `${top}/${n}/src`));
    rest = segs.slice(1);
    // A module of the current crate, named without `crate::` (2015 edition paths).
    bases.push(posix.join(srcRoot, segs[0]));
  }
  if (!rest.length) return bases.filter((b) => b !== srcRoot);
  return bases.map((b) => posix.join(b, ...rest));
}
