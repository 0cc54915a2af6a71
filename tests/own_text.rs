//! A reader's own text: its checks, its vocabulary and floors from their
//! definitions, its identity in a link, a prompt continued (its weights file: weights_file.rs).

use ablation_playground::config::{hex, sha256};
use ablation_playground::config::{text_defaults, Config, Settings, TextId, MAX_KEPT_CHARS};
use ablation_playground::training::live::writing::{write, Prompt};
use ablation_playground::training::step::report::trained;
use ablation_playground::training::tasks::corpus::{install_own, Corpus, UNKNOWN};
use ablation_playground::view::text_facts::TextFacts;
use ablation_playground::view::words::text_words;

/// A text of `n` characters of a few words, so that its floors are far apart.
fn words(n: usize) -> String {
    "the cat sat on the mat and the dog sat on the log. ".chars().cycle().take(n).collect()
}

#[test]
fn each_bad_text_gets_its_reason_in_words() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "empty"),
        (b"abc abc abc".to_vec(), "at least 600"),
        (vec![0xff, 0xfe, b'a', 0, b'b', 0], "not UTF-8"),
        (b"%PDF-1.7\n".iter().copied().chain(words(900).bytes()).collect(), "PDF"),
        (format!("  <!DOCTYPE html><html>{}", words(900)).into_bytes(), "HTML"),
        (words(900).bytes().flat_map(|b| [b, 0]).collect(), "NUL"),
        (vec![b'a'; 9 << 20], "at most 8 MB"),
        ("a".repeat(700).into_bytes(), "two distinct"),
    ];
    for (bytes, expected) in cases {
        let error = Corpus::from_bytes(&bytes).expect_err(expected).to_string();
        assert!(error.contains(expected), "{} bytes: {error:?} does not say {expected:?}", bytes.len());
    }
    assert!(Corpus::from_bytes(words(600).as_bytes()).is_ok(), "600 characters are enough");
}

#[test]
fn a_text_of_many_characters_keeps_the_most_frequent_and_counts_the_rest_as_unknown() {
    // 300 distinct characters: 'a' to 'z' often, then 274 others from U+0100 once or twice each
    let mut text = words(5000);
    let rare: Vec<char> = (0x100..0x100 + 274).map(|c| char::from_u32(c).unwrap()).collect();
    for (i, &c) in rare.iter().enumerate() {
        text.push(c);
        if i < 240 {
            text.push(c); // these come twice: kept before the ones that come once
        }
    }
    text += &words(2000);
    let c = Corpus::from_bytes(text.as_bytes()).unwrap();
    let distinct_common: std::collections::BTreeSet<char> = words(100).chars().collect();
    let kept_rare = MAX_KEPT_CHARS - distinct_common.len();
    assert_eq!(c.vocab.len(), MAX_KEPT_CHARS + 1);
    assert_eq!(c.vocab.last(), Some(&UNKNOWN));
    assert_eq!(c.unknown, Some(MAX_KEPT_CHARS as u8));
    // every common character, then the twice-seen rare ones in code-point order, are kept
    assert!(distinct_common.iter().all(|ch| c.vocab.contains(ch)));
    assert!(rare[..kept_rare].iter().all(|ch| c.vocab.contains(ch)), "the more frequent first");
    assert!(rare[kept_rare..].iter().all(|ch| !c.vocab[..MAX_KEPT_CHARS].contains(ch)));
    let expected_replaced: usize = (kept_rare..rare.len()).map(|i| if i < 240 { 2 } else { 1 }).sum();
    assert_eq!(c.replaced, expected_replaced, "characters that became the unknown symbol");
    assert_eq!(c.ids.iter().filter(|&&i| i == MAX_KEPT_CHARS as u8).count(), expected_replaced);
    // a prompt's character outside the vocabulary becomes the unknown symbol and is reported
    let (ids, outside) = c.encode(&format!("the {}{}", rare[273], rare[273]));
    assert_eq!(outside, vec![rare[273]]);
    assert_eq!(ids.len(), 6);
    assert_eq!(ids[4], u32::from(MAX_KEPT_CHARS as u8));
    assert_eq!(c.id, TextId::Own { sha256: sha256(text.as_bytes()), chars: c.chars as u64, vocab: 256 });
    assert_eq!(c.chars, text.chars().count());
    // what its sentence says, measured in the worker and said on the page: the same facts
    // after their trip as JSON, and the sentence from them
    let facts = TextFacts::of(&c);
    assert_eq!(TextFacts::parse(&facts.json().to_string()), Some(facts));
    assert_eq!((facts.tokens, facts.replaced), (MAX_KEPT_CHARS, Some(expected_replaced)));
    let said = text_words(&facts);
    assert!(said.contains(&format!("its {MAX_KEPT_CHARS} most frequent characters are tokens")), "{said}");
    assert!(said.contains(&format!("({expected_replaced} places in the text)")), "{said}");
}

