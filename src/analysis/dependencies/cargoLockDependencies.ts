import type { DependencyExtractor } from './Dependency.ts';
import { fromRegistry, parseCargoLock } from './parseCargoLock.ts';

/**
 * The registry crates a Cargo.lock pins, each with its exact version: resolution matches them
 * to the Cargo.toml requirements and keeps the rest as the transitive crates the lock asked for.
 */
export const cargoLockDependencies: DependencyExtractor = {
  name: 'cargo-lock',
  files: /(^|\/)Cargo\.lock$/,
  buildSystems: ['cargo'],
  extract(file) {
    return parseCargoLock(file.text)
      .filter(fromRegistry)
      .map((c) => ({
        kind: 'crate' as const,
        name: c.name,
        file: file.path,
        line: 0,
        required: false,
        crate: { requirement: `=${c.version}`, scope: 'lock' as const, locked: c.version },
      }));
  },
};
