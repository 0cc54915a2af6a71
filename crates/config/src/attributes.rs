//! The element's own attributes, beside the parameters, the preset and the pins: what the
//! widget shows and how it starts. One entry each, from which the element's observed
//! attributes and options, the playground page's URL parameters, the React component's props,
//! the notebook's traits and the TypeScript declarations come (written by `schema.rs`), so that
//! none of them types the list again.

/// What an attribute's text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeKind {
    /// Comma-separated names from a list (the controls, the panels).
    List,
    /// On or off, in any of the words `isOff` reads (off, false, 0, no); `default_on` when absent.
    Flag { default_on: bool },
    /// A URL, resolved against the page.
    Url,
    /// Free text.
    Text,
}

/// One of the element's own attributes.
pub struct AttributeSpec {
    /// The attribute's name, and the playground page's URL parameter.
    pub name: &'static str,
    /// Its key in the widget's options and its React prop (empty: the page's URL alone).
    pub option: &'static str,
    /// The notebook widget's trait (empty: none).
    pub python: &'static str,
    pub kind: AttributeKind,
    /// The element observes it (otherwise only the playground page's URL has it).
    pub element: bool,
    pub help: &'static str,
}

/// The controls a widget may show, in `controls=`, in the page's order.
pub const CONTROL_NAMES: &[&str] =
    &["depth", "residual", "norm", "placement", "task", "play", "more", "copy", "compare", "download"];

pub static ATTRIBUTES: &[AttributeSpec] = &[
    AttributeSpec {
        name: "controls",
        option: "controls",
        python: "controls",
        kind: AttributeKind::List,
        element: true,
        help: "the controls shown, comma-separated",
    },
    AttributeSpec {
        name: "panels",
        option: "panels",
        python: "panels",
        kind: AttributeKind::List,
        element: true,
        help: "the panels shown, comma-separated",
    },
    AttributeSpec {
        name: "autoplay",
        option: "autoplay",
        python: "autoplay",
        kind: AttributeKind::Flag { default_on: true },
        element: true,
        help: "\"off\": wait for Play (or a lesson step) instead of training once near the view",
    },
    AttributeSpec {
        name: "text-src",
        option: "textSrc",
        python: "text_src",
        kind: AttributeKind::Url,
        element: true,
        help: "the URL of a text to train the text task on",
    },
    AttributeSpec {
        name: "weights-src",
        option: "weightsSrc",
        python: "",
        kind: AttributeKind::Url,
        element: true,
        help: "the URL of a weights file (safetensors) the playground wrote: the run starts from it",
    },
    AttributeSpec {
        name: "lang",
        option: "lang",
        python: "lang",
        kind: AttributeKind::Text,
        element: true,
        help: "the language the widget speaks: a BCP 47 tag (en, es, zh; en-XA the pseudo-language); absent, its nearest ancestor's lang (the host page's), else English",
    },
    AttributeSpec {
        name: "embed",
        option: "",
        python: "",
        kind: AttributeKind::Flag { default_on: false },
        element: false,
        help: "the playground page inside an iframe: without its heading, and closer to the frame's edges",
    },
    AttributeSpec {
        name: "allow",
        option: "",
        python: "",
        kind: AttributeKind::Text,
        element: false,
        help: "the origins (comma-separated) whose postMessage commands the playground page obeys",
    },
];
