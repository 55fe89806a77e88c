import { createHash } from 'node:crypto';
import { SourceError } from '../SourceError.ts';

/** One file as Go's dirhash sees it: its name (in a module zip, with the `module@version/` prefix). */
export interface HashedFile {
  name: string;
  data: Uint8Array;
}

/**
 * Go's `h1:` hash (golang.org/x/mod/sumdb/dirhash Hash1): the SHA-256 of the sorted lines
 * `"<hex sha256 of the file>  <name>\n"`, in base64. go.sum's zip lines hash a module zip's
 * files; its `/go.mod` lines hash one file named `go.mod`. A name with a newline cannot be
 * hashed (Go refuses it too: it would forge a line).
 */
export function goDirHash(files: readonly HashedFile[]): string {
  const lines = files.map((f) => {
    if (f.name.includes('\n'))
      throw new SourceError('unsafe-entry', `file name with a newline: ${JSON.stringify(f.name)}`);
    return `${createHash('sha256').update(f.data).digest('hex')}  ${f.name}\n`;
  });
  // Go sorts the names as byte strings; names are compared before formatting
  const sorted = files
    .map((f, i) => ({ name: f.name, line: lines[i] as string }))
    .sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const summary = createHash('sha256');
  for (const { line } of sorted) summary.update(line);
  return `h1:${summary.digest('base64')}`;
}

/** The `/go.mod h1:` hash of a module's go.mod file, as go.sum records it. */
export function goModHash(data: Uint8Array): string {
  return goDirHash([{ name: 'go.mod', data }]);
}
