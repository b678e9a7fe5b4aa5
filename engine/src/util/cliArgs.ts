// The command line's shared readings, for the local index (cli.ts) and the team index (team/cli.ts).
import * as fs from 'fs';
import * as path from 'path';
import type { EditorState } from '../types';

/** The value after `--name`, if given. */
export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * What `reporecall query` asks about: `--text`'s free text, or the editor's view at `--file F
 * --line L` (the file up to that 0-based line); an error message when neither is given properly.
 */
export function queryFromArgs(argv: string[], root: string): { query: EditorState | string } | { error: string } {
  const text = flag(argv, 'text');
  if (text !== undefined) return { query: text };
  const file = flag(argv, 'file');
  const line = Number(flag(argv, 'line'));
  if (!file || !Number.isInteger(line) || line < 0) return { error: 'reporecall query: --file F and --line L (0-based) are required, or --text' };
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  const content = fs.readFileSync(path.join(root, rel), 'utf8');
  return { query: { file: rel.split(path.sep).join('/'), prefix: content.split('\n').slice(0, line).join('\n') + '\n', line } };
}
