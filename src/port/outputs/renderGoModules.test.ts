import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeTree } from '../../analysis/analyzeTree.ts';
import { ContentsIndex } from '../../analysis/dependencies/ContentsIndex.ts';
import { deterministicAnalysis } from '../steps/deterministicAnalysis.ts';
import { planFromAnalysis } from '../steps/planFromAnalysis.ts';
import { portState } from '../testing/portStateFixture.ts';
import { renderGoModules } from './renderGoModules.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the Go modules section of report.md', () => {
  it('names the package and the path of each requirement', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-go-report-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'go.mod'),
      'module example.com/demo\n\nrequire (\n\tgithub.com/google/uuid v1.6.0\n\texample.com/nowhere v1.0.0\n\tgolang.org/x/sys v0.30.0 // indirect\n)\n',
    );
    const contents = ContentsIndex.fromText(
      'usr/share/gocode/src/github.com/google/uuid/\tgolang-github-google-uuid-dev\nusr/share/gocode/src/golang.org/x/sys/unix/\tgolang-golang-x-sys-dev\n',
    );
    const { findings: _f, ...scripted } = analyzeTree(dir, { name: 'demo', contents });
    const state = portState({ scripted });
    const withAnalysis = { ...state, packageAnalysis: deterministicAnalysis(state) };
    const text = renderGoModules({ ...withAnalysis, plan: planFromAnalysis(withAnalysis, 'default') }).join(
      '\n',
    );
    expect(text).toMatch(/GOPATH mode \(`GO111MODULE=off`\) with `\/usr\/share\/gocode`/);
    expect(text).toContain(
      "| github.com/google/uuid | direct | golang-github-google-uuid-dev | Debian's Go libraries |",
    );
    expect(text).toContain('| example.com/nowhere | direct |  | nothing (not packaged) |');
    expect(text).toContain(
      "| golang.org/x/sys | indirect | golang-golang-x-sys-dev | Debian's Go libraries (with the package that needs it) |",
    );
    expect(renderGoModules(portState())).toEqual([]);
  });
});
