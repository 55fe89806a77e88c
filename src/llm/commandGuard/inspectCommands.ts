import { posix } from 'node:path';
import type { CommandVerdict } from './CommandVerdict.ts';
import { type OptionSpec, type ParsedOption, parseOptions } from './parseOptions.ts';
import type { Redirection, ShellWord, SimpleCommand } from './parseShell.ts';
import { sedPrintScriptProblem } from './sedPrintScript.ts';

/**
 * The read-only commands of the fixer's inspection round, each with the options it may have.
 * Options not listed are refused (many tools have one that runs a program or writes a file:
 * `git grep -O`, `tar --to-command`, `sort --compress-program`, `rg --pre`, `find -fprint`); a
 * `check` refuses what the options allow but the operands or values do not.
 */
interface InspectSpec extends OptionSpec {
  check?: (parsed: { options: ParsedOption[]; operands: string[] }) => string | undefined;
  /** The first operand picks a sub-command with its own options (git, apt-cache). */
  subcommands?: Readonly<Record<string, InspectSpec>>;
  /** Operands after the sub-command or command name, at most. */
  maxOperands?: number;
  /** Arguments are not options (test's `-f`, `-n`). */
  anyArguments?: boolean;
}

const ALLOWED: CommandVerdict = { allowed: true };
const refuse = (reason: string): CommandVerdict => ({ allowed: false, reason });

const GREP: InspectSpec = {
  short: 'ivwxclLnhHoqsrRFEGPaIbzZTU',
  shortValue: 'efmABCd',
  numeric: true,
  long: [
    '--ignore-case',
    '--invert-match',
    '--word-regexp',
    '--line-regexp',
    '--count',
    '--files-with-matches',
    '--files-without-match',
    '--line-number',
    '--no-filename',
    '--with-filename',
    '--only-matching',
    '--quiet',
    '--silent',
    '--no-messages',
    '--recursive',
    '--dereference-recursive',
    '--fixed-strings',
    '--extended-regexp',
    '--basic-regexp',
    '--perl-regexp',
    '--text',
    '--byte-offset',
    '--null',
    '--null-data',
    '--initial-tab',
  ],
  longValue: [
    '--regexp',
    '--file',
    '--max-count',
    '--after-context',
    '--before-context',
    '--context',
    '--include',
    '--exclude',
    '--exclude-dir',
    '--color',
    '--colour',
    '--label',
    '--binary-files',
  ],
};

/** Options shared by the git sub-commands that show history or differences. */
const GIT_DIFF_OPTIONS = {
  short: 'puswRMCzW',
  shortValue: 'UnSGL',
  numeric: true,
  long: [
    '--stat',
    '--shortstat',
    '--numstat',
    '--name-only',
    '--name-status',
    '--summary',
    '--patch',
    '--no-patch',
    '--raw',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--ignore-space-change',
    '--ignore-all-space',
    '--ignore-blank-lines',
    '--minimal',
    '--patience',
    '--histogram',
    '--full-index',
    '--binary',
    '--no-renames',
    '--find-renames',
    '--relative',
    '--exit-code',
    '--quiet',
    '--cached',
    '--staged',
    '--no-index',
    '--merge-base',
    '--function-context',
    '--word-diff',
    '--check',
  ],
  longValue: ['--unified', '--diff-filter', '--color', '--abbrev', '--stat-width', '--word-diff-regex'],
} satisfies OptionSpec;

/** `%G?`, `%GS` … in a format verify signatures, which runs gpg (or the repository's gpg.program). */
const noSignatureFormat: InspectSpec['check'] = ({ options }) =>
  options.some((o) => /^--(pretty|format)$/.test(o.name) && /%G/.test(o.value ?? ''))
    ? 'a format with %G verifies signatures, which runs gpg'
    : undefined;

const GIT_LOG_OPTIONS: InspectSpec = {
  check: noSignatureFormat,
  short: `${GIT_DIFF_OPTIONS.short}iEFg`,
  shortValue: GIT_DIFF_OPTIONS.shortValue,
  numeric: true,
  long: [
    ...GIT_DIFF_OPTIONS.long,
    '--oneline',
    '--graph',
    '--decorate',
    '--no-decorate',
    '--all',
    '--branches',
    '--tags',
    '--reverse',
    '--first-parent',
    '--merges',
    '--no-merges',
    '--abbrev-commit',
    '--no-abbrev-commit',
    '--follow',
    '--date-order',
    '--topo-order',
    '--full-history',
    '--source',
    '--regexp-ignore-case',
    '--extended-regexp',
    '--fixed-strings',
    '--all-match',
    '--invert-grep',
    '--boundary',
    '--left-right',
    '--cherry-pick',
    '--log-size',
  ],
  longValue: [
    ...GIT_DIFF_OPTIONS.longValue,
    '--pretty',
    '--format',
    '--date',
    '--since',
    '--until',
    '--after',
    '--before',
    '--author',
    '--committer',
    '--grep',
    '--max-count',
    '--skip',
    '--decorate-refs',
  ],
};

