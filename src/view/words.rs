//! The words the page shows: the status line, the caption and the text alternatives of the
//! panels, all computed from measured numbers (never from a table of expected outcomes).

use crate::config::{Choice, Config, NormPlacement, PARAMS};
use crate::training::comparisons::{CompareRow, CompareState, KnockoutState, PinState, SweepState};
use crate::training::frame::{Frame, Shows};
use crate::training::report::Snapshot;
use crate::training::sweep::SweepSeries;
use crate::training::task::TaskFloors;
use crate::view::charts::short;

/// "LayerNorm" or "RMSNorm", as the Norm kind menu says it.
fn norm_name(c: &Config) -> &'static str {
    c.norm_kind.label()
}

fn norm_label(c: &Config) -> String {
    match c.norm {
        NormPlacement::Off => "LayerNorm OFF".into(),
        placement => format!("{} ON ({})", norm_name(c), placement.word()),
    }
}

/// `12 layers · Residual ON · LayerNorm ON (pre) · act. std = 1.00 · loss 0.09 · step 340`,
/// with ` · finished` once the run reached its step limit.
pub fn status_line(m: &Frame) -> String {
    let c = &m.config;
    let layers = if c.depth == 1 { "1 layer".to_string() } else { format!("{} layers", c.depth) };
    let residual = if c.residual { "Residual ON" } else { "Residual OFF" };
    let mut s = format!(
        "{layers} · {residual} · {} · act. std = {} · loss {}",
        norm_label(c),
        short(m.act_std()),
        short(m.loss())
    );
    if let Some(e) = m.evals.last() {
        s += &format!(" · held-out {}", short(e.loss));
        if e.accuracy.is_finite() {
            s += &format!(" · {:.0}% copied", 100.0 * e.accuracy);
        }
    }
    match m.diverged_at {
        Some(at) => s += &format!(" · diverged at step {at}"),
        // the updates applied: five presses of Step read `step 5`
        None if m.step > 0 => s += &format!(" · step {}", m.step),
        None => {}
    }
    if m.finished() {
        s += " · finished";
    }
    s
}

/// One or two sentences on what the reader is looking at, from the measured numbers.
pub fn caption(m: &Frame) -> String {
    let c = &m.config;
    let who = match (c.residual, c.norm) {
        (false, NormPlacement::Off) => "With both switches off",
        (false, _) => "With LayerNorm alone",
        (true, NormPlacement::Off) => "With the residual alone",
        (true, _) => "With both switches on",
    };
    // The forward story is told at initialisation, where the switches alone decide it;
    // training may tame it later, and the caption says so when it does.
    #[derive(PartialEq)]
    enum Scale {
        Overflow,
        BlowUp,
        Vanish,
        Keep,
    }
    let classify = |s: &Snapshot| {
        let (input, top) = (s.act_std[0], s.act_std[m.config.depth]);
        let scale = if !top.is_finite() {
            Scale::Overflow
        } else if top > 10.0 * input {
            Scale::BlowUp
        } else if top < 0.1 * input {
            Scale::Vanish
        } else {
            Scale::Keep
        };
        let text = match scale {
            Scale::Overflow => "the activations overflow".to_string(),
            Scale::BlowUp => format!(
                "activations blow up (std {} at the top, {}× the input's)",
                short(top),
                short(top / input)
            ),
            Scale::Vanish => format!("the signal vanishes (std {} at the top)", short(top)),
            Scale::Keep => format!("activations keep their scale (std {} at the top)", short(top)),
        };
        (scale, text)
    };
    let (init_scale, forward) = classify(&m.init);
    let (now_scale, _) = classify(&m.now);
    let g = &m.init.grad_norm;
    let ratio = g[0] / g[m.config.depth];
    let backward = if !ratio.is_finite() {
        String::new()
    } else if ratio < 0.01 {
        format!(", and the gradient reaching layer 0 is {}× weaker than at the top", short(1.0 / ratio))
    } else if ratio > 100.0 {
        format!(", and the gradient grows {}× on its way down to layer 0", short(ratio))
    } else {
        String::new()
    };
    let steps = m.history.len();
    let training = if let Some(at) = m.diverged_at {
        format!("Training diverged at step {at}: a loss or activation stopped being finite.")
    } else if let Some(task) = task_sentence(m) {
        task
    } else if steps < 20 {
        "Training is starting.".to_string()
    } else {
        let first = m.history.first_mean();
        let recent = m.history.recent_mean();
        if recent > 0.8 && recent > 0.5 * first {
            format!("The loss has plateaued near {} (1 means nothing learned).", short(recent))
        } else if recent < 0.5 * first {
            format!("The loss is descending: from {} to {} in {steps} steps.", short(first), short(recent))
        } else {
            format!("The loss is descending slowly: {} after {steps} steps.", short(recent))
        }
    };
    let later = if steps > 0 && now_scale != init_scale && m.diverged_at.is_none() {
        format!(" After {steps} steps the top's std is {}.", short(m.top_std()))
    } else {
        String::new()
    };
    let finished = if m.finished() {
        format!(" The run finished its {} steps: press Play to continue it.", m.step)
    } else {
        String::new()
    };
    format!("{who}, at initialisation {forward}{backward}.{later} {training}{finished}")
}

