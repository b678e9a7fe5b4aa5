// `npm run bench:ui`: the extension's latency as a user sees it, in a real VS Code (code-server,
// driven by Debian's chromium through playwright-core like test/e2e/ui.e2e.ts). A benchmark, not a
// test: it asserts nothing and is not part of CI. Wrap it in the shared lock on this machine:
//   flock /tmp/reporecall-bench.lock npm run bench:ui -- --repo honojs_hono --positions 40 --out .bench-out/ui.json
// (`--only-hover`: the same edits and hovers, without the first ghost, Find Related Code or the floor pass;
// `--hovers N`: identifiers hovered per position, default 4: 25 positions give about 60 shown hovers)
//
// On a copy of ../shared/bench/repos/REPO it
//   1. builds the index in a first session (not measured) and stops code-server;
//   2. starts a second session on the saved index and, as soon as the workbench is up, opens a
//      position that showed ghost text in session 1 and types its first two characters again (until
//      ghost text appears, the engine may still be opening): first_ghost_ms is the time from the
//      extension's activation to that ghost text;
//   3. for each of N seeded positions drawn from the split's tasks for REPO (file and line where
//      real code continues): the line's code is selected and deleted (the cursor stays after its
//      indentation) and the time from the Delete keydown to ghost text in the DOM is measured
//      (ghost); after a 1 s pause the first two characters of the real line are typed 150 ms apart
//      and reported apart (a keystroke into ghost text already showing is served by VS Code from
//      that suggestion: typed_along); Find Related Code runs from the command palette (Enter
//      to a complete list; duplicate rows in the top 10 visible); the mouse rests
//      on identifiers above the cursor (`--hovers`, distinct names) and on a keyword, comment, string or number, and the time
//      to a visible RepoRecall hover is measured;
//   4. the floor: RepoRecall's completions and hover off and test/bench/ui/floor-extension on (ghost
//      text, a hover and a QuickPick answered at once), the same keystrokes, palette and mouse
//      moves: what VS Code alone takes on this machine under the same load.
// Times in the page come from a MutationObserver (first DOM change that shows the result after the
// keydown / mouse move); the extension's own time per request, engine time apart, comes from
// REPORECALL_TIMINGS_FILE (extension/src/timings.ts).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { TimingRecord } from '../../../extension/src/timings';
import { classifyPlaces, drawTasks, hoverIdentifiers, duplicateRows, normaliseRow, percentile, type Place, type UiTask } from './places';
import { prepareWorkspace, setUserSetting, startServer, stopServer } from './server';
import { arm, GHOST, GHOST_PRED, gotoPos, hit, hoverMs, openBrowser, openFile, pageState, paletteToList, ROWS, runCommand } from './page';
import { markdown, uiResult, withPrefetch, type FirstGhost, type Floor, type GhostSample, type RelatedSample, type Samples } from './report';

const ROOT = path.resolve(__dirname, '../../../..');
const HERE = path.join(ROOT, 'scripts', 'vscode');

interface Args {
  repo: string;
  positions: number;
  seed: number;
  split: string;
  out: string;
  port: number;
  typeDelay: number;
  nonIdentifier: number;
  skipBuild: boolean;
  keep: boolean;
  label: string;
  /** Hovers only (with the same edits before them): no first ghost, Find Related Code or floor pass. */
  onlyHover: boolean;
  /** Identifiers hovered per position (distinct names, nearest the cursor first): enough hovers for a steady p95. */
  hovers: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    repo: 'honojs_hono', positions: 40, seed: 1, split: path.resolve(ROOT, '../shared/bench'), out: path.join(ROOT, '.bench-out', 'ui.json'),
    port: Number(process.env.PORT ?? 18390), typeDelay: 150, nonIdentifier: 32, skipBuild: false, keep: false, label: '', onlyHover: false, hovers: 4,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = (): string => argv[++i];
    switch (k) {
      case '--repo': a.repo = v(); break;
      case '--positions': a.positions = Number(v()); break;
      case '--seed': a.seed = Number(v()); break;
      case '--split': a.split = path.resolve(v()); break;
      case '--out': a.out = path.resolve(v()); break;
      case '--port': a.port = Number(v()); break;
      case '--type-delay': a.typeDelay = Number(v()); break;
      case '--non-identifier': a.nonIdentifier = Number(v()); break;
      case '--skip-build': a.skipBuild = true; break;
      case '--keep': a.keep = true; break;
      case '--label': a.label = v(); break;
      case '--only-hover': a.onlyHover = true; break;
      case '--hovers': a.hovers = Number(v()); break;
      default: throw new Error(`unknown argument ${k}`);
    }
  }
  return a;
}

