import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

const HELLO_C = `#include <stdio.h>
#include <stddef.h>
#include <stdarg.h>
static int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
int main(void) { printf("hello %zu %d\\n", sizeof(size_t), sum(3, 1, 2, 3)); return 0; }
`;
const HELLO_CC = `#include <iostream>
#include <map>
#include <string>
#include <vector>
int main() {
  std::map<std::string, std::vector<int>> m{{"a", {1, 2, 3}}};
  std::cout << "hi " << m["a"].size() << std::endl;
}
`;
const BUILD = [
  'set -e',
  'gcc -O2 -g -c hello.c -o hello.o',
  'g++ -O2 -g -c hello.cc -o hellocc.o',
  'gcc -O2 hello.c -o hello',
  'g++ -O2 hello.cc -o hellocc',
  './hello',
  './hellocc',
  'readelf -h hello hellocc hello.o hellocc.o | grep Machine',
].join('\n');

let accelerated: ChrootSandbox;
let emulated: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  accelerated = await createSandbox({ mode: 'accelerated' });
  emulated = await createSandbox({ mode: 'emulated' });
  for (const box of [accelerated, emulated]) {
    await box.writeFile('/build/hello.c', HELLO_C);
    await box.writeFile('/build/hello.cc', HELLO_CC);
  }
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await accelerated?.destroy();
  await emulated?.destroy();
});

describe('accelerated mode', () => {
  it('reaches the x86_64 cross compiler through every spelling, and uname stays riscv64', async () => {
    const result = await accelerated.run([
      'sh',
      '-c',
      'for t in cc gcc g++ gcc-14 as ld ar /usr/bin/riscv64-linux-gnu-gcc-14; do readlink -f $(command -v $t); done; uname -m',
    ]);
    const lines = result.stdout.trim().split('\n');
    expect(lines.pop()).toBe('riscv64');
    for (const line of lines) expect(line).toMatch(/^\/native\/usr\/(bin|riscv64-linux-gnu\/bin)\//);
    expect((await emulated.run(['sh', '-c', 'readlink -f $(command -v gcc)'])).stdout).toBe(
      '/usr/bin/riscv64-linux-gnu-gcc-14\n',
    );
  });

  it('builds C and C++ programs that are RISC-V and run, in both modes, byte-identical objects with -O2 -g', async () => {
    const fast = await accelerated.run(['sh', '-c', BUILD], { timeoutMs: 120_000 });
    expect(fast.stderr).toBe('');
    const slow = await emulated.run(['sh', '-c', BUILD], { timeoutMs: 300_000 });
    for (const result of [fast, slow]) {
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('hello 8 6\nhi 3\n');
      expect(result.stdout.match(/Machine:\s+RISC-V/g)).toHaveLength(4);
    }
    const host = await mkdtemp(join(tmpdir(), 'rvport-objects-'));
    for (const name of ['hello.o', 'hellocc.o']) {
      await accelerated.copyOut(`/build/${name}`, join(host, `accelerated-${name}`));
      await emulated.copyOut(`/build/${name}`, join(host, `emulated-${name}`));
      const a = await readFile(join(host, `accelerated-${name}`));
      const b = await readFile(join(host, `emulated-${name}`));
      expect(a.length).toBeGreaterThan(1000);
      expect(a.equals(b), `${name} differs between accelerated and emulated`).toBe(true);
      // -g really is in there, with the native compiler's paths only
      expect(a.includes('/native/')).toBe(false);
    }
  }, 400_000);

  it('builds Go for riscv64 at native speed and runs its tests under emulation', async () => {
    await accelerated.writeFile('/build/gomod/go.mod', 'module example.com/gomod\n\ngo 1.24\n');
    await accelerated.writeFile(
      '/build/gomod/main.go',
      'package main\n\nimport "fmt"\n\nfunc Add(a, b int) int { return a + b }\n\nfunc main() { fmt.Println("go", Add(2, 3)) }\n',
    );
    await accelerated.writeFile(
      '/build/gomod/main_test.go',
      'package main\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) { if Add(2, 3) != 5 { t.Fatal("add") } }\n',
    );
    const result = await accelerated.run(
      [
        'sh',
        '-c',
        'set -e; go env GOOS GOARCH; go build -o app . && ./app && readelf -h app | grep Machine; go test ./...',
      ],
      { cwd: '/build/gomod', timeoutMs: 240_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^linux\nriscv64\ngo 5\n\s+Machine:\s+RISC-V\nok\s+example.com\/gomod/);
  }, 300_000);

  it('refuses -march=native like the emulated compiler does', async () => {
    const fast = await accelerated.run(['gcc', '-march=native', '-c', 'hello.c', '-o', 'native.o']);
    const slow = await emulated.run(['gcc', '-march=native', '-c', 'hello.c', '-o', 'native.o']);
    expect(fast.exitCode).not.toBe(0);
    expect(slow.exitCode).not.toBe(0);
  }, 120_000);

  it('installs Debian packages with the network on', async () => {
    const result = await accelerated.installPackages(['hello'], { timeoutMs: 300_000 });
    expect(result.exitCode).toBe(0);
    expect((await accelerated.run(['hello'])).stdout).toBe('Hello, world!\n');
    await expect(accelerated.installPackages(['bad;name'])).rejects.toThrow(/not Debian package names/);
  }, 320_000);
});
