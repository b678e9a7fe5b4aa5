// `npm run bench:ui`: the extension's latency as a user sees it, in a real VS Code (code-server,
// driven by Debian's chromium through playwright-core like test/e2e/ui.e2e.ts). A benchmark, not a
// test: it asserts nothing and is not part of CI. Wrap it in the shared lock on this machine:
//   flock /tmp/reporecall-bench.lock npm run bench:ui -- --repo honojs_hono --positions 40 --out .bench-out/ui.json
// (`--only-hover`: the same edits and hovers, without the first ghost, Find Related Code or the floor pass)
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
//      on an identifier above the cursor and on a keyword, comment, string or number, and the time
//      to a visible RepoRecall hover is measured;
//   4. the floor: RepoRecall's completions and hover off and test/bench/ui/floor-extension on (ghost
//      text, a hover and a QuickPick answered at once), the same keystrokes, palette and mouse
//      moves: what VS Code alone takes on this machine under the same load.
// Times in the page come from a MutationObserver (first DOM change that shows the result after the
// keydown / mouse move); the extension's own time per request, engine time apart, comes from
// REPORECALL_TIMINGS_FILE (extension/src/timings.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../../e2e/browser';
import type { TimingRecord } from '../../../extension/src/timings';
import { classifyPlaces, drawTasks, duplicateRows, normaliseRow, percentile, type Place, type UiTask } from './places';

const ROOT = path.resolve(__dirname, '../../../..');
const HERE = path.join(ROOT, 'scripts', 'vscode');
const EDITOR = '.editor-instance .monaco-editor';
const GHOST = `${EDITOR} .ghost-text-decoration, ${EDITOR} .ghost-text`;

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
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    repo: 'honojs_hono', positions: 40, seed: 1, split: path.resolve(ROOT, '../shared/bench'), out: path.join(ROOT, '.bench-out', 'ui.json'),
    port: Number(process.env.PORT ?? 18390), typeDelay: 150, nonIdentifier: 32, skipBuild: false, keep: false, label: '', onlyHover: false,
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
      default: throw new Error(`unknown argument ${k}`);
    }
  }
  return a;
}

const t0 = Date.now();
const log = (...m: unknown[]): void => console.log(`[bench:ui ${((Date.now() - t0) / 1000).toFixed(0)}s]`, ...m);

/** In-page instrumentation (runs in the browser, so it is a string): last keydown / mouse move, and
 *  watches resolved on the first DOM change that satisfies them. */
const INSTRUMENT = `(() => {
  const rr = { key: 0, move: 0, hits: {}, watches: {},
    check() {
      for (const [id, pred] of Object.entries(rr.watches)) {
        let ok = false;
        try { ok = pred(); } catch { ok = false; }
        if (ok) { rr.hits[id] = performance.now(); delete rr.watches[id]; }
      }
    } };
  window.__rr = rr;
  addEventListener('keydown', () => (rr.key = performance.now()), true);
  addEventListener('mousemove', () => (rr.move = performance.now()), true);
  const start = () => new MutationObserver(() => rr.check()).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class', 'style', 'aria-hidden', 'placeholder'] });
  if (document.documentElement) start(); else addEventListener('DOMContentLoaded', start);
})()`;

/** Arms a watch in the page: `predicate` is the body of a function evaluated on every DOM change. */
async function arm(page: Page, id: string, predicate: string): Promise<void> {
  await page.evaluate(`(() => { delete window.__rr.hits[${JSON.stringify(id)}]; window.__rr.watches[${JSON.stringify(id)}] = () => { ${predicate} }; })()`);
}

/** Waits for a watch; returns its page time, or undefined after `timeoutMs`. */
async function hit(page: Page, id: string, timeoutMs: number): Promise<number | undefined> {
  const ref = `window.__rr.hits[${JSON.stringify(id)}]`;
  try {
    await page.waitForFunction(`${ref} !== undefined`, undefined, { timeout: timeoutMs, polling: 50 });
  } catch {
    await page.evaluate(`delete window.__rr.watches[${JSON.stringify(id)}]`);
    return undefined;
  }
  return (await page.evaluate(ref)) as number;
}

const pageState = (page: Page): Promise<{ key: number; move: number; origin: number }> =>
  page.evaluate('({ key: window.__rr.key, move: window.__rr.move, origin: performance.timeOrigin })') as Promise<{ key: number; move: number; origin: number }>;

