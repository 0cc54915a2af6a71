//! The words' catalogues (`www/i18n/*.ftl`, issue 55): every message the code asks for is in
//! English and English has no other; every language's messages take English's arguments and
//! no message of its own; the shipped translations are complete; each language's plural and
//! numbers as the status line shows them; English exactly as before.
//!
//! For a translator: `CATALOGUE=fr cargo test --release --test catalogues -- --nocapture`
//! lists what `www/i18n/fr.ftl` lacks and what it has that English does not.

use ablation_playground::config::messages::table_message_ids;
use ablation_playground::config::Config;
use ablation_playground::language::{Language, LANGUAGES, PSEUDO};
use ablation_playground::training::live::session::Session;
use ablation_playground::view::words::{caption, status_line};
use fluent_syntax::ast;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::rc::Rc;

/// The arguments a message reads: those it shows in its text, and those it only selects by
/// (a plural's count, a gender's word), which a language without that distinction may leave out.
#[derive(Default, PartialEq, Debug)]
struct Arguments {
    shown: BTreeSet<String>,
    selectors: BTreeSet<String>,
}

impl Arguments {
    fn all(&self) -> BTreeSet<String> {
        self.shown.union(&self.selectors).cloned().collect()
    }

    /// Whether a translation with `other` reads what this English message does: every argument
    /// English shows, shown, and no argument English lacks.
    fn taken_by(&self, other: &Arguments) -> bool {
        self.shown.is_subset(&other.shown) && other.all().is_subset(&self.all())
    }
}

type Messages = BTreeMap<String, Arguments>;

fn read(tag: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("www/i18n/{tag}.ftl"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn variables_of_expression(e: &ast::Expression<&str>, out: &mut Arguments) {
    match e {
        ast::Expression::Select { selector, variants } => {
            match selector {
                ast::InlineExpression::VariableReference { id } => {
                    out.selectors.insert(id.name.to_string());
                }
                other => variables_of_inline(other, out),
            }
            for v in variants {
                variables_of_pattern(&v.value, out);
            }
        }
        ast::Expression::Inline(inline) => variables_of_inline(inline, out),
    }
}

fn variables_of_inline(e: &ast::InlineExpression<&str>, out: &mut Arguments) {
    match e {
        ast::InlineExpression::VariableReference { id } => {
            out.shown.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => variables_of_expression(expression, out),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                variables_of_inline(a, out);
            }
        }
        _ => {}
    }
}

fn variables_of_pattern(p: &ast::Pattern<&str>, out: &mut Arguments) {
    for element in &p.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            variables_of_expression(expression, out);
        }
    }
}

/// Each message's id and the arguments it reads; a catalogue that does not parse fails.
fn messages(tag: &str) -> Messages {
    let text = read(tag);
    let resource = fluent_syntax::parser::parse(text.as_str())
        .unwrap_or_else(|(_, errors)| panic!("www/i18n/{tag}.ftl does not parse: {errors:?}"));
    let mut out = Messages::new();
    for entry in resource.body {
        if let ast::Entry::Message(m) = entry {
            let mut vars = Arguments::default();
            if let Some(value) = &m.value {
                variables_of_pattern(value, &mut vars);
            }
            assert!(out.insert(m.id.name.to_string(), vars).is_none(), "{tag}: {} twice", m.id.name);
        }
    }
    out
}

/// The ids the code asks for: every `say!("id"` and `Said::new("id"` under src/ and crates/.
fn asked_for() -> BTreeSet<String> {
    fn walk(dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let opened = text.match_indices("say!(").chain(text.match_indices("Said::new("));
                for (i, opening) in opened {
                    let rest = text[i + opening.len()..].trim_start();
                    if let Some(rest) = rest.strip_prefix('"') {
                        let id = &rest[..rest.find('"').unwrap()];
                        // the macro's own documentation and the tests of language.rs ask too
                        if !id.contains(' ') {
                            out.insert(id.to_string());
                        }
                    }
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    for dir in ["src", "crates"] {
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut out);
    }
    // the page's markup and scripts: data-i18n="id" (and -label, -placeholder), say('id'),
    // sayCount('id', and a refusal's message and its sentences within (refusal('id', said: 'id',
    // saidJson('id')
    // (and the playground's own page, index.html, whose heading speaks the widget's language)
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages = std::fs::read_dir(root.join("www")).unwrap().map(|e| e.unwrap().path());
    for path in pages.chain([root.join("index.html")]) {
        if path.extension().is_none_or(|e| e != "js" && e != "html") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for opening in [
            "data-i18n=\"",
            "data-i18n-label=\"",
            "data-i18n-placeholder=\"",
            "say('",
            "sayCount('",
            "refusal('",
            "said: '",
            "saidJson('",
        ] {
            for (i, _) in text.match_indices(opening) {
                let rest = &text[i + opening.len()..];
                let id = &rest[..rest.find(['"', '\'']).unwrap()];
                if !id.is_empty()
                    && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    out.insert(id.to_string());
                }
            }
        }
    }
    out
}

