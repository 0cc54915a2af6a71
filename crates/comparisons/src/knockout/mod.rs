//! The layer knockout: the live run's stack (and each other seed's, trained alike to the same
//! step): its loss with each layer taken out, how far the output
//! moves, and the loss with several layers taken out at once (the upper k, and k at random).
//! On a sequence task the loss is the held-out set's (one probe batch of the text varies by
//! about ±0.12 nats between windows, as much as the gap between its floors).

use super::runs::{here, no_clock, Comparisons, Group};
use super::{Comparison, ComparisonKind};
use ablation_core::config::{ComparisonSpec, Config, TaskKind, KNOCKOUT};
use ablation_training::measures::knockout::{Knockout, Removal};
use ablation_training::runs::job::{Job, Report};
use ablation_training::runs::spread::{median, Spread};
use ablation_training::step::train::Trainer;
use ablation_view::charts::number;
use ablation_view::charts::{self, ChartResult, Theme};
use ablation_view::json::Json;
use ablation_view::json::ToJsonFor;
use ablation_view::panels::{times, Scene, Surface};
use ablation_words::say;
use plotters::coord::Shift;
use plotters::prelude::*;

mod tables;
use tables::{knockout_table, removals_table};

pub struct LayerKnockout;

/// The knockout of the live run at `step`: each layer's measurements so far.
#[derive(Clone, Debug, PartialEq)]
pub struct KnockoutState {
    pub step: usize,
    /// The task its stack was trained on (what its removals measured).
    pub task: TaskKind,
    /// Every seed's stack is measured.
    pub done: bool,
    /// The first seed's (the live run's stack).
    pub result: Knockout,
    /// Each seed's stack, trained to the same step, once measured (the first is `result`).
    pub seeds: Vec<(u64, Knockout)>,
    pub runs_total: usize,
    /// The text's bigram line: on the text, a removal is judged by the share it loses of what
    /// the stack gains below it (`None` on the other tasks).
    pub floor: Option<f64>,
}

impl Comparison for LayerKnockout {
    const KIND: ComparisonKind = ComparisonKind::LayerKnockout;
    const SPEC: &'static ComparisonSpec = &KNOCKOUT;
    /// Its two charts side by side.
    const SIZE: (u32, u32) = (ablation_view::panels::SIZE.0 * 2, ablation_view::panels::SIZE.1);
    /// Quick measurements of a stack at hand: before the pins' runs.
    const RANK: u8 = 0;
    type State = KnockoutState;

    /// The live run's worker starts it, with its stack's weights (`start_from_stack`).
    fn start(_comparisons: &mut Comparisons, _config: &Config) {}

    fn state(g: &Group) -> KnockoutState {
        let slots = g.run_slots(0);
        let result_of = |s: &&super::runs::Slot| match &s.report {
            Some(Report::Knockout(k)) => Some(k.clone()),
            _ => None,
        };
        let result = slots.first().and_then(result_of).unwrap_or_else(Knockout::empty);
        // measured by the worker that had the stack (the page's thread has no text)
        let floor = result.bigram;
        let seeds = slots
            .iter()
            .filter(|s| s.done)
            .filter_map(|s| Some((s.job.config().seed, result_of(s)?)))
            .collect();
        let (runs_finished, runs_total) = g.progress();
        KnockoutState {
            step: g.steps,
            task: g.config.task,
            done: runs_finished == runs_total,
            result,
            seeds,
            runs_total,
            floor,
        }
    }

    /// Shown once every layer is measured.
    fn ready(k: &KnockoutState) -> bool {
        k.done
    }

    fn value(k: &KnockoutState) -> Json {
        if !k.done {
            return Json::Null;
        }
        let Json::Obj(mut fields) = k.json() else { unreachable!("an object") };
        fields.insert(0, ("step", Json::Int(k.step as i128)));
        Json::Obj(fields)
    }

    fn report(k: &KnockoutState) -> Json {
        k.json()
    }

    fn words(state: Option<&KnockoutState>, _scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
        let finished = state.filter(|k| k.done);
        (
            knockout_summary(state),
            vec![("table", knockout_table(finished).json()), ("removals", removals_table(finished).json())],
        )
    }