/** Texts of the QuickPick's rows, in list order. */
const ROWS = `[...document.querySelectorAll('.quick-input-list .monaco-list-row')]
  .map((r) => ({ i: Number(r.getAttribute('data-index')), t: r.innerText }))
  .sort((a, b) => a.i - b.i).map((r) => r.t)`;

const GHOST_PRED = `const n = document.querySelectorAll(${JSON.stringify(GHOST)}); for (const e of n) if (e.textContent && e.textContent.trim()) return true; return false;`;
const hoverPred = 'for (const e of document.querySelectorAll(\'.monaco-hover\')) if (e.offsetParent !== null && !e.closest(\'.hidden\') && (e.textContent || \'\').includes(\'RepoRecall\')) return true; return false;';
const RELATED_PRED = 'const i = document.querySelector(\'.quick-input-widget input\'); if (!i || i.closest(\'.quick-input-widget\').style.display === \'none\') return false; const p = i.getAttribute(\'placeholder\') || \'\'; return p !== \'\' && !p.startsWith(\'Searching\') && !p.includes(\'Find Related\') && !p.startsWith(\'Type the name\');';

function startServer(run: string, port: number, ws: string, env: NodeJS.ProcessEnv): void {
  const r = spawnSync(path.join(HERE, 'start-code-server.sh'), [run, String(port), ws], { env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('code-server did not start');
}
function stopServer(run: string): void {
  spawnSync(path.join(HERE, 'stop-code-server.sh'), [run], { stdio: 'inherit' });
}

async function openBrowser(name: string): Promise<LaunchedBrowser> {
  const browser = await launchBrowser(name);
  await browser.context.addInitScript({ content: INSTRUMENT });
  return browser;
}

async function openFile(page: Page, rel: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(rel);
  // Quick open refines its list as the file search answers: pick the row of this very path.
  const dir = path.dirname(rel);
  const exact = (t: string): RegExp => new RegExp(`^\\s*${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const row = dir === '.'
    ? page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: exact(path.basename(rel)) }) })
    : page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-description', { hasText: exact(dir) }) })
        .filter({ has: page.locator('.label-name', { hasText: exact(path.basename(rel)) }) });
  await row.first().waitFor({ state: 'visible', timeout: 15_000 });
  await row.first().click();
  await page.waitForSelector(`.tab.active:has-text("${path.basename(rel)}")`, { timeout: 15_000 });
  await page.waitForSelector(`${EDITOR} .view-lines .view-line`, { timeout: 15_000 });
}

/** Runs a palette command that fills a QuickPick: ms from Enter to the complete list, or undefined. */
async function paletteToList(page: Page, title: string, timeoutMs: number): Promise<number | undefined> {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title.slice(title.indexOf(': ') + 2)}")`, { timeout: 15_000 });
  await page.waitForTimeout(100);
  await arm(page, 'list', RELATED_PRED);
  await page.keyboard.press('Enter');
  const h = await hit(page, 'list', timeoutMs);
  const k = (await pageState(page)).key;
  return h !== undefined ? h - k : undefined;
}

/** Rests the mouse on a place: ms from the move to a visible RepoRecall hover, undefined when none showed, null when the place could not be found on screen. */
async function hoverMs(page: Page, p: Place, timeoutMs: number): Promise<number | undefined | null> {
  await gotoPos(page, p.line, p.character + Math.min(1, p.text.length - 1));
  const box = await page.locator(`${EDITOR} .cursors-layer .cursor`).first().boundingBox();
  if (!box) return null;
  await page.mouse.move(5, 5);
  await page.waitForTimeout(250);
  await arm(page, 'hv', hoverPred);
  await page.mouse.move(box.x + 3, box.y + box.height / 2);
  const h = await hit(page, 'hv', timeoutMs);
  const m = (await pageState(page)).move;
  await page.mouse.move(5, 5);
  return h !== undefined ? h - m : undefined;
}

/** Runs a command by its palette title. */
async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title.slice(title.indexOf(': ') + 2)}")`, { timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
}

async function gotoPos(page: Page, line: number, character: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+G');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(`${line + 1}:${character + 1}`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(120);
}

