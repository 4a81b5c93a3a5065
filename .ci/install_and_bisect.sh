#!/usr/bin/env bash
# The README's install step on a fresh home, then docs/bisect.md's worked example as written,
# with a real `git bisect run` calling the installed, bare `spatial-replay`.
# Usage: bash .ci/install_and_bisect.sh   (from anywhere inside the clone)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work" /tmp/demo /tmp/probe.sh' EXIT

# A fresh home: nothing installed in it, its bin folder on the PATH as the README says.
export HOME="$work/home"
mkdir -p "$HOME"
export PATH="$HOME/.local/bin:$PATH"
# git needs an identity to commit; a fresh CI machine has none.
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid

install_line="$(grep -E '^swift build -c release .*install -m 755' README.md)"
[[ -n "$install_line" ]] || { echo "README.md: no install line (swift build -c release ... install -m 755 ...)" >&2; exit 1; }
echo "install: $install_line"
bash -euo pipefail -c "$install_line"
installed="$(command -v spatial-replay)"
[[ "$installed" == "$HOME/.local/bin/spatial-replay" ]] || { echo "spatial-replay is $installed, not the installed one" >&2; exit 1; }
spatial-replay --version
spatial-replay check -q Journals/notes.intended.ndjson

# The worked example: the shell block after "## Worked example", its `$ ` and `> ` lines and
# the here-document they write, run in order; the rest is output.
awk '
  /^## Worked example/ { section = 1; next }
  section && /^```sh$/ { block = 1; next }
  block && /^```$/ { exit }
  block && heredoc { print; if ($0 == heredoc) heredoc = ""; next }
  block && /^\$ / { line = substr($0, 3); print line }
  block && /^> / { line = substr($0, 3); print line }
  block && line ~ /<<[A-Z]+$/ { heredoc = line; sub(/.*<</, "", heredoc); line = "" }
' docs/bisect.md >"$work/example.sh"
echo "docs/bisect.md's worked example:"
cat "$work/example.sh"
[[ -s "$work/example.sh" ]] || { echo "docs/bisect.md: no worked example found" >&2; exit 1; }
rm -rf /tmp/demo
bash -e "$work/example.sh" >"$work/out" 2>&1 || { cat "$work/out"; echo "the worked example failed" >&2; exit 1; }
cat "$work/out"
grep -q "is the first bad commit" "$work/out" || { echo "git bisect found no first bad commit" >&2; exit 1; }
grep -Eq "^ +build 08$" "$work/out" || { echo "the first bad commit is not build 08" >&2; exit 1; }
if grep -q "bogus exit code\|cannot bisect more" "$work/out"; then echo "git bisect run failed" >&2; exit 1; fi
echo "install and bisect example: ok"
