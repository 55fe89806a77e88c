import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Query parameter marking the workflow file itself for the loader hooks. */
const WORKFLOW_MARK = 'rvport-workflow';

let registered = false;

/**
 * Makes users' workflow files importable: TypeScript through tsx, `rvport` resolving to this
 * installation, and every user file loaded as an ES module (see workflowLoaderHooks.js). Done on
 * demand, by the workflow commands only, so other commands do not pay for loading tsx.
 */
export async function registerWorkflowLoader(): Promise<void> {
  if (registered) return;
  registered = true;
  // Running the TypeScript sources means bin/rvport.js registered tsx already; the built
  // JavaScript registers it here, for the user's .ts files.
  const fromSources = import.meta.url.endsWith('.ts');
  if (!fromSources) {
    const { register: registerTsx } = await import('tsx/esm/api');
    registerTsx();
  }
  const self = new URL(fromSources ? '../index.ts' : '../index.js', import.meta.url).href;
  register('./workflowLoaderHooks.js', { parentURL: import.meta.url, data: { self, mark: WORKFLOW_MARK } });
}

/** The URL to import a workflow file by, marked so the hooks load it as an ES module. */
export function workflowFileUrl(file: string): string {
  const url = pathToFileURL(file);
  url.searchParams.set(WORKFLOW_MARK, '');
  return url.href;
}
