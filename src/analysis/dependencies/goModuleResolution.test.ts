import { describe, expect, it } from 'vitest';
import { ContentsIndex } from './ContentsIndex.ts';
import { goModDependencies } from './goModDependencies.ts';
import { resolveDependencies } from './resolveDependencies.ts';

/** Debian's Go folders as the cached index keeps them (one line per folder). */
const index = ContentsIndex.fromText(
  [
    'usr/share/gocode/src/github.com/google/uuid/\tgolang-github-google-uuid-dev',
    'usr/share/gocode/src/golang.org/x/sys/cpu/\tgolang-golang-x-sys-dev',
    'usr/share/gocode/src/golang.org/x/sys/unix/\tgolang-golang-x-sys-dev',
    'usr/share/gocode/src/golang.org/x/sysfoo/\tnot-this-one',
  ].join('\n'),
);

describe("resolving Go modules to Debian's golang-*-dev packages", () => {
  it('finds a module by its folder, or by a folder under it, and leaves an unpackaged one unresolved', () => {
    const text =
      'module example.com/demo\n\nrequire (\n\tgithub.com/google/uuid v1.6.0\n\tgolang.org/x/sys v0.30.0 // indirect\n\texample.com/nowhere v1.0.0\n)\n';
    const deps = resolveDependencies(
      goModDependencies.extract({ path: 'go.mod', text, lines: text.split('\n') }),
      index,
    );
    expect(deps.map((d) => [d.name, d.required, d.debianPackages])).toEqual([
      ['github.com/google/uuid', true, ['golang-github-google-uuid-dev']],
      ['golang.org/x/sys', false, ['golang-golang-x-sys-dev']],
      ['example.com/nowhere', true, []],
    ]);
  });
});
