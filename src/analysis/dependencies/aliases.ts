import type { DependencyKind } from './Dependency.ts';

/**
 * The last resort, when Debian's data cannot answer: CMake's own Find modules (they ship with
 * CMake, so no package owns a config file for them) and build tools named differently.
 */
export const DEBIAN_ALIASES: Partial<Record<DependencyKind, Record<string, string[]>>> = {
  'cmake-package': {
    ZLIB: ['zlib1g-dev'],
    OpenSSL: ['libssl-dev'],
    PNG: ['libpng-dev'],
    JPEG: ['libjpeg-dev'],
    CURL: ['libcurl4-openssl-dev'],
    BZip2: ['libbz2-dev'],
    LibLZMA: ['liblzma-dev'],
    Curses: ['libncurses-dev'],
    EXPAT: ['libexpat1-dev'],
    LibXml2: ['libxml2-dev'],
    Freetype: ['libfreetype-dev'],
    SQLite3: ['libsqlite3-dev'],
    GTest: ['libgtest-dev'],
    Boost: ['libboost-dev'],
    X11: ['libx11-dev'],
    Doxygen: ['doxygen'],
    Git: ['git'],
    Python3: ['python3-dev'],
    PythonInterp: ['python3'],
    Perl: ['perl'],
    BISON: ['bison'],
    FLEX: ['flex'],
    PkgConfig: ['pkgconf'],
    Gettext: ['gettext'],
    SWIG: ['swig'],
    Iconv: ['libc6-dev'],
    Intl: ['libc6-dev'],
  },
  program: {
    'pkg-config': ['pkgconf'],
    python: ['python3'],
    makeinfo: ['texinfo'],
    help2man: ['help2man'],
    phpize: ['php-dev'],
    php: ['php-cli'],
  },
  // R itself: the development package, with the compilers R CMD INSTALL runs
  'r-package': { R: ['r-base-dev'] },
  library: {
    m: ['libc6-dev'],
    dl: ['libc6-dev'],
    pthread: ['libc6-dev'],
    rt: ['libc6-dev'],
    // the compiler's own libraries, in its versioned folder (/usr/lib/gcc/riscv64-linux-gnu/14)
    atomic: ['gcc'],
    gomp: ['gcc'],
    'stdc++': ['g++'],
  },
};
