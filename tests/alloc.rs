//! After the first step, a training step allocates nothing: every buffer is reused. (The
//! crate's allocator, `memory::CacheLineAligned`, counts the allocations.)

use ablation_playground::config::{Choice, Config, NormPlacement, SublayerKind};
use ablation_playground::memory::allocations;
use ablation_playground::Trainer;

#[test]
fn steps_after_the_first_allocate_nothing() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for norm in NormPlacement::OPTIONS.variants() {
            let config = Config { depth: 6, sublayer, norm, ..Config::default() };
            let mut trainer = Trainer::<f32>::new(&config);
            trainer.one_step(true);
            trainer.probe();
            let before = allocations();
            for _ in 0..50 {
                trainer.one_step(true);
            }
            trainer.probe();
            let allocated = allocations() - before;
            assert_eq!(allocated, 0, "{sublayer:?} {norm:?}: {allocated} allocations in 50 steps");
        }
    }
}

/// The sequence tasks too: after the first step and the first held-out measurement,
/// neither a step nor the next measurement allocates (the samples the model writes are text,
/// made on request, and not part of a step).
#[test]
fn sequence_task_steps_after_the_first_allocate_nothing() {
    use ablation_playground::config::{copy_defaults, induction_defaults, text_defaults};
    ablation_playground::training::tasks::corpus::text();
    use ablation_playground::config::{reverse_defaults, MaskKind, StackKind};
    let encoder_decoder = Config { stack: StackKind::EncoderDecoder, depth: 5, ..reverse_defaults() };
    let unmasked = Config { mask: MaskKind::None, ..text_defaults() };
    let base = [
        ("text", text_defaults()),
        ("copy", copy_defaults()),
        ("induction", induction_defaults()),
        ("reverse, encoder-decoder", encoder_decoder),
        ("text without the mask", unmasked),
    ];
    for (task, defaults) in base {
        for norm in
            [NormPlacement::Pre, NormPlacement::Post, NormPlacement::Sandwich, NormPlacement::DeepNorm]
        {
            // an encoder-decoder's depth is whole layers of 5 sublayers
            let depth = if defaults.stack == StackKind::EncoderDecoder { 5 } else { 4 };
            let config = Config { depth, norm, ..defaults.clone() };
            config.validate().unwrap();
            let mut trainer = Trainer::<f32>::new(&config);
            // the first step, and the first measurement of the held-out set (at step 100)
            for _ in 0..101 {
                trainer.one_step(true);
            }
            trainer.probe();
            let before = allocations();
            for _ in 0..100 {
                trainer.one_step(true); // one more measurement at step 200
            }
            trainer.probe();
            let allocated = allocations() - before;
            assert_eq!(
                allocated, 0,
                "{task} {norm:?}: {allocated} allocations in 100 steps and a measurement"
            );
        }
    }
}
