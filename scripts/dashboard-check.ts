// The dashboard's browser check against a running `rvport serve` of a real output folder: what a
// user sees of a port they made. The fresh-machine check runs it against the installed rvport's
// server in its Debian 12 root; on its own:
//
//   npx tsx scripts/dashboard-check.ts URL [--port NAME] [--verdict VERDICT]
//
// (NAME defaults to cjson, VERDICT to verified). With playwright-core and this machine's Chromium
// (src/serve/testing/browser.ts): the table of ports loads and lists the port with its verdict, the
// search filter narrows the table to it and to nothing, and the port's page shows its report, whose
// first riscv64 artifact downloads as a RISC-V ELF file with the sha256 the page lists. It only
// reads: the output folder is the server's. Exit 0 when every check held.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Locator } from 'playwright-core';
import { launchChromium, openDashboard, portNames } from '../src/serve/testing/browser.ts';

/** e_machine of a RISC-V ELF file (the ELF header's 16-bit field at byte 18). */
const EM_RISCV = 243;

export interface DashboardExpectation {
  /** The package's name in the table, and its key (a port in the output folder's top level). */
  name: string;
  /** The verdict its badge shows. */
  verdict: string;
}

/** Thrown with what the page showed instead of what the check expected. */
export class DashboardCheckError extends Error {
  override name = 'DashboardCheckError';
}

function expectThat(held: boolean, what: string): void {
  if (!held) throw new DashboardCheckError(what);
}

/** The texts of the cells of `table`'s body rows, one array per row. */
function cells(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/**
 * Runs the check against the dashboard at `url`. Returns what it saw, one line each; throws
 * DashboardCheckError at the first thing that is not as expected.
 */
export async function checkDashboard(url: string, expected: DashboardExpectation): Promise<string[]> {
  const { name, verdict } = expected;
  const seen: string[] = [];
  const problems: string[] = [];
  const browser = await launchChromium();
  try {
    const page = await openDashboard(browser, url, problems);
    await page.waitForSelector('table.ports tbody tr', { timeout: 20_000 });
    const all = await portNames(page);
    expectThat(all.includes(name), `the table of ports lists ${JSON.stringify(all)}, not ${name}`);
    const badge = await page.locator(`tr[data-port="${name}"] .badge`).textContent();
    expectThat(badge === verdict, `${name}'s verdict shows as ${JSON.stringify(badge)}, not ${verdict}`);
    seen.push(`the table lists ${all.length} port(s), ${name} ${badge}`);

    await page.fill('input[name="text"]', name);
    const narrowed = await portNames(page);
    expectThat(
      narrowed.includes(name) && narrowed.every((n) => n.includes(name)),
      `searching ${name} shows ${JSON.stringify(narrowed)}`,
    );
    await page.fill('input[name="text"]', `${name}-no-such-port`);
    const none = await portNames(page);
    expectThat(none.length === 0, `searching ${name}-no-such-port shows ${JSON.stringify(none)}`);
    expectThat(await page.locator('p:text-is("no port matches")').isVisible(), 'no "no port matches"');
    await page.selectOption('select[name="verdict"]', verdict);
    await page.fill('input[name="text"]', '');
    const byVerdict = await portNames(page);
    expectThat(byVerdict.includes(name), `the verdict filter ${verdict} shows ${JSON.stringify(byVerdict)}`);
    seen.push(
      `search ${name}: ${narrowed.length} of ${all.length}, search ${name}-no-such-port: none, verdict ${verdict}: ${byVerdict.length}`,
    );

    await page.click(`table.ports a:text-is("${name}")`);
    await page.waitForSelector('.document h1', { timeout: 20_000 });
    const title = await page.locator('.document h1').textContent();
    expectThat(title === `Port report: ${name}`, `the port's page shows ${JSON.stringify(title)}`);
    const summary = Object.fromEntries(
      (await cells(page.locator('.document table').first())).map(([k, v]) => [k, v]),
    );
    expectThat(
      summary.status === 'SUCCESS' && (summary.verification ?? '').startsWith(`${verdict}:`),
      `the report's summary says status ${summary.status}, verification ${summary.verification}`,
    );
    seen.push(`${name}'s page: "${title}", ${summary.verification}`);

    const artifacts = page.locator('section.files:has(h3:text-is("Artifacts")) table');
    const rows = await cells(artifacts);
    const index = rows.findIndex((r) => /^riscv64 /.test(r[2] ?? ''));
    expectThat(index >= 0, `no riscv64 artifact among ${rows.length} listed`);
    const [path, , facts, sha256] = rows[index] as string[];
    const link = artifacts.locator('tbody tr').nth(index).locator('a[download]');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const bytes = readFileSync(await download.path());
    const elf = bytes.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
    expectThat(elf && bytes.readUInt16LE(18) === EM_RISCV, `${path} downloads as no RISC-V ELF file`);
    const digest = createHash('sha256').update(bytes).digest('hex');
    expectThat(digest === sha256, `${path} downloads with sha256 ${digest}, the page lists ${sha256}`);
    seen.push(`${path} (${facts}) downloads: a RISC-V ELF file, sha256 as listed`);

    expectThat(problems.length === 0, `the page reported: ${problems.join('; ')}`);
    return seen;
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { port: { type: 'string', default: 'cjson' }, verdict: { type: 'string', default: 'verified' } },
  });
  if (positionals.length !== 1) {
    console.error('usage: npx tsx scripts/dashboard-check.ts URL [--port NAME] [--verdict VERDICT]');
    process.exit(2);
  }
  try {
    const seen = await checkDashboard(positionals[0] as string, {
      name: values.port as string,
      verdict: values.verdict as string,
    });
    for (const line of seen) console.log(`ok  ${line}`);
  } catch (error) {
    console.error(`FAIL ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
