"""The ablation playground as a notebook widget (JupyterLab, Notebook 7, VS Code, Colab, marimo).

    from ablation_playground import Playground
    w = Playground(depth=12, residual=False)
    w

Every parameter of the playground is a synced trait, both ways: a slider move updates
``w.depth``, and ``w.norm = "post"`` restarts the widget. On/off switches are booleans,
choices strings, numbers numbers. ``w.value`` holds the readouts and the comparisons, as the
element's ``value`` does; ``w.play()``, ``pause()``, ``step()``, ``reset()``, ``pin()``,
``compare()``, ``sweep()``, ``depth_width()`` and ``knockout()`` drive it.

A reader's own text: ``w.text = open("poem.txt").read()`` (or ``w.text_src = "URL"``) trains
the text task on it. ``w.prompt("ROMEO.")`` asks the stack to continue a prompt; the
continuation comes back from the browser into ``w.writing`` and into the future the call
returns (``.result()`` in a later cell: a cell cannot wait for its own widget). ``w.save_weights
(path)`` writes the run's weights (safetensors) once the browser has sent them, and
``w.load_weights(path)`` starts the run from a weights file.

Where no front end runs the widget (a notebook exported by nbconvert, a static viewer, a PDF),
the cell shows a static figure instead: the charts ``ablate --svg`` draws for the widget's state,
trained in the kernel by the playground's core compiled to WebAssembly (``static/ablate.wasm``,
run by wasmtime), with the status line as text.

The front end (``static/widget.js``) is self-contained: the wasm core, the worker's scripts,
the stylesheet and the text are inlined, since anywidget imports it from a ``blob:`` URL.
"""

from concurrent.futures import Future
from pathlib import Path

import anywidget
import traitlets

from ._figure import figure
from ._params import ATTRIBUTES, COMPARISONS, PARAMS, PRESETS, RANGES

__all__ = ["Playground", "PARAMS", "PRESETS"]
try:  # written into the wheel from Cargo.toml, the one version number (scripts/wheel.py)
    from ._version import __version__
except ImportError:  # the source tree, not installed
    __version__ = "0+source"

METHODS = ("play", "pause", "step", "reset", "pin", *COMPARISONS)


class _Checked:
    """A number the table bounds: a value outside it is refused with the table's own words,
    as the element and the CLI refuse it (`depth: "500" is not an integer from 1 to 96`)."""

    def validate(self, obj, value):
        value = super().validate(obj, value)
        lo, hi, multiple, allowed = RANGES[self.name]
        if not lo <= value <= hi or (multiple is not None and value % multiple):
            raise traitlets.TraitError(f'{self.name}: "{value}" is not {allowed}')
        return value


class _Int(_Checked, traitlets.Int):
    pass


class _Float(_Checked, traitlets.Float):
    pass


def _trait(kind, default, choices, help):
    if kind == "switch":
        trait = traitlets.Bool(default, help=help)
    elif kind == "choice":
        trait = traitlets.Enum(choices, default_value=default, help=help)
    elif kind == "float":
        trait = _Float(default, help=help)
    elif kind == "text":
        trait = traitlets.Unicode(default, help=help)
    elif kind == "seed":
        # a seed crosses to JavaScript as text: a number above 2**53 would arrive as another
        return _Int(default, help=help).tag(sync=True, to_json=lambda v, _: str(v), from_json=lambda v, _: int(v))
    else:
        trait = _Int(default, help=help)
    return trait.tag(sync=True)


def _traits():
    traits = {name: _trait(kind, default, choices, help) for name, kind, default, choices, help in PARAMS}
    # a preset sets every parameter first; the ones given with it then adjust it
    traits["preset"] = traitlets.Unicode("", help="a preset's name: " + ", ".join(PRESETS)).tag(sync=True)
    # (the attribute `pin`; `pin()` is the method that pins the live run)
    traits["pinned"] = traitlets.Unicode("", help="pinned runs, as the pin attribute: residual:off@500;@1200").tag(sync=True)
    # the element's own attributes (its controls, its panels, autoplay, a text's URL)
    for trait, attribute, kind, default, help in ATTRIBUTES:
        help = f"{help} (the {attribute} attribute)"
        if kind == "flag":
            traits[trait] = traitlets.Bool(default, help=help).tag(sync=True)
        else:
            traits[trait] = traitlets.Unicode(default, allow_none=default is None, help=help).tag(sync=True)
    # the parameters given to the constructor: the front end writes them as attributes even
    # where they equal the default, so that they adjust a preset as attributes do
    traits["given"] = traitlets.List(traitlets.Unicode(), help="the parameters the constructor was given").tag(sync=True)
    # what the widget shows: the parameters, the readouts and the comparisons (read it)
    traits["value"] = traitlets.Dict({}, help="the element's value: readouts and comparisons").tag(sync=True)
    # a reader's text, given as text or by URL, and what the stack wrote after the last prompt
    traits["text"] = traitlets.Unicode("", help="a text of your own to train the text task on").tag(sync=True)
    traits["writing"] = traitlets.Unicode("", help="what the stack wrote after the last prompt()").tag(sync=True)
    # the element's id, for lesson steps that name it (data-ablation-playground="…")
    traits["element_id"] = traitlets.Unicode("", help="the element's id, which lesson steps name").tag(sync=True)
    return traits


