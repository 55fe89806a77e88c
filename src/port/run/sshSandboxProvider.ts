import type { Sandbox, SandboxMode } from '../../sandbox/index.ts';
import { createSandbox, SSH_TARGET_IMAGE_ID } from '../../sandbox/index.ts';
import type { SandboxProvider } from './PortServices.ts';

/**
 * The sandbox of a port on an SSH target: one remote workspace with a host copy of `/build`
 * (the port reads the build tree on the host: verification reads ELF headers here). Never kept:
 * the remote folder is removed with the instance.
 */
export function sshSandboxProvider(options: {
  home: string;
  suite: string;
  target: string;
  mirror?: string;
  env?: Record<string, string>;
}): SandboxProvider & { useMode(mode: SandboxMode, imageId: string): void } {
  let instance: Promise<Sandbox> | null = null;
  return {
    imageId: SSH_TARGET_IMAGE_ID,
    suite: options.suite,
    useMode() {
      // the remote machine is what it is: there is no mode to choose
    },
    get: () => {
      instance ??= createSandbox({
        target: options.target,
        home: options.home,
        mirrorWorkspace: true,
        ...(options.mirror ? { mirror: options.mirror } : {}),
        ...(options.env ? { env: options.env } : {}),
      });
      return instance;
    },
    discard: async () => {
      const current = instance;
      instance = null;
      if (current) await (await current).destroy();
    },
  };
}
