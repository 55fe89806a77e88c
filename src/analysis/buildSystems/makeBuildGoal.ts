/** Goals that build everything, by the names Makefiles give them, best first. */
const BUILD_GOALS = [
  'all',
  'everything',
  'build',
  'world',
  'binaries',
  'programs',
  'bin',
  'default',
  'compile',
];
/** Goals that never build the programs themselves. */
const NOT_BUILD =
  /^(clean|distclean|mrproper|install|uninstall|dist|check|test|tests|package|coverity|docs?|man|help|lint|format|tags|release|deb|rpm)\b/;
const RULE = /^([A-Za-z0-9_.+-]+(?:\s+[A-Za-z0-9_.+-]+)*)\s*:(?![=:])(.*)$/;

interface Rule {
  target: string;
  prerequisites: string;
  recipe: string[];
}

function rulesOf(text: string): { rules: Rule[]; defaultGoal: string | null } {
  const rules: Rule[] = [];
  let current: Rule | null = null;
  let defaultGoal: string | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('\t')) {
      current?.recipe.push(line.slice(1).trim());
      continue;
    }
    const goal = /^\.DEFAULT_GOAL\s*:?=\s*(\S+)/.exec(line)?.[1];
    if (goal) defaultGoal = goal;
    const rule = RULE.exec(line);
    current = null;
    if (!rule?.[1]) continue;
    for (const target of rule[1].split(/\s+/)) {
      current = { target, prerequisites: (rule[2] ?? '').replace(/[;#].*$/, '').trim(), recipe: [] };
      rules.push(current);
    }
  }
  return { rules, defaultGoal };
}

/** A recipe that only prints (a list of targets, a usage text) and depends on nothing. */
function printsOnly(rule: Rule): boolean {
  const lines = rule.recipe.filter((l) => l !== '');
  return (
    rule.prerequisites === '' && lines.length > 0 && lines.every((l) => /^[@-]*\s*(echo|printf)\b/.test(l))
  );
}

/**
 * The goal to build when a hand-written Makefile's default goal only prints a help text (`all:`
 * listing the programs one may build): the rule by a name that means "build it all", else the
 * rule with the most prerequisites. Null when the default goal builds something (plain `make`
 * is then right) or nothing better is found.
 */
export function makeBuildGoal(makefile: string): string | null {
  const { rules, defaultGoal } = rulesOf(makefile);
  const candidates = rules.filter((r) => !r.target.startsWith('.') && !r.target.includes('%'));
  const first = candidates.find((r) => r.target === defaultGoal) ?? candidates[0];
  if (!first || !printsOnly(first)) return null;
  const buildRules = candidates.filter((r) => r !== first && !NOT_BUILD.test(r.target) && r.prerequisites);
  for (const name of BUILD_GOALS) {
    const named = buildRules.find((r) => r.target === name);
    if (named) return named.target;
  }
  const widest = [...buildRules].sort(
    (a, b) => b.prerequisites.split(/\s+/).length - a.prerequisites.split(/\s+/).length,
  )[0];
  return widest && widest.prerequisites.split(/\s+/).length > 1 ? widest.target : null;
}
