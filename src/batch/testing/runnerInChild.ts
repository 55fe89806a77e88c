// Runs one fake port through childPortRunner in this process, for the test that SIGKILLs the
// batch side: args OUT SOURCE. Prints "started" once the port runs.
import { fileURLToPath } from 'node:url';
import { childPortRunner } from '../childPortRunner.ts';

const [out, source] = process.argv.slice(2) as [string, string];
const fake = fileURLToPath(new URL('./fakePort.mjs', import.meta.url));
const runner = childPortRunner({ out, portFlags: [], command: [process.execPath, fake] });
await runner.run(
  { key: source, line: 1, source, name: source.split(/[/:]/).pop() as string, invalid: null },
  { signal: new AbortController().signal, onStarted: () => process.stdout.write('started\n') },
);
