// Protocol N's `ripgrep` system: what an agent does first with a question about code. One search
// per query word (Debian's `rg`, case-insensitive, fixed string), stop words dropped; files ranked
// by how many distinct query words they match, then by total matches, then by path.
import { execFile } from 'child_process';

// The `stopword` package's English list (a maintained list, not our own); it ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no type declarations to import against
const { eng: ENGLISH_STOP_WORDS } = require('stopword') as { eng: string[] };
const STOP = new Set(ENGLISH_STOP_WORDS.map((w) => w.toLowerCase()));

/** Words shorter than this are not searched (a two-letter substring matches nearly every file). */
export const MIN_SEARCH_WORD = 3;

/** The words searched for a query: lower-cased runs of letters and digits, no stop words, no short words, first occurrence order. */
export function searchWords(query: string): string[] {
  const words = (query.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= MIN_SEARCH_WORD && !STOP.has(w));
  return [...new Set(words)];
}

/** `rg --count-matches` per file for one word: relative path → matches. */
export function countMatches(root: string, word: string, rgPath = 'rg'): Promise<Map<string, number>> {
  const args = ['--no-config', '--no-ignore', '--count-matches', '--ignore-case', '--fixed-strings', '--null', '--no-messages', '--', word, '.'];
  return new Promise((resolve, reject) => {
    execFile(rgPath, args, { cwd: root, maxBuffer: 64 << 20 }, (err, stdout) => {
      // Exit status 1: no match.
      if (err && (err as unknown as { code?: number | string }).code !== 1) return reject(err);
      const out = new Map<string, number>();
      for (const line of stdout.split('\n')) {
        const nul = line.indexOf('\0');
        if (nul > 0) out.set(line.slice(0, nul).replace(/^\.\//, ''), Number(line.slice(nul + 1)));
      }
      resolve(out);
    });
  });
}

export interface FileScore { file: string; words: number; matches: number }

/** The ranking rule: distinct words matched, then total matches (both descending), then path. */
export function rankFiles(perWord: Map<string, number>[]): FileScore[] {
  const scores = new Map<string, FileScore>();
  for (const counts of perWord) for (const [file, n] of counts) {
    const s = scores.get(file) ?? { file, words: 0, matches: 0 };
    s.words++;
    s.matches += n;
    scores.set(file, s);
  }
  return [...scores.values()].sort((a, b) => b.words - a.words || b.matches - a.matches || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Files for a query, best first: one `rg` run per word, one after another as an agent's tool calls. */
export async function ripgrepSearch(root: string, query: string, rgPath = 'rg'): Promise<string[]> {
  const perWord: Map<string, number>[] = [];
  for (const w of searchWords(query)) perWord.push(await countMatches(root, w, rgPath));
  return rankFiles(perWord).map((s) => s.file);
}
