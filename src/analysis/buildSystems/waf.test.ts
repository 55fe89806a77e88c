import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { waf } from './waf.ts';

describe('waf detector', () => {
  it('is surer with the waf script shipped, and runs it with python3', () => {
    const shipped = waf.detect(SourceTree.fromFiles({ wscript: '', waf: '#!/usr/bin/env python3\n' }), '');
    expect(shipped).toMatchObject({ confidence: 0.85, details: { wafShipped: true } });
    expect(waf.detect(SourceTree.fromFiles({ wscript: '' }), '')?.confidence).toBe(0.65);
    const plan = waf.defaultPlan({
      type: 'waf',
      confidence: 0.85,
      dir: '.',
      evidence: [],
      details: shipped?.details ?? {},
    });
    expect(plan[0]?.commands[0]).toBe('python3 ./waf configure --prefix=/usr');
  });
});
