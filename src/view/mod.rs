//! The words and the charts: everything a reader sees, computed from plain data.

pub mod charts;
pub mod figures;
pub mod json;
pub mod json_parse;
pub mod panels;
pub mod reference;
pub mod safetensors;
pub mod text_facts;
pub mod theme;
pub mod words;
