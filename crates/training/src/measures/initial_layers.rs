//! Initial layers kept across depth changes.
//!
//! Each layer draws its weights from its own seeded stream, so layer i is the same in a stack
//! of any depth. Dragging the depth slider restarts training from the seed; keeping what the
//! initial layers drew means only the added ones are drawn again (98 000 normal samples at
//! depth 96 are most of the cost of a rebuild). Only the drawn weights are kept, not the
//! layers: the stack's layers get new buffers, and a seed change draws straight into them.

use ablation_core::config::Config;
use ablation_core::model::layer::Layer;
use ablation_core::model::param::Draw;
use ablation_core::model::real::Real;
use ablation_core::model::stack::Stack;

#[derive(Default)]
pub struct InitialLayers<F: Real> {
    key: Option<Config>,
    /// Layer i's random weights in drawing order.
    drawn: Vec<Vec<F>>,
}

/// The fields that decide a layer's initial state (everything but depth and the optimiser).
fn key(config: &Config) -> Config {
    let d = Config::default();
    Config {
        depth: 0,
        optimizer: d.optimizer,
        learning_rate: d.learning_rate,
        warmup_steps: d.warmup_steps,
        steps: d.steps,
        ..config.clone()
    }
}

impl<F: Real> InitialLayers<F> {
    /// `Stack::new(config)`, from kept weights where possible.
    pub fn stack(&mut self, config: &Config) -> Stack<F> {
        self.forget_unless_same_key(config);
        let layers =
            (0..config.depth).map(|i| self.draw(config, i, |d| Layer::with_draw(config, i, d))).collect();
        Stack::with_layers(config, layers)
    }

    /// Turns `stack` into `self.stack(config)` in place, reusing its buffers: for a `config`
    /// with the stack's shapes (`same_shapes`), e.g. after a seed or gain change.
    pub fn init_stack(&mut self, config: &Config, stack: &mut Stack<F>) {
        self.forget_unless_same_key(config);
        for (i, layer) in stack.layers.iter_mut().enumerate() {
            self.draw(config, i, |d| layer.init(config, d));
        }
        stack.init_readout(config);
    }

    fn forget_unless_same_key(&mut self, config: &Config) {
        let key = key(config);
        if self.key.as_ref() != Some(&key) {
            self.key = Some(key);
            self.drawn.clear();
        }
    }

    /// Runs `f` with layer i's weights: the kept ones, or drawn from its stream and kept.
    /// Layers are asked for in order 0, 1, …, so layer i is either kept or the next to draw.
    fn draw<R>(&mut self, config: &Config, i: usize, f: impl FnOnce(&mut Draw<F>) -> R) -> R {
        if let Some(kept) = self.drawn.get(i) {
            return f(&mut Draw::Kept(kept));
        }
        let mut kept = Vec::new();
        let out = f(&mut Draw::Fresh { rng: Layer::<F>::rng(config, i), keep: Some(&mut kept) });
        self.drawn.push(kept);
        out
    }
}

/// Two configurations whose stacks, optimisers and batches have the same shapes (they may
/// differ in seed, gain, learning rate, warmup and step limit).
pub fn same_shapes(a: &Config, b: &Config) -> bool {
    let strip = |c: &Config| Config {
        seed: 0,
        init_gain: 0.0,
        learning_rate: 0.0,
        warmup_steps: 0,
        steps: 0,
        ..c.clone()
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ablation_core::config::{NormPlacement, OptimizerKind, SublayerKind};
    use ablation_core::model::param::Params;

    fn weights(stack: &mut Stack<f32>) -> Vec<Vec<f32>> {
        let mut out = Vec::new();
        stack.visit(&mut |p| out.push(p.value.as_slice().to_vec()));
        out
    }

    #[test]
    fn kept_layers_give_the_same_stack_as_a_fresh_one() {
        let mut kept = InitialLayers::<f32>::default();
        let base = Config { sublayer: SublayerKind::Block, norm: NormPlacement::Post, ..Config::default() };
        for (depth, lr, optimizer) in
            [(40, 0.01, OptimizerKind::Adam), (7, 0.5, OptimizerKind::Sgd), (41, 0.01, OptimizerKind::Adam)]
        {
            let config = Config { depth, learning_rate: lr, optimizer, ..base.clone() };
            assert_eq!(weights(&mut kept.stack(&config)), weights(&mut Stack::new(&config)), "depth {depth}");
        }
        // a change that decides the weights is not served from the kept layers
        for config in [
            Config { seed: 2, ..base.clone() },
            Config { init_gain: 2.0, ..base.clone() },
            Config { width: 16, ..base },
        ] {
            assert_eq!(weights(&mut kept.stack(&config)), weights(&mut Stack::new(&config)));
        }
    }
}
