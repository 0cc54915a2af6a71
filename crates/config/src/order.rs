//! Sorting the short lists the page orders (a sweep's depths, a legend's series, the shapes of
//! depth or width, a pin's pairs): a stable insertion sort.
//!
//! Why not the standard library's: each `sort_by` with another closure is its own copy of
//! driftsort and its small sorts, 1–5 KB of wasm each; ten of them were about a twentieth of
//! the page's wasm (BENCHMARKS.md, "What the page's wasm holds"). These lists hold at most a
//! few hundred entries, where an insertion sort is as quick. Stable, as `sort_by`: the result
//! is the same order, entry for entry.

use std::cmp::Ordering;

/// Sorts `xs` by `compare`, keeping equal entries in their order (as `slice::sort_by`).
pub fn sort_by<T>(xs: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..xs.len() {
        let mut j = i;
        while j > 0 && compare(&xs[j - 1], &xs[j]) == Ordering::Greater {
            xs.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `xs` by `key`, keeping equal entries in their order (as `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(xs: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(xs, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64 (the model's seeded generator is a floor above this crate): keys and floats
    /// in no order, the same on every run.
    struct Mix(u64);

    impl Mix {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        /// A float of either sign over several magnitudes.
        fn float(&mut self) -> f64 {
            let x = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            x * 10f64.powi((self.next_u64() % 7) as i32 - 3)
        }
    }

    #[test]
    fn the_same_order_as_the_standard_stable_sort() {
        let mut rng = Mix(3);
        for n in [0, 1, 2, 3, 8, 17, 100, 300] {
            // few distinct keys, so that stability shows
            let xs: Vec<(u64, usize)> = (0..n).map(|i| (rng.next_u64() % 7, i)).collect();
            let (mut ours, mut std) = (xs.clone(), xs.clone());
            sort_by_key(&mut ours, |x| x.0);
            std.sort_by_key(|x| x.0);
            assert_eq!(ours, std, "n = {n}");
            let floats: Vec<f64> = (0..n).map(|_| rng.float()).chain([f64::INFINITY, -0.0, 0.0]).collect();
            let (mut ours, mut std) = (floats.clone(), floats.clone());
            sort_by(&mut ours, f64::total_cmp);
            std.sort_by(f64::total_cmp);
            assert_eq!(
                ours.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                std.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }
    }
}
