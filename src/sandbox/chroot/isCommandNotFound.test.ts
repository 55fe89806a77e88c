import { describe, expect, it } from 'vitest';
import { lineForwarder } from '../provision/lineForwarder.ts';
import { isCommandNotFound } from './ChrootSandbox.ts';

describe('isCommandNotFound', () => {
  it('recognises the wording of env (which starts every argv inside) and sh only', () => {
    expect(isCommandNotFound('env: ‘frobnicate’: No such file or directory\n', ['frobnicate'])).toBe(true);
    expect(isCommandNotFound('rvport-enter: frobnicate: No such file or directory\n', ['frobnicate'])).toBe(
      true,
    );
    expect(isCommandNotFound('rvport-enter: helper: No such file or directory\n', ['frobnicate'])).toBe(
      false,
    );
    expect(isCommandNotFound("env: 'frobnicate': No such file or directory\n", ['frobnicate', '-x'])).toBe(
      true,
    );
    // a program the command ran itself is not the one the caller named
    expect(isCommandNotFound('env: ‘helper’: No such file or directory\n', ['frobnicate'])).toBe(false);
    expect(isCommandNotFound('sh: 1: frobnicate: not found\n', 'frobnicate --version')).toBe(true);
    expect(isCommandNotFound('make: *** No rule to make target. Stop.\n', 'make')).toBe(false);
  });

  it('does not blame the named program for a program it ran itself', () => {
    // `sh -c './configure'` exits 127 because ./configure is missing; sh itself is there.
    expect(isCommandNotFound('sh: 1: ./configure: not found\n', ['sh', '-c', './configure'])).toBe(false);
    expect(isCommandNotFound('sh: 1: help2man: not found\n', 'make && help2man x')).toBe(false);
  });
});

describe('lineForwarder', () => {
  it('joins chunks into whole lines', () => {
    const lines: string[] = [];
    const forward = lineForwarder((l) => lines.push(l));
    forward(Buffer.from('I: one\nI: t'));
    forward(Buffer.from('wo\r\npartial'));
    expect(lines).toEqual(['I: one', 'I: two']);
  });
});
