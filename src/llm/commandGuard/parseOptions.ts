/**
 * Reads a command's arguments against the options it is allowed to have, the way getopt_long
 * does (bundled short letters, `-xVALUE`, `--name=value`, `--` ending the options, options after
 * operands). Anything not on the list is an error: an unknown option may run a program or write
 * a file, and a long option is only accepted spelled out in full, because getopt also accepts
 * abbreviations (`--to-com` is `--to-command`).
 */

export interface OptionSpec {
  /** Short options without a value, as letters (`'nrl'` for -n, -r, -l). */
  short?: string;
  /** Short options that take a value (`-m 5`, `-m5`). */
  shortValue?: string;
  /** Long options without a value, with their dashes. */
  long?: readonly string[];
  /** Long options that take a value (`--name=value` or `--name value`). */
  longValue?: readonly string[];
  /** `-20` (head, tail, grep context) is a number, not bundled letters. */
  numeric?: boolean;
  /** Options only read as such before the first operand (git's sub-command, find's expression). */
  stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** `-n` or `--lines`. */
  name: string;
  value?: string;
}

export type OptionParse =
  | { ok: true; options: ParsedOption[]; operands: string[]; afterDoubleDash: number }
  | { ok: false; error: string; option?: string };

export function parseOptions(args: readonly string[], spec: OptionSpec): OptionParse {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  let afterDoubleDash = -1;
  const short = spec.short ?? '';
  const shortValue = spec.shortValue ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (
      afterDoubleDash >= 0 ||
      arg === '-' ||
      !arg.startsWith('-') ||
      (spec.stopAtOperand && operands.length)
    ) {
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      afterDoubleDash = operands.length;
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (spec.longValue?.includes(name)) {
        if (eq !== -1) options.push({ name, value: arg.slice(eq + 1) });
        else {
          // Some long options take an optional value only after `=` (git's --abbrev, --color):
          // the next word is then an option of its own, and is read as one.
          const value = args[i + 1];
          if (value === undefined) return { ok: false, error: `${name} needs a value` };
          if (value.startsWith('-') && value !== '-') {
            return { ok: false, error: `write the value of ${name} as ${name}=VALUE`, option: name };
          }
          options.push({ name, value });
          i++;
        }
        continue;
      }
      if (spec.long?.includes(name) && eq === -1) {
        options.push({ name });
        continue;
      }
      return { ok: false, error: `option ${name} is not allowed`, option: name };
    }
    if (spec.numeric && /^-[0-9]+$/.test(arg)) {
      options.push({ name: '-NUM', value: arg.slice(1) });
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (shortValue.includes(letter)) {
        const rest = arg.slice(j + 1);
        if (rest) options.push({ name: `-${letter}`, value: rest });
        else {
          const value = args[i + 1];
          if (value === undefined) return { ok: false, error: `-${letter} needs a value` };
          options.push({ name: `-${letter}`, value });
          i++;
        }
        break;
      }
      if (!short.includes(letter)) {
        return { ok: false, error: `option -${letter} is not allowed`, option: `-${letter}` };
      }
      options.push({ name: `-${letter}` });
    }
  }
  return { ok: true, options, operands, afterDoubleDash };
}
