import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/** The sections of one probe run, by name, in the order the script printed them. */
export type ProbeSections = Map<string, string>;

/** The probe's output cannot be read (one code: `probe-output`). */
export class ProbeOutputError extends RvportError {
  override name = 'ProbeOutputError';
  constructor(message: string, options?: RvportErrorOptions) {
    super('probe-output', message, options);
  }
}

const SECTION_NAME = /^[a-z0-9][a-z0-9:._-]{0,80}$/;

/**
 * Splits the probe script's stdout into sections. Only lines `@@rvport-probe:NONCE:NAME` with this
 * run's nonce and a plain name open a section, so what the tools print (a compiler message, a
 * /proc file) cannot open or close one; a section named twice keeps its first text. Throws when the output lacks the closing `end` section (the probe was cut
 * short, or something else answered).
 */
export function parseProbeSections(stdout: string, nonce: string): ProbeSections {
  const marker = `@@rvport-probe:${nonce}:`;
  const sections: ProbeSections = new Map();
  let current: string | undefined;
  let lines: string[] = [];
  let ended = false;
  const close = () => {
    if (current !== undefined && !sections.has(current)) {
      // the script puts a blank line before every marker; the section's own text ends before it
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      sections.set(current, lines.join('\n'));
    }
    lines = [];
  };
  for (const line of stdout.replace(/\r\n/g, '\n').split('\n')) {
    const name = line.startsWith(marker) ? line.slice(marker.length) : undefined;
    if (name !== undefined && SECTION_NAME.test(name)) {
      close();
      if (name === 'end') {
        ended = true;
        current = undefined;
        break;
      }
      current = name;
    } else if (current !== undefined) {
      lines.push(line);
    }
  }
  if (!ended) throw new ProbeOutputError('the probe did not finish (its output has no end marker)');
  return sections;
}

export function isProbeOutputError(error: unknown): error is ProbeOutputError {
  return isRvportErrorNamed(error, ['ProbeOutputError']);
}
