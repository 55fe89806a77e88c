import { join } from 'node:path';
import { imageAptLists, loadInstallablePackages } from '../../debian/installablePackages.ts';
import { recoveryHeuristics } from '../../heuristics/index.ts';
import type { LlmClient } from '../../llm/index.ts';
import type { imageKeys } from '../../sandbox/index.ts';
import { sandboxPaths } from '../../sandbox/index.ts';
import type { DependencySources } from '../../sources/index.ts';
import { loadSourceIndex } from '../steps/debianSourceHint.ts';
import { contentsLoader } from './contentsLoader.ts';
import { once } from './once.ts';
import type { PortRequest } from './PortRequest.ts';
import type { PortServices } from './PortServices.ts';
import type { ProgressEvent } from './ProgressEvent.ts';
import type { PortSandbox } from './portSandbox.ts';

export const DEFAULT_COMMAND_TIMEOUT_MS = 60 * 60 * 1000;
/**
 * Each command of a package's tests gets this long (`--test-timeout`): under emulation an
 * interpreter-heavy suite can run for half an hour, longer than the build; a cut is reported.
 */
export const DEFAULT_TEST_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * What the port's nodes use besides their state: the sandbox and its choices, Debian's data
 * (each index loaded once, on first use), the heuristics, the LLM client, the time limits.
 */
export function createPortServices(
  request: PortRequest,
  context: {
    home: string;
    suite: string;
    outDir: string;
    keys: ReturnType<typeof imageKeys>;
    llm: LlmClient;
    sandbox: PortSandbox;
    /** The Go proxy and crate registry, checked before anything ran (configuredDependencySources). */
    dependencySources: DependencySources | null;
    progress: (event: ProgressEvent) => void;
  },
): PortServices {
  const { home, suite, outDir, keys, progress, dependencySources } = context;
  return {
    home,
    ...(dependencySources ? { dependencySources } : {}),
    outDir,
    sourcesDir: join(home, 'sources'),
    sourceFetch: {
      source: request.source,
      rules: {
        origin: request.sourceOrigin ?? 'command-line',
        allowPrivateAddresses: !!request.allowPrivateAddresses,
      },
    },
    buildLog: join(outDir, 'build.log'),
    sandbox: context.sandbox.provider,
    ...context.sandbox.seams,
    contents: contentsLoader(home, suite, request.mirror, progress),
    heuristics: recoveryHeuristics,
    commandTimeoutMs: request.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    testTimeoutMs: request.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
    ...(request.runTests === false ? { runTests: false } : {}),
    progress,
    llm: context.llm,
    suite,
    ...(request.mirror ? { mirror: request.mirror } : {}),
    // a failed load answers null: names are then checked by form only
    installable: once(() =>
      loadInstallablePackages(imageAptLists(sandboxPaths(home).image(keys.rootfs))).catch(() => null),
    ),
    debianSources: once(() =>
      loadSourceIndex({
        aptDir: join(home, 'sources', '.debian-apt'),
        suite,
        ...(request.mirror ? { mirror: request.mirror } : {}),
        log: (line) => progress({ type: 'note', message: line }),
      }).catch((error: Error) => {
        progress({ type: 'note', message: `Debian's Sources index could not be read: ${error.message}` });
        return null;
      }),
    ),
  };
}
