//! The comparisons' records as JSON: an arm over seeds and rates, a tuned arm's search, the pins,
//! the tuned lens, the knockout (the run's own records are `json.rs`'s).

use crate::json::*;
use crate::words::pin_label;
use ablation_core::config::{Config, TaskKind};
use ablation_training::live::frame::Frame;
use ablation_training::measures::knockout::{Healing, Knockout, Removal};
use ablation_training::measures::tuned_lens::TunedLensState;
use ablation_training::runs::arm::Arm;
use ablation_training::runs::outcome::Outcome;
use ablation_training::runs::pinned::PinState;
use ablation_training::runs::spread::median;
use ablation_training::runs::tuned::{CandidateScores, Limit, Tuned};

/// A row of "All four" (the CLI's and the page's): the switches and what the run measured
/// (a number not reached yet is NaN, so `null`).
pub fn outcome_fields(o: &Outcome) -> Vec<(&'static str, Json)> {
    let mut fields = Vec::from(switches_json(o.config.residual, o.config.norm));
    fields.extend([
        ("init_top_std", Json::Num(o.init_top_std)),
        ("grad_ratio", Json::Num(o.grad_ratio)),
        ("final_loss", Json::Num(o.final_loss)),
        ("diverged_at", step_json(o.diverged_at)),
        ("readout_loss", Json::nums(&o.readout_loss)),
    ]);
    if o.config.task != TaskKind::Teacher {
        fields.push(("val_loss", Json::Num(o.held_out.loss)));
        if o.config.task.copies() {
            fields.push(("accuracy", Json::Num(o.held_out.accuracy)));
        }
        fields.push(("sample", Json::Str(o.held_out.sample.clone())));
    }
    fields
}

/// An arm's runs shown, one per seed: `[{seed, lr, final_loss, val_loss, diverged_at,
/// converged}, …]` (a run not done yet is left out), the median of their final losses and
/// whether each plateaued (`converged`, per seed shown, `null` for one not done); with tuning the
/// rates tried (`lr_grid`), the chosen rate (`lr`) and the search (`tuning`, `tuning_json`).
pub fn arm_fields<T>(arm: &Arm<T>, run: fn(&T) -> RunEnd) -> Vec<(&'static str, Json)> {
    let runs: Vec<(u64, RunEnd)> = arm.shown_done().map(|(s, r)| (s, run(r))).collect();
    let entries = runs.iter().map(
        |&(seed, (final_loss, val_loss, diverged_at, converged, steps, accuracy, hidden))| {
            let mut fields = vec![
                ("seed", Json::Int(seed.into())),
                ("lr", Json::Num(arm.rate())),
                ("final_loss", Json::Num(final_loss)),
                ("val_loss", Json::Num(val_loss)),
                ("diverged_at", step_json(diverged_at)),
                ("converged", converged.map_or(Json::Null, Json::Bool)),
                ("steps", Json::Int(steps as i128)),
            ];
            if !accuracy.is_nan() {
                fields.push(("accuracy", Json::Num(accuracy)));
            }
            if !hidden.is_nan() {
                fields.push(("loss_future_hidden", Json::Num(hidden)));
            }
            Json::Obj(fields)
        },
    );
    let finals: Vec<f64> = runs.iter().map(|(_, r)| r.0).collect();
    let converged =
        arm.shown().iter().map(|r| r.as_ref().and_then(|r| run(r).3).map_or(Json::Null, Json::Bool));
    let mut fields = vec![
        ("runs", Json::Arr(entries.collect())),
        ("median_final_loss", Json::Num(median(&finals))),
        ("converged", Json::Arr(converged.collect())),
    ];
    if let Some(t) = &arm.tuning {
        fields.push(("lr_grid", Json::nums(&t.lrs)));
        fields.push(("lr", t.chosen.map_or(Json::Null, |c| Json::Num(c.0))));
        fields.push(("tuning", tuning_json(t, &arm.seeds)));
    }
    fields
}

/// A candidate of a search and its score at each round: a number, `"diverged"` (a run's loss
/// stopped being finite), or null where it was not trained that far.
fn candidate_json(c: &CandidateScores) -> Json {
    let score = |s: &Option<f64>| match s {
        Some(x) if x.is_finite() => Json::Num(*x),
        Some(_) => Json::Str("diverged".into()),
        None => Json::Null,
    };
    setting_json(c.lr, c.warmup, c.beta2, vec![("scores", Json::Arr(c.scores.iter().map(score).collect()))])
}

