import { autoconfDependencies } from './autoconfDependencies.ts';
import { automakeGeneratedFiles } from './automakeGeneratedFiles.ts';
import { cargoDependencies } from './cargoDependencies.ts';
import { cargoLockDependencies } from './cargoLockDependencies.ts';
import { cmakeDependencies } from './cmakeDependencies.ts';
import type { DependencyExtractor } from './Dependency.ts';
import { goImportDependencies } from './goImportDependencies.ts';
import { goModDependencies } from './goModDependencies.ts';
import { imakeDependencies } from './imakeDependencies.ts';
import { mesonDependencies } from './mesonDependencies.ts';
import { perlMakefileDependencies } from './perlMakefileDependencies.ts';
import { phpExtensionDependencies } from './phpExtensionDependencies.ts';
import { pythonBuildDependencies } from './pythonBuildDependencies.ts';
import { rPackageDependencies } from './rPackageDependencies.ts';

/** Every build-file reader that extracts dependencies. */
export const dependencyExtractors: readonly DependencyExtractor[] = [
  autoconfDependencies,
  automakeGeneratedFiles,
  cmakeDependencies,
  mesonDependencies,
  pythonBuildDependencies,
  perlMakefileDependencies,
  phpExtensionDependencies,
  rPackageDependencies,
  imakeDependencies,
  goModDependencies,
  goImportDependencies,
  cargoDependencies,
  cargoLockDependencies,
];

export * from './Dependency.ts';
