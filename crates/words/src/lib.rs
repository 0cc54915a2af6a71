//! The language the words are in: messages with named arguments, one catalogue per language in
//! Project Fluent's format (`www/i18n/<tag>.ftl`), formatted by `fluent-bundle`. Which sentence
//! applies, and with which numbers, stays in the code that says it (`view/words.rs`, the
//! panels); its words are the catalogue's. A message a catalogue lacks is said in English,
//! never as its id.
//!
//! The language is the thread's: the page's `View` and `ablate --lang` set it around what they
//! word (`Language::with`), and a thread that sets none speaks English. Numbers that a sentence
//! prints come in as text, written by `number` in the language's convention (`0,853` in
//! Spanish); counts that choose a plural come in as numbers.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

#[doc(hidden)]
pub use fluent_bundle::FluentArgs;
use fluent_bundle::{FluentBundle, FluentResource};
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

mod capital;
mod said;
pub use capital::capitalised;
pub use said::{Arg, Said};

/// The English catalogue: every message the code asks for, and each one's fallback
/// (`www/i18n/en.ftl` without its translators' comments: `build.rs`).
pub const ENGLISH: &str = include_str!(concat!(env!("OUT_DIR"), "/en.ftl"));

/// A language the widget ships, or the pseudo-language.
pub struct LanguageSpec {
    /// Its BCP 47 tag, and its catalogue's file name (`www/i18n/<tag>.ftl`).
    pub tag: &'static str,
    /// Its name in itself, for a menu.
    pub name: &'static str,
    /// The decimal separator, and the digit group separator of numbers of five or more digits.
    pub decimal: char,
    pub group: char,
}

/// The languages that ship, English first; `en-XA` is the pseudo-language (English
/// lengthened by a third and accented, to see where the layout breaks), made from English.
pub static LANGUAGES: &[LanguageSpec] = &[
    LanguageSpec { tag: "en", name: "English", decimal: '.', group: ',' },
    LanguageSpec { tag: "es", name: "Español", decimal: ',', group: '.' },
    LanguageSpec { tag: "zh", name: "中文", decimal: '.', group: ',' },
    LanguageSpec { tag: PSEUDO, name: "Ƥşḗḗŭŭḓǿǿ", decimal: ',', group: '.' },
];

/// The pseudo-language's tag (a private-use region of English, as Android and Chrome use).
pub const PSEUDO: &str = "en-XA";

/// The catalogues that ship, by tag, for `ablate --lang` and the tests. The page never calls it
/// (so the linker leaves these texts out of its wasm): it fetches the one it speaks.
pub fn shipped_catalogue(tag: &str) -> Option<&'static str> {
    match tag {
        "en" | PSEUDO => Some(ENGLISH),
        "es" => Some(include_str!("../../../www/i18n/es.ftl")),
        "zh" => Some(include_str!("../../../www/i18n/zh.ftl")),
        _ => None,
    }
}

/// The shipped language a BCP 47 tag asks for: its language subtag's (`es-MX` is Spanish,
/// `zh-Hant-TW` Chinese), the pseudo-language by its exact tag, else None (English speaks).
pub fn spec_for(tag: &str) -> Option<&'static LanguageSpec> {
    let tag = tag.trim();
    if tag.eq_ignore_ascii_case(PSEUDO) {
        return LANGUAGES.iter().find(|l| l.tag == PSEUDO);
    }
    let language = tag.split(['-', '_']).next()?.to_ascii_lowercase();
    LANGUAGES.iter().find(|l| l.tag != PSEUDO && l.tag == language)
}

type Bundle = FluentBundle<FluentResource>;

fn bundle(tag: &str, text: &str, pseudo: bool) -> Result<Bundle, String> {
    // (the language subtag alone, which is all the plural rules read: parsing a whole tag
    // would link unic-langid's sort of its variants, 26 KB of the page's wasm)
    let language = unic_langid::subtags::Language::from_bytes(tag.as_bytes())
        .map_err(|_| format!("{tag:?} is not a language"))?;
    let id = unic_langid::LanguageIdentifier::from_raw_parts_unchecked(language, None, None, None);
    let resource = FluentResource::try_new(text.to_string()).map_err(|(_, errors)| {
        let at = errors.first().map_or(0, |e| e.pos.start.min(text.len()));
        format!("the {tag} catalogue does not parse (line {})", text[..at].lines().count().max(1))
    })?;
    let mut bundle = FluentBundle::new(vec![id]);
    // today's strings exactly: no Unicode isolation marks around the arguments
    bundle.set_use_isolating(false);
    if pseudo {
        bundle.set_transform(Some(pseudo_text));
    }
    bundle
        .add_resource(resource)
        .map_err(|errors| format!("the {tag} catalogue names a message twice ({} times)", errors.len()))?;
    Ok(bundle)
}

