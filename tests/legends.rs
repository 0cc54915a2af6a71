//! No legend covers data: in every chart with a legend (per-layer, loss with pins, All four,
//! the sweep), at depth 1, 12 and 96, post-norm, the explode preset, on a desktop-sized panel
//! and a phone's (a third as wide, at three device pixels per CSS pixel, as a canvas draws it),
//! no point of any series, and no point of the lines between them, falls inside a legend's box.
//! And the cut axis: on the default sweep, both on and both off stay a fifth of the plot apart.
//! Read from the SVG the chart code writes, which draws with the same calls as the canvas.

use ablation_playground::comparisons::{all_four, sweep};
use ablation_playground::comparisons::{all_four_here, sweep_here};
use ablation_playground::config::{find_preset, Config, NormPlacement};
use ablation_playground::training::live::loss_history::LossHistory;
use ablation_playground::training::step::report::run;
use ablation_playground::view::charts::{self, depth::DepthCurves, loss::HeldOut, Pinned, Theme};
use plotters::prelude::*;

/// (width, height, scale): a desktop panel, and a phone's at three device pixels a CSS pixel.
const SIZES: [(u32, u32, f64); 2] = [(640, 480, 1.0), (1080, 780, 3.0)];

fn settings() -> Vec<(String, Config)> {
    let explode = (find_preset("explode").unwrap().config)();
    vec![
        ("depth 1".into(), Config { depth: 1, ..Config::default() }),
        ("depth 12".into(), Config::default()),
        ("depth 96".into(), Config { depth: 96, ..Config::default() }),
        ("post-norm, depth 48".into(), Config { depth: 48, norm: NormPlacement::Post, ..Config::default() }),
        ("explode".into(), explode),
    ]
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(tag[at..at + tag[at..].find('"')?].to_string())
}

fn tags<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name} ");
    svg.match_indices(&open).map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()]).collect()
}

fn points_of(tag: &str) -> Vec<(f64, f64)> {
    attr(tag, "points")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.split_once(',').map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap())))
        .collect()
}

/// Every legend box (drawn at 85% opacity in the background colour) against every series
/// point: polylines, polygons and dots in a colour other than the text's and the grid's,
/// each segment sampled. A legend's own swatches (two-point lines inside its box) are its own.
fn assert_no_legend_covers_data(svg: &str, what: &str, theme: &Theme) {
    let hex = |RGBColor(r, g, b): RGBColor| format!("#{r:02X}{g:02X}{b:02X}");
    let quiet = [hex(theme.text), hex(theme.grid), hex(theme.background)];
    let boxes: Vec<[f64; 4]> = tags(svg, "rect")
        .into_iter()
        .filter(|t| attr(t, "opacity").as_deref() == Some("0.85"))
        .map(|t| {
            let n = |a| attr(t, a).unwrap().parse::<f64>().unwrap();
            [n("x"), n("y"), n("x") + n("width"), n("y") + n("height")]
        })
        .collect();
    assert!(!boxes.is_empty(), "{what}: no legend drawn");
    let inside = |b: &[f64; 4], (x, y): (f64, f64)| {
        x > b[0] + 0.5 && x < b[2] - 0.5 && y > b[1] + 0.5 && y < b[3] - 0.5
    };
    let mut series = Vec::new();
    for t in tags(svg, "polyline").into_iter().chain(tags(svg, "polygon")) {
        let colour =
            attr(t, "stroke").filter(|c| c != "none").or_else(|| attr(t, "fill")).unwrap_or_default();
        if quiet.contains(&colour) {
            continue;
        }
        let points = points_of(t);
        if points.len() == 2
            && boxes.iter().any(|b| {
                points
                    .iter()
                    .all(|&p| inside(b, p) || p.0 >= b[0] && p.0 <= b[2] && p.1 >= b[1] && p.1 <= b[3])
            })
        {
            continue; // a swatch
        }
        series.push((colour, points));
    }
    for t in tags(svg, "circle") {
        let n = |a| attr(t, a).unwrap().parse::<f64>().unwrap();
        series.push((attr(t, "fill").unwrap_or_default(), vec![(n("cx"), n("cy"))]));
    }
    assert!(!series.is_empty(), "{what}: no series drawn");
    for b in &boxes {
        for (colour, points) in &series {
            for (i, &p) in points.iter().enumerate() {
                let next = points.get(i + 1).copied().unwrap_or(p);
                for k in 0..8 {
                    let t = f64::from(k) / 8.0;
                    let q = (p.0 + (next.0 - p.0) * t, p.1 + (next.1 - p.1) * t);
                    assert!(
                        !inside(b, q),
                        "{what}: the legend box {b:?} covers a point {q:?} of the {colour} series"
                    );
                }
            }
        }
    }
}

fn svg_of(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> charts::ChartResult,
) -> String {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area).unwrap();
    }
    svg
}

