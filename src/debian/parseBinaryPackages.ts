/** One binary package stanza of a Packages index (or of `apt-cache show`), the fields a download needs. */
export interface BinaryPackage {
  name: string;
  version: string;
  architecture: string;
  /** The source package it was built from, and that package's version (a binNMU's differs). */
  source: string;
  sourceVersion: string;
  /** Its path in the archive's pool. */
  filename: string;
  sha256: string;
  /** Bytes of the .deb, when the stanza says (a Packages index does). */
  size?: number;
  /** Its Pre-Depends and Depends, as written (groups separated by commas). */
  depends?: string;
}

/**
 * The stanzas of a Packages index. `Source:` is absent when the source package has the binary's
 * name, and carries the source version in parentheses when it differs from the binary's.
 * Stanzas without a name, version or SHA256 are left out.
 */
export function parseBinaryPackages(text: string): BinaryPackage[] {
  const packages: BinaryPackage[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of stanza.split('\n')) {
      const m = /^([\w-]+):\s*(.*)$/.exec(line);
      if (m?.[1]) fields.set(m[1].toLowerCase(), (m[2] ?? '').trim());
    }
    const name = fields.get('package');
    const version = fields.get('version');
    const sha256 = fields.get('sha256')?.toLowerCase();
    if (!name || !version || !sha256 || !/^[0-9a-f]{64}$/.test(sha256)) continue;
    const source = /^(\S+)(?:\s+\(([^)\s]+)\))?$/.exec(fields.get('source') ?? '');
    packages.push({
      name,
      version,
      architecture: fields.get('architecture') ?? '',
      source: source?.[1] ?? name,
      sourceVersion: source?.[2] ?? version,
      filename: fields.get('filename') ?? '',
      sha256,
      ...(/^\d+$/.test(fields.get('size') ?? '') ? { size: Number(fields.get('size')) } : {}),
      ...(fields.has('depends') || fields.has('pre-depends')
        ? {
            depends: [fields.get('pre-depends'), fields.get('depends')]
              .filter((d): d is string => Boolean(d))
              .join(', '),
          }
        : {}),
    });
  }
  return packages;
}
