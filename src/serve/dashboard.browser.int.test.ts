import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDashboard, startDashboard } from './startDashboard.ts';
import { launchChromium, openDashboard, portNames } from './testing/browser.ts';
import { buildWebAssets } from './testing/buildWebAssets.ts';
import {
  type EscalatedPort,
  HOSTILE_TEXT,
  portResult,
  validEntry,
  writeBatchState,
  writeEscalatedPort,
  writeVerifiedPort,
} from './testing/outputFixtures.ts';

let browser: Browser;
let out: string;
let batchOut: string;
let webDir: string;
let dashboard: RunningDashboard;
let batchDashboard: RunningDashboard;
let escalated: EscalatedPort;
const cspErrors: string[] = [];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'rvport-serve-browser-'));
  batchOut = mkdtempSync(join(tmpdir(), 'rvport-serve-live-'));
  await writeVerifiedPort(out, 'cjson', { wallMs: 77_000 });
  await writeVerifiedPort(out, 'zlib', { wallMs: 12_000 });
  await writeVerifiedPort(out, 'mawk', { wallMs: 30_000 });
  escalated = await writeEscalatedPort(out, 'hesiod', { noiseLines: 1200 });
  const assets = await buildWebAssets();
  webDir = assets.cleanupDir;
  dashboard = await startDashboard({ out, assets, port: 0 });
  batchDashboard = await startDashboard({ out: batchOut, assets, port: 0 });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await batchDashboard?.close();
  for (const dir of [out, batchOut, webDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const open = (url: string): Promise<Page> => openDashboard(browser, url, cspErrors);

describe('the dashboard in a browser', () => {
  it('loads the table of ports', async () => {
    const page = await open(dashboard.url);
    await page.waitForSelector('table.ports tbody tr');
    expect(await portNames(page)).toEqual(['cjson', 'hesiod', 'mawk', 'zlib']);
    const hesiod = page.locator('tr[data-port="hesiod"]');
    expect(await hesiod.locator('.badge').textContent()).toBe('escalated');
    expect(await hesiod.textContent()).toContain('COMPILATION');
    await page.close();
  });

  it('narrows the table with the filters', async () => {
    const page = await open(dashboard.url);
    await page.waitForSelector('table.ports tbody tr');
    await page.selectOption('select[name="verdict"]', 'escalated');
    expect(await portNames(page)).toEqual(['hesiod']);
    await page.selectOption('select[name="verdict"]', '');
    await page.fill('input[name="text"]', 'zl');
    expect(await portNames(page)).toEqual(['zlib']);
    await page.fill('input[name="text"]', '');
    expect(await portNames(page)).toHaveLength(4);
    await page.close();
  });

  it('sorts by a column, both ways', async () => {
    const page = await open(dashboard.url);
    await page.waitForSelector('table.ports tbody tr');
    await page.click('button[data-sort="time"]');
    expect(await portNames(page)).toEqual(['cjson', 'mawk', 'hesiod', 'zlib']); // slowest first
    expect(await page.getAttribute('th:has(button[data-sort="time"])', 'aria-sort')).toBe('descending');
    await page.click('button[data-sort="time"]');
    expect(await portNames(page)).toEqual(['zlib', 'hesiod', 'mawk', 'cjson']);
    await page.click('button[data-sort="name"]');
    expect(await portNames(page)).toEqual(['cjson', 'hesiod', 'mawk', 'zlib']);
    await page.close();
  });

  it("opens a port's report, with artifacts to download", async () => {
    const page = await open(dashboard.url);
    await page.click('a:text-is("cjson")');
    await page.waitForSelector('.document h1');
    expect(await page.locator('.document h1').textContent()).toBe('Port report: cjson');
    expect(await page.locator('.document table').count()).toBeGreaterThan(0);
    const link = page.locator('.files a:text-is("artifacts/build/libcjson.so.1")');
    expect(await link.getAttribute('download')).not.toBeNull();
    expect(await link.getAttribute('href')).toMatch(/^\/api\/port\/file\?/);
    const download = await Promise.all([page.waitForEvent('download'), link.click()]).then(([d]) => d);
    expect(download.suggestedFilename()).toBe('libcjson.so.1');
    expect(await page.locator('figure.chart').count()).toBe(2);
    expect(await page.locator('figure.chart rect.bar').count()).toBeGreaterThanOrEqual(4);
    await page.close();
  });

  it('shows an escalation and its log with hostile text as text, and marks the error line', async () => {
    const page = await open(`${dashboard.url}#/port/hesiod`);
    await page.click('button[data-doc="escalation.md"]');
    await page.waitForSelector('.document[data-document="escalation.md"]');
    expect(await page.locator('.document').textContent()).toContain('<script>window.__pwned=1</script>');
    expect(await page.locator('.document script, .document img, .last-error img').count()).toBe(0);
    expect(await page.locator('.last-error').textContent()).toContain(HOSTILE_TEXT);
    await page.click('a.to-error');
    await page.waitForSelector('.error-line');
    expect(await page.locator('.error-line').getAttribute('data-line')).toBe(
      String(escalated.errorLineNumber),
    );
    expect(await page.locator('.error-line').textContent()).toBe(escalated.errorLine);
    expect(await page.locator('.page-of').first().textContent()).toMatch(/^page 3 of 3/);
    await page.locator('.pager a:text("previous")').first().click();
    await page.waitForSelector('.page-of:text("page 2 of 3")');
    expect(await page.locator('.log-lines li').first().getAttribute('data-line')).toBe('501');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  });

  it("shows a running batch's progress moving as its results.jsonl grows", async () => {
    const entries = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((n, i) => validEntry(n, i + 1));
    const [a, b, c] = entries as [(typeof entries)[0], (typeof entries)[0], (typeof entries)[0]];
    await writeVerifiedPort(batchOut, 'alpha');
    await writeBatchState(batchOut, entries, [portResult(a)], { lockedBy: process.pid });
    const page = await open(`${batchDashboard.url}#/batch/.`);
    const progress = page.locator('.progress-text');
    await page.waitForSelector('.progress-text');
    expect(await progress.textContent()).toMatch(/^1 of 5 finished: 1 verified, 0 failed/);
    expect(await page.locator('.badge.v-running').first().textContent()).toMatch(/running/);
    const before = Number(await page.getAttribute('.progress', 'aria-valuenow'));

    await writeVerifiedPort(batchOut, 'bravo');
    await writeBatchState(batchOut, entries, [portResult(b)], { lockedBy: process.pid });
    await page.waitForSelector('.progress-text:text-matches("^2 of 5 finished")', { timeout: 10_000 });
    await writeEscalatedPort(batchOut, 'charlie', { noiseLines: 1 });
    await writeBatchState(
      batchOut,
      entries,
      [portResult(c, { verdict: 'escalated', errorCategory: 'COMPILATION' })],
      {
        lockedBy: process.pid,
      },
    );
    await page.waitForSelector('.progress-text:text-matches("^3 of 5 finished: 2 verified, 1 failed")', {
      timeout: 10_000,
    });
    expect(Number(await page.getAttribute('.progress', 'aria-valuenow'))).toBeGreaterThan(before);
    expect(await page.locator('tr[data-entry="charlie"]').getAttribute('data-verdict')).toBe('escalated');
    expect(await page.locator('.stack-row').count()).toBeGreaterThanOrEqual(2);
    await page.close();
  }, 60_000);

  it('ran into no Content-Security-Policy refusal and no script error', () => {
    expect(cspErrors).toEqual([]);
  });
});
