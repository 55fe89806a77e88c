import type { DependencyExtractor, RawDependency } from './Dependency.ts';
import { parseCargoManifest } from './parseCargoManifest.ts';

/**
 * The crates a Cargo.toml depends on from a registry. Cargo resolves every one of them before it
 * builds anything (dev-dependencies, optional ones and other targets' included: they all go into
 * the lock), so all are needed offline; only the workspace's own table is a list of
 * declarations that members pick from. Path dependencies are the tree's own crates.
 */
export const cargoDependencies: DependencyExtractor = {
  name: 'cargo',
  files: /(^|\/)Cargo\.toml$/,
  buildSystems: ['cargo'],
  extract(file) {
    return parseCargoManifest(file.text)
      .filter((d) => d.source !== 'path')
      .map(
        (d): RawDependency => ({
          kind: 'crate',
          name: d.name,
          file: file.path,
          line: d.line,
          required: d.scope !== 'workspace',
          crate: { requirement: d.fromWorkspace ? '*' : d.requirement, scope: d.scope },
        }),
      );
  },
};
