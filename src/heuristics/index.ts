import { absentSubmodule } from './absentSubmodule.ts';
import { addLibatomic } from './addLibatomic.ts';
import { autoconfMacroPackage } from './autoconfMacroPackage.ts';
import { autoconfWithoutAutoheader } from './autoconfWithoutAutoheader.ts';
import { automakeMissingDirectory } from './automakeMissingDirectory.ts';
import { autotoolsAuxFiles } from './autotoolsAuxFiles.ts';
import { bootstrapAutotools } from './bootstrapAutotools.ts';
import { cmakeMissingPackage } from './cmakeMissingPackage.ts';
import { cmakeProjectMessage } from './cmakeProjectMessage.ts';
import { commonSymbols } from './commonSymbols.ts';
import { configureMissingDependency } from './configureMissingDependency.ts';
import { configureSuggestedSwitch } from './configureSuggestedSwitch.ts';
import { crateVersionFromDebian } from './crateVersionFromDebian.ts';
import { cxxNarrowing } from './cxxNarrowing.ts';
import { debianRulesBuild } from './debianRulesBuild.ts';
import { disableAutoBuilddir } from './disableAutoBuilddir.ts';
import { disableDependencyTracking } from './disableDependencyTracking.ts';
import { disableDocumentation } from './disableDocumentation.ts';
import { disableDownloadingOption } from './disableDownloadingOption.ts';
import { disableExamples } from './disableExamples.ts';
import { disableX86Options } from './disableX86Options.ts';
import { dropUnsupportedCompilerFlags } from './dropUnsupportedCompilerFlags.ts';
import { enableMaintainerMode } from './enableMaintainerMode.ts';
import { externErrno } from './externErrno.ts';
import { fetchContentFromDebian } from './fetchContentFromDebian.ts';
import { findBuildElsewhere } from './findBuildElsewhere.ts';
import { gitVersionFallback } from './gitVersionFallback.ts';
import { gnulibStdioInternals } from './gnulibStdioInternals.ts';
import { haveDeclDefine } from './haveDeclDefine.ts';
import { hostMultiarchFolder } from './hostMultiarchFolder.ts';
import { includeCstdint } from './includeCstdint.ts';
import { includeNamedHeader } from './includeNamedHeader.ts';
import { installMissingPackage } from './installMissingPackage.ts';
import { linkNamedLibrary } from './linkNamedLibrary.ts';
import { makefilePlatformVariable } from './makefilePlatformVariable.ts';
import { mcmodelMedany } from './mcmodelMedany.ts';
import { mesonMissingDependency } from './mesonMissingDependency.ts';
import { mesonWrapDownload } from './mesonWrapDownload.ts';
import { missingBuildTool } from './missingBuildTool.ts';
import { missingCompiler } from './missingCompiler.ts';
import { otherBuildSystem } from './otherBuildSystem.ts';
import { perlModulePackage } from './perlModulePackage.ts';
import { permissiveOldC } from './permissiveOldC.ts';
import { prestandardCxxHeader } from './prestandardCxxHeader.ts';
import { pythonImpShim } from './pythonImpShim.ts';
import { pythonModulePackage } from './pythonModulePackage.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { raiseCxxStandard } from './raiseCxxStandard.ts';
import { refreshConfigGuess } from './refreshConfigGuess.ts';
import { serialMake } from './serialMake.ts';
import { skipDocumentationSubdir } from './skipDocumentationSubdir.ts';
import { treeHeaderFolder } from './treeHeaderFolder.ts';
import { versionedDependencySpelling } from './versionedDependencySpelling.ts';
import { keepWarningsWarnings } from './warningsAsErrors.ts';

/**
 * Every recovery heuristic, in the order they are offered a failure (the first match wins).
 * Specific causes come before broad ones; the one-job retry is last. Adding one is one file and
 * one line here.
 */
