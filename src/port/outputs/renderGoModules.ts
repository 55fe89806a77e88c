import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PortState } from '../state/PortState.ts';
import { DEBIAN_GOCODE } from '../steps/debianGoPath.ts';
import { table } from './markdown.ts';
import { renderFetchedDependencies } from './renderFetchedDependencies.ts';

/**
 * report.md's Go section: which path supplied each module go.mod requires (Debian's Go
 * libraries in a GOPATH, apt as a dependency's dependency, or nothing). Empty without modules.
 */
export function renderGoModules(state: PortState): string[] {
  const modules = (scriptedOf(state)?.dependencies ?? []).filter((d) => d.kind === 'go-module');
  if (state.plan?.buildSystem === 'go' && state.fetchedDependencies?.kind === 'go')
    return renderFetchedDependencies(state.fetchedDependencies);
  if (modules.length === 0 || state.plan?.buildSystem !== 'go') return [];
  const gopath = state.plan.phases.some((p) => p.commands.some((c) => c.includes(`:${DEBIAN_GOCODE}`)));
  const out = ['', '## Go modules', ''];
  out.push(
    gopath
      ? `Built offline from Debian's Go libraries, as Debian's dh-golang builds: GOPATH mode (\`GO111MODULE=off\`) with \`${DEBIAN_GOCODE}\`, which the \`golang-*-dev\` packages fill; go.mod's versions and go.sum are not used, Debian's packaged versions are.`
      : 'Built in module mode: no requirement resolved to a Debian package.',
  );
  out.push('');
  out.push(
    table(
      ['module', 'go.mod', 'Debian package', 'supplied by'],
      modules
        .slice(0, 60)
        .map((d) => [
          d.name,
          d.required ? 'direct' : 'indirect',
          d.debianPackages[0] ?? '',
          d.debianPackages.length && gopath
            ? `Debian's Go libraries${d.required ? '' : ' (with the package that needs it)'}`
            : d.required
              ? 'nothing (not packaged)'
              : 'apt, if a package needs it',
        ]),
    ),
  );
  if (modules.length > 60) out.push(`\n… and ${modules.length - 60} more (state.json has all).`);
  return out;
}
