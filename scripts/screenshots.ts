// Screenshots of `rvport serve` for the README, taken with playwright-core and Debian's chromium
// from a real output folder (read only). Usage:
//   npx tsx scripts/screenshots.ts OUT [--port KEY] [--batch KEY] [--to docs/screenshots]
// KEY defaults: the first escalated port (else the first port) and the first batch.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { OverviewView } from '../src/serve/ServeViews.ts';
import { startDashboard } from '../src/serve/startDashboard.ts';
import { launchChromium } from '../src/serve/testing/browser.ts';
import { buildWebAssets } from '../src/serve/testing/buildWebAssets.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string' },
    batch: { type: 'string' },
    to: { type: 'string', default: 'docs/screenshots' },
  },
});
if (positionals.length !== 1) {
  console.error('usage: npx tsx scripts/screenshots.ts OUT [--port KEY] [--batch KEY] [--to DIR]');
  process.exit(2);
}
const out = resolve(positionals[0] as string);
const to = resolve(values.to as string);
mkdirSync(to, { recursive: true });

const assets = await buildWebAssets();
const dashboard = await startDashboard({ out, assets, port: 0 });
const browser = await launchChromium();
try {
  const overview = (await (await fetch(new URL('/api/overview', dashboard.url))).json()) as OverviewView;
  const port =
    values.port ?? (overview.ports.find((p) => p.verdict === 'escalated') ?? overview.ports[0])?.key ?? null;
  const batch = values.batch ?? overview.batches[0]?.key ?? null;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const shoot = async (name: string, hash: string, ready: string, full = true) => {
    await page.goto(`${dashboard.url}${hash}`);
    await page.waitForSelector(ready);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(to, `${name}.png`), fullPage: full });
    console.error(`screenshots: ${join(to, `${name}.png`)}`);
  };
  await page.setViewportSize({ width: 1280, height: 1000 });
  await shoot('ports', '#/', 'table.ports tbody tr', false);
  if (port) {
    const portHash = `#/port/${port.split('/').map(encodeURIComponent).join('/')}`;
    await shoot('port', portHash, '.document', false);
    await page.goto(`${dashboard.url}${portHash}`);
    await page.waitForSelector('.log-lines');
    const toError = page.locator('a.to-error').first();
    if (await toError.count()) await toError.click();
    await page.waitForTimeout(300);
    await page.locator('section.logs').screenshot({ path: join(to, 'log.png') });
    console.error(`screenshots: ${join(to, 'log.png')}`);
  }
  if (batch) await shoot('batch', `#/batch/${encodeURIComponent(batch)}`, '.progress-text', false);
} finally {
  await browser.close();
  await dashboard.close();
  rmSync(assets.cleanupDir, { recursive: true, force: true });
}
