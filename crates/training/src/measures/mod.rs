//! Measurements on a stack: layers knocked out (sublayers, and Gromov's blocks), the tuned lens, each matrix's gradient, the layers' similarity, the initial layers, depth or width's shapes and their timed runs.

pub mod blocks;
pub mod depth_width;
pub mod initial_layers;
pub mod knockout;
pub mod per_matrix;
pub mod similarity;
pub mod tuned_lens;
