/** A loader that runs once; every later call answers the same promise. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