function readTimings(file: string): TimingRecord[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as TimingRecord);
  } catch {
    return [];
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const repoDir = path.join(args.split, 'repos', args.repo);
  if (!fs.existsSync(repoDir)) throw new Error(`no repository ${repoDir}`);
  const tasks = drawTasks(args.split, args.repo, args.positions, args.seed);
  log(`${tasks.length} positions in ${args.repo} (seed ${args.seed})`);

  execFileSync(path.join(HERE, 'install.sh'), { stdio: 'inherit', cwd: ROOT });
  if (!args.skipBuild) execFileSync(process.execPath, ['esbuild.config.mjs', '--production'], { stdio: 'ignore', cwd: ROOT });

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-bench-ui-'));
  const run = path.join(work, 'run');
  const ws = path.join(work, args.repo);
  fs.cpSync(repoDir, ws, { recursive: true });
  const extId = (() => {
    const p = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    return `${p.publisher}.${p.name}-${p.version}`;
  })();
  fs.mkdirSync(path.join(run, 'exts'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(run, 'exts', extId));
  // The floor: a provider that answers at once (switched on only for the floor pass).
  fs.symlinkSync(path.join(ROOT, 'test', 'bench', 'ui', 'floor-extension'), path.join(run, 'exts', 'reporecall-bench.ghost-floor-0.0.1'));
  const timingsFile = path.join(work, 'timings.jsonl');
  const env = { ...process.env, REPORECALL_TIMINGS_FILE: timingsFile };
  const url = `http://127.0.0.1:${args.port}/?folder=${ws}`;
  const cleanup = (): void => {
    stopServer(run);
    if (!args.keep) fs.rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  };
  process.on('SIGINT', () => { cleanup(); process.exit(130); });

  let result: Record<string, unknown>;
  try {
    let probe: UiTask | undefined;
    // Session 1: the first build of the index (not measured).
    const b0 = Date.now();
    startServer(run, args.port, ws, env);
    {
      const browser = await openBrowser('bench-ui-1');
      const page = browser.page;
      await page.goto(url);
      await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
      await page.waitForSelector('.statusbar-item:has-text("chunks")', { timeout: 600_000 });
      // A position that shows ghost text (its first two characters typed), for the first ghost of session 2.
      for (const task of args.onlyHover ? [] : tasks.slice(0, 15)) try {
        const lines = fs.readFileSync(path.join(ws, task.file), 'utf8').split('\n');
        const indent = /^\s*/.exec(lines[task.line] ?? '')![0].length;
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
      await browser.close();
    }
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

    // First ghost text of the session: open the probed position's file at once and type its two
    // characters until ghost text shows (the engine may still be opening).
    let firstGhostEpoch: number | undefined;
    let firstKeystrokeMs: number | undefined;
    let firstTries = 0;
    if (probe) try {
      const lines = fs.readFileSync(path.join(ws, probe.file), 'utf8').split('\n');
      const indent = /^\s*/.exec(lines[probe.line] ?? '')![0].length;
      const two = probe.target.trim().slice(0, 2);
      await openFile(page, probe.file);
      await gotoPos(page, probe.line, indent);
      await page.keyboard.press('Shift+End');
      await page.keyboard.press('Delete');
      await page.keyboard.type(two[0]);
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; firstTries++) {
        await page.waitForTimeout(args.typeDelay);
        await arm(page, 'first', GHOST_PRED);
        await page.keyboard.type(two[1]);
        const h = await hit(page, 'first', 1000);
        if (h !== undefined) {
          const st = await pageState(page);
          firstGhostEpoch = st.origin + h;
          firstKeystrokeMs = h - st.key;
          break;
        }
        await page.keyboard.press('Backspace');
      }
      await page.keyboard.press('Escape');
      for (let u = 0; u < 6; u++) await page.keyboard.press('Control+Z');
    } catch (err) {
      log(`first ghost text: ${(err as Error).message.split('\n')[0]}`);
    }
    await page.waitForTimeout(300); // let the timings file catch up
    const activation = readTimings(timingsFile).find((r) => r.kind === 'activate');
    const firstGhostMs = firstGhostEpoch !== undefined && activation ? Math.round(firstGhostEpoch - activation.at) : null;
    log(`first ghost text ${firstGhostMs} ms after activation (keystroke -> ghost ${firstKeystrokeMs?.toFixed(0)} ms, ${firstTries + 1} tries)`);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.statusbar-item:has-text("chunks")', { timeout: 600_000 });

    const ghost: Array<{ id: string; ms?: number; firstMs?: number; through?: boolean; secondMs?: number; secondThrough?: boolean; text?: string; keyAt?: number; shownAt?: number }> = [];
    const related: Array<{ ms?: number; rows: number; dups: number; dupRows?: string[] }> = [];
    const hovers: Array<{ kind: Place['kind']; ms?: number; shown: boolean; text: string }> = [];
    let nonIdent = 0;

    for (const [pi, task] of tasks.entries()) {
      const lines = fs.readFileSync(path.join(ws, task.file), 'utf8').split('\n');
      const indent = /^\s*/.exec(lines[task.line] ?? '')![0].length;
      const typed = task.target.trim().slice(0, 2);
      try {
        await openFile(page, task.file);
        await gotoPos(page, task.line, indent);
        await page.keyboard.press('Shift+End');
        // The measure: the keystroke that empties the line (the cursor where real code continues)
        // to ghost text there, through a completion request.
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
        ghost.push({ id: task.id, ms: ms0, firstMs: h1 !== undefined && !before1 ? h1 - k1 : undefined, through: before1, secondMs: h2 !== undefined ? h2 - k2 : undefined, secondThrough: before2, text, keyAt, shownAt });
        log(`${pi + 1}/${tasks.length} ${task.file}:${task.line + 1} ghost ${ms0 !== undefined ? `${ms0.toFixed(0)} ms` : 'none'}; first key ${h1 !== undefined ? `${(h1 - k1).toFixed(0)} ms${before1 ? ' (typed along)' : ''}` : 'none'}, second key ${h2 !== undefined ? `${(h2 - k2).toFixed(0)} ms${before2 ? ' (typed along)' : ''}` : 'none'} ${JSON.stringify(text ?? '')}`);
        await page.keyboard.press('Escape');

        // Find Related Code from the command palette, Enter to a complete list.
        if (!args.onlyHover) {
          const listMs = await paletteToList(page, 'RepoRecall: Find Related Code', 10_000);
          const rows = (await page.evaluate(ROWS)) as string[];
          const dups = duplicateRows(rows);
          // The rows that repeat an earlier one, to see what the user saw twice.
          const dupRows = dups ? rows.slice(0, 10).filter((r, i, all) => all.slice(0, i).some((e) => normaliseRow(e) === normaliseRow(r))) : undefined;
          related.push({ ms: listMs, rows: rows.length, dups, ...(dupRows ? { dupRows } : {}) });
          await page.keyboard.press('Escape');
        }

        // Hovers: an identifier above the cursor, and (until enough) a keyword, comment, string or number.
        const places = classifyPlaces(lines, task.line - 30, task.line, task.language === 'python');
        const ident = places.filter((p) => p.kind === 'identifier');
        const others = places.filter((p) => p.kind !== 'identifier');
        const picks: Place[] = [];
        if (ident.length) picks.push(ident[ident.length - 1]);
        const wantOthers = Math.ceil((args.nonIdentifier - nonIdent) / Math.max(1, tasks.length - pi));
        const kinds: Place['kind'][] = ['keyword', 'comment', 'string', 'number'];
        for (let j = 0; j < wantOthers && others.length; j++) {
          const kind = kinds[(nonIdent + j) % kinds.length];
          const p = others.find((o) => o.kind === kind && !picks.includes(o)) ?? others.find((o) => !picks.includes(o));
          if (p) picks.push(p);
        }
        for (const p of picks) {
          const ms = await hoverMs(page, p, p.kind === 'identifier' ? 2500 : 1200);
          if (ms === null) continue;
          hovers.push({ kind: p.kind, ms, shown: ms !== undefined, text: p.text });
          if (p.kind !== 'identifier') nonIdent++;
        }
        await page.mouse.move(5, 5);
        // Undo the typing and the deletion, so later positions see the file as it is on disk.
        for (let u = 0; u < 4; u++) await page.keyboard.press('Control+Z');
      } catch (err) {
        log(`position ${task.id} failed: ${(err as Error).message.split('\n')[0]}`);
        ghost.push({ id: task.id });
      }
    }
    // The floor: the same keystrokes, palette and mouse moves with RepoRecall's completions and
    // hover off and test/bench/ui/floor-extension answering at once: what VS Code itself takes.
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
      const lines = fs.readFileSync(path.join(ws, task.file), 'utf8').split('\n');
      const indent = /^\s*/.exec(lines[task.line] ?? '')![0].length;
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
    await page.waitForTimeout(500);
    await browser.close();

    // The extension's own times, engine apart.
    const recs = withPrefetch(readTimings(timingsFile));
    const shownComplete = recs.filter((r) => r.kind === 'complete' && r.outcome === 'shown');
    const hoverRecs = recs.filter((r) => r.kind === 'hover' && r.outcome === 'shown');
    const relatedRecs = recs.filter((r) => r.kind === 'findRelated');
    const outcomes: Record<string, number> = {};
    for (const r of recs.filter((r) => r.kind === 'complete')) outcomes[r.outcome ?? '?'] = (outcomes[r.outcome ?? '?'] ?? 0) + 1;
    const split = (rs: TimingRecord[]) => ({
      n: rs.length,
      total_p50: percentile(rs.map((r) => r.ms), 50), total_p95: percentile(rs.map((r) => r.ms), 95),
      engine_p50: percentile(rs.map((r) => r.engineMs), 50), engine_p95: percentile(rs.map((r) => r.engineMs), 95),
      rpc_p50: percentile(rs.map((r) => r.rpcMs), 50), rpc_p95: percentile(rs.map((r) => r.rpcMs), 95),
      rest_p50: percentile(rs.map((r) => r.ms - r.rpcMs), 50), rest_p95: percentile(rs.map((r) => r.ms - r.rpcMs), 95),
    });
    const ghostMs = ghost.flatMap((g) => (g.ms !== undefined ? [g.ms] : []));
    const relMs = related.flatMap((r) => (r.ms !== undefined ? [r.ms] : []));
    const identHovers = hovers.filter((h) => h.kind === 'identifier' && h.ms !== undefined).map((h) => h.ms!);
    const nonIdentHovers = hovers.filter((h) => h.kind !== 'identifier');
    result = {
      ghost: { n: tasks.length, shown: ghostMs.length, p50: percentile(ghostMs, 50), p95: percentile(ghostMs, 95) },
      first_ghost_ms: firstGhostMs,
      find_related: { n: related.length, p50: percentile(relMs, 50), p95: percentile(relMs, 95), duplicate_rows: related.reduce((s, r) => s + r.dups, 0) },
      hover: {
        n: identHovers.length,
        provide_p50: percentile(hoverRecs.map((r) => r.ms), 50), provide_p95: percentile(hoverRecs.map((r) => r.ms), 95),
        visible_p50: percentile(identHovers, 50), visible_p95: percentile(identHovers, 95),
        on_non_identifier: `${nonIdentHovers.filter((h) => h.shown).length}/${nonIdentHovers.length}`,
      },
      meta: {
        label: args.label, only_hover: args.onlyHover, repo: args.repo, positions: tasks.length, seed: args.seed, date: new Date().toISOString(),
        commit: (() => { try { return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(); } catch { return ''; } })(),
        host: `${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`,
        method: 'code-server 4.100.3 + chromium (playwright-core); ghost: the Delete keystroke that empties the line where real code continues -> first DOM change showing ghost text (2 s timeout); after a 1 s pause the first two characters of the real line are typed ' + args.typeDelay + ' ms apart and reported apart (a keystroke into ghost text already showing is typed_along: VS Code serves it from that suggestion); hover: mouse move -> visible RepoRecall hover (editor.hover.delay 150 included); find_related: Enter in the palette -> complete list',
        first_ghost_keystroke_ms: firstKeystrokeMs !== undefined ? Math.round(firstKeystrokeMs) : null,
        first_ghost_tries: firstTries + 1,
        ghost_first_key_request: (() => {
          const xs = ghost.flatMap((g) => (g.firstMs !== undefined ? [g.firstMs] : []));
          return { n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95) };
        })(),
        ghost_typed_along: (() => {
          const xs = ghost.flatMap((g) => (g.secondMs !== undefined && g.secondThrough ? [g.secondMs] : []));
          return { n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), first_key_typed_into_ghost: ghost.filter((g) => g.through).length };
        })(),
        ghost_second_key_request: (() => {
          const xs = ghost.flatMap((g) => (g.secondMs !== undefined && !g.secondThrough ? [g.secondMs] : []));
          return { n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95) };
        })(),
        hover_non_identifier_by_kind: Object.fromEntries(['keyword', 'comment', 'string', 'number'].map((k) => [k, `${nonIdentHovers.filter((h) => h.kind === k && h.shown).length}/${nonIdentHovers.filter((h) => h.kind === k).length}`])),
        completion_requests: outcomes,
        complete_shown: split(shownComplete),
        complete_wait_p50: percentile(shownComplete.map((r) => Number(r.detail?.waitMs ?? 0)), 50),
        // Served by the request started at the keystroke (completionPrefetch.ts): engine and rpc are that request's.
        complete_shown_prefetched: shownComplete.filter((r) => r.detail?.prefetched === 1).length,
        hover_provider: split(hoverRecs),
        hover_phases: hoverPhases(hoverRecs),
        find_related_provider: split(relatedRecs),
        find_related_rows: related.map((r) => r.rows),
        find_related_duplicates: related.flatMap((r) => r.dupRows ?? []).slice(0, 20),
        ghost_path: ghostPath(ghost, recs),
        floor: {
          method: 'the same positions, keystrokes, palette and mouse moves with RepoRecall completions and hover off and test/bench/ui/floor-extension answering at once (fixed ghost text, hover, a QuickPick of 10 rows): VS Code alone',
          ghost: { n: tasks.length, shown: floor.length, p50: percentile(floor, 50), p95: percentile(floor, 95) },
          list: { n: floorRelated.length, p50: percentile(floorRelated, 50), p95: percentile(floorRelated, 95) },
          hover_visible: { n: floorHover.length, p50: percentile(floorHover, 50), p95: percentile(floorHover, 95) },
          ghost_samples: Object.fromEntries(floorById),
          ghost_over_floor: overFloor(ghost, floorById),
        },
        ghost_samples: ghost,
        session1_s: Math.round(buildS),
      },
    };
  } finally {
    cleanup();
  }
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, JSON.stringify(result, null, 2));
  fs.writeFileSync(args.out.replace(/\.json$/, '') + '.md', markdown(result));
  console.log(markdown(result));
  log(`wrote ${args.out}`);
}

