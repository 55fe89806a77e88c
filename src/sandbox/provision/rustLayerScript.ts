/** The Rust target of the riscv64 rootfs (Debian's riscv64 std lives under this name). */
export const RUST_TARGET = 'riscv64gc-unknown-linux-gnu';
/** The triple the x86_64 rustc reports as its host. */
export const RUST_NATIVE_HOST = 'x86_64-unknown-linux-gnu';
/** Where the x86_64 rustc looks for the target's std (its sysroot is the tools tree's /usr). */
export const RUST_TARGET_LIBDIR = `usr/lib/rustlib/${RUST_TARGET}`;
/** The x86_64 linker of the units cargo builds for the host (build scripts, proc-macros). */
export const RUST_HOST_LINKER = '/native/usr/bin/x86_64-linux-gnu-gcc';
/** The rustc cargo runs in the Rust layer (a script under the x86_64 dash). */
export const RUST_WRAPPER = '/usr/lib/rvport-rust/rustc';
/**
 * A folder whose `ld` is the x86_64 linker, given to the x86_64 gcc with -B: a native gcc
 * otherwise runs the `ld` on PATH, which here is the riscv64 one.
 */
export const RUST_HOST_LD_DIR = '/usr/lib/rvport-rust/x86_64-linux-gnu';

/**
 * The rustc of the Rust layer, run by the x86_64 dash (an emulated shell would cost ~45 ms a call).
 * Two things differ from calling the x86_64 rustc directly:
 * - `rustc -vV` reports the riscv64 host the rootfs's rustc reports. Cargo mixes that answer into
 *   every crate's metadata hash, which names its symbols; with the x86_64 answer no artifact
 *   could equal an emulated build's. Cargo then sets HOST for build scripts as the emulated
 *   build does too.
 * - A unit without `--target` is one cargo builds for the host (build script, proc-macro): it is
 *   x86_64 code and is linked by the x86_64 gcc (`cc` here is the riscv64 cross compiler).
 * Target units (cargo gets `--target` from the plan) use rustc's default linker, `cc`, as in an
 * emulated build.
 */
export function rustWrapperScript(): string {
  return `#!/native/usr/bin/dash
if [ "$#" = 1 ] && [ "$1" = -vV ]; then
  out=$(/native/usr/bin/rustc -vV) || exit $?
  printf '%s\\n' "$out" | /native/usr/bin/sed 's/^host: ${RUST_NATIVE_HOST}$/host: ${RUST_TARGET}/'
  exit 0
fi
for arg; do
  case $arg in
    --target|--target=*) exec /native/usr/bin/rustc "$@" ;;
  esac
done
exec /native/usr/bin/rustc "$@" -C linker=${RUST_HOST_LINKER} -C link-arg=-B${RUST_HOST_LD_DIR}/
`;
}

/**
 * Appended to the accelerated layer's script in the Rust layer. `cargo`, `rustc` and `rustdoc` are
 * diverted before the riscv64 packages exist (a port installs them with its Build-Depends), so dpkg
 * puts the riscv64 programs beside them (`*.riscv64`) and every spelling reaches the x86_64 ones.
 * The riscv64 std those packages bring is the one the x86_64 rustc links against (the tools
 * tree's target directory is a link to the rootfs's). `/.cargo/config.toml`, which cargo reads
 * below any tree's own configuration, makes riscv64 the default target, so a plain `cargo build`
 * cannot produce x86_64 programs.
 */
export function rustLayerScript(): string {
  return `# Rust: the x86_64 cargo and rustc, building for ${RUST_TARGET}
if [ -x /native/usr/bin/rustc ]; then
  for tool in cargo rustc rustdoc; do
    dpkg-divert --local --rename --divert /usr/bin/$tool.riscv64 --add /usr/bin/$tool >/dev/null
  done
  ln -s /native/usr/bin/cargo /usr/bin/cargo
  ln -s /native/usr/bin/rustdoc /usr/bin/rustdoc
  mkdir -p ${RUST_HOST_LD_DIR}
  ln -s /native/usr/bin/x86_64-linux-gnu-ld ${RUST_HOST_LD_DIR}/ld
  cat > ${RUST_WRAPPER} <<'RVPORT_RUSTC'
${rustWrapperScript()}RVPORT_RUSTC
  chmod 755 ${RUST_WRAPPER}
  ln -s ${RUST_WRAPPER} /usr/bin/rustc
  mkdir -p /.cargo
  printf '[build]\\ntarget = "${RUST_TARGET}"\\n' > /.cargo/config.toml
fi
echo rust diverted: $(dpkg-divert --list '/usr/bin/rustc' | wc -l)
`;
}
