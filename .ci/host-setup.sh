# Shared by ./mount, ./test and bench/run: make sure this Debian host has what mailfs
# needs to build and run. Sourced, not executed.

# Installs the Debian packages that are missing (as root; otherwise says what to install).
mailfs_ensure_packages() {
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "mailfs needs these Debian packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install ${missing[*]}" >&2
        return 1
    fi
    echo "installing: ${missing[*]}" >&2
    # A fresh machine has no package lists yet; refresh them once per host.
    if [ ! -f /var/lib/apt/periodic/mailfs-updated ] || ! apt-cache policy "${missing[0]}" | grep -q Candidate; then
        apt-get update -qq >&2
        mkdir -p /var/lib/apt/periodic && touch /var/lib/apt/periodic/mailfs-updated
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# What building and mounting need (libxml2-dev: the HTML parser of the message renderer).
MAILFS_BUILD_PACKAGES=(fuse3 libfuse3-dev libsqlite3-dev libxml2-dev pkg-config gcc libc6-dev make git ca-certificates attr python3)

# What the tests need besides: notmuch, whose search results mailfs's are compared with.
MAILFS_TEST_PACKAGES=(notmuch)

mailfs_ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            [ -x "$dir/swift" ] && export PATH="$dir:$PATH" && return 0
        done
        echo "mailfs needs the Swift 6 toolchain (https://www.swift.org/install/linux/) on PATH" >&2
        return 1
    fi
}

# /dev/fuse must exist for any mount (containers sometimes lack it).
mailfs_ensure_fuse_device() {
    if [ ! -e /dev/fuse ]; then
        [ "$(id -u)" -eq 0 ] && mknod -m 666 /dev/fuse c 10 229 2>/dev/null || true
    fi
    [ -e /dev/fuse ] || { echo "/dev/fuse is missing: load the fuse module (modprobe fuse)" >&2; return 1; }
}
