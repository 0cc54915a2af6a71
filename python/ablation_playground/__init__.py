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

from ._params import PARAMS, PRESETS

__all__ = ["Playground", "PARAMS", "PRESETS"]
__version__ = "0.1.0"

METHODS = ("play", "pause", "step", "reset", "pin", "compare", "sweep", "depth_width", "knockout")


def _trait(kind, default, choices, help):
    if kind == "switch":
        trait = traitlets.Bool(default, help=help)
    elif kind == "choice":
        trait = traitlets.Enum(choices, default_value=default, help=help)
    elif kind == "float":
        trait = traitlets.Float(default, help=help)
    else:  # int, seed
        trait = traitlets.Int(default, help=help)
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
