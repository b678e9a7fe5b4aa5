// `reporecall index DIR [--index-dir D] [--skipped]`, `reporecall query DIR --file F --line L [--k N] [--json]`,
// `reporecall publish DIR --to postgres://…` (publish/cli.ts), `reporecall mcp [DIR]` (an MCP server over stdio: mcp/server.ts), `reporecall bench ...` (forwards to the benchmark). Without --index-dir the index lives in the
// per-user cache directory, never inside DIR. A command line it cannot run as written exits with 2;
// SIGTERM / SIGINT close the engine (saving, releasing the writer lock) and end the process by that signal.
import * as path from 'path';
import { Engine } from './engine';
import { defaultIndexDir } from './indexLocation';
import { publishMain } from './publish/cli';
import type { IndexStats } from './api';
import type { SkippedFile } from './types';
import { parseCommand, parseMcp, queryFromArgs, UsageError, type IndexArgs, type PublishArgs, type QueryArgs } from './util/cliArgs';
import { runMcp } from './mcp/main';
import { closeOnSignals } from './util/termination';

const USAGE = `usage:
  reporecall index DIR [--index-dir D] [--model DIR] [--no-dense] [--skipped] [--json]
  reporecall query DIR --file F --line L [--k N] [--index-dir D] [--json]
  reporecall query DIR --text "free text" [--k N] [--json]
  reporecall publish DIR --to postgres://USER@HOST/DB [--repo NAME] [--commit SHA] [--local-index D] [--keep-commits N] [--no-dense] [--json]
  reporecall mcp [DIR] [--index-dir D] [--model DIR] [--no-dense] [--exclude GLOB]... [--deny GLOB]...
  reporecall bench [--split DIR] [--out FILE.json] [--limit N] [--systems a,b,...]`;

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'bench') {
    process.argv = [process.argv[0], 'bench', ...argv.slice(1)];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bench ships beside the CLI only in a checkout
    require(path.join(__dirname, '../../test/bench/run.js'));
    return new Promise(() => undefined); // the bench exits by itself
  }
  try {
    if (argv[0] === 'mcp') {
      const args = parseMcp(argv.slice(1));
      return await closeOnSignals((signal) => runMcp(args, signal));
    }
    const args = parseCommand(argv);
    return await closeOnSignals((signal) => run(args, signal));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`reporecall: ${e.message}\n${USAGE}`);
    return 2;
  }
}

async function run(args: IndexArgs | QueryArgs | PublishArgs, signal: AbortSignal): Promise<number> {
  if (args.cmd === 'publish') return publishMain(args);
  // Read before anything is opened: a bad --file or --line is a usage error.
  const asked = args.cmd === 'query' ? queryFromArgs(args.ask, args.root) : undefined;
  const indexDir = args.indexDir ?? defaultIndexDir(args.root);
  // `query` never writes: it reads the last commit and catches up with the workspace in memory.
  const engine = await Engine.open({ root: args.root, indexDir, modelDir: args.model, dense: args.dense, readOnly: args.cmd === 'query', log: (l) => console.error(l) });
  try {
    const stats = await engine.indexAll(progressLine(args.json), signal);
    if (!args.json && process.stderr.isTTY) process.stderr.write('\r');
    if (args.cmd === 'index') {
      printIndexed(args, indexDir, stats, args.skipped ? engine.skippedFiles() : undefined);
      return 0;
    }
    if (stats.changedFiles) console.error(`${stats.changedFiles} of ${stats.files} files changed since the index was saved: caught up in memory for this query, not saved (\`reporecall index\` saves them)`);
    const hits = await engine.retrieve(asked!, { k: args.k, signal });
    if (args.json) console.log(JSON.stringify(hits, null, 1));
    else for (const h of hits) {
      const why = Object.entries(h.signals).map(([s, r]) => `${s}#${r}`).join(' ');
      console.log(`\n== ${h.file}:${h.startLine + 1}-${h.endLine + 1}  ${h.kind}${h.name ? ' ' + h.name : ''}  score ${h.score.toFixed(4)}  (${why})`);
      console.log(h.text.split('\n').slice(0, 12).join('\n'));
    }
    return 0;
  } finally {
    await engine.close();
  }
}

function progressLine(json: boolean): (p: { phase: string; done: number; total: number }) => void {
  let lastShown = 0;
  return (p) => {
    if (!json && process.stderr.isTTY && Date.now() - lastShown > 200) {
      lastShown = Date.now();
      process.stderr.write(`\r${p.phase} ${p.done}/${p.total}   `);
    }
  };
}

function printIndexed(args: IndexArgs, indexDir: string, stats: IndexStats, skippedFiles: readonly SkippedFile[] | undefined): void {
  if (args.json) {
    console.log(JSON.stringify({ indexDir, ...stats, ...(skippedFiles ? { skippedFiles } : {}) }));
    return;
  }
  const skipped = Object.entries(stats.skipped).map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  console.log(`indexed ${stats.files} files (${stats.changedFiles} changed) into ${stats.chunks} chunks in ${stats.seconds.toFixed(2)} s; skipped: ${skipped}; index ${(stats.indexBytes / 1e6).toFixed(1)} MB at ${indexDir}`);
  // One skipped file a line, tab-separated: path, reason, detail. A path holding a tab or line break is written as a JSON string.
  for (const s of [...(skippedFiles ?? [])].sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0))) console.log([/[\t\r\n"]/.test(s.relPath) ? JSON.stringify(s.relPath) : s.relPath, s.reason, s.detail ?? ''].join('\t').trimEnd());
}
