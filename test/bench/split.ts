// Loading a benchmark split laid out as ../shared/bench (README: repos/, tasks.jsonl, repos.json).
import * as fs from 'fs';
import * as path from 'path';

export interface Task {
  id: string;
  repo: string;
  file: string;
  cursor: { line: number; character: number };
  prefix_lines: string[];
  target: string;
  language: string;
  context_start_line: number;
  target_end_line: number;
  left_context: string;
  positive_fragment: { file: string; start_line: number; end_line: number };
  positive_fragment_grid: { file: string; start_line: number; end_line: number };
  file_line_count: number;
}

export interface RepoFile {
  relPath: string;
  content: string;
  lines: string[];
}

export interface Repo {
  name: string;
  /** The language family (languageFamily): python, typescript, javascript, go, rust, java, c, cpp. */
  language: LanguageFamily;
  root: string;
  files: RepoFile[];
  byPath: Map<string, RepoFile>;
  sourceBytes: number;
}

import { splitLines } from '../../engine/src/util/lines';
/** The benchmark's line rule is the engine's. */
export { splitLines };

/** Corpus extensions per language family (protocol step 1; ../bench-langs/README.md for the six added languages). */
export const LANGUAGE_EXTENSIONS: Record<LanguageFamily, string[]> = {
  python: ['.py'],
  typescript: ['.ts', '.tsx', '.mts', '.cts'],
  javascript: ['.js', '.mjs', '.cjs', '.jsx'],
  go: ['.go'],
  rust: ['.rs'],
  java: ['.java'],
  c: ['.c', '.h'],
  cpp: ['.cc', '.cpp', '.cxx', '.hh', '.hpp', '.hxx', '.h'],
};

export type LanguageFamily = 'python' | 'typescript' | 'javascript' | 'go' | 'rust' | 'java' | 'c' | 'cpp';

/** A task's reporting subset: its VS Code language id, with the React variants in their family. */
export function languageFamily(lang: string): LanguageFamily {
  if (lang === 'typescriptreact') return 'typescript';
  if (lang === 'javascriptreact') return 'javascript';
  if (lang in LANGUAGE_EXTENSIONS) return lang as LanguageFamily;
  throw new Error(`unknown task language '${lang}'`);
}

function walk(dir: string, rel: string, exts: string[], out: string[]): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(path.join(dir, e.name), r, exts, out);
    else if (e.isFile() && exts.some((x) => e.name.endsWith(x))) out.push(r);
  }
}

export function loadTasks(splitDir: string, opts: { limit?: number; repos?: string[]; file?: string } = {}): Task[] {
  const lines = fs.readFileSync(path.join(splitDir, opts.file ?? 'tasks.jsonl'), 'utf8').split('\n').filter(Boolean);
  let tasks = lines.map((l) => JSON.parse(l) as Task);
  if (opts.repos?.length) tasks = tasks.filter((t) => opts.repos!.includes(t.repo));
  if (opts.limit) {
    // An even sample per repository keeps every repository and language represented.
    const byRepo = new Map<string, Task[]>();
    for (const t of tasks) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
    const per = Math.max(1, Math.ceil(opts.limit / byRepo.size));
    tasks = [...byRepo.values()].flatMap((ts) => ts.filter((_, i) => i % Math.max(1, Math.floor(ts.length / per)) === 0).slice(0, per));
  }
  return tasks;
}

export function loadRepo(splitDir: string, name: string, language: LanguageFamily): Repo {
  const root = path.join(splitDir, 'repos', name);
  const rels: string[] = [];
  walk(root, '', LANGUAGE_EXTENSIONS[language], rels);
  rels.sort();
  const files: RepoFile[] = [];
  let sourceBytes = 0;
  for (const relPath of rels) {
    const content = fs.readFileSync(path.join(root, relPath), 'utf8');
    sourceBytes += Buffer.byteLength(content);
    files.push({ relPath, content, lines: splitLines(content) });
  }
  return { name, language, root, files, byPath: new Map(files.map((f) => [f.relPath, f])), sourceBytes };
}
