/**
 * The browser the explorer tests drive: Debian's Chromium through playwright-core (no browser
 * download), headless, a fresh profile, every request to anything but the explorer's own server
 * aborted and recorded, page errors and content-security-policy violations collected.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = [process.env.LEXCASE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and CSP violations. */
  pageErrors: string[];
  /** Requests to anything but the server (there must be none: assets are bundled, no CDN). */
  external: string[];
  close(): Promise<void>;
}

export async function openTestBrowser(serverUrl: string, viewport = { width: 1280, height: 800 }): Promise<TestBrowser> {
  if (!CHROMIUM) throw new Error('no Chromium at /usr/bin/chromium (apt-get install chromium, or set LEXCASE_CHROMIUM)');
  const profile = mkdtempSync(join(tmpdir(), 'lexcase-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  const external: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|unsafe-eval/i.test(m.text())) pageErrors.push(m.text());
  });
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(serverUrl)) return route.continue();
    external.push(route.request().url());
    return route.abort();
  });
  return {
    context,
    page,
    pageErrors,
    external,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
