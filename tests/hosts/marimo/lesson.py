# A lesson in marimo, the host tests/e2e/marimo-tests.mjs runs with `marimo run` (marimo
# 0.25.2, tests/hosts/marimo/ensure.sh): the Playground as a marimo UI element, what Python
# sees of it, a marimo control that changes it from Python, and a lesson step.

import marimo

__generated_with = "0.25.2"
app = marimo.App()


@app.cell
def _():
    import marimo as mo
    from ablation_playground import Playground

    return Playground, mo


@app.cell
def _(Playground, mo):
    # `w` is the widget, `pg` the marimo UI element wrapping it: a move in the widget re-runs
    # the cells that read `pg`; cells that only write `w` run when their own inputs change
    w = Playground(preset="copy", depth=6, element_id="p1")
    pg = mo.ui.anywidget(w)
    pg
    return pg, w


@app.cell
def _(mo, pg):
    # pg.value: every synced trait of the widget, as a dict (the element's readouts are in
    # pg.value["value"])
    mo.md(
        f"Python sees depth {pg.value['depth']}, norm {pg.value['norm']}, "
        f"residual {'on' if pg.value['residual'] else 'off'}, "
        f"pins: {pg.value['pinned'] or 'none'}"
    )
    return


@app.cell
def _(mo, w):
    norm = mo.ui.dropdown(
        ["off", "pre", "post", "sandwich", "deepnorm"],
        value=w.norm,
        label="LayerNorm, set from Python",
    )
    norm
    return (norm,)


@app.cell
def _(norm, w):
    # Python → the widget: setting a trait restarts it in that state
    w.norm = norm.value
    return


@app.cell
def _(mo, w):
    # a lesson step, marimo's way: a button whose click sets traits and calls a method
    def residual_off(_):
        w.residual = False
        w.play()

    step = mo.ui.button(label="Turn the residual off", on_click=residual_off)
    mo.md(f"Now see what happens without the residual path: {step}")
    return (step,)


@app.cell
def _(mo):
    # a lesson step as on any page: a button naming the element's id (element_id), with no
    # Python behind it
    mo.md(
        '<button type="button" data-ablation-playground="p1" data-set="norm=sandwich" '
        'data-call="pause">Sandwich it, and pause</button>'
    )
    return


if __name__ == "__main__":
    app.run()
