import { describe, expect, it } from 'vitest';
import { detectBuildSystems } from './detectBuildSystems.ts';
import { SourceTree } from './SourceTree.ts';

const both = {
  'configure.ac': 'AC_INIT([demo], [1.0])\n',
  'Makefile.am': '',
  'meson.build': "project('demo', 'c')\n",
};

describe('preferUpstreamBuild', () => {
  it("puts first the build system upstream's CI runs", () => {
    const order = (extra: Record<string, string>) =>
      detectBuildSystems(SourceTree.fromFiles({ ...both, ...extra })).map((c) => c.type);
    const ciMeson = order({
      '.github/workflows/ci.yml': 'steps:\n  - run: meson setup build && ninja -C build\n',
    });
    const ciAutotools = order({ '.gitlab-ci.yml': 'script:\n  - ./autogen.sh && ./configure && make\n' });
    expect(ciMeson.indexOf('meson')).toBeLessThan(ciMeson.indexOf('autotools'));
    expect(ciAutotools.indexOf('autotools')).toBeLessThan(ciAutotools.indexOf('meson'));
  });

  it('names the file that says so, counts README instructions less than CI, and leaves a single system alone', () => {
    const plain = detectBuildSystems(SourceTree.fromFiles(both));
    const meson = (cs: typeof plain) => cs.find((c) => c.type === 'meson');
    expect(
      meson(detectBuildSystems(SourceTree.fromFiles({ ...both, 'README.md': 'meson setup build' })))
        ?.evidence,
    ).toContain('README.md');
    const withDocs = meson(
      detectBuildSystems(SourceTree.fromFiles({ ...both, 'README.md': 'meson setup build' })),
    );
    const withCi = meson(
      detectBuildSystems(SourceTree.fromFiles({ ...both, '.travis.yml': 'script: meson setup build' })),
    );
    expect((withCi?.confidence ?? 0) - (meson(plain)?.confidence ?? 0)).toBeCloseTo(0.1);
    expect((withDocs?.confidence ?? 0) - (meson(plain)?.confidence ?? 0)).toBeCloseTo(0.05);
    const single = detectBuildSystems(
      SourceTree.fromFiles({ 'meson.build': "project('x')\n", '.travis.yml': 'script: meson setup build' }),
    );
    expect(single[0]?.confidence).toBe(meson(plain)?.confidence);
  });
});

describe('preferUpstreamBuild in a subfolder', () => {
  it('leaves a build system in a subfolder alone, and counts make in CI like the others', () => {
    const tree = {
      Makefile: 'all:\n\tcc -o x x.c\n',
      'x.c': 'int main(void){return 0;}\n',
      'cmake_unofficial/CMakeLists.txt': 'project(x C)\n',
      '.github/workflows/ci.yml':
        'steps:\n  - run: make -j2 check\n  - run: cmake -S cmake_unofficial -B b\n',
    };
    const [top] = detectBuildSystems(SourceTree.fromFiles(tree));
    expect(top).toMatchObject({ type: 'make', dir: '.' });
  });
});