const t0 = Date.now();
const log = (...m: unknown[]): void => console.log(`[bench:ui ${((Date.now() - t0) / 1000).toFixed(0)}s]`, ...m);

function readTimings(file: string): TimingRecord[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as TimingRecord);
  } catch {
    return [];
  }
}

/** The line of a task as it is on disk, and the indentation before its code. */
function taskLine(ws: string, task: UiTask): { lines: string[]; indent: number } {
  const lines = fs.readFileSync(path.join(ws, task.file), 'utf8').split('\n');
  return { lines, indent: /^\s*/.exec(lines[task.line] ?? '')![0].length };
}

/** Session 1: the first build of the index (not measured), and a position that shows ghost text for session 2's first ghost. */
async function buildSession(args: Args, page: Page, ws: string, tasks: UiTask[]): Promise<UiTask | undefined> {
  let probe: UiTask | undefined;
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.waitForSelector('.statusbar-item:has-text("chunks")', { timeout: 600_000 });
  // A position that shows ghost text (its first two characters typed), for the first ghost of session 2.
  for (const task of args.onlyHover ? [] : tasks.slice(0, 15)) try {
    const { indent } = taskLine(ws, task);
    await openFile(page, task.file);
    await gotoPos(page, task.line, indent);
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Delete');
    await page.waitForTimeout(300);
    await page.keyboard.type(task.target.trim().slice(0, 2), { delay: args.typeDelay });
    await arm(page, 'probe', GHOST_PRED);
    const shown = (await hit(page, 'probe', 1500)) !== undefined;
    await page.keyboard.press('Escape');
    for (let u = 0; u < 4; u++) await page.keyboard.press('Control+Z');
    if (shown) {
      probe = task;
      break;
    }
  } catch (err) {
    log(`probing ${task.file}:${task.line + 1} failed: ${(err as Error).message.split('\n')[0]}`);
  }
  log(probe ? `first-ghost position: ${probe.file}:${probe.line + 1}` : 'no probed position showed ghost text');
  return probe;
}

/**
 * First ghost text of the session: open the probed position's file at once and type its two
 * characters until ghost text shows (the engine may still be opening).
 */
async function firstGhost(args: Args, page: Page, ws: string, probe: UiTask | undefined): Promise<FirstGhost> {
  const out: FirstGhost = { firstTries: 0 };
  if (probe) try {
    const { indent } = taskLine(ws, probe);
    const two = probe.target.trim().slice(0, 2);
    await openFile(page, probe.file);
    await gotoPos(page, probe.line, indent);
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Delete');
    await page.keyboard.type(two[0]);
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; out.firstTries++) {
      await page.waitForTimeout(args.typeDelay);
      await arm(page, 'first', GHOST_PRED);
      await page.keyboard.type(two[1]);
      const h = await hit(page, 'first', 1000);
      if (h !== undefined) {
        const st = await pageState(page);
        out.firstGhostEpoch = st.origin + h;
        out.firstKeystrokeMs = h - st.key;
        break;
      }
      await page.keyboard.press('Backspace');
    }
    await page.keyboard.press('Escape');
    for (let u = 0; u < 6; u++) await page.keyboard.press('Control+Z');
  } catch (err) {
    log(`first ghost text: ${(err as Error).message.split('\n')[0]}`);
  }
  return out;
}

