//! The live run, in its own Web Worker (or on the page's thread as a fallback): trains in
//! slices and encodes frames. Configurations arrive as bytes (`Settings.configBytes`).

use super::js_error;
use ablation_core::config::Config;
use ablation_training::live::session;
use ablation_training::live::writing::Prompt;
use ablation_training::runs::job::Job;
use ablation_view::json::frame_report_json;
use ablation_view::safetensors;
use wasm_bindgen::prelude::*;

/// The page's handle on the core's `Session` (JavaScript knows it as `Session`).
#[wasm_bindgen(js_name = Session)]
pub struct SessionHandle {
    inner: session::Session,
    /// The split steps begun so far: each one's number names its helpers' tasks and answers.
    split: u64,
}

#[wasm_bindgen(js_class = Session)]
impl SessionHandle {
    /// A session for a configuration (`Settings.configBytes()`), answering desired state
    /// number `generation`; damaged bytes are an error.
    #[wasm_bindgen(constructor)]
    pub fn new(config: &[u8], generation: u32) -> Result<SessionHandle, JsError> {
        let config = Config::decode(config).map_err(js_error)?;
        super::check_text(&config)?;
        Ok(SessionHandle { inner: session::Session::new(&config).with_generation(generation), split: 0 })
    }

    /// Brings the run to desired state number `generation`: starts again from the seed if
    /// `config` is not the configuration being trained or `again` (Reset) says so (if only the
    /// step limit changed, the run goes on with the new limit). Returns whether it started
    /// again. Damaged bytes are an error.
    pub fn want(&mut self, config: &[u8], generation: u32, again: bool) -> Result<bool, JsError> {
        let config = Config::decode(config).map_err(js_error)?;
        super::check_text(&config)?;
        let restart = (again || config != *self.inner.config()) && self.inner.restart(&config, generation);
        self.inner.set_generation(generation);
        Ok(restart)
    }

    /// Writes up to `chars` more characters of what "The model writes" shows (a sample begun
    /// with the current weights if none is under way and the last is stale); returns whether
    /// a sample is still under way. The caller spaces the samples out and sizes the calls.
    #[wasm_bindgen(js_name = writeSome)]
    pub fn write_some(&mut self, chars: u32) -> bool {
        self.inner.write_some(chars as usize)
    }

    /// What the model wrote is older than its weights: a `write` would show something new.
    #[wasm_bindgen(getter, js_name = writingStale)]
    pub fn writing_stale(&self) -> bool {
        self.inner.writing_is_stale()
    }

    /// Trains up to `max_steps` steps while the run goes on; returns how many it took.
    pub fn train(&mut self, max_steps: u32) -> u32 {
        let mut steps = 0;
        while steps < max_steps && self.inner.train_step() {
            steps += 1;
        }
        steps
    }

    /// Each step's batch is split into this many shards (1: not split).
    #[wasm_bindgen(getter)]
    pub fn shards(&self) -> u32 {
        self.inner.config().step_shards() as u32
    }

    /// A training step whose shards helper workers share, begun (`Trainer::begin_split_step`):
    /// its number, or 0 if the run is not going on or its step is not split. Then
    /// `shardTask` for each helper, `runShard` here, `putShardAnswer` for each answer, and
    /// `finishSplitStep`: the bits of `train(1)`.
    #[wasm_bindgen(js_name = beginSplitStep)]
    pub fn begin_split_step(&mut self) -> f64 {
        if !self.inner.begin_split_step() {
            return 0.0;
        }
        self.split += 1;
        self.split as f64
    }

    /// The task for a helper worker: the begun step's `shards` (`ShardHelper.run` answers it).
    #[wasm_bindgen(js_name = shardTask)]
    pub fn shard_task(&mut self, shards: Vec<u32>) -> Result<Vec<u8>, JsError> {
        let config = self.inner.config().clone();
        let split = self.split;
        let all = self.split_shards()?;
        let shards: Vec<usize> = shards.iter().map(|&k| k as usize).collect();
        if shards.iter().any(|&k| k >= all.count()) {
            return Err(JsError::new("a shard the step does not have"));
        }
        Ok(all.task(&config, split, &shards))
    }

