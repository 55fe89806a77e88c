/*
 * The first program of every sandbox command inside its namespaces, and the last one that comes
 * from the host. It runs as root of the user namespace (every capability of that namespace) in the
 * command's private mount namespace, with the instance's overlay mounted at NEWROOT, and does in
 * one process, before anything of the instance runs:
 *
 *   1. pivot_root into NEWROOT and detach the old root, so no host path (the image trees, the
 *      view folders, the host's own tree) is left anywhere in the mount namespace;
 *   2. change to the working directory inside;
 *   3. close every descriptor above stderr;
 *   4. set no_new_privs, drop the bounding set to the kept capabilities, clear the inheritable
 *      and ambient sets and keep only those capabilities in the permitted and effective sets;
 *   5. load a seccomp filter (x86_64 system calls only; kernel module, kexec, bpf, keyring,
 *      handle, swap, reboot and new user namespaces refused);
 *   6. exec the command with exactly the environment given on its command line.
 *
 * It is compiled on the host, statically, into rvport's home (never into an image or an
 * instance), and reaches the namespace as a descriptor opened before the ids changed: a build
 * that rewrites any file of its instance cannot change what runs here.
 *
 * Usage: enter NEWROOT CWD CAPS [NAME=VALUE...] PROGRAM [ARG...]
 *   CAPS is a comma-separated list of capability numbers to keep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

/* The sandbox's "could not assemble" status and mark (instanceMounts.ts). */
#define SETUP_FAILED_EXIT 125
#define SETUP_FAILED_MARK "rvport-sandbox: could not assemble the instance"

/* Kernel ABI values, spelled out so that the program builds with musl's headers alone. */
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
#ifndef PR_SET_NO_NEW_PRIVS
#define PR_SET_NO_NEW_PRIVS 38
#endif
#ifndef PR_SET_SECCOMP
#define PR_SET_SECCOMP 22
#endif
#define SECCOMP_MODE_FILTER 2
#define SECCOMP_RET_ALLOW 0x7fff0000U
#define SECCOMP_RET_ERRNO 0x00050000U
#define AUDIT_ARCH_X86_64 0xc000003eU
#define X32_SYSCALL_BIT 0x40000000U
#define CLONE_NEWUSER 0x10000000U
#define LINUX_CAPABILITY_VERSION_3 0x20080522U
#define CAP_COUNT 64

struct sock_filter {
  uint16_t code;
  uint8_t jt;
  uint8_t jf;
  uint32_t k;
};
struct sock_fprog {
  unsigned short len;
  struct sock_filter *filter;
};
struct cap_header {
  uint32_t version;
  int pid;
};
struct cap_data {
  uint32_t effective;
  uint32_t permitted;
  uint32_t inheritable;
};

/* classic BPF */
#define BPF_LD 0x00
#define BPF_W 0x00
#define BPF_ABS 0x20
#define BPF_JMP 0x05
#define BPF_JEQ 0x10
#define BPF_JGE 0x30
#define BPF_JSET 0x40
#define BPF_K 0x00
#define BPF_RET 0x06
#define STMT(code, k) {(uint16_t)(code), 0, 0, (uint32_t)(k)}
#define JUMP(code, k, jt, jf) {(uint16_t)(code), (uint8_t)(jt), (uint8_t)(jf), (uint32_t)(k)}
/* offsets in struct seccomp_data */
#define DATA_NR 0
#define DATA_ARCH 4
#define DATA_ARG0_LOW 16

static void setup_failed(const char *what) {
  fprintf(stderr, "rvport-enter: %s: %s\n%s\n", what, strerror(errno), SETUP_FAILED_MARK);
  _exit(SETUP_FAILED_EXIT);
}

/* System calls no build needs, each a door into the kernel the sandbox shares with the host. */
static const long REFUSED[] = {
  SYS_kexec_load, SYS_kexec_file_load, SYS_init_module, SYS_finit_module, SYS_delete_module,
  SYS_bpf, SYS_userfaultfd, SYS_keyctl, SYS_add_key, SYS_request_key, SYS_open_by_handle_at,
  SYS_name_to_handle_at, SYS_iopl, SYS_ioperm, SYS_swapon, SYS_swapoff, SYS_reboot, SYS_acct,
  SYS_syslog, SYS_perf_event_open, SYS_setns, SYS_pivot_root, SYS_mount, SYS_umount2,
  SYS_fsopen, SYS_fsmount, SYS_fsconfig, SYS_move_mount, SYS_open_tree, SYS_mount_setattr,
};
#define REFUSED_COUNT (sizeof(REFUSED) / sizeof(REFUSED[0]))

