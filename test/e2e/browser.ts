// The one way the UI tests and the UI benchmark start Debian's chromium on code-server: headless,
// a throw-away profile, nothing fetched in the background (no sync, component updates or QUIC).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export interface LaunchedBrowser {
  context: BrowserContext;
  /** The first tab (a persistent context opens with one). */
  page: Page;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** Starts chromium (`$CHROMIUM`, else /usr/bin/chromium) with a fresh profile under the temp folder. */
export async function launchBrowser(name: string, viewport = { width: 1400, height: 900 }): Promise<LaunchedBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `reporecall-${name}-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
