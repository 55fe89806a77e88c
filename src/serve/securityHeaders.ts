/**
 * Headers of every answer. The pages show what a hostile build wrote, so the browser is told to
 * run no script but the dashboard's own files (no inline script, no eval), to load nothing from
 * elsewhere, to never guess a type (`nosniff`: a log is never run as a script), and to let no
 * other site frame the page or learn its address.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Host names a browser may use to reach a server bound to `host` on `port`. A page of another
 * site that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name as Host and is
 * refused. A server bound to every address (0.0.0.0, ::) is meant to be reached under names we
 * cannot know: null, no check.
 */
export function allowedHosts(host: string, port: number): Set<string> | null {
  if (host === '0.0.0.0' || host === '::' || host === '') return null;
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', host.includes(':') ? `[${host}]` : host]);
  return new Set(
    [...names].flatMap((n) => [`${n}:${port}`.toLowerCase(), ...(port === 80 ? [n.toLowerCase()] : [])]),
  );
}
