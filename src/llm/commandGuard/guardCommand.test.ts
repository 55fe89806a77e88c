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
    ["sed -n 'w out' f", /"w" is not a print-only command/],
    ['tail -f build.log', /never ends/],
    ['sort -o out in', /-o.*writes/],
    ['git checkout -- .', /read-only sub-commands/],
    ['git -c core.pager=sh log', /-c.*programs/],
    ['tar -xzf deps.tar.gz', /listing/],
    ['dpkg -i x.deb', /queries/],
    ['gcc -E x.c -o out.i', /-o.*write files/],
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

// Each of these ran a program, wrote a file or ran an unchecked command past the guard before it
// parsed options per command.
describe('guardCommand, inspect-mode commands that execute or write', () => {
  it.each([
    ["sed -n 'e touch /tmp/CANARY' f", /sed/],
    ["sed -n '1e touch /tmp/CANARY' f", /sed/],
    ["sed -n 's/x/touch \\/tmp\\/CANARY/e' f", /sed/],
    ["sed -n 's/x/y/w out' f", /sed/],
    ["sed -n '/x/w out' f", /sed/],
    ["sed -n -e 1p -e 'w out' f", /sed/],
    ["sed -n '1p;e id' f", /sed/],
    ['sed -n -f script.sed f', /sed.*-f/],
    ['git grep -Otouch x', /git grep.*-O/],
    ['git grep --open-files-in-pager=touch x', /open-files-in-pager/],
    ['git grep -nOtouch x', /-O/],
    ['git -c core.pager=touch log', /git.*-c/],
    ['git log --ext-diff -p', /ext-diff/],
    ['git diff --output=out', /--output/],
    ['git log -p --output=x', /--output/],
    ['git blame --contents=/dev/stdin --textconv x', /--contents/],
    ['git blame --textconv x', /--textconv/],
    ['git --exec-path=/tmp log', /exec-path/],
    ['git log --exec=touch', /--exec/],
    ['tar -tf a.tar --checkpoint=1 --checkpoint-action=exec=touch', /checkpoint/],
    ['tar -tf a.tar --to-command=touch', /to-command/],
    ['tar -t -I touch -f a.tar', /-I/],
    ['tar -tf a.tar --use-compress-program=touch', /use-compress-program/],
    ['tar -tf host:a.tar', /remote/],
    ['find . -fls out', /-fls/],
    ['find . -fprint out', /-fprint/],
    ['find . -execdir touch x ;', /-execdir/],
    ['find . -okdir touch x ;', /-okdir/],
    ['find . -files0-from list', /-files0-from/],
    ['awk \'BEGIN{system("touch x")}\'', /awk/],
    ['awk \'{print > "out"}\' f', /awk/],
    ['less f', /less/],
    ['more f', /more/],
    ['xargs touch < list', /xargs/],
    ['env touch x', /env/],
    ['rg --pre=touch x', /--pre/],
    ['rg --pre touch x', /--pre/],
    ['sort -T dir f', /-T/],
    ['sort --compress-program=touch f', /compress-program/],
    ['uniq in out', /uniq/],
    ['xxd in out', /xxd|not a read-only/],
    ['gcc -E -wrapper touch,x x.c', /-wrapper/],
    ['gcc -E -B/tmp/evil x.c', /-B/],
    ['gcc -E -fplugin=./evil.so x.c', /-fplugin/],
    ['gcc -E -MD x.c', /-MD/],
    ['gcc -E -Wp,-MD,out x.c', /-Wp/],
    ['gcc -E @opts x.c', /@opts/],
    ['cpp x.c out.i', /cpp/],
    ['dpkg-architecture -c touch x', /-c/],
    ['dpkg -l --admindir=/tmp', /admindir/],
    ['apt-cache -o Dir::Cache=/tmp show x', /-o/],
    ['/tmp/evil/cat f', /path/],
    ['./cat f', /path/],
    ['cat $HOME/x', /expansion|resolved/],
    ['cat *', /pattern/],
    ['tee out', /tee/],
    ['cat f 1<>out', /may not write/],
    ['head -n 5 f >| out', /may not write/],
    ['file -C -m x', /-C/],
    ['tree -o out', /-o/],
    ['tail --follow=name f', /follow/],
    ['tail -F f', /-F/],
    ['printf -v X y', /-v/],
    ['git log --abbrev --output=x', /--abbrev=VALUE/],
    ["git log '--format=%G?' -1", /gpg/],
    ['git log --format=%GS -1', /gpg/],
    ['git log --show-signature -1', /--show-signature/],
    ['sed -n s* f', /pattern/],
    ['sed -n 1p src/*.c', /pattern/],
    ['tar -tf h*', /pattern/],
    ['git status --untracked-files --output=x', /=VALUE/],
    ['grep --color --pre=x y f', /=VALUE/],
    ["python3 -v <<'EOF'\nimport os\nEOF", /python3/],
    ['autoreconf -v', /autoreconf/],
    ['as -v', /as/],
    ['flex -v', /flex/],
    ['gcc -D -E x.c', /without -E/],
    ['gcc -x -E x.c', /without -E/],
  ])('refuses %j', (command, why) => {
    const verdict = inspect(command);
    expect(verdict.allowed).toBe(false);
    expect(reason(verdict)).toMatch(why);
  });

  it.each([
    "sed -n '1,80p' configure.ac",
    "sed -n '/^AC_INIT/,/^$/p' configure.ac",
    "sed -n -e '10,20p' -e '$p' f",
    "sed -n 's/^VERSION=//p' Makefile",
    "sed '5q' f",
    'git grep -n "strnlen" -- src',
    'git log --oneline -5 -- src/x.c',
    'git show --stat HEAD',
    'git --no-pager diff --stat HEAD~1',
    'git status --short',
    'git ls-files -- "*.c"',
    'git blame -L 10,20 src/x.c',
    'tar tzf deps.tar.gz',
    'tar -tvf deps.tar',
    'find src -maxdepth 2 -type f -name "*.S" -print',
    'find . \\( -name "*.c" -o -name "*.h" \\) -newer Makefile',
    'grep -rn --include="*.c" -e "__x86_64__" src',
    'grep -A3 -B2 "error" build.log',
    'head -20 f',
    'tail -n +5 f',
    'ls -la src/*.c',
    'wc -l src/x.c src/y.c',
    'stat -c %s f',
    'nm -D --defined-only lib.so',
    'objdump -d -j .text x.o',
    'readelf -Ws lib.so',
    'dpkg -L libc6-dev',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a dpkg-query format, not a template
    "dpkg-query -W -f '${Version}' libc6",
    'apt-cache show libmad0-dev',
    'apt-cache search --names-only mad',
    'pkg-config --modversion zlib',
    'pkg-config --variable=libdir zlib',
    'cmake --version',
    'uname -a',
    'cat f | sort | uniq -c | sort -rn | head',
    'diff -u a.c b.c',
    'cmp a b',
    'sha256sum f',
    'gcc -E -dM -x c - < /dev/null',
    'gcc -E -DFOO=1 -Iinclude -std=gnu11 x.c',
    'cd src && ls',
    'cat <<EOF\nhello\nEOF',
    'command -v gcc',
    'echo done',
    'test -f x && echo yes',
  ])('allows %j', (command) => expect(inspect(command)).toEqual({ allowed: true }));
});

