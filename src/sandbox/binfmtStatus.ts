import { readFile } from 'node:fs/promises';

export const BINFMT_DIR = '/proc/sys/fs/binfmt_misc';
/** The entry name Debian's qemu-user-static registers for riscv64. */
export const RISCV64_BINFMT = 'qemu-riscv64';

export interface BinfmtStatus {
  /** binfmt_misc is mounted. */
  mounted: boolean;
  registered: boolean;
  enabled: boolean;
  interpreter?: string;
  flags: string;
  /** F: the kernel opens the interpreter at registration, so it works inside a chroot. */
  fixBinary: boolean;
}

/** Parses a `/proc/sys/fs/binfmt_misc/<entry>` file. */
export function parseBinfmtEntry(text: string): Omit<BinfmtStatus, 'mounted'> {
  const lines = text.split('\n').map((l) => l.trim());
  const enabled = lines[0] === 'enabled';
  const interpreter = lines.find((l) => l.startsWith('interpreter '))?.slice('interpreter '.length);
  const flags =
    lines
      .find((l) => l.startsWith('flags:'))
      ?.slice('flags:'.length)
      .trim() ?? '';
  return { registered: true, enabled, interpreter, flags, fixBinary: flags.includes('F') };
}

export async function readBinfmtStatus(dir = BINFMT_DIR): Promise<BinfmtStatus> {
  let mounted = false;
  try {
    await readFile(`${dir}/status`, 'utf8');
    mounted = true;
  } catch {
    return { mounted, registered: false, enabled: false, flags: '', fixBinary: false };
  }
  try {
    return { mounted, ...parseBinfmtEntry(await readFile(`${dir}/${RISCV64_BINFMT}`, 'utf8')) };
  } catch {
    return { mounted, registered: false, enabled: false, flags: '', fixBinary: false };
  }
}
