// Mocha entry loaded by the VS Code extension host (the `extensionTestsPath` contract of
// @vscode/test-electron / test-web): run() resolves when every suite passed. Both runners point
// here (scripts/vscode/run-ext-tests.mjs in code-server, test/desktop/runTests.ts in desktop VS
// Code), so both run the suites listed in suites.ts and nothing else.
// Writes a JSON summary to $REPORECALL_TEST_RESULTS when set (the runner totals it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { LATEST_VSCODE_SUITES, SUITES } from './suites';

/** Suites whose source is in test/integration but not in SUITES (none when run from a checkout that has no sources). */
export function unlistedSuites(sourceDir = path.resolve(__dirname, '../../../test/integration')): string[] {
  if (!fs.existsSync(sourceDir)) return [];
  return fs.readdirSync(sourceDir).filter((f) => f.endsWith('.test.ts')).map((f) => f.slice(0, -'.ts'.length))
    .filter((s) => !SUITES.includes(s) && !LATEST_VSCODE_SUITES.includes(s)).sort();
}

export function run(): Promise<void> {
  const unlisted = unlistedSuites();
  if (unlisted.length) {
    return Promise.reject(new Error(`test/integration/suites.ts does not list ${unlisted.join(', ')}: add them (or delete them)`));
  }
  // REPORECALL_TEST_GREP: only the tests whose full title matches (a developer running one suite).
  const grep = process.env.REPORECALL_TEST_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 120_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  // REPORECALL_TEST_SUITES: a comma-separated list instead of SUITES (the newer VS Code's run).
  const listed = process.env.REPORECALL_TEST_SUITES?.split(',').filter(Boolean);
  const unknown = listed?.filter((s) => !SUITES.includes(s) && !LATEST_VSCODE_SUITES.includes(s)) ?? [];
  if (unknown.length) return Promise.reject(new Error(`REPORECALL_TEST_SUITES names no suite: ${unknown.join(', ')}`));
  for (const s of listed ?? SUITES) mocha.addFile(path.join(__dirname, `${s}.js`));
  const passed: string[] = [];
  const failed: Array<{ title: string; error: string }> = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const out = process.env.REPORECALL_TEST_RESULTS;
      if (out) fs.writeFileSync(out, JSON.stringify({ passed, failed }, null, 2));
      console.log(`integration: ${passed.length} passed, ${failed.length} failed`);
      if (failures) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => passed.push(t.fullTitle()));
    runner.on('fail', (t, err: Error) => failed.push({ title: t.fullTitle(), error: String(err?.stack ?? err) }));
  });
}
