import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium package (apt-get install chromium); RVPORT_CHROMIUM names another binary. */
export const CHROMIUM = process.env.RVPORT_CHROMIUM ?? '/usr/bin/chromium';

/** A headless Chromium for the dashboard's browser tests and screenshots. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set RVPORT_CHROMIUM)`);
  // --no-sandbox: Chromium's own sandbox needs a user namespace it cannot get as root in a container
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
}

/**
 * Opens `url` in a new page of `browser`. A Content-Security-Policy refusal the page's console
 * reports, and every script error of the page, are added to `problems`.
 */
export async function openDashboard(browser: Browser, url: string, problems: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  return page;
}

/** The package names the dashboard's table of ports shows, top to bottom. */
export function portNames(page: Page): Promise<string[]> {
  return page.locator('table.ports tbody tr td:first-child a').allTextContents();
}