    fn draw<DB: Surface>(state: &KnockoutState, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult {
        draw_knockout(state, area, theme)
    }
}

/// Starts the knockout of the live run's stack (a `Job::Knockout` with its weights), replacing
/// any other; with more seeds, each other seed's stack is trained to the same step and knocked
/// out too. The knockout measures the run as trained, at its own rate.
pub fn start_from_stack(comparisons: &mut Comparisons, job: Job) {
    let Job::Knockout { step, config, .. } = &job else { return };
    let (step, config) = (*step, Config { tune: false, ..config.clone() });
    let trained = |run: Config, step| Job::Knockout {
        config: Config { steps: step, ..run },
        step,
        weights: Vec::new(),
    };
    // the first seed's stack is the live run's own
    comparisons.start::<LayerKnockout>(&config, step, vec![config.clone()], trained).replace_first(job);
}

/// The knockout of `trainer`'s stack (trained from `config`'s seed to `step`), and of each
/// other seed's stack trained alike, here.
pub fn knockout_here(
    trainer: &mut Trainer<f32>,
    config: &Config,
    step: usize,
    threads: usize,
) -> Result<KnockoutState, String> {
    let weights = trainer.weights();
    let job = Job::Knockout { config: Config { steps: step, ..config.clone() }, step, weights };
    here::<LayerKnockout>(threads, no_clock, |c| start_from_stack(c, job))
}

impl KnockoutState {
    /// The first seed's knockout as one seed's was, then every seed's stack.
    pub fn json(&self) -> Json {
        let Json::Obj(mut fields) = self.result.json(self.task) else { unreachable!("an object") };
        let seeds = self.seeds.iter().map(|(seed, k)| {
            Json::Obj(vec![
                ("seed", Json::Int((*seed).into())),
                ("intact_loss", Json::Num(k.intact_loss)),
                ("loss", Json::nums(&k.loss)),
            ])
        });
        fields.push(("seeds", Json::Arr(seeds.collect())));
        Json::Obj(fields)
    }
}

/// The median knockout over the seeds' stacks: layer by layer, the median loss and output
/// change (the first seed's alone when there is one).
pub fn median_knockout(k: &KnockoutState) -> Knockout {
    if k.seeds.len() < 2 {
        return k.result.clone();
    }
    let fewest = |f: fn(&Knockout) -> usize| k.seeds.iter().map(|(_, s)| f(s)).min().unwrap_or(0);
    let of = |f: &dyn Fn(&Knockout) -> f64| median(&k.seeds.iter().map(|(_, s)| f(s)).collect::<Vec<_>>());
    let seeds: Vec<&Knockout> = k.seeds.iter().map(|(_, s)| s).collect();
    let removal =
        |f: fn(&Knockout, usize) -> &Removal, i: usize| Removal::median(seeds.iter().map(|s| f(s, i)));
    let layers = fewest(|s| s.loss.len());
    let intact = removal(|s, _| &s.intact, 0);
    // each seed's stack draws its own layers at random: the median over seeds and draws
    let random_k = (0..fewest(|s| s.random_k.len()))
        .map(|i| {
            let draws = seeds.iter().flat_map(|s| s.random_k[i].1.iter());
            (k.seeds[0].1.random_k[i].0, vec![Removal::median(draws)])
        })
        .collect();
    Knockout {
        intact_loss: intact.loss,
        intact,
        loss: (0..layers).map(|l| of(&|s| s.loss[l])).collect(),
        output_change: (0..layers).map(|l| of(&|s| s.output_change[l])).collect(),
        each: (0..layers).map(|l| removal(|s, l| &s.each[l], l)).collect(),
        top_k: (0..fewest(|s| s.top_k.len())).map(|i| removal(|s, i| &s.top_k[i], i)).collect(),
        random_k,
        below_top_k: (0..fewest(|s| s.below_top_k.len()))
            .map(|i| removal(|s, i| &s.below_top_k[i], i))
            .collect(),
        // each seed's stack chooses its own block: the first seed's start, the medians of the
        // distances and the removals
        gromov: (0..fewest(|s| s.gromov.len()))
            .map(|i| {
                let start = k.seeds[0].1.gromov[i].0;
                (start, of(&|s| s.gromov[i].1), Removal::median(seeds.iter().map(|s| &s.gromov[i].2)))
            })
            .collect(),
        bigram: k.result.bigram, // the task's, the same for every seed
    }
}

/// The loss a removal is judged by on `task`: the held-out set's on a sequence task, the probe
/// batch's on the regression.
fn judged(task: TaskKind) -> fn(&Removal) -> f64 {
    if task == TaskKind::Teacher {
        |r| r.loss
    } else {
        |r| r.val_loss
    }
}

/// The name of that loss: "probe loss" or "held-out loss", in the thread's language.
fn loss_name(task: TaskKind) -> String {
    say!("loss-name", which = if task == TaskKind::Teacher { "probe" } else { "held-out" })
}

/// The stacks a knockout measured: every seed's, or the live run's alone.
fn stacks(state: &KnockoutState) -> Vec<&Knockout> {
    if state.seeds.is_empty() {
        vec![&state.result]
    } else {
        state.seeds.iter().map(|(_, k)| k).collect()
    }
}

/// Whether a removal's measure is close enough to the intact stack's (its second argument).
type Tolerance = fn(f64, f64) -> bool;

/// A spread for each count k of layers removed.
type Curve = Vec<(usize, Spread)>;

/// The removals of several layers at once, over every seed's stack: for each k, the upper k
/// (their spread over the seeds) and k at random (the spread over every seed's draws), each of
/// `value`.
pub fn removal_curves(state: &KnockoutState, value: fn(&Removal) -> f64) -> (Curve, Curve) {
    let stacks = stacks(state);
    let fewest = |f: fn(&Knockout) -> usize| stacks.iter().map(|k| f(k)).min().unwrap_or(0);
    let top = (0..fewest(|k| k.top_k.len()))
        .map(|i| (i + 1, Spread::of(&stacks.iter().map(|k| value(&k.top_k[i])).collect::<Vec<_>>())))
        .collect();
    let random = (0..fewest(|k| k.random_k.len()))
        .map(|i| {
            let draws: Vec<f64> = stacks.iter().flat_map(|k| k.random_k[i].1.iter().map(value)).collect();
            (stacks[0].random_k[i].0, Spread::of(&draws))
        })
        .collect();
    (top, random)
}

/// The largest k up to which every count's median is `ok` against the intact stack's `base`
/// (0 if none).
fn tolerated(curve: &[(usize, Spread)], base: f64, ok: Tolerance) -> usize {
    curve.iter().take_while(|(_, s)| ok(s.median, base)).last().map_or(0, |(k, _)| *k)
}

/// The knockout in one sentence, for its caption and its chart's accessible name: which
/// layer matters most, by how much, how many layers the stack barely needs, and how many
/// layers it loses at once, the upper ones or at random, within 10% of its loss (on the copy
/// tasks, still copying 95% as well). Over several
/// seeds it is said of the medians, with how many seeds' stacks agree on the layer that
/// matters most. The numbers are in `knockout_table` and `removals_table`.
pub fn knockout_summary(knockout: Option<&KnockoutState>) -> String {
    let Some(state) = knockout else {
        return say!("knockout-none");
    };
    let at = state.step;
    if !state.done {
        if state.runs_total > 1 {
            return say!(
                "knockout-running-seeds",
                stacks = state.runs_total,
                step = at,
                done = state.seeds.len(),
                total = state.runs_total
            );
        }
        return say!("knockout-running", step = at, measured = state.result.measured());
    }
    let value = judged(state.task);
    let k = &median_knockout(state);
    let losses: Vec<f64> = k.each.iter().map(value).collect();
    let intact = value(&k.intact);
    let n = losses.len();
    let Some((worst, &loss)) = losses.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)) else {
        return say!("knockout-no-layer", step = at);
    };
    let doubling = losses.iter().filter(|&&l| l > 2.0 * intact || l.is_nan()).count();
    let barely = k.output_change.iter().filter(|&&c| c < 0.05).count();
    let worse = if intact > 0.0 {
        say!("knockout-worse", times = times(loss / intact), intact = number(intact))
    } else {
        String::new()
    };
    let all = if doubling == n { "yes" } else { "no" };
    let doubling = say!("knockout-doubling", all = all, d = doubling, n = n);
    let barely = say!("knockout-barely", b = barely);
    let (seeds, agree) =
        (state.seeds.len(), state.seeds.iter().filter(|(_, s)| worst_layer(s, value) == Some(worst)).count());
    let over = if seeds > 1 {
        say!("knockout-over-seeds", seeds = seeds, step = at)
    } else {
        say!("knockout-at-step", step = at)
    };
    let agree = if seeds > 1 { say!("knockout-agree", agree = agree, seeds = seeds) } else { String::new() };
    let mut sentences = vec![say!(
        "knockout-summary",
        over = over,
        layer = worst,
        agree = agree,
        loss_name = loss_name(state.task),
        loss = number(loss),
        worse = worse,
        doubling = doubling,
        barely = barely
    )];
    // several at once: on the copy tasks by the share still copied right (their loss is near
    // zero, where 10% more is nothing), else by the loss
    let copies = state.task.copies();
    let measure: fn(&Removal) -> f64 = if copies { |r| r.accuracy } else { value };
    // on the text, by the share of what the stack gains below the bigram line (Gromov et al.
    // judge a removal against what the model knows, not against its loss): a loss under
    // intact + 10% of (bigram − intact); a stack above the line has no gain to lose
    let gain = state.floor.filter(|_| !copies).map(|floor| floor - intact);
    // (`judged`: which tolerance the messages say)
    let (base, ok, judged): (f64, Tolerance, &str) = if copies {
        (k.intact.accuracy, |x, base| x >= 0.95 * base, "copies")
    } else if let Some(gain) = gain.filter(|g| *g > 0.0) {
        (intact + 0.1 * gain, |x, limit| x <= limit, "gain")
    } else {
        (1.1 * intact, |x, limit| x <= limit, "loss")
    };
    let (top, random) = removal_curves(state, measure);
    if !top.is_empty() {
        let (upper, any) = (tolerated(&top, base, ok), tolerated(&random, base, ok));
        let draws = random.first().map_or(0, |(_, s)| s.runs);
        sentences.push(say!(
            "knockout-together",
            upper = say!("knockout-upper", k = upper, measure = judged),
            random = say!("knockout-random", k = any, measure = judged),
            draws = draws
        ));
    }
    sentences.join(&say!("sentence-join"))
}

