//! A phrase's first letter as a capital, without Unicode's case table.

/// `text` with its first letter a capital, for a phrase that opens a sentence ("decoder layer
/// 1" heading a panel). The standard library's `to_uppercase` links Unicode's whole case table
/// (12 KB of the page's wasm); the letters our phrases hold are ASCII, Latin-1's (Spanish),
/// Greek's and the pseudo-language's, and `capital_letter`'s test holds it to the standard
/// library for every letter of every shipped catalogue and of the pseudo-language. A letter
/// with no capital here (Chinese has none) is kept.
pub fn capitalised(text: &str) -> String {
    let mut rest = text.chars();
    match rest.next() {
        Some(first) => {
            let mut out = String::with_capacity(text.len() + 2);
            out.push(capital_letter(first));
            out.push_str(rest.as_str());
            out
        }
        None => String::new(),
    }
}

/// The pseudo-language's accented letters beside their capitals (`pseudo_text`'s `TO`).
const PSEUDO_CAPITALS: [(char, char); 11] = [
    ('ȧ', 'Ȧ'),
    ('ḗ', 'Ḗ'),
    ('ī', 'Ī'),
    ('ǿ', 'Ǿ'),
    ('ŭ', 'Ŭ'),
    ('ẏ', 'Ẏ'),
    ('ƈ', 'Ƈ'),
    ('ş', 'Ş'),
    ('ġ', 'Ġ'),
    ('ž', 'Ž'),
    ('ñ', 'Ñ'),
];

fn capital_letter(c: char) -> char {
    match c {
        'a'..='z' => c.to_ascii_uppercase(),
        // Latin-1's small letters à–þ are their capitals + 0x20 (but ÷, the division sign)
        'à'..='þ' if c != '÷' => char::from_u32(c as u32 - 0x20).unwrap_or(c),
        // Greek's small letters (the words name γ, α, β₂) likewise, but the final sigma
        'ς' => 'Σ',
        'α'..='ω' => char::from_u32(c as u32 - 0x20).unwrap_or(c),
        _ => PSEUDO_CAPITALS.iter().find(|(small, _)| *small == c).map_or(c, |&(_, capital)| capital),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `capital_letter` is the standard library's capital for every letter a shipped
    /// catalogue holds (any may begin a phrase) and every letter of the pseudo-language.
    #[test]
    fn capitals_agree_with_the_standard_library_for_every_letter_of_our_words() {
        let catalogues = [
            crate::ENGLISH,
            crate::shipped_catalogue("es").unwrap(),
            crate::shipped_catalogue("zh").unwrap(),
        ];
        let pseudo = crate::pseudo_text("aeiouyAEIOUYcnsgzCNSGZ");
        let mut checked = 0;
        for c in catalogues.iter().flat_map(|text| text.chars()).chain(pseudo.chars()) {
            let mut upper = c.to_uppercase();
            let (first, more) = (upper.next(), upper.next());
            // a letter whose capital is two letters (ß → SS) keeps itself, as no phrase begins so
            let expected = if more.is_some() { c } else { first.unwrap_or(c) };
            assert_eq!(capital_letter(c), expected, "{c:?} (U+{:04X})", c as u32);
            checked += 1;
        }
        assert!(checked > 10_000, "only {checked} letters read");
        assert_eq!(capitalised("decoder layer 1"), "Decoder layer 1");
        assert_eq!(capitalised("él"), "Él");
        assert_eq!(capitalised("ḗṡŧėṗ"), "Ḗṡŧėṗ");
        assert_eq!(capitalised("第 1 步"), "第 1 步");
        assert_eq!(capitalised(""), "");
    }
}