/**
 * A completion served from the request started at the keystroke spent its engine and rpc time in
 * that `prefetch` record: they are credited to the completion (the prefetch that ended last before
 * it answered), so the split into engine and the rest stays comparable with requests made by the provider.
 */
function withPrefetch(recs: TimingRecord[]): TimingRecord[] {
  const prefetches = recs.filter((r) => r.kind === 'prefetch');
  return recs.map((r) => {
    if (r.kind !== 'complete' || r.detail?.prefetched !== 1) return r;
    const end = r.at + r.ms;
    const p = prefetches.filter((x) => x.at <= end && x.at + x.ms <= end + 5).pop();
    return p ? { ...r, engineMs: p.engineMs, rpcMs: p.rpcMs, calls: p.calls } : r;
  });
}

/** Ghost text minus VS Code alone at the same position, where both showed: what RepoRecall adds there (p50/p95/max, and its positions over 100 ms). */
function overFloor(ghost: Array<{ id: string; ms?: number }>, floorById: Map<string, number>): Record<string, unknown> {
  const pairs = ghost.flatMap((g) => (g.ms !== undefined && floorById.has(g.id) ? [{ id: g.id, over: g.ms - floorById.get(g.id)! }] : []));
  const xs = pairs.map((p) => p.over);
  return { n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: xs.length ? Math.round(Math.max(...xs) * 10) / 10 : null, over_100: pairs.filter((p) => p.over > 100).map((p) => `${p.id} +${p.over.toFixed(0)}`) };
}

