"""The ablation playground as a notebook widget (JupyterLab, Notebook 7, VS Code, Colab, marimo).

    from ablation_playground import Playground
    w = Playground(depth=12, residual=False)
    w

Every parameter of the playground is a synced trait, both ways: a slider move updates
``w.depth``, and ``w.norm = "post"`` restarts the widget. On/off switches are booleans,
choices strings, numbers numbers. ``w.value`` holds the readouts and the comparisons, as the
element's ``value`` does; ``w.play()``, ``pause()``, ``step()``, ``reset()``, ``pin()``,
``compare()``, ``sweep()``, ``depth_width()`` and ``knockout()`` drive it.

The front end (``static/widget.js``) is self-contained: the wasm core, the worker's scripts,
the stylesheet and the text are inlined, since anywidget imports it from a ``blob:`` URL.
"""

from pathlib import Path

import anywidget
import traitlets

from ._params import COMPARISONS, PARAMS, PRESETS, RANGES

__all__ = ["Playground", "PARAMS", "PRESETS"]
__version__ = "0.1.0"

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
    traits["controls"] = traitlets.Unicode(None, allow_none=True, help="the controls shown, as the attribute").tag(sync=True)
    traits["panels"] = traitlets.Unicode(None, allow_none=True, help="the panels shown, as the attribute").tag(sync=True)
    traits["autoplay"] = traitlets.Bool(True, help="train as soon as shown").tag(sync=True)
    # the parameters given to the constructor: the front end writes them as attributes even
    # where they equal the default, so that they adjust a preset as attributes do
    traits["given"] = traitlets.List(traitlets.Unicode(), help="the parameters the constructor was given").tag(sync=True)
    # what the widget shows: the parameters, the readouts and the comparisons (read it)
    traits["value"] = traitlets.Dict({}, help="the element's value: readouts and comparisons").tag(sync=True)
    return traits


def _method(name):
    def call(self):
        self.send({"method": name})

    call.__name__ = name
    call.__doc__ = f"The widget's {name}(), as the element's and the page's button."
    return call


class _Base(anywidget.AnyWidget):
    _esm = Path(__file__).parent / "static" / "widget.js"
    # the stylesheet is inlined in the module, into the widget's own shadow root

    def __init__(self, **kwargs):
        names = {p[0] for p in PARAMS}
        super().__init__(**kwargs)
        self.given = [name for name in kwargs if name in names]


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
