import { describe, expect, it } from 'vitest';
import { DOCTOR_CONCERNS, type DoctorConcern, doctorContext, runDoctor } from './doctorChecks.ts';

const concern = (name: string, neededForPort: boolean, run: DoctorConcern['run']): DoctorConcern => ({
  name,
  neededForPort,
  run,
});

describe('runDoctor', () => {
  it("keeps the list's order and turns a probe that throws into one line instead of a crash", async () => {
    const checks = await runDoctor(doctorContext({ RVPORT_HOME: '/nonexistent' }), [
      concern('slow', false, async () => {
        await new Promise((r) => setTimeout(r, 30));
        return [{ id: 'slow', status: 'ok', detail: 'first' }];
      }),
      concern('needed', true, async () => {
        throw new Error('probe broke');
      }),
      concern('optional', false, async () => {
        throw new Error('also broke');
      }),
    ]);
    expect(checks).toEqual([
      { id: 'slow', status: 'ok', detail: 'first' },
      { id: 'needed', status: 'fail', detail: 'could not check needed: probe broke' },
      { id: 'optional', status: 'warn', detail: 'could not check optional: also broke' },
    ]);
  });

  it('registers every concern once, those a port needs among them', () => {
    const names = DOCTOR_CONCERNS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(DOCTOR_CONCERNS.filter((c) => c.neededForPort).map((c) => c.name)).toEqual([
      'kernel',
      'host',
      'rvport-home',
      'debian-mirror',
    ]);
  });
});
