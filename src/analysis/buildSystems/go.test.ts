import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../process/runProcess.ts';
import { detectBuildSystems } from '../detectBuildSystems.ts';
import { SourceTree } from '../SourceTree.ts';
import { go } from './go.ts';

describe('go detector', () => {
  it('finds go.mod and its module path', () => {
    expect(
      go.detect(SourceTree.fromFiles({ 'go.mod': 'module github.com/BurntSushi/toml\n\ngo 1.18\n' }), ''),
    ).toMatchObject({
      confidence: 0.9,
      details: { module: 'github.com/BurntSushi/toml' },
    });
    expect(go.detect(SourceTree.fromFiles({ README: 'Go' }), '')).toBeNull();
  });

  it('gives way to a C build system beside the go.mod (Go bindings of a C project)', () => {
    const files = {
      'go.mod': 'module github.com/nghttp2/nghttp2\n\ngo 1.25\n',
      'configure.ac': 'AC_INIT([nghttp2], [1.0])\n',
      'Makefile.am': '',
      'CMakeLists.txt': 'project(nghttp2 C)\n',
    };
    expect(go.detect(SourceTree.fromFiles(files), '')).toMatchObject({ confidence: 0.5 });
    const [top] = detectBuildSystems(SourceTree.fromFiles(files));
    expect(top?.type).not.toBe('go');
  });

  it('finds a package from before modules, and its import path where the tree says it', () => {
    const plain = SourceTree.fromFiles({
      'socks5.go': 'package socks5\n',
      'socks5_test.go': 'package socks5\n',
    });
    expect(go.detect(plain, '')).toMatchObject({
      confidence: 0.6,
      evidence: ['socks5.go'],
      details: { module: null, gopath: true },
    });
    const commented = SourceTree.fromFiles({
      'toml.go': 'package toml // import "github.com/BurntSushi/toml"\n',
    });
    expect(go.detect(commented, '')?.details?.module).toBe('github.com/BurntSushi/toml');
    const readme = SourceTree.fromFiles({
      'lib.go': 'package lib\n',
      'README.md': 'Install with `go get -u github.com/example/lib/...` and import it.\n',
    });
    expect(go.detect(readme, '')?.details?.module).toBe('github.com/example/lib');
    // a C project with a Go file beside its build keeps its own build
    const c = SourceTree.fromFiles({ 'bind.go': 'package bind\n', 'CMakeLists.txt': 'project(x C)\n' });
    expect(go.detect(c, '')?.confidence).toBe(0.4);
    // a file with no package clause is no Go package
    expect(go.detect(SourceTree.fromFiles({ 'gen.go': '// +build ignore\n' }), '')).toBeNull();
  });

  it('builds the main packages into a folder when there are any, and every package either way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-go-build-'));
    try {
      // a stand-in go on PATH: logs each call, and `go list` names the main packages, or the
      // packages with tests, it is given
      writeFileSync(
        join(dir, 'go'),
        `#!/bin/sh\necho "go $*" >> "${dir}/calls"\ncase "$*" in list*TestGoFiles*) printf '%s' "$TESTS";; list*) printf '%s' "$MAINS";; esac\nexit 0\n`,
      );
      chmodSync(join(dir, 'go'), 0o755);
      const plan = go.defaultPlan({ type: 'go', confidence: 0.9, dir: '.', evidence: [], details: {} });
      const run = async (mains: string, tests = '') => {
        rmSync(join(dir, 'calls'), { force: true });
        for (const command of plan[0]?.commands ?? []) {
          const r = await runProcess({
            command: ['/bin/sh', '-c', command],
            env: { PATH: `${dir}:/usr/bin:/bin`, MAINS: mains, TESTS: tests },
          });
          expect(r.exitCode, r.stderr).toBe(0);
        }
        return readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
      };
      expect(await run('')).toEqual([
        'go build ./...',
        `go list -f {{if eq .Name "main"}}{{.ImportPath}}{{end}} ./...`,
        `go list -f {{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}} ./...`,
      ]);
      // a library and its command of the same name (fsnotify and cmd/fsnotify): go refuses to
      // write both test programs into one folder, so each is compiled alone, named by its path
      expect(
        (await run('', 'github.com/fsnotify/fsnotify\ngithub.com/fsnotify/fsnotify/cmd/fsnotify\n')).slice(3),
      ).toEqual([
        'go test -vet=off -c -o build/test/github.com_fsnotify_fsnotify.test github.com/fsnotify/fsnotify',
        'go test -vet=off -c -o build/test/github.com_fsnotify_fsnotify_cmd_fsnotify.test github.com/fsnotify/fsnotify/cmd/fsnotify',
      ]);
      // only the packages with tests are given: fsnotify's cmd/fsnotify has none, and go counts
      // every package it is given against the folder
      expect((await run('', 'example.com/m/a\nexample.com/m/b\n')).slice(3)).toEqual([
        'go test -vet=off -c -o build/test/ example.com/m/a example.com/m/b',
      ]);
      expect((await run('example.com/m/cmd/a\nexample.com/m/cmd/b\n'))[2]).toBe(
        'go build -o build/bin/ example.com/m/cmd/a example.com/m/cmd/b',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
