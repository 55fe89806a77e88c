import type { DependencySources } from '../../sources/index.ts';
import { checkServiceUrl } from '../../sources/index.ts';

/**
 * The proxy and registry of the request, else of RVPORT_GOPROXY / RVPORT_CARGO_REGISTRY (rvport's
 * own variables: a GOPROXY set for the host's go must not silently change what a port trusts).
 */
export function configuredDependencySources(
  request: { goProxy?: string; cargoRegistry?: string },
  env: NodeJS.ProcessEnv,
): DependencySources | null {
  const goProxy = request.goProxy ?? env.RVPORT_GOPROXY;
  const cargoRegistry = request.cargoRegistry ?? env.RVPORT_CARGO_REGISTRY;
  if (!goProxy && !cargoRegistry) return null;
  // a bad URL is bad input, refused before anything runs
  if (goProxy) checkServiceUrl(goProxy, 'the Go module proxy');
  if (cargoRegistry) checkServiceUrl(cargoRegistry, 'the crate registry');
  return { ...(goProxy ? { goProxy } : {}), ...(cargoRegistry ? { cargoRegistry } : {}) };
}
