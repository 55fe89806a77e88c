import type { ErrorView } from '../../src/serve/ServeViews.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET a JSON view of the server; a 4xx/5xx answer's message becomes the error's. */
export async function getJson<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  const response = await fetch(`${path}${query ? `?${query}` : ''}`, {
    headers: { Accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as T | ErrorView | null;
  if (!response.ok) {
    const message = (body as ErrorView | null)?.message ?? `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message);
  }
  return body as T;
}

export function fileUrl(key: string, path: string): string {
  return `/api/port/file?${new URLSearchParams({ key, path }).toString()}`;
}