/**
 * Ghost text at one position: the keystroke that empties the line (the cursor where real code
 * continues) to ghost text there, through a completion request; then the first two characters of
 * the real line typed after a pause.
 */
async function ghostAt(args: Args, page: Page, task: UiTask, indent: number, label: string): Promise<GhostSample> {
  const typed = task.target.trim().slice(0, 2);
  await openFile(page, task.file);
  await gotoPos(page, task.line, indent);
  await page.keyboard.press('Shift+End');
  const before0 = (await page.evaluate(`(() => { ${GHOST_PRED} })()`)) as boolean;
  await arm(page, 'g0', GHOST_PRED);
  await page.keyboard.press('Delete');
  const h0 = await hit(page, 'g0', 2000);
  const st0 = await pageState(page);
  const k0 = st0.key;
  const ms0 = h0 !== undefined && !before0 ? h0 - k0 : undefined;
  // Wall-clock times of the keystroke and the ghost text, to place the provider's own span between them.
  const keyAt = st0.origin + k0;
  const shownAt = ms0 !== undefined ? st0.origin + h0! : undefined;
  await page.waitForTimeout(1000);
  // Keystroke -> ghost text: the first character after the pause (the measure), then the
  // second typed along. A keystroke typed into ghost text already showing is served by VS Code
  // from that suggestion: it is counted apart (typed_along), not as a request.
  const showing = async (): Promise<boolean> => (await page.evaluate(`(() => { ${GHOST_PRED} })()`)) as boolean;
  const before1 = await showing();
  await arm(page, 'g1', GHOST_PRED);
  await page.keyboard.type(typed[0]);
  const h1 = await hit(page, 'g1', 2000);
  const k1 = (await pageState(page)).key;
  await page.waitForTimeout(args.typeDelay);
  const before2 = await showing();
  await arm(page, 'g2', GHOST_PRED);
  await page.keyboard.type(typed[1]);
  const h2 = await hit(page, 'g2', 2000);
  const k2 = (await pageState(page)).key;
  const text = h1 !== undefined || h2 !== undefined ? (await page.locator(GHOST).allTextContents()).join('').slice(0, 60) : undefined;
  log(`${label} ${task.file}:${task.line + 1} ghost ${ms0 !== undefined ? `${ms0.toFixed(0)} ms` : 'none'}; first key ${h1 !== undefined ? `${(h1 - k1).toFixed(0)} ms${before1 ? ' (typed along)' : ''}` : 'none'}, second key ${h2 !== undefined ? `${(h2 - k2).toFixed(0)} ms${before2 ? ' (typed along)' : ''}` : 'none'} ${JSON.stringify(text ?? '')}`);
  await page.keyboard.press('Escape');
  return { id: task.id, ms: ms0, firstMs: h1 !== undefined && !before1 ? h1 - k1 : undefined, through: before1, secondMs: h2 !== undefined ? h2 - k2 : undefined, secondThrough: before2, text, keyAt, shownAt };
}

/** Find Related Code from the command palette, Enter to a complete list. */
async function relatedAt(page: Page): Promise<RelatedSample> {
  const listMs = await paletteToList(page, 'RepoRecall: Find Related Code', 10_000);
  const rows = (await page.evaluate(ROWS)) as string[];
  const dups = duplicateRows(rows);
  // The rows that repeat an earlier one, to see what the user saw twice.
  const dupRows = dups ? rows.slice(0, 10).filter((r, i, all) => all.slice(0, i).some((e) => normaliseRow(e) === normaliseRow(r))) : undefined;
  await page.keyboard.press('Escape');
  return { ms: listMs, rows: rows.length, dups, ...(dupRows ? { dupRows } : {}) };
}

