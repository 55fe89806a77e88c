import type { AcquiredSource } from '../../sources/index.ts';
import { crateSourceNote } from '../../sources/index.ts';
import { isPackagingWarning } from './debianKnowledge.ts';

/**
 * What acquiring the source warned of that the port reports among the source's facts: all but
 * what the report's Debian section says already (the packaging's problems, a crate package's note).
 */
export function sourceWarnings(source: Pick<AcquiredSource, 'warnings' | 'debian'>): string[] {
  const binary = source.debian?.binary;
  const crateNote = binary ? crateSourceNote(binary) : null;
  return [...new Set(source.warnings.filter((w) => w !== crateNote && !isPackagingWarning(w)))];
}