/// What a sequence task's held-out loss means, against its floors: the text's unigram and
/// bigram lines, or the copy task's chance (`None` for the teacher).
pub fn task_sentence(m: &Frame) -> Option<String> {
    let e = m.evals.last()?;
    let (loss, bits) = (e.loss, e.loss / std::f64::consts::LN_2);
    let at = if e.step == 0 { "at initialisation".to_string() } else { format!("at step {}", e.step) };
    Some(match m.floors? {
        TaskFloors::Text(f) => {
            let meaning = if loss < f.bigram {
                "below the bigram line: it uses more context than the character before"
            } else if loss < f.unigram {
                "between the unigram and bigram lines: it has learned at most which character follows which"
            } else {
                "above the unigram line: it has not even learned how often each character comes"
            };
            format!(
                "Held-out loss {} nats per character ({} bits) {at}, {meaning} (unigram {}, bigram {}).",
                short(loss),
                short(bits),
                short(f.unigram),
                short(f.bigram)
            )
        }
        TaskFloors::Chance { chance } => {
            let copied = format!("{:.0}%", 100.0 * e.accuracy);
            let meaning = if loss > 0.9 * chance {
                "at chance: it cannot look back at the string"
            } else if e.accuracy > 0.99 {
                "every held-out symbol copied"
            } else {
                "below chance: it is learning to look back"
            };
            format!(
                "Held-out loss {} nats {at} (chance {}), {meaning}: {copied} of the held-out symbols copied right.",
                short(loss),
                short(chance)
            )
        }
    })
}

/// After a divergence, which state the histogram and the per-layer panel show, for their
/// titles, longest first: `["step 1, the last finite state; diverged at step 2", "step 1, the
/// last finite state"]`. None before a divergence.
pub fn shown_state(m: &Frame) -> Vec<String> {
    match (m.shows, m.diverged_at) {
        (Shows::LastFinite(step), Some(at)) => last_finite_state(step, at),
        (Shows::Finding, Some(at)) => vec![
            format!("diverged at step {at}; finding the last finite state"),
            "finding the last finite state".into(),
        ],
        _ => vec![],
    }
}

/// A panel's title note for the last finite state at `step` of a run that diverged `at`,
/// longest first.
pub fn last_finite_state(step: usize, at: usize) -> Vec<String> {
    vec![
        format!("step {step}, the last finite state; diverged at step {at}"),
        format!("step {step}, the last finite state"),
    ]
}

/// The sentence that opens a panel's text alternative after a divergence: "Step 1, the last
/// finite state; diverged at step 2. " (empty before one).
fn shown_state_sentence(m: &Frame) -> String {
    match shown_state(m).first() {
        Some(s) => {
            let mut c = s.chars();
            let first = c.next().map(|f| f.to_uppercase().collect::<String>()).unwrap_or_default();
            format!("{first}{}. ", c.as_str())
        }
        None => String::new(),
    }
}

/// What the histogram shows, for its title: what the readout reads.
pub fn histogram_subject(c: &Config) -> String {
    if c.has_final_norm() {
        format!("final {}(x_L)", norm_name(c))
    } else {
        "final activations x_L".into()
    }
}

