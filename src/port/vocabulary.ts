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
  'TIMEOUT',
  'LICENSE_INCOMPATIBLE',
  'REQUIRES_HARDWARE',
  'ARCHITECTURE_IMPOSSIBLE',
  /** The source could not be fetched or unpacked (a 404 from the archive, a bad SOURCE). */
  'SOURCE_UNAVAILABLE',
  'UNKNOWN',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** Errors no fix can get past: the port stops and a person decides. */
export const FUNDAMENTAL_BLOCKERS: ReadonlySet<ErrorCategory> = new Set([
  'LICENSE_INCOMPATIBLE',
  'REQUIRES_HARDWARE',
  'ARCHITECTURE_IMPOSSIBLE',
]);

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
