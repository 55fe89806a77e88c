import type { BuildScript } from './BuildScript.ts';
import { commentText } from './commentText.ts';

/**
 * A Dockerfile for a linux/riscv64 Debian trixie container that builds the port with build.sh.
 * The source goes in a `source/` folder beside it; nothing of the plan is written here but the
 * (checked) file layout, so the plan's data stays in build.sh's quoting.
 */
export function renderDockerfile(script: BuildScript): string {
  const name = commentText(script.name);
  const tag = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-') || 'port';
  return [
    `# Builds ${name} for riscv64 Linux in a Debian trixie container, with build.sh.`,
    ...(script.verified
      ? []
      : ['# NOT VERIFIED: the build succeeded, but rvport proved no riscv64 output of it.']),
    `# Put the source in source/ beside this file (a plain folder${script.commit ? ` at commit ${script.commit}` : ''}), then:`,
    `#   docker buildx build --platform linux/riscv64 -t ${tag}-riscv64 .`,
    '# (an x86_64 host needs qemu-user binfmt support). The installed files end up in /build/dest.',
    'FROM --platform=linux/riscv64 debian:trixie',
    'COPY source/ /build/src/',
    'COPY build.sh packages.txt /build/recipe/',
    ...([...script.debianPatches, ...script.patches].length ? ['COPY patches/ /build/recipe/patches/'] : []),
    'ENV DESTDIR=/build/dest',
    'WORKDIR /build',
    'RUN sh /build/recipe/build.sh /build/src',
    '',
  ].join('\n');
}
