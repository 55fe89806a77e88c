import type { Command } from 'commander';
import { rvportHome } from '../../config/rvportHome.ts';
import { addTarget, readTargets } from '../../sandbox/index.ts';
import type { CliContext } from '../CliContext.ts';

/**
 * `rvport target add ssh://user@host[:port] (--host-key-fingerprint SHA256:… | --accept-new-host-key)
 * [--name NAME] [--identity FILE]` pins the machine's host key in rvport's known_hosts
 * (RVPORT_HOME/targets/known_hosts) and saves the target; `rvport target list` shows them.
 * Exit codes: 0 done; 1 bad input, no such key presented, or the machine cannot be reached.
 */
export function registerTargetCommand(program: Command, ctx: CliContext): void {
  const target = program.command('target').description('remote riscv64 machines reached over SSH');
  target
    .command('add <url>')
    .description('pin the host key of ssh://user@host[:port] and save it as a target')
    .option('--host-key-fingerprint <fp>', "the SHA256 fingerprint of the host key, from the machine's owner")
    .option('--accept-new-host-key', 'trust the key the machine presents now (trust on first use)')
    .option('--name <name>', 'a short name for --target (default: the host)')
    .option('--identity <file>', "the private key to log in with (default: rvport's own, made now)")
    .option('--json', 'machine-readable result on stdout')
    .action(
      async (
        url: string,
        options: {
          hostKeyFingerprint?: string;
          acceptNewHostKey?: boolean;
          name?: string;
          identity?: string;
          json?: boolean;
        },
      ) => {
        const result = await addTarget({
          url,
          ...(options.hostKeyFingerprint ? { fingerprint: options.hostKeyFingerprint } : {}),
          ...(options.acceptNewHostKey ? { acceptNew: true } : {}),
          ...(options.name ? { name: options.name } : {}),
          ...(options.identity ? { identity: options.identity } : {}),
        });
        if (options.json) {
          ctx.out(`${JSON.stringify(result, null, 2)}\n`);
          return;
        }
        const lines = [
          `target ${result.name}: ${result.url}`,
          ...result.pinned.map((k) => `pinned host key ${k.type} ${k.fingerprint}`),
        ];
        if (result.publicKey)
          lines.push(
            `rvport logs in with this key; add it to the remote user's ~/.ssh/authorized_keys:`,
            `  ${result.publicKey}`,
          );
        ctx.out(`${lines.join('\n')}\n`);
      },
    );
  target
    .command('list')
    .description('the saved targets')
    .option('--json', 'machine-readable result on stdout')
    .action(async (options: { json?: boolean }) => {
      const targets = await readTargets(rvportHome());
      if (options.json) ctx.out(`${JSON.stringify({ targets }, null, 2)}\n`);
      else
        ctx.out(targets.map((t) => `${t.name}\t${t.url}${t.identity ? `\t${t.identity}` : ''}\n`).join(''));
    });
}