    /// The begun step's weights, a copy for one helper's task (transferred with it).
    #[wasm_bindgen(js_name = shardWeights)]
    pub fn shard_weights(&mut self) -> Result<js_sys::Float32Array, JsError> {
        Ok(js_sys::Float32Array::from(self.split_shards()?.weights()))
    }

    /// How many weights `shardWeights` holds (what a shared buffer for them must hold).
    #[wasm_bindgen(js_name = shardWeightCount)]
    pub fn shard_weight_count(&mut self) -> Result<u32, JsError> {
        Ok(self.split_shards()?.weights().len() as u32)
    }

    /// The begun step's weights copied into `out`: a `Float32Array` on a `SharedArrayBuffer`
    /// that every helper reads (a cross-origin isolated page: one copy a step, however many
    /// helpers), or the buffer a helper gave back with its last answer (no new buffer of
    /// megabytes each step). An error, copying nothing, if `out` holds another number of
    /// weights.
    #[wasm_bindgen(js_name = shardWeightsInto)]
    pub fn shard_weights_into(&mut self, out: &js_sys::Float32Array) -> Result<(), JsError> {
        let weights = self.split_shards()?.weights();
        if out.length() as usize != weights.len() {
            return Err(JsError::new("a buffer of another length than the step's weights"));
        }
        out.copy_from(weights);
        Ok(())
    }

    /// Shard `k` of the begun step, on this thread.
    #[wasm_bindgen(js_name = runShard)]
    pub fn run_shard(&mut self, k: u32) -> Result<(), JsError> {
        let shards = self.split_shards()?;
        if k as usize >= shards.count() {
            return Err(JsError::new("a shard the step does not have"));
        }
        shards.run_here_f32(k as usize);
        Ok(())
    }

    /// A helper's answer to the begun step and its shards' `gradients` (`ShardHelper.run`,
    /// `takeGradients`), kept; an error (keeping nothing) for an answer to another step or
    /// damaged bytes.
    #[wasm_bindgen(js_name = putShardAnswer)]
    pub fn put_shard_answer(
        &mut self,
        answer: &[u8],
        gradients: &js_sys::Float32Array,
    ) -> Result<(), JsError> {
        let split = self.split;
        let have = gradients.length();
        self.split_shards()?
            .put_answer(split, answer, &mut |i, into| {
                let (from, to) = (i as u32 * into.len() as u32, (i as u32 + 1) * into.len() as u32);
                if to > have {
                    return Err("a helper's gradients are shorter than its answer says".into());
                }
                gradients.subarray(from, to).copy_to(into);
                Ok(())
            })
            .map_err(js_error)
    }

    /// Ends the begun step once every shard's result is in (an error before).
    #[wasm_bindgen(js_name = finishSplitStep)]
    pub fn finish_split_step(&mut self) -> Result<(), JsError> {
        if !self.split_shards()?.complete() {
            return Err(JsError::new("a shard's result is not in yet"));
        }
        self.inner.finish_split_step();
        Ok(())
    }

    /// After a divergence, replays up to `max_steps` steps of the run towards its last finite
    /// state, which the frames then show; returns how many it replayed.
    pub fn recover(&mut self, max_steps: u32) -> u32 {
        self.inner.recover(max_steps as usize) as u32
    }

    /// After a divergence, the replay to the last finite state is under way.
    #[wasm_bindgen(getter)]
    pub fn recovering(&self) -> bool {
        self.inner.recovering()
    }

    /// The matrices' view asks for its measure and it is not complete (`measure` has work).
    #[wasm_bindgen(getter)]
    pub fn measuring(&self) -> bool {
        self.inner.measuring()
    }

    /// Up to `batches` more batches of the matrices' view's measure (on a stack of its own:
    /// the run is not touched); returns whether more are left.
    pub fn measure(&mut self, batches: u32) -> bool {
        self.inner.measure_matrices(batches as usize)
    }

    /// One step even at the step limit (the Step button); none after a divergence.
    pub fn step(&mut self) -> bool {
        self.inner.single_step()
    }

    /// Play on a finished run continues it for another `steps` steps.
    #[wasm_bindgen(js_name = continueRun)]
    pub fn continue_run(&mut self) {
        self.inner.continue_run();
    }

    /// Not diverged and below the step limit.
    #[wasm_bindgen(getter)]
    pub fn running(&self) -> bool {
        self.inner.running()
    }

