// Module loader hooks for users' workflow files, registered by registerWorkflowLoader.
//
// `import … from 'rvport'` resolves to the rvport that is running, not to whatever node_modules is
// near the file (or none). A workflow file is an ES module whatever its extension and whatever
// package.json is near it: a `.ts` or `.js` file in a folder without a package.json (or with a
// `"type": "commonjs"` one) would otherwise go to the CommonJS loader, which on Node 20.19+ hands
// its ES syntax back to the ES loader and fails with "Cannot require() ES Module … in a cycle".
// The same holds for the user's own files it imports relatively (helpers beside it), but not for
// packages under node_modules, which keep their own format.

/** URL of the running rvport's index module. */
let self = '';
/** Query parameter that marks the workflow file itself (workflowFileUrl adds it). */
let mark = '';
/** URLs of the workflow file and the user's files it imports, all loaded as ES modules. */
const userFiles = new Set();

export function initialize(data) {
  self = data.self;
  mark = data.mark;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'rvport') return { url: self, format: 'module', shortCircuit: true };
  const resolved = await nextResolve(specifier, context);
  const fromUser = context.parentURL !== undefined && userFiles.has(context.parentURL);
  if ((fromUser || isWorkflowEntry(resolved.url)) && isUserSource(resolved.url)) {
    userFiles.add(resolved.url);
    return { ...resolved, format: 'module' };
  }
  return resolved;
}

function isWorkflowEntry(url) {
  return url.startsWith('file:') && new URL(url).searchParams.has(mark);
}

function isUserSource(url) {
  if (!url.startsWith('file:')) return false;
  const { pathname } = new URL(url);
  return /\.(ts|js)$/.test(pathname) && !pathname.includes('/node_modules/');
}