#[test]
fn no_legend_covers_the_per_layer_or_the_loss_panels_data() {
    for (what, config) in settings() {
        let r = run(&config, 100);
        let pin = run(&Config { residual: !config.residual, ..config.clone() }, 60);
        let history: LossHistory = r.loss.iter().copied().collect();
        let pinned_history: LossHistory = pin.loss.iter().copied().collect();
        let pins = [Pinned {
            label: "pinned: Residual flipped · step 60".into(),
            history: &pinned_history,
            grad: &pin.last.grad_norm,
            std: &pin.last.act_std,
            band: Vec::new(),
        }];
        for (w, h, scale) in SIZES {
            let theme = Theme::light(scale);
            for with_pins in [false, true] {
                let pins = if with_pins { &pins[..] } else { &[] };
                let curves = DepthCurves {
                    grad_init: &r.init.grad_norm,
                    grad_now: &r.last.grad_norm,
                    std_init: &r.init.act_std,
                    std_now: &r.last.act_std,
                    pins,
                    split: None,
                };
                let svg = svg_of((w, h), |a| charts::depth::draw(a, &curves, &[], &theme));
                assert_no_legend_covers_data(
                    &svg,
                    &format!("per layer, {what}, {w}×{h}, pins {with_pins}"),
                    &theme,
                );
            }
            let svg = svg_of((w, h), |a| {
                charts::loss::draw(a, &history, r.diverged_at, &pins, &HeldOut::default(), &theme)
            });
            assert_no_legend_covers_data(&svg, &format!("loss with a pin, {what}, {w}×{h}"), &theme);
        }
    }
}

#[test]
fn no_legend_covers_all_fours_or_the_sweeps_data() {
    for (what, config) in settings() {
        let four = all_four_here(&config, 200, 2).unwrap();
        let series = sweep_here(&config, &[1, 4, 12, 48], 100, 2).unwrap().series;
        for (w, h, scale) in SIZES {
            let theme = Theme::light(scale);
            let svg = svg_of((w, h), |a| all_four::draw_rows(a, &four.rows, 200, &theme));
            assert_no_legend_covers_data(&svg, &format!("All four, {what}, {w}×{h}"), &theme);
            let svg = svg_of((2 * w, h), |a| sweep::draw_series(a, &[1, 4, 12, 48], &series, 100, &theme));
            assert_no_legend_covers_data(&svg, &format!("sweep, {what}, {}×{h}", 2 * w), &theme);
        }
    }
}

/// At the defaults, residual alone's loss reaches about 1e31 at depth 96: the axis is cut
/// above the comparable combinations, so that both on and both off stay apart, and residual
/// alone is named with its value at the cut.
#[test]
fn the_cut_axis_keeps_both_on_and_both_off_a_fifth_of_the_plot_apart() {
    let depths = [1, 2, 4, 8, 12, 24, 48, 96];
    let series = sweep_here(&Config::default(), &depths, 500, 2).unwrap().series;
    let residual_alone = series[2].final_loss.iter().copied().fold(0.0, f64::max);
    assert!(residual_alone > 1e6, "residual alone reaches {residual_alone}: nothing to cut");
    let theme = Theme::light(1.0);
    let svg = svg_of((1280, 480), |a| sweep::draw_series(a, &depths, &series, 500, &theme));
    let hex = |RGBColor(r, g, b): RGBColor| format!("#{r:02X}{g:02X}{b:02X}");
    let colours = [theme.alert, theme.other, theme.init, theme.now].map(hex);
    // the left chart's dots per combination, by colour (the first 8 of each colour)
    let dots = |colour: &str| -> Vec<(f64, f64)> {
        tags(&svg, "circle")
            .into_iter()
            .filter(|t| attr(t, "fill").as_deref() == Some(colour))
            .take(depths.len())
            .map(|t| (attr(t, "cx").unwrap().parse().unwrap(), attr(t, "cy").unwrap().parse().unwrap()))
            .collect()
    };
    let (off, on) = (dots(&colours[0]), dots(&colours[3]));
    assert_eq!((off.len(), on.len()), (depths.len(), depths.len()));
    // the plot's height: from the y axis's line
    let axis = tags(&svg, "polyline")
        .into_iter()
        .map(points_of)
        .find(|p| p.len() == 2 && p[0].0 == p[1].0 && p[0].1 < p[1].1)
        .unwrap();
    let height = axis[1].1 - axis[0].1;
    let deepest = depths.len() - 1;
    let apart = (off[deepest].1 - on[deepest].1).abs() / height;
    assert!(apart >= 0.2, "at depth 96 both off and both on are {apart:.2} of the plot apart");
    assert!(
        svg.contains("residual alone: 3.4e31 ↑")
            || svg.contains(&format!("residual alone: {} ↑", charts::short(residual_alone))),
        "the cut series is named with its value"
    );
}
