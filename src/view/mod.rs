//! The words and the charts: everything a reader sees, computed from plain data.

pub mod charts;
pub mod figures;
pub mod json;
pub mod lens_words;
pub mod panels;
pub mod reference;
pub mod shape_words;
pub mod theme;
pub mod words;
