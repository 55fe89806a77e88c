import { describe, expect, it } from 'vitest';
import { parseGoTestJson } from './parseGoTestJson.ts';

describe('parseGoTestJson', () => {
  it('reads pass, fail and skip events with a failure output', () => {
    const events = [
      { Action: 'run', Package: 'ex/a', Test: 'TestOne' },
      { Action: 'pass', Package: 'ex/a', Test: 'TestOne', Elapsed: 0 },
      { Action: 'run', Package: 'ex/a', Test: 'TestTwo' },
      { Action: 'output', Package: 'ex/a', Test: 'TestTwo', Output: '    a_test.go:9: got 255\n' },
      { Action: 'fail', Package: 'ex/a', Test: 'TestTwo', Elapsed: 0 },
      { Action: 'skip', Package: 'ex/a', Test: 'TestThree' },
      { Action: 'pass', Package: 'ex/a' },
    ];
    const text = `${events.map((e) => JSON.stringify(e)).join('\n')}\nnot json\n`;
    expect(parseGoTestJson(text)).toEqual([
      { name: 'ex/a.TestOne', status: 'pass' },
      { name: 'ex/a.TestTwo', status: 'fail', output: 'a_test.go:9: got 255' },
      { name: 'ex/a.TestThree', status: 'skip' },
    ]);
  });
});
