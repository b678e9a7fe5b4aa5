// Protocol R's ground truth for C and C++: Debian's clangd (apt-get install -y clangd), spoken to over
// LSP on stdio with the official protocol library. The split ships sources only (no build system
// output), so the bench writes a compile_commands.json of its own into a temporary folder: every
// .c/.cc/.cpp file, compiled as the repository's language with every folder holding headers on the
// include path, and the folders above them on the quoted one (clangd infers a header's flags from its nearest source file). For C, clangd indexes
// the repository in the background first, so a call reaches the function's body in another file; then
// each occurrence asks `textDocument/definition` and `textDocument/declaration` (a prototype in a
// header and the body in a .c file are both what an editor reaches). System headers and headers the
// sources include but the snapshot lacks (generated config headers) are outside the repository:
// `external`.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL, fileURLToPath } from 'url';
import type { Node } from 'web-tree-sitter';
import {
  createProtocolConnection, DeclarationRequest, DefinitionRequest, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, ExitNotification,
  InitializedNotification, InitializeRequest, PublishDiagnosticsNotification, ShutdownRequest, StreamMessageReader, StreamMessageWriter, WorkDoneProgress, WorkDoneProgressCreateRequest,
  type Location, type LocationLink, type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { Chunker } from '../../../engine/src/chunk';
import type { Repo } from '../split';
import type { Occurrence } from './sample';
import { scopeAt, type Truth, type TruthDef } from './truth';

const SOURCE = /\.(c|cc|cpp|cxx)$/;
const HEADER = /\.(h|hh|hpp|hxx)$/;
/** How long the background index may take before the queries start anyway (a slow machine indexes less). */
const INDEX_LIMIT_MS = Number(process.env.RR_CLANGD_INDEX_MS ?? 10 * 60_000);

export interface ClangdOptions {
  clangd?: string;
  /** clangd's background index before the queries (default: C yes, C++ no). */
  backgroundIndex?: boolean;
}

/** The compilation database the bench gives clangd: the sources, the repository's language, its header folders. */
export function compileCommands(repo: Repo, cpp: boolean): Array<{ directory: string; file: string; arguments: string[] }> {
  const root = path.resolve(repo.root);
  const includes = [...new Set(repo.files.filter((f) => HEADER.test(f.relPath)).map((f) => path.dirname(path.join(root, f.relPath))))].sort();
  // `#include "fmt/os.h"` from test/: the folders above the header folders, for quoted includes only
  // (`-iquote`: a repository's `errno.h` stays out of `<errno.h>`). Without them clangd failed such
  // files and answered by the branches of an unread header (s24: test/printf-test.cc, 21 errors).
  const above = new Set<string>();
  for (const d of includes) for (let a = path.dirname(d); a.length >= root.length && !includes.includes(a); a = path.dirname(a)) above.add(a);
  const flags = cpp ? ['clang++', '-xc++', '-std=c++20'] : ['clang', '-xc', '-std=gnu11'];
  return repo.files.filter((f) => SOURCE.test(f.relPath)).map((f) => {
    const file = path.join(root, f.relPath);
    return { directory: root, file, arguments: [...flags, ...includes.map((d) => `-I${d}`), ...[...above].sort().map((d) => `-iquote${d}`), '-c', file] };
  });
}

export async function clangTruth(repo: Repo, occurrences: Occurrence[], chunker: Chunker, opts: ClangdOptions = {}): Promise<Truth[]> {
  const cpp = repo.language === 'cpp';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-clangd-'));
  fs.writeFileSync(path.join(dir, 'compile_commands.json'), JSON.stringify(compileCommands(repo, cpp)));
  const out: Truth[] = new Array(occurrences.length);
  let order = occurrences.map((o, i) => ({ o, i })).sort((a, b) => a.o.file.localeCompare(b.o.file) || a.i - b.i);
  try {
    // clangd 14 may crash building a file (fmt's test/ranges-test.cc, once its headers are found): that file has no
    // ground truth, and a new clangd goes on with the next one.
    for (let first = true; order.length; first = false) {
      const crashedOn = await session({ repo, chunker, dir, opts }, order, out, first);
      if (crashedOn === undefined) break;
      console.log(`  ${repo.name}: clangd crashed on ${crashedOn}: its occurrences have no ground truth`);
      for (const { o, i } of order) if (o.file === crashedOn) out[i] = { occurrence: o, defs: [], external: false, unanswered: true };
      order = order.filter(({ i }) => !out[i]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
  return out;
}

/** One clangd (its compilation database in `dir`) answering `order` (sorted by file) into `out`; the file it was reading when it crashed, if it did. */
async function session(run: { repo: Repo; chunker: Chunker; dir: string; opts: ClangdOptions }, order: Array<{ o: Occurrence; i: number }>, out: Truth[], first: boolean): Promise<string | undefined> {
  const { repo, chunker, dir, opts } = run;
  const root = path.resolve(repo.root);
  const cpp = repo.language === 'cpp';
  // C++ repositories go without the index: their TUs (header libraries and their tests) take tens of
  // seconds each on a shared machine, and their definitions sit in the headers a file includes.
  const index = opts.backgroundIndex ?? !cpp;
  const child = spawn(opts.clangd ?? 'clangd', [`--compile-commands-dir=${dir}`, `--background-index=${index}`, '-j=2', '--log=error', '--header-insertion=never', '--pch-storage=memory'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  const failed = new Promise<never>((_, reject) => {
    child.on('error', (e) => reject(new Error(`clangd could not start (apt-get install -y clangd): ${e.message}`)));
  });
  const CRASHED = Symbol('crashed');
  // Without this a crash left every request pending and the process ended with nothing written.
  const died = new Promise<typeof CRASHED>((resolve) => child.once('exit', () => resolve(CRASHED)));
  const call = async <T>(p: Promise<T>): Promise<T> => {
    const r = await Promise.race([p, died, failed]);
    if (r === CRASHED) throw CRASHED;
    return r as T;
  };
  child.stderr.resume();
  const conn = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const indexed = watchIndex(conn);
  const diagnostics = watchErrors(conn);
  conn.listen();
  let current = order[0]?.o.file;
  try {
    await call(conn.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: null,
      capabilities: { window: { workDoneProgress: true }, textDocument: { definition: { linkSupport: false }, declaration: { linkSupport: false } } },
    }));
    await conn.sendNotification(InitializedNotification.type, {});
    // The index starts once clangd has read the compilation database: on the first open file.
    if (order.length) await open(conn, root, order[0].o.file, cpp);
    if (index && first) await call(indexed(INDEX_LIMIT_MS));
    for (const { o, i } of order) {
      if (o.file !== current) {
        await conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(root, current!) } });
        await open(conn, root, (current = o.file), cpp);
      }
      const at = { textDocument: { uri: uriOf(root, o.file) }, position: { line: o.line, character: o.column } };
      const locations = [...asList(await call(conn.sendRequest(DefinitionRequest.type, at))), ...asList(await call(conn.sendRequest(DeclarationRequest.type, at)))];
      out[i] = { ...(await truthOf(repo, chunker, o, locations)), compileErrors: await call(diagnostics(at.textDocument.uri)) };
    }
    await call(conn.sendRequest(ShutdownRequest.type));
    await conn.sendNotification(ExitNotification.type);
    return undefined;
  } catch (e) {
    // A notification written to a clangd already gone fails too: a crash.
    if (e === CRASHED || child.exitCode !== null || child.signalCode !== null) return current;
    throw e;
  } finally {
    conn.dispose();
    // clangd may still be writing its index: wait for it to exit before its folder goes.
    child.kill();
    await died;
  }
}

/** The number of error diagnostics clangd published for a file (its compile under the bench's flags failed where > 0); -1 if none came within a minute. */
function watchErrors(conn: ProtocolConnection): (uri: string) => Promise<number> {
  const errors = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    errors.set(p.uri, p.diagnostics.filter((d) => d.severity === 1).length);
    waiting.get(p.uri)?.();
  });
  return async (uri) => {
    if (!errors.has(uri)) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((r) => waiting.set(uri, r)), new Promise<void>((r) => (timer = setTimeout(r, 60_000)))]);
      clearTimeout(timer);
      waiting.delete(uri);
    }
    return errors.get(uri) ?? -1;
  };
}

