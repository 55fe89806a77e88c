/**
 * The environment of apt and the maintainer scripts it runs in an instance. INITRD=No: a kernel
 * image that Build-Depends pull in (linux-headers-generic brings linux-image and initramfs-tools)
 * makes no initramfs in a throwaway instance. The kernel's hook
 * (/etc/kernel/postinst.d/initramfs-tools) honours INITRD=No, and initramfs-tools' trigger then
 * finds no initrd to update; mkinitramfs under emulation was twice ~45 s of kmod's install. No
 * build reads /boot, and build.sh (for a real machine) does not set it.
 */
export const INSTALL_ENVIRONMENT: Readonly<Record<string, string>> = {
  DEBIAN_FRONTEND: 'noninteractive',
  INITRD: 'No',
};