export const recoveryHeuristics: readonly RecoveryHeuristic[] = [
  refreshConfigGuess,
  bootstrapAutotools,
  autotoolsAuxFiles,
  autoconfMacroPackage,
  autoconfWithoutAutoheader,
  automakeMissingDirectory,
  // Before the package installs: a file of an empty submodule is missing because of the checkout.
  absentSubmodule,
  // Before the projects' own CMake messages: `Cannot determine version` is git's, not a package's.
  gitVersionFallback,
  // Before the package installs: the file is there, in riscv64's multiarch folder, not x86_64's.
  hostMultiarchFolder,
  installMissingPackage,
  // The build systems' own words for a missing dependency, after the compiler's and pkg-config's.
  cmakeMissingPackage,
  cmakeProjectMessage,
  mesonMissingDependency,
  // a wrap meson would download: the system's copy, or the escalation names the wrap
  mesonWrapDownload,
  // a configure check for a C++ header of before 1998 that the code never includes
  prestandardCxxHeader,
  configureMissingDependency,
  // Debian's crate registry has another version of a crate the manifest asks for
  crateVersionFromDebian,
  // After the dependency installs: a switch configure names is for going on without the part.
  configureSuggestedSwitch,
  missingBuildTool,
  // a versioned command in another system's spelling (lua53): the makefile's settings in Debian's
  versionedDependencySpelling,
  // an include of one configuration file per platform, by a variable nobody set (Make.$(CONF))
  makefilePlatformVariable,
  // a release without what maintainer mode generates, when the build says so itself
  enableMaintainerMode,
  missingCompiler,
  pythonImpShim,
  pythonModulePackage,
  perlModulePackage,
  disableDownloadingOption,
  // When the download is not part of an optional switch: the dependency from Debian.
  fetchContentFromDebian,
  disableX86Options,
  dropUnsupportedCompilerFlags,
  addLibatomic,
  externErrno,
  commonSymbols,
  mcmodelMedany,
  gnulibStdioInternals,
  // an installed header's declaration that clashes with the C library's, guarded by HAVE_DECL_NAME
  haveDeclDefine,
  // a newer C++ than the build asks for, before the headers GCC names for what it lacks
  raiseCxxStandard,
  // the header GCC names for an undeclared name, then <cstdint> where it names none
  includeNamedHeader,
  includeCstdint,
  // C++ of before 2011 with a narrowing constant, which C++11 made an error
  cxxNarrowing,
  keepWarningsWarnings,
  // Before -fpermissive: example programs that fail are left out rather than compiled leniently.
  disableExamples,
  // after it: an example program's link that leaves out libm goes with the examples
  linkNamedLibrary,
  permissiveOldC,
  findBuildElsewhere,
  disableAutoBuilddir,
  disableDependencyTracking,
  disableDocumentation,
  skipDocumentationSubdir,
  // a header the tree has in a folder the compile does not search, before a retry with one job
  treeHeaderFolder,
  serialMake,
  // last resorts: the tree's other build system, then Debian's own build of a debian: source
  otherBuildSystem,
  debianRulesBuild,
];
export { cmakeMissing } from './cmakeMissingPackage.ts';
export { DEBIAN_RULES_BUILD, debianBuildFromPackaging } from './debianRulesBuild.ts';
export { parseMissingPackage } from './installMissingPackage.ts';
export { stemOf } from './installNamedDependency.ts';
export { mesonMissing } from './mesonMissingDependency.ts';
export { missingTool } from './missingBuildTool.ts';
export { describeSubmodule, missingSubmoduleIn, submoduleNamedIn } from './missingSubmodule.ts';
export { withCompilerFlag, withEnv } from './planEdits.ts';
export type { FailedStep, HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';
export { NOTHING_PROVEN_PHASE } from './RecoveryHeuristic.ts';
export type { HeuristicFiring } from './runHeuristics.ts';
export { runHeuristics } from './runHeuristics.ts';
