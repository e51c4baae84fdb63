#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the AppArmor feature set of the running kernel in the flattened form
# that apparmor_parser reads with --kernel-features (the form of Debian's
# /usr/share/apparmor-features/features): a directory or a file is
# "NAME {", its children or its contents, "}". tools/apparmor-features.txt
# was made with it:
#   tools/initramfs.sh && tools/boot.sh apparmor -i build/initramfs.cpio.gz \
#       -c /dev/null sbm_scene=apparmor-features | tr -d '\r' \
#       > tools/apparmor-features.txt
features=/sys/kernel/security/apparmor/features
grep -q " /sys/kernel/security " /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security

flatten() {
	for entry in "$1"/*; do
		[ -e "$entry" ] || continue
		printf '%s {' "${entry##*/}"
		if [ -d "$entry" ]; then
			flatten "$entry"
		else
			cat "$entry"
		fi
		printf '}\n'
	done
}

if [ -d "$features" ]; then
	flatten "$features"
else
	echo "apparmor-features: no $features" >&2
fi
