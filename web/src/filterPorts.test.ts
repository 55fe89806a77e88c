import { describe, expect, it } from 'vitest';
import type { PortRow } from '../../src/serve/ServeViews.ts';
import { filterPorts, NO_FILTER } from './filterPorts.ts';

const row = (name: string, over: Partial<PortRow> = {}): PortRow => ({
  key: name,
  name,
  batch: null,
  verdict: 'verified',
  category: null,
  buildSystem: 'cmake',
  mode: 'accelerated',
  wallMs: 1000,
  tests: null,
  differential: null,
  replay: null,
  finishedAt: null,
  ...over,
});

const rows = [
  row('zlib', { wallMs: 12_000 }),
  row('cjson', { wallMs: 77_000, mode: 'native-userland' }),
  row('hesiod', { verdict: 'escalated', category: 'COMPILATION', wallMs: null, buildSystem: 'autotools' }),
];
const names = (r: PortRow[]) => r.map((x) => x.name);

describe('filterPorts', () => {
  it('sorts by name by default', () => {
    expect(names(filterPorts(rows, NO_FILTER))).toEqual(['cjson', 'hesiod', 'zlib']);
  });
  it('filters by verdict, mode and text', () => {
    expect(names(filterPorts(rows, { ...NO_FILTER, verdict: 'escalated' }))).toEqual(['hesiod']);
    expect(names(filterPorts(rows, { ...NO_FILTER, mode: 'native-userland' }))).toEqual(['cjson']);
    expect(names(filterPorts(rows, { ...NO_FILTER, text: 'compil' }))).toEqual(['hesiod']);
    expect(names(filterPorts(rows, { ...NO_FILTER, text: 'AUTOTOOLS' }))).toEqual(['hesiod']);
  });
  it('sorts by time either way, missing times last', () => {
    expect(names(filterPorts(rows, { ...NO_FILTER, sort: 'time' }))).toEqual(['zlib', 'cjson', 'hesiod']);
    expect(names(filterPorts(rows, { ...NO_FILTER, sort: 'time', descending: true }))).toEqual([
      'cjson',
      'zlib',
      'hesiod',
    ]);
  });
});
