/** A Debian binary package name (policy 5.6.1); anything else a model proposes is refused. */
export const DEBIAN_PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+$/;
