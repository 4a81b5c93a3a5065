# Prints the commands of docs/bisect.md's worked example: the shell block after
# "## Worked example", its `$ ` and `> ` lines and the here-document they write,
# in order; the rest of the block is output. Used by .ci/install_and_bisect.sh and
# by the tests (GitBisectTests), so that both run the example as written.
# Usage: awk -f .ci/worked_example.awk docs/bisect.md > example.sh
/^## Worked example/ { section = 1; next }
section && /^```sh$/ { block = 1; next }
block && /^```$/ { exit }
block && heredoc { print; if ($0 == heredoc) heredoc = ""; next }
block && /^\$ / { line = substr($0, 3); print line }
block && /^> / { line = substr($0, 3); print line }
block && line ~ /<<[A-Z]+$/ { heredoc = line; sub(/.*<</, "", heredoc); line = "" }
