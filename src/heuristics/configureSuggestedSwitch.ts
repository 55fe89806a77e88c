import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * A switch that turns a part off, as configure's own error names it: `use '--disable-man'`,
 * `try --without-readline`, `rerun configure with --disable-werror`, `(or pass --disable-foo)`.
 */
const SUGGESTED =
  /\b(?:use|try|pass|add|specify|rerun (?:configure )?with|run configure with|configure with|or)\s+[`'"]?(--(?:disable|without)-[A-Za-z0-9][\w-]*)[`'"]?/g;

/** The switches configure's `error:` lines suggest for going on without a part, in order. */
export function suggestedSwitches(output: string): string[] {
  const errors = output.split('\n').filter((line) => /\bconfigure: error:/.test(line));
  const found = errors.flatMap((line) => [...line.matchAll(SUGGESTED)].map((m) => m[1] as string));
  return [...new Set(found)];
}

/**
 * configure stops and says which switch goes on without the part it cannot build (man pages
 * without their generator, a checker not installed): when the script really offers that switch,
 * configure with it. Only switches that leave something out (`--disable-*`, `--without-*`); an
 * `--enable-maintainer-mode` or a `--with-foo=PATH` it also names is a person's choice.
 */
export const configureSuggestedSwitch: RecoveryHeuristic = {
  name: 'configure-suggested-switch',
  description: "configure with the switch configure's own error suggests for going on without a part",
  match(ctx) {
    if (ctx.failure.phase !== 'configure') return null;
    const offered = offeredConfigureSwitches(ctx, suggestedSwitches(ctx.failure.output));
    const first = offered[0];
    return first ? { key: first, reason: `configure's error suggests ${first}` } : null;
  },
  async apply(ctx, match) {
    return configureWithSwitches(
      ctx.plan,
      match.key,
      `configure with ${match.key}, as configure's error suggests`,
    );
  },
};
