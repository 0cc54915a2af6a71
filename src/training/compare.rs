//! "All four": the four switch combinations at one configuration's depth and settings, trained
//! for the same steps, side by side. The lesson's table, live: std at the top and the
//! gradient ratio at initialisation, the loss after N steps, and where a run diverged.

use crate::config::{Config, NormPlacement};

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
