import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

export const go: BuildSystemDetector = {
  type: 'go',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('go.mod')) return null;
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
  // `go build ./...` of several packages writes no binary: name an output folder, so the main
  // packages leave programs behind; `go test -c` compiles every package's tests into a program
  // too, so a library module also yields riscv64 objects to verify. No toolchain downloads
  // (GOTOOLCHAIN=local) and no VCS stamping (the tree is rvport's copy).
  defaultPlan() {
    const env = 'GOTOOLCHAIN=local GOFLAGS=-buildvcs=false';
    return [
      {
        name: 'build',
        commands: [`${env} go build -o build/bin/ ./...`, `${env} go test -c -o build/test/ ./...`],
      },
      { name: 'test', commands: [`${env} go test ./...`] },
    ];
  },
};
