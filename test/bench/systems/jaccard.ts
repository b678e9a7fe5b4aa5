// Baseline `jaccard`: the neighbouring-snippet method of Copilot and Cody. The query is the last
// 60 lines before the cursor as a set of tokens; candidates are scored by Jaccard similarity of
// token sets. For protocols A/B the candidates are the protocol's fragments; for protocol C the
// system builds its own context from 60-line windows (sliding by 10 lines) over same-language files.
import type { Repo, RepoFile, Task } from '../split';
import { splitLines } from '../split';
import type { BenchSystem, FragmentDoc } from './system';
import { plainTokens } from './bm25';

const WINDOW = 60;
const STEP = 10;

function tokenSet(text: string): Set<string> {
  return new Set(plainTokens(text));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let inter = 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

interface Window {
  file: string;
  startLine: number;
  text: string;
  tokens: Set<string>;
}

function windowsOf(file: string, lines: string[]): Window[] {
  const out: Window[] = [];
  for (let s = 0; s < Math.max(1, lines.length - WINDOW + STEP); s += STEP) {
    const text = lines.slice(s, s + WINDOW).join('\n');
    out.push({ file, startLine: s, text, tokens: tokenSet(text) });
  }
  return out;
}

export class JaccardSystem implements BenchSystem {
  readonly name = 'jaccard';
  private docs = new Map<number, Set<string>>();
  private files: RepoFile[] = [];
  private windows = new Map<string, Window[]>();

  async indexRepo(repo: Repo, docs: FragmentDoc[]): Promise<void> {
    this.docs.clear();
    await this.addDocs(docs);
    this.files = repo.files;
    this.windows.clear();
    for (const f of repo.files) this.windows.set(f.relPath, windowsOf(f.relPath, f.lines));
  }
  async addDocs(docs: FragmentDoc[]): Promise<void> {
    for (const d of docs) this.docs.set(d.id, tokenSet(d.text));
  }
  async removeDocs(ids: number[]): Promise<void> {
    for (const id of ids) this.docs.delete(id);
  }
  private query(task: Task): Set<string> {
    return tokenSet(task.prefix_lines.slice(-WINDOW).join('\n'));
  }
  async rank(task: Task, k: number): Promise<number[]> {
    const q = this.query(task);
    const scored: { id: number; s: number }[] = [];
    for (const [id, toks] of this.docs) {
      const s = jaccard(q, toks);
      if (s > 0) scored.push({ id, s });
    }
    scored.sort((a, b) => b.s - a.s || a.id - b.id);
    return scored.slice(0, k).map((x) => x.id);
  }
  async context(task: Task): Promise<string[]> {
    const q = this.query(task);
    const L = task.cursor.line;
    const taskLines = splitLines(task.left_context);
    const candidates: { w: Window; s: number }[] = [];
    for (const f of this.files) {
      // The editor's view of the task file stops at the cursor; skip windows overlapping the query window.
      const ws = f.relPath === task.file ? windowsOf(f.relPath, taskLines).filter((w) => w.startLine + WINDOW - 1 < task.context_start_line) : this.windows.get(f.relPath)!;
      for (const w of ws) candidates.push({ w, s: jaccard(q, w.tokens) });
    }
    candidates.sort((a, b) => b.s - a.s);
    // Cody/Copilot keep at most one best window per file.
    const seenFiles = new Set<string>();
    const out: string[] = [];
    for (const { w } of candidates) {
      if (seenFiles.has(w.file) || (w.file === task.file && w.startLine >= L)) continue;
      seenFiles.add(w.file);
      out.push(w.text);
      if (out.length >= 20) break;
    }
    return out;
  }
}
