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

# The install step: every line of the shell block after "## Install", as written.
awk '/^## Install/ { section = 1; next } section && /^```sh$/ { block = 1; next } block && /^```$/ { exit } block { print }' \
  README.md >"$work/install.sh"
grep -Eq '^swift build -c release .*install -m 755' "$work/install.sh" ||
  { echo "README.md: the install step installs no binary (swift build -c release ... install -m 755 ...)" >&2; exit 1; }
echo "install:"
cat "$work/install.sh"
bash -euo pipefail "$work/install.sh"
installed="$(command -v spatial-replay)"
[[ "$installed" == "$HOME/.local/bin/spatial-replay" ]] || { echo "spatial-replay is $installed, not the installed one" >&2; exit 1; }
spatial-replay --version
spatial-replay check -q Journals/notes.intended.ndjson

# The manual page and the completions, where man and the shells find them.
for file in "$HOME/.local/share/man/man1/spatial-replay.1" "$HOME/.local/share/bash-completion/completions/spatial-replay" \
  "$HOME/.local/share/zsh/site-functions/_spatial-replay" "$HOME/.config/fish/completions/spatial-replay.fish"; do
  [[ -s "$file" ]] || { echo "the install step wrote no $file" >&2; exit 1; }
  echo "installed: $file"
done
if command -v man >/dev/null; then
  # man's own search path, from the PATH (~/.local/bin gives ~/.local/share/man), as a user's shell has it.
  found="$(env -u MANPATH man -w spatial-replay)" || { echo "man spatial-replay finds nothing after the install step" >&2; exit 1; }
  [[ "$found" == "$HOME/.local/share/man/man1/spatial-replay.1" ]] || { echo "man -w spatial-replay: $found" >&2; exit 1; }
  echo "man -w spatial-replay: $found"
else
  echo "skip: man is not installed; where man finds the page is not checked"
fi
bash -n "$HOME/.local/share/bash-completion/completions/spatial-replay"
if command -v zsh >/dev/null; then
  # With the line the README gives for ~/.zshrc, compinit registers the completion.
  zsh -fc 'fpath=(~/.local/share/zsh/site-functions $fpath); autoload -U compinit; compinit -u -d "$1/zcompdump";
    [[ -n ${_comps[spatial-replay]} ]]' zsh "$work" || { echo "zsh does not find the installed completion" >&2; exit 1; }
fi
if command -v fish >/dev/null; then
  fish -c 'complete -C "spatial-replay chec"' | grep -q '^check' || { echo "fish does not find the installed completion" >&2; exit 1; }
fi

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
