/** One line of the recorder's log. */
export interface LoggedInvocation {
  class: 'machine' | 'sample' | 'plain';
  /**
   * `exec` (run once), `same` / `differ:status|stdout|stderr` (run under both programs),
   * `unreplayable` (machine-dependent but not safe to repeat), `skip:<why>`.
   */
  outcome: string;
  pid: number;
  program: string;
  cwd: string;
  args: string[];
}

/** The log's first line, shipped in the evidence layer: a build that removes the log loses it. */
export const EVIDENCE_LOG_START = 'V2\tstart';

/** Undoes the recorder's escaping (`\\`, `\xHH`). */
function unescapeField(field: string): string {
  if (!field.includes('\\')) return field;
  const bytes: number[] = [];
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c === 0x5c && field[i + 1] === '\\') {
      bytes.push(0x5c);
      i++;
    } else if (c === 0x5c && field[i + 1] === 'x' && /^[0-9a-f]{2}$/.test(field.slice(i + 2, i + 4))) {
      bytes.push(Number.parseInt(field.slice(i + 2, i + 4), 16));
      i += 3;
    } else bytes.push(c & 0xff);
  }
  return Buffer.from(bytes).toString('latin1');
}

/**
 * The recorder's log, one invocation a line (`V2`, class, outcome, status, pid, program, cwd, args…).
 * The log is written inside the sandbox, so it is read as untrusted text: a line that is not in
 * the format counts as `malformed` and the evidence is refused when there is any.
 */
export function readInvocationLog(text: string): {
  invocations: LoggedInvocation[];
  malformed: number;
  /** The log begins with the line the evidence layer ships: it was not removed or replaced. */
  started: boolean;
} {
  const invocations: LoggedInvocation[] = [];
  let malformed = 0;
  const lines = text.split('\n');
  const started = lines[0] === EVIDENCE_LOG_START;
  for (const line of started ? lines.slice(1) : lines) {
    if (line === '') continue;
    const fields = line.split('\t');
    const [version, cls, outcome, , pid, program, cwd] = fields;
    if (
      version !== 'V2' ||
      !pid ||
      !/^\d+$/.test(pid) ||
      (cls !== 'machine' && cls !== 'sample' && cls !== 'plain') ||
      !outcome ||
      !/^(exec|same|unreplayable|differ:\w+|skip:[\w-]+)$/.test(outcome) ||
      !program ||
      cwd === undefined
    ) {
      malformed++;
      continue;
    }
    invocations.push({
      class: cls,
      outcome,
      pid: Number(pid),
      program: unescapeField(program),
      cwd: unescapeField(cwd),
      args: fields.slice(7).map(unescapeField),
    });
  }
  return { invocations, malformed, started };
}
