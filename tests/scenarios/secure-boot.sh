# Secure Boot enforcing.  scripts/secure-boot-test boots this kernel (the
# test kernel with an EFI stub, kernel/configs/efi.config) under OVMF with
# Secure Boot on and the test key of Debian's ovmf package in PK, KEK and
# db (OVMF_VARS_4M.snakeoil.fd), from a disk: the firmware ran it only
# because sbsign signed it with that key, as make kernel-deb SIGN_KEY=
# SIGN_CERT= signs the packaged image (the same script shows the unsigned
# image refused).  Here the kernel confirms Secure Boot and triage decides
# an OOM by labels.  Booted by scripts/secure-boot-test only.
# mem: 256M
# plan: 8
check "the EFI stub found Secure Boot enabled" sh -c 'dmesg | grep -q "Secure boot enabled"'
mkdir -p /sys/firmware/efi/efivars
mount -t efivarfs efivarfs /sys/firmware/efi/efivars
check_eq "the firmware's SecureBoot variable is 1" 1 \
	"$(tail -c 1 /sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c | od -An -tu1 | tr -d ' ')"
# the OOM: triage-global's, the same scenario as on the test kernel
. /scenarios/triage-global.sh
