//! How a generic pass reaches the copy of itself this crate compiled for f32.
//!
//! Rust compiles a generic function in the crate that names its type, at that crate's
//! optimisation level. The page builds the crates above this one for size (nothing of theirs
//! runs per step), so a pass they called with f32 would run at their level, many times slower.
//! Each hot pass the other crates call (the stack's passes, the linear maps and norms, the
//! losses, the statistics, the products, the optimiser's update) so first asks whether its `F`
//! is f32 and, if it is, calls a function of this crate that is not generic: compiled here, once,
//! at this crate's level (full speed). The question is about types and is answered when the
//! function is compiled; natively, where every crate is at full speed, it changes nothing.
//!
//! Each such function has its body in a `…_here` twin, which the f32 entry point calls (so the
//! entry point never asks again).

use std::any::{Any, TypeId};

/// Whether `F` is f32.
#[inline(always)]
pub fn is_f32<F: Any>() -> bool {
    TypeId::of::<F>() == TypeId::of::<f32>()
}

/// `x` as the `U` it is, when its type is `U` (a `Stack<F>` whose `F` is f32 as a `Stack<f32>`).
#[inline(always)]
pub fn same_mut<T: Any, U: Any>(x: &mut T) -> Option<&mut U> {
    (x as &mut dyn Any).downcast_mut::<U>()
}

/// `same_mut` for a shared reference.
#[inline(always)]
pub fn same<T: Any, U: Any>(x: &T) -> Option<&U> {
    (x as &dyn Any).downcast_ref::<U>()
}

/// `xs` as f32s when `F` is f32.
#[inline(always)]
pub fn f32s<F: Any>(xs: &[F]) -> Option<&[f32]> {
    // SAFETY: F is f32 (the same type), so the slice is one of f32s.
    is_f32::<F>().then(|| unsafe { std::slice::from_raw_parts(xs.as_ptr().cast::<f32>(), xs.len()) })
}

/// `f32s` for a mutable slice.
#[inline(always)]
pub fn f32s_mut<F: Any>(xs: &mut [F]) -> Option<&mut [f32]> {
    // SAFETY: F is f32 (the same type), so the slice is one of f32s, borrowed as `xs` was.
    is_f32::<F>().then(|| unsafe { std::slice::from_raw_parts_mut(xs.as_mut_ptr().cast::<f32>(), xs.len()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_f32_is_f32() {
        let (mut a, mut b) = ([1.5f32, 2.0], [1.5f64, 2.0]);
        assert_eq!(f32s(&a), Some(&[1.5f32, 2.0][..]));
        assert_eq!(f32s(&b), None);
        f32s_mut(&mut a).unwrap()[1] = 3.0;
        assert_eq!(a, [1.5, 3.0]);
        assert!(f32s_mut(&mut b).is_none());
        assert_eq!(same::<_, f32>(&2.0f32), Some(&2.0));
        assert_eq!(same::<_, f32>(&2.0f64), None);
        assert!(same_mut::<_, f32>(&mut 1.0f64).is_none());
    }
}
