//! Successive halving: few get the full run, survivors go on bit for bit, no warmup judged mid-ramp.

use super::{search, search_by, small_copy, tuned};
use ablation_playground::comparisons::tuner::grid::judged;
use ablation_playground::comparisons::tuner::Tuner;
use ablation_playground::config::{Config, TuneGrid};
use ablation_playground::training::runs::job::{run_job, Job, Report};
use ablation_playground::training::runs::trial::{TrialEnd, TrialRun};
use std::collections::BTreeSet;

/// Successive halving never judges a candidate mid-ramp: a long warmup that ends well but looks
/// worst while it warms up (as a warmup does: its rate is still small) goes on unjudged until a
/// round scores the stretch after its warmup, and is chosen; the record says how many each
/// round carried, and the grid holds only warmups that end before the full run's scored tail.
#[test]
fn a_warmup_is_never_judged_before_it_ends() {
    let config = Config { tune_grid: TuneGrid::Recipe, ..tuned(0.01) };
    let steps = 2000;
    let mut tuner = Tuner::new(&config, steps);
    assert_eq!(tuner.rungs, [75, 223, 667, 2000], "{:?}", tuner.rungs);
    let warmups: BTreeSet<usize> = tuner.requests().iter().map(|t| t.config.warmup_steps).collect();
    assert_eq!(
        warmups.into_iter().collect::<Vec<_>>(),
        [0, 100, 300, 1000],
        "3000 does not end before the tail"
    );
    let mut tuner = Tuner::new(&config, steps);
    // mid-ramp, a warmup scores badly (10); after it, warmup 1000 is best, then the shorter ones
    let loss = |c: &Config, until: usize| {
        if !judged(c.warmup_steps, until, steps) {
            10.0
        } else {
            1.0 + (c.learning_rate / 0.01).ln().powi(2) + (c.warmup_steps as f64 - 1000.0).abs() / 1000.0
        }
    };
    let asked_at: Vec<(usize, usize)> =
        search_by(&mut tuner, loss).into_iter().map(|(c, until)| (c.warmup_steps, until)).collect();
    let t = tuner.tuned();
    let (lr, warmup, _) = t.chosen.unwrap();
    assert_eq!((lr, warmup), (0.01, 1000), "{t:?}");
    // every setting still warming up at a round went on to the next one
    for c in &t.candidates {
        for (r, pair) in c.scores.windows(2).enumerate() {
            if pair[0].is_some() && !judged(c.warmup, t.rounds[r].steps, steps) {
                assert!(pair[1].is_some(), "{c:?} was dropped at round {r} while warming up");
            }
        }
    }
    let carried: Vec<usize> = t.rounds.iter().map(|r| r.carried).collect();
    let expected: Vec<usize> = t
        .rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            t.candidates
                .iter()
                .filter(|c| {
                    c.scores[r].is_some() && r + 1 < t.rounds.len() && !judged(c.warmup, round.steps, steps)
                })
                .count()
        })
        .collect();
    assert_eq!(carried, expected, "each round's record counts the candidates it carried: {t:?}");
    assert!(carried[0] > 0 && carried[3] == 0, "{carried:?}");
    assert!(asked_at.iter().any(|&(w, u)| w == 1000 && u == 2000));
}

#[test]
fn successive_halving_judges_early_and_gives_the_full_run_to_few() {
    // three rounds for five rates: 1/9, 1/3 and the whole of 900 steps
    let mut tuner = Tuner::new(&tuned(0.01), 900);
    assert_eq!(tuner.rungs, [100, 300, 900]);
    let trained = search(&mut tuner, |lr, _| 1.0 + (lr / 0.01).ln().powi(2));
    let full: BTreeSet<u64> = trained.iter().filter(|t| t.1 == 900).map(|t| t.0.to_bits()).collect();
    assert_eq!(full.len(), 3, "the best and its two neighbours train the full run: {trained:?}");
    let t = tuner.tuned();
    assert_eq!(t.rounds.iter().map(|r| r.steps).collect::<Vec<_>>(), [100, 300, 900]);
    assert_eq!(t.rounds[0].candidates, 5);
    // off: every candidate trains the full run, in one round
    let mut full_grid = Tuner::new(&Config { halving: false, ..tuned(0.01) }, 900);
    assert_eq!(full_grid.rungs, [900]);
    search(&mut full_grid, |lr, _| 1.0 + (lr / 0.01).ln().powi(2));
    assert_eq!(full_grid.tuned().chosen, t.chosen);
}

