import { shellQuote } from '../../process/shellQuote.ts';
import type { BuildScript } from './BuildScript.ts';
import { commentText } from './commentText.ts';

/**
 * packages.txt: the complete prerequisites, one Debian package a line. build.sh installs them
 * with apt-get; `rvport replay` installs the same file through the sandbox (which has no network
 * for apt-get) and runs build.sh with SKIP_APT_GET=1, so both install one list.
 */
export function renderPackagesTxt(script: BuildScript): string {
  return script.packages.map((p) => `${p}\n`).join('');
}

/**
 * build.sh: the port as a POSIX sh script for a Debian trixie riscv64 system or container, run as
 * root. Every value from the plan is a single-quoted word (shellQuote), so an environment value,
 * a command or a name is data to the script; the commands are run as the sandbox ran them, each
 * by its own `sh -c` in the build folder.
 */
export function renderBuildScript(script: BuildScript): string {
  const out: string[] = [];
  out.push('#!/bin/sh');
  out.push(`# Builds ${commentText(script.name)} for riscv64 Linux, as rvport's port built it.`);
  if (!script.verified)
    out.push('# NOT VERIFIED: the build succeeded, but rvport proved no riscv64 output of it.');
  out.push('#');
  out.push('# Usage: sh build.sh SOURCE_DIR');
  out.push(
    `#   SOURCE_DIR      the source, a plain folder (no git needed)${script.commit ? ` at commit ${script.commit}` : ''}`,
  );
  out.push('#   DESTDIR         where the install step puts files (default: ./destdir)');
  out.push('#   SKIP_APT_GET=1  the packages of packages.txt are installed already');
  out.push('#   RUN_TESTS=1     also run the package tests (rvport ran them once; they may fail)');
  out.push('# For a Debian trixie riscv64 system or container, as root. The package list is');
  out.push('# packages.txt and the patches are patches/, both beside this script.');
  out.push('set -eu');
  out.push('');
  out.push('if [ "$#" -ne 1 ]; then');
  out.push('  echo "usage: sh build.sh SOURCE_DIR" >&2');
  out.push('  exit 2');
  out.push('fi');
  out.push('HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)');
  out.push('SRC_DIR=$(CDPATH= cd -- "$1" && pwd)');
  out.push(`DESTDIR=${sh('DESTDIR:-$PWD/destdir')}`);
  out.push('mkdir -p -- "$DESTDIR"');
  out.push('DESTDIR=$(CDPATH= cd -- "$DESTDIR" && pwd)');
  out.push(`BUILD_DIR=$SRC_DIR/${shellQuote(script.dir)}`);
  out.push('export SRC_DIR DESTDIR');
  out.push('');
  out.push("# The sandbox's locale, then the port's environment");
  out.push('LANG=C.UTF-8');
  out.push('export LANG');
  for (const [name, value] of Object.entries(script.env)) out.push(`export ${name}=${shellQuote(value)}`);
  out.push('');
  out.push('# Prerequisites: packages.txt (the build tools and what the port installed)');
  out.push(`if [ "${sh('SKIP_APT_GET:-')}" != 1 ]; then`);
  out.push('  set -f');
  out.push('  packages=');
  out.push('  while IFS= read -r p || [ -n "$p" ]; do');
  out.push('    case $p in');
  out.push("      '' | '#'*) continue ;;");
  out.push('      *[!a-z0-9+.:-]* | [!a-z0-9]*)');
  out.push(`        printf 'build.sh: not a Debian package name in packages.txt: %s\\n' "$p" >&2`);
  out.push('        exit 1');
  out.push('        ;;');
  out.push('    esac');
  out.push('    packages="$packages $p"');
  out.push('  done <"$HERE/packages.txt"');
  out.push('  DEBIAN_FRONTEND=noninteractive');
  out.push('  export DEBIAN_FRONTEND');
  out.push('  apt-get update');
  out.push('  # shellcheck disable=SC2086 # one word per checked name');
  out.push('  apt-get install -y --no-install-recommends $packages');
  out.push('  set +f');
  out.push('fi');
  const allPatches = [...script.debianPatches, ...script.patches];
  if (allPatches.length) {
    out.push('');
    out.push('apply_patch() {');
    out.push('  echo "build.sh: applying patches/$1"');
    out.push('  patch -d "$SRC_DIR" -p1 --batch --fuzz=0 --no-backup-if-mismatch -i "$HERE/patches/$1"');
    out.push('}');
  }
  if (script.debianPatches.length) {
    out.push('');
    out.push("# Debian's patches, on the source as released");
    for (const p of script.debianPatches) out.push(`apply_patch ${shellQuote(p)}`);
  }
  if (script.autotoolsTimestamps) {
    out.push('');
    out.push('# As rvport does before a build: every file one time, the generated autotools files');
    out.push('# later ones in the order make expects, so the shipped configure is used as shipped.');
    out.push(
      'if [ -f "$BUILD_DIR/configure.ac" ] || [ -f "$BUILD_DIR/configure.in" ] || [ -n "$(find "$BUILD_DIR" -mindepth 2 -maxdepth 2 -name configure.ac -print)" ]; then',
    );
    out.push('  t=$(($(date +%s) - 3600))');
    out.push('  find "$BUILD_DIR" -name .git -prune -o -type f -exec touch -d "@$t" {} +');
    out.push(
      `  find "$BUILD_DIR" -name .git -prune -o -type f -name aclocal.m4 -exec touch -d "@$((t + 2))" {} +`,
    );
    out.push(
      '  find "$BUILD_DIR" -name .git -prune -o -type f \\( -name configure -o -name config.h.in -o -name config.in -o -name Makefile.in -o -name stamp-h.in \\) -exec touch -d "@$((t + 4))" {} +',
    );
    out.push('fi');
  }
  if (script.patches.length) {
    out.push('');
    out.push("# The port's own patches");
    for (const p of script.patches) out.push(`apply_patch ${shellQuote(p)}`);
  }
  out.push('');
  out.push('# Each command as in the sandbox: its own sh -c, in the build folder; an optional');
  out.push('# step (tests, a Makefile without install) may fail, as it could in the port.');
  out.push('step() {');
  out.push(`  printf 'build.sh: [%s] %s\\n' "$1" "$3"`);
  out.push('  status=0');
  out.push('  (cd "$BUILD_DIR" && sh -c "$3") || status=$?');
  out.push('  if [ "$status" -eq 0 ]; then return 0; fi');
  out.push('  if [ "$2" = optional ]; then');
  out.push('    echo "build.sh: the optional $1 step failed (exit $status); going on" >&2');
  out.push('    return 0');
  out.push('  fi');
  out.push('  echo "build.sh: the $1 step failed (exit $status)" >&2');
  out.push('  exit "$status"');
  out.push('}');
  for (const phase of script.phases) {
    if (phase.commands.length === 0) continue;
    const test = phase.name === 'test';
    out.push('');
    out.push(`# ${phase.name}`);
    if (test) out.push(`if [ "${sh('RUN_TESTS:-')}" = 1 ]; then`);
    for (const c of phase.commands)
      out.push(
        `${test ? '  ' : ''}step ${shellQuote(phase.name)} ${phase.optional || test ? 'optional' : 'required'} ${shellQuote(c)}`,
      );
    if (test) out.push('fi');
  }
  out.push('');
  out.push('echo "build.sh: done; installed files are in $DESTDIR"');
  return `${out.join('\n')}\n`;
}

/** A shell parameter expansion `${…}` (written so, as a JavaScript string would take it for a template). */
function sh(expansion: string): string {
  return `$${'{'}${expansion}}`;
}
