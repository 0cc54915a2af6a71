//! What the reader configures: the settings (`Config` and its choices) and the one table that
//! names, ranges and parses them for every entry point (URL, element, messages, CLI).

mod pins;
mod presets;
mod settings;
mod table;

pub use pins::*;
pub use presets::*;
pub use settings::*;
pub use table::*;
