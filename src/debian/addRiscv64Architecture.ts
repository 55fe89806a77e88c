/**
 * A debian/control whose binary packages name the architectures they build for, riscv64 not among
 * them (`Architecture: amd64 arm64 armhf i386`), with riscv64 added to each such list: Debian does
 * not build those packages for riscv64, and dh then builds nothing at all on it ("No packages to
 * build. Possible architecture mismatch: riscv64"). Porting them is the point, and the riscv64
 * build and its checks say whether the list left riscv64 out for a reason.
 *
 * Left as they are: `all`, and every list that already takes riscv64 (`any`, `linux-any`,
 * `any-riscv64`, `linux-riscv64`, `riscv64`).
 */
export function addRiscv64Architecture(control: string): { control: string; packages: string[] } {
  const packages: string[] = [];
  const lines = control.split('\n');
  let name: string | undefined;
  for (const [i, line] of lines.entries()) {
    if (/^[ \t]*$/.test(line)) name = undefined;
    const packageField = /^Package:[ \t]*(\S+)/i.exec(line);
    if (packageField) name = packageField[1];
    const arch = /^(Architecture:[ \t]*)(.*?)[ \t]*$/i.exec(line);
    if (!arch || !name) continue;
    const list = (arch[2] ?? '').split(/\s+/).filter(Boolean);
    if (list.length === 0 || list.every((a) => a === 'all') || list.some(takesRiscv64)) continue;
    // a continuation line would carry more of the list: left alone rather than half read
    if (/^[ \t]/.test(lines[i + 1] ?? '')) continue;
    lines[i] = `${arch[1]}${list.join(' ')} riscv64`;
    packages.push(name);
  }
  return { control: lines.join('\n'), packages };
}

function takesRiscv64(arch: string): boolean {
  return ['any', 'linux-any', 'any-riscv64', 'linux-riscv64', 'riscv64'].includes(arch);
}
