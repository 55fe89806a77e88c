import { describe, expect, it } from 'vitest';
import { mountsUnder } from './removeTree.ts';

const mountinfo = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '90 22 0:50 / /home/r/sandbox/images/.tmp-x/tree/proc rw - proc proc rw',
  '91 22 0:51 / /home/r/sandbox/images/.tmp-x/tree/dev/pts rw - devpts devpts rw',
  '92 22 0:52 / /home/r/sandbox\\040other/x rw - tmpfs tmpfs rw',
  '93 22 0:53 / /home/r/sandboxes rw - tmpfs tmpfs rw',
].join('\n');

describe('mountsUnder', () => {
  it('lists the mounts inside a folder, deepest first, decoding escapes', () => {
    expect(mountsUnder(mountinfo, '/home/r/sandbox')).toEqual([
      '/home/r/sandbox/images/.tmp-x/tree/dev/pts',
      '/home/r/sandbox/images/.tmp-x/tree/proc',
    ]);
    expect(mountsUnder(mountinfo, '/home/r/sandbox other')).toEqual(['/home/r/sandbox other/x']);
  });
});
