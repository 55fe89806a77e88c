import type { ProbeReport } from './buildProbeReport.ts';

/** The human-readable form of `rvport probe`: one fact a line. */
export function formatProbeReport(report: ProbeReport): string {
  const lines = [
    `target: ${report.target} (${report.mode} mode)`,
    `machine: ${report.machine || 'unknown'}, kernel ${report.kernel || 'unknown'}`,
    `isa: ${report.isa ? `${report.isa.string}${report.isa.source === 'emulator' ? ' (what the emulator executes; /proc/cpuinfo has no riscv isa line)' : ''}` : 'unknown'}`,
  ];
  if (report.hartIsa) lines.push(`hart isa: ${report.hartIsa.string}`);
  const ids = [
    report.vendorId && `mvendorid ${report.vendorId}`,
    report.archId && `marchid ${report.archId}`,
    report.implId && `mimpid ${report.implId}`,
    report.uarch && `uarch ${report.uarch}`,
    report.mmu && `mmu ${report.mmu}`,
  ].filter(Boolean);
  if (ids.length > 0) lines.push(`cpu: ${ids.join(', ')}`);
  lines.push(
    `cores: ${report.cores ?? 'unknown'}, memory: ${report.memoryMb === null ? 'unknown' : `${report.memoryMb} MiB`}`,
  );
  lines.push(
    report.hwprobe
      ? `hwprobe: ${report.hwprobe.extensions.join(' ') || '(no extensions)'}`
      : `hwprobe: ${report.hwprobeReason ?? 'not available'}`,
  );
  if (report.hwcap) lines.push(`hwcap: ${report.hwcap.join('')}`);
  for (const c of report.compilers) {
    lines.push(`compiler: ${c.version}${c.target ? ` (${c.target})` : ''}`);
    lines.push(`  -march accepted: ${c.march.accepted.join(' ') || 'none'}`);
    if (c.march.rejected.length > 0)
      lines.push(`  -march rejected: ${c.march.rejected.map((r) => r.march).join(' ')}`);
  }
  if (report.compilers.length === 0) lines.push('compiler: none found (gcc, clang)');
  const e = report.emulated;
  if (e.is) {
    lines.push(
      `emulated: yes${e.by ? `, by ${e.by}` : ''}${e.cpuModel ? `, cpu model ${e.cpuModel}` : ''}`,
      `  executes: ${e.extensions?.join(' ') || 'unknown'}`,
    );
  } else lines.push('emulated: no sign of emulation');
  for (const item of e.evidence) lines.push(`  - ${item}`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}