    pub fn rescale(&mut self) {
        self.inner.rescale();
    }

    #[wasm_bindgen(js_name = resetScale)]
    pub fn reset_scale(&mut self) {
        self.inner.reset_scale();
    }

    /// Measures the probe batch and encodes what the page shows now.
    pub fn frame(&mut self) -> Vec<u8> {
        self.inner.frame().encode()
    }

    /// The run put aside, for `Session.resumed` in another worker to go on from bit for bit
    /// (a widget scrolled away lets its worker go); undefined while a replay after a
    /// divergence is under way.
    pub fn suspend(&mut self) -> Option<Vec<u8>> {
        self.inner.suspend()
    }

    /// The run `suspend` put aside, answering desired state number `generation`; anything but
    /// its bytes is an error (the text task's text must be installed first, as for `new`).
    pub fn resumed(bytes: &[u8], generation: u32) -> Result<SessionHandle, JsError> {
        let inner = session::Session::resume(bytes).map_err(js_error)?;
        super::check_text(inner.config())?;
        Ok(SessionHandle { inner: inner.with_generation(generation), split: 0 })
    }

    /// Every sample from now continues `text` by `chars` characters (undefined: the text's own
    /// prompt); a prompt too long or a count out of range is an error in words.
    #[wasm_bindgen(js_name = setPrompt)]
    pub fn set_prompt(&mut self, text: Option<String>, chars: u32) -> Result<(), JsError> {
        let prompt = text.map(|t| Prompt::reader(&t, chars as usize)).transpose().map_err(js_error)?;
        self.inner.set_prompt(prompt);
        Ok(())
    }

    /// The stack's weights now as a safetensors file (docs/cli.md, "The weights file"): the
    /// same bytes as `ablate --save-weights` for the same run at the same step. An error while
    /// the run is being replayed after a divergence, or if a weight is not finite.
    #[wasm_bindgen(js_name = weightsFile)]
    pub fn weights_file(&mut self) -> Result<Vec<u8>, JsError> {
        if self.inner.recovering() {
            return Err(JsError::new(
                "the run is going back to its last finite state; try again in a moment",
            ));
        }
        let trainer = self.inner.trainer();
        if trainer.diverged_at.is_some() {
            return Err(JsError::new("the run diverged: its weights are not finite numbers"));
        }
        Ok(safetensors::write(&trainer.config.clone(), trainer.updates(), &mut trainer.stack))
    }

    /// Starts the run again from a weights file's weights (`ablate --load-weights`), at step 0
    /// with a fresh optimiser (a file saved later counts the file's updates too). The page has taken the file's configuration first
    /// (`Settings.adoptWeights`); a file whose tensors do not fit this run, or that is damaged,
    /// is an error in words and changes nothing.
    #[wasm_bindgen(js_name = loadWeights)]
    pub fn load_weights(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        // (a refusal as its message, said on the page in the reader's language: `Words.sayReason`)
        let refused = |said: &ablation_words::Said| JsError::new(&super::words::said_json(said));
        let file = safetensors::read(bytes).map_err(|e| refused(&e))?;
        if !safetensors::fits(&file.config, self.inner.config()) {
            return Err(refused(&ablation_words::Said::new("file-not-this-run")));
        }
        self.inner.start_from(&file.weights, file.step).map_err(js_error)
    }

    /// The run now as `ablate`'s JSON report has it (`view::json::frame_report_json`).
    #[wasm_bindgen(js_name = reportJson)]
    pub fn report_json(&mut self) -> String {
        let frame = self.inner.frame();
        let evals = self.inner.trainer().evals.clone();
        frame_report_json(&frame, &evals).to_string()
    }

    /// The knockout of the stack as trained so far, as a job for the pool (`View.startKnockout`).
    #[wasm_bindgen(js_name = knockoutJob)]
    pub fn knockout_job(&mut self) -> Vec<u8> {
        Job::knockout_of(&mut self.inner).encode(0)
    }
}

impl SessionHandle {
    fn split_shards(&mut self) -> Result<&mut ablation_training::step::shards::Shards<f32>, JsError> {
        self.inner.trainer().shards().ok_or_else(|| JsError::new("this run's step is not split"))
    }
}
