import { describe, expect, it } from 'vitest';
import { makeBuildGoal } from './makeBuildGoal.ts';

describe('makeBuildGoal', () => {
  it('picks the goal that builds everything when the default goal prints a help text', () => {
    const makefile = [
      'CXX=g++',
      'all:',
      '\t@echo targets:',
      '\t@echo -------',
      '\t@echo server   requires libfoo',
      '',
      'everything: $(BINARIES) config.inc',
      '',
      'server: $(OBJS)',
      '\t$(CXX) -o $@ $(OBJS)',
      '',
      'install: everything',
      '\tcp server /usr/bin',
      'clean:',
      '\trm -f *.o',
    ].join('\n');
    expect(makeBuildGoal(makefile)).toBe('everything');
  });

  it('keeps plain make when the default goal builds', () => {
    expect(makeBuildGoal('all: prog\n\nprog: prog.o\n\t$(CC) -o $@ $^\n')).toBeNull();
    expect(makeBuildGoal('prog: prog.c\n\techo building\n\t$(CC) -o $@ $<\n')).toBeNull();
  });

  it('follows .DEFAULT_GOAL and falls back to the widest rule', () => {
    const makefile = [
      '.DEFAULT_GOAL := usage',
      'tool: tool.o',
      '\t$(CC) -o $@ $^',
      'usage:',
      '\t@printf "make tools\\n"',
      'tools: tool helper',
      'clean:',
      '\trm -f tool',
    ].join('\n');
    expect(makeBuildGoal(makefile)).toBe('tools');
  });

  it('finds nothing better in a help-only Makefile', () => {
    expect(makeBuildGoal('help:\n\t@echo see README\nclean:\n\trm -f x\n')).toBeNull();
  });
});
