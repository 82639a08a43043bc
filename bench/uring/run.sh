#!/usr/bin/env bash
# bench/uring/run.sh [--rounds N] [--messages N]
#   --  FUSE over io_uring on this kernel, measured against what mailfs does instead.
#   Builds libfuse 3.18.3 (the first release whose low-level loop can take requests from the
#   kernel over io_uring; Debian 12 ships 3.14) from Debian's source package into
#   bench/work/uring/, builds bench/passthrough and mailfs against both libfuses, imports the
#   main bench's Maildir (bench/work/maildir-N-seed1, generated if missing) into a store, and
#   times warm `grep -r` side by side with the Maildir on local disk: the passthrough and
#   mailfs each through /dev/fuse (libfuse 3.14) and over io_uring (libfuse 3.18.3,
#   FUSE_URING_ENABLE=1, the kernel's fuse.enable_uring turned on for the run and restored).
#   Prints a table and writes bench/uring/results.md. Needs root (module parameter, mounts).
#   Takes 10-15 minutes on 2 cores the first time, most of it the second mailfs build.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$REPO"

ROUNDS=3
MESSAGES=50000
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS="${2:?}"; shift 2 ;;
        --messages) MESSAGES="${2:?}"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

. .ci/host-setup.sh
mailfs_ensure_packages "${MAILFS_BUILD_PACKAGES[@]}" meson ninja-build liburing-dev libnuma-dev curl

WORK="$REPO/bench/work/uring"
LIBFUSE_VERSION=3.18.3
LIBFUSE_SHA256=bcd19582c5e30f7fe45dd86a5540e998590aa01903afc7ebcbeea6c8ac5421ee
LIBFUSE_PREFIX="$WORK/libfuse-$LIBFUSE_VERSION"
LIBFUSE_LIB="$LIBFUSE_PREFIX/lib/x86_64-linux-gnu"
mkdir -p "$WORK"
[ "$(id -u)" = 0 ] || { echo "bench/uring/run.sh needs root (a kernel parameter, mounts)" >&2; exit 1; }
[ -e /sys/module/fuse/parameters/enable_uring ] \
    || { echo "this kernel ($(uname -r)) has no FUSE over io_uring (no fuse.enable_uring; it came in 6.14)" >&2; exit 1; }

built_with_uring() { grep -q '#define HAVE_URING' "$WORK/src/build/fuse_config.h" 2>/dev/null; }
if [ ! -e "$LIBFUSE_LIB/libfuse3.so.4" ] || ! built_with_uring; then
    tarball="$WORK/fuse3_$LIBFUSE_VERSION.orig.tar.gz"
    curl -fsS -o "$tarball" "http://deb.debian.org/debian/pool/main/f/fuse3/fuse3_$LIBFUSE_VERSION.orig.tar.gz"
    echo "$LIBFUSE_SHA256  $tarball" | sha256sum -c --quiet
    rm -rf "$WORK/src" && mkdir "$WORK/src"
    tar -xzf "$tarball" -C "$WORK/src" --strip-components=1
    meson setup "$WORK/src/build" "$WORK/src" --prefix="$LIBFUSE_PREFIX" --buildtype=release \
        -Dexamples=false -Dutils=false -Dtests=false -Denable-io-uring=true >"$WORK/libfuse-build.log"
    ninja -C "$WORK/src/build" install >>"$WORK/libfuse-build.log"
fi
built_with_uring || { echo "libfuse $LIBFUSE_VERSION was built without io_uring (liburing or libnuma missing?)" >&2; exit 1; }

gcc -O2 -Wall -o "$WORK/passthrough-3.14" bench/passthrough/passthrough.c $(pkg-config --cflags --libs fuse3)
gcc -O2 -Wall -o "$WORK/passthrough-$LIBFUSE_VERSION" bench/passthrough/passthrough.c \
    -I"$LIBFUSE_PREFIX/include/fuse3" -I"$LIBFUSE_PREFIX/include" \
    -L"$LIBFUSE_LIB" -Wl,-rpath,"$LIBFUSE_LIB" -lfuse3 -lpthread

swift build -c release --product mailfs >"$WORK/mailfs-build.log" 2>&1 \
    || { tail -20 "$WORK/mailfs-build.log"; exit 1; }
PKG_CONFIG_PATH="$LIBFUSE_LIB/pkgconfig" swift build -c release --product mailfs \
    --scratch-path "$WORK/build" -Xlinker -rpath -Xlinker "$LIBFUSE_LIB" >>"$WORK/mailfs-build.log" 2>&1 \
    || { tail -20 "$WORK/mailfs-build.log"; exit 1; }

exec python3 bench/uring/measure.py --work "$WORK" --rounds "$ROUNDS" --messages "$MESSAGES" \
    --mailfs ".build/release/mailfs" --mailfs-uring "$WORK/build/release/mailfs" \
    --passthrough "$WORK/passthrough-3.14" --passthrough-uring "$WORK/passthrough-$LIBFUSE_VERSION" \
    --libfuse-uring "$LIBFUSE_VERSION"
