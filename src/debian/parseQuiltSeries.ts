/** One patch of a quilt series: its file under debian/patches and the `-pN` it is applied with. */
export interface QuiltPatch {
  name: string;
  strip: number;
}

/** A patch name the packaging may use: a relative path of plain parts inside debian/patches. */
const SAFE_PART = /^[A-Za-z0-9_+@%=.,~-]+$/;

/** Why a series entry cannot name a patch file inside debian/patches, or null when it can. */
export function unsafePatchName(name: string): string | null {
  if (name.startsWith('/')) return 'an absolute path';
  const parts = name.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return "a '..', '.' or empty component";
  if (!parts.every((p) => SAFE_PART.test(p))) return 'unusual characters';
  return null;
}

/**
 * The patches of `debian/patches/series` in order: `#` starts a comment, blank lines are
 * skipped, a patch may carry quilt options (only `-pN` matters for applying it). Entries that
 * would leave debian/patches are returned in `refused`, never as patches.
 */
export function parseQuiltSeries(series: string): { patches: QuiltPatch[]; refused: string[] } {
  const patches: QuiltPatch[] = [];
  const refused: string[] = [];
  for (const raw of series.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    const [name = '', ...options] = line.split(/\s+/);
    const why = unsafePatchName(name);
    if (why) {
      refused.push(`series entry ${JSON.stringify(name.slice(0, 120))} is refused (${why})`);
      continue;
    }
    let strip = 1;
    for (const [i, option] of options.entries()) {
      const joined = /^-p(\d)$/.exec(option);
      if (joined) strip = Number(joined[1]);
      else if (option === '-p' && /^\d$/.test(options[i + 1] ?? '')) strip = Number(options[i + 1]);
    }
    patches.push({ name, strip });
  }
  return { patches, refused };
}
