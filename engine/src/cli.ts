// `reporecall index DIR [--index-dir D]`, `reporecall query DIR --file F --line L [--k N] [--json]`,
// `reporecall bench ...` (forwards to the benchmark). Without --index-dir the index lives in the
// per-user cache directory, never inside DIR.
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from './engine';
import { defaultIndexDir } from './indexLocation';
import { teamMain } from './team/cli';
import { flag, queryFromArgs } from './util/cliArgs';

const USAGE = `usage:
  reporecall index DIR [--index-dir D] [--model DIR] [--no-dense]
  reporecall query DIR --file F --line L [--k N] [--index-dir D] [--json]
  reporecall query DIR --text "free text" [--k N] [--json]
  reporecall index DIR --to postgres://USER@HOST/DB [--repo NAME] [--wait SECONDS] [--no-dense]
  reporecall query DIR --from postgres://USER@HOST/DB [--repo NAME] (--file F --line L | --text T) [--k N] [--json]
  reporecall bench [--split DIR] [--out FILE.json] [--limit N] [--systems a,b,...]`;


export async function main(argv: string[]): Promise<number> {
  const [cmd, dirArg] = argv;
  if (cmd === 'bench') {
    process.argv = [process.argv[0], 'bench', ...argv.slice(1)];
    require(path.join(__dirname, '../../test/bench/run.js'));
    return new Promise(() => undefined); // the bench exits by itself
  }
  const team = await teamMain(argv);
  if (team !== undefined) return team;
  if ((cmd !== 'index' && cmd !== 'query') || !dirArg) {
    console.error(USAGE);
    return 2;
  }
  const root = path.resolve(dirArg);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    console.error(`reporecall: ${root} is not a directory`);
    return 2;
  }
  const indexDir = flag(argv, 'index-dir') ?? defaultIndexDir(root);
  const json = argv.includes('--json');
  const log = (l: string) => console.error(l);
  // `query` never writes: it reads the last commit and catches up with the workspace in memory.
  const engine = await Engine.open({ root, indexDir, modelDir: flag(argv, 'model'), dense: !argv.includes('--no-dense'), readOnly: cmd === 'query', log });
  try {
    let lastShown = 0;
    const stats = await engine.indexAll((p) => {
      if (!json && process.stderr.isTTY && Date.now() - lastShown > 200) {
        lastShown = Date.now();
        process.stderr.write(`\r${p.phase} ${p.done}/${p.total}   `);
      }
    });
    if (!json && process.stderr.isTTY) process.stderr.write('\r');
    if (cmd === 'index') {
      const skipped = Object.entries(stats.skipped).map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
      if (json) console.log(JSON.stringify({ indexDir, ...stats }));
      else console.log(`indexed ${stats.files} files (${stats.changedFiles} changed) into ${stats.chunks} chunks in ${stats.seconds.toFixed(2)} s; skipped: ${skipped}; index ${(stats.indexBytes / 1e6).toFixed(1)} MB at ${indexDir}`);
      return 0;
    }
    if (stats.changedFiles) log(`${stats.changedFiles} of ${stats.files} files changed since the index was saved: caught up in memory for this query, not saved (\`reporecall index\` saves them)`);
    const k = Number(flag(argv, 'k') ?? 5);
    const asked = queryFromArgs(argv, root);
    if ('error' in asked) {
      console.error(asked.error);
      return 2;
    }
    const hits = await engine.retrieve(asked.query, { k });
    if (json) console.log(JSON.stringify(hits, null, 1));
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
