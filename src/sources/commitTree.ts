import { lstat, readdir, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type GitOptions, git } from './git.ts';
import { SourceError } from './SourceError.ts';

/** One file of a tree as git stores it. */
export interface TreeFile {
  /** Relative, `/`-separated. */
  path: string;
  mode: '100644' | '100755' | '120000';
}

export interface TreeListing {
  files: TreeFile[];
  /** `.git` entries found in the tree: data git cannot record, left in the folder as shipped. */
  gitEntries: string[];
  /** Entries that are neither file, folder nor symbolic link (sockets, fifos, devices). */
  special: string[];
}

/**
 * Lists a tree without following any symbolic link and without git looking at it: every
 * regular file and symbolic link, every `.git` (a repository's metadata that came with the
 * content is data here, never metadata host git would read).
 */
export async function listTree(root: string): Promise<TreeListing> {
  const listing: TreeListing = { files: [], gitEntries: [], special: [] };
  const walk = async (dir: string, prefix: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.name.toLowerCase() === '.git') {
        listing.gitEntries.push(path);
      } else if (entry.isDirectory()) {
        await walk(join(dir, entry.name), path);
      } else if (entry.isSymbolicLink()) {
        listing.files.push({ path, mode: '120000' });
      } else if (entry.isFile()) {
        const { mode } = await lstat(join(dir, entry.name));
        listing.files.push({ path, mode: mode & 0o100 ? '100755' : '100644' });
      } else {
        listing.special.push(path);
      }
    }
  };
  await walk(root, '');
  return listing;
}

/** Blob ids for the given files, hashed as they are on disk (no filter, no line-ending change). */
async function hashFiles(workTree: string, gitDir: string, files: TreeFile[], options: GitOptions) {
  const ids = new Map<string, string>();
  const regular = files.filter((f) => f.mode !== '120000' && !f.path.includes('\n'));
  if (regular.length > 0) {
    const out = await git(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
      ...options,
      gitDir,
      cwd: workTree,
      input: `${regular.map((f) => f.path).join('\n')}\n`,
    });
    const lines = out.trim().split('\n');
    regular.forEach((f, i) => {
      ids.set(f.path, lines[i] ?? '');
    });
  }
  for (const f of files) {
    if (ids.has(f.path)) continue;
    if (f.mode === '120000') {
      // a link's blob is its target, taken with readlink: the link is never followed
      const target = await readlink(join(workTree, f.path));
      const id = await git(['hash-object', '-w', '--stdin'], { ...options, gitDir, input: target });
      ids.set(f.path, id.trim());
    } else {
      const id = await git(['hash-object', '-w', '--no-filters', '--', f.path], {
        ...options,
        gitDir,
        cwd: workTree,
      });
      ids.set(f.path, id.trim());
    }
  }
  return ids;
}

/**
 * Records a plain tree as one commit in a repository of rvport's own at `gitDir` (created),
 * outside the tree: git gets the file list and contents from rvport, so it never walks the tree
 * itself, never reads a `.git`, `.gitattributes` filter or hook the tree ships. Every file is
 * included (ignore rules do not apply: the tree is what was shipped); `.git` entries stay in
 * the folder but cannot be part of a git tree. Returns the commit and what was left out.
 */
export async function commitTree(
  workTree: string,
  gitDir: string,
  message: string,
  options: GitOptions = {},
): Promise<{ commit: string; listing: TreeListing }> {
  const listing = await listTree(workTree);
  if (listing.special.length > 0) {
    throw new SourceError(
      'unsafe-entry',
      `${listing.special[0]} is neither a file, a folder nor a symbolic link; refusing the tree`,
    );
  }
  await rm(gitDir, { recursive: true, force: true });
  await git(['init', '--bare', '--quiet', '--template=', '--initial-branch=main', gitDir], options);
  const ids = await hashFiles(workTree, gitDir, listing.files, options);
  const index = listing.files.map((f) => `${f.mode} ${ids.get(f.path)}\t${f.path}\0`).join('');
  const indexFile = join(gitDir, 'index');
  await git(['update-index', '-z', '--index-info'], {
    ...options,
    gitDir,
    env: { ...options.env, GIT_INDEX_FILE: indexFile },
    input: index,
  });
  const tree = (
    await git(['write-tree'], { ...options, gitDir, env: { ...options.env, GIT_INDEX_FILE: indexFile } })
  ).trim();
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const dates: Record<string, string> =
    epoch && /^\d+$/.test(epoch)
      ? { GIT_AUTHOR_DATE: `@${epoch} +0000`, GIT_COMMITTER_DATE: `@${epoch} +0000` }
      : {};
  const commit = (
    await git(['commit-tree', tree, '-m', message], {
      ...options,
      gitDir,
      env: { ...options.env, ...dates },
    })
  ).trim();
  await git(['update-ref', 'refs/heads/main', commit], { ...options, gitDir });
  return { commit, listing };
}
