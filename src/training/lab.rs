//! The comparisons a widget asked for, computed beside its live run (in the same worker, in
//! time slices): the pinned runs, "All four" and the depth sweep. Each is an ordinary run (or
//! several) from the seed, so every number equals the single run with the same configuration.
//! `state()` gives what the page draws, as plain data with a checked binary encoding.

use crate::config::{Config, NormPlacement, Pin};
use crate::training::compare::Comparison;
use crate::training::frame::Frame;
use crate::training::run_queue::Outcome;
use crate::training::session::Session;
use crate::training::sweep::{DepthSweep, SweepSeries, DEFAULT_SWEEP_DEPTHS};
use crate::training::wire::{Reader, Writer};

/// Steps of each run of "All four" and of the depth sweep on the page: the README table's
/// count, long enough for the combinations to part ways, short enough for a sweep up to depth
/// 96 to finish in under a minute on a laptop.
pub const LAB_STEPS: usize = 500;

/// A pin's run: not started, training (the only state that holds a stack), or done (only its
/// frame is kept, so that finished pins cost no memory beyond their curves).
enum PinRun {
    Waiting(Pin),
    Training(Pin, Box<Session>),
    Done(Pin, Box<Frame>),
}

impl PinRun {
    fn pin(&self) -> &Pin {
        match self {
            PinRun::Waiting(p) | PinRun::Training(p, _) | PinRun::Done(p, _) => p,
        }
    }

    /// Trains up to `budget` steps (starting the run counts as one); returns the steps taken.
    fn advance(&mut self, budget: usize) -> usize {
        let mut taken = 0;
        if budget == 0 {
            return 0;
        }
        if let PinRun::Waiting(p) = self {
            *self = PinRun::Training(p.clone(), Box::new(Session::new(&p.config)));
            taken += 1;
        }
        if let PinRun::Training(p, session) = self {
            while taken < budget && session.train_step() {
                taken += 1;
            }
            if !session.running() {
                *self = PinRun::Done(p.clone(), Box::new(session.frame()));
            }
        }
        taken
    }
}

#[derive(Default)]
pub struct Lab {
    pins: Vec<PinRun>,
    compare: Option<Comparison>,
    sweep: Option<DepthSweep>,
}

/// One pin: its run's frame at the pin's step, or as far as it got (none before it starts).
#[derive(Clone, Debug, PartialEq)]
pub struct PinState {
    pub pin: Pin,
    pub done: bool,
    pub frame: Option<Frame>,
}

