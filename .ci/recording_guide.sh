#!/usr/bin/env bash
# docs/recording.md is a program: writes each of its files (a ```swift block whose first
# line is `// PATH`) into a temporary package, points the one `.package(url:)` line at this
# checkout, lints, builds and runs it, and checks the journal it writes. Then the same for
# its production program (the blocks under `// ShopApp/`): builds and runs it twice (rotating,
# and whole), and .ci/recording_guide_check.py checks the segments, the triggered journal and
# where SARIF locates its finding.
# Usage: bash .ci/recording_guide.sh [SPATIAL_REPLAY_BINARY]   (from anywhere inside the clone)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/.build/debug/spatial-replay}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The dependency is named after the last part of its path, as after its URL: spatial-replay.
mkdir "$work/dependency"
ln -s "$root" "$work/dependency/spatial-replay"
package="$work/NotesApp"
mkdir "$package"

# Every block whose first line is `// PATH` becomes that file.
awk -v dir="$package" '
  /^```swift$/ { inblock = 1; first = 1; next }
  /^```$/ && inblock { if (out) close(out); inblock = 0; out = ""; next }
  inblock && first {
    first = 0
    if ($0 ~ /^\/\/ [A-Za-z0-9_.\/+-]+$/) {
      path = substr($0, 4); out = dir "/" path
      system("mkdir -p \"$(dirname \"" out "\")\"")
      printf "" > out
      print "file: " path > "/dev/stderr"
      next
    }
  }
  inblock && out { print >> out }
' "$root/docs/recording.md"

for f in Package.swift Sources/NotesApp/main.swift; do
  [[ -f "$package/$f" ]] || { echo "docs/recording.md has no block for $f" >&2; exit 1; }
done

url_lines="$(grep -c '\.package(url: ' "$package/Package.swift" || true)"
[[ "$url_lines" == 1 ]] || { echo "Package.swift: expected one .package(url:) line, found $url_lines" >&2; exit 1; }
grep -q '\.product(name: "Journal", package: "spatial-replay")' "$package/Package.swift" ||
  { echo "Package.swift: no .product(name: \"Journal\", package: \"spatial-replay\")" >&2; exit 1; }
sed -i -E "s|\.package\(url: \"[^\"]*\", from: \"[^\"]*\"\)|.package(path: \"$work/dependency/spatial-replay\")|" \
  "$package/Package.swift"
grep -q "\.package(path: " "$package/Package.swift" || { echo "the .package(url:) line was not replaced" >&2; exit 1; }

echo "lint (the project's .swift-format)"
swift format lint --strict --configuration "$root/.swift-format" -r "$package/Package.swift" "$package/Sources"

echo "build"
(cd "$package" && swift build 2>&1 | tee "$work/build.log" | grep -E 'warning:|error:|Compiling NotesApp|Build complete' || true)
grep -q "Build complete" "$work/build.log" || { cat "$work/build.log" >&2; exit 1; }
if grep -q "warning:" "$work/build.log"; then echo "the guide's program builds with warnings" >&2; exit 1; fi

echo "run"
(cd "$package" && "$(swift build --show-bin-path)/NotesApp" "$work/notes.ndjson")

echo "check the journal it wrote"
"$bin" check "$work/notes.ndjson"
"$bin" check --model "$work/notes.ndjson"

# The second program, in production: rotation, the flight recorder, call sites, redaction.
echo "the production program (ShopApp)"
shop="$package/ShopApp"
for f in Package.swift Sources/ShopApp/main.swift; do
  [[ -f "$shop/$f" ]] || { echo "docs/recording.md has no block for ShopApp/$f" >&2; exit 1; }
done
grep -q '\.product(name: "Recording", package: "spatial-replay")' "$shop/Package.swift" ||
  { echo "ShopApp/Package.swift: no .product(name: \"Recording\", package: \"spatial-replay\")" >&2; exit 1; }
sed -i -E "s|\.package\(url: \"[^\"]*\", from: \"[^\"]*\"\)|.package(path: \"$work/dependency/spatial-replay\")|" \
  "$shop/Package.swift"
grep -q "\.package(path: " "$shop/Package.swift" || { echo "ShopApp: the .package(url:) line was not replaced" >&2; exit 1; }
swift format lint --strict --configuration "$root/.swift-format" -r "$shop/Package.swift" "$shop/Sources"
(cd "$shop" && swift build 2>&1 | tee "$work/shop-build.log" | grep -E 'warning:|error:|Compiling ShopApp|Build complete' || true)
grep -q "Build complete" "$work/shop-build.log" || { cat "$work/shop-build.log" >&2; exit 1; }
if grep -q "warning:" "$work/shop-build.log"; then echo "the production program builds with warnings" >&2; exit 1; fi
mkdir "$work/shop" "$work/shop-whole"
shop_bin="$(cd "$shop" && swift build --show-bin-path)/ShopApp"
"$shop_bin" "$work/shop"
"$shop_bin" "$work/shop-whole" whole > /dev/null
python3 "$root/.ci/recording_guide_check.py" "$bin" "$work/shop" "$work/shop-whole" "$shop"
echo "recording guide: ok"
