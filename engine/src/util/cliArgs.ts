// The command line's readings, for the local index (cli.ts) and publishing a team index (publish/cli.ts).
// Node's own parser (util.parseArgs, strict) rejects unknown flags and a flag left without its
// value (`--to` at the end, `--to --json`); the checks here reject values that are empty or out of
// range, and flags that do not apply together. Every rejection is a UsageError: exit code 2.
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs, type ParseArgsConfig } from 'util';
import { readSourceText } from './sourceText';
import type { EditorState } from '../types';

/** A command line that cannot be run as written; the CLI prints the message and exits with 2. */
export class UsageError extends Error {}

export interface IndexArgs {
  cmd: 'index';
  root: string;
  indexDir?: string;
  model?: string;
  dense: boolean;
  json: boolean;
  /** List every skipped file with its reason (`--skipped`). */
  skipped: boolean;
}

export interface QueryArgs {
  cmd: 'query';
  root: string;
  indexDir?: string;
  model?: string;
  dense: boolean;
  json: boolean;
  k: number;
  ask: { text: string } | { file: string; line: number };
}

/** `publish DIR --to URL [--repo NAME] [--commit SHA] [--local-index D] [--keep-commits N]`: publish/publish.ts. */
export interface PublishArgs {
  cmd: 'publish';
  root: string;
  model?: string;
  dense: boolean;
  json: boolean;
  url: string;
  repo?: string;
  commit?: string;
  localIndex?: string;
  keepCommits?: number;
}

/** Most hits a query may ask for. */
const MAX_K = 1000;

const SHARED = {
  'index-dir': { type: 'string' },
  model: { type: 'string' },
  'no-dense': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

const OPTIONS = {
  index: { ...SHARED, skipped: { type: 'boolean' } },
  query: { ...SHARED, k: { type: 'string' }, file: { type: 'string' }, line: { type: 'string' }, text: { type: 'string' } },
  publish: { model: SHARED.model, 'no-dense': SHARED['no-dense'], json: SHARED.json, to: { type: 'string' }, repo: { type: 'string' }, commit: { type: 'string' }, 'local-index': { type: 'string' }, 'keep-commits': { type: 'string' } },
} as const satisfies Record<string, ParseArgsConfig['options']>;

type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** Reads `index`, `query` and `publish` command lines; throws UsageError for anything it cannot run as asked. */
export function parseCommand(argv: string[]): IndexArgs | QueryArgs | PublishArgs {
  const [cmd, ...rest] = argv;
  if (cmd !== 'index' && cmd !== 'query' && cmd !== 'publish') throw new UsageError(cmd === undefined ? 'no command given' : `unknown command '${cmd}'`);
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS[cmd], strict: true, allowPositionals: true }) as { values: Values; positionals: string[] };
  } catch (e) {
    throw new UsageError(`${cmd}: ${(e as Error).message.split('\n')[0]}`);
  }
  const { values, positionals } = parsed;
  for (const [name, v] of Object.entries(values)) {
    if (v === '') throw new UsageError(`${cmd}: --${name} needs a value`);
  }
  if (positionals.length !== 1) throw new UsageError(`${cmd}: give exactly one workspace folder (got ${positionals.length ? positionals.map((p) => `'${p}'`).join(', ') : 'none'})`);
  const root = path.resolve(positionals[0]);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`${root} is not a directory`);
  const common = { root, indexDir: str(values, 'index-dir'), model: str(values, 'model'), dense: !values['no-dense'], json: values.json === true };
  if (cmd === 'publish') return publishArgs(values, common);
  return cmd === 'index' ? { cmd: 'index', ...common, skipped: values.skipped === true } : queryArgs(values, common);
}

type Common = Pick<IndexArgs, 'root' | 'indexDir' | 'model' | 'dense' | 'json'>;

function publishArgs(values: Values, common: Common): PublishArgs {
  const to = str(values, 'to');
  if (to === undefined) throw new UsageError('publish: --to postgres://USER@HOST/DB is required');
  const keep = str(values, 'keep-commits');
  if (keep !== undefined && !(/^\d+$/.test(keep) && Number(keep) >= 1)) throw new UsageError(`publish: --keep-commits takes a whole number ≥ 1 (got '${keep}')`);
  const commit = str(values, 'commit');
  if (commit !== undefined && !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit)) throw new UsageError(`publish: --commit takes a full git commit sha (got '${commit}')`);
  return {
    cmd: 'publish', root: common.root, model: common.model, dense: common.dense, json: common.json, url: postgresUrl('--to', to),
    repo: str(values, 'repo'), commit, localIndex: str(values, 'local-index'), keepCommits: keep === undefined ? undefined : Number(keep),
  };
}

