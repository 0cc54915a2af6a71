//! "All four": the four switch combinations at one configuration's depth and settings, trained
//! for the same steps, side by side. The lesson's table, live: std at the top and the
//! gradient ratio at initialisation, the loss after N steps, and where a run diverged.

use ablation_core::config::{Config, NormPlacement, TaskKind};

/// Both off, the norm alone, the residual alone, both on: `config` with only the two switches
/// changed. The norm keeps the config's placement, or is `Pre` if the config has none.
pub fn four_combinations(config: &Config) -> [Config; 4] {
    let placement = match config.norm {
        NormPlacement::Off => NormPlacement::Pre,
        placement => placement,
    };
    let with = |residual, norm| Config { residual, norm, ..config.clone() };
    [
        with(false, NormPlacement::Off),
        with(false, placement),
        with(true, NormPlacement::Off),
        with(true, placement),
    ]
}

/// The two switches as the parameter table spells their values: ("on", "pre").
pub fn switch_words(residual: bool, norm: NormPlacement) -> (String, String) {
    let switches = Config { residual, norm, ..Config::default() };
    let word = |name| switches.get(name).expect("a parameter of the table");
    (word("residual"), word("norm"))
}

/// Steps of each run of "All four" and of the depth sweep on the page (and of `ablate
/// --compare`, `--sweep` without `--steps`), by task: as long as the task needs for both
/// switches on to show its point, about 1.5 times the step at which it did on seeds 1-3, and
/// at least 500 (`studies/comparison-steps.toml`, docs/findings.md, "How long the comparisons train"):
/// - the regression: 500, the recipe table's count, long enough for the combinations to part
///   ways, short enough for a sweep up to depth 96 to finish in under a minute on a laptop;
/// - text: 1500; both on crosses the bigram line at step 600-1000, the others never do;
/// - copy: 500; both on copies 95% of the held-out symbols by step 100, the others stay at chance;
/// - induction: 2500; both on copies 95% at step 1400-1700, residual alone at 1300-2000.
pub fn comparison_steps(task: TaskKind) -> usize {
    match task {
        TaskKind::Teacher => 500,
        TaskKind::Text => 1500,
        TaskKind::Copy => 500,
        TaskKind::Induction => 2500,
        TaskKind::Reverse => 1000,
    }
}
