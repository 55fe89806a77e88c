// One contender of the state-lock race test: args DIR ROUNDS START_AT_MS GAP_MS. For round r it
// waits (spinning, for a sharp start) until START_AT + r*GAP, then takes the lock of workflow
// `w<r>` in DIR and, when it got it, writes DIR/won-<r>-<pid> (the lock is never released).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileStateStore } from '../FileStateStore.ts';

const [dir = '', rounds = '0', startAt = '0', gap = '0'] = process.argv.slice(2);
const store = new FileStateStore(dir);
for (let r = 0; r < Number(rounds); r++) {
  const at = Number(startAt) + r * Number(gap);
  while (Date.now() < at) {
    // spin: every contender starts the round within a fraction of a millisecond
  }
  try {
    await store.lock(`w${r}`);
    writeFileSync(join(dir, `won-${r}-${process.pid}`), '');
  } catch (error) {
    if ((error as Error).name !== 'WorkflowLockedError') throw error;
  }
}