/// English's messages and the parameter table's (whose English is the table's own, and which
/// take no arguments): what every translation must have.
fn reference() -> Messages {
    let mut all = messages("en");
    for (id, _) in table_message_ids() {
        assert!(!all.contains_key(&id), "{id} is the table's: www/i18n/en.ftl must not have it too");
        all.insert(id, Arguments::default());
    }
    all
}

/// What `other` lacks of English and has that English does not, and the messages whose
/// arguments differ.
fn compare(english: &Messages, other: &Messages) -> (Vec<String>, Vec<String>, Vec<String>) {
    let missing = english.keys().filter(|k| !other.contains_key(*k)).cloned().collect();
    let unknown = other.keys().filter(|k| !english.contains_key(*k)).cloned().collect();
    let arguments = other
        .iter()
        .filter_map(|(k, vars)| {
            let en = english.get(k)?;
            (!en.taken_by(vars)).then(|| format!("{k}: {vars:?}, English {en:?}"))
        })
        .collect();
    (missing, unknown, arguments)
}

#[test]
fn the_code_and_the_english_catalogue_name_the_same_messages() {
    let english: BTreeSet<String> = messages("en").into_keys().collect();
    let asked = asked_for();
    let missing: Vec<_> = asked.difference(&english).collect();
    let unused: Vec<_> = english.difference(&asked).collect();
    assert!(missing.is_empty(), "asked for by the code, not in www/i18n/en.ftl: {missing:?}");
    assert!(unused.is_empty(), "in www/i18n/en.ftl, asked for by no code: {unused:?}");
}

#[test]
fn every_translation_is_complete_and_takes_englishs_arguments() {
    let english = reference();
    if let Ok(tag) = std::env::var("CATALOGUE") {
        let (missing, unknown, arguments) = compare(&english, &messages(&tag));
        println!("www/i18n/{tag}.ftl\n  missing ({}): {missing:?}\n  not in English ({}): {unknown:?}\n  other arguments than English's ({}): {arguments:?}", missing.len(), unknown.len(), arguments.len());
    }
    for spec in LANGUAGES.iter().filter(|l| l.tag != "en" && l.tag != PSEUDO) {
        let (missing, unknown, arguments) = compare(&english, &messages(spec.tag));
        assert!(missing.is_empty(), "www/i18n/{}.ftl lacks {missing:?}", spec.tag);
        assert!(unknown.is_empty(), "www/i18n/{}.ftl has messages English has not: {unknown:?}", spec.tag);
        assert!(arguments.is_empty(), "www/i18n/{}.ftl: {arguments:?}", spec.tag);
    }
}

fn worded(tag: &str, config: &Config, steps: usize) -> (String, String) {
    let language = Rc::new(Language::shipped(tag).unwrap());
    let mut session = Session::new(config);
    for _ in 0..steps {
        session.train_step();
    }
    let frame = session.frame();
    language.with(|| (status_line(&frame), caption(&frame)))
}