describe('guardCommand, fix-mode wrappers, shells and unresolved words', () => {
  it.each([
    ['time -f %e mount /x', /mount/],
    ['time -p mount /x', /mount/],
    ['exec -a name mount /x', /mount/],
    ['exec -cl mount /x', /mount/],
    ['nice -n 5 mount /x', /mount/],
    ['nice -5 mount /x', /mount/],
    ['nice --adjustment=5 mount /x', /mount/],
    ['timeout 5 mount /x', /mount/],
    ['timeout -s KILL 5 mount /x', /mount/],
    ['timeout --signal=KILL -k 1 5 mount /x', /mount/],
    ['env -i A=B mount /x', /mount/],
    ['env -u X -C /tmp mount /x', /mount/],
    ['env --unset=X mount /x', /mount/],
    ['stdbuf -o0 mount /x', /mount/],
    ['stdbuf -oL -eL mount /x', /mount/],
    ['stdbuf --output=L mount /x', /mount/],
    ['nohup mount /x', /mount/],
    ['command -p mount /x', /mount/],
    ['command mount /x', /mount/],
    ['builtin command mount /x', /mount/],
    ['setsid -f mount /x', /mount/],
    ['flock /tmp/l mount /x', /mount/],
    ['flock -c "mount /x" /tmp/l', /mount|flock -c/],
    ['chrt -f 1 mount /x', /mount/],
    ['taskset -c 0 mount /x', /mount/],
    ['strace -f mount /x', /strace/],
    ['xargs -I{} mount {}', /mount/],
    ['xargs -0 -n1 mount', /mount/],
    ['xargs sh -c "make"', /xargs.*sh/],
    ['xargs -I% % /x', /%|xargs/],
    ['env -S "mount /x"', /-S/],
    ['timeout $T mount /x', /resolved|expansion/],
    ['env $OPTS make', /resolved|expansion/],
    ['nice -n $N make', /resolved|expansion/],
    ["bash -Ec 'mount /x'", /mount/],
    ["sh -xec 'mount /x'", /mount/],
    ["sh -ce 'mount /x'", /mount/],
    ["bash -o pipefail -c 'mount /x'", /mount/],
    ["bash --norc -c 'mount /x'", /mount/],
    ["bash -O extglob -c 'mount /x'", /mount/],
    ["sh -c -e 'mount /x'", /mount/],
    ['echo "mount /x" | sh', /pipe/],
    ['cat script | bash', /pipe/],
    ['printf "mount /x" | bash -s', /pipe/],
    ['sh <<EOF\nmount /x\nEOF', /mount/],
    ["sh <<'EOF'\nmount /x\nEOF", /mount/],
    ['sh <<EOF\n\\$(echo mount) /x\nEOF', /here-document/],
    ["bash <<< 'mount /x'", /mount/],
    ['bash -s < script', /reads its script from/],
    ['sh < script', /reads its script from/],
    ['sh /dev/stdin', /standard input|stdin/],
    ['sh -', /standard input|stdin/],
    ['bash <(echo mount)', /expansion|substitution/],
    ['. /dev/stdin', /standard input|stdin/],
    ["bash -c '{mou,}nt /x'", /brace|expansion/],
    ['/bin/m?unt /x', /pattern/],
    ['/???/m*nt /x', /pattern/],
    ["$'\\x6dount' /x", /expansion/],
    ['find . -exec {} \\;', /\{\}/],
    ['sh -c "$CMD"', /expansion/],
    ['firejail sh', /firejail/],
    ['env -iS"mount /x"', /-S/],
    ["trap 'mount /x' EXIT", /in trap.*mount/],
    ['alias m=mount', /alias/],
    ['hash -p /bin/mount cat', /hash -p/],
    ["printf -v 'a[$(mount /x)]' x", /array subscript/],
    ['bash -c \'read "a[$(mount /x)]" < /dev/null\'', /array subscript|substitution/],
    ["x='a[$(mount /x)]'; echo $((x))", /arithmetic/],
    ["bash -c 'x=y; echo $((x + 1))'", /arithmetic/],
    ['let x=y', /let/],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source under test
    ["bash -c 'x=1; echo ${a[x]} ${s:x} ${p@P}'", /arithmetic/],
    ['[[ $x -eq 1 ]] && make', /arithmetic/],
    ['declare -i n=x', /-i/],
    ['((x))', /arithmetic/],
    ['tar -xf a.tar --to-command="mount /x"', /to-command.*mount/],
    ['tar -xf a.tar --checkpoint=1 --checkpoint-action=exec="mount /x"', /mount/],
    ['tar -xf a.tar -I "mount /x"', /mount/],
    ['tar -xvIx a.tar', /bundled/],
    ['sort --compress-program=mount f', /mount/],
    ['rsync -e "mount /x" a b', /mount/],
    ["git -c alias.b='!mount /x' b", /git -c/],
    ['git -c core.pager=mount log', /git -c/],
    ['flock /tmp/l -c "mount /x"', /cannot tell where/],
    ['exec sh <<EOF\nmount /x\nEOF', /mount/],
    ['echo "mount /x" | { true; sh; }', /pipe|standard input/],
    ['find . -exec sh ;', /standard input/],
    ['bwrap --bind / / sh', /bwrap/],
    ['systemd-run sh', /systemd-run/],
  ])('refuses %j', (command, why) => {
    const verdict = fix(command);
    expect(verdict.allowed).toBe(false);
    expect(reason(verdict)).toMatch(why);
  });

  it.each([
    'time -p make -j2',
    'timeout -s KILL 600 make V=1',
    'nice -n 10 make',
    'env -i PATH=/usr/bin:/bin make',
    'stdbuf -oL make 2>&1',
    'nohup make',
    'command -v gcc',
    "bash -ec 'cd src && make'",
    "sh -xc 'autoreconf -fi'",
    "bash -o pipefail -c 'make | tee log'",
    "sh <<'EOF'\ncd src && make\nEOF",
    "bash <<< 'make check'",
    'sh ./autogen.sh',
    'xargs -0 rm -f < list',
    'find . -name "*.o" -exec rm -f {} +',
    'make CC="$CC"',
    'cp src/*.h include/',
    'git -c user.name=rvport -c user.email=r@l commit -qm x',
    'tar -xzf deps.tar.gz',
    'make -j$((2 + 2))',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source under test
    'make PREFIX=${PREFIX:-/usr}',
    "trap 'rm -f tmp.o' EXIT",
    'printf "%s\\n" done',
  ])('allows %j', (command) => expect(fix(command)).toEqual({ allowed: true }));
});
