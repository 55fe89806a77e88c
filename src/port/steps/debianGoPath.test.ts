import { describe, expect, it } from 'vitest';
import type { Dependency } from '../../analysis/dependencies/Dependency.ts';
import { debianGoPath } from './debianGoPath.ts';

const module = (name: string, packages: string[]): Dependency => ({
  kind: 'go-module',
  name,
  file: 'go.mod',
  line: 3,
  required: true,
  debianPackages: packages,
  resolvedBy: packages.length ? 'contents' : null,
});

describe('debianGoPath', () => {
  it("builds in a GOPATH with Debian's Go libraries after it, outputs back in the tree", () => {
    const phases = debianGoPath(
      [module('github.com/google/uuid', ['golang-github-google-uuid-dev'])],
      'example.com/demo',
      '.',
    );
    expect(phases?.map((p) => p.name)).toEqual(['prepare', 'build', 'test']);
    expect(phases?.[0]?.commands).toEqual([
      'rm -rf "$HOME"/rvport-gopath && mkdir -p "$HOME"/rvport-gopath/src/example.com/demo && cp -a "$RVPORT_SRC"/./. "$HOME"/rvport-gopath/src/example.com/demo/',
    ]);
    const env =
      'GOPATH="$HOME"/rvport-gopath:/usr/share/gocode GO111MODULE=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false';
    expect(phases?.[1]?.commands[0]).toMatch(/^cd "\$HOME"\/rvport-gopath\/src\/example\.com\/demo && /);
    expect(phases?.[1]?.commands[0]).toContain(`${env} go build ./...`);
    expect(phases?.[1]?.commands[0]).toContain(`${env} go build -o "$RVPORT_SRC"/./build/bin/ $mains`);
    expect(phases?.[2]).toMatchObject({ name: 'test', optional: true });
  });

  it('refuses a module path that is not a plain folder, and needs a resolved requirement', () => {
    const deps = [module('github.com/google/uuid', ['golang-github-google-uuid-dev'])];
    for (const bad of ['../../etc', 'example.com/../x', '$(reboot)', 'a b', '/abs', ''])
      expect(debianGoPath(deps, bad, '.'), bad).toBeNull();
    expect(debianGoPath([module('example.com/nowhere', [])], 'example.com/demo', '.')).toBeNull();
  });

  it('builds a package without go.mod in a GOPATH even with nothing to install, under a placeholder path', () => {
    const phases = debianGoPath([], null, '.', true);
    expect(phases?.[0]?.commands[0]).toContain('/src/rvport.invalid/package');
    expect(phases?.[1]?.commands[0]).toContain('GO111MODULE=off');
    expect(debianGoPath([], 'github.com/armon/go-socks5', 'lib', true)?.[0]?.commands[0]).toContain(
      '/src/github.com/armon/go-socks5',
    );
    expect(debianGoPath([], null, 'pkg/socks', true)?.[0]?.commands[0]).toContain(
      '/src/rvport.invalid/socks',
    );
    expect(debianGoPath([], '../../etc', '.', true)).toBeNull();
  });

  it('leaves out the packages debian/rules excludes, from the build and the tests, as dh-golang does', () => {
    const phases = debianGoPath(
      [module('github.com/fatih/color', ['golang-github-fatih-color-dev'])],
      'ariga.io/atlas',
      '.',
      false,
      ['cmd/atlas', 'internal/integration'],
    );
    const env =
      'GOPATH="$HOME"/rvport-gopath:/usr/share/gocode GO111MODULE=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false';
    const packages = `$(${env} go list ./... | grep -v -E 'cmd/atlas|internal/integration')`;
    const [build, tests] = phases?.[1]?.commands ?? [];
    expect(build).toContain(`${env} go build ${packages} && `);
    expect(build).toContain(`{{.ImportPath}}{{end}}' ${packages})`);
    expect(tests).toContain(`{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ${packages})`);
    expect(phases?.[2]?.commands[0]).toContain(`${env} go test -vet=off ${packages}`);
    // the whole tree only through the listing that the excludes filter
    for (const command of [build, tests, phases?.[2]?.commands[0]])
      expect(command?.split('./...').length).toBe(command?.split('go list ./...').length);
  });

  it("quotes the tree's folder", () => {
    const phases = debianGoPath(
      [module('github.com/google/uuid', ['x'])],
      'example.com/demo',
      "sub dir/$(x)'",
    );
    expect(phases?.[0]?.commands[0]).toContain(`"$RVPORT_SRC"/'sub dir/$(x)'\\'''/.`);
  });
});