#[test]
fn each_language_says_the_status_line_with_its_plurals_and_numbers() {
    let one = Config { depth: 1, ..Config::default() };
    let twelve = Config::default();
    let (en1, _) = worded("en", &one, 0);
    let (en12, _) = worded("en", &twelve, 3);
    assert!(en1.starts_with("1 layer · Residual ON · LayerNorm ON (pre) · act. std = "), "{en1}");
    assert!(en12.starts_with("12 layers · Residual ON · LayerNorm ON (pre) · act. std = "), "{en12}");
    assert!(en12.ends_with(" · step 3"), "{en12}");
    let (es1, _) = worded("es", &one, 0);
    let (es12, es_caption) = worded("es", &twelve, 3);
    assert!(es1.starts_with("1 capa · Residual SÍ · LayerNorm SÍ (pre) · desv. típ. act. = "), "{es1}");
    assert!(es12.starts_with("12 capas · "), "{es12}");
    assert!(es12.ends_with(" · paso 3"), "{es12}");
    // the same numbers, with a decimal comma
    let numbers = |s: &str| {
        s.split(" · ")
            .filter(|p| p.chars().any(|c| c.is_ascii_digit()))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (en_loss, es_loss) = (en12.split("loss ").nth(1).unwrap(), es12.split("pérdida ").nth(1).unwrap());
    let en_loss = en_loss.split(' ').next().unwrap();
    let es_loss = es_loss.split(' ').next().unwrap();
    assert_eq!(es_loss, en_loss.replace('.', ","), "{en12} / {es12}: {:?}", numbers(&es12));
    assert!(
        es_caption.starts_with("Con los dos interruptores encendidos, en la inicialización "),
        "{es_caption}"
    );
    let (zh12, zh_caption) = worded("zh", &twelve, 3);
    assert!(zh12.starts_with("12 层 · 残差 开 · LayerNorm 开（前置） · 激活标准差 = "), "{zh12}");
    assert!(zh12.contains(&format!("损失 {en_loss}")), "{zh12}");
    assert!(zh_caption.starts_with("两个开关都打开时，初始化时"), "{zh_caption}");
    assert!(!zh_caption.contains("。 "), "Chinese sentences are joined without a space: {zh_caption}");
    // Spanish's plural in a sentence: one step, several steps
    let es = Rc::new(Language::shipped("es").unwrap());
    use fluent_bundle::FluentArgs;
    let said = |steps: usize| {
        let mut args = FluentArgs::new();
        args.set("steps", steps);
        args.set("std", "1,00");
        es.say("caption-later", Some(&args))
    };
    assert_eq!(said(1), "Tras 1 paso, la desv. típ. de arriba es 1,00.");
    assert_eq!(said(20), "Tras 20 pasos, la desv. típ. de arriba es 1,00.");
}

#[test]
fn a_language_that_does_not_ship_speaks_english_and_the_pseudo_language_is_longer() {
    assert!(Language::shipped("de").is_err());
    let (en, en_caption) = worded("en", &Config::default(), 0);
    let (pseudo, pseudo_caption) = worded(PSEUDO, &Config::default(), 0);
    // (the status line is half numbers and the norm's name, which stay as they are)
    assert!(pseudo.chars().count() > en.chars().count() * 7 / 6, "{en} / {pseudo}");
    assert!(
        pseudo_caption.chars().count() > en_caption.chars().count() * 5 / 4,
        "{en_caption} / {pseudo_caption}"
    );
    assert!(!pseudo.contains("Residual"), "{pseudo}");
}

#[test]
fn the_tables_words_are_translated_and_fall_back_to_the_tables_english() {
    let es = Language::shipped("es").unwrap();
    let en = Language::english();
    assert_eq!(es.say_or("choice-task-text", "Text: next character"), "Texto: siguiente carácter");
    assert_eq!(en.say_or("choice-task-text", "Text: next character"), "Text: next character");
    assert_eq!(es.say_or("no-such-message", "as the table says"), "as the table says");
    // a gendered form: "on" agrees with its noun in Spanish (la conexión residual, el ajuste de
    // la tasa); Chinese has no gender
    assert_eq!(es.say_or("choice-residual-on", "on"), "activada");
    assert_eq!(es.say_or("choice-tune-on", "on"), "activado");
    let zh = Language::shipped("zh").unwrap();
    assert_eq!(
        (zh.say_or("choice-residual-on", "on"), zh.say_or("choice-tune-on", "on")),
        ("开".into(), "开".into())
    );
    // every id is a message's id (letters, digits, - and _), one each
    let ids: Vec<_> = table_message_ids().into_iter().map(|(id, _)| id).collect();
    let unique: BTreeSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "a table id twice");
    for id in &ids {
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{id}");
    }
}

#[test]
fn a_translation_may_leave_out_a_selector_but_not_a_shown_argument() {
    let parse = |text: &str| {
        let resource = fluent_syntax::parser::parse(text).unwrap();
        let ast::Entry::Message(m) = &resource.body[0] else { panic!("a message") };
        let mut vars = Arguments::default();
        variables_of_pattern(m.value.as_ref().unwrap(), &mut vars);
        vars
    };
    let english = parse("m = { $names } { $n ->\n    [1] falls\n   *[other] fall\n} at { $depth }\n");
    assert_eq!(english.selectors, BTreeSet::from(["n".to_string()]));
    // Chinese has no plural: it may leave out the count it only selected by
    assert!(english.taken_by(&parse("m = { $names }从深度 { $depth } 起落后\n")));
    // but not a number English shows, nor an argument of its own
    assert!(!english.taken_by(&parse("m = { $names } falls\n")));
    assert!(!english.taken_by(&parse("m = { $names } { $depth } { $other }\n")));
}

#[test]
fn a_notice_is_kept_as_words_and_said_in_the_language_it_is_shown_in() {
    use ablation_playground::config::Settings;
    let mut settings = Settings::from_query("depth=500&lr=0.5e3&colour=red");
    let notices = settings.take_notices();
    let said = |tag: &str| -> Vec<String> {
        let language = Language::shipped(tag).unwrap();
        notices.iter().map(|n| n.say_in(&language)).collect()
    };
    // English as before the words were messages (the CLI's and the tests' words)
    assert_eq!(
        said("en"),
        [
            "depth: \"500\" is not an integer from 1 to 96; using 96",
            "lr: \"0.5e3\" is not a number from 0.000001 to 10; using 10",
            "ignored unknown parameter \"colour\"",
        ],
    );
    // the same notices in Spanish: its quotes, its words, its decimal comma in a range
    assert_eq!(
        said("es"),
        [
            "depth: «500» no es un entero de 1 a 96; se usa 96",
            "lr: «0.5e3» no es un número de 0,000001 a 10; se usa 10",
            "se ignora el parámetro desconocido «colour»",
        ],
    );
    assert!(said("zh")[0].contains("1 到 96 之间的整数"), "{:?}", said("zh"));
    // a refused text's reason, made where the text is checked, said where it is shown
    let refused =
        ablation_playground::training::tasks::corpus::Corpus::from_bytes(b"abc abc abc").unwrap_err();
    assert_eq!(refused.to_string(), "the text has 11 characters; at least 600 are needed");
    let spanish = Language::shipped("es").unwrap();
    assert_eq!(refused.say_in(&spanish), "el texto tiene 11 caracteres; se necesitan al menos 600");
}
