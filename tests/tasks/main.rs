//! The sequence tasks' own pieces, against their definitions: the embeddings, the unembedding
//! and the cross-entropy by central finite differences; the text's floors by counting; the
//! copy task's examples, seeded and with every answer determined by its prompt.
//!
//! One test binary, by feature: `losses.rs`, `data.rs`, `writing.rs`; the helpers they share are here.

mod data;
mod losses;
mod writing;

use ablation_playground::model::embedding::Embedding;
use ablation_playground::model::linear::Linear;
use ablation_playground::model::loss::{cross_entropy, cross_entropy_backward};
use ablation_playground::model::param::{Draw, Param, Params};
use ablation_playground::model::rng::{Rng, Stream};
use ablation_playground::training::tasks::copy_task::CopyTask;
use ablation_playground::training::tasks::corpus::{fnv1a, shakespeare, Corpus};
use ablation_playground::training::tasks::task::SymbolTask;
use nalgebra::DMatrix;

const EPS: f64 = 1e-6;

/// The loss of ids → embedding → unembedding → cross-entropy, and its gradients.
struct Tiny {
    embedding: Embedding<f64>,
    unembedding: Linear<f64>,
}

impl Params<f64> for Tiny {
    fn visit(&mut self, f: &mut dyn FnMut(&mut Param<f64>)) {
        self.embedding.visit(f);
        self.unembedding.visit(f);
    }

    fn names(&self, prefix: &str, out: &mut Vec<String>) {
        self.embedding.names(&format!("{prefix}embedding"), out);
        self.unembedding.names(&format!("{prefix}unembedding"), out);
    }
}

impl Tiny {
    /// The embedded batch `x` and its `logits`.
    fn forward(&self, ids: &[u32]) -> (DMatrix<f64>, DMatrix<f64>) {
        let d = self.embedding.tokens.value.ncols();
        let v = self.unembedding.weight.value.ncols();
        let mut x = DMatrix::zeros(ids.len(), d);
        self.embedding.forward(ids, &mut x);
        let mut logits = DMatrix::zeros(ids.len(), v);
        self.unembedding.forward(&x, &mut logits);
        (x, logits)
    }

    fn loss(&self, ids: &[u32], targets: &[u32], scored: &[bool]) -> f64 {
        cross_entropy(&self.forward(ids).1, targets, scored)
    }

    fn backward(&mut self, ids: &[u32], targets: &[u32], scored: &[bool]) {
        let (x, logits) = self.forward(ids);
        let mut dlogits = DMatrix::zeros(logits.nrows(), logits.ncols());
        cross_entropy_backward(&logits, targets, scored, &mut dlogits);
        let mut dx = DMatrix::zeros(x.nrows(), x.ncols());
        self.unembedding.backward(&x, &dlogits, &mut dx, false);
        self.embedding.backward(ids, &dx);
    }
}
