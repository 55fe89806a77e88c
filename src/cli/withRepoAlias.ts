import { commandNames } from './commands.ts';

/**
 * `rvport --repo SOURCE …` (the seed system's spelling) is `rvport port SOURCE …`. Only as an
 * option of rvport itself: after a command name, `--repo` belongs to that command, and after `--`
 * to the command line that follows (`rvport sandbox exec -- git clone --repo x` runs git).
 */
export function withRepoAlias(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  const at = options.findIndex((a) => a === '--repo' || a.startsWith('--repo='));
  if (at === -1 || options.slice(0, at).some((a) => commandNames.includes(a))) return [...argv];
  const arg = args[at] as string;
  const inline = arg.startsWith('--repo=');
  const source = inline ? [arg.slice('--repo='.length)] : args.slice(at + 1, at + 2);
  const rest = [...args.slice(0, at), ...args.slice(at + (inline ? 1 : 2))];
  return [...argv.slice(0, 2), 'port', ...source, ...rest];
}
