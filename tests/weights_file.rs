//! The weights file (docs/cli.md, "The weights file"): written, read back to the same loss bit
//! for bit, refused when damaged, and its metadata true: `step` counts every update the weights
//! had (a loaded file's too), `final_norm` says whether the file holds a final norm.

use ablation_playground::config::{text_defaults, Config, NormPlacement, TaskKind, TextId};
use ablation_playground::model::param::Params;
use ablation_playground::model::stack::Stack;
use ablation_playground::training::step::report::{trained, trained_from};
use ablation_playground::training::tasks::corpus::{corpus, install_own};
use ablation_playground::view::safetensors;
use std::process::Command;

/// A text of `n` characters of a few words, so that its floors are far apart.
fn words(n: usize) -> String {
    "the cat sat on the mat and the dog sat on the log. ".chars().cycle().take(n).collect()
}

#[test]
fn the_weights_file_read_back_gives_the_same_loss_bit_for_bit() {
    let corpus = install_own(words(5000).as_bytes()).unwrap();
    for config in [
        Config { text: corpus.id, depth: 4, ..text_defaults() },
        Config { depth: 3, ..Config::default() }, // the regression's stack
    ] {
        let (run, mut trainer) = trained(&config, 25);
        let bytes = safetensors::write(&config, trainer.step, &mut trainer.stack);
        let file = safetensors::read(&bytes).unwrap();
        assert_eq!(file.config, config);
        assert_eq!(file.step, 25);
        assert_eq!(file.weights, trainer.weights());
        let (again, mut loaded) = trained_from(&config, 0, &file.weights, file.step, false, 1).unwrap();
        assert_eq!(loaded.updates(), 25, "a loaded run counts the file's updates");
        assert_eq!(
            safetensors::write(&config, loaded.updates(), &mut loaded.stack),
            bytes,
            "written again, the same bytes"
        );
        // trained on, the file saved says every update the weights had: the file's and the run's
        let (_, mut on) = trained_from(&config, 10, &file.weights, file.step, false, 1).unwrap();
        let later = safetensors::read(&safetensors::write(&config, on.updates(), &mut on.stack)).unwrap();
        assert_eq!((on.step, later.step), (10, 35), "this run's updates, and the weights' in all");
        if config.task == TaskKind::Text {
            let (a, b) = (run.task.unwrap().evals.last().unwrap().loss, again.task.unwrap().evals[0].loss);
            assert_eq!(a.to_bits(), b.to_bits(), "held-out loss {a} vs {b} from the file");
        } else {
            assert_eq!(run.last.probe_loss.to_bits(), again.init.probe_loss.to_bits());
        }
    }
}

