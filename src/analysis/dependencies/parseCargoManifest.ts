/** Which table of Cargo.toml a dependency is declared in. */
export type CrateScope = 'normal' | 'build' | 'dev' | 'workspace';

/** One dependency declared in a Cargo.toml. */
export interface CrateRequirement {
  /** The crate's name on the registry (`package = …` when the key renames it). */
  name: string;
  /** The version requirement (`1.0`, `^0.2`, `>=1, <2`); `*` when none is given. */
  requirement: string;
  scope: CrateScope;
  /** `cfg(…)` or a target triple for `[target.….dependencies]`. */
  target?: string;
  optional: boolean;
  /** Where the crate comes from when it is not the registry: a path in the tree or a git URL. */
  source: 'registry' | 'path' | 'git';
  /** `name.workspace = true`: the requirement is the workspace's. */
  fromWorkspace: boolean;
  line: number;
}

// `[dependencies]`, `[dev-dependencies]`, `[target.'cfg(unix)'.build-dependencies]`,
// `[workspace.dependencies]`, and `[dependencies.serde]` for a dependency of its own table
const TABLE =
  /^\[\s*(?:target\.(?<target>'[^']*'|"[^"]*"|[^.\]\s]+)\.|(?<workspace>workspace)\.)?(?<kind>dependencies|dev-dependencies|dev_dependencies|build-dependencies|build_dependencies)(?:\.(?<key>"[^"]+"|'[^']+'|[A-Za-z0-9_-]+))?\s*\]$/;

const unquote = (text: string) => text.replace(/^(["'])(.*)\1$/, '$2');

function scopeOf(kind: string, workspace: boolean): CrateScope {
  if (workspace) return 'workspace';
  if (kind.startsWith('dev')) return 'dev';
  if (kind.startsWith('build')) return 'build';
  return 'normal';
}

/** The value of `field` in an inline table or a dependency table's lines. */
function field(text: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[{,\\s])${name}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*'|true|false)`).exec(
    text,
  );
  return match?.[1] === undefined ? undefined : unquote(match[1]);
}

function fromFields(
  key: string,
  text: string,
  at: Pick<CrateRequirement, 'scope' | 'target' | 'line'>,
): CrateRequirement {
  const fromWorkspace = field(text, 'workspace') === 'true';
  return {
    name: field(text, 'package') ?? key,
    requirement: field(text, 'version') ?? '*',
    ...at,
    optional: field(text, 'optional') === 'true',
    source:
      field(text, 'path') !== undefined ? 'path' : field(text, 'git') !== undefined ? 'git' : 'registry',
    fromWorkspace,
  };
}

/**
 * The dependencies a Cargo.toml declares, in file order: every dependency table (normal, build,
 * dev, per target, the workspace's), in the three spellings Cargo accepts (`name = "1"`,
 * `name = { version = "1", … }`, `[dependencies.name]`), dotted keys (`name.workspace = true`)
 * included. Only the parts of TOML those tables use are read; a line it cannot read is skipped.
 */
export function parseCargoManifest(text: string): CrateRequirement[] {
  const out: CrateRequirement[] = [];
  const lines = text.split('\n');
  let table: Pick<CrateRequirement, 'scope' | 'target'> | null = null;
  // a `[dependencies.name]` table: its lines are gathered until the next table
  let own: {
    key: string;
    line: number;
    text: string;
    at: Pick<CrateRequirement, 'scope' | 'target'>;
  } | null = null;
  const flush = () => {
    if (own) out.push(fromFields(own.key, own.text, { ...own.at, line: own.line }));
    own = null;
  };
  lines.forEach((raw, i) => {
    const line = raw.replace(/\s+#.*$|^#.*$/, '').trim();
    if (line === '') return;
    if (line.startsWith('[')) {
      flush();
      const match = TABLE.exec(line);
      table = null;
      if (!match?.groups?.kind) return;
      const at = {
        scope: scopeOf(match.groups.kind, Boolean(match.groups.workspace)),
        ...(match.groups.target ? { target: unquote(match.groups.target) } : {}),
      };
      if (match.groups.key) own = { key: unquote(match.groups.key), line: i + 1, text: '', at };
      else table = at;
      return;
    }
    if (own) {
      own.text += ` ${line}`;
      return;
    }
    if (!table) return;
    const entry = /^("[^"]+"|'[^']+'|[A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_-]+)?)\s*=\s*(.+)$/.exec(line);
    if (!entry?.[1] || entry[3] === undefined) return;
    const key = unquote(entry[1]);
    const value = entry[3];
    const at = { ...(table as Pick<CrateRequirement, 'scope' | 'target'>), line: i + 1 };
    if (entry[2]) {
      // `serde.workspace = true`, `serde.version = "1"`: one field of the dependency per line
      const name = entry[2].slice(1);
      const seen = out.find(
        (d) => d.line !== at.line && d.scope === at.scope && d.target === at.target && d.name === key,
      );
      const update = fromFields(key, `${name} = ${value}`, at);
      if (seen) {
        if (name === 'version') seen.requirement = update.requirement;
        if (name === 'workspace') seen.fromWorkspace = update.fromWorkspace;
        if (name === 'optional') seen.optional = update.optional;
      } else out.push(update);
      return;
    }
    if (value.startsWith('"') || value.startsWith("'"))
      out.push({ ...fromFields(key, '', at), requirement: unquote(value.trim()) });
    else if (value.startsWith('{')) out.push(fromFields(key, value, at));
  });
  flush();
  return out;
}