/**
 * git without `-c`, `--exec-path`, `--git-dir`, `--work-tree`, `--config-env`, and sub-commands
 * without `--output` (writes a file), `--ext-diff` or `--textconv` (run configured programs),
 * `-O`/`--open-files-in-pager` (runs a program), `--exec`, `--upload-pack`, `--contents`.
 */
const GIT: InspectSpec = {
  long: ['--no-pager', '--version', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects'],
  shortValue: 'C',
  short: 'P',
  stopAtOperand: true,
  subcommands: {
    log: GIT_LOG_OPTIONS,
    show: GIT_LOG_OPTIONS,
    shortlog: { short: 'nsec', long: ['--numbered', '--summary', '--email'], longValue: ['--format'] },
    diff: GIT_DIFF_OPTIONS,
    status: {
      short: 'sbz',
      long: ['--short', '--branch', '--porcelain', '--long', '--ignored', '--no-renames', '--ahead-behind'],
      longValue: ['--untracked-files'],
    },
    'ls-files': {
      short: 'cdmoiskutvfz',
      shortValue: 'xX',
      long: [
        '--cached',
        '--deleted',
        '--modified',
        '--others',
        '--ignored',
        '--stage',
        '--killed',
        '--unmerged',
        '--exclude-standard',
        '--directory',
        '--no-empty-directory',
        '--full-name',
        '--error-unmatch',
        '--eol',
      ],
      longValue: ['--exclude', '--exclude-from', '--exclude-per-directory', '--abbrev'],
    },
    'ls-tree': {
      short: 'rtdlz',
      long: ['--name-only', '--name-status', '--full-name', '--full-tree', '--long', '--object-only'],
      longValue: ['--abbrev', '--format'],
    },
    grep: {
      ...GREP,
      short: 'ivwxclLnhHoqsFEGPaIzWp',
      shortValue: 'efmABC',
      long: [
        ...(GREP.long ?? []).filter((o) => !o.startsWith('--recursive') && !o.startsWith('--dereference')),
        '--cached',
        '--untracked',
        '--no-index',
        '--no-exclude-standard',
        '--exclude-standard',
        '--all-match',
        '--and',
        '--or',
        '--not',
        '--break',
        '--heading',
        '--column',
        '--show-function',
        '--function-context',
        '--full-name',
        '--recurse-submodules',
        '--no-textconv',
      ],
      longValue: ['--regexp', '--file', '--max-count', '--max-depth', '--context', '--color', '--threads'],
    },
    blame: {
      short: 'lstwenfpcb',
      shortValue: 'L',
      long: [
        '--porcelain',
        '--line-porcelain',
        '--root',
        '--show-stats',
        '--show-name',
        '--show-number',
        '--show-email',
        '--incremental',
        '--no-textconv',
      ],
      longValue: ['--date', '--abbrev'],
    },
    'rev-parse': {
      long: [
        '--short',
        '--abbrev-ref',
        '--show-toplevel',
        '--show-prefix',
        '--show-cdup',
        '--git-dir',
        '--is-inside-work-tree',
        '--is-bare-repository',
        '--verify',
        '--symbolic-full-name',
        '--all',
        '--quiet',
      ],
    },
    describe: {
      long: ['--tags', '--all', '--always', '--long', '--exact-match', '--first-parent', '--contains'],
      longValue: ['--abbrev', '--match', '--exclude', '--candidates'],
    },
    'cat-file': { short: 'tspe' },
    version: {},
  },
};

const LISTED = (names: string[]) => names;

export const INSPECT_COMMANDS: Readonly<Record<string, InspectSpec>> = {
  cat: {
    short: 'AbeEnstTuv',
    long: ['--show-all', '--number-nonblank', '--show-ends', '--number', '--squeeze-blank', '--show-tabs'],
  },
  head: {
    short: 'qvz',
    shortValue: 'nc',
    numeric: true,
    long: ['--quiet', '--silent', '--verbose', '--zero-terminated'],
    longValue: ['--lines', '--bytes'],
  },
  // No -f/-F/--follow/--retry: following a file never ends.
  tail: {
    short: 'qvz',
    shortValue: 'nc',
    numeric: true,
    long: ['--quiet', '--silent', '--verbose', '--zero-terminated'],
    longValue: ['--lines', '--bytes'],
  },
  ls: {
    short: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxX1Z',
    shortValue: 'IwT',
    long: [
      '--all',
      '--almost-all',
      '--classify',
      '--directory',
      '--dereference',
      '--human-readable',
      '--inode',
      '--numeric-uid-gid',
      '--recursive',
      '--reverse',
      '--size',
      '--full-time',
      '--group-directories-first',
    ],
    longValue: ['--color', '--sort', '--time-style', '--time', '--ignore', '--hide', '--width', '--format'],
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  // No --pre/--pre-glob (run a program on each file) nor -z/--search-zip (runs decompressors).
  rg: {
    short: 'ivwxclnNHhoqsSFuLU0pa',
    shortValue: 'efmABCgtTjdM',
    numeric: false,
    long: [
      '--ignore-case',
      '--smart-case',
      '--invert-match',
      '--word-regexp',
      '--line-regexp',
      '--count',
      '--files-with-matches',
      '--files-without-match',
      '--files',
      '--line-number',
      '--no-line-number',
      '--with-filename',
      '--no-filename',
      '--only-matching',
      '--quiet',
      '--no-messages',
      '--fixed-strings',
      '--hidden',
      '--no-ignore',
      '--follow',
      '--multiline',
      '--null',
      '--pretty',
      '--text',
      '--vimgrep',
      '--json',
      '--no-config',
      '--sort-files',
      '--type-list',
      '--column',
      '--heading',
      '--no-heading',
    ],
    longValue: [
      '--regexp',
      '--file',
      '--max-count',
      '--after-context',
      '--before-context',
      '--context',
      '--glob',
      '--iglob',
      '--type',
      '--type-not',
      '--threads',
      '--max-depth',
      '--max-columns',
      '--color',
      '--sort',
      '--sortr',
    ],
  },
  wc: {
    short: 'clwmL',
    long: ['--bytes', '--lines', '--words', '--chars', '--max-line-length', '--total'],
  },
  // No -C/--compile (writes a magic file) nor -m (loads one).
  file: {
    short: 'bhiLkNnrsSzZ0E',
    shortValue: 'eF',
    long: [
      '--brief',
      '--mime',
      '--mime-type',
      '--mime-encoding',
      '--dereference',
      '--no-dereference',
      '--keep-going',
      '--no-pad',
      '--raw',
      '--special-files',
      '--uncompress',
      '--print0',
      '--extension',
    ],
    longValue: ['--exclude', '--separator'],
  },
  readelf: {
    short: 'ahlSgtesWdnrVAcDIuTLwz',
    shortValue: 'xpR',
    long: [
      '--all',
      '--file-header',
      '--program-headers',
      '--segments',
      '--section-headers',
      '--sections',
      '--section-groups',
      '--section-details',
      '--headers',
      '--symbols',
      '--syms',
      '--dyn-syms',
      '--notes',
      '--relocs',
      '--dynamic',
      '--version-info',
      '--arch-specific',
      '--use-dynamic',
      '--archive-index',
      '--wide',
      '--demangle',
      '--histogram',
      '--debug-dump',
    ],
    longValue: ['--hex-dump', '--string-dump', '--relocated-dump'],
  },
  objdump: {
    short: 'adDfhprRsStTxgeGWClFwzHiV',
    shortValue: 'jMb',
    long: [
      '--archive-headers',
      '--disassemble',
      '--disassemble-all',
      '--file-headers',
      '--private-headers',
      '--headers',
      '--section-headers',
      '--reloc',
      '--dynamic-reloc',
      '--full-contents',
      '--syms',
      '--dynamic-syms',
      '--all-headers',
      '--debugging',
      '--demangle',
      '--line-numbers',
      '--source',
      '--wide',
      '--no-show-raw-insn',
      '--prefix-addresses',
      '--dwarf',
    ],
    longValue: ['--section', '--disassembler-options', '--start-address', '--stop-address', '--architecture'],
  },
  nm: {
    short: 'aABCDglnoprsSuUvVjP',
    shortValue: 't',
    long: [
      '--debug-syms',
      '--print-file-name',
      '--demangle',
      '--no-demangle',
      '--dynamic',
      '--extern-only',
      '--line-numbers',
      '--numeric-sort',
      '--no-sort',
      '--portability',
      '--reverse-sort',
      '--print-armap',
      '--print-size',
      '--size-sort',
      '--undefined-only',
      '--defined-only',
      '--special-syms',
      '--with-symbol-versions',
    ],
    longValue: ['--format', '--radix'],
  },
  strings: {
    short: 'adfw',
    shortValue: 'ntTe',
    numeric: true,
    long: ['--all', '--data', '--print-file-name', '--include-all-whitespace'],
    longValue: ['--bytes', '--radix', '--encoding'],
  },
  size: { short: 'ABGdoxt', long: ['--totals', '--common'], longValue: ['--format', '--radix'] },
  stat: {
    short: 'Lft',
    shortValue: 'c',
    long: ['--dereference', '--file-system', '--terse'],
    longValue: ['--format', '--printf'],
  },
  du: {
    short: 'abchkmsSxLPl0',
    shortValue: 'dt',
    long: [
      '--all',
      '--apparent-size',
      '--bytes',
      '--total',
      '--human-readable',
      '--summarize',
      '--separate-dirs',
      '--one-file-system',
      '--dereference',
      '--count-links',
      '--null',
    ],
    longValue: ['--max-depth', '--exclude', '--threshold', '--block-size'],
  },
  df: {
    short: 'ahHikPlTv',
    shortValue: 'tx',
    long: ['--all', '--human-readable', '--inodes', '--local', '--portability', '--print-type', '--total'],
    longValue: ['--type', '--exclude-type', '--output', '--block-size'],
  },
  // No -o (writes the listing to a file), -R with -H (writes 00Tree.html files).
  tree: {
    short: 'adfilsphugDFqNQrtvUCnAJSx',
    shortValue: 'LIP',
    long: ['--noreport', '--dirsfirst', '--du', '--prune', '--charset', '--matchdirs', '--ignore-case'],
    longValue: ['--filelimit', '--sort', '--timefmt'],
  },
  realpath: {
    short: 'emLPqsz',
    long: [
      '--canonicalize-existing',
      '--canonicalize-missing',
      '--logical',
      '--physical',
      '--quiet',
      '--strip',
      '--no-symlinks',
      '--zero',
    ],
    longValue: ['--relative-to', '--relative-base'],
  },
  readlink: {
    short: 'efmnqsvz',
    long: [
      '--canonicalize',
      '--canonicalize-existing',
      '--canonicalize-missing',
      '--no-newline',
      '--quiet',
      '--silent',
      '--verbose',
      '--zero',
    ],
  },
  basename: { short: 'az', shortValue: 's', long: ['--multiple', '--zero'], longValue: ['--suffix'] },
  dirname: { short: 'z', long: ['--zero'] },
  // No -o/--output (writes), -T (temporary files), --compress-program (runs one),
  // --files0-from, --random-source.
  sort: {
    short: 'bdfghiMnRrVcCmsuz',
    shortValue: 'ktS',
    long: [
      '--ignore-leading-blanks',
      '--dictionary-order',
      '--ignore-case',
      '--general-numeric-sort',
      '--human-numeric-sort',
      '--month-sort',
      '--numeric-sort',
      '--random-sort',
      '--reverse',
      '--version-sort',
      '--check',
      '--merge',
      '--stable',
      '--unique',
      '--zero-terminated',
    ],
    longValue: ['--key', '--field-separator', '--sort', '--buffer-size', '--parallel'],
  },
  // A second operand is the file uniq writes.
  uniq: {
    short: 'cdDiuz',
    shortValue: 'fsw',
    long: ['--count', '--repeated', '--ignore-case', '--unique', '--zero-terminated'],
    longValue: ['--skip-fields', '--skip-chars', '--check-chars', '--all-repeated', '--group'],
    maxOperands: 1,
  },
  cut: {
    short: 'nsz',
    shortValue: 'bcdf',
    long: ['--only-delimited', '--zero-terminated', '--complement'],
    longValue: ['--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter'],
  },
  tr: {
    short: 'cCdst',
    long: ['--complement', '--delete', '--squeeze-repeats', '--truncate-set1'],
    maxOperands: 2,
  },
  diff: {
    short: 'qsrNabBwiEZpytTuc',
    shortValue: 'UCxXIWFS',
    long: [
      '--brief',
      '--report-identical-files',
      '--recursive',
      '--new-file',
      '--unidirectional-new-file',
      '--text',
      '--ignore-space-change',
      '--ignore-all-space',
      '--ignore-blank-lines',
      '--ignore-case',
      '--ignore-tab-expansion',
      '--ignore-trailing-space',
      '--strip-trailing-cr',
      '--show-c-function',
      '--side-by-side',
      '--expand-tabs',
      '--initial-tab',
      '--minimal',
      '--no-dereference',
      '--unified',
    ],
    longValue: [
      '--exclude',
      '--exclude-from',
      '--ignore-matching-lines',
      '--label',
      '--color',
      '--from-file',
      '--to-file',
    ],
  },
  cmp: {
    short: 'blsz',
    shortValue: 'in',
    long: ['--print-bytes', '--verbose', '--quiet', '--silent'],
    longValue: ['--ignore-initial', '--bytes'],
  },
  md5sum: {
    short: 'bctwz',
    long: ['--binary', '--check', '--tag', '--text', '--quiet', '--status', '--strict', '--warn', '--zero'],
  },
  sha1sum: {
    short: 'bctwz',
    long: ['--binary', '--check', '--tag', '--text', '--quiet', '--status', '--strict', '--warn', '--zero'],
  },
  sha256sum: {
    short: 'bctwz',
    long: ['--binary', '--check', '--tag', '--text', '--quiet', '--status', '--strict', '--warn', '--zero'],
  },
  od: {
    short: 'bcdfilosxv',
    shortValue: 'AjNtS',
    long: ['--output-duplicates', '--traditional'],
    longValue: [
      '--address-radix',
      '--skip-bytes',
      '--read-bytes',
      '--format',
      '--strings',
      '--width',
      '--endian',
    ],
  },
  hexdump: { short: 'bcCdovx', shortValue: 'nse', long: [], longValue: [] },
  // No -r (reverts a dump into a file) and one operand (a second one is written).
  xxd: { short: 'apuiEC', shortValue: 'lscgon', maxOperands: 1 },
  uname: {
    short: 'asnrvmpio',
    long: [
      '--all',
      '--kernel-name',
      '--nodename',
      '--kernel-release',
      '--kernel-version',
      '--machine',
      '--processor',
      '--hardware-platform',
      '--operating-system',
    ],
    maxOperands: 0,
  },
  arch: { maxOperands: 0 },
  nproc: { long: ['--all'], longValue: ['--ignore'], maxOperands: 0 },
  getconf: { short: 'a', maxOperands: 2 },
  locale: {
    short: 'amkvc',
    long: ['--all-locales', '--charmaps', '--keyword-name', '--category-name', '--verbose'],
  },
  which: { short: 'a' },
  whereis: { short: 'bmsulf', shortValue: 'BMS' },
  type: { short: 'aftpP' },
  pwd: { short: 'LP', maxOperands: 0 },
  printenv: { short: '0', long: ['--null'] },
  // Plain `env` prints the environment; with operands it runs a command.
  env: { maxOperands: 0 },
  id: { short: 'ugGnrz', long: ['--user', '--group', '--groups', '--name', '--real', '--zero'] },
  whoami: { maxOperands: 0 },
  echo: { short: 'neE', stopAtOperand: true },
  printf: { stopAtOperand: true },
  true: {},
  false: {},
  test: { anyArguments: true },
  '[': { anyArguments: true },
  cd: { short: 'LP', maxOperands: 1 },
  // Listing only: no extraction, no program options, and no `host:archive` (run through rsh).
  tar: {
    short: 'tvzjJZaw',
    shortValue: 'fbH',
    long: [
      '--list',
      '--verbose',
      '--gzip',
      '--gunzip',
      '--bzip2',
      '--xz',
      '--lzma',
      '--zstd',
      '--auto-compress',
      '--numeric-owner',
      '--full-time',
      '--wildcards',
      '--no-wildcards',
      '--force-local',
    ],
    longValue: ['--file', '--blocking-factor', '--format'],
    check: ({ options }) => {
      if (!options.some((o) => o.name === '-t' || o.name === '--list'))
        return 'only listing an archive (tar -t) is allowed';
      const archive = options.find((o) => o.name === '-f' || o.name === '--file')?.value ?? '';
      if (archive.includes(':') && !options.some((o) => o.name === '--force-local'))
        return `the archive ${archive} names a remote host (run through rsh)`;
      return undefined;
    },
  },
  'pkg-config': {
    long: LISTED([
      '--cflags',
      '--libs',
      '--modversion',
      '--exists',
      '--print-errors',
      '--short-errors',
      '--list-all',
      '--static',
      '--print-variables',
      '--print-requires',
      '--print-requires-private',
      '--print-provides',
      '--cflags-only-I',
      '--cflags-only-other',
      '--libs-only-l',
      '--libs-only-L',
      '--libs-only-other',
      '--keep-system-cflags',
      '--keep-system-libs',
      '--validate',
      '--version',
      '--debug',
    ]),
    longValue: [
      '--variable',
      '--atleast-version',
      '--exact-version',
      '--max-version',
      '--atleast-pkgconfig-version',
    ],
  },
  dpkg: {
    short: 'lLSsp',
    long: [
      '--list',
      '--listfiles',
      '--search',
      '--status',
      '--print-avail',
      '--print-architecture',
      '--print-foreign-architectures',
      '--get-selections',
      '--compare-versions',
      '--version',
    ],
    check: ({ options }) =>
      options.length === 1
        ? undefined
        : 'exactly one query (-l, -L, -S, -s, -p, --print-architecture) is allowed',
  },
  'dpkg-query': {
    short: 'lLSsWp',
    shortValue: 'f',
    long: ['--list', '--listfiles', '--search', '--status', '--show', '--print-avail'],
    longValue: ['--showformat'],
  },
  // No -c/--command (runs one).
  'dpkg-architecture': {
    short: 'lLsuf',
    shortValue: 'qaAtTei',
    long: ['--list', '--list-known', '--print-set', '--print-unset', '--force'],
    longValue: [
      '--query',
      '--host-arch',
      '--target-arch',
      '--host-type',
      '--target-type',
      '--equal',
      '--is',
      '--match-wildcard',
      '--match-bits',
      '--match-endian',
    ],
  },
  // No -o/-c (configuration that could point apt at other files).
  'apt-cache': {
    stopAtOperand: true,
    short: 'q',
    subcommands: Object.fromEntries(
      [
        'show',
        'showsrc',
        'policy',
        'search',
        'showpkg',
        'depends',
        'rdepends',
        'madison',
        'pkgnames',
        'stats',
      ].map((name) => [
        name,
        {
          short: 'nfaiq',
          long: [
            '--names-only',
            '--full',
            '--all-versions',
            '--no-all-versions',
            '--important',
            '--installed',
            '--recurse',
            '--no-recommends',
            '--no-suggests',
            '--quiet',
          ],
        },
      ]),
    ),
  },
  'apt-file': {
    stopAtOperand: true,
    subcommands: Object.fromEntries(
      ['search', 'find', 'list', 'show'].map((name) => [
        name,
        { short: 'xiFl', long: ['--regexp', '--ignore-case', '--fixed-string', '--package-only'] },
      ]),
    ),
  },
  git: GIT,
  // sed only selects and prints: its script is read (sedPrintScript), -f script files and -i are not allowed.
  sed: {
    short: 'nErsuz',
    shortValue: 'e',
    long: [
      '--quiet',
      '--silent',
      '--regexp-extended',
      '--separate',
      '--unbuffered',
      '--null-data',
      '--posix',
      '--sandbox',
      '--debug',
    ],
    longValue: ['--expression'],
    check: ({ options, operands }) => {
      const scripts = options
        .filter((o) => o.name === '-e' || o.name === '--expression')
        .map((o) => o.value ?? '');
      if (scripts.length === 0) {
        if (operands.length === 0) return 'no script';
        scripts.push(operands[0] as string);
      }
      for (const script of scripts) {
        const problem = sedPrintScriptProblem(script);
        if (problem) return problem;
      }
      return undefined;
    },
  },
  find: {},
};

/** find's primaries that only test or print to standard output, and whether they take a value. */
const FIND_TESTS = new Set([
  '-print',
  '-print0',
  '-ls',
  '-prune',
  '-quit',
  '-true',
  '-false',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-nouser',
  '-nogroup',
  '-xdev',
  '-mount',
  '-depth',
  '-noleaf',
  '-daystart',
  '-follow',
  '-not',
  '-a',
  '-o',
  '-and',
  '-or',
  '!',
  '(',
  ')',
  ',',
]);
const FIND_VALUE_TESTS = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-regextype',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-size',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-samefile',
  '-newer',
  '-anewer',
  '-cnewer',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-used',
  '-maxdepth',
  '-mindepth',
  '-fstype',
  '-printf',
]);

