import { describe, expect, it } from 'vitest';
import { guardCommand, reviewProposedCommands } from './guardCommand.ts';

const fix = (command: string, allowNetwork = false) => guardCommand(command, { mode: 'fix', allowNetwork });
const inspect = (command: string) => guardCommand(command, { mode: 'inspect' });
const reason = (verdict: ReturnType<typeof guardCommand>) => (verdict.allowed ? '' : verdict.reason);

describe('guardCommand, fix mode', () => {
  it.each([
    './configure --build=riscv64-linux-gnu --prefix=/usr',
    'autoreconf -fi && ./configure',
    'make -j$(nproc) CFLAGS="-O2 -g"',
    "sed -i 's/-march=native//' Makefile",
    'cp /usr/share/misc/config.guess build-aux/config.guess',
    'apt-get install -y libmad0-dev',
    "cat > src/fix.h <<'EOF'\n#define X 1\nEOF",
    'cmake -S . -B build -DBUILD_TESTING=OFF 2>&1 | tail -n 50',
    'env CC=gcc timeout 600 make V=1',
    'find . -name "*.o" -exec rm -f {} +',
    "sh -c 'cd src && make'",
    'for f in *.c; do gcc -c "$f"; done',
    'git apply fix.patch && git diff --stat',
    'perl -pi -e "s/i386/riscv64/" configure.ac',
    'make install DESTDIR=/tmp/stage',
    'ls /native/bin && readelf -h /native/bin/gcc',
    'make > build.log 2>/dev/null',
  ])('allows %j', (command) => expect(fix(command)).toEqual({ allowed: true }));

  it.each([
    ['mount --bind /src /mnt', /mount.*leaves the sandbox/],
    ['make && umount /native', /umount/],
    ['/usr/sbin/chroot / sh', /chroot/],
    ['unshare -m sh', /unshare/],
    ['nsenter -t 1 -m sh', /nsenter/],
    ['pivot_root . old', /pivot_root/],
    ['echo $(mount)', /substitution.*mount/],
    ['echo `mount`', /substitution.*mount/],
    ['sudo make install', /privileges/],
    ["bash -c 'make && mount -t tmpfs x /mnt'", /in bash -c.*mount/],
    ['timeout 30 nice -n 5 mount /dev/sda1 /mnt', /mount/],
    ['xargs -n1 umount < list', /umount/],
    ['find / -name x -exec chroot {} sh ;', /find -exec.*chroot/],
    ['echo hi > /native/bin/gcc', /writes under \/native/],
    ['echo hi >> //native/../native/lib/x', /writes under \/native/],
    ['cp evil /native/bin/gcc', /touches \/native/],
    ['ln -sf /native/bin/gcc /usr/bin/cc', /touches \/native/],
    ["sed -i 's/a/b/' /native/usr/lib/gcc/specs", /touches \/native/],
    ['dd if=x of=/native/img', /touches \/native/],
    ['find /native -name "*.so" -delete', /touches \/native/],
    ['echo 1 > /proc/sys/kernel/core_pattern', /kernel settings/],
    ['dd if=/dev/zero of=/dev/sda', /devices/],
    ['curl -fsSL https://example.org/x.tar.gz | tar xz', /curl uses the network/],
    ['wget http://example.org/config.guess', /wget/],
    ['nc -l 4444', /nc uses/],
    ['ssh host make', /ssh/],
    ['git clone https://example.org/x.git', /git clone/],
    ['git submodule update --init', /git submodule/],
    ['pip install meson', /pip install/],
    ['python3 -m pip install meson', /pip install/],
    ['go mod download', /go mod download/],
    ['cargo fetch', /cargo fetch/],
    ['npm install', /npm install/],
    ['python3 -c \'import os; os.system("mount /x")\'', /inline python3 code mentions mount/],
    ['python3 -c \'import urllib.request; urllib.request.urlopen("http://x")\'', /network/],
    ['awk \'BEGIN { system("curl x") }\'', /curl/],
    ['eval "$CMD"', /eval/],
    ["bash -c -- 'mount /x'", /in bash -c.*mount/],
    ['cd /native/bin && echo x > gcc', /cd into \/native/],
    ['\\mount /x', /mount/],
    ["m'ou'nt /x", /mount/],
    ['busybox umount /x', /umount/],
    ['{ chroot /; }', /chroot/],
    ['$CC -o x x.c', /comes from an expansion/],
    ['rm -rf /', /whole root/],
    ['rm -rf --no-preserve-root /', /whole root/],
    ['make > $LOG', /expansion/],
    ["echo 'unterminated", /cannot be checked/],
    ['dpkg-divert --remove /usr/bin/gcc', /diversions/],
    ['update-binfmts --disable', /binfmt/],
  ])('refuses %j', (command, why) => {
    const verdict = fix(command);
    expect(verdict.allowed).toBe(false);
    expect(reason(verdict)).toMatch(why);
  });

  it('lets steps that fetch sources use the network', () => {
    expect(fix('git clone https://example.org/x.git', true)).toEqual({ allowed: true });
    expect(fix('wget http://example.org/x.tar.gz', true)).toEqual({ allowed: true });
    expect(fix('mount /dev/sda /mnt', true).allowed).toBe(false);
  });

  it('allows offline package-manager forms', () => {
    expect(fix('pip install --no-index --find-links=wheels .')).toEqual({ allowed: true });
    expect(fix('cargo build --offline')).toEqual({ allowed: true });
    expect(fix('git submodule status')).toEqual({ allowed: true });
  });
});

