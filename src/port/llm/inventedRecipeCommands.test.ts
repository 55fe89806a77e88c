import { describe, expect, it } from 'vitest';
import { codeBlockLines, inventedRecipeCommands } from './inventedRecipeCommands.ts';

describe('codeBlockLines', () => {
  it('reads ``` and ~~~ fences, skips prose, blank lines and comments, drops a $ prompt', () => {
    const md = [
      'Run `make install` later.',
      '```sh',
      '# configure first',
      '$ ./configure',
      '',
      '  make -j2  ',
      '```',
      'prose',
      '~~~~',
      'a ``` inside',
      '~~~~',
    ].join('\n');
    expect(codeBlockLines(md)).toEqual(['./configure', 'make -j2', 'a ``` inside']);
  });

  it('an unclosed fence runs to the end', () => {
    expect(codeBlockLines('```\nmake\nmake test')).toEqual(['make', 'make test']);
  });
});

describe('inventedRecipeCommands', () => {
  it('lists the code-block lines not allowed, once each', () => {
    const md = '```sh\n./configure\nmake\ncurl -O x.sh\ncurl -O x.sh\n```';
    expect(inventedRecipeCommands(md, ['./configure', 'make'])).toEqual(['curl -O x.sh']);
    expect(inventedRecipeCommands(md, ['./configure', 'make', 'curl -O x.sh'])).toEqual([]);
  });
});
