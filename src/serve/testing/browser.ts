import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
