/**
 * The binary packages of a debian/control whose Architecture is not `all`: the ones Debian's
 * build makes machine code for (`any`, `linux-any`, a list of architectures). Stanzas are
 * separated by blank lines; the first is the source's. Comments (`#` lines) are not fields.
 */
export function archDependentBinaries(control: string): string[] {
  const stanzas = control
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n')
    .split(/\n[ \t]*\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  const names: string[] = [];
  for (const stanza of stanzas.slice(1)) {
    const name = /^Package:[ \t]*(\S+)/im.exec(stanza)?.[1];
    const arch = /^Architecture:[ \t]*(.+)$/im.exec(stanza)?.[1]?.trim().split(/\s+/) ?? [];
    if (name && arch.length > 0 && !arch.every((a) => a === 'all')) names.push(name);
  }
  return names;
}
