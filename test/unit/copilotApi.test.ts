// RepoRecall's copy of Copilot's context provider API (extension/src/features/copilotApi.ts) is
// compiled against the published declaration (test/fixtures/copilot-api/types.d.ts, from the
// `@github/copilot-language-server` npm package) in both directions that matter: what Copilot
// passes (request, usage statistics, API object) fits our shapes, and what we pass (the provider,
// its items) fits theirs. A planted drift (a field renamed in our copy) must fail the same check.
import * as assert from 'node:assert';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const PUBLISHED = path.join(ROOT, 'test/fixtures/copilot-api/types.d.ts');
const OURS = path.join(ROOT, 'extension/src/features/copilotApi.ts');
/** sha256 of dist/api/types.d.ts in @github/copilot-language-server 1.539.0 (see the fixture's README). */
const PUBLISHED_SHA256 = 'b3c4146f01f2e8f6033bb7fdaa5af1a7d5d1ae6ac77cbc51dbf9f914c4e4fbff';

const CHECK = `
import type * as P from './published';
import type * as O from './ours';
declare const fromCopilot: { request: P.ResolveRequest; stats: P.ContextUsageStatistics; api: P.ContextProviderApiV1; doc: P.DocumentContext; token: import('vscode-languageserver-protocol').CancellationToken };
declare const fromUs: { provider: O.ContextProvider<O.CodeSnippet>; snippet: O.CodeSnippet; trait: O.Trait; api: O.ContextProviderApiV1 };
export const request: O.ResolveRequest = fromCopilot.request;
export const stats: O.ContextUsageStatistics = fromCopilot.stats;
export const doc: O.DocumentContext = fromCopilot.doc;
export const api: O.ContextProviderApiV1 = fromCopilot.api;
export const token: O.CancellationToken = fromCopilot.token;
export const provider: P.ContextProvider<P.CodeSnippet> = fromUs.provider;
export const snippet: P.CodeSnippet = fromUs.snippet;
export const trait: P.Trait = fromUs.trait;
export const registered = fromCopilot.api.registerContextProvider(fromUs.provider);
`;

/** Type errors of the check, with `ours` as given (a virtual file set next to the published one). */
function diagnostics(oursText: string): string[] {
  const dir = path.join(ROOT, 'test/fixtures/copilot-api');
  const files = new Map([[path.join(dir, 'published.d.ts'), fs.readFileSync(PUBLISHED, 'utf8')], [path.join(dir, 'ours.ts'), oursText], [path.join(dir, 'check.ts'), CHECK]]);
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, skipLibCheck: true, types: [], lib: ['lib.es2022.d.ts'] };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.readFile = (f) => files.get(path.resolve(f)) ?? read(f);
  host.fileExists = (f) => files.has(path.resolve(f)) || exists(f);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang) => (files.has(path.resolve(f)) ? ts.createSourceFile(f, files.get(path.resolve(f))!, lang) : getSourceFile(f, lang));
  // Module resolution starts from the fixture folder; node_modules is the repository's.
  host.getCurrentDirectory = () => ROOT;
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('Copilot context provider API shapes', function () {
  this.timeout(60_000);

  it('the fixture is the published declaration file, unchanged', () => {
    assert.strictEqual(crypto.createHash('sha256').update(fs.readFileSync(PUBLISHED)).digest('hex'), PUBLISHED_SHA256);
  });

  it('our shapes and the published ones fit each other both ways', () => {
    assert.deepStrictEqual(diagnostics(fs.readFileSync(OURS, 'utf8')), []);
  });

  it('a planted drift (timeoutEnd renamed, CodeSnippet.uri made a number) fails the same check', () => {
    const ours = fs.readFileSync(OURS, 'utf8');
    const renamed = ours.replace('  timeoutEnd: number;', '  timeoutEnds: number;');
    assert.notStrictEqual(renamed, ours);
    assert.ok(diagnostics(renamed).some((d) => d.includes('timeoutEnds')), 'a field Copilot does not send is caught');
    const retyped = ours.replace('export interface CodeSnippet extends ContextItem {\n  uri: string;', 'export interface CodeSnippet extends ContextItem {\n  uri: number;');
    assert.notStrictEqual(retyped, ours);
    assert.ok(diagnostics(retyped).some((d) => d.includes('check.ts')), 'an item Copilot would reject is caught');
  });
});
