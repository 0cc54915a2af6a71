//! The words the page shows: the status line, the caption and the text alternatives of the
//! panels, all computed from measured numbers (never from a table of expected outcomes).

use ablation_core::config::{Choice, Config, MaskKind, NormPlacement, StackKind, TaskKind, TextId, PARAMS};
use ablation_words as language;
use ablation_words::say;

use crate::charts::{number, short};
use crate::text_facts::TextFacts;
use ablation_training::live::frame::{Frame, Shows};
use ablation_training::step::report::Snapshot;
use ablation_training::tasks::task::TaskFloors;

/// "LayerNorm" or "RMSNorm", as the Norm kind menu says it.
pub fn norm_name(c: &Config) -> &'static str {
    c.norm_kind.label()
}

fn norm_label(c: &Config) -> String {
    match c.norm {
        NormPlacement::Off => say!("status-norm-off"),
        placement => say!("status-norm-on", norm = norm_name(c), placement = placement.word()),
    }
}

/// A float as the table writes it (`format_float`: `0.98`, `0.8`), in the thread's language's
/// convention (`0,98` in Spanish).
pub fn float_words(x: f64) -> String {
    language::current().number(&ablation_core::config::format_float(x))
}

fn switch(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

/// `12 layers · Residual ON · LayerNorm ON (pre) · act. std = 1.00 · loss 0.09 · step 340`,
/// with ` · finished` once the run reached its step limit.
pub fn status_line(m: &Frame) -> String {
    let c = &m.config;
    let mut parts = vec![
        say!("status-layers", n = c.depth),
        say!("status-residual", on = switch(c.residual)),
        norm_label(c),
        say!("status-act-std", value = number(m.act_std())),
        say!("status-loss", value = number(m.loss())),
    ];
    let n = c.encoder_layers();
    if n > 0 {
        parts.push(say!("status-encoder-decoder", n = n));
    }
    if c.mask == MaskKind::None {
        parts.push(say!("status-no-mask"));
    }
    if let Some(e) = m.evals.last() {
        parts.push(match e.future_hidden {
            Some(hidden) => say!("status-held-out-hidden", value = number(e.loss), hidden = number(hidden)),
            None => say!("status-held-out", value = number(e.loss)),
        });
        if e.accuracy.is_finite() {
            parts.push(say!("status-copied", percent = format!("{:.0}", 100.0 * e.accuracy)));
        }
    }
    match m.diverged_at {
        Some(at) => parts.push(say!("status-diverged", step = at)),
        // the updates applied: five presses of Step read `step 5`
        None if m.step > 0 => parts.push(say!("status-step", step = m.step)),
        None => {}
    }
    if m.finished() {
        parts.push(say!("status-finished"));
    }
    parts.join(&say!("status-join"))
}

/// One or two sentences on what the reader is looking at, from the measured numbers.
pub fn caption(m: &Frame) -> String {
    let c = &m.config;
    let who = say!(
        "caption-who",
        switches = match (c.residual, c.norm) {
            (false, NormPlacement::Off) => "off",
            (false, _) => "norm",
            (true, NormPlacement::Off) => "residual",
            (true, _) => "on",
        }
    );
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
        if !top.is_finite() {
            (Scale::Overflow, say!("caption-forward-overflow"))
        } else if top > 10.0 * input {
            (Scale::BlowUp, say!("caption-forward-blow-up", top = number(top), ratio = number(top / input)))
        } else if top < 0.1 * input {
            (Scale::Vanish, say!("caption-forward-vanish", top = number(top)))
        } else {
            (Scale::Keep, say!("caption-forward-keep", top = number(top)))
        }
    };
    let (init_scale, forward) = classify(&m.init);
    let (now_scale, _) = classify(&m.now);
    let g = &m.init.grad_norm;
    let ratio = g[0] / g[m.config.depth];
    let mut sentences = vec![if ratio.is_finite() && ratio < 0.01 {
        say!("caption-init-weaker", who = who, forward = forward, ratio = number(1.0 / ratio))
    } else if ratio.is_finite() && ratio > 100.0 {
        say!("caption-init-grows", who = who, forward = forward, ratio = number(ratio))
    } else {
        say!("caption-init", who = who, forward = forward)
    }];
    let steps = m.history.len();
    let training = if let Some(at) = m.diverged_at {
        say!("caption-diverged", step = at)
    } else if let Some(task) = task_sentence(m) {
        task
    } else if steps < 20 {
        say!("caption-starting")
    } else {
        let first = m.history.first_mean();
        let recent = m.history.recent_mean();
        if recent > 0.8 && recent > 0.5 * first {
            say!("caption-plateau", loss = number(recent))
        } else if recent < 0.5 * first {
            say!("caption-descending", first = number(first), recent = number(recent), steps = steps)
        } else {
            say!("caption-descending-slowly", recent = number(recent), steps = steps)
        }
    };
    if steps > 0 && now_scale != init_scale && m.diverged_at.is_none() {
        sentences.push(say!("caption-later", steps = steps, std = number(m.top_std())));
    }
    sentences.extend(std_change_clause(m));
    sentences.push(training);
    sentences.extend(stacks_sentences(m));
    if m.finished() {
        sentences.push(say!("caption-finished", steps = m.step));
    }
    sentences.join(&say!("sentence-join"))
}

