import { joinPath, type SourceTree } from '../SourceTree.ts';
import type { BuildSystemDetector, Detection } from './BuildSystemDetector.ts';

/**
 * The build of every package: `go build ./...` of several packages writes no binary, so the main
 * packages, if any (`go build -o DIR/` refuses a tree with none), are built again into `OUT/bin`;
 * `go test -c` compiles the tests of every package that has some into a program too, so a library
 * also yields riscv64 objects to verify. Into a folder it names each program after its package's
 * last path element and refuses two packages of the same name (a library and its `cmd/NAME`);
 * then each package's tests are compiled alone, named after the whole import path. `go` puts the
 * environment before each go command. Tests are compiled and run with `-vet=off`, as dh-golang
 * runs them: `go test` vets first, and a newer Go's finding in older code ("non-constant format
 * string in call to fmt.Fprintf") is neither a failed build nor a failed test.
 */
export function goBuildCommands(go: (command: string) => string, out: string, packages = './...'): string[] {
  const mains = go(`go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ${packages}`);
  return [
    `${go(`go build ${packages}`)} && mains=$(${mains}) && { [ -z "$mains" ] || ${go(`go build -o ${out}/bin/ $mains`)}; }`,
    goTestProgramsCommand(go, out, packages),
  ];
}

/**
 * The packages of the tree as a shell word for go's command line: `./...`, or, with patterns
 * (dh-golang's DH_GOLANG_EXCLUDES: extended regular expressions tried on each import path), the
 * tree's packages that none of them matches.
 */
export function goPackages(go: (command: string) => string, excludes: readonly string[] = []): string {
  if (excludes.length === 0) return './...';
  const pattern = excludes.join('|').replaceAll("'", '');
  return `$(${go('go list ./...')} | grep -v -E '${pattern}')`;
}

function goTestProgramsCommand(go: (command: string) => string, out: string, packages: string): string {
  // only the packages with tests: go counts every package it is given against the folder
  const withTests = go(`go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ${packages}`);
  const sameName = `printf '%s\\n' $tests | sed 's|.*/||' | sort | uniq -d`;
  const each = go(`go test -vet=off -c -o ${out}/test/"$(printf %s "$p" | tr / _)".test "$p"`);
  return `tests=$(${withTests}) && if [ -z "$tests" ]; then :; elif [ -z "$(${sameName})" ]; then ${go(`go test -vet=off -c -o ${out}/test/ $tests`)}; else ( for p in $tests; do ${each} || exit 1; done ); fi`;
}

/** An import path as a Go import comment or `go get` names one: a host with a dot, then folders. */
const IMPORT_PATH = /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[A-Za-z0-9._~-]+)+$/;

/**
 * A Go package from before modules: `.go` files and no go.mod, as many of Debian's older Go
 * packages are, built in a GOPATH (GO111MODULE=off) as dh-golang builds them. Its import path is
 * what an import comment (`package socks5 // import "github.com/armon/go-socks5"`) or the README's
 * `go get` says, or null.
 */
function detectGopathPackage(tree: SourceTree, dir: string): Detection | null {
  const files = tree.filesIn(dir);
  const sources = files.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
  const texts = sources.map((f) => tree.read(joinPath(dir, f)) ?? '');
  if (!texts.some((t) => /^package\s+\w+/m.test(t))) return null;
  const comment = texts
    .map((t) => /^package\s+\w+\s*\/\/\s*import\s+"([^"]+)"/m.exec(t)?.[1])
    .find((p) => p && IMPORT_PATH.test(p));
  const readme = files.find((f) => /^README(\.\w+)?$/i.test(f));
  const goGet = readme
    ? /\bgo\s+(?:get|install)\s+(?:-u\s+)?([\w.~/-]+?)(?:\/\.\.\.|@\S+)?(?=[\s`'"]|$)/m.exec(
        tree.read(joinPath(dir, readme)) ?? '',
      )?.[1]
    : undefined;
  const module = comment ?? (goGet && IMPORT_PATH.test(goGet) ? goGet : null);
  const alongside = ['CMakeLists.txt', 'configure.ac', 'configure.in', 'meson.build', 'Makefile'].find((f) =>
    files.includes(f),
  );
  return {
    confidence: alongside ? 0.4 : 0.6,
    evidence: [joinPath(dir, sources[0] ?? '')],
    details: { module, gopath: true, ...(alongside ? { alongside } : {}) },
  };
}

export const go: BuildSystemDetector = {
  type: 'go',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('go.mod')) return detectGopathPackage(tree, dir);
    const path = joinPath(dir, 'go.mod');
    const module = /^module\s+(\S+)/m.exec(tree.read(path) ?? '')?.[1] ?? null;
    // a C or C++ project with Go bindings or Go test tools beside it (nghttp2): the go.mod is
    // not the project's build, the CMake, autotools or meson files are
    const files = tree.filesIn(dir);
    const alongside = ['CMakeLists.txt', 'configure.ac', 'configure.in', 'meson.build'].find((f) =>
      files.includes(f),
    );
    const confidence = alongside ? 0.5 : module ? 0.9 : 0.7;
    return { confidence, evidence: [path], details: { module, ...(alongside ? { alongside } : {}) } };
  },
  // No toolchain downloads (GOTOOLCHAIN=local) and no VCS stamping (the tree is rvport's copy).
  defaultPlan() {
    const go = (command: string) => `GOTOOLCHAIN=local GOFLAGS=-buildvcs=false ${command}`;
    return [
      { name: 'build', commands: goBuildCommands(go, 'build') },
      { name: 'test', commands: [go('go test -vet=off ./...')] },
    ];
  },
};
