/**
 * Whether a sed script only selects and prints lines: addresses with `p`, `d`, `=`, `l`, `q`,
 * `Q` and `s/…/…/` with printing flags. Everything else is refused, in particular GNU sed's `e`
 * command and `s///e` flag (run a command), `w`/`W` and `s///w` (write a file), `r`/`R` (read
 * files into the output is harmless but not needed) and blocks, whose grammar is not read here.
 */
export function sedPrintScriptProblem(script: string): string | undefined {
  const s = script;
  let i = 0;
  const number = () => {
    const m = /^[0-9]+/.exec(s.slice(i));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  /** `/regex/` with `\/` escapes, then the optional `I` or `M` flags of an address. */
  const regex = () => {
    if (s[i] !== '/') return false;
    let j = i + 1;
    while (j < s.length && s[j] !== '/') {
      if (s[j] === '\n') return false;
      j += s[j] === '\\' ? 2 : 1;
    }
    if (j >= s.length) return false;
    i = j + 1;
    while (s[i] === 'I' || s[i] === 'M') i++;
    return true;
  };
  const address = () => {
    if (s[i] === '$') {
      i++;
      return true;
    }
    if (number()) {
      if (s[i] === '~') {
        i++;
        return number();
      }
      return true;
    }
    return regex();
  };
  const blanks = () => {
    while (s[i] === ' ' || s[i] === '\t') i++;
  };

  for (;;) {
    while (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === ';') i++;
    if (i >= s.length) return undefined;
    const start = i;
    if (address()) {
      blanks();
      if (s[i] === ',') {
        i++;
        blanks();
        if (s[i] === '+' || s[i] === '~') {
          i++;
          if (!number()) return `cannot read the address at ${JSON.stringify(s.slice(start))}`;
        } else if (!address()) return `cannot read the address at ${JSON.stringify(s.slice(start))}`;
      }
    } else if (i !== start) return `cannot read the address at ${JSON.stringify(s.slice(start))}`;
    blanks();
    if (s[i] === '!') {
      i++;
      blanks();
    }
    const command = s[i];
    if (command === 'p' || command === 'd' || command === '=' || command === 'l') i++;
    else if (command === 'q' || command === 'Q') {
      i++;
      blanks();
      number();
    } else if (command === 's') {
      const problem = substitution();
      if (problem) return problem;
    } else {
      return `the sed command ${JSON.stringify(command ?? '')} is not a print-only command (allowed: p, d, =, l, q, s/…/…/)`;
    }
    blanks();
    if (i < s.length && s[i] !== ';' && s[i] !== '\n') {
      return `unexpected ${JSON.stringify(s.slice(i))} after a sed command`;
    }
  }

  function substitution(): string | undefined {
    // Only `/` as the delimiter: another one would have to be read with its own escapes.
    if (s[i + 1] !== '/') return 'only s/…/…/ with "/" as the delimiter is allowed';
    i += 2;
    for (let part = 0; part < 2; part++) {
      while (i < s.length && s[i] !== '/') {
        if (s[i] === '\n') return 'a newline inside s/…/…/ is not allowed';
        i += s[i] === '\\' ? 2 : 1;
      }
      if (i >= s.length) return 'unterminated s/…/…/';
      i++;
    }
    const flags = /^[gpiImM0-9]*/.exec(s.slice(i))?.[0] ?? '';
    i += flags.length;
    if (/^[ew]/.test(s.slice(i)))
      return `the s///${s[i]} flag ${s[i] === 'e' ? 'runs a command' : 'writes a file'}`;
    return undefined;
  }
}
