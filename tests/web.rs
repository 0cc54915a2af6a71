//! The bindings in a real browser (headless Chromium through chromedriver): the handle the
//! page's JavaScript holds, its forgiving URL parsing, its readouts and its canvas drawing.
#![cfg(target_arch = "wasm32")]

use ablation_playground::web::Playground;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

fn canvas(w: u32, h: u32) -> HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
    c.set_width(w);
    c.set_height(h);
    doc.body().unwrap().append_child(&c).unwrap();
    c
}

/// How many distinct colours the canvas holds (a blank or single-colour canvas has 1).
fn colours(c: &HtmlCanvasElement) -> usize {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let data = ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64).unwrap().data().0;
    let mut seen: Vec<[u8; 4]> = data.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

fn pixels(c: &HtmlCanvasElement) -> Vec<u8> {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64).unwrap().data().0
}

#[wasm_bindgen_test]
fn query_sets_the_state_and_bad_values_fall_back_with_notices() {
    let mut pg = Playground::new("?depth=7&residual=off&norm=post&sublayer=attention&seed=5");
    assert_eq!(pg.get("depth").as_deref(), Some("7"));
    assert_eq!(pg.get("residual").as_deref(), Some("off"));
    assert_eq!(pg.get("norm").as_deref(), Some("post"));
    assert_eq!(pg.get("sublayer").as_deref(), Some("attention"));
    assert!(pg.take_notices().is_empty());
    let mut bad = Playground::new("depth=500&width=31&residual=maybe&lr=%41bc&colour=red");
    assert_eq!(bad.get("depth").as_deref(), Some("96"));
    assert_eq!(bad.get("width").as_deref(), Some("32"));
    let notices = bad.take_notices();
    assert_eq!(notices.len(), 5, "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("unknown parameter \"colour\"")), "{notices:?}");
    assert!(notices.iter().any(|n| n.starts_with("depth:")));
    assert!(bad.take_notices().is_empty(), "notices are handed out once");
}

#[wasm_bindgen_test]
fn query_round_trips() {
    let pg = Playground::new("?depth=30&norm=pre&norm_kind=rmsnorm&gain=0.5&lr=0.002&warmup=10");
    let again = Playground::new(&pg.query());
    assert_eq!(pg.query(), again.query());
    assert!(pg.query().contains("depth=30") && pg.query().contains("norm_kind=rmsnorm"));
}

#[wasm_bindgen_test]
fn a_bad_set_is_an_error_and_changes_nothing() {
    let mut pg = Playground::new("");
    let before = pg.query();
    assert!(pg.set("depth", "0").is_err());
    assert!(pg.set("nonsense", "1").is_err());
    assert_eq!(pg.query(), before);
    pg.set("depth", "3").unwrap();
    assert_eq!(pg.get("depth").as_deref(), Some("3"));
}

#[wasm_bindgen_test]
fn training_moves_the_readouts() {
    let mut pg = Playground::new("depth=4");
    assert_eq!(pg.step(), 0);
    let steps = pg.train(f64::INFINITY, 25);
    assert_eq!(steps, 25);
    assert_eq!(pg.step(), 25);
    pg.measure();
    let losses = pg.losses();
    assert_eq!(losses.len(), 25);
    assert!(losses[24] < losses[0], "{losses:?}");
    assert!(
        pg.status().starts_with("4 layers · Residual ON · LayerNorm ON (pre) · act. std = "),
        "{}",
        pg.status()
    );
    assert!(pg.status().ends_with("· step 24"), "{}", pg.status());
    pg.reset();
    assert_eq!(pg.step(), 0);
}

#[wasm_bindgen_test]
fn post_norm_reports_unit_std() {
    let pg = Playground::new("depth=12&norm=post&residual=off");
    assert!((pg.act_std() - 1.0).abs() < 0.005, "{}", pg.act_std());
    assert!(pg.status().contains("act. std = 1.00"), "{}", pg.status());
}

#[wasm_bindgen_test]
fn the_charts_draw_on_a_canvas_and_follow_the_state() {
    let mut pg = Playground::new("depth=12");
    pg.train(f64::INFINITY, 10);
    pg.measure();
    let (h, l, d) = (canvas(400, 300), canvas(400, 300), canvas(400, 300));
    pg.draw_histogram(h.clone(), 1.0, false).unwrap();
    pg.draw_loss(l.clone(), 1.0, false).unwrap();
    pg.draw_depth(d.clone(), 1.0, true).unwrap();
    for c in [&h, &l, &d] {
        assert!(colours(c) > 3, "a chart draws more than a background");
    }
    let before = pixels(&h);
    pg.set("depth", "96").unwrap();
    pg.set("residual", "off").unwrap();
    pg.set("norm", "off").unwrap();
    pg.measure();
    pg.draw_histogram(h.clone(), 1.0, false).unwrap();
    assert_ne!(before, pixels(&h), "the histogram follows the configuration");
}

#[wasm_bindgen_test]
fn a_diverged_run_is_a_normal_state() {
    let mut pg = Playground::new("depth=12&norm=off&gain=3&optimizer=sgd&lr=5");
    pg.train(f64::INFINITY, 100);
    let at = pg.diverged_at().expect("this recipe diverges");
    pg.measure();
    assert!(pg.status().contains(&format!("diverged at step {at}")), "{}", pg.status());
    assert!(pg.caption().contains("diverged"));
    let c = canvas(300, 200);
    pg.draw_loss(c.clone(), 2.0, false).unwrap();
    pg.draw_histogram(c, 2.0, false).unwrap();
    assert_eq!(pg.train(f64::INFINITY, 10), 0, "a diverged run does not train on");
}
