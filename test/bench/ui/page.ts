// The UI benchmark's hands on the page (run.ts): in-page instrumentation that timestamps the
// first DOM change showing a result after a keydown or mouse move, and the editor's gestures
// (quick open, go to line, the palette, a mouse rest) that code-server answers.
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../../e2e/browser';
import type { Place } from './places';

export const EDITOR = '.editor-instance .monaco-editor';
export const GHOST = `${EDITOR} .ghost-text-decoration, ${EDITOR} .ghost-text`;

/** In-page instrumentation (runs in the browser, so it is a string): last keydown / mouse move, and
 *  watches resolved on the first DOM change that satisfies them. */
export const INSTRUMENT = `(() => {
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
export async function arm(page: Page, id: string, predicate: string): Promise<void> {
  await page.evaluate(`(() => { delete window.__rr.hits[${JSON.stringify(id)}]; window.__rr.watches[${JSON.stringify(id)}] = () => { ${predicate} }; })()`);
}

/** Waits for a watch; returns its page time, or undefined after `timeoutMs`. */
export async function hit(page: Page, id: string, timeoutMs: number): Promise<number | undefined> {
  const ref = `window.__rr.hits[${JSON.stringify(id)}]`;
  try {
    await page.waitForFunction(`${ref} !== undefined`, undefined, { timeout: timeoutMs, polling: 50 });
  } catch {
    await page.evaluate(`delete window.__rr.watches[${JSON.stringify(id)}]`);
    return undefined;
  }
  return (await page.evaluate(ref)) as number;
}

export const pageState = (page: Page): Promise<{ key: number; move: number; origin: number }> =>
  page.evaluate('({ key: window.__rr.key, move: window.__rr.move, origin: performance.timeOrigin })') as Promise<{ key: number; move: number; origin: number }>;

/** Texts of the QuickPick's rows, in list order. */
export const ROWS = `[...document.querySelectorAll('.quick-input-list .monaco-list-row')]
  .map((r) => ({ i: Number(r.getAttribute('data-index')), t: r.innerText }))
  .sort((a, b) => a.i - b.i).map((r) => r.t)`;

export const GHOST_PRED = `const n = document.querySelectorAll(${JSON.stringify(GHOST)}); for (const e of n) if (e.textContent && e.textContent.trim()) return true; return false;`;
export const hoverPred = 'for (const e of document.querySelectorAll(\'.monaco-hover\')) if (e.offsetParent !== null && !e.closest(\'.hidden\') && (e.textContent || \'\').includes(\'RepoRecall\')) return true; return false;';
export const RELATED_PRED = 'const i = document.querySelector(\'.quick-input-widget input\'); if (!i || i.closest(\'.quick-input-widget\').style.display === \'none\') return false; const p = i.getAttribute(\'placeholder\') || \'\'; return p !== \'\' && !p.startsWith(\'Searching\') && !p.includes(\'Find Related\') && !p.startsWith(\'Type the name\');';

export async function openBrowser(name: string): Promise<LaunchedBrowser> {
  const browser = await launchBrowser(name);
  await browser.context.addInitScript({ content: INSTRUMENT });
  return browser;
}

export async function openFile(page: Page, rel: string): Promise<void> {
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
export async function paletteToList(page: Page, title: string, timeoutMs: number): Promise<number | undefined> {
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
export async function hoverMs(page: Page, p: Place, timeoutMs: number): Promise<number | undefined | null> {
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
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title.slice(title.indexOf(': ') + 2)}")`, { timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
}

export async function gotoPos(page: Page, line: number, character: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+G');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(`${line + 1}:${character + 1}`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(120);
}
