//! Where the buffers live: every allocation of at least a cache line (64 bytes) starts on a
//! cache line, in the CLI, the tests and the page alike.
//!
//! Why: the kernels load a matrix column 8 floats (one AVX register) at a time, and the system
//! allocator aligns to 16 bytes only, so a 64-row column started 16 or 48 bytes into a line and
//! every other load straddled two lines, which costs a second load. With the columns on lines
//! the products over 128 terms run faster natively, and a little faster in wasm (BENCHMARKS.md,
//! "The kernels' forms"). Nothing else changes: where a buffer starts never changes what is
//! computed.
//!
//! The allocator also counts allocations, so a test can check that a training step makes none.
//! Its methods are not inlined: with whole-program optimisation (the page's build) they were
//! copied into every allocating call site, which more than doubled what they add to the wasm.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

const CACHE_LINE: usize = 64;

/// The allocator of every binary that links this crate.
#[global_allocator]
static ALLOCATOR: CacheLineAligned<System> = CacheLineAligned(System);

/// An allocator that raises the alignment of allocations of a cache line or more to a line.
pub struct CacheLineAligned<A>(pub A);

thread_local! {
    // per thread, so that a test counts its own allocations and not the test harness's, which
    // may still be printing on its main thread (a const-initialised Cell: no allocation, no
    // destructor, safe to touch inside the allocator)
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

/// Allocations (and reallocations) made by this thread so far.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// The layout actually requested from the inner allocator for `layout`.
fn on_a_line(layout: Layout) -> Layout {
    if layout.size() >= CACHE_LINE && layout.align() < CACHE_LINE {
        // (fails only for a size within a line of isize::MAX: then as asked)
        layout.align_to(CACHE_LINE).unwrap_or(layout)
    } else {
        layout
    }
}

// SAFETY: every call forwards to the inner allocator with a layout of the same size and an
// alignment at least the caller's, and `dealloc`/`realloc` recompute that layout from the
// caller's exactly as `alloc` did, so each block is freed with the layout it was made with.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CacheLineAligned<A> {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        self.0.alloc(on_a_line(layout))
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        self.0.alloc_zeroed(on_a_line(layout))
    }

    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.0.dealloc(ptr, on_a_line(layout))
    }

    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        let (old, new) =
            (on_a_line(layout), on_a_line(Layout::from_size_align_unchecked(new_size, layout.align())));
        if old.align() == new.align() {
            // the inner allocator keeps the block's alignment when it moves it
            return self.0.realloc(ptr, old, new_size);
        }
        let moved = self.0.alloc(new);
        if !moved.is_null() {
            std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
            self.0.dealloc(ptr, old);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_of_a_line_or_more_start_on_a_line() {
        for len in [16, 17, 100, 2048, 64 * 128, 1 << 20] {
            let v = vec![0.0f32; len];
            assert_eq!(v.as_ptr() as usize % CACHE_LINE, 0, "{len} floats");
            let m = nalgebra::DMatrix::<f32>::zeros(len, 1);
            assert_eq!(m.as_ptr() as usize % CACHE_LINE, 0, "a matrix of {len} floats");
        }
        // growing through realloc keeps the line, from below a line to above it too
        let mut v: Vec<f32> = Vec::with_capacity(2);
        for x in 0..5000 {
            v.push(x as f32);
            if v.len() >= 16 {
                assert_eq!(v.as_ptr() as usize % CACHE_LINE, 0, "after {} pushes", v.len());
            }
        }
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as f32));
        // and shrinking from above a line to below it keeps the contents
        v.truncate(3);
        v.shrink_to_fit();
        assert_eq!(v, [0.0, 1.0, 2.0]);
    }
}