function findProblem(args: readonly string[]): string | undefined {
  let i = 0;
  while (/^-[HLP]$/.test(args[i] ?? '')) i++;
  if (args[i] === '-D' || args[i]?.startsWith('-O')) return `find ${args[i]} is not allowed`;
  // Starting points: up to the first word that starts an expression.
  while (i < args.length && !/^[-!(),]/.test(args[i] as string)) i++;
  for (; i < args.length; i++) {
    const primary = args[i] as string;
    if (FIND_TESTS.has(primary)) continue;
    if (FIND_VALUE_TESTS.has(primary) || /^-newer[amcBt][amcBt]$/.test(primary)) {
      if (i + 1 >= args.length) return `find ${primary} needs a value`;
      i++;
      continue;
    }
    return /^-(exec|execdir|ok|okdir)$/.test(primary)
      ? `find ${primary} runs commands`
      : /^-(delete|fprint|fprint0|fprintf|fls)$/.test(primary)
        ? `find ${primary} writes or deletes files`
        : `find ${primary} is not allowed in a read-only inspection`;
  }
  return undefined;
}

/** Preprocessing only: no plugins, wrappers, other program directories, response files or outputs. */
const CPP_OPTION =
  /^-(E|P|C|CC|dM|dD|dN|dI|dU|H|v|w|undef|nostdinc|nostdinc\+\+|ansi|pedantic|traditional-cpp|trigraphs|pthread|std=[\w+]+|x[a-z+-]*|[DUI].*|isystem.*|idirafter.*|iquote.*|include|imacros|m[\w=.,+-]+|O[0-3sgz]?|W(?!p,|l,|a,)[\w=-]+|f(no-)?(?!plugin|dump|profile|auto-profile|debug-prefix|save|stack-usage|callgraph|opt-info|record|lto|diagnostics-)[\w-]+)$/;
