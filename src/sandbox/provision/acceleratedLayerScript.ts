/** The Go toolchain in the tools tree (Debian's golang-go of the same release). */
export const NATIVE_GOROOT = '/native/usr/lib/go';

/**
 * The script, run once inside the emulated rootfs with the tools tree at /native, whose changes
 * (captured in an overlay upper layer) make the accelerated layer. Every real riscv64 toolchain
 * binary with an x86_64 twin is diverted by dpkg (so apt and dpkg keep knowing about it) and
 * replaced by a symlink to the twin; every spelling (cc, gcc, gcc-14, absolute paths) then reaches
 * the native cross compiler. No wrapper: an emulated shell would cost ~45 ms per call.
 * Its `/lib64` (into the tools tree) is not merged-/usr; every instance's upper layer replaces it
 * (chroot/mergedUsrUpper.ts), so this script and the layer keys the proofs name stay as they are.
 */
export function acceleratedLayerScript(): string {
  return `set -eu
for f in /usr/bin/riscv64-linux-gnu-*; do
  [ -L "$f" ] && continue
  [ -f "$f" ] || continue
  name=\${f##*/}
  case $name in *.riscv64) continue ;; esac
  [ -e "/native/usr/bin/$name" ] || continue
  dpkg-divert --local --rename --divert "$f.riscv64" --add "$f" >/dev/null
  ln -s "/native/usr/bin/$name" "$f"
done
# the x86_64 loader and libraries, where x86_64 binaries look for them
[ -e /usr/lib/x86_64-linux-gnu ] || ln -s /native/usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu
[ -e /lib64 ] || ln -s /native/usr/lib64 /lib64
# Go: the x86_64 toolchain, targeting riscv64 through its go.env
if [ -x ${NATIVE_GOROOT}/bin/go ]; then
  for tool in go gofmt; do
    [ -e /usr/bin/$tool ] || ln -s ${NATIVE_GOROOT}/bin/$tool /usr/bin/$tool
  done
  # the standard library compiled for riscv64 once here, not again in every instance
  HOME=/root go build std
fi
echo diverted: $(dpkg-divert --list 'riscv64-linux-gnu-*' | wc -l)
`;
}