/** Hovers: `args.hovers` identifiers above the cursor, and (until enough) a keyword, comment, string or number. */
async function hoversAt(args: Args, page: Page, task: UiTask, lines: string[], left: number, s: Samples): Promise<void> {
  const places = classifyPlaces(lines, task.line - 30, task.line, task.language === 'python');
  const ident = places.filter((p) => p.kind === 'identifier');
  const others = places.filter((p) => p.kind !== 'identifier');
  const picks: Place[] = [];
  for (const p of hoverIdentifiers(ident, args.hovers)) picks.push(p);
  const wantOthers = Math.ceil((args.nonIdentifier - s.nonIdent) / Math.max(1, left));
  const kinds: Place['kind'][] = ['keyword', 'comment', 'string', 'number'];
  for (let j = 0; j < wantOthers && others.length; j++) {
    const kind = kinds[(s.nonIdent + j) % kinds.length];
    const p = others.find((o) => o.kind === kind && !picks.includes(o)) ?? others.find((o) => !picks.includes(o));
    if (p) picks.push(p);
  }
  for (const p of picks) {
    const ms = await hoverMs(page, p, p.kind === 'identifier' ? 2500 : 1200);
    if (ms === null) continue;
    s.hovers.push({ kind: p.kind, ms, shown: ms !== undefined, text: p.text });
    if (p.kind !== 'identifier') s.nonIdent++;
  }
}

/** Session 2 at every position: ghost text, Find Related Code and hovers. */
async function measurePositions(args: Args, page: Page, ws: string, tasks: UiTask[]): Promise<Samples> {
  const s: Samples = { ghost: [], related: [], hovers: [], nonIdent: 0 };
  for (const [pi, task] of tasks.entries()) {
    const { lines, indent } = taskLine(ws, task);
    try {
      s.ghost.push(await ghostAt(args, page, task, indent, `${pi + 1}/${tasks.length}`));
      if (!args.onlyHover) s.related.push(await relatedAt(page));
      await hoversAt(args, page, task, lines, tasks.length - pi, s);
      await page.mouse.move(5, 5);
      // Undo the typing and the deletion, so later positions see the file as it is on disk.
      for (let u = 0; u < 4; u++) await page.keyboard.press('Control+Z');
    } catch (err) {
      log(`position ${task.id} failed: ${(err as Error).message.split('\n')[0]}`);
      s.ghost.push({ id: task.id });
    }
  }
  return s;
}

/**
 * The floor: the same keystrokes, palette and mouse moves with RepoRecall's completions and
 * hover off and test/bench/ui/floor-extension answering at once: what VS Code itself takes.
 */
