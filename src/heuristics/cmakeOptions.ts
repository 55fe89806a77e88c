import { posix } from 'node:path';
import { readTextConfined } from '../fs/index.ts';

/** Files read at most: the top CMakeLists.txt and what it includes by a literal name. */
const MAX_FILES = 12;
const MAX_BYTES = 1024 * 1024;

/**
 * The options a CMake project declares (`option(NAME …)`, `cmake_dependent_option(NAME …)`) in
 * its top CMakeLists.txt and the files that one includes by a literal relative name
 * (`include(CMakeOptions.txt)`, `include(cmake/options.cmake)`), plus whether it reads CTest's
 * BUILD_TESTING. Read confined to the tree: the project's files are hostile.
 */
export function declaredCmakeOptions(root: string, dir: string): { options: string[]; text: string } {
  const options = new Set<string>();
  const texts: string[] = [];
  const queue = ['CMakeLists.txt'];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const rel = queue.shift() as string;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const { text } = readTextConfined(root, posix.join(dir, rel), { maxBytes: MAX_BYTES });
    if (text === null) continue;
    texts.push(text);
    for (const m of text.matchAll(/^\s*(?:cmake_dependent_)?option\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\b/gim))
      options.add(m[1] as string);
    for (const m of text.matchAll(/^\s*include\s*\(\s*"?([\w./-]+\.(?:txt|cmake))"?\s*\)/gim)) {
      const name = m[1] as string;
      if (!name.startsWith('/') && !name.split('/').includes('..')) queue.push(name);
    }
  }
  return { options: [...options], text: texts.join('\n') };
}
