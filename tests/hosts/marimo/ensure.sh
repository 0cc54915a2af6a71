# Sourced after scripts/tools.sh (it uses `say` and $TOOLS_DIR): marimo, a real host of the
# notebook widget for the browser tests (tests/e2e/marimo-tests.mjs), in a virtualenv of its
# own, so that it holds marimo and what our wheel needs and nothing else. The test installs
# the wheel just built into it (pip install --force-reinstall), anywidget with it.
MARIMO_VERSION=0.25.2

ensure_marimo() {
  local venv="$TOOLS_DIR/hosts/marimo-venv"
  if [ "$("$venv/bin/pip" show marimo 2>/dev/null | sed -n 's/^Version: //p')" != "$MARIMO_VERSION" ]; then
    say "installing marimo $MARIMO_VERSION into $venv (about 20 s)"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "marimo==$MARIMO_VERSION"
  fi
  export AP_MARIMO_VENV="$venv"
}