/// The pseudo-language's text: each Latin letter accented, and every second letter doubled (a
/// sentence a third longer or more, as German or Spanish often is), so that a layout that fits
/// English only shows itself.
fn pseudo_text(s: &str) -> Cow<'_, str> {
    const FROM: &str = "aeiouyAEIOUYcnsgzCNSGZ";
    const TO: &str = "ȧḗīǿŭẏȦḖĪǾŬẎƈñşġžƇÑŞĠŽ";
    let mut out = String::with_capacity(s.len() * 2);
    let mut letters = 0;
    for ch in s.chars() {
        let accented = FROM.chars().position(|c| c == ch).and_then(|i| TO.chars().nth(i)).unwrap_or(ch);
        out.push(accented);
        if ch.is_alphabetic() {
            letters += 1;
            if letters % 2 == 0 {
                out.push(accented);
            }
        }
    }
    Cow::Owned(out)
}

/// One language's words: its catalogue, English beneath it, and its numbers' convention.
pub struct Language {
    spec: &'static LanguageSpec,
    own: Option<Bundle>,
    english: Bundle,
}

impl Language {
    /// English.
    pub fn english() -> Language {
        Language {
            spec: &LANGUAGES[0],
            own: None,
            english: bundle("en", ENGLISH, false).expect("the English catalogue parses"),
        }
    }

    /// The language `tag` asks for, from its catalogue's text (None for English and the
    /// pseudo-language, which are made from English). A language that does not ship, or a
    /// catalogue that does not parse, is an error: the caller speaks English and says so.
    pub fn new(tag: &str, catalogue: Option<&str>) -> Result<Language, String> {
        let mut english = Language::english();
        let Some(spec) = spec_for(tag) else {
            return if tag.trim().is_empty() {
                Ok(english)
            } else {
                Err(format!("no words in {tag:?} yet: English it is"))
            };
        };
        english.spec = spec;
        english.own = match spec.tag {
            "en" => None,
            PSEUDO => Some(bundle("en", ENGLISH, true)?),
            _ => {
                let text = catalogue.ok_or_else(|| format!("the {} catalogue was not given", spec.tag))?;
                Some(bundle(spec.tag, text, false)?)
            }
        };
        Ok(english)
    }

    /// A shipped language by its tag, with its catalogue from `shipped_catalogue`.
    pub fn shipped(tag: &str) -> Result<Language, String> {
        let tag_of = spec_for(tag).map_or("en", |s| s.tag);
        Language::new(tag, shipped_catalogue(tag_of))
    }

    /// The tag of the language it speaks (`en` when it fell back).
    pub fn tag(&self) -> &'static str {
        self.spec.tag
    }

    /// Message `id` with `args` from the first catalogue that has it and formats it: this
    /// language's, then English's.
    pub fn format(&self, id: &str, args: Option<&FluentArgs>) -> Option<String> {
        self.own.iter().chain(std::iter::once(&self.english)).find_map(|bundle| {
            let pattern = bundle.get_message(id)?.value()?;
            let mut errors = vec![];
            let text = bundle.format_pattern(pattern, args, &mut errors);
            errors.is_empty().then(|| text.into_owned())
        })
    }

    /// Message `id` with `args`, in this language, else in English; an id English lacks is a
    /// bug (the catalogue test lists the ids the code asks for), said as the id in brackets.
    pub fn say(&self, id: &str, args: Option<&FluentArgs>) -> String {
        self.format(id, args).unwrap_or_else(|| format!("[{id}]"))
    }

    /// Message `id` where a catalogue has it, else `english`: the words of the parameter table
    /// (a parameter's label, a choice's, a comparison's button), whose English is the table's
    /// own and whose translations are catalogue messages named from it (`param-depth`,
    /// `choice-task-text`, `comparison-sweep-button`: `config::messages`).
    pub fn say_or(&self, id: &str, english: &str) -> String {
        self.format(id, None).unwrap_or_else(|| {
            if self.spec.tag == PSEUDO {
                pseudo_text(english).into_owned()
            } else {
                english.to_string()
            }
        })
    }

    /// `text`, a number as `charts::short` or `format!` writes it (`0.853`, `1.2e-5`, `12345`),
    /// in this language's convention: its decimal separator, and its group separator in an
    /// integer part of five or more digits.
    pub fn number(&self, text: &str) -> String {
        localise_number(text, self.spec.decimal, self.spec.group)
    }

    /// A count with its digits grouped in threes by this language's separator ("12,345").
    pub fn grouped(&self, n: usize) -> String {
        group_digits(&n.to_string(), self.spec.group)
    }

    /// Runs `f` with this the thread's language.
    pub fn with<R>(self: &Rc<Self>, f: impl FnOnce() -> R) -> R {
        let previous = CURRENT.with(|c| c.replace(Some(self.clone())));
        let out = f();
        CURRENT.with(|c| *c.borrow_mut() = previous);
        out
    }
}