/// Text alternative for the histogram panel.
pub fn histogram_summary(m: &Frame) -> String {
    let (h, std) = (&m.histogram, m.act_std());
    let inside: u32 = h.counts.iter().sum();
    let total = inside + h.below + h.above + h.nan;
    let what = if m.config.has_final_norm() {
        format!(
            "the {total} values the readout reads, the final {} of the stream's top x_L (whose std is {})",
            norm_name(&m.config),
            short(m.top_std())
        )
    } else {
        format!("the {total} final activations x_L, which the readout reads")
    };
    let mut s = format!(
        "{}Histogram of {what}, on an axis from {} to {}: std {}",
        shown_state_sentence(m),
        short(h.lo),
        short(h.hi),
        short(std)
    );
    s += &format!("; {} below the axis and {} above it", h.below, h.above);
    if h.nan > 0 {
        s += &format!("; {} NaN", h.nan);
    }
    s + "."
}

/// Text alternative for the loss panel.
pub fn loss_summary(m: &Frame) -> String {
    let h = &m.history;
    let (Some(last), Some(first)) = (h.last(), h.first()) else {
        return "No training steps yet.".into();
    };
    let training = match m.diverged_at {
        Some(at) => format!("Training loss started at {} and diverged at step {at}.", short(first)),
        None => format!(
            "Training loss at step {}: {} (started at {}, lowest {}; smoothed {}).",
            h.len(),
            short(last),
            short(first),
            short(h.lowest()),
            short(h.buckets().last().map_or(last, |b| b.smooth)),
        ),
    };
    let held_out = match (m.evals.last(), m.floors) {
        (Some(e), Some(floors)) => {
            let floors = match floors {
                TaskFloors::Text(f) => format!("unigram {}, bigram {}", short(f.unigram), short(f.bigram)),
                TaskFloors::Chance { chance } => format!("chance {}", short(chance)),
            };
            format!(" Held-out loss at step {}: {} nats; the lines: {floors}.", e.step, short(e.loss))
        }
        _ => String::new(),
    };
    training + &held_out
}

/// What the model wrote, in runs of one kind: `given` (the prompt), `wrote`, or `wrong` (a
/// copied symbol that is not the string's).
pub fn writing_parts(w: &crate::training::writing::Writing) -> Vec<(&'static str, String)> {
    let mut parts: Vec<(&'static str, String)> = Vec::new();
    for (i, c) in w.text.chars().enumerate() {
        let kind = if i < w.given {
            "given"
        } else if w.wrong.contains(&(i as u32)) {
            "wrong"
        } else {
            "wrote"
        };
        match parts.last_mut() {
            Some((k, text)) if *k == kind && kind != "wrong" => text.push(c),
            _ => parts.push((kind, c.to_string())),
        }
    }
    parts
}

/// What each pinned run wrote at its step (a sequence task's): pairs of its label and text.
pub fn pin_writings(pins: &[PinState], live: &Config) -> Vec<(String, String)> {
    pins.iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let w = p.frame.as_ref()?.writing.as_ref()?;
            Some((format!("{} {} (step {})", i + 1, pin_label(&p.pin.config, live), w.step), w.text.clone()))
        })
        .collect()
}

/// What the model writes, for the panel's heading: whose weights, at which temperature.
pub fn writing_heading(m: &Frame) -> String {
    match (&m.writing, m.config.task) {
        (None, _) | (_, crate::config::TaskKind::Teacher) => String::new(),
        (Some(w), task) if task.copies() => {
            format!("Held-out strings and the stack's copies at step {} (wrong symbols marked ✗)", w.step)
        }
        (Some(w), _) => format!(
            "At step {}, from the prompt {:?}, temperature {}",
            w.step,
            crate::training::writing::PROMPT,
            crate::config::format_float(m.config.temperature)
        ),
    }
}

/// Text alternative for the per-depth panel.
pub fn depth_summary(m: &Frame) -> String {
    let (init, now) = (&m.init, &m.now);
    let top = now.grad_norm.len() - 1;
    format!(
        "{}Gradient norm ‖∂L/∂x‖ at layer 0: {} now ({} at initialisation); at the top, layer {top}: {} now ({} at initialisation). \
         Activation std from {} at the input to {} at the top now ({} at initialisation).",
        shown_state_sentence(m),
        short(now.grad_norm[0]),
        short(init.grad_norm[0]),
        short(now.grad_norm[top]),
        short(init.grad_norm[top]),
        short(now.act_std[0]),
        short(now.act_std[top]),
        short(init.act_std[top]),
    )
}

