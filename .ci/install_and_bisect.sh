#!/usr/bin/env bash
# The README's install step on a fresh home, then docs/bisect.md's worked example as written,
# with a real `git bisect run` calling the installed, bare `spatial-replay`, on a machine where
# git was never set up: a fresh HOME, no system configuration, no identity (none guessed either).
# Usage: bash .ci/install_and_bisect.sh   (from anywhere inside the clone)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A fresh home: nothing installed in it, its bin folder on the PATH as the README says.
export HOME="$work/home"
mkdir -p "$HOME"
export PATH="$HOME/.local/bin:$PATH"
# No git identity, as on a fresh machine: the worked example sets its own, inside its repository.
# user.useConfigOnly: git may not guess one from the user's and the host's names either.
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL GIT_CONFIG_GLOBAL
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.useConfigOnly GIT_CONFIG_VALUE_0=true
if git config --global user.name >/dev/null || git config --global user.email >/dev/null; then
  echo "a git identity is set: the worked example would not be tried as on a fresh machine" >&2
  exit 1
fi
# The example's temporary folders (mktemp -d) go with the rest.
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"

install_line="$(grep -E '^swift build -c release .*install -m 755' README.md)"
[[ -n "$install_line" ]] || { echo "README.md: no install line (swift build -c release ... install -m 755 ...)" >&2; exit 1; }
echo "install: $install_line"
bash -euo pipefail -c "$install_line"
installed="$(command -v spatial-replay)"
[[ "$installed" == "$HOME/.local/bin/spatial-replay" ]] || { echo "spatial-replay is $installed, not the installed one" >&2; exit 1; }
spatial-replay --version
spatial-replay check -q Journals/notes.intended.ndjson

# The worked example: the shell block after "## Worked example", its `$ ` and `> ` lines and
# the here-document they write, run in order; the rest is output (.ci/worked_example.awk).
awk -f .ci/worked_example.awk docs/bisect.md >"$work/example.sh"
echo "docs/bisect.md's worked example:"
cat "$work/example.sh"
[[ -s "$work/example.sh" ]] || { echo "docs/bisect.md: no worked example found" >&2; exit 1; }
bash -e "$work/example.sh" >"$work/out" 2>&1 || { cat "$work/out"; echo "the worked example failed" >&2; exit 1; }
cat "$work/out"
grep -q "is the first bad commit" "$work/out" || { echo "git bisect found no first bad commit" >&2; exit 1; }
grep -Eq "^ +build 08$" "$work/out" || { echo "the first bad commit is not build 08" >&2; exit 1; }
if grep -q "bogus exit code\|cannot bisect more" "$work/out"; then echo "git bisect run failed" >&2; exit 1; fi
if grep -q "Author identity unknown" "$work/out"; then echo "the worked example needs a git identity" >&2; exit 1; fi
echo "install and bisect example: ok"
