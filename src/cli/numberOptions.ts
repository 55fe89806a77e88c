import { InvalidArgumentError } from 'commander';

/** Parses a command-line value that must be a whole number of 1 or more. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

/** Parses a command-line value that must be a number of 0 or more (dollars, seconds). */
export function nonNegative(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of 0 or more');
  return n;
}
