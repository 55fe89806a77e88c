// Engine overhead per step, checkpoint write included: a loop of function nodes run to END with
// the default file store (one atomic JSON write per step). Usage:
//   npm run bench:engine [-- STEPS [REPEATS]]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defineWorkflow,
  END,
  FileStateStore,
  FunctionNode,
  MemoryStateStore,
  runWorkflow,
  type StateStore,
} from '../src/index.ts';

const steps = Number(process.argv[2] ?? 1000);
const repeats = Number(process.argv[3] ?? 5);

const loop = defineWorkflow<{ n: number }>({
  id: 'bench',
  initialContext: { n: 0 },
  maxSteps: steps + 1,
  nodes: {
    tick: FunctionNode({
      run: (s) => ({ context: { n: s.context.n + 1 } }),
      then: (s) => (s.context.n < steps ? 'tick' : END),
    }),
  },
});

async function measure(makeStore: () => StateStore): Promise<number[]> {
  const perStep: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const store = makeStore();
    const started = performance.now();
    const result = await runWorkflow(loop, { store });
    const elapsed = performance.now() - started;
    if (result.state.steps !== steps) throw new Error(`expected ${steps} steps, got ${result.state.steps}`);
    perStep.push(elapsed / steps);
  }
  return perStep;
}

const dir = mkdtempSync(join(tmpdir(), 'rvport-bench-'));
try {
  const file = await measure(() => new FileStateStore(join(dir, String(Math.random()))));
  const memory = await measure(() => new MemoryStateStore());
  const fmt = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(3)} ms/step (min ${sorted[0]?.toFixed(3)}, max ${sorted.at(-1)?.toFixed(3)})`;
  };
  console.log(`node ${process.version}, ${steps} steps x ${repeats} runs`);
  console.log(`file store (atomic write per step): ${fmt(file)}`);
  console.log(`memory store:                       ${fmt(memory)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