def _with_figure(bundle, drawn):
    """A mimebundle (data, or (data, metadata)) with the static figure as its HTML and text."""
    if bundle is None or drawn is None:
        return bundle
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
    data = {**data, "text/html": drawn.html(), "text/plain": drawn.text()}
    return (data, metadata) if metadata is not None else data


def _method(name):
    def call(self):
        self.send({"method": name})

    call.__name__ = name
    call.__doc__ = f"The widget's {name}(), as the element's and the page's button."
    return call


class _Base(anywidget.AnyWidget):
    _esm = Path(__file__).parent / "static" / "widget.js"
    #: False: no static figure beside the live view (it costs a short run in the kernel each
    #: time the widget is shown)
    static_figure = True
    # the stylesheet is inlined in the module, into the widget's own shadow root

    def __init__(self, **kwargs):
        names = {p[0] for p in PARAMS}
        super().__init__(**kwargs)
        self.given = [name for name in kwargs if name in names]
        self._waiting = {}  # request number -> (what, Future, path)
        self._static_outputs = []  # the static figures' outputs, until a front end shows the view
        self._static_emptied = 0  # how many a front end has emptied
        self._requests = 0
        self.on_msg(self._answered)

    def _ask(self, content, what, path=None, buffers=None):
        self._requests += 1
        future = Future()
        self._waiting[self._requests] = (what, future, path)
        self.send({**content, "request": self._requests}, buffers)
        return future

    def _answered(self, _widget, content, buffers):
        if content.get("event") == "shown":
            # a front end shows the live view: the static figure's own output goes
            for handle in self._static_outputs:
                handle.update({"text/plain": ""}, raw=True)
                self._static_emptied += 1
            self._static_outputs.clear()
            return
        what, future, path = self._waiting.pop(content.get("request"), (None, None, None))
        if future is None:
            return
        if content.get("error"):
            future.set_exception(RuntimeError(content["error"]))
        elif what == "prompt":
            self.writing = content.get("continuation") or ""
            future.set_result(self.writing)
        elif what == "weights":
            Path(path).write_bytes(bytes(buffers[0]))
            future.set_result(path)
        else:
            future.set_result(None)

    def prompt(self, text, chars=200):
        """Asks the stack to continue ``text`` by ``chars`` characters (seeded, at the
        temperature). Returns a future of the continuation, also put into ``w.writing`` once the
        browser has written it."""
        return self._ask({"method": "prompt", "text": str(text), "chars": int(chars)}, "prompt")

    def save_weights(self, path):
        """Writes the run's weights to ``path`` (safetensors, docs/cli.md "The weights file") once
        the browser has sent them; returns a future of the path."""
        return self._ask({"method": "export", "what": "weights"}, "weights", path=str(path))

    def _live_view(self, **kwargs):
        """anywidget's mimebundle of the live view (None from an older ipywidgets without one),
        and the static figure (None where none is drawn)."""
        base = getattr(super(), "_repr_mimebundle_", None)
        bundle = base(**kwargs) if base else None
        drawn = figure(self) if bundle is not None and self.static_figure else None
        return bundle, drawn

    def _repr_mimebundle_(self, **kwargs):
        """The live view, and in the same output the static figure (``_figure.py``): what
        nbconvert shows of a notebook saved without its widgets' state (JupyterLab's default),
        a static viewer, or a PDF."""
        bundle, drawn = self._live_view(**kwargs)
        return _with_figure(bundle, drawn)

    def _ipython_display_(self):
        """The live view's output, then the static figure in an output of its own, which the
        front end empties once it shows the live view. An executed notebook keeps the widgets'
        state (`nbconvert --execute` does), and nbconvert then shows the view's output as a
        live widget loaded from a CDN, which offline, or in a viewer that runs no widget, is a
        blank: the second output is what shows there."""
        from IPython.display import display  # noqa: PLC0415

        bundle, drawn = self._live_view()
        if bundle is None:  # an older ipywidgets without mimebundles: its own display
            return super()._ipython_display_()
        data, metadata = _with_figure(bundle, drawn), {}
        if isinstance(data, tuple):
            data, metadata = data
        display(data, raw=True, metadata=metadata)
        if drawn is not None:
            handle = display({"text/html": drawn.html(), "text/plain": drawn.text()}, raw=True, display_id=True)
            self._static_outputs.append(handle)

    def load_weights(self, path):
        """Starts the run from the weights in ``path`` (a safetensors file the playground wrote):
        its configuration, then its weights, measured at step 0."""
        return self._ask({"method": "load_weights"}, "load", buffers=[Path(path).read_bytes()])


Playground = type(
    "Playground",
    (_Base,),
    {
        "__doc__": __doc__,
        "__module__": __name__,
        **_traits(),
        **{name: _method(name) for name in METHODS},
    },
)