static void load_seccomp(void) {
  /* arch check, x32 check, clone3, clone and unshare with CLONE_NEWUSER, the refused list, allow */
  struct sock_filter filter[8 + 2 * REFUSED_COUNT + 8];
  size_t n = 0;
  filter[n++] = (struct sock_filter)STMT(BPF_LD | BPF_W | BPF_ABS, DATA_ARCH);
  filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
  filter[n++] = (struct sock_filter)STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
  filter[n++] = (struct sock_filter)STMT(BPF_LD | BPF_W | BPF_ABS, DATA_NR);
  filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1);
  filter[n++] = (struct sock_filter)STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
  /* clone3 passes its flags in memory a filter cannot read: callers fall back to clone */
  filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
  filter[n++] = (struct sock_filter)STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
  for (size_t i = 0; i < REFUSED_COUNT; i++) {
    filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)REFUSED[i], 0, 1);
    filter[n++] = (struct sock_filter)STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  }
  /* clone(flags, ...) and unshare(flags): no new user namespace (the first argument's low word) */
  filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0);
  filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 3);
  filter[n++] = (struct sock_filter)STMT(BPF_LD | BPF_W | BPF_ABS, DATA_ARG0_LOW);
  filter[n++] = (struct sock_filter)JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1);
  filter[n++] = (struct sock_filter)STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  filter[n++] = (struct sock_filter)STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog prog = {(unsigned short)n, filter};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) setup_failed("seccomp");
}

static uint64_t parse_caps(const char *list) {
  uint64_t keep = 0;
  char *copy = strdup(list);
  if (!copy) setup_failed("memory");
  for (char *item = strtok(copy, ","); item; item = strtok(NULL, ",")) {
    char *end;
    long cap = strtol(item, &end, 10);
    if (*end || cap < 0 || cap >= CAP_COUNT) {
      errno = EINVAL;
      setup_failed("capability list");
    }
    keep |= (uint64_t)1 << cap;
  }
  free(copy);
  return keep;
}

static void drop_capabilities(uint64_t keep) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) setup_failed("no_new_privs");
  for (int cap = 0; cap < CAP_COUNT; cap++) {
    if (keep & ((uint64_t)1 << cap)) continue;
    /* EINVAL: past the kernel's last capability */
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) setup_failed("bounding set");
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
    setup_failed("ambient set");
  struct cap_header header = {LINUX_CAPABILITY_VERSION_3, 0};
  struct cap_data data[2] = {
    {(uint32_t)keep, (uint32_t)keep, 0},
    {(uint32_t)(keep >> 32), (uint32_t)(keep >> 32), 0},
  };
  if (syscall(SYS_capset, &header, data) != 0) setup_failed("capabilities");
}

static void close_descriptors(void) {
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
  for (int fd = 3; fd < 65536; fd++) close(fd);
}

static void enter_root(const char *root) {
  if (chdir(root) != 0) setup_failed("new root");
  /* the old root stacks on the new one at "."; detaching it leaves no host path behind */
  if (syscall(SYS_pivot_root, ".", ".") != 0) setup_failed("pivot_root");
  if (umount2(".", MNT_DETACH) != 0) setup_failed("detach the old root");
  if (chdir("/") != 0) setup_failed("chdir /");
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: enter NEWROOT CWD CAPS [NAME=VALUE...] PROGRAM [ARG...]\n%s\n",
            SETUP_FAILED_MARK);
    return SETUP_FAILED_EXIT;
  }
  uint64_t keep = parse_caps(argv[3]);
  enter_root(argv[1]);
  close_descriptors();
  if (chdir(argv[2]) != 0) {
    fprintf(stderr, "rvport-enter: cannot change directory to %s: %s\n", argv[2], strerror(errno));
    return 1;
  }
  int first = 4;
  while (first < argc && strchr(argv[first], '=') != NULL) first++;
  if (first >= argc) {
    fprintf(stderr, "rvport-enter: no program to run\n%s\n", SETUP_FAILED_MARK);
    return SETUP_FAILED_EXIT;
  }
  size_t count = (size_t)(first - 4);
  char **env = calloc(count + 1, sizeof(char *));
  if (!env) setup_failed("memory");
  for (size_t i = 0; i < count; i++) env[i] = argv[4 + i];
  drop_capabilities(keep);
  load_seccomp();
  environ = env;
  execvp(argv[first], &argv[first]);
  int error = errno;
  fprintf(stderr, "rvport-enter: %s: %s\n", argv[first], strerror(error));
  return error == ENOENT ? 127 : 126;
}
