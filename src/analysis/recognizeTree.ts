import type { SourceTree } from './SourceTree.ts';

/** What a tree rvport has no standard plan for is, and what would build it. */
export interface RecognizedTree {
  /** `a Raku distribution` */
  what: string;
  /** The file that says so. */
  evidence: string;
  /** The tool or command its own ecosystem builds it with. */
  buildsWith: string;
}

interface Marker {
  what: string;
  buildsWith: string;
  /** A file at the top (exact name) or a name ending. */
  file?: string;
  ending?: string;
}

/**
 * Files by which ecosystems outside rvport's build systems say how a tree builds, in order of how
 * specific they are. Each is a fact of the ecosystem, not of any one package.
 */
const MARKERS: readonly Marker[] = [
  {
    file: 'META6.json',
    what: 'a Raku distribution',
    buildsWith: 'zef (`zef build .`, `zef test .`) or its Build.rakumod',
  },
  { file: 'dune-project', what: 'an OCaml project', buildsWith: 'dune (`dune build`)' },
  { ending: '.opam', what: 'an OCaml package', buildsWith: 'opam and its build: field (usually dune)' },
  { ending: '.cabal', what: 'a Haskell package', buildsWith: 'cabal (`cabal build`) with GHC' },
  { file: 'stack.yaml', what: 'a Haskell project', buildsWith: 'stack (`stack build`)' },
  { file: 'mix.exs', what: 'an Elixir project', buildsWith: 'mix (`mix compile`)' },
  { file: 'rebar.config', what: 'an Erlang project', buildsWith: 'rebar3 (`rebar3 compile`)' },
  { file: 'build.sbt', what: 'a Scala project', buildsWith: 'sbt' },
  { file: 'pom.xml', what: 'a Java project', buildsWith: 'Maven (`mvn package`)' },
  { file: 'build.gradle', what: 'a JVM project', buildsWith: 'Gradle' },
  { file: 'build.gradle.kts', what: 'a JVM project', buildsWith: 'Gradle' },
  { file: 'build.xml', what: 'a Java project', buildsWith: 'Ant' },
  { file: 'project.clj', what: 'a Clojure project', buildsWith: 'Leiningen' },
  { file: 'Package.swift', what: 'a Swift package', buildsWith: 'swift build' },
  { file: 'pubspec.yaml', what: 'a Dart package', buildsWith: 'dart / flutter' },
  { file: 'shard.yml', what: 'a Crystal project', buildsWith: 'shards (`shards build`)' },
  { ending: '.nimble', what: 'a Nim package', buildsWith: 'nimble (`nimble build`)' },
  { file: 'dub.json', what: 'a D project', buildsWith: 'dub (`dub build`)' },
  { file: 'dub.sdl', what: 'a D project', buildsWith: 'dub (`dub build`)' },
  { ending: '.rockspec', what: 'a Lua rock', buildsWith: 'luarocks (`luarocks make`)' },
  { ending: '.gemspec', what: 'a Ruby gem', buildsWith: 'gem build / rake compile' },
  { file: 'composer.json', what: 'a PHP package', buildsWith: 'composer (PHP code needs no compiling)' },
  { file: 'DESCRIPTION', what: 'an R package', buildsWith: 'R CMD INSTALL' },
  { file: 'package.json', what: 'a Node.js package', buildsWith: 'npm (`npm install`, `npm run build`)' },
  { ending: '.csproj', what: 'a .NET project', buildsWith: 'dotnet build' },
  { ending: '.sln', what: 'a Visual Studio solution', buildsWith: 'MSBuild / dotnet build' },
  { file: 'Build.PL', what: 'a Perl distribution', buildsWith: 'Module::Build (`perl Build.PL && ./Build`)' },
  { file: 'dist.ini', what: 'a Perl distribution in Dist::Zilla form', buildsWith: 'dzil build' },
];

/** The marker at the top of the tree, or null when nothing says what the tree is. */
export function recognizeTree(tree: SourceTree): RecognizedTree | null {
  const top = tree.filesIn('');
  for (const marker of MARKERS) {
    const file = marker.file
      ? top.find((f) => f === marker.file)
      : top.find((f) => f.endsWith(marker.ending as string) && f.length > (marker.ending as string).length);
    if (file) return { what: marker.what, evidence: file, buildsWith: marker.buildsWith };
  }
  if (tree.has('debian/rules')) {
    return {
      what: 'a tree with Debian packaging',
      evidence: 'debian/rules',
      buildsWith: "Debian's own build (`dpkg-buildpackage -B`)",
    };
  }
  return null;
}

/** `the tree is a Raku distribution (META6.json), which zef … builds`: for an escalation. */
export function describeRecognized(r: RecognizedTree): string {
  return `the tree is ${r.what} (${r.evidence}), which ${r.buildsWith} builds`;
}
