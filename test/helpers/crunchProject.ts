/**
 * A compute-bound package of our own for performance mode: a plain Makefile that honours CFLAGS
 * and LDFLAGS, a static library, a program and a check target (`crunch N` prints a checksum).
 */
export const CRUNCH_PROJECT: Record<string, string> = {
  Makefile: [
    'CFLAGS ?= -O2',
    'all: crunch',
    'crunch: main.o libcrunch.a',
    '\t$(CC) $(CFLAGS) $(LDFLAGS) -o $@ main.o libcrunch.a',
    'libcrunch.a: crunch.o',
    '\t$(AR) rcs $@ crunch.o',
    '%.o: %.c',
    '\t$(CC) $(CFLAGS) -c -o $@ $<',
    'check: crunch',
    '\t@test "$$(./crunch 1000)" = "checksum 14396166244325187930" && echo "PASS: crunch 1000"',
    '',
  ].join('\n'),
  'crunch.c': [
    '#include <stdint.h>',
    '/* A fixed amount of integer work: xorshift, rotations, bit counts. */',
    'uint64_t crunch(uint64_t n) {',
    '  uint64_t x = 0x9E3779B97F4A7C15ull, acc = 0;',
    '  for (uint64_t i = 0; i < n; i++) {',
    '    x ^= x << 13;',
    '    x ^= x >> 7;',
    '    x ^= x << 17;',
    '    uint64_t r = (x << 23) | (x >> 41);',
    '    acc += (uint64_t)__builtin_popcountll(r) + (uint64_t)__builtin_ctzll(x | 1) + ((acc + r) & ~x);',
    '  }',
    '  return acc;',
    '}',
    '',
  ].join('\n'),
  'main.c': [
    '#include <stdint.h>',
    '#include <stdio.h>',
    '#include <stdlib.h>',
    'uint64_t crunch(uint64_t n);',
    'int main(int argc, char **argv) {',
    '  if (argc > 1 && argv[1][0] == \'-\') { puts("crunch 1.0"); return 0; }',
    '  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 1000;',
    '  printf("checksum %llu\\n", (unsigned long long)crunch(n));',
    '  return 0;',
    '}',
    '',
  ].join('\n'),
};
