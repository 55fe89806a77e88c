import { SANDBOX_WORKSPACE } from '../Sandbox.ts';

/**
 * The remote workspace: a throwaway folder in the remote user's home, never the remote's own
 * system. `build` is what `/build` is in a local sandbox, `prefix` holds unpacked packages,
 * `home` is the commands' HOME, `tmp` their TMPDIR, `run` the pid files of running commands.
 */
export const REMOTE_BASE = '.cache/rvport-target';

/** A remote root as the open script reports it: absolute, plain characters, ours by its last parts. */
export function isRemoteRoot(path: string, id: string): boolean {
  return (
    /^\/[A-Za-z0-9._/+-]*$/.test(path) &&
    !path.split('/').includes('..') &&
    path.endsWith(`/${REMOTE_BASE}/${id}`)
  );
}

/**
 * `/build` where a command names it on its own or as a path prefix: the whole word, after `=`, `:`
 * or `,` (DESTDIR=/build/dest, PATH lists, -Wl,-rpath,/build/lib), after a glued short option
 * (-I/build/src) or a quote, but never as part of another path (src/build, /x/build).
 */
const WORKSPACE_WORD = new RegExp(
  String.raw`(^|[^\w.~/-]|(?<![\w-])-[A-Za-z])${SANDBOX_WORKSPACE}(?=$|[^\w.-])`,
  'g',
);

/** A command word with the workspace's local name replaced by its remote folder. */
export function toRemote(text: string, root: string): string {
  return text.replace(WORKSPACE_WORD, (_, before: string) => `${before}${root}/build`);
}

/** Remote output with the remote folder named as the local workspace again (for the heuristics). */
export function fromRemote(text: string, root: string): string {
  return text.split(`${root}/build`).join(SANDBOX_WORKSPACE);
}

/**
 * The environment every remote command starts from (`env -i`: nothing of the remote login's
 * environment): the unpacked packages first in every search path, then the remote's own system.
 */
export function remoteBaseEnv(root: string): Record<string, string> {
  const p = `${root}/prefix`;
  const libs = [`${p}/usr/lib/riscv64-linux-gnu`, `${p}/lib/riscv64-linux-gnu`, `${p}/usr/lib`].join(':');
  return {
    PATH: [
      `${p}/usr/bin`,
      `${p}/bin`,
      '/usr/local/sbin',
      '/usr/local/bin',
      '/usr/sbin',
      '/usr/bin',
      '/sbin',
      '/bin',
    ].join(':'),
    HOME: `${root}/home`,
    TMPDIR: `${root}/tmp`,
    LANG: 'C.UTF-8',
    SHELL: '/bin/sh',
    LD_LIBRARY_PATH: libs,
    LIBRARY_PATH: libs,
    CPATH: [`${p}/usr/include/riscv64-linux-gnu`, `${p}/usr/include`].join(':'),
    PKG_CONFIG_PATH: [
      `${p}/usr/lib/riscv64-linux-gnu/pkgconfig`,
      `${p}/usr/lib/pkgconfig`,
      `${p}/usr/share/pkgconfig`,
    ].join(':'),
  };
}

/**
 * Makes the workspace (`$1` is its id) and prints its absolute path and the machine. Fails when
 * the folder exists: a workspace is never shared.
 */
export const OPEN_SCRIPT = `set -eu
case $1 in ''|*[!a-z0-9-]*) echo 'rvport-target: bad id' >&2; exit 64;; esac
: "\${HOME:?}"
base=$HOME/${REMOTE_BASE}
mkdir -p -- "$base"
mkdir -- "$base/$1"
cd -- "$base/$1"
mkdir build prefix home tmp run snapshots
pwd -P
uname -m`;

/**
 * Runs one command: `$1` root, `$2` run id, `$3` cwd, `$4` time limit in seconds (0: none), then
 * `env -i` assignments and the argv. In a session of its own where setsid exists, its pid
 * recorded, so that a time limit can kill the whole process group over a second connection
 * (KILL_SCRIPT; its cancel mark stops a command that had not started yet). The remote also
 * enforces the time limit itself: a connection that died early (or a kill that came before the
 * pid file) cannot leave the command running.
 */
