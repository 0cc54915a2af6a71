//! A URL query (`?depth=12&residual=off&pin=@500`), read forgivingly: what the page's address,
//! the element's attributes and the iframe's messages give. A bad value falls back to the
//! nearest valid one, an unknown name is skipped, and each gets a notice for the reader.

use super::pins::{parse_pins, preset_pins, Pin, MAX_PINS, PIN};
use super::presets::PRESET;
use super::settings::Config;
use ablation_words::Said;

/// `name=value` pairs of a URL query, percent-decoded (`+` is a space).
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let bytes = s.replace('+', " ").into_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            match (bytes[i], bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                (b'%', Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                }
                (b, _, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// A configuration and its pins from a URL query, leniently, with the notices for what was
/// replaced or dropped. A preset applies first wherever it stands; several `pin=` make one list.
pub fn read_query(query: &str) -> (Config, Vec<Pin>, Vec<Said>) {
    let pairs = query_pairs(query);
    let mut config = Config::default();
    let mut notices =
        config.apply_leniently(pairs.iter().filter(|(k, _)| k != PIN).map(|(k, v)| (k.as_str(), v.as_str())));
    let (mut pins, pin_notices) =
        lenient_pins(pairs.iter().filter(|(k, _)| k == PIN).map(|(_, v)| v.as_str()));
    notices.extend(pin_notices);
    // a preset's own pins, unless the link gives its own
    if !pairs.iter().any(|(k, _)| k == PIN) {
        if let Some((_, preset)) = pairs.iter().find(|(k, _)| k == PRESET) {
            pins = preset_pins(preset);
        }
    }
    (config, pins, notices)
}

/// Pins from one or more `;`-separated lists, leniently: a bad pin is dropped with a notice, the
/// others kept, at most `MAX_PINS`.
pub fn lenient_pins<'a>(lists: impl IntoIterator<Item = &'a str>) -> (Vec<Pin>, Vec<Said>) {
    let (mut pins, mut notices) = (Vec::new(), Vec::new());
    for text in lists.into_iter().flat_map(|l| l.split(';')) {
        match parse_pins(text) {
            Ok(p) => pins.extend(p),
            Err(e) => notices.push(Said::new("notice-ignored").arg("error", e.sentence())),
        }
    }
    if pins.len() > MAX_PINS {
        notices.push(Said::new("notice-pins-kept").arg("n", pins.len()).arg("max", MAX_PINS));
        pins.truncate(MAX_PINS);
    }
    (pins, notices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormPlacement;

    #[test]
    fn pairs_are_percent_decoded_and_forgive_odd_shapes() {
        let pairs = query_pairs("?depth=12&lr=%30.5&name=a+b&bare&&odd=%G1%4");
        let expect = [("depth", "12"), ("lr", "0.5"), ("name", "a b"), ("bare", ""), ("odd", "%G1%4")];
        assert_eq!(pairs, expect.map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(
            query_pairs("%FF=%C3%A9")[0],
            ("\u{FFFD}".to_string(), "é".to_string()),
            "bad UTF-8 is replaced"
        );
    }

    #[test]
    fn a_query_sets_the_state_and_bad_values_fall_back_with_notices() {
        let (c, pins, notices) = read_query("?depth=7&residual=off&norm=post&seed=5&steps=9");
        assert_eq!((c.depth, c.residual, c.norm, c.seed, c.steps), (7, false, NormPlacement::Post, 5, 9));
        assert!(pins.is_empty() && notices.is_empty(), "{notices:?}");
        let (c, _, notices) = read_query("depth=500&width=31&residual=maybe&lr=%41bc&colour=red");
        assert_eq!((c.depth, c.width, c.residual), (96, 32, true));
        assert_eq!(notices.len(), 5, "{notices:?}");
        assert!(
            notices.iter().any(|n| n.to_string().contains("unknown parameter \"colour\"")),
            "{notices:?}"
        );
        // a preset applies first, wherever it stands
        let (c, _, _) = read_query("depth=24&preset=explode");
        assert_eq!((c.depth, c.init_gain), (24, 2.0));
    }

    #[test]
    fn pins_are_read_leniently_and_at_most_three_kept() {
        let (_, pins, notices) = read_query("?depth=7&pin=residual:off@50&pin=bogus&pin=@3;depth:2@9;@1");
        let steps: Vec<usize> = pins.iter().map(Pin::steps).collect();
        assert_eq!(steps, [50, 3, 9], "the first three good pins");
        assert_eq!(notices.len(), 2, "the bad pin and the fourth: {notices:?}");
        let (pins, notices) = lenient_pins(["@1;@2;@3;@4"]);
        assert_eq!((pins.len(), notices.len()), (3, 1));
    }
}
