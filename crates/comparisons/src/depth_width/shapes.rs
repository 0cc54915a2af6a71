//! Which shapes "depth or width" compares for a configuration: stacks of about the same
//! non-embedding parameter count (Kaplan et al.'s N), from deep and narrow to shallow and wide,
//! each with heads of one size, and a control off the budget. What a shape's run measures is
//! `ablation_training::measures::depth_width`.

use ablation_core::config::{task_defaults, Config, StackKind};
use ablation_training::measures::depth_width::non_embedding_parameters;

/// How far a shape's parameter count may be from the budget's.
pub const TOLERANCE: f64 = 0.10;

/// Depth or width compares a decoder-only stack's shapes (a layer's parameters depend on its
/// index's parity); an encoder–decoder's depth comes in layers of 5 sublayers: an error saying so.
pub fn depth_width_applies(config: &Config) -> Result<(), String> {
    if config.stack == StackKind::EncoderDecoder {
        return Err(
            "depth or width compares the shapes of a decoder-only stack; an encoder-decoder's depth comes \
                    in whole layers of 5 sublayers: choose the decoder-only stack to compare"
                .into(),
        );
    }
    Ok(())
}

/// Features per attention head in `config`: what every shape keeps.
pub fn head_dim(config: &Config) -> usize {
    config.width / config.heads.max(1)
}

/// The shapes compared for `config`, deepest first: for every width the table allows that is
/// a multiple of `config`'s head dimension (so a head has as many features at every width, and
/// the heads grow with the width), the depth whose non-embedding parameter count comes nearest
/// to `config`'s, kept when within `TOLERANCE`; then a control off the budget, `config`'s own
/// depth at the narrowest width (which sets width apart from depth: if it learns where the deep
/// narrow stack does not, depth is what failed). Each trains for `config`'s steps, at most its
/// task's own (a live run left to train a million steps would take them days).
pub fn shapes(config: &Config) -> Vec<Config> {
    let budget = non_embedding_parameters(config) as f64;
    let config = &Config { steps: config.steps.min(task_defaults(config.task).steps), ..config.clone() };
    let dh = head_dim(config);
    let at = |depth, width: usize| Config { depth, width, heads: width / dh, ..config.clone() };
    let widths = (8..=128).filter(|w| w % 4 == 0 && w % dh == 0 && (1..=16).contains(&(w / dh)));
    let mut out: Vec<Config> = widths
        .filter_map(|width| {
            let best = (1..=96)
                .map(|depth| (depth, (non_embedding_parameters(&at(depth, width)) as f64 - budget).abs()))
                .min_by(|a, b| a.1.total_cmp(&b.1))?;
            (best.1 <= TOLERANCE * budget).then(|| at(best.0, width))
        })
        .collect();
    ablation_core::order::sort_by_key(&mut out, |c| std::cmp::Reverse(c.depth));
    // the same depth at two widths: the one nearer the budget
    out.dedup_by(|b, a| {
        let off = |c: &Config| (non_embedding_parameters(c) as f64 - budget).abs();
        if a.depth == b.depth && off(b) < off(a) {
            std::mem::swap(a, b);
        }
        a.depth == b.depth
    });
    if let Some(narrowest) = out.iter().map(|c| c.width).min() {
        let control = at(config.depth, narrowest);
        if !out.contains(&control) {
            out.push(control);
        }
    }
    out
}

/// Whether `shape` is the control of `shapes(config)` (off the budget) rather than on it.
pub fn is_control(shape: &Config, config: &Config) -> bool {
    let budget = non_embedding_parameters(config) as f64;
    (non_embedding_parameters(shape) as f64 - budget).abs() > TOLERANCE * budget
}
