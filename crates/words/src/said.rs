//! A sentence kept as its message and arguments, to be said later in the reader's language.

use crate::{current, Language};
use fluent_bundle::FluentArgs;
use std::fmt;

/// A sentence kept as its message and arguments, said when it is shown, in the language the
/// reader speaks then: a notice made when a link is read is shown after the widget's catalogue
/// arrives, and the same notice is English for `ablate`. `Display` says it in the thread's
/// language.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    pub id: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

/// An argument of a `Said`: text as it is, a count (which may choose a plural), a number's
/// text (said in the language's number format) or another sentence (said in the same language).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Count(usize),
    Number(String),
    Said(Box<Said>),
    /// Sentences said one after another, between them the language's `list-comma`.
    List(Vec<Said>),
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_string())
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Count(n)
    }
}

impl From<Said> for Arg {
    fn from(said: Said) -> Arg {
        Arg::Said(Box::new(said))
    }
}

impl Said {
    /// Message `id`, so far without arguments.
    pub fn new(id: &'static str) -> Said {
        Said { id, args: Vec::new() }
    }

    /// With argument `name`.
    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> Said {
        self.args.push((name, value.into()));
        self
    }

    /// With argument `name` a number's text (`1e-5`, `0.98`), said in the language's format.
    pub fn number(self, name: &'static str, text: impl ToString) -> Said {
        self.arg(name, Arg::Number(text.to_string()))
    }

    /// `items` one after another ("12 heads, tokens 64, context 16").
    pub fn list(items: Vec<Said>) -> Said {
        Said::new("list").arg("items", Arg::List(items))
    }

    /// Said in `language`.
    pub fn say_in(&self, language: &Language) -> String {
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            match value {
                Arg::Text(text) => args.set(*name, text.clone()),
                Arg::Count(n) => args.set(*name, *n),
                Arg::Number(text) => args.set(*name, language.number(text)),
                Arg::Said(said) => args.set(*name, said.say_in(language)),
                Arg::List(items) => {
                    let comma = language.say("list-comma", None);
                    args.set(*name, items.iter().map(|s| s.say_in(language)).collect::<Vec<_>>().join(&comma))
                }
            }
        }
        language.say(self.id, Some(&args))
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say_in(&current()))
    }
}
