//! After the first step, a training step allocates nothing: every buffer is reused. (The
//! crate's allocator, `memory::CacheLineAligned`, counts the allocations.)

use ablation_playground::config::{Config, NormPlacement, SublayerKind};
use ablation_playground::memory::allocations;
use ablation_playground::Trainer;

#[test]
fn steps_after_the_first_allocate_nothing() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for norm in [NormPlacement::Off, NormPlacement::Pre, NormPlacement::Post] {
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