/** Resolves when clangd's background index reports its end (or never began: nothing to index), or at `limitMs`. */
function watchIndex(conn: ProtocolConnection): (limitMs: number) => Promise<void> {
  let began = false;
  let done: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (done = resolve));
  conn.onRequest(WorkDoneProgressCreateRequest.type, () => null);
  conn.onProgress(WorkDoneProgress.type, 'backgroundIndexProgress', (v) => {
    if (v.kind === 'begin') began = true;
    if (v.kind === 'end') done();
  });
  return async (limitMs) => {
    const t0 = Date.now();
    // Reading the database takes a moment: wait a few seconds for the index to begin.
    while (!began && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 100));
    if (!began) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, limitMs)))]);
    clearTimeout(timer);
  };
}

async function open(conn: ProtocolConnection, root: string, file: string, cpp: boolean): Promise<void> {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(root, file), languageId: cpp ? 'cpp' : 'c', version: 1, text } });
}

const uriOf = (root: string, file: string): string => pathToFileURL(path.join(root, file)).href;

function asList(r: Location | Location[] | LocationLink[] | null): Array<{ uri: string; line: number; character: number }> {
  const xs = r === null ? [] : Array.isArray(r) ? r : [r];
  return xs.map((x) => ('targetUri' in x ? { uri: x.targetUri, line: x.targetSelectionRange.start.line, character: x.targetSelectionRange.start.character } : { uri: x.uri, line: x.range.start.line, character: x.range.start.character }));
}

