/** One member of a hand-made ar archive; `size` overrides the header's size field as written. */
export interface CraftedMember {
  name: string;
  content: Buffer | string;
  size?: string;
}

/** An ar archive (the container of a `.deb`) with exactly the given members, headers as given. */
export function craftAr(members: readonly CraftedMember[]): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n', 'latin1')];
  for (const member of members) {
    const content = Buffer.isBuffer(member.content) ? member.content : Buffer.from(member.content);
    const header =
      member.name.padEnd(16) +
      '1700000000'.padEnd(12) +
      '0'.padEnd(6) +
      '0'.padEnd(6) +
      '100644'.padEnd(8) +
      (member.size ?? String(content.length)).padEnd(10) +
      '`\n';
    parts.push(Buffer.from(header, 'latin1'), content);
    if (content.length % 2) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** A `.deb` as dpkg-deb lays it out: the format, a control member and the given data member. */
export function craftDeb(data: Buffer, dataName = 'data.tar'): Buffer {
  return craftAr([
    { name: 'debian-binary', content: '2.0\n' },
    { name: 'control.tar', content: Buffer.alloc(1024) },
    { name: dataName, content: data },
  ]);
}
