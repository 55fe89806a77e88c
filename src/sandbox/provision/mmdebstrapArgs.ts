import type { ImageRecipe } from '../imageRecipes.ts';

/**
 * The mmdebstrap argv that builds `recipe` into the directory `target`. With `debCache`, the
 * downloaded packages are copied in before and out after, so a second provisioning of the same
 * suite mostly skips the downloads.
 */
export function mmdebstrapArgs(
  recipe: ImageRecipe,
  target: string,
  mirror: string,
  debCache?: string,
  mode: 'root' | 'unshare' = 'root',
): string[] {
  const args = [
    'mmdebstrap',
    `--mode=${mode}`,
    '--format=directory',
    `--variant=${recipe.variant}`,
    `--architectures=${recipe.architecture}`,
  ];
  if (recipe.packages.length > 0) args.push(`--include=${recipe.packages.join(',')}`);
  // apt inside the image needs package lists for the packages a port adds
  args.push('--skip=cleanup/apt/lists');
  if (debCache) {
    args.push(
      '--skip=essential/unlink',
      `--setup-hook=mkdir -p "$1"/var/cache/apt/archives/`,
      `--setup-hook=sync-in ${debCache} /var/cache/apt/archives/`,
      `--customize-hook=sync-out /var/cache/apt/archives ${debCache}`,
    );
  }
  args.push(recipe.suite, target, mirror);
  return args;
}
