#!/usr/bin/env bash
# Builds spatial-replay as one file that needs only the C library (libc, libm and
# the dynamic loader), to ship to machines without a Swift toolchain (Spark
# executors): the Swift runtime and Foundation (--static-swift-stdlib), zlib,
# libstdc++ and libgcc linked in statically. Prints the executable's path.
#
# Usage: bash Integrations/spark/build-static.sh [SCRATCH]   (from anywhere inside the clone)
# SCRATCH is SwiftPM's build folder (default .build-static, apart from the debug build's).
#
# zlib (the CZlib module asks for -lz) and libstdc++ (the static Swift runtime asks
# for -lstdc++) would otherwise be linked as shared libraries; a folder holding only
# their static archives, searched before the system's, makes the linker take those.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
scratch="${1:-.build-static}"

# A fixed folder, so that the flags (and the build) stay the same from one run to the next.
archives="$(realpath -m "$scratch")/static-archives"
mkdir -p "$archives"
for archive in libz.a libstdc++.a; do
  path="$(cc -print-file-name="$archive")"
  if [[ "$path" != /* ]]; then
    # cc prints the bare name when it does not find the file; zlib's is in the multiarch folder.
    path="$(find /usr/lib /usr/lib64 -name "$archive" -print -quit 2>/dev/null || true)"
  fi
  [[ -f "$path" ]] || { echo "build-static: $archive not found (zlib1g-dev, libstdc++-dev)" >&2; exit 1; }
  ln -sf "$path" "$archives/$archive"
done

flags=(-c release --static-swift-stdlib --product spatial-replay --scratch-path "$scratch"
  -Xswiftc -L -Xswiftc "$archives" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/spatial-replay"