/// What differs between two configurations, in the status line's words ("Residual OFF",
/// "LayerNorm ON (post)", "depth 24", "lr 0.003"); the step limits are not compared.
pub fn differences(config: &Config, from: &Config) -> Vec<String> {
    let mut out = Vec::new();
    if config.residual != from.residual {
        out.push(if config.residual { "Residual ON" } else { "Residual OFF" }.to_string());
    }
    if config.norm != from.norm || (config.norm != NormPlacement::Off && config.norm_kind != from.norm_kind) {
        out.push(norm_label(config));
    }
    for spec in PARAMS
        .iter()
        .filter(|p| !["residual", "norm", "norm_kind", "steps", "attention_layer"].contains(&p.name))
    {
        if spec.value(config) != spec.value(from) {
            out.push(format!("{} {}", spec.name.replace('_', " "), spec.text_of(config)));
        }
    }
    out
}

/// What a pin is against the live run: "Residual OFF · step 500".
pub fn pin_description(pin: &Config, live: &Config) -> String {
    let changed = differences(pin, live);
    let what = if changed.is_empty() { "same settings".to_string() } else { changed.join(", ") };
    format!("{what} · step {}", pin.steps)
}

/// A pin's label: "pinned: Residual OFF · step 500".
pub fn pin_label(pin: &Config, live: &Config) -> String {
    format!("pinned: {}", pin_description(pin, live))
}

/// The pins' numbers for the loss panel's text alternative.
pub fn pins_loss_summary(pins: &[PinState], live: &Config) -> String {
    let each = pins.iter().enumerate().map(|(i, p)| {
        let what = pin_description(&p.pin.config, live);
        let Some(f) = &p.frame else {
            return format!("pin {} ({what}): waiting to be computed", i + 1);
        };
        let loss = match (f.diverged_at, f.history.last()) {
            (Some(at), _) => format!("diverged at step {at}"),
            (None, Some(l)) => format!("loss {}", short(l)),
            (None, None) => format!("probe loss {}", short(f.now.probe_loss)),
        };
        let progress = if p.done { String::new() } else { format!(" (computing: step {})", f.step) };
        format!("pin {} ({what}): {loss}{progress}", i + 1)
    });
    each.collect::<Vec<_>>().join("; ")
}

/// The pins' numbers for the per-layer panel's text alternative.
pub fn pins_depth_summary(pins: &[PinState], live: &Config) -> String {
    let each =
        pins.iter().enumerate().filter_map(|(i, p)| Some((i, p, &p.frame.as_ref()?.now))).map(|(i, p, s)| {
            let top = s.grad_norm.len() - 1;
            format!(
                "pin {} ({}): gradient norm at layer 0 {}, at layer {top} {}; std at the top {}",
                i + 1,
                pin_description(&p.pin.config, live),
                short(s.grad_norm[0]),
                short(s.grad_norm[top]),
                short(s.act_std[top])
            )
        });
    each.collect::<Vec<_>>().join("; ")
}

/// A combination's name, as the lesson says it.
pub fn combination_name(residual: bool, norm: NormPlacement) -> String {
    match (residual, norm) {
        (false, NormPlacement::Off) => "both off".into(),
        (false, n) => format!("LayerNorm alone ({})", n.word()),
        (true, NormPlacement::Off) => "residual alone".into(),
        (true, n) => format!("both on ({})", n.word()),
    }
}

/// "All four" as a table: a header row, then one row per combination (a run not yet reached
/// shows dashes; the one in progress, what it has measured).
pub fn compare_table(c: &CompareState) -> Vec<[String; 5]> {
    let mut rows = vec![[
        "combination".to_string(),
        "std at the top (init)".to_string(),
        "gradient ratio ‖∂L/∂x₀‖/‖∂L/∂x_L‖ (init)".to_string(),
        format!("loss after {} steps", c.steps),
        "diverged at step".to_string(),
    ]];
    for CompareRow { done, run: row, failed } in &c.rows {
        let done = *done;
        let num = |x: f64| if x.is_nan() && !done { "…".to_string() } else { short(x) };
        let loss = if let Some(why) = failed {
            format!("failed: {why}")
        } else if done && row.held_out.loss.is_finite() {
            format!("{} (held-out {})", short(row.final_loss), short(row.held_out.loss))
        } else if done {
            short(row.final_loss)
        } else if row.loss.is_empty() {
            "…".into()
        } else {
            format!("training: step {}", row.loss.len() - 1)
        };
        let diverged = match row.diverged_at {
            Some(at) => at.to_string(),
            None if failed.is_some() => "–".into(),
            None if done => "—".into(),
            None => "…".into(),
        };
        rows.push([
            combination_name(row.config.residual, row.config.norm),
            num(row.init_top_std),
            num(row.grad_ratio),
            loss,
            diverged,
        ]);
    }
    rows
}

