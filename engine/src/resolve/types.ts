// What the resolver answers about a name (resolver.ts), in plain data: no syntax nodes, so an
// answer outlives the tree it came from.

export type DefRole = 'function' | 'method' | 'class' | 'type' | 'variable' | 'attribute' | 'module';

export interface ResolvedDef {
  file: string;
  name: string;
  role: DefRole;
  /** The definition's lines (0-based, inclusive): its statement, wrappers (export, decorators) included. */
  startLine: number;
  endLine: number;
  /** First line of the declaration (the wrapper's, like the chunker's definitions). */
  declLine: number;
  /** Where the defining name is. */
  line: number;
  column: number;
}

/**
 * How a definition was reached: `file` bound in this file (its scopes, its classes), `import`
 * through this file's imports (module-qualified names included), `member` a `self`/`this`/`super`
 * member through the enclosing class and its bases, `inferred` through a value's or annotation's
 * type, `repository` the only definition of the spelling in the repository. `file` and `import`
 * are as sure as a language server's answer; the others are the resolver's best reading.
 */
export type ResolvedVia = 'file' | 'import' | 'member' | 'inferred' | 'repository';

export type Resolution =
  /** The one definition the name refers to, and how it was reached. */
  | { kind: 'defines'; def: ResolvedDef; via?: ResolvedVia }
  /** Bound in a function, block or comprehension of this file: the language's own hover has it. */
  | { kind: 'local' }
  /** Bound to something outside the repository (a library import, a builtin, an external base class); `via: 'import'` when this file's import of a module the repository lacks says so. */
  | { kind: 'external'; via?: 'import' }
  /** Not resolved: definitions of the same spelling are only candidates. */
  | { kind: 'candidates' };

/** A class as the resolver needs it: its members and its bases as written. */
export interface ClassInfo {
  def: ResolvedDef;
  members: Map<string, ResolvedDef>;
  /** Base class expressions as written (`Base`, `nn.Module`, `mixins.Logging`). */
  bases: string[];
}

/** A module-level name: a definition in the file or an import. */
export type TopBinding =
  | { kind: 'def'; def: ResolvedDef }
  /** `imported`: the exported name, `default`, or `*` for a whole module (namespace import, `import a.b`). */
  /** `decl`: a `const x = require('pkg')` whose module the repository lacks is defined there. */
  | { kind: 'import'; source: string; imported: string; decl?: ResolvedDef };

export interface ModuleSummary {
  file: string;
  python: boolean;
  /** ECMAScript: the file imports or exports (a module); else a script whose top-level names are global. */
  isModule: boolean;
  top: Map<string, TopBinding>;
  /** Member holders at any depth, by declaration line: classes; in ECMAScript also interfaces, object types, enums, object literals. */
  classes: Map<number, ClassInfo>;
  /** `export { a as b } from 'x'` (local `b`), `export * from 'x'` (local `*`), Python `from x import *`. */
  reexports: Array<{ local: string; imported: string; source: string }>;
  /** ECMAScript: declared values of top-level definitions and members, by the name's `line:column` (values.ts). */
  values?: Map<string, ValueInfo>;
  /** CommonJS (commonjs.ts): `exports.x =` / `module.exports = { x }` definitions; `wholeModule` when `require` returns the module object itself. */
  commonjs?: { exports: Map<string, TopBinding>; wholeModule: boolean };
}

/** One step of a value expression: its head (a name, an import, a type, a known definition), then members and calls. */
export type Step =
  | { k: 'name'; name: string }
  | { k: 'import'; source: string; imported: string }
  | { k: 'type'; path: string[] }
  | { k: 'def'; def: ResolvedDef }
  | { k: 'get'; name: string }
  | { k: 'call' };
export type Chain = Step[];

/** A definition's value as declared: its type annotation, its return type, or its initializer. */
export interface ValueInfo {
  type?: string[];
  returns?: string[];
  init?: Chain;
}
