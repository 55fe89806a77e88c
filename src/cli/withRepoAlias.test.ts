import { describe, expect, it } from 'vitest';
import { withRepoAlias } from './withRepoAlias.ts';

const argv = (...args: string[]) => ['node', 'rvport', ...args];

describe('withRepoAlias', () => {
  it('turns --repo SOURCE into the port command, keeping the other options', () => {
    expect(withRepoAlias(argv('--repo', 'https://example.org/x.git', '--force'))).toEqual(
      argv('port', 'https://example.org/x.git', '--force'),
    );
    expect(withRepoAlias(argv('--offline', '--repo=debian:cjson'))).toEqual(
      argv('port', 'debian:cjson', '--offline'),
    );
    expect(withRepoAlias(argv('--max-attempts', '3', '--repo', 'dir'))).toEqual(
      argv('port', 'dir', '--max-attempts', '3'),
    );
  });

  it('leaves --repo after -- to the command line that follows', () => {
    const args = argv('sandbox', 'exec', '--', 'git', 'clone', '--repo', 'x');
    expect(withRepoAlias(args)).toEqual(args);
    const bare = argv('--', 'git', '--repo=x');
    expect(withRepoAlias(bare)).toEqual(bare);
  });

  it('leaves --repo after a command name to that command', () => {
    const args = argv('workflow', 'run', 'mine.workflow.ts', '--context', '{}', '--repo', 'x');
    expect(withRepoAlias(args)).toEqual(args);
  });

  it('leaves an argv without --repo unchanged', () => {
    expect(withRepoAlias(argv('port', 'debian:cjson'))).toEqual(argv('port', 'debian:cjson'));
    expect(withRepoAlias(argv('--repository', 'x'))).toEqual(argv('--repository', 'x'));
  });
});