/// How an encoder–decoder's depth splits, in the thread's language: "2 encoder layers (4
/// sublayers) + 2 decoder layers (6)"; None for a decoder-only stack.
pub fn split_words(c: &Config) -> Option<String> {
    let n = c.encoder_layers();
    (c.stack == StackKind::EncoderDecoder).then(|| {
        say!("stacks-split", encoder = n, encoder_sublayers = 2 * n, decoder = n, decoder_sublayers = 3 * n)
    })
}

/// Sublayer `index`'s name, in the thread's language: "layer 3", "decoder layer 1,
/// cross-attention" (`Config::sublayer_name` in English, for files).
pub fn sublayer_words(c: &Config, index: usize) -> String {
    use ablation_core::config::{Part, Role};
    let role = match c.role(index) {
        Role::SelfAttention { masked: true } => "masked",
        Role::SelfAttention { masked: false } => "self",
        Role::CrossAttention => "cross",
        Role::Ffn => "ffn",
        Role::Mlp => "mlp",
    };
    let (part, layer) = match c.layer_of(index) {
        (Part::Whole, layer) => ("whole", layer),
        (Part::Encoder, layer) => ("encoder", layer),
        (Part::Decoder, layer) => ("decoder", layer),
    };
    say!("sublayer-name", part = part, layer = layer, role = say!("sublayer-role", role = role))
}

/// What the stacks are and what the mask hides: an encoder–decoder's split, and a stack
/// without the mask's two held-out losses (as trained, and the future hidden as it is when it
/// writes). None for a decoder-only stack with its mask.
pub fn stacks_sentences(m: &Frame) -> Vec<String> {
    let c = &m.config;
    let mut out = vec![];
    if c.stack == StackKind::EncoderDecoder {
        out.extend(split_words(c).map(|split| say!("stacks-encoder-decoder", split = split)));
    }
    if c.mask == MaskKind::None {
        out.push(match c.task {
            TaskKind::Text => say!("stacks-no-mask-text"),
            _ => say!("stacks-no-mask"),
        });
        if let Some((e, hidden)) = m.evals.last().and_then(|e| Some((e, e.future_hidden?))) {
            out.push(if hidden > 2.0 * e.loss.max(0.05) {
                say!("stacks-held-out-read", loss = number(e.loss), hidden = number(hidden))
            } else {
                say!("stacks-held-out", loss = number(e.loss), hidden = number(hidden))
            });
        }
    }
    out
}

