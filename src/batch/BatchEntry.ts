/** One line of a batch LIST, checked before anything runs. */
export interface BatchEntry {
  /** Identifies the entry across runs of the batch (resume): the SOURCE, or SOURCE@LINE for a repeat. */
  key: string;
  /** 1-based line number in LIST. */
  line: number;
  /** The SOURCE as a port gets it (relative paths made absolute against LIST's folder). */
  source: string;
  /** The package name (SPEC section 2); null when the SOURCE could not be read. */
  name: string | null;
  /** Why the entry cannot be ported (bad SOURCE, repeated package); null for a valid entry. */
  invalid: string | null;
}

export type ValidBatchEntry = BatchEntry & { name: string; invalid: null };

export function isValidEntry(entry: BatchEntry): entry is ValidBatchEntry {
  return entry.invalid === null && entry.name !== null;
}
