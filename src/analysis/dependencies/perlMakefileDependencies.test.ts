import { describe, expect, it } from 'vitest';
import { perlMakefileDependencies } from './perlMakefileDependencies.ts';

const extract = (text: string) =>
  perlMakefileDependencies.extract({ path: 'Makefile.PL', text, lines: text.split('\n') });

describe('perl Makefile.PL dependencies', () => {
  it("reads the C libraries LIBS links and dl_findfile probes, not the compiler's own", () => {
    const text = [
      'use ExtUtils::MakeMaker;',
      "my $clib = DynaLoader::dl_findfile('GeoIP');",
      "$config{LIBS} .= ' -lGeoIP';",
      'WriteMakefile(',
      "    LIBS => ['-L/usr/local/lib -lxml2 -lz -lm'],",
      "    INC  => '-I/usr/include/libxml2',",
      ');',
    ].join('\n');
    expect(extract(text).map((d) => `${d.name}:${d.line}:${d.required}`)).toEqual([
      'GeoIP:3:true',
      'xml2:5:true',
      'z:5:true',
    ]);
    expect(extract("WriteMakefile(NAME => 'Foo::Bar', VERSION_FROM => 'lib/Foo/Bar.pm');")).toEqual([]);
  });
});