#[test]
fn a_short_texts_held_out_tail_holds_a_window_of_the_longest_context() {
    let c = Corpus::from_bytes(words(600).as_bytes()).unwrap();
    assert_eq!(c.held_out().len(), 257);
    assert_eq!(c.train().len(), 600 - 257);
    // a text of a few characters without an unknown symbol leaves out what it does not know
    let (ids, outside) = c.encode("cat€");
    assert_eq!((ids.len(), outside), (3, vec!['€']));
}

#[test]
fn a_link_carries_the_texts_hash_and_a_page_opened_from_it_knows_it() {
    let corpus = install_own(words(3000).as_bytes()).unwrap();
    let mut s = Settings::from_query("preset=text");
    s.set("text_id", &corpus.id.text()).unwrap();
    let query = s.query();
    assert!(query.contains(&hex(&corpus.sha256)), "{query}");
    assert!(query.contains(&format!(".{}.", 3000)), "its length: {query}");
    let back = Settings::from_query(&query);
    assert_eq!(back.config.text, corpus.id);
    assert_eq!(back.config.vocab(), corpus.vocab.len());
    // a hash that is not one is refused, in words, and the plays are kept
    let mut bad = Settings::from_query("preset=text&text_id=abc.1000.40");
    let notices = bad.take_notices();
    assert_eq!(bad.config.text, TextId::Plays);
    assert!(notices.iter().any(|n| n.to_string().contains("text")), "{notices:?}");
    // and its bytes round-trip
    let config = Config { text: corpus.id, ..text_defaults() };
    assert_eq!(Config::decode(&config.encode()).unwrap(), config);
}

#[test]
fn a_prompt_is_continued_as_asked_and_a_wrong_one_refused() {
    let corpus = install_own(words(4000).as_bytes()).unwrap();
    let config = Config { text: corpus.id, depth: 2, ..text_defaults() };
    let (_, mut trainer) = trained(&config, 20);
    let prompt = Prompt::reader("the dog€", 33).unwrap();
    let w = write(&mut trainer, &mut None, Some(&prompt)).unwrap();
    assert_eq!(w.given, 7, "the € is not in the text, and it has no unknown symbol");
    assert_eq!(w.outside, vec!['€']);
    assert_eq!(w.text.chars().count(), 7 + 33);
    assert_eq!(w, write(&mut trainer, &mut None, Some(&prompt)).unwrap(), "seeded");
    let empty = write(&mut trainer, &mut None, Some(&Prompt::reader("", 5).unwrap())).unwrap();
    assert_eq!(empty.text.chars().count(), 1 + 5, "an empty prompt begins from the first id");
    assert!(Prompt::reader("x", 0).is_err() && Prompt::reader(&"x".repeat(3000), 5).is_err());
}

#[test]
fn pins_and_comparisons_say_which_text_they_trained_on() {
    use ablation_playground::view::words::{differences, on_text, pin_label};
    let corpus = install_own(words(3000).as_bytes()).unwrap();
    let own = Config { text: corpus.id, ..text_defaults() };
    let label = format!("the text {} (3000 characters)", &hex(&corpus.sha256)[..12]);
    assert_eq!(on_text(&own), format!(" on {label}"));
    assert_eq!(on_text(&text_defaults()), "", "the plays are the default: nothing said");
    assert_eq!(differences(&own, &text_defaults()), vec![format!("on {label}")]);
    assert_eq!(differences(&text_defaults(), &own), vec!["on the plays".to_string()]);
    assert!(
        pin_label(&text_defaults(), &own).contains("on the plays"),
        "{}",
        pin_label(&text_defaults(), &own)
    );
}
