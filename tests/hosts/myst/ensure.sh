# Sourced after scripts/tools.sh (it uses `say`): mystmd, the MyST / Jupyter Book 2 command
# line, and the MyST theme's own {anywidget} renderer (@myst-theme/anywidget, with React and the
# theme's colours, @myst-theme/styles), for tests/e2e/myst-tests.mjs, from the npm registry at
# the versions package-lock.json pins. node_modules is installed here, beside the lock file,
# only when it is missing or older than the lock file.

ensure_myst() {
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  if [ ! -x "$dir/node_modules/.bin/myst" ] || [ ! -f "$dir/node_modules/.package-lock.json" ] ||
    [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    say "installing mystmd and the MyST theme's anywidget renderer into $dir/node_modules (about 15 s)"
    (cd "$dir" && npm ci --silent --no-audit --no-fund)
  fi
  export AP_MYST_DIR="$dir"
}
