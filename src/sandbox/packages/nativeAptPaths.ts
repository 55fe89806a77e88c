/**
 * Inside the sandbox: the x86_64 apt, unpacked from the archive's amd64 packages of the rootfs's
 * apt version, and the folder whose `apt-get` installs run (the ChrootSandbox puts it first in an
 * install's PATH; a build's commands never have it, and apt runs dpkg with its own DPkg::Path).
 */
export const NATIVE_APT_ROOT = '/usr/lib/rvport-apt/x86_64';
export const APT_FRONTEND_DIR = '/usr/lib/rvport-apt/frontend';
