import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, plainMakefile, portWithoutProofs } from '../helpers/localProject.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { provisionedImages } from '../sandbox/provisionedImages.ts';

// Library API drift: a program written for libgpiod 1 (gpiod_chip_open_by_name,
// gpiod_chip_get_line), built against trixie's libgpiod 2, whose headers no longer declare them.
// The port installs libgpiod-dev from the #include, the compile fails (gcc 14: an error), and the
// escalation names the library's package, its version and header, the names used and the
// header's nearest names, found in the sandbox's own headers and dpkg database.
const MINUTES = 60_000;
let home: string;
let work: string;

const makeProject = (name: string, files: Record<string, string>) => gitProject(join(work, name), files);
const port = (source: string, out: string) =>
  portWithoutProofs(source, { out: join(work, out), home, maxAttempts: 3 });

beforeAll(async () => {
  await provisionedImages();
  home = makePortHome('rvport-api-drift-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-api-drift-work-'));
}, 30 * MINUTES);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('a library API the sandbox no longer has', () => {
  it(
    'escalates naming the library, the names used and the nearest names',
    async () => {
      const dir = makeProject('gpiodv1', {
        'blink.c': [
          '#include <gpiod.h>',
          '#include <stdio.h>',
          'int main(void) {',
          '  struct gpiod_chip *chip = gpiod_chip_open_by_name("gpiochip0");',
          '  if (!chip) { puts("no chip"); return 1; }',
          '  struct gpiod_line *line = gpiod_chip_get_line(chip, 4);',
          '  return gpiod_line_request_output(line, "blink", 0);',
          '}',
          '',
        ].join('\n'),
        Makefile: plainMakefile('blink', 'blink.c', '-lgpiod'),
      });
      const result = await port(dir, 'out-gpiod');
      expect(result.kind).toBe('escalated');
      const drift = result.state?.apiDrift ?? [];
      expect(drift.map((d) => d.use.symbol)).toContain('gpiod_chip_get_line');
      expect(drift[0]?.package).toBe('libgpiod-dev');
      expect(drift[0]?.version).toMatch(/^2\./);
      expect(drift[0]?.header).toBe('/usr/include/gpiod.h');
      const escalation = readFileSync(join(result.outDir, 'escalation.md'), 'utf8');
      expect(escalation).toMatch(/libgpiod-dev 2\.[^ ]* \(`\/usr\/include\/gpiod\.h`\) no longer has/);
      expect(escalation).toContain('`gpiod_chip_get_line()`');
      expect(escalation).toContain("the header's nearest name: `gpiod_chip_get_info`");
    },
    30 * MINUTES,
  );
});