const CPP_VALUE = new Set([
  '-x',
  '-D',
  '-U',
  '-I',
  '-isystem',
  '-idirafter',
  '-iquote',
  '-include',
  '-imacros',
]);
const COMPILERS = /^(gcc|g\+\+|cc|c\+\+|cpp|clang|clang\+\+)(-[0-9.]+)?$/;

function preprocessorProblem(name: string, args: readonly string[]): string | undefined {
  let operands = 0;
  // `-E` read as an option, not as the value of `-D -E`: otherwise gcc compiles and links.
  let preprocessOnly = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-E') preprocessOnly = true;
    if (arg === '-' || !arg.startsWith('-')) {
      if (arg.startsWith('@')) return `${arg} reads options from a file`;
      operands++;
      continue;
    }
    if (!CPP_OPTION.test(arg))
      return `${name} ${arg} is not a preprocessing option allowed here (it could write files or load code)`;
    if (CPP_VALUE.has(arg)) i++;
  }
  if (!preprocessOnly) return `${name} without -E as an option compiles and writes files`;
  // `cpp in out` writes out.
  if (name.startsWith('cpp') && operands > 1) return 'cpp writes its second operand';
  return undefined;
}

/**
 * Version and configuration queries, per tool: only the flag each tool reads as "print and exit".
 * Elsewhere `-v` means verbose and the tool goes on working: `python3 -v` runs the script on its
 * standard input, `autoreconf -v` regenerates the build system, `as -v` assembles standard input.
 */
