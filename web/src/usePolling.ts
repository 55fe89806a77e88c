import { useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
}

/**
 * Loads `load()` now, and again every `everyMs` while `keepPolling(data)` says so (a batch that
 * runs); loads again when `deps` change.
 */
export function usePolling<T>(
  load: () => Promise<T>,
  deps: unknown[],
  everyMs: number,
  keepPolling: (data: T) => boolean,
): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const data = await load();
        if (stopped) return;
        setState({ data, error: null });
        if (keepPolling(data)) timer = setTimeout(tick, everyMs);
      } catch (error) {
        if (stopped) return;
        setState((s) => ({ data: s.data, error: (error as Error).message }));
      }
    };
    setState({ data: null, error: null });
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, deps);
  return state;
}
