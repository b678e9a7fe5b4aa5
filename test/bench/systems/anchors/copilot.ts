// `copilot`: GitHub Copilot's "neighboring tabs" context, as described publicly (GitHub's blog
// posts on Copilot's prompt and context, and the published analyses of its VS Code extension):
// the last 60 lines before the cursor are compared by Jaccard similarity of their token sets with
// every 60-line window (sliding by one line) of up to 20 neighbouring files of the same language;
// each file offers its best window; the best 4 windows, one per file, go into the prompt.
// Approximated: the editor's open tabs are unknown to the bench; the task file's imports
// (resolved to repository files) and then the files of its directory stand in for them.
import type { Task } from '../../split';
import type { BenchSystem } from '../system';
import { keywordsOf } from '../../protocols';
import { CorpusContextSystem } from './corpus';

export const COPILOT = { windowLines: 60, maxNeighbourFiles: 20, maxSnippets: 4 } as const;

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Copilot's tokens: words, minus the language's keywords. */
export function tokensOf(text: string, stop: ReadonlySet<string>): string[] {
  return (text.match(WORD) ?? []).filter((w) => !stop.has(w));
}

export interface Window {
  file: string;
  startLine: number;
  endLine: number;
  score: number;
}

/**
 * The best `size`-line window of a file (sliding by one line) by Jaccard similarity of token sets
 * with `query`; the earliest on ties. Counts are kept incrementally, so a file costs one pass.
 */
export function bestWindow(file: string, lines: string[], query: ReadonlySet<string>, size: number, stop: ReadonlySet<string>): Window | undefined {
  if (!lines.length || !query.size) return undefined;
  const lineTokens = lines.map((l) => tokensOf(l, stop));
  const counts = new Map<string, number>();
  let inter = 0;
  const add = (t: string) => {
    const n = counts.get(t) ?? 0;
    counts.set(t, n + 1);
    if (n === 0 && query.has(t)) inter++;
  };
  const drop = (t: string) => {
    const n = counts.get(t)!;
    if (n === 1) {
      counts.delete(t);
      if (query.has(t)) inter--;
    } else counts.set(t, n - 1);
  };
  const w = Math.min(size, lines.length);
  for (let i = 0; i < w; i++) for (const t of lineTokens[i]) add(t);
  let best: Window | undefined;
  for (let s = 0; s + w <= lines.length; s++) {
    if (s > 0) {
      for (const t of lineTokens[s - 1]) drop(t);
      for (const t of lineTokens[s + w - 1]) add(t);
    }
    const union = counts.size + query.size - inter;
    const score = union ? inter / union : 0;
    if (score > 0 && (!best || score > best.score)) best = { file, startLine: s, endLine: s + w - 1, score };
  }
  return best;
}

/** The best windows, at most one per file, best first, at most `n`. */
export function topOnePerFile(windows: Window[], n: number): Window[] {
  const best = new Map<string, Window>();
  for (const w of windows) {
    const b = best.get(w.file);
    if (!b || w.score > b.score) best.set(w.file, w);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.file.localeCompare(b.file)).slice(0, n);
}

/** Neighbouring files: imported files first, then the directory's files, same language, at most `max`. */
export function neighbourFiles(taskFile: string, imported: string[], allFiles: string[], max: number): string[] {
  const dir = taskFile.slice(0, taskFile.lastIndexOf('/') + 1);
  const sameDir = allFiles.filter((f) => f !== taskFile && f.startsWith(dir) && !f.slice(dir.length).includes('/')).sort();
  return [...new Set([...imported.filter((f) => f !== taskFile), ...sameDir])].slice(0, max);
}

/** Copilot ranks windows of neighbouring files, never the protocol's fragments (the positive lies in the task file). */
export class CopilotSystem extends CorpusContextSystem implements BenchSystem {
  readonly name = 'copilot';

  async context(task: Task): Promise<string[]> {
    const stop = keywordsOf(task.language);
    const here = await this.corpus.taskFile(task);
    const query = new Set(tokensOf(here.lines.slice(-COPILOT.windowLines).join('\n'), stop));
    const neighbours = neighbourFiles(task.file, await this.corpus.importedFiles(task), [...this.corpus.files.keys()], COPILOT.maxNeighbourFiles);
    const windows: Window[] = [];
    for (const f of neighbours) {
      const w = bestWindow(f, this.corpus.files.get(f)!.lines, query, COPILOT.windowLines, stop);
      if (w) windows.push(w);
    }
    return topOnePerFile(windows, COPILOT.maxSnippets).map((w) => this.corpus.files.get(w.file)!.lines.slice(w.startLine, w.endLine + 1).join('\n'));
  }
}
