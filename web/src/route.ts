/** Where the dashboard is: the address's fragment (`#/port/KEY`), so the server serves one page. */
export type Route =
  | { page: 'ports' }
  | { page: 'port'; key: string; log: string | null; logPage: number | null }
  | { page: 'batch'; key: string };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'port' && parts[1]) {
    const page = Number(params.get('page'));
    return {
      page: 'port',
      key: parts.slice(1).join('/'),
      log: params.get('log'),
      logPage: Number.isInteger(page) && page > 0 ? page : null,
    };
  }
  if (parts[0] === 'batch' && parts[1]) return { page: 'batch', key: parts[1] };
  return { page: 'ports' };
}

export function portHref(key: string, log?: string, page?: number): string {
  const query = log ? `?log=${encodeURIComponent(log)}${page ? `&page=${page}` : ''}` : '';
  return `#/port/${key.split('/').map(encodeURIComponent).join('/')}${query}`;
}

export function batchHref(key: string): string {
  return `#/batch/${encodeURIComponent(key)}`;
}
