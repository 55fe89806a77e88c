// Module resolution hook: `import … from 'rvport'` in a user's workflow file anywhere on disk
// resolves to the rvport that is running, not to whatever node_modules is near the file.
const self = new URL('../index.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'rvport') return { url: self, shortCircuit: true, format: 'module' };
  return nextResolve(specifier, context);
}
