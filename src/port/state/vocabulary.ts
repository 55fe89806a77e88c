/** Where a port stands (SPEC section 4). */
export const BUILD_STATUSES = [
  'PENDING',
  'PLANNING',
  'SCOUTING',
  'BUILDING',
  'TESTING',
  'FIXING',
  'SUCCESS',
  'FAILED',
  'ESCALATED',
] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

export const ERROR_CATEGORIES = [
  'DEPENDENCY',
  'MISSING_TOOLS',
  'CONFIGURATION',
  'COMPILATION',
  'LINKING',
  'ARCHITECTURE',
  'NETWORK',
  'RATE_LIMIT',
  'PERMISSION',
  'DISK_SPACE',
  'MEMORY_LIMIT',
  'PROCESS_LIMIT',
  'OUTPUT_LIMIT',
  'TIMEOUT',
  'LICENSE_INCOMPATIBLE',
  'REQUIRES_HARDWARE',
  'ARCHITECTURE_IMPOSSIBLE',
  /** The source could not be fetched or unpacked (a 404 from the archive, a bad SOURCE). */
  'SOURCE_UNAVAILABLE',
  'UNKNOWN',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/**
 * Errors no fix can get past: the port stops and a person decides. SOURCE_UNAVAILABLE among them:
 * code the source lacks (a submodule without content, a vendored folder a release leaves out)
 * is not something a fix to the build can write; the heuristics that build without it have had
 * their go before the error is recorded.
 */
export const FUNDAMENTAL_BLOCKERS: ReadonlySet<ErrorCategory> = new Set([
  'LICENSE_INCOMPATIBLE',
  'REQUIRES_HARDWARE',
  'ARCHITECTURE_IMPOSSIBLE',
  'SOURCE_UNAVAILABLE',
]);

/** A limit of the sandbox stopped the command: the port ends, with the limit named. */
export const SANDBOX_LIMIT_CATEGORIES: ReadonlySet<ErrorCategory> = new Set([
  'DISK_SPACE',
  'MEMORY_LIMIT',
  'PROCESS_LIMIT',
  'OUTPUT_LIMIT',
]);

/** The category of each limit the sandbox enforces. */
export const LIMIT_CATEGORY = {
  disk: 'DISK_SPACE',
  memory: 'MEMORY_LIMIT',
  processes: 'PROCESS_LIMIT',
  output: 'OUTPUT_LIMIT',
} as const satisfies Record<string, ErrorCategory>;

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
