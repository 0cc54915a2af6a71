//! The page's comparisons, by name: one list, from which the page's panels, the controller's
//! and the element's methods, the lesson steps' calls and the notebook's methods come (written
//! into `www/schema.js` and `_params.py` by `schema.rs`), so that a comparison is named once.

/// One comparison of the page.
pub struct ComparisonSpec {
    /// Its panel, in `panels=` and the markup (`data-panel`).
    pub panel: &'static str,
    /// The element's and the controller's method that starts it, and a lesson step's `data-call`.
    pub method: &'static str,
    /// The notebook widget's method.
    pub python: &'static str,
    /// The wasm `View`'s method that starts its jobs in the pool; empty for the knockout, which
    /// the live run's worker starts (it measures the live stack).
    pub view_start: &'static str,
    /// Its field in `.value`, in the events and in `ablate`'s report.
    pub field: &'static str,
    /// `ablate`'s flag that runs it.
    pub flag: &'static str,
}

pub const COMPARISONS: &[ComparisonSpec] = &[
    ComparisonSpec {
        panel: "compare",
        method: "compare",
        python: "compare",
        view_start: "startCompare",
        field: "compare",
        flag: "compare",
    },
    ComparisonSpec {
        panel: "sweep",
        method: "sweep",
        python: "sweep",
        view_start: "startSweep",
        field: "sweep",
        flag: "sweep",
    },
    ComparisonSpec {
        panel: "depth-width",
        method: "depthWidth",
        python: "depth_width",
        view_start: "startDepthWidth",
        field: "depth_width",
        flag: "depth-width",
    },
    ComparisonSpec {
        panel: "knockout",
        method: "knockout",
        python: "knockout",
        view_start: "",
        field: "knockout",
        flag: "knockout",
    },
];