/// What each combination of All four writes once trained (a sequence task's): pairs of its
/// name and its text.
pub fn compare_writings(c: &CompareState) -> Vec<(String, String)> {
    c.rows
        .iter()
        .filter(|r| r.done && !r.run.held_out.sample.is_empty())
        .map(|r| (combination_name(r.run.config.residual, r.run.config.norm), r.run.held_out.sample.clone()))
        .collect()
}

/// What "All four" was run on, for its caption and its chart's text alternative.
pub fn compare_summary(c: &CompareState) -> String {
    let done = c.rows.iter().filter(|r| r.done).count();
    let cfg = &c.config;
    let mut s = format!(
        "All four combinations at depth {} ({} of 4 trained, {} steps each, otherwise the settings of the run it was started from)",
        cfg.depth, done, c.steps
    );
    let finished: Vec<String> = c
        .rows
        .iter()
        .filter(|r| r.done)
        .map(|CompareRow { run: r, failed, .. }| {
            let end = match (failed, r.diverged_at) {
                (Some(why), _) => format!("failed ({why})"),
                (None, Some(at)) => format!("diverged at step {at}"),
                (None, None) => format!("loss {}", short(r.final_loss)),
            };
            format!("{}: {end}", combination_name(r.config.residual, r.config.norm))
        })
        .collect();
    if !finished.is_empty() {
        s += &format!(": {}", finished.join("; "));
    }
    s + "."
}

/// The depth sweep in one sentence, for its caption and its chart's accessible name: at the
/// deepest depth swept so far, which combination ends lowest and by how much, and from which
/// depth each other one falls five times behind it or diverges. The numbers are in
/// `sweep_table`.
pub fn sweep_summary(s: &SweepState) -> String {
    let progress = format!("{} of {} runs", s.runs_finished, s.runs_total());
    let reached = s.series.iter().map(|x| x.final_loss.len()).min().unwrap_or(0);
    let ended =
        |x: &SweepSeries, i: usize| if x.diverged_at[i].is_some() { f64::INFINITY } else { x.final_loss[i] };
    let name = |x: &SweepSeries| combination_name(x.residual, x.norm);
    if reached == 0 {
        return format!("Loss after {} steps and initial gradient ratio against depth: {progress} done, none at every combination yet.", s.steps);
    }
    let deepest = reached - 1;
    let mut order: Vec<&SweepSeries> = s.series.iter().collect();
    crate::order::sort_by(&mut order, |a, b| ended(a, deepest).total_cmp(&ended(b, deepest)));
    let (best, next) = (order[0], order.get(1));
    let at = s.depths[deepest];
    let mut out = format!(
        "After {} steps at depth {at}, {} ends lowest ({}",
        s.steps,
        name(best),
        short(best.final_loss[deepest])
    );
    if let Some(next) = next {
        let (b, n) = (ended(best, deepest), ended(next, deepest));
        if n.is_finite() && b > 0.0 {
            out += &format!(", {} below {}", times(n / b), name(next));
        }
    }
    out += ")";
    // where each other one breaks: diverges, or falls five times behind the best, grouped
    let mut breaks: Vec<(usize, bool, Vec<String>)> = Vec::new();
    for x in &order[1..] {
        let broken = |i: usize| x.diverged_at[i].is_some() || ended(x, i) >= 5.0 * ended(best, i);
        let Some(first) = (0..reached).find(|&i| broken(i)) else { continue };
        let diverged = x.diverged_at[first].is_some();
        match breaks.iter_mut().find(|(d, v, _)| *d == first && *v == diverged) {
            Some((_, _, names)) => names.push(name(x)),
            None => breaks.push((first, diverged, vec![name(x)])),
        }
    }
    crate::order::sort_by_key(&mut breaks, |(d, _, _)| *d);
    let said: Vec<String> = breaks
        .into_iter()
        .map(|(d, diverged, names)| {
            let how = match (diverged, names.len() == 1) {
                (true, true) => "diverges",
                (true, false) => "diverge",
                (false, true) => "falls 5× behind it",
                (false, false) => "fall 5× behind it",
            };
            format!("{} {how} from depth {}", and_list(&names), s.depths[d])
        })
        .collect();
    if !said.is_empty() {
        out += &format!("; {}", said.join("; "));
    }
    format!("{out} ({progress} done).")
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A ratio as words: "10×" from 10 up, "2.5×" below.
fn times(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}×")
    } else {
        format!("{r:.1}×")
    }
}

