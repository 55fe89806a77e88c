/** An ISA string split into its parts: `rv64imafdc_zicsr_zba` → rv64, i m a f d c, zicsr zba. */
export interface IsaString {
  string: string;
  /** `rv32`, `rv64` or `rv128`. */
  base: string;
  /** Single-letter extensions in the order given (`g` expanded is not done: it is kept as written). */
  single: string[];
  /** Multi-letter extensions (`zicsr`, `sscofpmf`, `xtheadvector`, …), lower case. */
  multi: string[];
  /** Both lists: what the string says the hart has. */
  extensions: string[];
}

const BASE = /^(rv(?:32|64|128))([a-z][a-z0-9]*)?$/;

/**
 * Parses an ISA string as /proc/cpuinfo prints it (`isa`/`hart isa`) or as `-march` takes it.
 * Version suffixes (`zicsr2p0`, `v1p0`) are dropped. Returns null for a string that is not one.
 */
export function parseIsaString(text: string): IsaString | null {
  const string = text.trim().toLowerCase();
  const [head = '', ...rest] = string.split('_');
  const match = BASE.exec(head);
  if (!match) return null;
  const base = match[1] as string;
  const letters = (match[2] ?? '').replace(/\d+(?:p\d+)?/g, '');
  const single: string[] = [];
  let multi: string[] = [];
  let i = 0;
  for (; i < letters.length; i++) {
    const letter = letters[i] as string;
    // a multi-letter name run into the single letters without its underscore; `s` and `u` stay
    // letters here, as older kernels print them (`rv64imafdcsu`: supervisor and user mode)
    if (letter === 'z') break;
    if (!single.includes(letter)) single.push(letter);
  }
  if (i < letters.length) multi.push(letters.slice(i));
  for (const part of rest) {
    const name = part.replace(/\d+p\d+$/, '');
    if (/^[a-z][a-z0-9]*$/.test(name)) multi.push(name);
  }
  multi = [...new Set(multi)];
  return { string, base, single, multi, extensions: [...single, ...multi] };
}
