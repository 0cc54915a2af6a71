//! `ablate`'s own flags, beyond the parameter table: what each does, what it takes, and
//! which are comparisons; `--help` prints them and `reference::reference_md` writes them into
//! `docs/reference.md`.

use ablation_core::config::{task_defaults, Choice, TaskKind, COMPARE, DEPTH_WIDTH, KNOCKOUT, SWEEP};
use ablation_training::runs::all_four::comparison_steps;
use ablation_training::runs::sweep::{DEFAULT_SWEEP_DEPTHS, MAX_SWEEP_DEPTHS};

/// The most steps `ablate` trains (the page allows more: the table's maximum).
pub const CLI_MAX_STEPS: usize = 100_000;
/// More threads than runs would wait idle: a sweep has at most 64.
pub const CLI_MAX_THREADS: usize = 256;

fn task_word(task: TaskKind) -> &'static str {
    match task {
        TaskKind::Teacher => "regression",
        TaskKind::Text => "text",
        TaskKind::Copy => "copy",
        TaskKind::Induction => "induction",
        TaskKind::Reverse => "reverse",
    }
}

/// "regression 5000, text 3000, …": each task's own step count, as the page trains.
pub fn steps_by_task() -> String {
    TaskKind::OPTIONS
        .variants()
        .map(|t| format!("{} {}", task_word(t), task_defaults(t).steps))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "regression 500, text 1500, …": All four's and the sweep's count on the page, by task.
pub fn comparison_steps_by_task() -> String {
    TaskKind::OPTIONS
        .variants()
        .map(|t| format!("{} {}", task_word(t), comparison_steps(t)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A flag of `ablate` that is not a parameter of the table.
pub struct CliFlag {
    /// Without the leading `--`.
    pub flag: &'static str,
    /// What follows the flag (`DIR`, `[LIST]`), or nothing for a switch.
    pub value: &'static str,
    pub help: String,
    pub allowed: String,
    /// A comparison, added to the report and trained for `--steps`.
    pub comparison: bool,
}

/// `ablate`'s own flags, in the order `--help` lists them.
pub fn cli_flags() -> Vec<CliFlag> {
    use ablation_core::config::{MAX_KEPT_CHARS, MAX_TEXT_BYTES, MIN_TEXT_CHARS};
    use ablation_training::live::writing::{MAX_PROMPT_CHARS, MAX_WRITE_CHARS, SAMPLE_CHARS};
    let flag = |flag, value, help: &str, allowed: &str, comparison| CliFlag {
        flag,
        value,
        help: help.into(),
        allowed: allowed.into(),
        comparison,
    };
    let depths = DEFAULT_SWEEP_DEPTHS.map(|d| d.to_string()).join(",");
    vec![
        flag(
            "svg",
            "DIR",
            "also write the panels as SVG into DIR: histogram.svg, loss.svg, depth.svg, readout.svg, and \
             attention.svg for a sequence task's stack with attention (and compare.svg, sweep.svg, \
             knockout.svg, depth-width.svg for the comparisons)",
            "a directory",
            false,
        ),
        flag("dark", "", "draw those SVGs in the dark theme", "no value", false),
        flag(
            "lang",
            "TAG",
            "the language of the words with those SVGs (status.txt): en, es, zh, or en-XA the pseudo-language; the JSON report stays in English",
            "a language tag",
            false,
        ),
        flag(
            "attention",
            "",
            "add every attention sublayer's heads after training, on the probe batch's first sequence",
            "no value",
            false,
        ),
        flag(
            "tuned-lens",
            "",
            "after training, fit a tuned lens (an affine map per layer, Belrose et al. 2023) on the trained \
             stack and add its held-out readout loss at every depth (a sequence task's)",
            "no value",
            false,
        ),
        flag(
            "tuned-lens-steps",
            "N|converged",
            "--tuned-lens fitted for N updates (the page's: 250), or until 250 updates lower its held-out KL by less \
             than 1% or 0.001 nats (at most 4000); adds the fit's steps, whether it converged and its held-out KL every \
             250 updates",
            "an integer from 1 to 4000, or converged",
            false,
        ),
        flag(
            "heal-steps",
            "N",
            "--knockout, then Gromov et al.'s healing: each of Gromov's blocks removed and the run's stack trained N \
             more updates without it (its branches held at zero), beside the intact stack trained the same N more",
            "an integer from 1 to 10000",
            false,
        ),
        flag(
            "jobs-elsewhere",
            "",
            "hand the comparisons' jobs to another process, round by round: each round's jobs as one line on \
             standard output (JOBS and each job's bytes in hex), their reports read back as one line on standard \
             input (REPORTS and each report's hex); ablate --run-job runs one job's hex from standard input and \
             writes its report's hex (how scripts/studies.py puts a tuned study's candidates and seeds on a \
             cluster); the same bits as run here",
            "no value",
            false,
        ),
        flag(
            "knockout-blocks",
            "N",
            "after training, Gromov et al.'s unit of removal, a block of attention and FFN: for each count n, the n \
             consecutive blocks whose input and output are nearest in angular distance, averaged over N batches of \
             their own, removed (the final block kept), with the held-out loss without them, and the blocks chosen \
             after 1, 2, 4, … of the N batches (a decoder-only stack of blocks)",
            "an integer from 1 to 256",
            false,
        ),
        flag(
            "probe",
            "",
            "add a linear probe's held-out accuracy at every depth for the current input token and the one before it, \
             read from x_ℓ by ridge regression fitted on 32 training batches of its own, and the same with the first \
             attention layer knocked out, with the held-out loss then (a sequence task's)",
            "no value",
            false,
        ),
        flag(
            "similarity",
            "",
            "add the cosine between each layer's input and output, x_ℓ and x_{ℓ+1}, averaged over the held-out \
             set's tokens (the probe batch's on the regression)",
            "no value",
            false,
        ),
        flag(
            "grad-batches",
            "N",
            "add each sublayer matrix's weight gradient ‖∂L/∂W‖ at initialisation (attention's q, k, v, o and \
             the FFN's up and down apart), averaged over the run's first N training batches (Xiong et al. 2020's \
             measure)",
            "an integer from 1 to 1000",
            false,
        ),
        flag(
            "update-steps",
            "N",
            "add how far the run's first N updates move each sublayer matrix, ‖W_N − W_0‖ / ‖W_0‖ (what a \
             warmup keeps small)",
            "an integer from 1 to 100000",
            false,
        ),
        flag(
            COMPARE.flag,
            "",
            "the four residual/norm combinations at this depth (norm: this placement, or pre if off)",
            "no value",
            true,
        ),
        flag(
            "compare-arms",
            "LIST",
            "--compare with only these of the four combinations (each tuned and trained as --compare would): \
             a study of one arm, or of both on at two placements, trains nothing else",
            "some of both-off, norm-alone, residual-alone, both-on, comma-separated",
            true,
        ),
        flag(
            SWEEP.flag,
            "[LIST]",
            &format!("the four combinations at each depth of LIST [{depths}]"),
            &format!("up to {MAX_SWEEP_DEPTHS} distinct integers from 1 to 96, comma-separated"),
            true,
        ),
        flag(
            KNOCKOUT.flag,
            "",
            "after training, each layer in turn knocked out (its branch zeroed; a post-norm layer keeps its norm), \
             then the upper k layers, k layers at random, the k below the final layer and Gromov et al.'s block \
             of k chosen by angular distance, on the probe batch (and a sequence task's held-out set)",
            "no value",
            true,
        ),
        flag(
            DEPTH_WIDTH.flag,
            "",
            "stacks of about this parameter count (within 10%), deep and narrow to shallow and wide, \
             each trained for --steps and timed (a step, and a character written), one after another",
            "no value",
            true,
        ),
        flag(
            "text",
            "FILE",
            &format!(
                "train the text task on FILE (UTF-8; its {MAX_KEPT_CHARS} most frequent characters kept, the rest one \
                 unknown symbol), as the page's own-text; sets --task text if the task is another"
            ),
            &format!("a UTF-8 text of {MIN_TEXT_CHARS} characters to {} MB", MAX_TEXT_BYTES >> 20),
            false,
        ),
        flag(
            "prompt",
            "TEXT",
            "after training, continue TEXT by --write characters, sampled at --temperature with the seed, and add \
             it to the report as writing (a text stack's)",
            &format!("up to {MAX_PROMPT_CHARS} characters"),
            false,
        ),
        flag(
            "write",
            "N",
            &format!("how many characters --prompt writes [{SAMPLE_CHARS}]"),
            &format!("an integer from 1 to {MAX_WRITE_CHARS}"),
            false,
        ),
        flag(
            "save-weights",
            "FILE",
            "after training, write the stack's weights to FILE as safetensors, its configuration in the metadata \
             (the page's Download weights writes the same bytes for the same run; docs/cli.md, The weights file)",
            "a file",
            false,
        ),
        flag(
            "save-eval-batch",
            "FILE",
            "after training, write the batches the losses were measured on to FILE as safetensors: the probe \
             batch and a sequence task's held-out set (ids, next, scored), or the regression's inputs, targets \
             and teacher, with the losses measured on them last (docs/cli.md, The batches a loss is measured on)",
            "a file",
            false,
        ),
        flag(
            "load-weights",
            "FILE",
            "start from the weights in FILE (a safetensors file this playground wrote) instead of the seed's: its \
             configuration, adjusted by the other flags if the stack's tensors keep their shapes; --steps 0 only \
             measures them",
            "a file",
            false,
        ),
        flag(
            "threads",
            "N",
            "train the comparisons' runs on up to N threads at once, and a run whose step is split (--shards) its \
             shards, with the same results [the available cores]",
            &format!("an integer from 1 to {CLI_MAX_THREADS}"),
            false,
        ),
    ]
}

/// What `--steps` means on the command line.
pub fn cli_steps_help() -> String {
    format!(
        "training steps [the preset's or task's, as on the page: {}]; also each comparison's [the page's \
         count for the task: {}]",
        steps_by_task(),
        comparison_steps_by_task()
    )
}

/// What `--steps` accepts: for `--help`, its error and the reference.
pub fn cli_steps_allowed() -> String {
    format!("an integer from 0 to {CLI_MAX_STEPS}")
}
