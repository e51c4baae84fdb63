# SPDX-License-Identifier: GPL-2.0
# The profiles of the confinement decisions of the apparmor scene
# (tools/initramfs/apparmor.sh), compiled by tools/apparmor-corpus.sh.
# The scene runs busybox under them and records what each allows.
abi <abi/3.0>,

profile sbm-confine {
  /bin/busybox mrix,
  /proc/*/attr/current r,
  /proc/*/attr/apparmor/current r,
  /tmp/sbm/ r,
  /tmp/sbm/** rw,
  deny /tmp/sbm/secret r,
  deny /tmp/sbm/ro-* w,
  capability chown,
}

# The same, in complain mode: denials are logged, not enforced.
profile sbm-confine-complain flags=(complain) {
  /bin/busybox mrix,
  /proc/*/attr/current r,
  /proc/*/attr/apparmor/current r,
  /tmp/sbm/ r,
  /tmp/sbm/** rw,
  capability chown,
}

# Loaded, then removed: changing to it must fail.
profile sbm-confine-removed {
  /bin/busybox mrix,
}
