import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rvportHome } from '../../src/config/rvportHome.ts';

/**
 * A fresh RVPORT_HOME (no recipes, runs or sources) that shares the machine's provisioned
 * sandbox images and Debian Contents index, so real ports run without provisioning again.
 */
export function throwawayHome(prefix = 'rvport-home-'): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const shared = rvportHome();
  mkdirSync(join(shared, 'sandbox'), { recursive: true });
  symlinkSync(join(shared, 'sandbox'), join(home, 'sandbox'));
  if (existsSync(join(shared, 'debian-contents')))
    symlinkSync(join(shared, 'debian-contents'), join(home, 'debian-contents'));
  return home;
}