/**
 * Where keystroke -> ghost text goes: to the provider being called (VS Code's own 50 ms debounce,
 * the edit and the request crossing to the extension host), the provider (our debounce wait, the
 * engine round trip), and from its answer to the DOM (back to the page, rendering); and whether a
 * live index update of an unsaved buffer ran at the same time.
 */
function ghostPath(ghost: Array<{ ms?: number; keyAt?: number; shownAt?: number }>, recs: TimingRecord[]): Record<string, unknown> {
  const completes = recs.filter((r) => r.kind === 'complete' && (r.outcome === 'shown' || r.outcome === 'cache'));
  const updates = recs.filter((r) => r.kind === 'updateFile');
  const rows: Array<{ total: number; toProvider: number; provider: number; wait: number; rpc: number; engine: number; afterProvider: number; duringUpdate: boolean }> = [];
  for (const g of ghost) {
    if (g.ms === undefined || g.keyAt === undefined || g.shownAt === undefined) continue;
    // The last request answered before the ghost text showed, started after the keystroke.
    const rec = completes.filter((r) => r.at >= g.keyAt! - 5 && r.at + r.ms <= g.shownAt! + 5).pop();
    if (!rec) continue;
    const end = rec.at + rec.ms;
    rows.push({
      total: g.ms, toProvider: rec.at - g.keyAt, provider: rec.ms, wait: Number(rec.detail?.waitMs ?? 0), rpc: rec.rpcMs, engine: rec.engineMs, afterProvider: g.shownAt - end,
      duringUpdate: updates.some((u) => u.at < end && u.at + u.ms > rec.at),
    });
  }
  const stat = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95) });
  const parts = (rs: typeof rows) => ({
    n: rs.length, total: stat(rs.map((r) => r.total)), to_provider: stat(rs.map((r) => r.toProvider)), provider: stat(rs.map((r) => r.provider)),
    debounce_wait: stat(rs.map((r) => r.wait)), rpc: stat(rs.map((r) => r.rpc)), engine: stat(rs.map((r) => r.engine)), after_provider: stat(rs.map((r) => r.afterProvider)),
  });
  return { all: parts(rows), during_live_update: parts(rows.filter((r) => r.duringUpdate)), without_live_update: parts(rows.filter((r) => !r.duringUpdate)) };
}

