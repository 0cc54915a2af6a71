//! The words and the charts: everything a reader sees, computed from plain data.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod charts;
pub mod cli_flags;
pub mod figures;
pub mod json;
pub mod json_arms;
pub mod json_frame;
pub mod json_parse;
pub mod json_value;
pub mod panels;
pub mod reference;
pub mod safetensors;
pub mod text_facts;
pub mod theme;
pub mod words;