const GCC_QUERIES = [
  '--version',
  '-v',
  '-dumpmachine',
  '-dumpversion',
  '-dumpfullversion',
  '-print-multiarch',
  '-print-sysroot',
  '-print-search-dirs',
  '-print-libgcc-file-name',
];
const VERSION_QUERIES: Readonly<Record<string, readonly string[]>> = {
  gcc: GCC_QUERIES,
  'g++': GCC_QUERIES,
  cc: GCC_QUERIES,
  'c++': GCC_QUERIES,
  cpp: ['--version'],
  clang: GCC_QUERIES,
  'clang++': GCC_QUERIES,
  ld: ['--version', '-v', '-V'],
  as: ['--version'],
  ar: ['--version', '-V'],
  make: ['--version', '-v'],
  cmake: ['--version'],
  meson: ['--version', '-v'],
  ninja: ['--version'],
  autoconf: ['--version'],
  automake: ['--version'],
  autoreconf: ['--version'],
  libtool: ['--version'],
  libtoolize: ['--version'],
  python: ['--version', '-V'],
  python3: ['--version', '-V'],
  perl: ['--version', '-v', '-V'],
  rustc: ['--version', '-V'],
  cargo: ['--version', '-V'],
  java: ['-version', '--version'],
  javac: ['-version', '--version'],
  bison: ['--version'],
  flex: ['--version'],
  m4: ['--version'],
  gettext: ['--version'],
  makeinfo: ['--version'],
  help2man: ['--version'],
};

