import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { isRecipeCacheError, MAX_BUNDLE_BYTES, RecipeCache } from '../../recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../recipes/recipeCacheDir.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { UsageError } from '../UsageError.ts';

export function registerCacheCommand(program: Command, ctx: CliContext): void {
  const cache = program.command('cache').description('the recipe cache: verified ports, reused instantly');
  const open = () => new RecipeCache(recipeCacheDir());

  cache
    .command('list')
    .description('list cached recipes')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const { entries, problems } = await open().list();
      for (const p of problems) ctx.err(`rvport: warning: ${p}\n`);
      if (opts.json) {
        const rows = entries.map((e) => ({
          package: e.package,
          imageId: e.imageId,
          source: e.source,
          buildSystem: e.buildSystem,
          verdict: e.verification.verdict,
          createdAt: e.createdAt,
        }));
        ctx.out(`${JSON.stringify(rows, null, 2)}\n`);
      } else if (entries.length === 0) {
        ctx.out(`no recipes in ${open().dir}\n`);
      } else {
        for (const e of entries) {
          ctx.out(
            `${e.package}  ${e.verification.verdict}  ${e.buildSystem}  ${e.imageId}  ${e.createdAt}\n`,
          );
        }
      }
    });

  cache
    .command('show <name>')
    .description('print the recipe of a package (all images)')
    .option('--json', 'the full cache entries as JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      const { entries, problems } = await open().list();
      for (const p of problems) ctx.err(`rvport: warning: ${p}\n`);
      const mine = entries.filter((e) => e.package === name);
      if (mine.length === 0) throw new UsageError(`no cached recipe for '${name}'`);
      ctx.out(opts.json ? `${JSON.stringify(mine, null, 2)}\n` : mine.map((e) => e.recipe).join('\n---\n'));
    });

  cache
    .command('rm <name>')
    .description('remove the cached recipes of a package')
    .option('--image <id>', 'only the entry of this sandbox image')
    .action(async (name: string, opts: { image?: string }) => {
      const removed = await open().remove(name, opts.image);
      if (removed === 0) throw new UsageError(`no cached recipe for '${name}'`);
      ctx.err(`removed ${removed} recipe${removed === 1 ? '' : 's'} of '${name}'\n`);
    });

  cache
    .command('export <file>')
    .description('write cached recipes to one JSON bundle file (- for stdout)')
    .option('--package <name>', 'only this package')
    .action(async (file: string, opts: { package?: string }) => {
      const bundle = await open().exportBundle(opts.package);
      if (file === '-') ctx.out(bundle);
      else await writeFile(file, bundle);
    });

  cache
    .command('import <file>')
    .description('add the recipes of a bundle file to the cache')
    .action(async (file: string) => {
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const stat = statSync(file);
      if (!stat.isFile()) throw new UsageError(`${file} is not a file`);
      // checked before reading: a bundle is someone else's file
      if (stat.size > MAX_BUNDLE_BYTES)
        throw new UsageError(`${file} is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MiB; refusing it`);
      const added = await open().importBundle(readFileSync(file, 'utf8'), file);
      ctx.err(`imported ${added.length} recipe${added.length === 1 ? '' : 's'}\n`);
    });
}
