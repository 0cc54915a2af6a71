//! The reader's settings on the page: the configuration, the pins and the notices about values
//! that were replaced. Every change says which parameters it changed, so that the page restarts
//! only when the model's parameters changed and the attributes and the address follow.

use super::choice::Choice;
use super::pins::{add_pin, parse_pins, pins_text, preset_pins, Pin, PIN};
use super::presets::PRESET;
use super::query::{lenient_pins, read_query};
use super::settings::{Config, StackKind};
use super::table::PARAMS;
use ablation_words::Said;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub config: Config,
    pub pins: Vec<Pin>,
    notices: Vec<Said>,
}

impl Settings {
    /// Settings from a URL query, leniently (`take_notices` says what was replaced).
    pub fn from_query(query: &str) -> Settings {
        let (config, pins, notices) = read_query(query);
        Settings { config, pins, notices }
    }

    /// Sets one parameter by its table name (`pin` replaces the pins, `preset` sets them all);
    /// returns the names whose values changed. A bad value is an error and changes nothing.
    pub fn set(&mut self, name: &str, text: &str) -> Result<Vec<&'static str>, Said> {
        let before = self.clone();
        if name == PIN {
            self.pins = parse_pins(text).map_err(|e| e.sentence())?;
        } else {
            self.config.set(name, text).map_err(|e| e.sentence())?;
            self.give_the_stack_a_source(name, &before.config);
            // a value the other parameters do not allow moves them (the tokens to whole sequences)
            self.notices.extend(self.config.settle());
            self.take_preset_pins(name, text);
        }
        Ok(self.changed_since(&before))
    }

    /// Chooses a task as the page's Task control does: that task's defaults (`task_defaults`),
    /// keeping the switches, the depth, the norm's kind, the seed, the sampling temperature and the
    /// attention panel's layer.
    /// Returns the names that changed; an unknown task is an error and changes nothing.
    pub fn choose_task(&mut self, word: &str) -> Result<Vec<&'static str>, Said> {
        let before = self.clone();
        self.config = before.config.with_task(word).map_err(|e| e.sentence())?;
        Ok(self.changed_since(&before))
    }

    /// Takes every parameter of `config` (a weights file's); returns the names that changed.
    pub fn adopt(&mut self, config: Config) -> Vec<&'static str> {
        let before = self.clone();
        self.config = config;
        self.changed_since(&before)
    }

    /// Like `set`, but a bad value falls back to the nearest valid one (a bad pin list to the
    /// good pins in it), with a notice.
    pub fn set_leniently(&mut self, name: &str, text: &str) -> Vec<&'static str> {
        let before = self.clone();
        let notices = if name == PIN {
            let (pins, notices) = lenient_pins([text]);
            self.pins = pins;
            notices
        } else {
            let notices = self.config.apply_leniently([(name, text)]);
            self.take_preset_pins(name, text);
            notices
        };
        self.notices.extend(notices);
        self.changed_since(&before)
    }

    /// An encoder-decoder chosen on a task without a source (the regression, the text,
    /// induction) brings the reverse task with it, as the Task control would choose it, with a
    /// notice: the control does what the reader asked rather than springing back.
    fn give_the_stack_a_source(&mut self, name: &str, before: &Config) {
        if name != "stack" || self.config.stack != StackKind::EncoderDecoder || self.config.task.has_source()
        {
            return;
        }
        let stack = self.config.stack;
        if let Ok(reverse) = before.with_task("reverse") {
            self.config = Config { stack, ..reverse };
            self.notices.push(Said::new("notice-chose-reverse").arg("task", before.task.word()));
        }
    }

    /// A preset that pins runs beside the live one (`Preset::pins`) sets them when chosen.
    fn take_preset_pins(&mut self, name: &str, text: &str) {
        let pins = if name == PRESET { preset_pins(text) } else { Vec::new() };
        if !pins.is_empty() {
            self.pins = pins;
        }
    }

    /// The names of the parameters (then `pin`) whose values differ from `before`'s.
    fn changed_since(&self, before: &Settings) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = PARAMS
            .iter()
            .filter(|p| p.value(&self.config) != p.value(&before.config))
            .map(|p| p.name)
            .collect();
        if self.pins != before.pins {
            names.push(PIN);
        }
        names
    }

    /// A parameter's value as text (`pin`: the pins as one `;`-separated list; `preset`: the
    /// preset these settings are exactly, or `custom`).
    pub fn get(&self, name: &str) -> Option<String> {
        if name == PIN {
            return Some(pins_text(&self.pins));
        }
        self.config.get(name)
    }

    /// Every parameter as a URL query, in table order, then the pins (if any).
    pub fn query(&self) -> String {
        let mut q = self.config.to_query();
        if !self.pins.is_empty() {
            q += &format!("&{PIN}={}", pins_text(&self.pins));
        }
        q
    }

    /// Pins the current configuration at `step`; an error in words if that pin cannot be added.
    pub fn add_pin(&mut self, step: usize) -> Result<(), Said> {
        add_pin(&mut self.pins, &self.config, step)
    }

    /// Removes pin number `index` (from 0); out of range does nothing.
    pub fn remove_pin(&mut self, index: usize) {
        if index < self.pins.len() {
            self.pins.remove(index);
        }
    }

    /// The notices since the last call, each said when it is shown.
    pub fn take_notices(&mut self) -> Vec<Said> {
        std::mem::take(&mut self.notices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TaskKind;

    #[test]
    fn a_preset_with_pins_sets_them_and_a_links_own_pins_win() {
        let mut s = Settings::default();
        assert_eq!(s.set("pin", "depth:3@5").unwrap(), ["pin"]);
        // a preset without pins keeps the reader's
        s.set("preset", "text").unwrap();
        assert_eq!(s.pins.len(), 1);
        let changed = s.set("preset", "gradients").unwrap();
        assert!(changed.contains(&"pin") && changed.contains(&"layer_view"), "{changed:?}");
        assert_eq!(s.pins, preset_pins("gradients"));
        assert_eq!(s.pins.len(), 3);
        let mut lenient = Settings::default();
        lenient.set_leniently("preset", "gradients");
        assert_eq!(lenient.pins, s.pins);
        // a link: the preset's pins, unless it gives its own
        assert_eq!(Settings::from_query("preset=gradients").pins, s.pins);
        assert_eq!(Settings::from_query("preset=gradients&depth=24").config.depth, 24);
        let own = Settings::from_query("preset=gradients&pin=depth:3@5");
        assert_eq!(own.pins.len(), 1);
        assert_eq!(own.pins[0].config.depth, 3);
        // and the page's own link reads back as it was
        assert_eq!(Settings::from_query(&s.query()), Settings { notices: Vec::new(), ..s.clone() });
    }

    #[test]
    fn every_change_names_what_it_changed() {
        let mut s = Settings::from_query("depth=7");
        assert_eq!(s.set("depth", "8").unwrap(), ["depth"]);
        assert!(s.set("depth", "8").unwrap().is_empty(), "the same value changes nothing");
        assert!(s.set("depth", "0").is_err());
        assert_eq!(s.config.depth, 8, "a refused value changes nothing");
        let changed = s.set("preset", "explode").unwrap();
        assert!(
            changed.contains(&"gain") && changed.contains(&"optimizer") && changed.contains(&"depth"),
            "{changed:?}"
        );
        assert!(!changed.contains(&"preset"), "a preset is not a parameter of its own");
        assert_eq!(s.set("pin", "@5").unwrap(), ["pin"]);
        assert_eq!(s.set_leniently("width", "61"), ["width"]);
        assert_eq!(s.config.width, 60, "the nearest multiple of 4");
        assert_eq!(s.take_notices().len(), 1);
        s.add_pin(9).unwrap();
        assert!(s.query().ends_with(&format!("&pin={}", s.get("pin").unwrap())));
        s.remove_pin(7);
        s.remove_pin(0);
        assert_eq!(s.pins.len(), 1);
        assert_eq!(Settings::from_query(&s.query()).query(), s.query(), "a query round-trips");
    }

    /// The Stack control on a task without a source brings the reverse task, at a depth of whole
    /// layers, and says so; on the copy task it keeps the task; a URL asking for an
    /// encoder-decoder on the regression gets the decoder back, with a notice.
    #[test]
    fn an_encoder_decoder_is_given_a_source() {
        let mut s = Settings::default();
        let changed = s.set("stack", "encoder-decoder").unwrap();
        assert_eq!(
            (s.config.task, s.config.stack, s.config.depth),
            (TaskKind::Reverse, StackKind::EncoderDecoder, 10)
        );
        assert!(changed.contains(&"task") && changed.contains(&"stack"), "{changed:?}");
        s.config.validate().unwrap();
        let notices = s.take_notices();
        assert!(notices.iter().any(|n| n.to_string().contains("chose the reverse task")), "{notices:?}");
        let mut copy = Settings::from_query("preset=copy");
        copy.set("stack", "encoder-decoder").unwrap();
        assert_eq!((copy.config.task, copy.config.depth), (TaskKind::Copy, 10));
        let mut url = Settings::from_query("stack=encoder-decoder");
        assert_eq!(url.config.stack, StackKind::Decoder);
        assert!(url.take_notices().iter().any(|n| n.to_string().contains("needs a task with a source")));
    }
}