#[test]
fn a_damaged_or_foreign_weights_file_is_refused_in_words_and_never_panics() {
    let config = Config { depth: 2, ..text_defaults() };
    let (_, mut trainer) = trained(&config, 3);
    let good = safetensors::write(&config, 3, &mut trainer.stack);
    let header_len = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
    let header = std::str::from_utf8(&good[8..8 + header_len]).unwrap().to_string();
    let with_header = |h: &str| {
        let mut h = h.to_string();
        while !h.len().is_multiple_of(8) {
            h.push(' ');
        }
        let mut b = (h.len() as u64).to_le_bytes().to_vec();
        b.extend_from_slice(h.as_bytes());
        b.extend_from_slice(&good[8 + header_len..]);
        b
    };
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "0 bytes"),
        (good[..good.len() - 4].to_vec(), "not inside the file"),
        ([&u64::MAX.to_le_bytes()[..], &good[8..]].concat(), "header would be"),
        (with_header(&header.replacen(r#"\"depth\":2"#, r#"\"depth\":3"#, 1)), "tensors"),
        (with_header(&header.replacen(r#"\"depth\":2"#, r#"\"depth\":200"#, 1)), "depth"),
        (with_header(&header.replacen("F32", "F16", 1)), "float32"),
        (with_header(&header.replacen("__metadata__", "__other__", 1)), "__metadata__"),
        (with_header(&header.replacen(r#"\"width\":32"#, r#"\"width\":32,\"colour\":1"#, 1)), "colour"),
        (with_header(&header.replacen("{", "[", 1)), "not JSON"),
        ([&good[..], b"extra"].concat(), "after its last tensor"),
        (b"PK\x03\x04 a zip file, say".to_vec(), "header would be"),
    ];
    for (bytes, expected) in cases {
        let Err(error) = safetensors::read(&bytes) else {
            panic!("a file that should say {expected:?} was read")
        };
        let error = error.to_string();
        assert!(error.contains(expected), "{error:?} does not say {expected:?}");
    }
    // a file written before `schedule` was a parameter lacks it: read, with the schedule its run
    // trained with (constant); a parameter every file has, missing, is refused
    assert!(header.contains(r#"\"schedule\":\"constant\","#), "{header}");
    let before = safetensors::read(&with_header(&header.replacen(r#"\"schedule\":\"constant\","#, "", 1)))
        .expect("a file from before the schedule");
    assert_eq!(before.config, config);
    let error =
        safetensors::read(&with_header(&header.replacen(r#"\"width\":32,"#, "", 1))).unwrap_err().to_string();
    assert!(error.contains("width"), "{error}");
    // the refusal is a sentence said in the reader's language, a reason within a reason too
    let spanish = ablation_playground::language::Language::shipped("es").unwrap();
    let Err(error) =
        safetensors::read(&with_header(&header.replacen(r#"\"depth\":2"#, r#"\"depth\":200"#, 1)))
    else {
        panic!("a depth of 200 was read")
    };
    let said = error.say_in(&spanish);
    assert_eq!(
        said,
        "no es un archivo de pesos de este playground: en su configuración, depth: «200» no es un entero de 1 a 96",
        "in English: {error}"
    );
    let said = safetensors::read(&[1, 2, 3]).unwrap_err().say_in(&spanish);
    assert!(said.ends_with("playground: 3 bytes"), "{said}");
    // every truncation and a flipped byte anywhere: an error or the file, never a panic
    for n in (0..good.len()).step_by(97) {
        assert!(safetensors::read(&good[..n]).is_err(), "truncated to {n}");
    }
    for at in (0..8 + header_len).step_by(7) {
        let mut b = good.clone();
        b[at] ^= 0x5a;
        let _ = safetensors::read(&b);
    }
    // the names cover every parameter, once
    let mut names = Vec::new();
    trainer.stack.names("", &mut names);
    let unique: std::collections::BTreeSet<_> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    assert!(corpus(TextId::Plays).is_some());
}

#[test]
fn final_norm_in_the_file_says_whether_the_file_holds_a_final_norm() {
    use NormPlacement::*;
    for norm in [Off, Pre, Post, Sandwich, DeepNorm] {
        for final_norm in [true, false] {
            let config = Config { depth: 2, width: 8, tokens: 4, norm, final_norm, ..Config::default() };
            let (_, mut trainer) = trained(&config, 2);
            let file = safetensors::read(&safetensors::write(&config, 2, &mut trainer.stack)).unwrap();
            let mut names = Vec::new();
            Stack::<f32>::unweighted(&file.config).names("", &mut names);
            let holds = names.iter().any(|n| n.starts_with("final_norm."));
            assert_eq!(
                (file.config.final_norm, holds),
                (config.has_final_norm(), config.has_final_norm()),
                "{norm:?} with final_norm {final_norm}: the metadata says {}, the file {}",
                file.config.final_norm,
                if holds { "holds final_norm.*" } else { "holds no final_norm.*" }
            );
            assert!(
                safetensors::fits(&file.config, &config),
                "{norm:?}: the file's configuration has the run's tensors"
            );
        }
    }
}

#[test]
fn ablate_load_then_save_counts_every_update_the_weights_had() {
    let dir = std::env::temp_dir().join(format!("ap-weights-step-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.safetensors"), dir.join("b.safetensors"));
    let ablate = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ablate")).args(args).output().unwrap();
        assert!(out.status.success(), "ablate {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    ablate(&["--depth", "2", "--steps", "30", "--save-weights", a.to_str().unwrap()]);
    ablate(&["--load-weights", a.to_str().unwrap(), "--steps", "20", "--save-weights", b.to_str().unwrap()]);
    let (first, second) = (
        safetensors::read(&std::fs::read(&a).unwrap()).unwrap(),
        safetensors::read(&std::fs::read(&b).unwrap()).unwrap(),
    );
    assert_eq!((first.step, second.step), (30, 50), "the first file's updates, then the second's in all");
    assert_eq!(second.config.steps, 20, "the config's steps are the second run's own");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_pages_run_from_a_file_counts_the_files_updates_through_a_suspend() {
    use ablation_playground::training::live::session::Session;
    let config = Config { depth: 2, width: 8, tokens: 8, steps: 1000, ..Config::default() };
    let (_, mut trainer) = trained(&config, 25);
    let file =
        safetensors::read(&safetensors::write(&config, trainer.updates(), &mut trainer.stack)).unwrap();
    let mut session = Session::new(&config);
    session.start_from(&file.weights, file.step).unwrap();
    for _ in 0..5 {
        assert!(session.train_step());
    }
    assert_eq!((session.step(), session.trainer().updates()), (5, 30));
    // put aside and taken up in another worker, it still counts the file's
    let mut resumed = Session::resume(&session.suspend().unwrap()).unwrap();
    assert_eq!(resumed.trainer().updates(), 30);
    let t = resumed.trainer();
    let saved = safetensors::read(&safetensors::write(&config, t.updates(), &mut t.stack)).unwrap();
    assert_eq!(saved.step, 30, "the Download after a Load says every update");
    // a restart from the seed (a slider move) forgets the file
    let other = Config { seed: 7, ..config.clone() };
    resumed.restart(&other, 1);
    assert_eq!(resumed.trainer().updates(), 0);
}
