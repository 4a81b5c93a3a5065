#!/usr/bin/env bash
# Builds and runs the libFuzzer target for the journal line decoder and reader.
#
#   Fuzz/run.sh                 build, then fuzz for 60 seconds
#   Fuzz/run.sh -max_total_time=3600 -jobs=2      any libFuzzer options
#   FUZZ_BUILD_ONLY=1 Fuzz/run.sh                 only build
#
# Needs a Swift toolchain with the libFuzzer runtime (swift.org Linux toolchains
# have it: usr/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a). The binary, the
# corpus and any crash files go to $FUZZ_DIR (default /tmp/spatial-replay-fuzz),
# never into the repository. The corpus starts from every line of Journals/*.ndjson.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${FUZZ_DIR:-/tmp/spatial-replay-fuzz}"
mkdir -p "$out/corpus" "$out/artifacts"

sources=$(find "$root/Sources/Journal" -name '*.swift' | sort)
swiftc -sanitize=fuzzer,address -parse-as-library -Onone -g \
  -module-name JournalFuzz -package-name spatial_replay -I "$root/Sources/CZlib" -lm -lz \
  $sources "$root/Fuzz/DecoderFuzzer.swift" \
  -o "$out/decoder-fuzzer"
echo "built $out/decoder-fuzzer"
[ -n "${FUZZ_BUILD_ONLY:-}" ] && exit 0

# Seed corpus: one file per line of the bundled journals.
if [ -z "$(ls -A "$out/corpus")" ]; then
  n=0
  for journal in "$root"/Journals/*.ndjson; do
    while IFS= read -r line; do
      n=$((n + 1))
      printf '%s' "$line" > "$out/corpus/seed-$n"
    done < "$journal"
  done
  echo "seeded the corpus with $n lines"
fi

export SWIFT_BACKTRACE=enable=no
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-max_total_time=60)
exec "$out/decoder-fuzzer" -artifact_prefix="$out/artifacts/" -max_len=4096 "${args[@]}" "$out/corpus"
