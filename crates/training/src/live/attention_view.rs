//! Where the heads look, as the Attention panel and `ablate --attention` show it: an attention
//! sublayer's weights on the first sequence of the fixed probe batch (a window of the
//! held-out text, or one held-out copy example), with its characters.

use crate::step::train::Trainer;
use crate::tasks::corpus::text_of;
use crate::tasks::task::{symbol_task, SymbolTask};
use ablation_core::config::Role;
use ablation_core::model::batch::Batch;
use ablation_core::model::lens::{attention_layer_near, first_sequence, AttentionMaps};
use ablation_core::model::sublayer::Sublayer;

/// The maps of attention sublayer `layer` (the nearest that attends, at or below it) from the
/// stack's last pass, which must be the probe's (`Snapshot::take` leaves it so). None on the
/// teacher task or for a stack without attention.
pub fn attention_maps(trainer: &Trainer<f32>, layer: usize) -> Option<AttentionMaps> {
    let Batch::Tokens(probe) = trainer.probe_batch() else { return None };
    let layers = trainer.stack.attention_layers();
    let layer = attention_layer_near(&layers, layer)?;
    let config = &trainer.config;
    let (ids, scored) = first_sequence(probe, config.sequence());
    let tokens = match symbol_task(config) {
        Some(task) => ids.iter().map(|&i| task.char_of(i)).collect(),
        None => text_of(config).decode(ids).chars().collect(),
    };
    let weights = trainer.stack.attention_weights(layer, 0)?;
    let part = config.part_positions(config.part(layer));
    let keys = match config.role(layer) {
        Role::CrossAttention => config.part_positions(ablation_core::config::Part::Encoder),
        _ => part.clone(),
    };
    let masked = matches!(&trainer.stack.layers[layer].sublayer, Sublayer::Attention(a) if a.is_masked());
    let answers = match symbol_task(config) {
        Some(SymbolTask::Copy(task)) => (0..ids.len()).map(|p| task.answer_position(p)).collect(),
        _ => vec![None; ids.len()],
    };
    let heads = config.heads;
    Some(AttentionMaps {
        layer,
        layers,
        tokens,
        scored,
        heads,
        queries: part,
        keys,
        masked,
        answers,
        weights,
    })
}

/// Every attention sublayer's maps, bottom to top (the CLI's `--attention`).
pub fn all_attention_maps(trainer: &Trainer<f32>) -> Vec<AttentionMaps> {
    trainer.stack.attention_layers().into_iter().filter_map(|l| attention_maps(trainer, l)).collect()
}
