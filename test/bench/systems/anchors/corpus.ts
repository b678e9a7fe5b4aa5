// What the anchor pipelines (tabby, continue, copilot) know of a repository: every file's lines,
// its tree-sitter chunks, definitions and imports from the engine's own chunker. The engine's
// definitions stand in for a language server's go-to-definition (the anchors ask an LSP; the bench
// has none). Leak-free like protocol C: for a task, the task file is its left context only.
import { Chunker } from '../../../../engine/src/chunk';
import { importMatches } from '../../../../engine/src/enrich/callgraph';
import type { ChunkedFile, Definition, ImportBinding } from '../../../../engine/src/types';
import { splitLines, type Repo, type Task } from '../../split';
import type { FragmentDoc } from '../system';

export interface CorpusFile {
  relPath: string;
  lines: string[];
  chunked: ChunkedFile;
}

export interface DefinitionAt extends Definition {
  file: string;
}

let sharedChunker: Promise<Chunker> | undefined;
/** One chunker for every anchor system (tree-sitter's wasm runtime is loaded once). */
export function chunker(): Promise<Chunker> {
  return (sharedChunker ??= Chunker.create());
}

const corpora = new Map<string, Promise<RepoCorpus>>();

/** The corpus of a repository, built once and shared by the anchor systems of one run (the last repository only). */
export function corpusOf(repo: Repo): Promise<RepoCorpus> {
  let c = corpora.get(repo.root);
  if (!c) {
    corpora.clear();
    corpora.set(repo.root, (c = RepoCorpus.build(repo)));
  }
  return c;
}

/**
 * An anchor pipeline that builds context from the repository's corpus and ranks none of the
 * protocol's fragments (continue, copilot): protocol C only, so the fragment methods do nothing.
 */
export abstract class CorpusContextSystem {
  readonly ranksFragments = false;
  protected corpus!: RepoCorpus;

  async indexRepo(repo: Repo, _docs: FragmentDoc[]): Promise<void> {
    this.corpus = await corpusOf(repo);
  }
  async addDocs(): Promise<void> {}
  async removeDocs(): Promise<void> {}
  async rank(): Promise<number[]> {
    return [];
  }
}

export class RepoCorpus {
  private readonly defsByName = new Map<string, DefinitionAt[]>();
  private taskView: { task: Task; file: CorpusFile } | undefined;

  private readonly resolved = new Map<string, boolean>();

  private constructor(readonly files: Map<string, CorpusFile>) {
    for (const f of files.values()) this.addDefs(f);
  }

  static async build(repo: Repo): Promise<RepoCorpus> {
    const c = await chunker();
    const files = new Map<string, CorpusFile>();
    for (const f of repo.files) files.set(f.relPath, { relPath: f.relPath, lines: f.lines, chunked: await c.chunk(f.relPath, f.content) });
    return new RepoCorpus(files);
  }

  private addDefs(f: CorpusFile): void {
    for (const d of f.chunked.definitions) {
      let list = this.defsByName.get(d.name);
      if (!list) this.defsByName.set(d.name, (list = []));
      list.push({ ...d, file: f.relPath });
    }
  }

  /** The task file as the editor holds it (left context only), chunked; cached for the last task. */
  async taskFile(task: Task): Promise<CorpusFile> {
    if (this.taskView?.task === task) return this.taskView.file;
    const c = await chunker();
    const file = { relPath: task.file, lines: splitLines(task.left_context), chunked: await c.chunk(task.file, task.left_context) };
    this.taskView = { task, file };
    return file;
  }

  /** A file as the task's editor state has it: the task file cut at the cursor, every other file on disk. */
  async fileFor(task: Task, relPath: string): Promise<CorpusFile | undefined> {
    return relPath === task.file ? this.taskFile(task) : this.files.get(relPath);
  }

  /**
   * Where `name`, used in `fromFile`, is defined: the stand-in for a language server's
   * go-to-definition. In the file itself (its left context), else through the file's import of
   * the name, else the definition nearest to the file by path. Never in the task file's unseen lines.
   */
  async definitionOf(task: Task, name: string, opts: { via?: ImportBinding; member?: boolean } = {}): Promise<DefinitionAt | undefined> {
    const here = await this.taskFile(task);
    if (!opts.via && !opts.member) {
      const own = here.chunked.definitions.find((d) => d.name === name);
      if (own) return { ...own, file: task.file };
    }
    const all = (this.defsByName.get(name) ?? []).filter((d) => d.file !== task.file);
    if (!all.length) return undefined;
    const imp = opts.via ?? here.chunked.imports.find((i) => i.local === name);
    if (imp) {
      const hit = all.find((d) => this.imports(task.file, imp.source, d.file));
      if (hit) return hit;
      // An import from outside the repository (a library): a language server would go there, not here.
      if (!this.resolves(task.file, imp.source)) return undefined;
    }
    return nearest(task.file, all);
  }

  /** The engine's import resolution, plus ES module specifiers written with their extension (`./utils.js`), as a language server resolves them. */
  private imports(fromFile: string, source: string, file: string): boolean {
    return importMatches(fromFile, source, file) || (/^\.{1,2}\//.test(source) && /\.[cm]?[jt]sx?$/.test(source) && importMatches(fromFile, source.replace(/\.[cm]?[jt]sx?$/, ''), file));
  }

  /** Whether an import specifier names any file of the repository. */
  private resolves(fromFile: string, source: string): boolean {
    const key = `${fromFile}\0${source}`;
    let r = this.resolved.get(key);
    if (r === undefined) this.resolved.set(key, (r = [...this.files.keys()].some((f) => this.imports(fromFile, source, f))));
    return r;
  }

  /** Files the task file imports (resolved where a definition file matches the specifier), in import order. */
  async importedFiles(task: Task): Promise<string[]> {
    const here = await this.taskFile(task);
    const out: string[] = [];
    for (const imp of here.chunked.imports) {
      for (const f of this.files.keys()) {
        if (f !== task.file && !out.includes(f) && this.imports(task.file, imp.source, f)) out.push(f);
      }
    }
    return out;
  }

  /** The definition's lines as the editor state has them (at most `maxLines`). */
  async textOf(task: Task, d: DefinitionAt, maxLines = Infinity): Promise<string> {
    const f = await this.fileFor(task, d.file);
    if (!f) return '';
    return f.lines.slice(d.startLine, Math.min(d.endLine + 1, d.startLine + maxLines)).join('\n');
  }
}

/** The candidate whose file shares the longest directory prefix with `file` (ties: the first, files sorted). */
export function nearest<T extends { file: string }>(file: string, candidates: T[]): T | undefined {
  const dirs = file.split('/').slice(0, -1);
  let best: T | undefined;
  let bestShared = -1;
  for (const c of candidates) {
    const cd = c.file.split('/').slice(0, -1);
    let shared = 0;
    while (shared < dirs.length && shared < cd.length && dirs[shared] === cd[shared]) shared++;
    if (shared > bestShared) {
      best = c;
      bestShared = shared;
    }
  }
  return best;
}
