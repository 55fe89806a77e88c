import { describe, expect, it } from 'vitest';
import { autoconfDependencies } from './autoconfDependencies.ts';

const extract = (text: string) =>
  autoconfDependencies.extract({ path: 'configure.ac', text, lines: text.split('\n') });

describe('autoconf dependencies', () => {
  it('reads PKG_CHECK_MODULES, AC_CHECK_LIB, AC_SEARCH_LIBS, AC_CHECK_HEADERS and AC_CHECK_PROG', () => {
    const text = [
      'PKG_CHECK_MODULES([XML], [libxml-2.0 >= 2.9])',
      'PKG_CHECK_MODULES([SSL], [openssl], [have_ssl=yes], [have_ssl=no])',
      'AC_CHECK_LIB([z], [inflate])',
      'AC_SEARCH_LIBS([clock_gettime], [rt posix4])',
      'AC_CHECK_HEADERS([zlib.h sys/mman.h])',
      'dnl AC_CHECK_LIB([ignored], [x])',
      'AC_CHECK_PROG([HELP2MAN], [help2man], [help2man])',
    ].join('\n');
    expect(extract(text).map((d) => `${d.kind}:${d.name}:${d.line}:${d.required}`)).toEqual([
      'pkg-config:libxml-2.0:1:true',
      'pkg-config:openssl:2:false',
      'library:z:3:false',
      'library:rt:4:false',
      'library:posix4:4:false',
      'header:zlib.h:5:false',
      'header:sys/mman.h:5:false',
      'program:help2man:7:false',
    ]);
  });
});