async function truthOf(repo: Repo, chunker: Chunker, o: Occurrence, locations: Array<{ uri: string; line: number; character: number }>): Promise<Truth> {
  const root = path.resolve(repo.root);
  const defs: TruthDef[] = [];
  let external = locations.length === 0;
  for (const l of locations) {
    const rel = path.relative(root, fileURLToPath(l.uri)).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel) || !repo.byPath.has(rel)) {
      external = true;
      continue;
    }
    if (defs.some((d) => d.file === rel && d.line === l.line && d.column === l.character)) continue;
    defs.push({ file: rel, line: l.line, column: l.character, scope: await scopeAt(repo, chunker, rel, l.line, l.character, scopeOfName) });
  }
  // No location at all: clangd has no answer (inactive `#if` code, a file it could not compile): no ground truth.
  return { occurrence: o, defs, external, ...(locations.length === 0 ? { unanswered: true } : {}) };
}

/** A parameter, a macro or template parameter or a name declared in a function or lambda body is local; a field is a member. */
export function scopeOfName(name: Node): TruthDef['scope'] {
  for (let p = name.parent; p; p = p.parent) {
    if (p.type === 'template_parameter_list') return 'local'; // <typename T>: bound in its declaration, as TypeScript's truth has it
    if (p.type === 'parameter_declaration' || p.type === 'optional_parameter_declaration' || p.type === 'preproc_params' || p.type === 'lambda_expression') return 'local';
    if (p.type === 'compound_statement' && p.parent && /^(function_definition|lambda_expression)$/.test(p.parent.type)) return 'local';
    if (p.type === 'field_declaration_list') return 'member';
  }
  return 'module';
}

/**
 * C++ answers that do not name the name asked about: a location whose token is another name is
 * clangd's error recovery in a file that does not compile (nlohmann_json: the enclosing
 * `class basic_json` or `namespace detail` for any member) or a macro's expansion site (gtest's
 * `TEST(suite, name)` line for `suite`). Such a location is not a definition of the name; a sample
 * left with none has no ground truth. Read on load, so the cached answers stay as clangd gave them.
 */
export function spelledTruth(repo: Repo, t: Truth): Truth {
  if (t.unanswered || !t.defs.length) return t;
  const o = t.occurrence;
  const defs = t.defs.filter((d) => {
    const line = repo.byPath.get(d.file)?.lines[d.line] ?? '';
    return /^~?(\w+)/.exec(line.slice(d.column))?.[0].replace(/^~/, '') === o.name;
  });
  if (defs.length === t.defs.length) return t;
  return defs.length || t.external ? { ...t, defs } : { ...t, defs, unanswered: true, respelled: true };
}