function markdown(r: Record<string, unknown>): string {
  const g = r.ghost as Record<string, unknown>;
  const f = r.find_related as Record<string, unknown>;
  const h = r.hover as Record<string, unknown>;
  const m = r.meta as Record<string, unknown> & { complete_shown: Record<string, unknown>; hover_provider: Record<string, unknown>; find_related_provider: Record<string, unknown> };
  const cs = m.complete_shown, hp = m.hover_provider, fp = m.find_related_provider;
  return [
    `UI benchmark ${m.label ? `(${m.label}) ` : ''}${m.repo}, ${m.positions} positions, seed ${m.seed}, commit ${m.commit}, ${m.date}`,
    '',
    '| measure | n | p50 ms | p95 ms | other |',
    '| --- | --- | --- | --- | --- |',
    `| keystroke -> ghost text | ${g.n} (shown ${g.shown}) | ${g.p50} | ${g.p95} | typed first key, new request ${JSON.stringify(m.ghost_first_key_request)}; second key: typed along ${JSON.stringify(m.ghost_typed_along)}, new request ${JSON.stringify(m.ghost_second_key_request)} |`,
    `| activation -> first ghost text | 1 | ${r.first_ghost_ms} | | keystroke -> ghost ${m.first_ghost_keystroke_ms} |`,
    `| completion provider (shown) | ${cs.n} | ${cs.total_p50} | ${cs.total_p95} | engine ${cs.engine_p50}/${cs.engine_p95}, rpc ${cs.rpc_p50}/${cs.rpc_p95}, debounce wait p50 ${m.complete_wait_p50}, started at the keystroke ${m.complete_shown_prefetched ?? 0} |`,
    ...ghostPathRows(m.ghost_path as ReturnType<typeof ghostPath> | undefined),
    ...floorRow(m.floor, 'ghost', 'keystroke -> ghost text', 'its 50 ms debounce, the trips to the extension host and back, rendering'),
    ...overFloorRow(m.floor),
    `| Find Related Code, Enter -> list | ${f.n} | ${f.p50} | ${f.p95} | duplicate rows ${f.duplicate_rows} |`,
    ...floorRow(m.floor, 'list', 'Enter -> list', 'a command filling a QuickPick at once'),
    `| Find Related Code provider | ${fp.n} | ${fp.total_p50} | ${fp.total_p95} | engine ${fp.engine_p50}/${fp.engine_p95} |`,
    `| hover, mouse rest -> visible | ${h.n} | ${h.visible_p50} | ${h.visible_p95} | on non-identifiers ${h.on_non_identifier} |`,
    ...floorRow(m.floor, 'hover_visible', 'hover, mouse rest -> visible', 'editor.hover.delay 150 included'),
    `| hover provider | ${hp.n} | ${h.provide_p50} | ${h.provide_p95} | engine ${hp.engine_p50}/${hp.engine_p95} |`,
    ...hoverPhaseRows(m.hover_phases as ReturnType<typeof hoverPhases> | undefined),
    '',
  ].join('\n');
}

