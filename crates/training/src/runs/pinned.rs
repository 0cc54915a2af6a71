//! A pinned run as far as it got: the pin (a configuration and a step), each seed's frame so
//! far, and whether every run is done. The comparisons' scheduler (`comparisons::runs`) fills
//! it from the pins' jobs; the live panels draw it beside the live run.

use crate::live::frame::Frame;
use crate::runs::tuned::Tuned;
use ablation_core::config::{Config, Pin};

/// One pin: its run's frame at the pin's step, or as far as it got (none before it starts).
#[derive(Clone, Debug, PartialEq)]
pub struct PinState {
    pub pin: Pin,
    /// Every seed's run is done.
    pub done: bool,
    /// The first seed's frame.
    pub frame: Option<Frame>,
    /// Why one of its runs failed, if one did.
    pub failed: Option<String>,
    /// Each seed and its frame so far (the first is `frame`'s).
    pub seeds: Vec<(u64, Option<Frame>)>,
    /// The pin's configuration as its runs train it (the setting chosen, when tuned).
    pub config: Config,
    /// When the pin is tuned, what its search did (`tuned::Tuned`).
    pub tuning: Option<Tuned>,
}
