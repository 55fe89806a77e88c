/** A Debian package name, source or binary (policy 5.6.1, 5.6.7). */
export const DEBIAN_PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+$/;
