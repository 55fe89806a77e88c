/** One test of a package's test run, as its harness reported it. */
export interface TestCase {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  /** What the test printed, when the harness keeps it (a failure's output, cut short). */
  output?: string;
}

/** How much of one test's output a result keeps (the start, where the first complaint is). */
export const TEST_OUTPUT_CHARS = 1500;

export function clipOutput(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return trimmed.length > TEST_OUTPUT_CHARS ? `${trimmed.slice(0, TEST_OUTPUT_CHARS)}…` : trimmed;
}
