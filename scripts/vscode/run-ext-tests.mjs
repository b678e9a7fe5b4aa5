// Runs a mocha suite inside code-server's extension host, the way @vscode/test-web does it: the
// workbench is opened with a `payload` query holding extensionDevelopmentPath and
// extensionTestsPath (vscode-remote:// URIs, so both resolve on the server's Node extension host).
// When the suite's run() settles, the workbench calls window.codeAutomationExit(code), which is
// exposed here through playwright-core; extension-host console output arrives through
// window.codeAutomationLog and is echoed.
// Usage: node run-ext-tests.mjs PORT EXTENSION_DIR TESTS_ENTRY.js WORKSPACE [TIMEOUT_SECONDS]
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';

// Workbench lines that are expected noise offline.
const NOISE = /connection token|Creating a socket|builtin extensions cache|Service Worker|ENOTFOUND|open-vsx|marketplace|^\s+at |\[(AgentHost|ChatModelSelection|AccountPolicyGate)\]/;
const [port, extDir, testsEntry, workspace, timeoutSec = '600'] = process.argv.slice(2);
if (!workspace) {
  console.error('usage: node run-ext-tests.mjs PORT EXTENSION_DIR TESTS_ENTRY.js WORKSPACE [TIMEOUT_SECONDS]');
  process.exit(2);
}
const authority = `127.0.0.1:${port}`;
const payload = [
  ['extensionDevelopmentPath', `vscode-remote://${authority}${path.resolve(extDir)}`],
  ['extensionTestsPath', `vscode-remote://${authority}${path.resolve(testsEntry)}`],
];
const url = `http://${authority}/?folder=${encodeURIComponent(path.resolve(workspace))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

const started = Date.now();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let code = 1;
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  const exited = new Promise((resolve) => {
    void page.exposeFunction('codeAutomationExit', (c) => resolve(c));
    void page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = util.format(...(args ?? []));
      if (!NOISE.test(line.split('\n')[0])) console.log(type === 'error' ? `[error] ${line}` : line);
    });
  });
  await page.goto(url);
  const timedOut = new Promise((resolve) => setTimeout(() => resolve('timeout'), Number(timeoutSec) * 1000).unref());
  code = await Promise.race([exited, timedOut]);
  if (code === 'timeout') {
    console.error(`timed out after ${timeoutSec} s waiting for the extension tests to finish`);
    code = 124;
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(`extension-host tests exited with ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(typeof code === 'number' ? code : 1);