/** Where a shown hover's time went, from its record's detail (hover.ts): p50/p95 of each phase. */
function hoverPhases(recs: TimingRecord[]): Record<string, unknown> {
  const num = (r: TimingRecord, k: string): number | undefined => (typeof r.detail?.[k] === 'number' ? (r.detail[k] as number) : undefined);
  const stat = (xs: Array<number | undefined>) => {
    const ys = xs.filter((x): x is number => x !== undefined && x >= 0);
    return { n: ys.length, p50: percentile(ys, 50), p95: percentile(ys, 95) };
  };
  const count = (k: string) => {
    const out: Record<string, number> = {};
    for (const r of recs) out[String(r.detail?.[k] ?? '?')] = (out[String(r.detail?.[k] ?? '?')] ?? 0) + 1;
    return out;
  };
  return {
    // From the provider being called: the gate and lookups before the requests, the engine's answer
    // (round trip), the definition provider's answer or budget, the wait for it after the engine's,
    // mapping its location (a second engine request), building the Markdown.
    before_requests: stat(recs.map((r) => { const f = num(r, 'flowMs'), d = num(r, 'renderMs'); return f !== undefined && d !== undefined ? r.ms - f - d : undefined; })),
    engine: stat(recs.map((r) => num(r, 'engineWaitMs'))),
    definition_provider: stat(recs.map((r) => num(r, 'serverMs'))),
    provider_wait_after_engine: stat(recs.map((r) => num(r, 'serverWaitMs'))),
    choose: stat(recs.map((r) => num(r, 'chooseMs'))),
    render: stat(recs.map((r) => num(r, 'renderMs'))),
    // Answers kept from an earlier request at the same name (hover.ts), and the provider without them.
    cached: recs.filter((r) => r.detail?.cached === 1).length,
    provider_uncached: stat(recs.filter((r) => r.detail?.cached !== 1).map((r) => r.ms)),
    provider_answer: count('server'),
    source: count('source'),
  };
}

