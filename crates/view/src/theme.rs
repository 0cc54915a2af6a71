//! The widget's colours in a host that sets none of its `--ap-*` properties: chosen from the
//! text colour it inherits and the colour painted behind it, so that it reads in a light or a
//! dark host alike, at WCAG AA contrast: text at least 4.5:1 against the background, chart
//! lines and the accent at least 3:1.

use crate::charts::parse_css_colour;
use plotters::style::RGBColor;

/// WCAG 2's minimum contrast for text, and for graphics (chart lines, a switch's fill).
pub const TEXT_CONTRAST: f64 = 4.5;
pub const GRAPHIC_CONTRAST: f64 = 3.0;

/// The colours the widget takes in its host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostTheme {
    pub dark: bool,
    pub bg: RGBColor,
    pub fg: RGBColor,
    /// Secondary text (captions, table headers).
    pub muted: RGBColor,
    pub accent: RGBColor,
    pub alert: RGBColor,
    /// A panel's card, a shade off the background.
    pub panel: RGBColor,
}

/// WCAG 2's relative luminance of an sRGB colour.
pub fn luminance(RGBColor(r, g, b): RGBColor) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// WCAG 2's contrast ratio of two colours, 1 to 21.
pub fn contrast(a: RGBColor, b: RGBColor) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// `a` mixed with `b`: `share` of `a` (as CSS `color-mix(in srgb, a share, b)`).
pub fn mix(a: RGBColor, b: RGBColor, share: f64) -> RGBColor {
    let m =
        |x: u8, y: u8| (f64::from(x) * share + f64::from(y) * (1.0 - share)).round().clamp(0.0, 255.0) as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// `wanted` if it stands out from `bg` by `ratio`, else the least mix of it towards `toward`
/// that does (`toward` must itself stand out; black or white always do for one of them).
fn at_least(wanted: RGBColor, bg: RGBColor, toward: RGBColor, ratio: f64) -> RGBColor {
    (0..=20)
        .map(|i| mix(toward, wanted, f64::from(i) / 20.0))
        .find(|&c| contrast(c, bg) >= ratio)
        .unwrap_or(toward)
}

/// A CSS colour with its alpha (1 when none is given); None if it does not parse.
fn with_alpha(text: &str) -> Option<(RGBColor, f64)> {
    let colour = parse_css_colour(text)?;
    let t = text.trim();
    let alpha = if let Some(body) = t.strip_prefix("rgba(") {
        body.trim_end_matches(')').split(',').nth(3).and_then(|a| a.trim().parse().ok()).unwrap_or(1.0)
    } else if let Some((_, a)) = t.split_once('/') {
        a.trim().trim_end_matches(')').trim().parse().unwrap_or(1.0)
    } else {
        1.0
    };
    Some((colour, alpha))
}

/// The colour painted behind the widget: `backgrounds` are the computed background colours of
/// its ancestors, nearest first (across shadow roots), down to the first opaque one, and
/// `canvas` the page's own canvas colour (what shows where nothing is painted); the
/// translucent ones are composited over it in order.
pub fn painted(backgrounds: &[&str], canvas: &str) -> RGBColor {
    let mut layers: Vec<(RGBColor, f64)> = Vec::new();
    let mut base = with_alpha(canvas).map_or(RGBColor(255, 255, 255), |(c, _)| c);
    for text in backgrounds {
        let Some((colour, alpha)) = with_alpha(text) else { continue };
        if alpha >= 0.999 {
            base = colour;
            break;
        }
        if alpha > 0.0 {
            layers.push((colour, alpha));
        }
    }
    layers.iter().rev().fold(base, |under, &(c, a)| mix(c, under, a))
}

/// The widget's colours over a painted `bg`, given the text colour `inherited` from the host:
/// the host's own text colour where it reads (4.5:1), else the widget's light or dark one.
pub fn host_theme(inherited: &str, bg: RGBColor) -> HostTheme {
    let (black, white) = (RGBColor(0, 0, 0), RGBColor(255, 255, 255));
    let dark = contrast(bg, white) > contrast(bg, black);
    let extreme = if dark { white } else { black };
    let (default_fg, accent, alert) = if dark {
        (RGBColor(0xE8, 0xE8, 0xE8), RGBColor(0x56, 0xB4, 0xE9), RGBColor(0xFF, 0x9A, 0x57))
    } else {
        (RGBColor(0x22, 0x22, 0x22), RGBColor(0x00, 0x72, 0xB2), RGBColor(0xB3, 0x47, 0x00))
    };
    let fg = parse_css_colour(inherited).filter(|&c| contrast(c, bg) >= TEXT_CONTRAST);
    let fg = fg.unwrap_or_else(|| at_least(default_fg, bg, extreme, TEXT_CONTRAST));
    // secondary text as the stylesheet mixes it (72% of the text colour), unless that reads too
    // faintly: then as much of the text colour as it needs
    let muted = (0..=28)
        .map(|i| mix(fg, bg, 0.72 + f64::from(i) / 100.0))
        .find(|&c| contrast(c, bg) >= TEXT_CONTRAST)
        .unwrap_or(fg);
    HostTheme {
        dark,
        bg,
        fg,
        muted,
        accent: at_least(accent, bg, extreme, GRAPHIC_CONTRAST),
        alert: at_least(alert, bg, extreme, TEXT_CONTRAST),
        panel: if dark { mix(fg, bg, 0.04) } else { bg },
    }
}

fn hex(RGBColor(r, g, b): RGBColor) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

impl HostTheme {
    /// The widget's internal custom properties for this theme, as `name:value` pairs joined by
    /// `;`, with `color-scheme` first.
    pub fn css(&self) -> String {
        let scheme = if self.dark { "dark" } else { "light" };
        let pairs = [
            ("--ap-i-bg", self.bg),
            ("--ap-i-fg", self.fg),
            ("--ap-i-muted", self.muted),
            ("--ap-i-accent", self.accent),
            ("--ap-i-alert", self.alert),
            ("--ap-i-panel", self.panel),
        ];
        let mut out = format!("color-scheme:{scheme}");
        for (name, colour) in pairs {
            out += &format!(";{name}:{}", hex(colour));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_follows_wcag() {
        let (black, white) = (RGBColor(0, 0, 0), RGBColor(255, 255, 255));
        assert!((contrast(black, white) - 21.0).abs() < 1e-9);
        assert!((contrast(white, white) - 1.0).abs() < 1e-9);
        // #767676 on white is the classic 4.54:1
        let grey = RGBColor(0x76, 0x76, 0x76);
        assert!((contrast(grey, white) - 4.54).abs() < 0.01, "{}", contrast(grey, white));
    }

    #[test]
    fn the_painted_background_is_the_first_opaque_one_with_the_translucent_ones_over_it() {
        assert_eq!(
            painted(&["rgba(0, 0, 0, 0)", "rgb(30, 33, 41)", "rgb(255, 255, 255)"], "rgb(255, 255, 255)"),
            RGBColor(30, 33, 41)
        );
        // nothing painted: the canvas
        assert_eq!(painted(&["rgba(0, 0, 0, 0)"], "rgb(18, 18, 18)"), RGBColor(18, 18, 18));
        // half-transparent white over black
        assert_eq!(
            painted(&["rgba(255, 255, 255, 0.5)", "rgb(0, 0, 0)"], "rgb(255, 255, 255)"),
            RGBColor(128, 128, 128)
        );
        assert_eq!(
            painted(&["color(srgb 1 1 1 / 0.5)", "rgb(0, 0, 0)"], "rgb(255, 255, 255)"),
            RGBColor(128, 128, 128)
        );
    }

    /// Every colour meets its contrast over any background, light, dark or mid-grey, whatever
    /// text colour the host gives (here the one that fails on it too).
    #[test]
    fn every_colour_reads_on_any_background() {
        for v in (0..=255).step_by(15) {
            for bg in [RGBColor(v, v, v), RGBColor(v, 255 - v, v / 2), RGBColor(30, 33, 41)] {
                for inherited in ["rgb(34, 34, 34)", "rgb(230, 230, 230)", "rgb(128, 128, 128)", "nonsense"] {
                    let t = host_theme(inherited, bg);
                    for (what, c, ratio) in [
                        ("text", t.fg, TEXT_CONTRAST),
                        ("muted text", t.muted, TEXT_CONTRAST),
                        ("alert", t.alert, TEXT_CONTRAST),
                        ("accent", t.accent, GRAPHIC_CONTRAST),
                    ] {
                        assert!(
                            contrast(c, bg) >= ratio,
                            "{what} {c:?} on {bg:?} ({inherited}): {:.2}",
                            contrast(c, bg)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_dark_host_gets_a_dark_theme_with_its_own_text_colour() {
        // MkDocs Material's slate: text rgba(226, 228, 233, 0.82) reads as its rgb
        let slate = RGBColor(0x1e, 0x21, 0x29);
        let t = host_theme("rgb(226, 228, 233)", slate);
        assert!(t.dark);
        assert_eq!((t.bg, t.fg), (slate, RGBColor(226, 228, 233)));
        assert!(t.css().starts_with("color-scheme:dark;--ap-i-bg:#1e2129;--ap-i-fg:#e2e4e9"), "{}", t.css());
        let light = host_theme("rgb(0, 0, 0)", RGBColor(255, 255, 255));
        assert!(!light.dark && light.fg == RGBColor(0, 0, 0));
    }
}