/** Where an inspection's commands may come from: PATH, or the system's own program folders. */
const SYSTEM_PROGRAM = /^\/(usr\/)?s?bin\/[^/]+$/;

/**
 * Checks one simple command of a read-only inspection: the command is on the list, every option
 * is one it lists, no word is left for the shell to expand (variables, substitutions, patterns
 * that could turn into options) and nothing is written.
 */
export function checkInspectCommand(command: SimpleCommand): CommandVerdict {
  if (command.assignments.length > 0)
    return refuse('variable assignments are not allowed in a read-only inspection');
  for (const redirection of command.redirections) {
    const verdict = inspectRedirection(redirection);
    if (!verdict.allowed) return verdict;
  }
  const [first, ...rest] = command.words;
  if (!first) return ALLOWED;
  for (const word of command.words) {
    const unresolved = unresolvedWord(word);
    if (unresolved) return refuse(unresolved);
  }
  if (first.text.includes('/') && !SYSTEM_PROGRAM.test(posix.normalize(first.text))) {
    return refuse(
      `${first.text}: an inspection runs commands by name or from /usr/bin, not from another path`,
    );
  }
  const name = posix.basename(first.text).replace(/^(riscv64|x86_64)-linux-gnu-/, '');
  const args = rest.map((w) => w.text);
  // A file name can become sed's script (`s|^|touch x|e`) or tar's archive (`host:x`, run remotely).
  const pattern = rest.find((w) => w.glob);
  if ((name === 'sed' || name === 'tar') && pattern) {
    return refuse(
      `${name}: the pattern "${pattern.text}" could expand to a script or an archive name; name the files`,
    );
  }

  if (args.length === 1 && VERSION_QUERIES[name.replace(/-[0-9.]+$/, '')]?.includes(args[0] ?? ''))
    return ALLOWED;
  if (COMPILERS.test(name) && args.includes('-E')) {
    const problem = preprocessorProblem(name, args);
    return problem ? refuse(problem) : ALLOWED;
  }
  if (name === 'command' && /^-[vV]$/.test(args[0] ?? '') && args.length === 2) return ALLOWED;
  if (name === 'find') {
    const problem = findProblem(args);
    return problem ? refuse(problem) : ALLOWED;
  }
  const spec = INSPECT_COMMANDS[name];
  if (!spec) return refuse(`${name} is not a read-only inspection command`);
  const problem = specProblem(name, normaliseOldTar(name, args), spec);
  return problem ? refuse(problem) : ALLOWED;
}

