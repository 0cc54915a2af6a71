# Sourced after scripts/tools.sh (which defines `say`): the Docusaurus 3 site of the browser
# tests (tests/e2e/docusaurus-tests.mjs), its dependencies installed from the npm registry at the
# versions its package-lock.json pins. Quiet, and quick when they are there already.

ensure_docusaurus() {
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  local stamp
  stamp="$(node --version) $(sha256sum <"$dir/package-lock.json" | cut -d' ' -f1)"
  if [ "$(cat "$dir/node_modules/.ap-installed" 2>/dev/null)" != "$stamp" ]; then
    say "installing Docusaurus for the browser tests into $dir/node_modules (about a minute)"
    (cd "$dir" && npm ci --loglevel=error --no-audit --no-fund --no-update-notifier >/dev/null) || return 1
    printf '%s\n' "$stamp" >"$dir/node_modules/.ap-installed"
  fi
  export AP_DOCUSAURUS_DIR="$dir"
}