/// What a sequence task's held-out loss means, against its floors: the text's unigram and
/// bigram lines, or the copy task's chance (`None` for the teacher).
pub fn task_sentence(m: &Frame) -> Option<String> {
    let e = m.evals.last()?;
    let (loss, bits) = (e.loss, e.loss / std::f64::consts::LN_2);
    let at = if e.step == 0 { say!("task-at-init") } else { say!("task-at-step", step = e.step) };
    Some(match m.floors? {
        TaskFloors::Text(f) => {
            let meaning = if loss < f.bigram {
                say!("task-text-below-bigram")
            } else if loss < f.unigram {
                say!("task-text-between")
            } else {
                say!("task-text-above-unigram")
            };
            let on = match m.config.text {
                TextId::Plays => String::new(),
                own => say!("task-text-on", text = text_label(own)),
            };
            say!(
                "task-text",
                on = on,
                loss = number(loss),
                bits = number(bits),
                at = at,
                meaning = meaning,
                unigram = number(f.unigram),
                bigram = number(f.bigram)
            )
        }
        TaskFloors::Chance { chance } => {
            let meaning = if loss > 0.9 * chance {
                say!("task-chance-at-chance")
            } else if e.accuracy > 0.99 {
                say!("task-chance-all")
            } else {
                say!("task-chance-below")
            };
            say!(
                "task-chance",
                loss = number(loss),
                at = at,
                chance = number(chance),
                meaning = meaning,
                percent = format!("{:.0}", 100.0 * e.accuracy)
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
        (Shows::Finding, Some(at)) => vec![say!("shown-finding-diverged", at = at), say!("shown-finding")],
        _ => vec![],
    }
}

/// A panel's title note for the last finite state at `step` of a run that diverged `at`,
/// longest first.
pub fn last_finite_state(step: usize, at: usize) -> Vec<String> {
    vec![say!("shown-last-finite-diverged", step = step, at = at), say!("shown-last-finite", step = step)]
}

/// The sentence that opens a panel's text alternative after a divergence: "Step 1, the last
/// finite state; diverged at step 2." (None before one).
pub fn shown_state_sentence(m: &Frame) -> Option<String> {
    let s = shown_state(m).into_iter().next()?;
    Some(say!("shown-state-sentence", state = ablation_words::capitalised(&s)))
}

/// What differs between two configurations, in the status line's words ("Residual OFF",
/// "LayerNorm ON (post)", "depth 24", "lr 0.003"); the step limits are not compared.
pub fn differences(config: &Config, from: &Config) -> Vec<String> {
    let mut out = Vec::new();
    if config.residual != from.residual {
        out.push(say!("status-residual", on = switch(config.residual)));
    }
    if config.norm != from.norm || (config.norm != NormPlacement::Off && config.norm_kind != from.norm_kind) {
        out.push(norm_label(config));
    }
    for spec in PARAMS
        .iter()
        .filter(|p| !["residual", "norm", "norm_kind", "steps", "attention_layer"].contains(&p.name))
    {
        if spec.name == "text_id" && config.text != from.text {
            out.push(say!("pin-on-text", text = text_label(config.text)));
        } else if spec.value(config) != spec.value(from) {
            // (a parameter by its URL name and its value as a link writes it, in any language)
            out.push(format!("{} {}", spec.name.replace('_', " "), spec.text_of(config)));
        }
    }
    out
}

/// What a pin is against the live run: "Residual OFF · step 500".
pub fn pin_description(pin: &Config, live: &Config) -> String {
    say!("pin-description", changes = pin_changes(pin, live), step = pin.steps)
}

/// What a pin changes from the live run: "LayerNorm ON (pre), depth 12", or "same settings".
pub fn pin_changes(pin: &Config, live: &Config) -> String {
    let changed = differences(pin, live);
    if changed.is_empty() {
        say!("pin-same-settings")
    } else {
        changed.join(&say!("pin-join"))
    }
}

/// A pin's label: "pinned: Residual OFF · step 500".
pub fn pin_label(pin: &Config, live: &Config) -> String {
    say!("pin-label", description = pin_description(pin, live))
}

/// A combination's name, as the lesson says it.
pub fn combination_name(residual: bool, norm: NormPlacement) -> String {
    say!("combination", residual = if residual { "on" } else { "off" }, norm = norm.word())
}

/// A combination in a few letters, for a legend a phone leaves little room: "res", "LN (pre)".
pub fn combination_short(residual: bool, norm: NormPlacement) -> String {
    say!("combination-short", residual = if residual { "on" } else { "off" }, norm = norm.word())
}

/// " on the text 5565d98c55de (7656 characters)" for a run on a reader's text, else nothing:
/// what the comparisons' sentences say of the text their runs trained on.
pub fn on_text(config: &Config) -> String {
    match (config.task, config.text) {
        (TaskKind::Text, own @ TextId::Own { .. }) => say!("on-text", text = text_label(own)),
        _ => String::new(),
    }
}

/// A reader's text, for the sentence under the text field: its size, what was held out, its
/// vocabulary and its floors.
pub fn text_words(text: &TextFacts) -> String {
    let vocab = match text.replaced {
        None => say!("text-vocab-all", n = text.tokens),
        Some(replaced) => say!("text-vocab-top", n = text.tokens, places = thousands(replaced)),
    };
    say!(
        "text-words",
        text = text_label(text.id),
        chars = thousands(text.chars),
        held_out = thousands(text.held_out),
        vocab = vocab,
        unigram = number(text.unigram),
        bigram = number(text.bigram)
    )
}

/// How a pin, a comparison or a sentence names the text: "the plays", or "the text
/// 5565d98c55de (7656 characters)".
pub fn text_label(id: TextId) -> String {
    match id {
        TextId::Plays => say!("text-label", text = "plays"),
        TextId::Own { chars, .. } => {
            let hash = id.short().expect("a reader's text");
            say!("text-label", text = "own", hash = hash, chars = chars.to_string())
        }
    }
}

/// `12345` as "12,345", in the thread's language's grouping ("12.345" in Spanish).
pub fn thousands(n: usize) -> String {
    language::current().grouped(n)
}

/// How the histogram differs from the one at initialisation (its outline), and why: what a
/// norm promises is std 1 before its learned scale γ, which training moves; without a norm
/// nothing holds the scale, and training may shrink or blow it up. Said once the run has
/// finished (or at once, if they are more than twice apart: `std_change`).
pub fn since_init(m: &Frame) -> Option<String> {
    let (init, now, why) = std_change(m)?;
    let (init, now) = (language::number(&init), language::number(&now));
    Some(match why {
        Why::Gain(g) => say!("since-init-gain", init = init, now = now, gain = language::number(&g)),
        why => say!("since-init-free", init = init, now = now, why = why.words()),
    })
}

/// The same in a short sentence, for the caption under the status line.
pub fn std_change_clause(m: &Frame) -> Option<String> {
    let (init, now, why) = std_change(m)?;
    let (init, now) = (language::number(&init), language::number(&now));
    Some(match why {
        Why::Gain(_) => say!("caption-std-gain", init = init, now = now),
        _ => say!("caption-std-free", init = init, now = now),
    })
}

/// Why what the readout reads moved from its initial std.
enum Why {
    /// A norm ends the stream; what it makes before γ and β has this std (as text).
    Gain(String),
    Shrunk,
    Grown,
    Moved,
}

impl Why {
    fn words(&self) -> String {
        match self {
            Why::Gain(_) => say!("why-gain"),
            Why::Shrunk => say!("why-shrunk"),
            Why::Grown => say!("why-grown"),
            Why::Moved => say!("why-moved"),
        }
    }
}

/// The std at initialisation and now (as text) and why they differ, when that is to be said.
fn std_change(m: &Frame) -> Option<(String, String, Why)> {
    let (init, now) = (m.init.readout_std, m.act_std());
    // Said once the run has finished, if the two are more than 10% apart, or at any time if one
    // is more than twice the other: while the run trains the std wanders by a few tens of percent
    // (the default's dips to 0.85 in its first steps), and a sentence that comes and goes would
    // move the page under the reader (a slide's widget grows past its slide).
    let ratio = now / init;
    let far = !ratio.is_finite() || !(0.5..=2.0).contains(&ratio);
    let apart = (ratio - 1.0).abs() > 0.1;
    if m.step == 0 || !init.is_finite() || !(far || (apart && m.finished())) {
        return None;
    }
    let why = if m.readout_unscaled_std.is_finite() {
        Why::Gain(short(m.readout_unscaled_std))
    } else if now < init / 10.0 {
        Why::Shrunk
    } else if now > init * 10.0 || !now.is_finite() {
        Why::Grown
    } else {
        Why::Moved
    };
    Some((short(init), short(now), why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ablation_core::model::stats::Histogram;
    use ablation_training::live::frame::Shows;
    use ablation_training::live::loss_history::LossHistory;

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
            init_histogram: histogram.clone(),
            histogram,
            readout_unscaled_std: f64::NAN,
            shows: Shows::Now,
            history: losses.iter().copied().collect::<LossHistory>(),
            evals: Vec::new(),
            floors: None,
            writing: None,
            attention: None,
            matrices: None,
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
