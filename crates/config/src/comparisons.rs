//! The page's comparisons, by name: one entry each, from which the page's panels, the
//! controller's and the element's methods, the lesson steps' calls, the notebook's methods,
//! `.value`'s fields and `ablate`'s flags come (written into `www/schema.js`, `_params.py` and
//! `npm/params.d.ts` by `schema.rs`), so that a comparison is named once. Each comparison's
//! module (`comparisons/`) takes its entry as its `Comparison::SPEC`.

/// One comparison of the page.
pub struct ComparisonSpec {
    /// Its panel, in `panels=` and the markup (`data-panel`).
    pub panel: &'static str,
    /// The element's and the controller's method that starts it, and a lesson step's `data-call`.
    pub method: &'static str,
    /// The notebook widget's method.
    pub python: &'static str,
    /// Its name in the page's menus (the Download menu), as its chart's accessible name says it.
    pub label: &'static str,
    /// It measures the live run's stack, so the live run's worker starts it (the knockout);
    /// otherwise the wasm `View` starts its jobs in the pool from the settings.
    pub from_live_stack: bool,
    /// Its field in `.value`, in the events and in `ablate`'s report.
    pub field: &'static str,
    /// `ablate`'s flag that runs it.
    pub flag: &'static str,
    /// Its button among the controls, and the button in its panel that runs it again.
    pub button: &'static str,
    pub again: &'static str,
    /// Its chart's accessible name until the first drawing names it by its sentence.
    pub chart: &'static str,
    /// The tables of its record (`Comparison::report`'s rows), by field, in the panel's order:
    /// each folded under its summary, or shown whole (`None`).
    pub tables: &'static [(&'static str, Option<&'static str>)],
    /// What its runs write, where it has room for it: the group's accessible name.
    pub writes: Option<&'static str>,
}

impl ComparisonSpec {
    /// Its words the page shows, each with its part's name in the catalogue's message
    /// (`messages::comparison_message`): `button`, `again`, `chart`, `writes` where it
    /// has them and `summary-N` for its N-th table's summary.
    pub fn words(&self) -> Vec<(String, &'static str)> {
        let mut out = vec![
            ("button".to_string(), self.button),
            ("again".into(), self.again),
            ("chart".into(), self.chart),
        ];
        out.extend(self.writes.map(|w| ("writes".to_string(), w)));
        for (i, (_, summary)) in self.tables.iter().enumerate() {
            out.extend(summary.map(|s| (format!("summary-{i}"), s)));
        }
        out
    }
}

/// "All four": the four switch combinations side by side.
pub const COMPARE: ComparisonSpec = ComparisonSpec {
    panel: "compare",
    method: "compare",
    python: "compare",
    label: "All four",
    from_live_stack: false,
    field: "compare",
    flag: "compare",
    button: "All four",
    again: "Train all four",
    chart: "All four combinations",
    tables: &[("table", None), ("readout", Some("What each depth would predict"))],
    writes: Some("What each combination writes"),
};

/// The depth sweep: the four combinations over depths.
pub const SWEEP: ComparisonSpec = ComparisonSpec {
    panel: "sweep",
    method: "sweep",
    python: "sweep",
    label: "Depth sweep",
    from_live_stack: false,
    field: "sweep",
    flag: "sweep",
    button: "Depth sweep",
    again: "Sweep depths",
    chart: "Depth sweep",
    tables: &[(
        "table",
        Some("The numbers (each cell: the loss after the steps, then the gradient ratio at initialisation)"),
    )],
    writes: None,
};

/// Depth or width: shapes of one parameter budget.
pub const DEPTH_WIDTH: ComparisonSpec = ComparisonSpec {
    panel: "depth-width",
    method: "depthWidth",
    python: "depth_width",
    label: "Depth or width",
    from_live_stack: false,
    field: "depth_width",
    flag: "depth-width",
    button: "Depth or width",
    again: "Train depth or width",
    chart: "Depth or width",
    tables: &[("table", Some("Each shape's numbers"))],
    writes: None,
};

/// The layer knockout of the live run's stack.
pub const KNOCKOUT: ComparisonSpec = ComparisonSpec {
    panel: "knockout",
    method: "knockout",
    python: "knockout",
    label: "Layer knockout",
    from_live_stack: true,
    field: "knockout",
    flag: "knockout",
    button: "Knock out layers",
    again: "Knock out each layer",
    chart: "Layer knockout",
    tables: &[
        ("table", Some("Each layer's numbers")),
        ("removals", Some("Several layers at once: the upper k, and k at random")),
    ],
    writes: None,
};

/// Every comparison, in the page's order (the registry in `comparisons/mod.rs` lists the same).
pub static COMPARISONS: &[ComparisonSpec] = &[COMPARE, SWEEP, DEPTH_WIDTH, KNOCKOUT];