/// The depth sweep as a table: a header row, then a row per depth swept so far, each
/// combination's loss after the steps (✕ and the step if it diverged) and gradient ratio.
pub fn sweep_table(s: &SweepState) -> Vec<Vec<String>> {
    let mut header = vec!["depth".to_string()];
    header.extend(s.series.iter().map(|x| combination_name(x.residual, x.norm)));
    let mut rows = vec![header];
    for (i, d) in s.depths.iter().enumerate() {
        if s.series.iter().all(|x| x.final_loss.len() <= i) {
            break;
        }
        let mut row = vec![d.to_string()];
        for x in &s.series {
            row.push(match (x.final_loss.get(i), x.diverged_at.get(i)) {
                (_, Some(Some(at))) => format!("✕ diverged at step {at}, {}", short(x.grad_ratio[i])),
                (Some(l), _) => format!("{}, {}", short(*l), short(x.grad_ratio[i])),
                _ => "…".into(),
            });
        }
        rows.push(row);
    }
    rows
}

/// The knockout in one sentence, for its caption and its chart's accessible name: which
/// layer matters most, by how much, and how many layers the stack barely needs. The numbers
/// are in `knockout_table`.
pub fn knockout_summary(knockout: Option<&KnockoutState>) -> String {
    let Some(KnockoutState { step: at, done, result: k }) = knockout else {
        return "No layer knocked out yet: press Knock out layers to measure each layer of the trained stack.".into();
    };
    if !done {
        return format!("Knocking out each layer of the stack at step {at}: {} done.", k.loss.len());
    }
    let n = k.loss.len();
    let Some((worst, &loss)) = k.loss.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)) else {
        return format!("The stack at step {at} has no layer to knock out.");
    };
    let doubling = k.loss.iter().filter(|&&l| l > 2.0 * k.intact_loss || l.is_nan()).count();
    let barely = k.output_change.iter().filter(|&&c| c < 0.05).count();
    let worse = if k.intact_loss > 0.0 {
        format!(", {} the intact {}", times(loss / k.intact_loss), short(k.intact_loss))
    } else {
        String::new()
    };
    let doubling = match doubling {
        d if d == n => format!("all {n} layers more than double the loss without them"),
        1 => format!("1 of {n} layers more than doubles the loss without it"),
        d => format!("{d} of {n} layers more than double the loss without them"),
    };
    let barely = match barely {
        0 => "every one moves the output by 5% or more".to_string(),
        1 => "1 moves the output by less than 5%".to_string(),
        b => format!("{b} move the output by less than 5%"),
    };
    format!(
        "At step {at}, knocking out layer {worst} hurts most (loss {}{worse}); {doubling}, and {barely}.",
        short(loss)
    )
}

