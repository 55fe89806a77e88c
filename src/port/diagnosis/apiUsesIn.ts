/**
 * A name the compiler did not find where the source expects it: a member of a type, a function,
 * an identifier. Where the type or the name's nearest match is a system library's, the source was
 * written against another version of that library's API (FFmpeg 7 dropped
 * `AVCodecContext.channel_layout` for `ch_layout`; libgpiod 2 dropped `gpiod_chip_get_line`).
 */
export interface ApiUse {
  kind: 'member' | 'function' | 'identifier';
  /** The name the source uses: `channel_layout`, `gpiod_chip_get_line`. */
  symbol: string;
  /** For a member, the type it was looked up in (`AVCodecContext`; `struct x` as `x`). */
  of?: string;
  /** The compiler's nearest name (`did you mean ‘ch_layout’?`). */
  suggestion?: string;
  /** Where the source uses it: `ff.c:3`. */
  at?: string;
}

const Q = `['‘]`;
const E = `['’]`;
const NAME = '([A-Za-z_][\\w:]*)';
const SUGGESTION = `(?:; did you mean ${Q}([\\w:]+)${E}\\?)?`;
const AT = '^(?:(\\S+?):(\\d+):(?:\\d+:)? )?';

const PATTERNS: readonly { kind: ApiUse['kind']; re: RegExp }[] = [
  {
    // gcc: ‘AVCodecContext’ has no member named ‘channel_layout’; g++ adds {aka ‘struct …’}
    kind: 'member',
    re: new RegExp(
      `${AT}error: ${Q}((?:struct |union |class )?[\\w:]+)${E}(?: \\{aka ${Q}[^’']*${E}\\})? has no member named ${Q}(\\w+)${E}${SUGGESTION}`,
      'gm',
    ),
  },
  {
    // C (an error since gcc 14): implicit declaration of function ‘f’; did you mean ‘g’?
    kind: 'function',
    re: new RegExp(
      `${AT}(?:error|warning): implicit declaration of function ${Q}${NAME}${E}${SUGGESTION}`,
      'gm',
    ),
  },
  {
    // C++: ‘f’ was not declared in this scope; C: ‘X’ undeclared (first use in this function)
    kind: 'identifier',
    re: new RegExp(
      `${AT}error: ${Q}${NAME}${E} (?:was not declared in this scope|undeclared \\((?:first use in this function|here, not in a function)\\))${SUGGESTION}`,
      'gm',
    ),
  },
  {
    // C++: ‘DEFAULT_KEYLENGTH’ is not a member of ‘CryptoPP::AES’
    kind: 'member',
    re: new RegExp(`${AT}error: ${Q}${NAME}${E} is not a member of ${Q}([\\w:]+)${E}${SUGGESTION}`, 'gm'),
  },
];

/** At most this many distinct uses are kept from one output (the first ones, in order). */
export const MAX_API_USES = 8;

/**
 * The names a compiler output says the source uses and the headers do not have, each once, in
 * the order the output names them. Pure: whether a system library declares the type or the
 * suggestion is the sandbox's to tell (locateSystemApi).
 */
export function apiUsesIn(output: string): ApiUse[] {
  const found: { index: number; use: ApiUse }[] = [];
  for (const { kind, re } of PATTERNS) {
    for (const m of output.matchAll(re)) {
      const at = m[1] && m[2] ? `${m[1]}:${m[2]}` : undefined;
      const use: ApiUse =
        kind === 'member' && re === PATTERNS[0]?.re
          ? { kind, of: stripTag(m[3] ?? ''), symbol: m[4] ?? '', suggestion: m[5] }
          : kind === 'member'
            ? { kind, symbol: m[3] ?? '', of: m[4], suggestion: m[5] }
            : { kind, symbol: m[3] ?? '', suggestion: m[4] };
      if (at) use.at = at;
      if (!use.suggestion) delete use.suggestion;
      found.push({ index: m.index ?? 0, use });
    }
  }
  found.sort((a, b) => a.index - b.index);
  const seen = new Set<string>();
  const uses: ApiUse[] = [];
  for (const { use } of found) {
    const key = `${use.of ?? ''}.${use.symbol}`;
    if (seen.has(key)) continue;
    seen.add(key);
    uses.push(use);
    if (uses.length === MAX_API_USES) break;
  }
  return uses;
}

function stripTag(type: string): string {
  return type.replace(/^(?:struct|union|class) /, '');
}
