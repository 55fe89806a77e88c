import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rvportHome } from '../../src/config/rvportHome.ts';

/**
 * A throwaway RVPORT_HOME for integration tests that shares the machine's provisioned sandbox
 * images and Debian Contents index (symlinks), so ports neither provision nor download them again,
 * while recipes, runs and sources stay private to the test.
 */
export function makePortHome(prefix = 'rvport-test-home-'): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const shared = rvportHome();
  mkdirSync(join(shared, 'sandbox'), { recursive: true });
  symlinkSync(join(shared, 'sandbox'), join(home, 'sandbox'));
  if (existsSync(join(shared, 'debian-contents')))
    symlinkSync(join(shared, 'debian-contents'), join(home, 'debian-contents'));
  return home;
}