/** `tar tzf x.tgz` is `tar -tzf x.tgz`. */
function normaliseOldTar(name: string, args: string[]): string[] {
  if (name !== 'tar' || !/^[tvzjJf]+$/.test(args[0] ?? '')) return args;
  return [`-${args[0]}`, ...args.slice(1)];
}

/** Why some refused options are refused, for the fixer's next try. */
const WHY: Readonly<Record<string, string>> = {
  'sed -i': 'edits files in place',
  'sed --in-place': 'edits files in place',
  'sed -f': 'reads a script file the guard cannot see',
  'tail -f': 'following a file never ends',
  'tail -F': 'following a file never ends',
  'tail --follow': 'following a file never ends',
  'sort -o': 'writes a file',
  'sort --output': 'writes a file',
  'sort --compress-program': 'runs a program',
  'git -c': 'sets configuration that can name programs to run',
  'git grep -O': 'runs a program on the files found',
  'git grep --open-files-in-pager': 'runs a program on the files found',
  'tar -x': 'only listing an archive (tar -t) is allowed',
  'tar -I': 'runs a program',
  'tar --to-command': 'runs a program',
  'tar --use-compress-program': 'runs a program',
  'tar --checkpoint-action': 'runs a program',
  'rg --pre': 'runs a program on each file',
  'dpkg -i': 'only queries (-l, -L, -S, -s, -p) are allowed',
  'find -exec': 'runs commands',
};