export const RUN_SCRIPT = `root=$1 id=$2 cwd=$3 limit=$4; shift 4
cd -- "$cwd" 2>/dev/null || { echo "rvport-target: no folder $cwd" >&2; exit 125; }
pidfile=$root/run/$id.pid
cancel=$root/run/$id.cancel
wrapper=$$
if [ "$limit" -gt 0 ] 2>/dev/null; then
  ( n=0
    while [ "$n" -lt "$limit" ]; do sleep 1; n=$((n + 1)); kill -0 "$wrapper" 2>/dev/null || exit 0; done
    p=$(cat -- "$pidfile" 2>/dev/null) || exit 0
    case $p in ''|*[!0-9]*) exit 0;; esac
    kill -KILL "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null
  ) </dev/null >/dev/null 2>&1 &
fi
start='echo $$ > "$0"; [ -e "$1" ] && exit 137; shift; exec env -i "$@"'
if command -v setsid >/dev/null 2>&1; then
  setsid -w /bin/sh -c "$start" "$pidfile" "$cancel" "$@"
else
  /bin/sh -c "$start" "$pidfile" "$cancel" "$@"
fi
rc=$?
rm -f -- "$pidfile" "$cancel"
exit $rc`;

/**
 * Kills the process group a run recorded (`$1` root, `$2` run id); silent when it is gone. The
 * cancel mark comes first: a run that writes its pid file after this read sees the mark and
 * does not start.
 */
export const KILL_SCRIPT = `f=$1/run/$2.pid
: > "$1/run/$2.cancel"
p=$(cat -- "$f" 2>/dev/null) || exit 0
case $p in ''|*[!0-9]*) exit 0;; esac
kill -KILL "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null
rm -f -- "$f"
exit 0`;

/**
 * Unpacks the tar on stdin as \`$3\` (replaced): into a staging folder first, then moved into
 * place, so a failed copy leaves the old content. \`$1\` root, \`$2\` a fresh name, \`$4\` the
 * top entry of the archive.
 */
export const COPY_IN_SCRIPT = `stage=$1/tmp/in-$2
mkdir -- "$stage" || exit 1
if tar -xf - -C "$stage" --no-same-owner && rm -rf -- "$3" && mkdir -p -- "$(dirname -- "$3")" && mv -- "$stage/$4" "$3"; then rc=0; else rc=1; fi
rm -rf -- "$stage"
exit $rc`;

/**
 * Writes \`$1\` as a tar on stdout (its last name as the top entry); exits 0 for a folder and 10 for
 * anything else, so the host knows what it asked for (a hostile remote may lie: the host's
 * extractor keeps whatever comes inside the destination either way).
 */
export const COPY_OUT_SCRIPT = `[ -e "$1" ] || [ -L "$1" ] || { echo "rvport-target: no such file: $1" >&2; exit 2; }
if [ -d "$1" ] && [ ! -L "$1" ]; then kind=0; else kind=10; fi
cd -- "$(dirname -- "$1")" || exit 2
tar -cf - -- "$(basename -- "$1")" || exit 2
exit $kind`;

/** Snapshots and rollbacks copy the workspace, the packages and HOME (`$1` root, `$2` snapshot id). */
export const SNAPSHOT_SCRIPT = `set -e
d=$1/snapshots/$2
mkdir -- "$d.partial"
for part in build prefix home; do cp -a --reflink=auto -- "$1/$part" "$d.partial/$part"; done
mv -- "$d.partial" "$d"`;

export const ROLLBACK_SCRIPT = `set -e
d=$1/snapshots/$2
[ -d "$d" ] || { echo "rvport-target: no snapshot $2" >&2; exit 2; }
for part in build prefix home; do rm -rf -- "$1/$part"; cp -a --reflink=auto -- "$d/$part" "$1/$part"; done`;

/** Removes the workspace; `$1` must be the root the open script reported. */
export const DESTROY_SCRIPT = `case $1 in */${REMOTE_BASE}/*) ;; *) exit 64;; esac
chmod -R u+rwX -- "$1" 2>/dev/null
rm -rf -- "$1"`;

/** Unpacks every package in the folder \`$2\` into the prefix (no maintainer scripts run). */
export const UNPACK_DEBS_SCRIPT = `set -e
for f in "$2"/*.deb; do
  [ -e "$f" ] || continue
  echo "unpacking $(basename -- "$f") into the target's prefix"
  dpkg-deb -x "$f" "$1/prefix"
done
rm -rf -- "$2"`;
