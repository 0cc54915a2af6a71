//! Pinned runs: a pin is a configuration and a step count (runs are deterministic, so that is
//! the whole run), kept as a reference beside the live one. In a URL, an attribute or a
//! message a pin is written as the parameters that differ from the defaults and the step:
//!
//!   `residual:off,norm:off@500`   `@1200` (the defaults)   `depth:48,lr:0.003@1000`
//!
//! Several pins are separated by `;` (or given as several `pin=` parameters), at most three.

use super::presets::{find_preset, PRESET};
use super::settings::{Config, ConfigError};
use super::table::{find, PARAMS};
use ablation_words::Said;

pub const MAX_PINS: usize = 3;
/// A pin is recomputed from the seed when a link is opened, so its steps are bounded as the
/// CLI's are.
pub const MAX_PIN_STEPS: usize = 100_000;
pub const PIN: &str = "pin";

#[derive(Clone, Debug, PartialEq)]
pub struct Pin {
    /// The pinned run's parameters (its `steps` field is the pin's step count).
    pub config: Config,
}

impl Pin {
    /// The run `config` after `steps` updates.
    pub fn new(config: &Config, steps: usize) -> Pin {
        Pin { config: Config { steps, ..config.clone() } }
    }

    pub fn steps(&self) -> usize {
        self.config.steps
    }

    /// `name:value,…@steps`, naming the parameters that differ from the defaults.
    pub fn text(&self) -> String {
        let defaults = Config::default();
        let changed: Vec<String> = PARAMS
            .iter()
            .filter(|p| p.name != "steps" && p.value(&self.config) != p.value(&defaults))
            .map(|p| format!("{}:{}", p.name, p.text_of(&self.config)))
            .collect();
        format!("{}@{}", changed.join(","), self.steps())
    }

    /// Reads one pin written as `text` writes it (a `preset:NAME` entry applies first).
    pub fn parse(text: &str) -> Result<Pin, ConfigError> {
        let shown: String = text.chars().take(60).collect();
        let error = |said: Said| ConfigError::new(PIN, said.arg("shown", shown.as_str()));
        let (params, steps) =
            text.trim().rsplit_once('@').ok_or_else(|| error(Said::new("error-pin-form")))?;
        let steps = steps
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|s| *s <= MAX_PIN_STEPS)
            .ok_or_else(|| error(Said::new("error-pin-step").arg("max", MAX_PIN_STEPS.to_string())))?;
        let mut pairs = Vec::new();
        for pair in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) =
                pair.split_once(':').ok_or_else(|| error(Said::new("error-pin-pair").arg("pair", pair)))?;
            let name = name.trim();
            if name == "steps" || (name != PRESET && find(name).is_none()) {
                return Err(error(Said::new("error-pin-name").arg("name", name)));
            }
            pairs.push((name, value.trim()));
        }
        // a preset first, wherever it stands, as everywhere else
        crate::order::sort_by_key(&mut pairs, |(name, _)| *name != PRESET);
        let mut config = Config::default();
        for (name, value) in pairs {
            config
                .set(name, value)
                .map_err(|e| error(Said::new("error-pin-value").arg("error", e.sentence())))?;
        }
        Ok(Pin::new(&config, steps))
    }
}

/// Reads a `;`-separated list of pins; at most `MAX_PINS`.
pub fn parse_pins(text: &str) -> Result<Vec<Pin>, ConfigError> {
    let pins =
        text.split(';').filter(|p| !p.trim().is_empty()).map(Pin::parse).collect::<Result<Vec<_>, _>>()?;
    if pins.len() > MAX_PINS {
        return Err(ConfigError::new(
            PIN,
            Said::new("error-pins-many").arg("n", pins.len()).arg("max", MAX_PINS),
        ));
    }
    Ok(pins)
}

/// Pins the run `config` at `steps` beside `pins`; an error, in words, if `MAX_PINS` are pinned
/// already or the run is past `MAX_PIN_STEPS` (the page lets a run go on past that).
pub fn add_pin(pins: &mut Vec<Pin>, config: &Config, steps: usize) -> Result<(), Said> {
    if pins.len() >= MAX_PINS {
        return Err(Said::new("error-pin-full").arg("max", MAX_PINS));
    }
    if steps > MAX_PIN_STEPS {
        return Err(Said::new("error-pin-late")
            .arg("max", MAX_PIN_STEPS.to_string())
            .arg("step", steps.to_string()));
    }
    pins.push(Pin::new(config, steps));
    Ok(())
}

/// The pins `preset` sets (none for an unknown name or a preset without any).
pub fn preset_pins(name: &str) -> Vec<Pin> {
    let pins = find_preset(name).map_or("", |p| p.pins);
    if pins.is_empty() {
        return Vec::new();
    }
    parse_pins(pins).expect("a preset's pins are checked by tests/presets.rs")
}

/// The pins as one `;`-separated text, as `parse_pins` reads it.
pub fn pins_text(pins: &[Pin]) -> String {
    pins.iter().map(Pin::text).collect::<Vec<_>>().join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormPlacement;

    #[test]
    fn pins_round_trip_through_their_text() {
        let pins = vec![
            Pin::new(&Config { residual: false, norm: NormPlacement::Off, ..Config::default() }, 500),
            Pin::new(&Config::default(), 1200),
            Pin::new(&Config { depth: 48, learning_rate: 0.003, seed: 7, ..Config::default() }, 0),
        ];
        let text = pins_text(&pins);
        assert_eq!(text, "residual:off,norm:off@500;@1200;depth:48,lr:0.003,seed:7@0");
        assert_eq!(parse_pins(&text).unwrap(), pins);
        // a preset applies first, and spaces are forgiven
        let p = Pin::parse(" depth:24 , preset:explode @ 3").unwrap();
        assert_eq!((p.config.depth, p.config.init_gain, p.steps()), (24, 2.0, 3));
        assert_eq!(parse_pins("").unwrap(), vec![]);
    }

    #[test]
    fn pinning_the_live_run_keeps_to_the_limits_a_link_can_hold() {
        let mut pins = Vec::new();
        let config = Config { depth: 5, ..Config::default() };
        let e = add_pin(&mut pins, &config, MAX_PIN_STEPS + 1).unwrap_err().to_string();
        assert!(e.contains("at most 100000 steps") && e.contains("step 100001"), "{e}");
        assert!(pins.is_empty());
        for steps in [MAX_PIN_STEPS, 0, 7] {
            add_pin(&mut pins, &config, steps).unwrap();
        }
        // every pin so made reads back from its own text
        assert_eq!(parse_pins(&pins_text(&pins)).unwrap(), pins);
        let e = add_pin(&mut pins, &config, 1).unwrap_err().to_string();
        assert!(e.contains("at most 3 pins"), "{e}");
        assert_eq!(pins.len(), MAX_PINS);
    }

    #[test]
    fn bad_pins_are_named_errors() {
        for bad in [
            "residual:off",
            "residual:off@",
            "residual:off@-1",
            "residual:off@100001",
            "residual@5",
            "colour:red@5",
            "steps:9@5",
            "depth:0@5",
            "@1;@2;@3;@4",
        ] {
            let e = parse_pins(bad).unwrap_err();
            assert_eq!(e.name, PIN, "{bad}");
            assert!(e.to_string().len() < 240, "{e}");
        }
    }
}