describe('guardCommand, inspect mode', () => {
  it.each([
    'cat config.log',
    'tail -n 100 build.log',
    'grep -rn "__x86_64__" src | head -20',
    'ls -la build-aux',
    'find . -name "*.S" -o -name "*.asm"',
    'readelf -h src/.libs/libmad.so.0',
    'objdump -d fixed.o | head -50',
    'file src/madplay',
    'pkg-config --cflags --libs libmad',
    'dpkg -S /usr/include/mad.h',
    'apt-cache policy libid3tag0-dev',
    'gcc --version',
    'riscv64-linux-gnu-gcc -dumpmachine',
    'gcc -E -dM - < /dev/null',
    "sed -n '1,80p' configure.ac",
    'git log --oneline -5',
    'tar -tzf deps.tar.gz',
    'uname -m',
    'cat /native/usr/lib/gcc-cross/riscv64-linux-gnu/14/specs',
    'grep -c processor /proc/cpuinfo 2>/dev/null',
  ])('allows %j', (command) => expect(inspect(command)).toEqual({ allowed: true }));

  it.each([
    ['make', /not a read-only inspection command/],
    ['rm -f config.cache', /not a read-only/],
    ['cat config.log > copy.log', /may not write/],
    ['grep x file | tee out', /tee is not/],
    ['echo $(id)', /substitution/],
    ['find . -name "*.o" -delete', /-delete/],
    ['find . -exec sh -c x ;', /-exec/],
    ["sed -i 's/a/b/' f", /in place/],
    ["sed -n 'w out' f", /only `sed -n/],
    ['tail -f build.log', /never ends/],
    ['sort -o out in', /writes/],
    ['git checkout -- .', /read-only sub-commands/],
    ['git -c core.pager=sh log', /read-only sub-commands/],
    ['tar -xzf deps.tar.gz', /listing/],
    ['dpkg -i x.deb', /queries/],
    ['gcc -E x.c -o out.i', /writes files/],
    ['gcc -c x.c', /not a read-only/],
    ['LD_PRELOAD=x.so cat f', /assignments/],
    ['env make', /plain `env`/],
    ['curl http://x', /not a read-only/],
  ])('refuses %j', (command, why) => {
    const verdict = inspect(command);
    expect(verdict.allowed).toBe(false);
    expect(reason(verdict)).toMatch(why);
  });
});

describe('reviewProposedCommands', () => {
  it('splits proposals into allowed and refused, with reasons', () => {
    const review = reviewProposedCommands(['make', 'mount -a', 'make check'], { mode: 'fix' });
    expect(review.allowed).toEqual(['make', 'make check']);
    expect(review.refused).toEqual([{ command: 'mount -a', reason: expect.stringMatching(/mount/) }]);
  });

  it('keeps an inspection round to four commands', () => {
    const review = reviewProposedCommands(['ls', 'cat a', 'cat b', 'cat c', 'cat d'], { mode: 'inspect' });
    expect(review.allowed).toEqual(['ls', 'cat a', 'cat b', 'cat c']);
    expect(review.refused).toEqual([{ command: 'cat d', reason: 'only 4 read-only commands per round' }]);
  });
});
