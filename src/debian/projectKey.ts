/** Forges whose project URLs are `host/owner/name`; elsewhere the host and path are the project. */
const FORGES =
  /^(github\.com|gitlab\.com|codeberg\.org|bitbucket\.org|salsa\.debian\.org|gitlab\.[\w.-]+|sr\.ht|git\.sr\.ht)$/;

/**
 * A project URL reduced to what identifies the project, so a Homepage, a Vcs-Git URL and a link
 * in a README compare equal: `https://github.com/LibUV/libuv.git/` → `github.com/libuv/libuv`.
 * Scheme, `www.`, user info, a `.git` suffix, a trailing slash, query and fragment go; on a forge
 * only owner and name are kept (`/tree/main`, `/issues` go). Null for what is not such a URL, and
 * for Debian's own packaging repositories and bare forge or host names, which say nothing of the
 * upstream project.
 */
export function projectKey(url: string): string | null {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@)(?:[^@/\s]*@)?([^/\s:]+)(?::\d+)?[/:]?([^\s?#]*)/i.exec(
    url.trim(),
  );
  if (!m) return null;
  const host = (m[1] ?? '').toLowerCase().replace(/^www\./, '');
  const path = (m[2] ?? '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .toLowerCase()
    .split('/')
    .filter((p) => p !== '');
  if (!host.includes('.')) return null;
  if (FORGES.test(host)) {
    if (host === 'salsa.debian.org') return null;
    const [owner, name] = path;
    return owner && name ? `${host}/${owner}/${name}` : null;
  }
  const rest = path.filter((p) => !/^index\.(html?|php)$/.test(p)).join('/');
  return rest ? `${host}/${rest}` : host;
}
