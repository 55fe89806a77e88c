import { ServeError } from './ServeError.ts';

/**
 * A folder name the dashboard accepts in a request: what `rvport port` names a port folder after
 * (a package name) and what a batch folder is called. No `/`, no `..`, no leading dot, nothing a
 * shell or a URL would read twice.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._+~-]{0,199}$/;
/** Parts of a port key: `NAME` or `BATCH/NAME`. */
const MAX_KEY_PARTS = 2;
const MAX_PATH_LENGTH = 4096;

export function isFolderName(name: string): boolean {
  return NAME.test(name) && name !== '.' && name !== '..';
}

/** A port key from a request (`cjson`, `ports/cjson`), refused unless every part is a plain name. */
export function parsePortKey(value: string | undefined): string {
  if (value === undefined || value === '')
    throw new ServeError('bad-request', 'the port key is missing (?key=NAME)');
  const parts = value.split('/');
  if (parts.length > MAX_KEY_PARTS || !parts.every(isFolderName))
    throw new ServeError(
      'bad-request',
      `${JSON.stringify(value.slice(0, 200))} is not a port key (NAME or BATCH/NAME)`,
    );
  return value;
}

/** A batch key: `.` (the output folder itself) or a folder name in it. */
export function parseBatchKey(value: string | undefined): string {
  if (value === undefined || value === '')
    throw new ServeError('bad-request', 'the batch key is missing (?key=NAME)');
  if (value !== '.' && !isFolderName(value))
    throw new ServeError('bad-request', `${JSON.stringify(value.slice(0, 200))} is not a batch key`);
  return value;
}

/**
 * A file's path inside a port's folder from a request: relative, `/`-separated, no `..`, no `.`
 * part, no empty part, no NUL and no backslash. The read itself is confined too (src/fs, which
 * never follows a link out of the tree); this refuses the obvious early, with a 400.
 */
export function parseFilePath(value: string | undefined): string {
  if (value === undefined || value === '')
    throw new ServeError('bad-request', 'the file path is missing (?path=…)');
  const shown = JSON.stringify(value.slice(0, 200));
  if (value.length > MAX_PATH_LENGTH || value.includes('\0') || value.includes('\\'))
    throw new ServeError('bad-request', `${shown} is not a file path`);
  if (value.startsWith('/'))
    throw new ServeError('bad-request', `${shown} is absolute; paths are relative to the port's folder`);
  const parts = value.split('/');
  if (parts.some((p) => p === '..'))
    throw new ServeError('bad-request', `${shown} leads out of the port's folder (..)`);
  if (parts.some((p) => p === '' || p === '.'))
    throw new ServeError('bad-request', `${shown} is not a plain relative path`);
  return value;
}

/** A 1-based page number from a request; a missing one is page 1. */
export function parsePage(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1)
    throw new ServeError(
      'bad-request',
      `page ${JSON.stringify(value.slice(0, 50))} is not a whole number of 1 or more`,
    );
  return Number(value);
}
