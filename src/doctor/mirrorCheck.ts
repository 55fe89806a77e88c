import { DEFAULT_DEBIAN_SUITE, debianMirror } from '../debian/debianMirror.ts';
import { type DoctorCheck, failed, passed } from './DoctorCheck.ts';

export const MIRROR_TIMEOUT_MS = 10_000;

export interface MirrorFacts {
  /** null: none in the apt sources and no RVPORT_DEBIAN_MIRROR. */
  mirror: string | null;
  suite: string;
  /** The HTTP status of `dists/<suite>/Release`, or why there was none. */
  answer?: { status: number } | { error: string };
}

const FIX_MIRROR =
  'export RVPORT_DEBIAN_MIRROR=<a Debian archive URL ending in /debian>   (or add one to /etc/apt/sources.list.d)';

export function evaluateMirror(facts: MirrorFacts): DoctorCheck[] {
  const id = 'debian-mirror';
  if (!facts.mirror) {
    return [
      failed(
        id,
        "no Debian mirror in this machine's apt sources (/etc/apt) and no RVPORT_DEBIAN_MIRROR",
        FIX_MIRROR,
      ),
    ];
  }
  const release = releaseUrl(facts.mirror, facts.suite);
  const answer = facts.answer;
  if (answer && 'status' in answer && answer.status >= 200 && answer.status < 300) {
    return [passed(id, `Debian mirror ${facts.mirror} answers for ${facts.suite}`)];
  }
  const why =
    answer === undefined ? 'not asked' : 'status' in answer ? `HTTP ${answer.status}` : answer.error;
  return [
    failed(
      id,
      `Debian mirror ${facts.mirror} does not serve ${release} (${why})`,
      `check the network and proxy settings (curl -I ${release}), or ${FIX_MIRROR}`,
    ),
  ];
}

export function releaseUrl(mirror: string, suite: string): string {
  return `${mirror.replace(/\/+$/, '')}/dists/${suite}/Release`;
}

export async function gatherMirrorFacts(
  env: NodeJS.ProcessEnv,
  options: { mirror?: string; suite?: string; timeoutMs?: number } = {},
): Promise<MirrorFacts> {
  const mirror = options.mirror ?? debianMirror(env);
  const suite = options.suite ?? DEFAULT_DEBIAN_SUITE;
  if (!mirror) return { mirror: null, suite };
  const url = releaseUrl(mirror, suite);
  try {
    // HEAD: the answer's status is all that matters; some servers refuse HEAD, so GET then
    let response = await fetch(url, {
      method: 'HEAD',
      signal: AbortSignal.timeout(options.timeoutMs ?? MIRROR_TIMEOUT_MS),
    });
    if (response.status === 405 || response.status === 501) {
      response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? MIRROR_TIMEOUT_MS) });
      await response.body?.cancel();
    }
    return { mirror, suite, answer: { status: response.status } };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within ${(options.timeoutMs ?? MIRROR_TIMEOUT_MS) / 1000} s`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { mirror, suite, answer: { error: reason } };
  }
}