function specProblem(name: string, args: readonly string[], spec: InspectSpec): string | undefined {
  if (spec.anyArguments) return undefined;
  const parsed = parseOptions(args, spec);
  if (!parsed.ok) {
    const why = parsed.option ? WHY[`${name} ${parsed.option}`] : undefined;
    return `${name}: ${parsed.error}${why ? ` (${why})` : ''}`;
  }
  if (spec.subcommands) {
    const [sub, ...subArgs] = parsed.operands;
    if (sub === undefined) {
      return name === 'git' && parsed.options.some((o) => o.name === '--version')
        ? undefined
        : `${name} needs one of the sub-commands ${Object.keys(spec.subcommands).join(', ')}`;
    }
    const subSpec = spec.subcommands[sub];
    if (!subSpec) {
      return `${name} ${sub} is not allowed (read-only sub-commands: ${Object.keys(spec.subcommands).join(', ')})`;
    }
    return specProblem(`${name} ${sub}`, subArgs, subSpec);
  }
  if (spec.maxOperands !== undefined && parsed.operands.length > spec.maxOperands) {
    return spec.maxOperands === 0
      ? `${name} takes no operands here${name === 'env' ? ' (only plain `env`, which prints the environment)' : ''}`
      : `${name} takes at most ${spec.maxOperands} operand(s) here (more would be written or run)`;
  }
  const checked = spec.check?.(parsed);
  return checked ? `${name}: ${checked}` : undefined;
}

function unresolvedWord(word: ShellWord): string | undefined {
  if (word.dynamic)
    return `"${word.text}" is an expansion the guard cannot resolve; an inspection uses literal words only`;
  // `*` could turn into a file named `-exec` or `--pre=…`; `./*` cannot.
  if (word.glob && /^[-*?[]/.test(word.text)) {
    return `the pattern "${word.text}" could expand to an option; write it as ./${word.text.replace(/^-/, '')}`;
  }
  return undefined;
}

function inspectRedirection({ op, target }: Redirection): CommandVerdict {
  if (op === '<<' || op === '<<-' || op === '<<<') return ALLOWED;
  if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(target.text)) return ALLOWED;
  if (target.dynamic || target.glob)
    return refuse(`the redirection target "${target.text}" would be expanded`);
  if (op === '<') return ALLOWED;
  const path = target.text.startsWith('/') ? posix.normalize(target.text) : target.text;
  if (op !== '<' && (path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr'))
    return ALLOWED;
  return refuse(`a read-only inspection may not write ${target.text} (${op})`);
}