async function floorPass(args: Args, page: Page, run: string, ws: string, tasks: UiTask[]): Promise<Floor> {
  const floor: number[] = [];
  // By position, to compare each ghost text with VS Code alone at the same place (the p95 of ~30 shown ghosts is a single sample).
  const floorById = new Map<string, number>();
  const floorRelated: number[] = [];
  const floorHover: number[] = [];
  if (!args.onlyHover) {
    await runCommand(page, 'RepoRecall: Toggle Completions');
    await runCommand(page, 'Ghost Floor: Toggle');
    setUserSetting(run, 'reporecall.hover.mode', 'off');
    await page.waitForTimeout(1000);
  }
  for (const task of args.onlyHover ? [] : tasks) {
    const { lines, indent } = taskLine(ws, task);
    try {
      await openFile(page, task.file);
      await gotoPos(page, task.line, indent);
      await page.keyboard.press('Shift+End');
      await arm(page, 'fl', GHOST_PRED);
      await page.keyboard.press('Delete');
      const hf = await hit(page, 'fl', 2000);
      const kf = (await pageState(page)).key;
      if (hf !== undefined) {
        floor.push(hf - kf);
        floorById.set(task.id, hf - kf);
      }
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Z');
      await page.waitForTimeout(300);

      const hr = await paletteToList(page, 'Ghost Floor: Quick Pick', 5000);
      if (hr !== undefined) floorRelated.push(hr);
      await page.keyboard.press('Escape');

      const ident = classifyPlaces(lines, task.line - 30, task.line, task.language === 'python').filter((p) => p.kind === 'identifier').pop();
      const hh = ident ? await hoverMs(page, ident, 2500) : undefined;
      if (typeof hh === 'number') floorHover.push(hh);
    } catch (err) {
      log(`floor at ${task.id} failed: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  log(`floor: ghost ${floor.length}/${tasks.length} p50 ${percentile(floor, 50)} p95 ${percentile(floor, 95)}; list p50 ${percentile(floorRelated, 50)} p95 ${percentile(floorRelated, 95)}; hover p50 ${percentile(floorHover, 50)} p95 ${percentile(floorHover, 95)}`);
  return { floor, floorById, floorRelated, floorHover };
}

/** Both sessions on one server folder: session 1 builds the index, session 2 measures; the result object. */
async function measure(args: Args, tasks: UiTask[], w: ReturnType<typeof prepareWorkspace>): Promise<Record<string, unknown>> {
  const { run, ws, env, url, timingsFile } = w;
  const b0 = Date.now();
  startServer(run, args.port, ws, env);
  const first = await openBrowser('bench-ui-1');
  await first.page.goto(url);
  const probe = await buildSession(args, first.page, ws, tasks);
  await first.close();
  stopServer(run);
  const buildS = (Date.now() - b0) / 1000;
  log(`index built in session 1 (${buildS.toFixed(0)} s with startup)`);
  fs.rmSync(timingsFile, { force: true });

  // Session 2: everything measured.
  startServer(run, args.port, ws, env);
  const browser = await openBrowser('bench-ui-2');
  const page = browser.page;
  page.on('pageerror', (e) => log('pageerror', e.message));
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  const ghost1 = await firstGhost(args, page, ws, probe);
  await page.waitForTimeout(300); // let the timings file catch up
  const activation = readTimings(timingsFile).find((r) => r.kind === 'activate');
  const firstGhostMs = ghost1.firstGhostEpoch !== undefined && activation ? Math.round(ghost1.firstGhostEpoch - activation.at) : null;
  log(`first ghost text ${firstGhostMs} ms after activation (keystroke -> ghost ${ghost1.firstKeystrokeMs?.toFixed(0)} ms, ${ghost1.firstTries + 1} tries)`);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.statusbar-item:has-text("chunks")', { timeout: 600_000 });
  const samples = await measurePositions(args, page, ws, tasks);
  const floor = await floorPass(args, page, run, ws, tasks);
  await page.waitForTimeout(500);
  await browser.close();
  // The extension's own times, engine apart.
  return uiResult(args, tasks, { samples, first: { ...ghost1, firstGhostMs }, floor, recs: withPrefetch(readTimings(timingsFile)), buildS });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const repoDir = path.join(args.split, 'repos', args.repo);
  if (!fs.existsSync(repoDir)) throw new Error(`no repository ${repoDir}`);
  const tasks = drawTasks(args.split, args.repo, args.positions, args.seed);
  log(`${tasks.length} positions in ${args.repo} (seed ${args.seed})`);

  execFileSync(path.join(HERE, 'install.sh'), { stdio: 'inherit', cwd: ROOT });
  if (!args.skipBuild) execFileSync(process.execPath, ['esbuild.config.mjs', '--production'], { stdio: 'ignore', cwd: ROOT });
  const w = prepareWorkspace(args, repoDir);
  const cleanup = (): void => {
    stopServer(w.run);
    if (!args.keep) fs.rmSync(w.work, { recursive: true, force: true });
    else log(`kept ${w.work}`);
  };
  process.on('SIGINT', () => { cleanup(); process.exit(130); });
  let result: Record<string, unknown>;
  try {
    result = await measure(args, tasks, w);
  } finally {
    cleanup();
  }
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, JSON.stringify(result, null, 2));
  fs.writeFileSync(args.out.replace(/\.json$/, '') + '.md', markdown(result));
  console.log(markdown(result));
  log(`wrote ${args.out}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
