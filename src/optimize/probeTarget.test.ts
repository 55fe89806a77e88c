import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProbeReport } from '../probe/buildProbeReport.ts';
import { parseProbeSections } from '../probe/parseProbeSections.ts';
import { targetFacts } from './probeTarget.ts';

const NONCE = '0123456789abcdef01234567';
const local = readFileSync(new URL('../probe/fixtures/local-sandbox-qemu-7.2.out', import.meta.url), 'utf8');

describe('targetFacts', () => {
  it('under qemu 7.2 takes the richest -march gcc accepts whose extensions qemu executes', () => {
    const report = buildProbeReport(parseProbeSections(local, NONCE), {
      target: 'local-sandbox',
      mode: 'emulated',
      qemuVersion: '7.2.0',
    });
    const facts = targetFacts(report);
    expect(facts.emulated).toBe(true);
    expect(facts.march).toBe('rv64gc_zba_zbb_zbc_zbs');
    expect(facts.marchExtensions).toEqual(['zba', 'zbb', 'zbc', 'zbs']);
    // V is accepted by gcc but qemu 7.2 does not execute it: never chosen
    expect(facts.marchExtensions).not.toContain('v');
    expect(facts.notes.join('\n')).toMatch(/rejects -march=.*rva22u64/);
  });

  it('has no -march tune when the target executes nothing beyond rv64gc', () => {
    const report = buildProbeReport(parseProbeSections(local, NONCE), {
      target: 'local-sandbox',
      mode: 'emulated',
    });
    const facts = targetFacts({
      ...report,
      isa: null,
      emulated: { ...report.emulated, extensions: ['i', 'm', 'a', 'f', 'd', 'c'] },
    });
    expect(facts.march).toBeNull();
    expect(facts.notes.join('\n')).toMatch(/no -march beyond rv64gc/);
  });
});