/// A search's setting, `{lr, warmup, beta2}`, and `more` fields after it.
fn setting_json(lr: f64, warmup: usize, beta2: f64, more: Vec<(&'static str, Json)>) -> Json {
    let mut fields =
        vec![("lr", Json::Num(lr)), ("warmup", Json::Int(warmup as i128)), ("beta2", Json::Num(beta2))];
    fields.extend(more);
    Json::Obj(fields)
}

/// A tuned arm's search, as the report's `tuning`: `{grid: {lr, warmup, beta2}, chosen: {lr,
/// warmup, beta2} | null, bracketed: {lr} | null, limit: "lowest" | "highest" | null,
/// choosing_seeds, reporting_seeds, rounds: [{candidates, steps, carried}], planned_rounds,
/// candidates: [{lr, warmup, beta2, scores}], tie: {lr, warmup, beta2, score, chosen_score} |
/// null}`.
pub fn tuning_json(t: &Tuned, reporting_seeds: &[u64]) -> Json {
    let seeds = |s: &[u64]| Json::Arr(s.iter().map(|&s| Json::Int(s.into())).collect());
    let ints = |xs: &[usize]| Json::Arr(xs.iter().map(|&x| Json::Int(x as i128)).collect());
    let rounds = t.rounds.iter().map(|r| {
        Json::Obj(vec![
            ("candidates", Json::Int(r.candidates as i128)),
            ("steps", Json::Int(r.steps as i128)),
            ("carried", Json::Int(r.carried as i128)),
        ])
    });
    let tie = t.tie.as_ref().map_or(Json::Null, |k| {
        setting_json(
            k.lr,
            k.warmup,
            k.beta2,
            vec![("score", Json::Num(k.score)), ("chosen_score", Json::Num(k.chosen_score))],
        )
    });
    Json::Obj(vec![
        (
            "grid",
            Json::Obj(vec![
                ("lr", Json::nums(&t.lrs)),
                ("warmup", ints(&t.warmups)),
                ("beta2", Json::nums(&t.beta2s)),
            ]),
        ),
        (
            "chosen",
            t.chosen.map_or(Json::Null, |(lr, warmup, beta2)| setting_json(lr, warmup, beta2, vec![])),
        ),
        (
            "bracketed",
            if t.chosen.is_some() { Json::Obj(vec![("lr", Json::Bool(t.bracketed))]) } else { Json::Null },
        ),
        (
            "limit",
            match t.limit {
                Some(Limit::Lowest) => Json::Str("lowest".into()),
                Some(Limit::Highest) => Json::Str("highest".into()),
                None => Json::Null,
            },
        ),
        ("choosing_seeds", seeds(&t.choosing_seeds)),
        ("reporting_seeds", seeds(reporting_seeds)),
        ("rounds", Json::Arr(rounds.collect())),
        ("planned_rounds", Json::Int(t.planned_rounds as i128)),
        ("candidates", Json::Arr(t.candidates.iter().map(candidate_json).collect())),
        ("tie", tie),
    ])
}

/// What a comparison's run reports of its end: (final loss, held-out loss, diverged at,
/// plateaued, steps trained, held-out accuracy on a copying task or NaN, held-out loss with the
/// future hidden for a stack without the mask or NaN).
pub type RunEnd = (f64, f64, Option<usize>, Option<bool>, usize, f64, f64);

/// An outcome's numbers for `arm_fields`.
pub fn outcome_run(o: &Outcome) -> RunEnd {
    (
        o.final_loss,
        o.held_out.loss,
        o.diverged_at,
        o.converged,
        o.steps,
        o.held_out.accuracy,
        o.held_out.future_hidden,
    )
}

/// The pins for `.value`: each one's text, its label against `live`, how far its runs got.
pub fn pins_json(pins: &[PinState], live: &Config) -> Json {
    let pins = pins.iter().map(|p| {
        Json::Obj(vec![
            ("pin", Json::Str(p.pin.text())),
            ("label", Json::Str(pin_label(&p.config, live))),
            ("step", p.frame.as_ref().map_or(Json::Null, |f| Json::Int(f.step as i128))),
            ("loss", p.frame.as_ref().and_then(|f| f.history.last()).map_or(Json::Null, Json::Num)),
            ("diverged_at", step_json(p.frame.as_ref().and_then(|f| f.diverged_at))),
            ("done", Json::Bool(p.done)),
            ("failed", p.failed.as_ref().map_or(Json::Null, |why| Json::Str(why.clone()))),
            ("seeds", pin_seeds_json(p)),
            ("lr", Json::Num(p.config.learning_rate)),
            (
                "tuning",
                p.tuning.as_ref().map_or(Json::Null, |t| {
                    tuning_json(t, &ablation_training::runs::spread::seeds(&p.config))
                }),
            ),
        ])
    });
    Json::Arr(pins.collect())
}

/// The tuned lens for `.value` (`null` before it starts).
pub fn tuned_lens_json(lens: Option<&TunedLensState>) -> Json {
    lens.map_or(Json::Null, |l| {
        Json::Obj(vec![
            ("step", Json::Int(l.step as i128)),
            ("done", Json::Bool(l.done)),
            ("fit_steps", Json::Int(l.fit_steps as i128)),
            ("readout_loss", if l.done && l.failed.is_none() { Json::nums(&l.losses) } else { Json::Null }),
            ("failed", l.failed.as_ref().map_or(Json::Null, |why| Json::Str(why.clone()))),
        ])
    })
}

/// A removal's numbers after its own (`k`, `draws`): the probe loss, and on a sequence task
/// the held-out loss (and on the copy tasks the accuracy).
fn removal_fields(r: &Removal, sequence: bool, copies: bool) -> Vec<(&'static str, Json)> {
    let mut fields = vec![("loss", Json::Num(r.loss))];
    if sequence {
        fields.push(("val_loss", Json::Num(r.val_loss)));
    }
    if copies {
        fields.push(("accuracy", Json::Num(r.accuracy)));
    }
    fields
}

impl ToJsonFor for Knockout {
    /// On `task`: the per-layer lists, the top k, and k at random (each k's median over its draws).
    fn json(&self, task: TaskKind) -> Json {
        let (sequence, copies) = (task != TaskKind::Teacher, task.copies());
        let removal = |k: usize, r: &Removal, draws: Option<usize>| {
            let mut fields = vec![("k", Json::Int(k as i128))];
            fields.extend(removal_fields(r, sequence, copies));
            if let Some(n) = draws {
                fields.push(("draws", Json::Int(n as i128)));
            }
            Json::Obj(fields)
        };
        let random = self
            .random_k
            .iter()
            .map(|(k, draws)| removal(*k, &Removal::median(draws.iter()), Some(draws.len())));
        let mut fields = vec![
            ("intact_loss", Json::Num(self.intact_loss)),
            ("loss", Json::nums(&self.loss)),
            ("output_change", Json::nums(&self.output_change)),
        ];
        if sequence {
            fields.push(("intact_val_loss", Json::Num(self.intact.val_loss)));
            fields.push(("val_loss", Json::Arr(self.each.iter().map(|r| Json::Num(r.val_loss)).collect())));
        }
        if copies {
            fields.push(("intact_accuracy", Json::Num(self.intact.accuracy)));
            fields.push(("accuracy", Json::Arr(self.each.iter().map(|r| Json::Num(r.accuracy)).collect())));
        }
        fields.push((
            "top_k",
            Json::Arr(self.top_k.iter().enumerate().map(|(i, r)| removal(i + 1, r, None)).collect()),
        ));
        fields.push(("random_k", Json::Arr(random.collect())));
        fields.push((
            "below_top_k",
            Json::Arr(self.below_top_k.iter().enumerate().map(|(i, r)| removal(i + 1, r, None)).collect()),
        ));
        let gromov = self.gromov.iter().enumerate().map(|(i, (start, distance, r))| {
            let mut fields = vec![
                ("k", Json::Int(i as i128 + 1)),
                ("start", Json::Int(*start as i128)),
                ("angular_distance", Json::Num(*distance)),
            ];
            fields.extend(removal_fields(r, sequence, copies));
            Json::Obj(fields)
        });
        fields.push(("gromov", Json::Arr(gromov.collect())));
        Json::Obj(fields)
    }
}

impl ToJsonFor for Healing {
    /// `{steps, intact: {…}, gromov: [{k, start, …}], scratch: {…}}`, each removal's numbers
    /// as the knockout's.
    fn json(&self, task: TaskKind) -> Json {
        let (sequence, copies) = (task != TaskKind::Teacher, task.copies());
        let gromov = self.gromov.iter().enumerate().map(|(i, (start, r))| {
            let mut fields = vec![("k", Json::Int(i as i128 + 1)), ("start", Json::Int(*start as i128))];
            fields.extend(removal_fields(r, sequence, copies));
            Json::Obj(fields)
        });
        Json::Obj(vec![
            ("steps", Json::Int(self.steps as i128)),
            ("intact", Json::Obj(removal_fields(&self.intact, sequence, copies))),
            ("gromov", Json::Arr(gromov.collect())),
            ("scratch", Json::Obj(removal_fields(&self.scratch, sequence, copies))),
        ])
    }
}

/// A pin's seeds: each one's step, last loss and divergence so far.
fn pin_seeds_json(p: &PinState) -> Json {
    let seed = |(seed, frame): &(u64, Option<Frame>)| {
        Json::Obj(vec![
            ("seed", Json::Int((*seed).into())),
            ("step", frame.as_ref().map_or(Json::Null, |f| Json::Int(f.step as i128))),
            ("loss", frame.as_ref().and_then(|f| f.history.last()).map_or(Json::Null, Json::Num)),
            ("diverged_at", step_json(frame.as_ref().and_then(|f| f.diverged_at))),
        ])
    };
    Json::Arr(p.seeds.iter().map(seed).collect())
}