/// One row of "All four": a finished run, the one in progress or one not started (then
/// `done` is false and the numbers the run has not reached yet are NaN).
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub done: bool,
    pub run: Outcome,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompareState {
    pub config: Config,
    pub steps: usize,
    /// The four combinations in the order of `four_combinations`, as far as they got.
    pub rows: Vec<CompareRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SweepState {
    pub config: Config,
    pub steps: usize,
    pub depths: Vec<usize>,
    pub runs_finished: usize,
    pub series: Vec<SweepSeries>,
}

impl SweepState {
    pub fn runs_total(&self) -> usize {
        4 * self.depths.len()
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabState {
    pub pins: Vec<PinState>,
    pub compare: Option<CompareState>,
    pub sweep: Option<SweepState>,
}

impl Lab {
    /// Keeps exactly these pins: runs already under way for a pin that stays are kept.
    pub fn set_pins(&mut self, pins: &[Pin]) {
        let mut old = std::mem::take(&mut self.pins);
        for pin in pins {
            let run = match old.iter().position(|r| r.pin() == pin) {
                Some(i) => old.remove(i),
                None => PinRun::Waiting(pin.clone()),
            };
            self.pins.push(run);
        }
    }

    /// Starts "All four" for `config` (replacing one under way).
    pub fn start_compare(&mut self, config: &Config) {
        self.compare = Some(Comparison::new(config, LAB_STEPS));
    }

    /// Starts the depth sweep of `config` over the default depths (replacing one under way).
    pub fn start_sweep(&mut self, config: &Config) {
        self.sweep = Some(DepthSweep::new(config, &DEFAULT_SWEEP_DEPTHS, LAB_STEPS).expect("valid depths"));
    }

    /// Something is left to compute.
    pub fn busy(&self) -> bool {
        self.pins.iter().any(|p| !matches!(p, PinRun::Done(..)))
            || self.compare.as_ref().is_some_and(|c| !c.is_done())
            || self.sweep.as_ref().is_some_and(|s| !s.is_done())
    }

    /// Takes up to `max_steps` training steps: the pins first, then "All four", then the sweep.
    /// Returns whether anything is left.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        let mut budget = max_steps;
        for p in &mut self.pins {
            budget -= p.advance(budget);
        }
        if let Some(c) = self.compare.as_mut().filter(|c| !c.is_done()) {
            c.advance(budget);
            budget = 0;
        }
        if let Some(s) = self.sweep.as_mut().filter(|_| budget > 0) {
            s.advance(budget);
        }
        self.busy()
    }

    /// What the page draws now (each pin probed at its current step).
    pub fn state(&mut self) -> LabState {
        let pins = self
            .pins
            .iter_mut()
            .map(|p| match p {
                PinRun::Waiting(pin) => PinState { pin: pin.clone(), done: false, frame: None },
                PinRun::Training(pin, s) => {
                    PinState { pin: pin.clone(), done: false, frame: Some(s.frame()) }
                }
                PinRun::Done(pin, f) => PinState { pin: pin.clone(), done: true, frame: Some((**f).clone()) },
            })
            .collect();
        let compare = self.compare.as_ref().map(|c| {
            let mut rows: Vec<CompareRow> =
                c.entries().iter().map(|o| CompareRow { done: true, run: o.clone() }).collect();
            for config in &c.configs()[rows.len()..] {
                let run = match c.current().filter(|r| r.config() == config) {
                    Some(run) => Outcome::of(run, true),
                    None => Outcome::pending(config),
                };
                rows.push(CompareRow { done: false, run });
            }
            CompareState { config: c.configs()[3].clone(), steps: c.steps(), rows }
        });
        let sweep = self.sweep.as_ref().map(|s| SweepState {
            config: s.config().clone(),
            steps: s.steps(),
            depths: s.depths().to_vec(),
            runs_finished: s.runs_finished(),
            series: s.series().to_vec(),
        });
        LabState { pins, compare, sweep }
    }
}

const MAGIC: u32 = 0x314C_5041; // "APL1": an ablation-playground lab state, version 1

fn put_switches(w: &mut Writer, residual: bool, norm: NormPlacement) {
    w.u32(u32::from(residual));
    w.u32(norm as u32);
}

fn get_switches(r: &mut Reader) -> Result<(bool, NormPlacement), String> {
    let residual = r.u32()? != 0;
    let norm = match r.u32()? {
        0 => NormPlacement::Off,
        1 => NormPlacement::Pre,
        2 => NormPlacement::Post,
        _ => return Err("a lab state's norm is out of range".into()),
    };
    Ok((residual, norm))
}

fn get_config(r: &mut Reader) -> Result<Config, String> {
    let mut config = Config::default();
    for pair in r.str()?.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').ok_or("a lab state's configuration is malformed")?;
        config.set(name, value).map_err(|e| e.to_string())?;
    }
    Ok(config)
}

impl LabState {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(1024));
        w.u32(MAGIC);
        w.u64(self.pins.len() as u64);
        for p in &self.pins {
            w.str(&p.pin.text());
            w.u32(u32::from(p.done));
            w.u32(u32::from(p.frame.is_some()));
            if let Some(f) = &p.frame {
                w.bytes(&f.encode());
            }
        }
        w.u32(u32::from(self.compare.is_some()));
        if let Some(c) = &self.compare {
            w.str(&c.config.to_query());
            w.u64(c.steps as u64);
            w.u64(c.rows.len() as u64);
            for row in &c.rows {
                let o = &row.run;
                w.str(&o.config.to_query());
                w.u32(u32::from(row.done));
                for x in [o.init_top_std, o.grad_ratio, o.final_loss] {
                    w.f64(x);
                }
                w.opt_usize(o.diverged_at);
                w.f64s(&o.loss);
            }
        }
        w.u32(u32::from(self.sweep.is_some()));
        if let Some(s) = &self.sweep {
            w.str(&s.config.to_query());
            w.u64(s.steps as u64);
            w.u64(s.depths.len() as u64);
            for &d in &s.depths {
                w.u64(d as u64);
            }
            w.u64(s.runs_finished as u64);
            w.u64(s.series.len() as u64);
            for series in &s.series {
                put_switches(&mut w, series.residual, series.norm);
                w.f64s(&series.final_loss);
                w.f64s(&series.grad_ratio);
                w.u64(series.diverged_at.len() as u64);
                for &at in &series.diverged_at {
                    w.opt_usize(at);
                }
            }
        }
        w.0
    }

    /// Reads what `encode` wrote; anything else is an error, never a panic.
    pub fn decode(bytes: &[u8]) -> Result<LabState, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.u32()? != MAGIC {
            return Err("not a lab state".into());
        }
        let mut pins = Vec::new();
        for _ in 0..r.len(16)? {
            let pin = Pin::parse(&r.str()?).map_err(|e| e.to_string())?;
            let done = r.u32()? != 0;
            let frame = if r.u32()? != 0 { Some(Frame::decode(r.bytes()?)?) } else { None };
            if done && frame.is_none() {
                return Err("a finished pin without its frame".into());
            }
            pins.push(PinState { pin, done, frame });
        }
        let compare = if r.u32()? != 0 {
            let config = get_config(&mut r)?;
            let steps = r.usize()?;
            let mut rows = Vec::new();
            for _ in 0..r.len(48)? {
                let config = get_config(&mut r)?;
                let done = r.u32()? != 0;
                let (init_top_std, grad_ratio, final_loss) = (r.f64()?, r.f64()?, r.f64()?);
                let diverged_at = r.opt_usize()?;
                let loss = r.f64s()?;
                let run = Outcome { config, init_top_std, grad_ratio, final_loss, diverged_at, loss };
                rows.push(CompareRow { done, run });
            }
            Some(CompareState { config, steps, rows })
        } else {
            None
        };
        let sweep = if r.u32()? != 0 {
            let config = get_config(&mut r)?;
            let steps = r.usize()?;
            let depths = (0..r.len(8)?).map(|_| r.usize()).collect::<Result<Vec<_>, _>>()?;
            let runs_finished = r.usize()?;
            let mut series = Vec::new();
            for _ in 0..r.len(24)? {
                let (residual, norm) = get_switches(&mut r)?;
                let final_loss = r.f64s()?;
                let grad_ratio = r.f64s()?;
                let diverged_at = (0..r.len(8)?).map(|_| r.opt_usize()).collect::<Result<Vec<_>, _>>()?;
                if grad_ratio.len() != final_loss.len() || diverged_at.len() != final_loss.len() {
                    return Err("a sweep's lists differ in length".into());
                }
                series.push(SweepSeries { residual, norm, final_loss, grad_ratio, diverged_at });
            }
            Some(SweepState { config, steps, depths, runs_finished, series })
        } else {
            None
        };
        r.done()?;
        Ok(LabState { pins, compare, sweep })
    }
}
