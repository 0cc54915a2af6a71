//! The training losses of a run of any length, in bounded memory.
//!
//! Every step draws a fresh batch, so the per-step loss is noisy. The history keeps, per run of
//! `per_bucket` consecutive steps, the lowest and highest loss (the band the loss panel draws)
//! and a moving average at the bucket's last step (the smoothed line). The average is taken
//! over log-losses (a running geometric mean): the panel's axis is logarithmic and a loss
//! falls by factors, so an average of the losses themselves would trail far above a steep
//! descent. When the
//! buckets are full, neighbours merge pairwise and `per_bucket` doubles, so a run of a million
//! steps costs as much memory, and as many points to draw, as one of a thousand. While the run
//! is shorter than `CAPACITY` steps every bucket holds one step: the exact losses.

use ablation_core::wire::{Reader, Writer};

/// Buckets kept at most: the loss panel draws at most this many columns.
pub const CAPACITY: usize = 512;
/// Weight of the newest log-loss in the moving average: about the last 40 steps count.
const SMOOTHING: f64 = 0.05;
/// The caption compares the mean of the first losses with that of the most recent ones.
const FIRST: usize = 5;
const RECENT: usize = 10;

/// `count` consecutive steps from `start`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    pub start: usize,
    pub count: usize,
    /// Lowest and highest finite loss in the bucket (NaN if none was finite).
    pub min: f64,
    pub max: f64,
    /// The moving average after the bucket's last step.
    pub smooth: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LossHistory {
    buckets: Vec<Bucket>,
    per_bucket: usize,
    count: usize,
    last: f64,
    lowest: f64,
    /// The moving average of ln(loss), over the finite, positive losses.
    log_smooth: f64,
    first: Vec<f64>,
    /// The last `RECENT` losses, oldest first once full (a ring from `recent_at`).
    recent: Vec<f64>,
    recent_at: usize,
}

impl Default for LossHistory {
    fn default() -> Self {
        LossHistory {
            buckets: Vec::with_capacity(CAPACITY),
            per_bucket: 1,
            count: 0,
            last: f64::NAN,
            lowest: f64::INFINITY,
            log_smooth: f64::NAN,
            first: Vec::with_capacity(FIRST),
            recent: Vec::with_capacity(RECENT),
            recent_at: 0,
        }
    }
}

impl LossHistory {
    /// Records the loss of the next step.
    pub fn push(&mut self, loss: f64) {
        if loss.is_finite() {
            self.lowest = self.lowest.min(loss);
        }
        if loss.is_finite() && loss > 0.0 {
            let l = loss.ln();
            self.log_smooth = if self.log_smooth.is_finite() {
                self.log_smooth + SMOOTHING * (l - self.log_smooth)
            } else {
                l
            };
        }
        let smooth = self.log_smooth.exp();
        let finite = |x: f64| if x.is_finite() { x } else { f64::NAN };
        match self.buckets.last_mut() {
            Some(b) if b.count < self.per_bucket => {
                b.count += 1;
                b.min = finite(b.min).min(finite(loss));
                b.max = finite(b.max).max(finite(loss));
                b.smooth = smooth;
            }
            _ => {
                if self.buckets.len() == CAPACITY {
                    self.merge_pairs();
                }
                let l = finite(loss);
                self.buckets.push(Bucket { start: self.count, count: 1, min: l, max: l, smooth });
            }
        }
        if self.first.len() < FIRST {
            self.first.push(loss);
        }
        if self.recent.len() < RECENT {
            self.recent.push(loss);
        } else {
            self.recent[self.recent_at] = loss;
            self.recent_at = (self.recent_at + 1) % RECENT;
        }
        self.last = loss;
        self.count += 1;
    }

    /// Halves the number of buckets: each pair becomes one bucket twice as long.
    fn merge_pairs(&mut self) {
        let n = self.buckets.len() / 2;
        for i in 0..n {
            let (a, b) = (self.buckets[2 * i], self.buckets[2 * i + 1]);
            self.buckets[i] = Bucket {
                start: a.start,
                count: a.count + b.count,
                // f64::min and max skip a NaN side
                min: a.min.min(b.min),
                max: a.max.max(b.max),
                smooth: b.smooth,
            };
        }
        self.buckets.truncate(n);
        self.per_bucket *= 2;
    }