fn localise_number(text: &str, decimal: char, group: char) -> String {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], Some(&mantissa[i + 1..])),
        None => (mantissa, None),
    };
    let digits = int.trim_start_matches(['-', '−', '+']);
    let sign = &int[..int.len() - digits.len()];
    let mut out = String::from(sign);
    if digits.len() >= 5 && digits.bytes().all(|b| b.is_ascii_digit()) {
        out += &group_digits(digits, group);
    } else {
        out += digits;
    }
    if let Some(frac) = frac {
        out.push(decimal);
        out += frac;
    }
    out + exponent
}

/// `digits` (ASCII digits) grouped in threes from the right by `group`.
fn group_digits(digits: &str, group: char) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * group.len_utf8());
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(group);
        }
        out.push(d);
    }
    out
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Language>>> = const { RefCell::new(None) };
    static ENGLISH_HERE: Rc<Language> = Rc::new(Language::english());
}

/// The thread's language (English where none was set).
pub fn current() -> Rc<Language> {
    CURRENT.with(|c| c.borrow().clone()).unwrap_or_else(|| ENGLISH_HERE.with(Rc::clone))
}

/// Message `id` in the thread's language (`say!` gives the arguments).
pub fn say(id: &str, args: Option<&FluentArgs>) -> String {
    current().say(id, args)
}

/// A number's text in the thread's language's convention (`Language::number`).
pub fn number(text: &str) -> String {
    current().number(text)
}

/// `say!("status-step", step = m.step)`: message `status-step` in the thread's language with
/// its named arguments (numbers that choose a plural as numbers, any other as text).
#[macro_export]
macro_rules! say {
    ($id:literal) => {
        $crate::say($id, None)
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::FluentArgs::new();
        $( args.set(stringify!($name), $value); )+
        $crate::say($id, Some(&args))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_language() {
        assert_eq!(localise_number("0.853", ',', '.'), "0,853");
        assert_eq!(localise_number("1.2e-5", ',', '.'), "1,2e-5");
        assert_eq!(localise_number("12345", ',', '.'), "12.345");
        assert_eq!(localise_number("1234", ',', '.'), "1234");
        assert_eq!(localise_number("−1234567.5", ',', '.'), "−1.234.567,5");
        assert_eq!(localise_number("∞", ',', '.'), "∞");
        assert_eq!(localise_number("0.853", '.', ','), "0.853");
    }

    #[test]
    fn tags_choose_the_shipped_language() {
        assert_eq!(spec_for("es-MX").map(|s| s.tag), Some("es"));
        assert_eq!(spec_for("zh-Hant-TW").map(|s| s.tag), Some("zh"));
        assert_eq!(spec_for("EN-xa").map(|s| s.tag), Some(PSEUDO));
        assert_eq!(spec_for("de").map(|s| s.tag), None);
        assert!(Language::new("de", None).is_err());
        assert_eq!(Language::new("", None).map(|l| l.tag()), Ok("en"));
    }

    #[test]
    fn the_pseudo_language_is_longer_and_accented() {
        let text = pseudo_text("Residual");
        assert!(text.chars().count() >= "Residual".len() * 3 / 2, "{text}");
        assert!(!text.contains('e'), "{text}");
    }

    #[test]
    fn a_missing_message_falls_back_to_english_and_the_language_is_the_threads() {
        let es = Rc::new(Language::new("es", Some("status-finished = terminado\n")).unwrap());
        assert_eq!(es.say("status-finished", None), "terminado");
        assert_eq!(es.say("status-no-mask", None), "no mask");
        assert_eq!(es.with(|| say!("status-finished")), "terminado");
        assert_eq!(say!("status-finished"), "finished");
        assert_eq!(say!("status-step", step = 5), "step 5");
    }
}
