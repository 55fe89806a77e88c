import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, plainMakefile, portWithoutProofs } from '../helpers/localProject.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { provisionedImages } from '../sandbox/provisionedImages.ts';

// Which compilers a build needs is decided by what its build compiles, not by every file of the
// tree. A plain-Make C program with Ada bindings in contrib/ that the Makefile never names (zlib's
// shape) builds in a fast mode; one whose Makefile compiles Objective-C through a wildcard (no
// build file names the language) starts fast, stops at gcc's missing cc1obj at once, and is
// redone in emulated mode, where the riscv64 gcc gets its front end from gobjc.
const MINUTES = 60_000;
let home: string;
let work: string;

const makeProject = (name: string, files: Record<string, string>) => gitProject(join(work, name), files);
const port = (source: string, out: string) =>
  portWithoutProofs(source, { out: join(work, out), home, maxAttempts: 3 });

beforeAll(async () => {
  await provisionedImages();
  home = makePortHome('rvport-frontend-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-frontend-work-'));
}, 30 * MINUTES);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe.sequential('the compilers a build needs', () => {
  it(
    'builds a C program in a fast mode beside Ada code its Makefile never names',
    async () => {
      const dir = makeProject('adabeside', {
        Makefile: plainMakefile('adabeside', 'main.c'),
        'main.c': '#include <stdio.h>\nint main(void) { puts("adabeside"); return 0; }\n',
        'contrib/ada/binding.ads': 'package Binding is\n   procedure Hello;\nend Binding;\n',
        'contrib/ada/binding.adb': 'package body Binding is\n   procedure Hello is null;\nend Binding;\n',
      });
      const result = await port(dir, 'ada');
      expect(result.kind, result.message).toBe('verified');
      expect(result.state?.options.mode).not.toBe('emulated');
      expect(result.state?.options.modeReason).toMatch(
        /the tree has Ada \(gnat1\) code but none of the make build's files names it/,
      );
    },
    30 * MINUTES,
  );

  it(
    'redoes in emulated mode a build that needed the Objective-C front end its build files never named',
    async () => {
      const dir = makeProject('objcwild', {
        Makefile: plainMakefile('objcwild', '$(wildcard src/*.m)'),
        'src/hello.m': '#import <stdio.h>\nint main(void) { printf("objcwild\\n"); return 0; }\n',
      });
      const result = await port(dir, 'objc');
      expect(result.kind, result.message).toBe('verified');
      const state = result.state;
      expect(state?.options.mode).toBe('emulated');
      expect(state?.options.modeReason).toMatch(
        /^the build needs the Objective-C compiler \(cc1obj\), which the (accelerated|native-userland) cross gcc lacks; redone in emulated mode with gobjc$/,
      );
      const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
      expect(report).toMatch(/sandbox mode \| emulated: the build needs the Objective-C compiler/);
      expect(state?.verification?.verdict).toBe('verified');
    },
    60 * MINUTES,
  );
});