    /// Losses recorded.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn buckets(&self) -> &[Bucket] {
        &self.buckets
    }

    /// Steps per bucket now (a power of two).
    pub fn per_bucket(&self) -> usize {
        self.per_bucket
    }

    pub fn last(&self) -> Option<f64> {
        (self.count > 0).then_some(self.last)
    }

    pub fn first(&self) -> Option<f64> {
        self.first.first().copied()
    }

    /// The lowest finite loss (∞ if none).
    pub fn lowest(&self) -> f64 {
        self.lowest
    }

    /// Mean of the first five losses and of the last ten (fewer if the run is shorter).
    pub fn first_mean(&self) -> f64 {
        mean(&self.first)
    }

    pub fn recent_mean(&self) -> f64 {
        mean(&self.recent)
    }

    /// Writes every field: `read` gives back the same history, bit for bit.
    pub fn write(&self, w: &mut Writer) {
        w.u64(self.buckets.len() as u64);
        for b in &self.buckets {
            w.u64(b.start as u64);
            w.u64(b.count as u64);
            w.f64(b.min);
            w.f64(b.max);
            w.f64(b.smooth);
        }
        for n in [self.per_bucket, self.count, self.recent_at] {
            w.u64(n as u64);
        }
        for x in [self.last, self.lowest, self.log_smooth] {
            w.f64(x);
        }
        w.f64s(&self.first);
        w.f64s(&self.recent);
    }

    /// What `write` wrote; a history whose parts do not agree is an error.
    pub fn read(r: &mut Reader) -> Result<LossHistory, String> {
        let n = r.len(40)?;
        let mut buckets = Vec::with_capacity(CAPACITY.max(n));
        for _ in 0..n {
            buckets.push(Bucket {
                start: r.usize()?,
                count: r.usize()?,
                min: r.f64()?,
                max: r.f64()?,
                smooth: r.f64()?,
            });
        }
        let (per_bucket, count, recent_at) = (r.usize()?, r.usize()?, r.usize()?);
        let (last, lowest, log_smooth) = (r.f64()?, r.f64()?, r.f64()?);
        let (first, recent) = (r.f64s()?, r.f64s()?);
        let ok = buckets.len() <= CAPACITY
            && per_bucket.is_power_of_two()
            && first.len() <= FIRST
            && recent.len() <= RECENT
            && recent_at < RECENT.max(1)
            && buckets.iter().map(|b| b.count).sum::<usize>() == count;
        if !ok {
            return Err("inconsistent loss history".into());
        }
        Ok(LossHistory { buckets, per_bucket, count, last, lowest, log_smooth, first, recent, recent_at })
    }
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

