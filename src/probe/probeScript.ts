/**
 * The probe that runs INSIDE the target (a sandbox instance today, a remote riscv64 machine over SSH
 * later): a POSIX shell script that only prints facts, in sections the host parses. Nothing of it
 * runs on the host. It is passed as `/bin/sh -c SCRIPT rvport-probe MARCH…` with the nonce on
 * stdin, so a remote target needs nothing but a shell.
 *
 * Each section starts with a line `@@rvport-probe:NONCE:NAME`. The nonce is fresh per run and
 * comes on stdin, not in the argv every process in the target can read in /proc, so neither a
 * tool's output (a compiler message, a /proc file) nor a tool that goes looking for it can open or
 * close a section. Whatever the target prints is still only text to the host.
 */

/** `-march` strings tried with every compiler (an empty file compiled with `-mabi=lp64d -c`). */
export const MARCH_CANDIDATES: readonly string[] = [
  'rv64gc',
  'rv64imafdc_zicsr_zifencei',
  'rv64gc_zba_zbb_zbs',
  'rv64gc_zba_zbb_zbc_zbs',
  'rv64gc_zicond',
  'rv64gcv',
  'rv64gcv_zvl256b',
  'rv64gcv_zvbb',
  'rv64gc_xtheadba_xtheadbb',
  'rva20u64',
  'rva22u64',
  'rva23u64',
];

/** Extensions the C helper executes one instruction of, under a SIGILL handler. */
export const INSTRUCTION_PROBES: readonly string[] = [
  'zba',
  'zbb',
  'zbc',
  'zbs',
  'zicond',
  'zfh',
  'zfa',
  'v',
  'zvbb',
];

/**
 * A small C program compiled inside the target with its own compiler and run there (a riscv64
 * binary, so under qemu-user it is emulated like any build output): AT_HWCAP, the riscv_hwprobe
 * system call (258; no CLI exposes it), one instruction per extension, and what a child process
 * sees as the parent's /proc/PID/exe (qemu-user only disguises the emulated process's own entry).
 */
const HELPER_C = String.raw`#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct pair { long long key; unsigned long long value; };
static sigjmp_buf jump;
static void on_ill(int sig) { (void)sig; siglongjmp(jump, 1); }

#define TRY(name, code) do { \
    if (sigsetjmp(jump, 1) == 0) { __asm__ volatile(code ::: "t0", "memory"); printf("insn %s ok\n", name); } \
    else printf("insn %s sigill\n", name); \
    fflush(stdout); } while (0)
#define ARCH(ext, insn) ".option push\n.option arch, +" ext "\n" insn "\n.option pop\n"

int main(void) {
    printf("hwcap 0x%lx\n", getauxval(AT_HWCAP));
    struct pair pairs[16];
    for (int i = 0; i < 16; i++) { pairs[i].key = i; pairs[i].value = 0; }
    long r = syscall(258, pairs, 16, 0, NULL, 0);
    if (r != 0) printf("hwprobe-error %d %s\n", errno, strerror(errno));
    else for (int i = 0; i < 16; i++) printf("hwprobe %lld 0x%llx\n", pairs[i].key, pairs[i].value);
    fflush(stdout);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_ill;
    sigaction(SIGILL, &sa, NULL);
#ifndef RVPORT_NO_INSN
    TRY("zba", ARCH("zba", "sh1add t0, t0, t0"));
    TRY("zbb", ARCH("zbb", "cpop t0, t0"));
    TRY("zbc", ARCH("zbc", "clmul t0, t0, t0"));
    TRY("zbs", ARCH("zbs", "bseti t0, t0, 1"));
    TRY("zicond", ARCH("zicond", "czero.eqz t0, t0, t0"));
    TRY("zfh", ARCH("zfh", "fmv.h.x ft0, zero"));
    TRY("zfa", ARCH("zfa", "fminm.d ft0, ft0, ft0"));
    TRY("v", ARCH("v", "vsetvli t0, zero, e8, m1, ta, ma"));
    TRY("zvbb", ARCH("v,+zvbb", "vsetvli t0, zero, e8, m1, ta, ma\nvandn.vv v1, v1, v1"));
#endif
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/%d/exe", (int)parent);
        ssize_t n = readlink(path, buf, sizeof buf - 1);
        if (n >= 0) { buf[n] = 0; printf("parent-exe %s\n", buf); }
        else printf("parent-exe-error %s\n", strerror(errno));
        fflush(stdout);
        _exit(0);
    }
    if (child > 0) waitpid(child, NULL, 0);
    return 0;
}
`;

/**
 * The script. Every step is bounded by what it reads; a missing tool leaves its section empty or
 * says so, it never stops the probe. The first line of stdin is the nonce (a shell variable,
 * never exported), the arguments the -march candidates.
 */
export const PROBE_SCRIPT = `set -u
IFS= read -r nonce || nonce=
exec </dev/null
case $nonce in ''|*[!0-9a-f]*) echo 'rvport-probe: no nonce on stdin' >&2; exit 3;; esac
sec() { printf '\\n@@rvport-probe:%s:%s\\n' "$nonce" "$1"; }
work=$(mktemp -d 2>/dev/null || echo /tmp/rvport-probe.$$)
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
sec uname-m; uname -m
sec uname-r; uname -r
sec nproc; nproc 2>/dev/null || getconf _NPROCESSORS_ONLN
sec meminfo; grep '^MemTotal:' /proc/meminfo
sec cpuinfo; cat /proc/cpuinfo
sec shell-exe; readlink /proc/$$/exe
sec qemu-cpu; printf '%s' "\${QEMU_CPU-}"
: > "$work/empty.c"
helper_cc=
for cc in gcc clang; do
  command -v "$cc" >/dev/null 2>&1 || continue
  [ -n "$helper_cc" ] || helper_cc=$cc
  sec "compiler:$cc:version"; "$cc" --version 2>&1 | head -n 1
  sec "compiler:$cc:target"; "$cc" -dumpmachine 2>&1 | head -n 1
  sec "compiler:$cc:march"
  for march in "$@"; do
    if msg=$("$cc" -march="$march" -mabi=lp64d -c "$work/empty.c" -o "$work/empty.o" 2>&1); then
      echo "accepted $march"
    else
      echo "rejected $march $(printf '%s' "$msg" | grep -m 1 -i 'error' | cut -c 1-200)"
    fi
  done
done
sec helper
if [ -z "$helper_cc" ]; then
  echo "unavailable no C compiler"
else
  cat > "$work/helper.c" <<'RVPORT_PROBE_C'
${HELPER_C}RVPORT_PROBE_C
  if "$helper_cc" -O1 -o "$work/helper" "$work/helper.c" >"$work/cc.log" 2>&1 ||
     { echo "note instruction probes not assembled: $(grep -m 1 -i error "$work/cc.log" | cut -c 1-200)";
       "$helper_cc" -O1 -DRVPORT_NO_INSN -o "$work/helper" "$work/helper.c" >"$work/cc.log" 2>&1; }; then
    "$work/helper" 2>&1
  else
    echo "unavailable the helper did not compile: $(grep -m 1 -i error "$work/cc.log" | cut -c 1-200)"
  fi
fi
sec end
`;
