import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import {
  type Analysis,
  analyzeTree,
  ContentsIndex,
  type ContentsLookup,
  ensureContentsIndex,
  findingsAtLeast,
} from '../../analysis/index.ts';
import { rvportHome } from '../../config/rvportHome.ts';
import {
  type AcquiredSource,
  acquireSource,
  DEFAULT_DEBIAN_SUITE,
  debianMirror,
  git,
  isSourceError,
  parseSource,
  type SourceSpec,
} from '../../sources/index.ts';
import { ALLOW_PRIVATE_ADDRESSES_HELP } from '../allowPrivateAddresses.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { UsageError } from '../UsageError.ts';

interface AnalyzeOptions {
  json?: boolean;
  work?: string;
  suite?: string;
  contents?: boolean;
  refresh?: boolean;
  allowPrivateAddresses?: boolean;
}

/** Findings printed in the human-readable output (the JSON has them all). */
const SHOWN_FINDINGS = 25;

export function registerAnalyzeCommand(program: Command, ctx: CliContext): void {
  program
    .command('analyze')
    .description('scripted analysis: build systems, dependencies, riscv64 hazards and the default plan')
    .argument('<source>', 'git URL, local folder, tarball (path or URL) or debian:NAME[=VERSION]')
    .option('--json', 'machine-readable result on stdout')
    .option('--work <dir>', 'work folder for fetched sources (default: RVPORT_HOME/sources)')
    .option('--suite <suite>', 'Debian suite for debian: sources and package names', undefined)
    .option('--no-contents', "resolve dependencies without downloading Debian's Contents index")
    .option('--refresh', 'fetch the source again even if it was fetched before')
    .option('--allow-private-addresses', ALLOW_PRIVATE_ADDRESSES_HELP)
    .action(async (source: string, options: AnalyzeOptions) => {
      const spec: SourceSpec = parseSource(source);
      const log = (line: string) => ctx.err(`rvport: ${line}\n`);
      const home = rvportHome();
      const suite = options.suite ?? process.env.RVPORT_DEBIAN_SUITE ?? DEFAULT_DEBIAN_SUITE;

      let acquired: AcquiredSource | null = null;
      let root: string;
      if (spec.kind === 'directory') {
        root = spec.path; // analysis only reads: a local folder is analysed where it is
      } else {
        acquired = await acquireSource(spec, {
          workDir: options.work ?? join(home, 'sources'),
          reuse: !options.refresh,
          suite,
          aptDir: join(home, 'debian-apt', suite),
          signal: ctx.signal,
          fetch: { origin: 'command-line', allowPrivateAddresses: !!options.allowPrivateAddresses },
          log,
        });
        root = acquired.dir;
      }

      const { contents, reason } =
        options.contents === false
          ? { contents: null, reason: 'disabled with --no-contents' }
          : await loadContents(home, suite, ctx.signal, log);
      // A link the user named is followed here, once: the walk follows no link inside the tree,
      // nor a root that is one.
      const analysis = analyzeTree(realpathSync(root), {
        name: spec.name,
        contents,
        contentsUnavailableReason: reason,
      });
      const result = {
        ...analysis,
        source: acquired
          ? {
              kind: acquired.kind,
              origin: acquired.origin,
              dir: acquired.dir,
              commit: acquired.commit,
              warnings: acquired.warnings,
            }
          : { kind: spec.kind, origin: spec.raw, dir: root, commit: await localCommit(root), warnings: [] },
      };
      ctx.out(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatAnalysis(analysis));
      ctx.exitCode = ExitCode.Success;
    });
}

/** The checked-out commit of a local repository analysed in place, or null for a plain tree. */
async function localCommit(dir: string): Promise<string | null> {
  if (!existsSync(join(dir, '.git'))) return null;
  try {
    return (await git(['rev-parse', 'HEAD'], { cwd: dir, timeoutMs: 30_000 })).trim();
  } catch {
    return null;
  }
}

async function loadContents(
  home: string,
  suite: string,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<{ contents: ContentsLookup | null; reason: string | null }> {
  const mirror = debianMirror();
  if (!mirror) return { contents: null, reason: "no Debian mirror in this machine's apt sources" };
  try {
    const file = await ensureContentsIndex({ home, suite, mirror, signal, log });
    return { contents: await ContentsIndex.load(file), reason: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`warning: Debian Contents index unavailable (${reason}); using the alias table only`);
    return { contents: null, reason };
  }
}

export function formatAnalysis(a: Analysis): string {
  const out: string[] = [];
  const bs = a.buildSystem;
  out.push(`${a.name}: ${a.files} files, analysed in ${a.durationMs} ms`);
  out.push('');
  out.push(`Build system: ${bs.type} in ${bs.dir} (confidence ${bs.confidence.toFixed(2)})`);
  for (const c of a.buildSystems.slice(1))
    out.push(`  also: ${c.type} in ${c.dir} (${c.confidence.toFixed(2)})`);
  out.push('');
  out.push(`Default plan (${a.plan.buildSystem}, in ${a.plan.dir}):`);
  if (a.plan.phases.length === 0) out.push('  none: the build system is unknown');
  for (const phase of a.plan.phases) out.push(`  ${phase.name.padEnd(9)} ${phase.commands.join(' && ')}`);
  out.push('');
  out.push(`Dependencies (${a.dependencies.length}, Contents index: ${a.dependencyResolution.contents}):`);
  for (const d of a.dependencies) {
    const packages = d.debianPackages.length > 0 ? d.debianPackages.join(' | ') : 'unresolved';
    out.push(`  ${d.kind.padEnd(13)} ${d.name.padEnd(24)} -> ${packages}${d.required ? '' : ' (optional)'}`);
  }
  out.push('');
  const c = a.findingCounts;
  out.push(`Architecture findings: ${c.high} high, ${c.medium} medium, ${c.low} low, ${c.info} info`);
  for (const f of findingsAtLeast(a.findings, 'low').slice(0, SHOWN_FINDINGS)) {
    out.push(`  [${f.severity}] ${f.kind} ${f.file}${f.line ? `:${f.line}` : ''}: ${f.message}`);
    out.push(`      ${f.snippet}`);
    out.push(`      fix: ${f.suggestion}`);
  }
  const hidden = findingsAtLeast(a.findings, 'low').length - SHOWN_FINDINGS;
  if (hidden > 0) out.push(`  … and ${hidden} more (see --json)`);
  out.push('');
  out.push('Autotools helpers:');
  if (a.autotoolsHelpers.length === 0) out.push('  none');
  for (const h of a.autotoolsHelpers) {
    out.push(
      `  ${h.file}: ${h.knowsRiscv64 ? 'knows riscv64' : 'does NOT know riscv64'}${h.timestamp ? ` (timestamp ${h.timestamp})` : ''}`,
    );
  }
  if (a.refusedLinks.length > 0) {
    out.push('');
    out.push(`Symbolic links not followed (they lead out of the tree): ${a.refusedLinks.length}`);
    for (const link of a.refusedLinks.slice(0, SHOWN_FINDINGS)) out.push(`  ${link.path} -> ${link.target}`);
  }
  return `${out.join('\n')}\n`;
}
