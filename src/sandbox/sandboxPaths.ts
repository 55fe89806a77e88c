import { join } from 'node:path';
import { rvportHome } from '../config/rvportHome.ts';

/** Where the sandbox keeps its images and instances under RVPORT_HOME. */
export interface SandboxPaths {
  root: string;
  images: string;
  instances: string;
  /** Downloaded .deb files, reused by the next provisioning of the same suite and architecture. */
  debCache: string;
  /** rvport's own programs compiled on the host (the sandbox's entry program). */
  bin: string;
  image(key: string): string;
  instance(id: string): string;
}

export function sandboxPaths(home: string = rvportHome()): SandboxPaths {
  const root = join(home, 'sandbox');
  return {
    root,
    images: join(root, 'images'),
    instances: join(root, 'instances'),
    debCache: join(root, 'debs'),
    bin: join(root, 'bin'),
    image: (key) => join(root, 'images', key),
    instance: (id) => join(root, 'instances', id),
  };
}
