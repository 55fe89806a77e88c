import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { debianMirror } from '../../debian/debianMirror.ts';
import { adoptImages } from '../adoptImages.ts';
import { readInstalledPackages } from '../dpkgStatus.ts';
import { SandboxError } from '../errors.ts';
import { imageKeys } from '../findImages.ts';
import { type ImageRecipe, imageKey } from '../imageRecipes.ts';
import type { ImageRecord } from '../imageStore.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { readSubordinateIds, type SubordinateIds } from '../userns/subordinateIds.ts';
import { host } from './hostCommand.ts';
import { lineForwarder } from './lineForwarder.ts';
import { mmdebstrapArgs } from './mmdebstrapArgs.ts';
import { type ProvisionAccess, provisionAccess } from './provisionAccess.ts';
import { type ProvisionStep, provisionImage } from './provisionImage.ts';

/** What every image step of a setup shares: where images go, who owns them, the mirror. */
export interface ProvisionContext {
  paths: SandboxPaths;
  suite: string;
  keys: ReturnType<typeof imageKeys>;
  ids: SubordinateIds;
  access: ProvisionAccess;
  progress: (message: string) => void;
  signal: AbortSignal | undefined;
  /** Provisions (or finds) the image of a step, handed to the subordinate ids sandboxes run as. */
  provision(step: ProvisionStep): Promise<ImageRecord>;
  /** mmdebstrap of a recipe into `tree`; the record fields it leaves (recipe, mirror, owner). */
  debootstrap(recipe: ImageRecipe, tree: string): Promise<Partial<ImageRecord>>;
}

export function provisionContext(
  paths: SandboxPaths,
  suite: string,
  options: { mirror?: string; progress: (message: string) => void; signal?: AbortSignal },
): ProvisionContext {
  const { progress, signal } = options;
  // trees are made as host root, then handed to the subordinate ids every sandbox runs as
  const ids = readSubordinateIds();
  const access = provisionAccess(ids, realpathSync(paths.images), process.getuid?.() === 0);
  let mirror = options.mirror;
  const needMirror = () => {
    mirror ??= debianMirror() ?? undefined;
    if (!mirror) {
      throw new SandboxError('no-mirror', "no Debian mirror found in this machine's apt sources (/etc/apt)", {
        fix: 'rvport sandbox setup --mirror URL   (a Debian archive URL)',
      });
    }
    return mirror;
  };
  return {
    paths,
    suite,
    keys: imageKeys(suite),
    ids,
    access,
    progress,
    signal,
    provision: async (step) =>
      (
        await adoptImages(paths, [await provisionImage(paths, step, progress, access)], ids, progress)
      )[0] as ImageRecord,
    debootstrap: async (recipe, tree) => {
      const url = needMirror();
      const cache = join(paths.debCache, `${recipe.suite}-${recipe.architecture}`);
      await mkdir(cache, { recursive: true });
      progress(
        `${imageKey(recipe)}: mmdebstrap ${recipe.variant} ${recipe.suite} ${recipe.architecture} from ${url}`,
      );
      await host(mmdebstrapArgs(recipe, tree, url, cache, access.mmdebstrapMode), {
        signal,
        onStderr: lineForwarder((line) => {
          if (line.startsWith('I: ') || line.startsWith('E: ')) progress(`  ${line}`);
        }),
      });
      return { recipe, mirror: url, ...(access.treeOwner ? { owner: access.treeOwner } : {}) };
    },
  };
}

/** The toolchain package versions an image record keeps, for status and the mode checks. */
function toolchainVersions(
  packages: Awaited<ReturnType<typeof readInstalledPackages>>,
): Record<string, string> {
  const wanted =
    /^(gcc-14|g\+\+-14|binutils|gcc-14-riscv64-linux-gnu|g\+\+-14-riscv64-linux-gnu|binutils-riscv64-linux-gnu|golang-1\.\d+-go|libc6|libc6-dev)$/;
  const versions: Record<string, string> = {};
  for (const p of packages) if (wanted.test(p.name)) versions[`${p.name}:${p.architecture}`] = p.version;
  return versions;
}

/** The toolchain package versions installed in an image tree. */
export async function installedToolchain(tree: string): Promise<Record<string, string>> {
  return toolchainVersions(await readInstalledPackages(tree));
}