function hoverPhaseRows(hp: ReturnType<typeof hoverPhases> | undefined): string[] {
  if (!hp || !(hp.engine as { n: number }).n) return [];
  const f = (k: string) => { const v = hp[k] as { p50: number | null; p95: number | null }; return `${v.p50?.toFixed(0)}/${v.p95?.toFixed(0)}`; };
  return [`| hover provider phases (p50/p95) | ${(hp.engine as { n: number }).n} | | | before requests ${f('before_requests')}, engine ${f('engine')}, definition provider ${f('definition_provider')} (waited after the engine ${f('provider_wait_after_engine')}), choose ${f('choose')}, render ${f('render')}; without the ${hp.cached} kept answers ${f('provider_uncached')}; provider ${JSON.stringify(hp.provider_answer)}; source ${JSON.stringify(hp.source)} |`];
}

/** A row for what VS Code alone takes (the floor pass), under the measure it bounds. */
function floorRow(floor: unknown, key: string, what: string, why: string): string[] {
  const f = (floor as Record<string, { n: number; shown?: number; p50: number | null; p95: number | null }> | undefined)?.[key];
  return f ? [`| ${what}, floor: VS Code alone | ${f.shown ?? f.n} | ${f.p50} | ${f.p95} | ${why} |`] : [];
}

/** Ghost text minus the floor at the same position (the paired comparison, steadier than two p95s of ~30 samples). */
function overFloorRow(floor: unknown): string[] {
  const o = (floor as { ghost_over_floor?: { n: number; p50: number | null; p95: number | null; max: number | null; over_100: string[] } } | undefined)?.ghost_over_floor;
  return o ? [`| ghost text minus floor, same position | ${o.n} | ${o.p50} | ${o.p95} | max ${o.max}; over 100 ms: ${o.over_100.join(', ') || 'none'} |`] : [];
}

/** Changes one user setting of the running code-server (it watches the file). */
function setUserSetting(run: string, key: string, value: unknown): void {
  const file = path.join(run, 'data', 'User', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  settings[key] = value;
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

function ghostPathRows(gp: Record<string, unknown> | undefined): string[] {
  if (!gp) return [];
  const a = gp.all as Record<string, { p50: number | null; p95: number | null } | number>;
  const f = (k: string) => { const v = a[k] as { p50: number | null; p95: number | null }; return `${v.p50?.toFixed(0)}/${v.p95?.toFixed(0)}`; };
  const during = (gp.during_live_update as { n: number }).n;
  return [`| ghost path (p50/p95) | ${a.n} | | | to provider ${f('to_provider')}, provider ${f('provider')} (wait ${f('debounce_wait')}, rpc ${f('rpc')}, engine ${f('engine')}), answer -> DOM ${f('after_provider')}; ${during} during a live update |`];
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
