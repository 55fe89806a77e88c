import { describe, expect, it } from 'vitest';
import { phpExtensionDependencies } from './phpExtensionDependencies.ts';

const extract = (text: string) =>
  phpExtensionDependencies.extract({ path: 'config.m4', text, lines: text.split('\n') });

describe('php extension dependencies', () => {
  it('asks for phpize, the PHP command line and the libraries config.m4 links', () => {
    const text = [
      'PHP_ARG_WITH([yaml], [for yaml support], [--with-yaml])',
      'PHP_CHECK_LIBRARY(yaml, yaml_parser_initialize, [], [AC_MSG_ERROR([no libyaml])])',
      'PHP_ADD_LIBRARY_WITH_PATH(yaml, $YAML_DIR/lib, YAML_SHARED_LIBADD)',
      'PHP_ADD_LIBRARY(stdc++, 1, YAML_SHARED_LIBADD)',
      'PHP_NEW_EXTENSION(yaml, yaml.c, $ext_shared)',
    ].join('\n');
    expect(extract(text).map((d) => `${d.kind}:${d.name}`)).toEqual([
      'program:phpize',
      'program:php',
      'library:yaml',
    ]);
    expect(extract('AC_DEFUN([MY_MACRO], [AC_CHECK_LIB(z, inflate)])')).toEqual([]);
  });
});
