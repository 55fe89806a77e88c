import { describe, expect, it } from 'vitest';
import { foreignScope, withoutForeignScopes } from './qmakeScopes.ts';

describe('qmake platform scopes', () => {
  it('knows which conditions are never true on Linux', () => {
    expect(foreignScope('macx')).toBe(true);
    expect(foreignScope('win32|macx')).toBe(true);
    expect(foreignScope('win32-g++')).toBe(true);
    expect(foreignScope('macx:!ios')).toBe(true);
    expect(foreignScope('unix:!macx')).toBe(false);
    expect(foreignScope('unix|macx')).toBe(false);
    expect(foreignScope('linux')).toBe(false);
    expect(foreignScope('!win32')).toBe(false);
  });

  it("blanks what a foreign scope holds and keeps its else branch and Linux's lines", () => {
    const text = [
      'SOURCES += a.cpp',
      'macx {',
      '  OBJECTIVE_SOURCES += b.mm',
      '  contains(QT_ARCH, arm64) { DEFINES += ARM }',
      '} else {',
      '  SOURCES += x11.cpp',
      '}',
      'win32:LIBS += -lws2_32',
      'unix:!macx: LIBS += -lX11',
      'isEmpty(PREFIX): PREFIX = /usr/local',
    ].join('\n');
    expect(withoutForeignScopes(text).split('\n')).toEqual([
      'SOURCES += a.cpp',
      '',
      '',
      '',
      '',
      '  SOURCES += x11.cpp',
      '}',
      '',
      'unix:!macx: LIBS += -lX11',
      'isEmpty(PREFIX): PREFIX = /usr/local',
    ]);
  });
});
