"""The figure a notebook keeps where no front end runs the widget (an nbconvert export, a static
viewer, a PDF): the charts `ablate --svg` draws for the widget's state, with the status line as
text, put beside the live view in the cell's output (`text/html` and `text/plain`; a front end
with the widget manager shows the widget instead).

`ablate` is the playground's own command line, compiled to WebAssembly (WASI) into the wheel
(`static/ablate.wasm`) and run here by wasmtime: the same core, so the same numbers and the same
SVG files as `ablate --svg` natively, bit for bit. It trains the widget's configuration for as
many steps as the live widget showed last (`value["step"]`), or `DEFAULT_STEPS` when no front
end has run it (a notebook executed by nbconvert), at most `MAX_STEPS` and fewer for a large
stack (`steps_to_draw`); the caption says how many.
"""

import html
import re
import tempfile
import threading
from pathlib import Path

from ._params import CHARTS, FLAGS, PARAMS

ABLATE = Path(__file__).parent / "static" / "ablate.wasm"
DEFAULT_STEPS = 300
MAX_STEPS = 2000
BUDGET = 40_000_000
# the panels in the page's order (ablate writes those that have something to draw)
ORDER = CHARTS

_compiled = None
_lock = threading.Lock()
_figures = {}  # ablate's arguments -> Figure, the last KEPT drawn
KEPT = 8


class Figure:
    """What ablate drew: `panels` [(name, SVG text)], the `status` line, the `args` it ran
    with and the `steps` trained; or `error`, a sentence saying why there is no figure."""

    def __init__(self, args, steps, panels=(), status="", error=""):
        self.args, self.steps, self.panels, self.status, self.error = args, steps, list(panels), status, error

    def command(self):
        return "ablate " + " ".join(self.args)

    def html(self):
        if self.error:
            return f'<p class="ablation-playground-static"><em>No static figure of the playground: {html.escape(self.error)}</em></p>'
        # each chart at half its drawn size, two or three to a row (the SVG scales: it has a viewBox)
        sized = '<svg style="width:100%;height:auto" '
        charts = "".join(
            f'<div style="flex:0 1 {_width(svg) // 2}px;max-width:100%">{svg.replace("<svg ", sized, 1)}</div>'
            for _, svg in self.panels
        )
        return (
            '<figure class="ablation-playground-static" style="margin:0">'
            f'<div style="display:flex;flex-wrap:wrap;gap:8px">{charts}</div>'
            f"<figcaption><strong>{html.escape(self.status)}</strong><br>"
            f"A static figure of the playground: {self.steps} steps trained by <code>{html.escape(self.command())}</code> "
            "in the kernel (the same numbers as the command line gives). A notebook front end shows the live widget here."
            "</figcaption></figure>"
        )

    def text(self):
        if self.error:
            return f"No static figure of the playground: {self.error}"
        return f"{self.status}\n(a static figure: {self.command()})"


def _width(svg):
    found = re.match(r'<svg width="(\d+)"', svg)
    return int(found.group(1)) if found else 640


def _text(kind, value):
    if kind == "switch":
        return "on" if value else "off"
    return str(value)


def _same(kind, value, default):
    if kind in ("int", "float", "seed"):
        return float(value) == float(default)
    return _text(kind, value) == _text(kind, default)


def ablate_args(widget, steps):
    """ablate's flags for the widget's state. Once a front end has run it, the traits are the
    element's state (it writes every change back): each parameter is a flag. Before, as the
    front end gives the element its attributes: the preset first, then every parameter the
    constructor was given or that differs from its default (they adjust the preset)."""
    shown = "depth" in (widget.value or {})
    args = []
    if widget.preset and not shown:
        args += ["--preset", widget.preset]
    given = set(widget.given)
    for name, kind, default, _, _ in PARAMS:
        value = getattr(widget, name)
        if name in ("steps", "text_id") or (not shown and name not in given and _same(kind, value, default)):
            continue
        args += [f"--{FLAGS[name]}", _text(kind, value)]
    return args + ["--steps", str(steps)]


def steps_to_draw(widget):
    """As many steps as the live widget last showed, or DEFAULT_STEPS if no front end ran it;
    at most MAX_STEPS, and fewer for a large stack, so that a display costs the kernel about
    as much as 300 steps at the defaults (BUDGET: sublayers × tokens × width per step)."""
    shown = (widget.value or {}).get("step") or 0
    wanted = shown if shown > 0 else min(DEFAULT_STEPS, widget.steps)
    per_step = max(1, widget.depth * widget.tokens * widget.width)
    return max(1, min(wanted, MAX_STEPS, BUDGET // per_step))


def _engine():
    global _compiled
    if _compiled is None:
        from wasmtime import Engine, Module  # noqa: PLC0415 (only where a figure is drawn)

        engine = Engine()
        _compiled = (engine, Module.from_file(engine, str(ABLATE)))
    return _compiled


def _run(args, text):
    """Runs ablate with `args`, its figures and status line written to a directory of its own;
    returns (panels, status) or raises RuntimeError with what ablate said."""
    from wasmtime import ExitTrap, Linker, Store, WasiConfig  # noqa: PLC0415

    engine, module = _engine()
    with tempfile.TemporaryDirectory() as out:
        out = Path(out)
        (out / "svg").mkdir()
        wasi = WasiConfig()
        args = list(args)
        if text is not None:
            (out / "text.txt").write_text(text, encoding="utf-8")
            args += ["--text", "/run/text.txt"]
        wasi.argv = ["ablate", *args, "--svg", "/run/svg"]
        wasi.preopen_dir(str(out), "/run")
        wasi.stdout_file = str(out / "report.json")
        wasi.stderr_file = str(out / "said.txt")
        linker = Linker(engine)
        linker.define_wasi()
        store = Store(engine)
        store.set_wasi(wasi)
        code = 0
        try:
            linker.instantiate(store, module).exports(store)["_start"](store)
        except ExitTrap as e:
            code = e.code
        if code != 0:
            said = (out / "said.txt").read_text(encoding="utf-8", errors="replace").strip()
            raise RuntimeError(said or f"ablate stopped with code {code}")
        svgs = {p.stem: p.read_text(encoding="utf-8") for p in (out / "svg").glob("*.svg")}
        names = [n for n in ORDER if n in svgs] + sorted(set(svgs) - set(ORDER))
        return [(n, svgs[n]) for n in names], (out / "svg" / "status.txt").read_text(encoding="utf-8").strip()


def figure(widget):
    """The widget's static figure (a Figure; never raises: a figure that cannot be drawn says
    why), or None where wasmtime cannot run (a browser's Python: the wheel leaves it out)."""
    try:
        import wasmtime  # noqa: F401, PLC0415
    except ImportError:
        return None
    steps = steps_to_draw(widget)
    try:
        args = ablate_args(widget, steps)
    except Exception as e:  # a trait of a kind this code does not know
        return Figure([], steps, error=str(e))
    text = None
    if widget.text:
        text = widget.text
    elif widget.text_id != "plays" or widget.text_src:
        return Figure(args, steps, error="it trains on a reader's text, which the kernel does not have (set w.text to draw it)")
    key = (tuple(args), text)
    with _lock:
        if key in _figures:
            return _figures[key]
        try:
            panels, status = _run(args, text)
            if steps < widget.steps:  # ablate's run ends here; the widget's goes on
                status = status.removesuffix(" · finished")
            drawn = Figure(args, steps, panels, status)
        except Exception as e:
            drawn = Figure(args, steps, error=str(e))
        _figures[key] = drawn
        while len(_figures) > KEPT:
            del _figures[next(iter(_figures))]
        return drawn
