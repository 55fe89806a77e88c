/** A package apt's resolver in the sandbox picked: only its identity, never where or how big. */
export interface AptSelection {
  name: string;
  version: string;
  architecture: string;
  /** The size apt printed, held against the host's index (a lie is refused, not used). */
  claimedSize: number;
}

const LINE = /^'[^'\s]+' (\S+) (\d{1,15}) (?:MD5Sum|SHA1|SHA256|SHA512):[0-9a-f]{32,128}$/;
/** apt's archive file name: NAME_VERSION_ARCH.deb, the version's `:` written `%3a`. */
const ARCHIVE_FILE = /^([a-z0-9][a-z0-9+.-]*)_([A-Za-z0-9.+~%-]+)_([a-z0-9-]+)\.deb$/;
const VERSION = /^[A-Za-z0-9.+~:-]+$/;

/**
 * The packages apt names in `apt-get install --print-uris` output. The text comes from inside the
 * sandbox, so it only says which package versions the resolver picked: the URI and hash are
 * ignored (the host takes both from its own copy of the lists), and a quoted line of any other
 * form is refused, not skipped.
 */
export function parseAptSelections(output: string): AptSelection[] {
  const selections: AptSelection[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith("'")) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`unexpected line in apt's download list: ${line.slice(0, 200)}`);
    const [, fileName = '', size = '0'] = match;
    const file = ARCHIVE_FILE.exec(fileName);
    const version = file?.[2]?.replace(/%3a/gi, ':') ?? '';
    if (!file?.[1] || !file[3] || !VERSION.test(version))
      throw new Error(`not a package file name: ${fileName.slice(0, 200)}`);
    selections.push({ name: file[1], version, architecture: file[3], claimedSize: Number(size) });
  }
  return selections;
}

/** The archive file name apt expects for a package version in /var/cache/apt/archives. */
export function archiveFileName(name: string, version: string, architecture: string): string {
  return `${name}_${version.replace(/:/g, '%3a')}_${architecture}.deb`;
}