#[test]
fn a_recipe_grid_tries_every_warmup_shorter_than_the_run_and_both_betas() {
    let config = Config { tune_grid: TuneGrid::Recipe, ..tuned(0.01) };
    let mut tuner = Tuner::new(&config, 500);
    let asked = tuner.requests();
    let warmups: BTreeSet<usize> = asked.iter().map(|t| t.config.warmup_steps).collect();
    let betas: BTreeSet<u64> = asked.iter().map(|t| t.config.beta2.to_bits()).collect();
    assert_eq!(
        warmups.into_iter().collect::<Vec<_>>(),
        [0, 100, 300],
        "3000 and 1000 are not shorter than 500"
    );
    assert_eq!(betas.len(), 2);
    assert_eq!(asked.len(), 5 * 3 * 2 * 3, "rates × warmups × β₂s × choosing seeds");
    // a loss that wants warmup 300 and β₂ 0.98
    let mut tuner = Tuner::new(&config, 500);
    for _ in 0..1000 {
        let asked = tuner.requests();
        if asked.is_empty() {
            break;
        }
        for t in asked {
            let c = &t.config;
            let tail = 1.0
                + (c.learning_rate / 0.01).ln().powi(2)
                + (c.warmup_steps as f64 - 300.0).abs() / 100.0
                + (c.beta2 - 0.98).abs();
            tuner.record(t.setting, t.seed, t.round, TrialEnd { tail, resume: Vec::new() });
        }
    }
    assert_eq!(tuner.tuned().chosen, Some((0.01, 300, 0.98)));
}

/// A trial stopped at a third of the run and continued from its bytes in a new runner (as
/// another worker would) ends with the same bits as the run trained straight through.
#[test]
fn a_survivor_goes_on_from_its_checkpoint_bit_for_bit() {
    for config in [small_copy(), Config { depth: 3, width: 8, tokens: 8, ..Config::default() }] {
        let steps = 90;
        let straight = match run_job(Job::Run { config: config.clone(), steps, keep_loss: true }).unwrap() {
            Report::Run(o) => o,
            other => panic!("{other:?}"),
        };
        let mut first = TrialRun::new(&config, steps, 30, &[]).unwrap();
        while !first.advance(7) {}
        let at_30 = first.end();
        assert!(!at_30.resume.is_empty(), "a trial stopped part way keeps its checkpoint");
        // bytes across a job's encoding, as between workers
        let job = Job::Trial { config: config.clone(), steps, until: steps, from: at_30.resume.clone() };
        let (_, job) = Job::decode(&job.encode(7)).unwrap();
        let Report::Trial(end) = run_job(job).unwrap() else { panic!("a trial's report") };
        assert_eq!(end.tail.to_bits(), straight.tail.to_bits(), "{} against {}", end.tail, straight.tail);
        assert!(end.resume.is_empty(), "nothing to go on from at the run's end");
        // and in three pieces
        let mut a = TrialRun::new(&config, steps, 10, &[]).unwrap();
        a.advance(usize::MAX);
        let mut b = TrialRun::new(&config, steps, 30, &a.end().resume).unwrap();
        b.advance(usize::MAX);
        let mut c = TrialRun::new(&config, steps, steps, &b.end().resume).unwrap();
        c.advance(usize::MAX);
        assert_eq!(c.end().tail.to_bits(), straight.tail.to_bits());
        // damaged bytes are an error, never a panic
        assert!(TrialRun::new(&config, steps, steps, &at_30.resume[..at_30.resume.len() / 2]).is_err());
    }
}