impl FromIterator<f64> for LossHistory {
    fn from_iter<I: IntoIterator<Item = f64>>(losses: I) -> Self {
        let mut h = LossHistory::default();
        for l in losses {
            h.push(l);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy(i: usize) -> f64 {
        // a falling loss with deterministic noise
        (1.0 + 0.3 * ((i * 7919 % 101) as f64 / 101.0 - 0.5)) * 10.0 / (1.0 + i as f64 / 100.0)
    }

    #[test]
    fn short_runs_keep_every_loss_exactly() {
        let losses: Vec<f64> = (0..CAPACITY).map(noisy).collect();
        let h: LossHistory = losses.iter().copied().collect();
        assert_eq!(h.per_bucket(), 1);
        assert_eq!(h.buckets().len(), CAPACITY);
        for (b, &l) in h.buckets().iter().zip(&losses) {
            assert_eq!((b.min, b.max, b.count), (l, l, 1));
        }
        assert_eq!(h.last(), Some(losses[CAPACITY - 1]));
        assert_eq!(h.first(), Some(losses[0]));
        assert_eq!(h.first_mean(), losses[..5].iter().sum::<f64>() / 5.0);
        assert_eq!(h.recent_mean(), losses[CAPACITY - 10..].iter().sum::<f64>() / 10.0);
        assert_eq!(h.lowest(), losses.iter().copied().fold(f64::INFINITY, f64::min));
    }

    #[test]
    fn long_runs_stay_bounded_and_every_bucket_is_the_min_and_max_of_its_steps() {
        let n = 150_000;
        let losses: Vec<f64> = (0..n).map(noisy).collect();
        let h: LossHistory = losses.iter().copied().collect();
        assert!(h.buckets().len() <= CAPACITY && h.buckets().len() > CAPACITY / 2, "{}", h.buckets().len());
        assert_eq!(h.len(), n);
        let mut next = 0;
        for b in h.buckets() {
            assert_eq!(b.start, next, "buckets tile the run");
            let part = &losses[b.start..b.start + b.count];
            assert_eq!(b.min, part.iter().copied().fold(f64::INFINITY, f64::min));
            assert_eq!(b.max, part.iter().copied().fold(f64::NEG_INFINITY, f64::max));
            assert!(b.count <= h.per_bucket());
            next += b.count;
        }
        assert_eq!(next, n);
        assert_eq!(h.recent_mean(), losses[n - 10..].iter().sum::<f64>() / 10.0);
        // a merged bucket's smoothed value is the running average at its last step
        for b in h.buckets() {
            let want = running_geometric_mean(&losses[..b.start + b.count]);
            assert!((b.smooth - want).abs() <= 1e-12 * want, "{b:?}: {want}");
        }
    }

    /// docs/using.md: the smoothed line is "a running geometric mean over about 40 steps"; the module
    /// says an exponential moving average of ln(loss), the newest weighing α = 0.05 (so weights
    /// α(1−α)ʲ, mean age (1−α)/α = 19 steps, the span of a 2/α − 1 = 39-step window), over the
    /// finite, positive losses, the first of them starting it. Written out, not recursively:
    /// after finite positive losses l₀ … l_t, s_t = l₀^((1−α)ᵗ) · Π_{k=1..t} l_k^(α(1−α)^(t−k)).
    /// NaN before the first finite positive loss.
    fn running_geometric_mean(losses: &[f64]) -> f64 {
        let alpha = 0.05;
        let mut counted = losses.iter().filter(|l| l.is_finite() && **l > 0.0);
        let Some(first) = counted.next() else { return f64::NAN };
        let later: Vec<f64> = counted.copied().collect();
        let (mut log_mean, mut weight) = (0.0, alpha);
        for l in later.iter().rev() {
            log_mean += weight * l.ln();
            weight *= 1.0 - alpha;
        }
        (log_mean + weight / alpha * first.ln()).exp()
    }

    #[test]
    fn the_smoothed_line_is_a_running_geometric_mean_of_the_losses() {
        // a noisy descent with a loss that is NaN, ∞, 0 and negative: they do not count
        let mut losses: Vec<f64> = (0..300).map(noisy).collect();
        for (at, bad) in [(40, f64::NAN), (41, f64::INFINITY), (120, 0.0), (200, -1.0)] {
            losses[at] = bad;
        }
        let h: LossHistory = losses.iter().copied().collect();
        for (step, b) in h.buckets().iter().enumerate() {
            let want = running_geometric_mean(&losses[..=step]);
            assert!((b.smooth - want).abs() <= 1e-12 * want, "step {}: {} vs {want}", b.start, b.smooth);
        }
        // no loss counts yet: no line
        let h: LossHistory = [f64::NAN, 0.0, 2.0].into_iter().collect();
        let smooth: Vec<f64> = h.buckets().iter().map(|b| b.smooth).collect();
        assert!(smooth[0].is_nan() && smooth[1].is_nan() && smooth[2] == 2.0, "{smooth:?}");

        // A steady descent by 1% a step: a geometric mean trails it by the mean age of its
        // weights, 19 steps, so sits 0.99⁻¹⁹ = 1.21 × above the loss; an average of the losses
        // themselves would sit α/(1 − (1−α)/0.99) = 1.24 × above.
        let descent: Vec<f64> = (0..2000).map(|t| 10.0 * 0.99f64.powi(t)).collect();
        let h: LossHistory = descent.iter().copied().collect();
        let last = h.buckets().last().unwrap();
        let ratio = last.smooth / descent[1999];
        assert!((ratio - 0.99f64.powi(-19)).abs() < 1e-9, "{ratio}");
    }

    #[test]
    fn non_finite_losses_do_not_poison_the_band_or_the_average() {
        let h: LossHistory = [2.0, 1.0, f64::NAN].into_iter().collect();
        assert_eq!(h.lowest(), 1.0);
        assert!(h.last().unwrap().is_nan());
        assert!(h.buckets()[1].smooth.is_finite());
        assert!(h.buckets()[2].min.is_nan() && h.buckets()[2].smooth.is_finite());
        let mut w = Writer(Vec::new());
        h.write(&mut w);
        let back = LossHistory::read(&mut Reader { bytes: &w.0, at: 0 }).unwrap();
        assert_eq!(format!("{back:?}"), format!("{h:?}"));
    }
}