/// The layer whose knockout raises the loss most.
fn worst_layer(k: &Knockout, value: fn(&Removal) -> f64) -> Option<usize> {
    k.each.iter().map(value).enumerate().max_by(|a, b| a.1.total_cmp(&b.1)).map(|(l, _)| l)
}

fn draw_knockout<DB: DrawingBackend>(
    state: &KnockoutState,
    area: &DrawingArea<DB, Shift>,
    theme: &Theme,
) -> ChartResult {
    let value = judged(state.task);
    let k = median_knockout(state);
    let losses: Vec<f64> = k.each.iter().map(value).collect();
    // over several seeds, each layer's lowest and highest loss without it
    let band: Vec<(f64, f64)> = if state.seeds.len() > 1 {
        (0..losses.len())
            .map(|l| {
                let s = Spread::of(&state.seeds.iter().map(|(_, s)| value(&s.each[l])).collect::<Vec<_>>());
                (s.min, s.max)
            })
            .collect()
    } else {
        Vec::new()
    };
    let (left, right) = area.split_horizontally(area.dim_in_pixel().0 / 2);
    let name = loss_name(state.task);
    charts::knockout::draw(&left, &name, value(&k.intact), &losses, &k.output_change, &band, theme)?;
    let (top, random) = removal_curves(state, value);
    let points =
        |c: Vec<(usize, Spread)>| c.into_iter().map(|(k, s)| (k, s.median, s.min, s.max)).collect::<Vec<_>>();
    let depth = losses.len();
    charts::knockout::draw_removals(
        &right,
        &name,
        depth,
        value(&k.intact),
        &points(top),
        &points(random),
        theme,
    )?;
    area.present().map_err(charts::err)
}
