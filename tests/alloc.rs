//! After the first step, a training step allocates nothing: every buffer is reused.

use ablation_playground::config::{Config, NormPlacement, SublayerKind};
use ablation_playground::Trainer;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steps_after_the_first_allocate_nothing() {
    for sublayer in [SublayerKind::Mlp, SublayerKind::Ffn, SublayerKind::Attention, SublayerKind::Block] {
        for norm in [NormPlacement::Off, NormPlacement::Pre, NormPlacement::Post] {
            let config = Config { depth: 6, sublayer, norm, ..Config::default() };
            let mut trainer = Trainer::<f32>::new(&config);
            trainer.one_step(true);
            trainer.probe();
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for _ in 0..50 {
                trainer.one_step(true);
            }
            trainer.probe();
            let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
            assert_eq!(allocated, 0, "{sublayer:?} {norm:?}: {allocated} allocations in 50 steps");
        }
    }
}
