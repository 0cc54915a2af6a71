//! A helper worker of the live run: answers the shards of its split steps
//! (`training::step::shards`), on a `MessagePort` the page gave it and the live worker. The step's
//! weights come in, and the shards' gradients go out, as `Float32Array`s copied straight into
//! and out of the stack's parameters: one copy each way, where an encoding would take three.

use super::js_error;
use ablation_core::model::param::Params;
use ablation_training::step::shards::ShardRunner;
use js_sys::Float32Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
#[derive(Default)]
pub struct ShardHelper {
    inner: ShardRunner,
    gradients: Option<Float32Array>,
}

#[wasm_bindgen]
impl ShardHelper {
    #[wasm_bindgen(constructor)]
    pub fn new() -> ShardHelper {
        ShardHelper::default()
    }

    /// The answer to a task (`Session.shardTask`'s bytes) with the step's `weights`
    /// (`Session.shardWeights`): each shard's loss; their gradients then in `takeGradients`,
    /// written into `spare` if it holds them all (a buffer an earlier answer gave back: no new
    /// one of megabytes each step). An error for bytes that are not a task or weights of
    /// another length.
    pub fn run(
        &mut self,
        task: &[u8],
        weights: &Float32Array,
        spare: Option<Float32Array>,
    ) -> Result<Vec<u8>, JsError> {
        let mut out: Option<Float32Array> = spare;
        let mut used = 0;
        let answer = self.inner.run(
            task,
            &mut |stack, len| {
                if weights.length() as usize != len {
                    return Err("the step's weights of another length than its stack's".into());
                }
                let mut at = 0;
                stack.visit(&mut |p| {
                    let n = p.value.len() as u32;
                    weights.subarray(at, at + n).copy_to(p.value.as_mut_slice());
                    at += n;
                });
                Ok(())
            },
            &mut |i, stack| {
                let mut len = 0;
                stack.visit(&mut |p| len += p.grad.len() as u32);
                let out = out.get_or_insert_with(|| Float32Array::new_with_length(0));
                if out.length() < (i as u32 + 1) * len {
                    let grown = Float32Array::new_with_length((i as u32 + 1) * len);
                    grown.set(out, 0);
                    *out = grown;
                }
                let mut at = i as u32 * len;
                stack.visit(&mut |p| {
                    let n = p.grad.len() as u32;
                    out.subarray(at, at + n).copy_from(p.grad.as_slice());
                    at += n;
                });
                used = used.max(at);
            },
        );
        // (a spare longer than these gradients: the part they fill)
        self.gradients = out.map(|o| if o.length() > used { o.subarray(0, used) } else { o });
        answer.map_err(js_error)
    }

    /// The last task's gradients, shard after shard (empty if none was finite).
    #[wasm_bindgen(js_name = takeGradients)]
    pub fn take_gradients(&mut self) -> Float32Array {
        self.gradients.take().unwrap_or_else(|| Float32Array::new_with_length(0))
    }
}