/// The knockout as a table: a header row, then each layer's loss without it and how far the
/// output moves.
pub fn knockout_table(knockout: Option<&KnockoutState>) -> Vec<[String; 3]> {
    let Some(KnockoutState { result: k, .. }) = knockout else { return vec![] };
    let mut rows = vec![[
        "layer knocked out".to_string(),
        format!("loss (intact {})", short(k.intact_loss)),
        "output change".to_string(),
    ]];
    for (l, (loss, change)) in k.loss.iter().zip(&k.output_change).enumerate() {
        rows.push([l.to_string(), short(*loss), format!("{}%", short(100.0 * change))]);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stats::Histogram;
    use crate::training::frame::Shows;
    use crate::training::loss_history::LossHistory;

    fn frame(
        config: &Config,
        losses: &[f64],
        diverged_at: Option<usize>,
        init: &Snapshot,
        now: &Snapshot,
    ) -> Frame {
        let histogram = Histogram { lo: -4.0, hi: 4.0, counts: vec![0; 40], below: 0, above: 0, nan: 0 };
        Frame {
            generation: 0,
            config: config.clone(),
            step: diverged_at.unwrap_or(losses.len()),
            diverged_at,
            stop_at: config.steps,
            init: init.clone(),
            now: now.clone(),
            histogram,
            shows: Shows::Now,
            history: losses.iter().copied().collect::<LossHistory>(),
            evals: Vec::new(),
            floors: None,
            writing: None,
            attention: None,
        }
    }

    fn snapshot(depth: usize, std_top: f64, grad0: f64) -> Snapshot {
        let mut act_std = vec![1.0; depth + 1];
        act_std[depth] = std_top;
        let mut grad_norm = vec![1.0; depth + 1];
        grad_norm[0] = grad0;
        Snapshot {
            act_std,
            grad_norm,
            weight_grad_norm: vec![0.1; depth],
            readout_std: std_top,
            probe_loss: 1.5,
            readout_loss: vec![1.5; depth + 1],
            update_ratio: vec![0.2; depth],
        }
    }

    #[test]
    fn status_line_has_the_lessons_form() {
        let config = Config::default();
        let s = snapshot(12, 1.0, 1.0);
        let losses = [1.0, 0.5, 0.09];
        let m = frame(&config, &losses, None, &s, &s);
        assert_eq!(
            status_line(&m),
            "12 layers · Residual ON · LayerNorm ON (pre) · act. std = 1.00 · loss 0.090 · step 3"
        );
        let config = Config { depth: 1, residual: false, norm: NormPlacement::Off, ..Config::default() };
        let s = snapshot(1, 3.0e7, 1.0);
        let m = frame(&config, &[], None, &s, &s);
        assert_eq!(status_line(&m), "1 layer · Residual OFF · LayerNorm OFF · act. std = 3.0e7 · loss 1.50");
    }

    #[test]
    fn a_pins_label_names_what_differs_from_the_live_run() {
        let live = Config::default();
        let pin = Config { residual: false, learning_rate: 0.003, steps: 500, ..Config::default() };
        assert_eq!(pin_label(&pin, &live), "pinned: Residual OFF, lr 0.003 · step 500");
        let post = Config { norm: NormPlacement::Post, final_norm: false, steps: 9, ..Config::default() };
        assert_eq!(pin_label(&post, &live), "pinned: LayerNorm ON (post), final norm off · step 9");
        assert_eq!(
            pin_label(&Config { steps: 40, ..live.clone() }, &live),
            "pinned: same settings · step 40"
        );
        let off = Config { norm: NormPlacement::Off, ..live.clone() };
        assert_eq!(
            pin_label(&Config { steps: 1, ..live.clone() }, &off),
            "pinned: LayerNorm ON (pre) · step 1"
        );
    }

    #[test]
    fn caption_follows_the_measurements() {
        let config = Config { residual: false, norm: NormPlacement::Off, ..Config::default() };
        let init = snapshot(12, 0.01, 1e-4);
        let flat = vec![1.0; 100];
        let m = frame(&config, &flat, None, &init, &init);
        let c = caption(&m);
        assert!(c.starts_with("With both switches off, at initialisation the signal vanishes"), "{c}");
        assert!(c.contains("1.0e4× weaker") && c.contains("plateaued"), "{c}");

        let config = Config::default();
        let big = snapshot(12, 50.0, 1.0);
        let falling: Vec<f64> = (0..100).map(|i| 2.0 * 0.95f64.powi(i)).collect();
        let m = frame(&config, &falling, None, &big, &big);
        let c = caption(&m);
        assert!(c.contains("blow up") && c.contains("descending") && !c.contains("After"), "{c}");
        let tamed = snapshot(12, 2.0, 1.0);
        let m = frame(&config, &falling, None, &big, &tamed);
        assert!(
            caption(&m).contains("blow up (std 50.00 at the top")
                && caption(&m).contains("After 100 steps the top's std is 2.00"),
            "{}",
            caption(&m)
        );

        let m = frame(&config, &falling[..30], Some(29), &big, &big);
        assert!(caption(&m).contains("diverged at step 29"));
    }
}