function queryArgs(values: Values, common: Common): QueryArgs {
  const kText = str(values, 'k');
  if (kText !== undefined && !(/^\d+$/.test(kText) && Number(kText) >= 1 && Number(kText) <= MAX_K)) {
    throw new UsageError(`query: --k takes a whole number from 1 to ${MAX_K} (got '${kText}')`);
  }
  const text = str(values, 'text');
  const file = str(values, 'file');
  const line = str(values, 'line');
  let ask: QueryArgs['ask'];
  if (text !== undefined) {
    if (file !== undefined || line !== undefined) throw new UsageError('query: give --text, or --file with --line, not both');
    ask = { text };
  } else {
    if (file === undefined || line === undefined) throw new UsageError('query: --file F and --line L (0-based) are required, or --text');
    if (!/^\d+$/.test(line)) throw new UsageError(`query: --line takes a 0-based line number (got '${line}')`);
    ask = { file, line: Number(line) };
  }
  return { cmd: 'query', ...common, k: kText === undefined ? 5 : Number(kText), ask };
}

export interface McpArgs {
  cmd: 'mcp';
  root: string;
  indexDir?: string;
  model?: string;
  dense: boolean;
  /** Extra ignore patterns (`--exclude P`, repeatable: the editor's files.exclude) and secret deny-list patterns (`--deny P`). */
  excludePatterns: string[];
  secretPatterns: string[];
}

/** Reads `mcp [DIR] [--index-dir D] [--model DIR] [--no-dense] [--exclude P]... [--deny P]...` (DIR: the current folder when left out). */
export function parseMcp(argv: string[]): McpArgs {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: { 'index-dir': SHARED['index-dir'], model: SHARED.model, 'no-dense': SHARED['no-dense'], exclude: { type: 'string', multiple: true }, deny: { type: 'string', multiple: true } }, strict: true, allowPositionals: true }) as { values: Values; positionals: string[] };
  } catch (e) {
    throw new UsageError(`mcp: ${(e as Error).message.split('\n')[0]}`);
  }
  const { values, positionals } = parsed;
  for (const [name, v] of Object.entries(values)) {
    if (v === '' || (Array.isArray(v) && v.includes(''))) throw new UsageError(`mcp: --${name} needs a value`);
  }
  if (positionals.length > 1) throw new UsageError(`mcp: give at most one workspace folder (got ${positionals.map((p) => `'${p}'`).join(', ')})`);
  const root = path.resolve(positionals[0] ?? '.');
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`${root} is not a directory`);
  return { cmd: 'mcp', root, indexDir: str(values, 'index-dir'), model: str(values, 'model'), dense: !values['no-dense'], excludePatterns: list(values, 'exclude'), secretPatterns: list(values, 'deny') };
}

function list(values: Values, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

function postgresUrl(flagName: string, url: string): string {
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new UsageError(`${flagName} takes a PostgreSQL URL, postgres://USER@HOST/DB (got a value that is not one)`);
  return url;
}

/**
 * What `reporecall query` asks about: the free text, or the editor's view at `--file F --line L`
 * (the file up to that 0-based line, decoded and split as the index reads it).
 */
export function queryFromArgs(ask: QueryArgs['ask'], root: string): EditorState | string {
  if ('text' in ask) return ask.text;
  const rel = path.isAbsolute(ask.file) ? path.relative(root, ask.file) : ask.file;
  let content: string;
  try {
    content = readSourceText(path.join(root, rel));
  } catch (e) {
    throw new UsageError(`query: cannot read --file ${ask.file}: ${(e as Error).message}`);
  }
  const lines = content.split('\n');
  if (ask.line >= lines.length) throw new UsageError(`query: --line ${ask.line} is past the end of ${ask.file} (${lines.length} lines, numbered from 0)`);
  return { file: rel.split(path.sep).join('/'), prefix: lines.slice(0, ask.line).join('\n') + '\n', line: ask.line };
}
