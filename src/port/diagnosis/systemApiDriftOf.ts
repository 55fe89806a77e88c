import type { Sandbox } from '../../sandbox/index.ts';
import type { PortState } from '../state/PortState.ts';
import { apiUsesIn } from './apiUsesIn.ts';
import { locateSystemApi, type SystemApiDrift } from './locateSystemApi.ts';

/** Categories whose errors can be a library's API drift (a compile error; a link after -fpermissive). */
const DRIFT_CATEGORIES = new Set(['COMPILATION', 'LINKING']);
const LOOKUP_TIMEOUT_MS = 60_000;

/**
 * The system API an escalating build used and the sandbox's libraries no longer have, from the
 * compiler output of every error the port recorded (a repair such as -fpermissive can turn the
 * first compile error into a link error), looked up in the port's sandbox. Empty when the last
 * error is not a build's, or nothing is a system library's.
 */
export async function systemApiDriftOf(
  state: Pick<PortState, 'errors'>,
  sandbox: () => Promise<Sandbox>,
): Promise<SystemApiDrift[]> {
  const last = state.errors.at(-1);
  if (!last || !DRIFT_CATEGORIES.has(last.category)) return [];
  const uses = apiUsesIn(state.errors.map((e) => `${e.errorLine ?? ''}\n${e.message}`).join('\n'));
  if (uses.length === 0) return [];
  try {
    const box = await sandbox();
    return await locateSystemApi(uses, box.workspace, async (script) => {
      const r = await box.run(['sh', '-c', script], {
        timeoutMs: LOOKUP_TIMEOUT_MS,
        outputCapBytes: 16 * 1024,
      });
      return { exitCode: r.exitCode, stdout: r.stdout };
    });
  } catch {
    return []; // a diagnosis for the person; the escalation stands without it
  }
}
