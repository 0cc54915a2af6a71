//! `Words`: one widget's language, on the page's thread. The widget's language module
//! (`language.js`) makes one from a catalogue's text, words its markup with it (`say`), and
//! gives it to the `View`, which words the status line, the captions and the charts with it.

use ablation_words::{spec_for, Language, PSEUDO};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Words {
    pub(super) inner: Rc<Language>,
}

#[wasm_bindgen]
impl Words {
    /// The words of language `tag` (a BCP 47 tag: `es`, `zh-CN`, `en-XA` the pseudo-language)
    /// from its catalogue's text (`www/i18n/<tag>.ftl`; none for English and the
    /// pseudo-language). A language that does not ship or a catalogue that does not parse is an
    /// error in words (the widget then speaks `Words.english()`).
    #[wasm_bindgen(constructor)]
    pub fn new(tag: &str, catalogue: Option<String>) -> Result<Words, JsError> {
        let language = Language::new(tag, catalogue.as_deref()).map_err(|e| JsError::new(&e))?;
        Ok(Words { inner: Rc::new(language) })
    }

    pub fn english() -> Words {
        Words { inner: Rc::new(Language::english()) }
    }

    /// The tag of the language it speaks (`en` where it fell back).
    #[wasm_bindgen(getter)]
    pub fn tag(&self) -> String {
        self.inner.tag().to_string()
    }

    /// Message `id` (one without arguments: the controls' words), in its language.
    pub fn say(&self, id: &str) -> String {
        self.inner.say(id, None)
    }

    /// Message `id` where a catalogue has it, else `english` (the parameter table's words:
    /// `Language::say_or`).
    #[wasm_bindgen(js_name = sayOr)]
    pub fn say_or(&self, id: &str, english: &str) -> String {
        self.inner.say_or(id, english)
    }

    /// Message `id` whose one argument is a count, `$n` (it may choose a plural).
    #[wasm_bindgen(js_name = sayCount)]
    pub fn say_count(&self, id: &str, n: u32) -> String {
        let mut args = fluent_bundle::FluentArgs::new();
        args.set("n", n);
        self.inner.say(id, Some(&args))
    }

    /// Message `id` with text arguments, `names[i]` = `values[i]` (the notices JavaScript
    /// writes: a file's name, a reason in the core's words).
    #[wasm_bindgen(js_name = sayWith)]
    pub fn say_with(&self, id: &str, names: Vec<String>, values: Vec<String>) -> String {
        let mut args = fluent_bundle::FluentArgs::new();
        for (name, value) in names.into_iter().zip(values) {
            args.set(name, value);
        }
        self.inner.say(id, Some(&args))
    }

    /// The sentence about a reader's text from what `installOwnText` measured (its JSON), in
    /// this language; empty for damaged facts.
    #[wasm_bindgen(js_name = textWords)]
    pub fn text_words(&self, facts: &str) -> String {
        ablation_view::text_facts::TextFacts::parse(facts)
            .map_or_else(String::new, |facts| self.inner.with(|| ablation_view::words::text_words(&facts)))
    }

    /// A reason a worker or the page's own code gave (`said_json`'s text: a message and its
    /// arguments), in this language; undefined for a reason that is plain text (said as it is).
    #[wasm_bindgen(js_name = sayReason)]
    pub fn say_reason(&self, reason: &str) -> Option<String> {
        let parsed = ablation_view::json_parse::Parsed::parse(reason).ok()?;
        reason_words(&self.inner, &parsed)
    }

    /// The catalogue file `tag` needs (`es.ftl`), or undefined: English, the pseudo-language
    /// and a language that does not ship need none.
    #[wasm_bindgen(js_name = catalogueFor)]
    pub fn catalogue_for(tag: &str) -> Option<String> {
        spec_for(tag).filter(|s| s.tag != "en" && s.tag != PSEUDO).map(|s| format!("{}.ftl", s.tag))
    }
}

/// The language a page-side handle (the `View`, the `Settings`) says its words in: its widget's
/// `Words`' (`setWords`), else English (the thread's own, kept once).
#[derive(Default)]
pub(super) struct Spoken(Option<Rc<Language>>);

impl Spoken {
    /// Speaks `words`' language from now on.
    pub(super) fn set(&mut self, words: &Words) {
        self.0 = (words.inner.tag() != "en").then(|| words.inner.clone());
    }

    /// `f` in this language: what the reader sees and hears.
    pub(super) fn worded<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(language) => language.with(f),
            None => f(),
        }
    }
}

/// `said` as the text a worker sends for the page to say in its language (`Words.sayReason`):
/// `{"said": id, "args": {name: value}}`, a count as a number, a number's text as
/// `{"number": text}`, a sentence within as its own `{"said": …}`, sentences one after another
/// as a list of them, any other argument as its text. The page's JavaScript writes the same
/// (`refusal` in `texts.js`).
pub(super) fn said_json(said: &ablation_words::Said) -> String {
    said_value(said).to_string()
}

fn said_value(said: &ablation_words::Said) -> ablation_view::json::Json {
    use ablation_view::json::Json;
    use ablation_words::Arg;
    let args = said
        .args
        .iter()
        .map(|(name, value)| {
            let value = match value {
                Arg::Count(n) => Json::Int(*n as i128),
                Arg::Text(text) => Json::Str(text.clone()),
                Arg::Number(text) => Json::Obj(vec![("number", Json::Str(text.clone()))]),
                Arg::Said(within) => said_value(within),
                Arg::List(items) => Json::Arr(items.iter().map(said_value).collect()),
            };
            (*name, value)
        })
        .collect();
    Json::Obj(vec![("said", Json::Str(said.id.to_string())), ("args", Json::Obj(args))])
}

/// `said_value`'s JSON said in `language`; `None` for anything else, or for a message that
/// neither this language nor English can say with those arguments.
fn reason_words(language: &Language, parsed: &ablation_view::json_parse::Parsed) -> Option<String> {
    use ablation_view::json_parse::Parsed;
    let id = parsed.get("said")?.as_str()?;
    let mut args = fluent_bundle::FluentArgs::new();
    if let Some(Parsed::Obj(fields)) = parsed.get("args") {
        for (name, value) in fields {
            match value {
                Parsed::Num(n) => args.set(name.clone(), n.parse::<f64>().ok()?),
                Parsed::Str(s) => args.set(name.clone(), s.clone()),
                Parsed::Arr(items) => {
                    let said =
                        items.iter().map(|item| reason_words(language, item)).collect::<Option<Vec<_>>>()?;
                    args.set(name.clone(), said.join(&language.say("list-comma", None)));
                }
                Parsed::Obj(_) => match value.get("number").and_then(Parsed::as_str) {
                    Some(number) => args.set(name.clone(), language.number(number)),
                    None => args.set(name.clone(), reason_words(language, value)?),
                },
                _ => return None,
            }
        }
    }
    // (a message no catalogue can say with these arguments is no reason in words: the page
    // then shows the text as it came)
    language.format(id, Some(&args))
}
