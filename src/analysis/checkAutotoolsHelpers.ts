import { posix } from 'node:path';
import type { SourceTree } from './SourceTree.ts';

export interface AutotoolsHelper {
  file: string;
  kind: 'config.guess' | 'config.sub';
  /** The `timestamp=` inside the script, for information only: the content decides. */
  timestamp: string | null;
  knowsRiscv64: boolean;
}

/**
 * Does each config.guess / config.sub know riscv64? Read from the content (the case patterns),
 * never from the date: vendors patch old scripts and new ones may be stripped down.
 */
export function checkAutotoolsHelpers(tree: SourceTree): AutotoolsHelper[] {
  const helpers: AutotoolsHelper[] = [];
  for (const file of tree.files) {
    const kind = posix.basename(file);
    if (kind !== 'config.guess' && kind !== 'config.sub') continue;
    const text = tree.read(file);
    if (text === null) continue;
    helpers.push({
      file,
      kind,
      timestamp: /^timestamp=['"]?([^'"\n]+)/m.exec(text)?.[1] ?? null,
      knowsRiscv64: knowsRiscv64(kind, text),
    });
  }
  return helpers;
}

export function knowsRiscv64(kind: 'config.guess' | 'config.sub', text: string): boolean {
  if (kind === 'config.guess') {
    // e.g. `riscv32:Linux:*:* | riscv32be:Linux:*:* | riscv64:Linux:*:*` or `riscv*:Linux:*:*`
    return /riscv(64|\*)[^\n]*:Linux:/.test(text) || /riscv\*?:Linux:/.test(text);
  }
  // config.sub lists the CPU among the valid ones: `| riscv64 | riscv64be`, `riscv*`
  return /(^|[\s|(])riscv(64\b|\*|\d*\s*\|[^\n]*riscv64)/m.test(text) || /\briscv64\b/.test(text);
}
