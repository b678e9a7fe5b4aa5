// Protocol R's ground truth for TypeScript: TypeScript's own language service
// (`getDefinitionAtPosition`) over a program of every TypeScript file of the repository, with the
// standard library (for a JavaScript repository, its .js/.mjs/.cjs/.jsx files: `allowJs`, not type
// checked: the service's go-to-definition a JavaScript editor gets). The split ships source files only (no tsconfig.json, no node_modules), so
// imports of packages resolve nowhere, as they would for a checkout without `npm install`.
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import type { Repo } from '../split';
import type { Occurrence } from './sample';
import type { Truth, TruthDef } from './truth';

const FUNCTION_LIKE = new Set([
  ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor, ts.SyntaxKind.SetAccessor,
]);
const IMPORTS = new Set([ts.SyntaxKind.ImportSpecifier, ts.SyntaxKind.ImportClause, ts.SyntaxKind.NamespaceImport, ts.SyntaxKind.ImportEqualsDeclaration, ts.SyntaxKind.ExportSpecifier]);

export function typescriptTruth(repo: Repo, occurrences: Occurrence[]): Truth[] {
  const root = path.resolve(repo.root);
  const files = repo.files.map((f) => path.join(root, f.relPath));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve,
    allowJs: true, checkJs: false, allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, strict: false, lib: ['lib.esnext.d.ts', 'lib.dom.d.ts'],
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => files,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8')) : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const program = service.getProgram()!;
  return occurrences.map((o) => {
    const abs = path.join(root, o.file);
    const sf = program.getSourceFile(abs)!;
    const pos = ts.getPositionOfLineAndCharacter(sf, o.line, o.column);
    const infos = service.getDefinitionAtPosition(abs, pos) ?? [];
    const defs: TruthDef[] = [];
    let sawExternal = infos.length === 0;
    for (const d of infos) {
      const rel = path.relative(root, d.fileName).split(path.sep).join('/');
      const dsf = program.getSourceFile(d.fileName);
      if (rel.startsWith('..') || path.isAbsolute(rel) || !dsf || !repo.byPath.has(rel)) {
        sawExternal = true;
        continue;
      }
      const lc = dsf.getLineAndCharacterOfPosition(d.textSpan.start);
      const node = nodeAt(dsf, d.textSpan.start);
      defs.push({ file: rel, line: lc.line, column: lc.character, scope: scopeOf(node) });
    }
    return { occurrence: o, defs, external: sawExternal };
  });
}

function nodeAt(sf: ts.SourceFile, pos: number): ts.Node {
  let cur: ts.Node = sf;
  for (;;) {
    const next: ts.Node | undefined = cur.forEachChild((c) => (c.getStart(sf) <= pos && pos < c.getEnd() ? c : undefined));
    if (!next) return cur;
    cur = next;
  }
}

/** Where a definition's name sits: an unresolved import, a function's local, or a module or class member. */
function scopeOf(name: ts.Node): TruthDef['scope'] {
  for (let p = name.parent; p; p = p.parent) if (IMPORTS.has(p.kind)) return 'import';
  const decl = name.parent;
  if (decl && ts.isParameter(decl) && ts.getModifiers(decl)?.length) return 'member'; // constructor(private x)
  if (decl && ts.isTypeParameterDeclaration(decl)) return 'local'; // <T>, infer T: bound in its declaration
  for (let p = decl?.parent; p; p = p.parent) {
    if (FUNCTION_LIKE.has(p.kind)) return 'local';
    if (ts.isSourceFile(p) || ts.isClassLike(p) || ts.isModuleBlock(p) || ts.isInterfaceDeclaration(p) || ts.isTypeLiteralNode(p)) return 'module';
  }
  return 'module';
}
