import type { Dependency } from '../../analysis/index.ts';
import { goBuildCommands, goPackages } from '../../analysis/index.ts';

import { shellQuote } from '../../process/shellQuote.ts';
import type { PlanPhase } from '../state/PortState.ts';

/**
 * The GOPATH workspace inside the sandbox, for its shell: in the sandbox's home, which lasts from
 * one command to the next (each command gets a fresh /tmp). Debian's Go libraries come after it.
 */
export const SANDBOX_GOPATH = '"$HOME"/rvport-gopath';
export const DEBIAN_GOCODE = '/usr/share/gocode';

/** A module path as go.mod may name it, with no `.` or `..` element (it becomes a folder). */
const MODULE_PATH = /^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/;

/**
 * A Go module's phases built from Debian's packaged Go libraries, the way Debian's dh-golang
 * builds: the source copied into a GOPATH workspace under its module path, built in GOPATH mode
 * (`GO111MODULE=off`) with `/usr/share/gocode` (the `golang-*-dev` packages) after it, so
 * nothing is downloaded and go.sum is not consulted. The outputs are written back into the
 * build tree, where verification looks. The packages debian/rules excludes (DH_GOLANG_EXCLUDES)
 * are left out of the build and the tests, as dh-golang leaves them out. Null when no requirement resolved to a package or the
 * module path cannot be a folder.
 */
export function debianGoPath(
  dependencies: readonly Dependency[],
  module: string | null | undefined,
  dir: string,
  withoutGoMod = false,
  excludes: readonly string[] = [],
): PlanPhase[] | null {
  const resolved = dependencies.some(
    (d) => d.kind === 'go-module' && d.required && d.debianPackages.length > 0,
  );
  // a package without go.mod builds only in a GOPATH; where its import path is unknown, a
  // placeholder under a reserved name serves a package that does not import itself
  if (withoutGoMod && !module)
    module = `rvport.invalid/${dir === '.' || dir === '' ? 'package' : (dir.split('/').at(-1) ?? 'package')}`;
  if (
    !(resolved || withoutGoMod) ||
    !module ||
    !MODULE_PATH.test(module) ||
    module.split('/').some((p) => /^\.+$/.test(p))
  )
    return null;
  const work = `${SANDBOX_GOPATH}/src/${shellQuote(module)}`;
  const tree = `"$RVPORT_SRC"/${shellQuote(dir)}`;
  const env = `GOPATH=${SANDBOX_GOPATH}:${DEBIAN_GOCODE} GO111MODULE=off GOTOOLCHAIN=local GOFLAGS=-buildvcs=false`;
  const inWork = (command: string) => `cd ${work} && ${env} ${command}`;
  const packages = goPackages((command) => `${env} ${command}`, excludes);
  return [
    {
      name: 'prepare',
      commands: [`rm -rf ${SANDBOX_GOPATH} && mkdir -p ${work} && cp -a ${tree}/. ${work}/`],
    },
    {
      name: 'build',
      commands: goBuildCommands((command) => `${env} ${command}`, `${tree}/build`, packages).map(
        (command) => `cd ${work} && ${command}`,
      ),
    },
    { name: 'test', commands: [inWork(`go test -vet=off ${packages}`)], optional: true },
  ];
}
