//! The bindings in a real browser (headless Chromium through chromedriver): the handles the
//! page's JavaScript holds (settings, session, view), the forgiving URL parsing, frames from
//! session to view, the readouts and the canvas drawing.
#![cfg(target_arch = "wasm32")]

use ablation_playground::web::{Job, SessionHandle as Session, SettingsHandle as Settings, View};
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

/// A live run of the configuration a query gives, answering desired state `generation`.
fn session(query: &str, generation: u32) -> Session {
    Session::new(&Settings::new(query).config_bytes(), generation).unwrap()
}

/// A session's current frame, loaded into a fresh view.
fn view_of(session: &mut Session) -> View {
    let mut view = View::new();
    assert!(view.load(&session.frame(), 0).unwrap());
    view
}

#[wasm_bindgen_test]
fn query_sets_the_state_and_bad_values_fall_back_with_notices() {
    let mut s = Settings::new("?depth=7&residual=off&norm=post&sublayer=attention&seed=5&steps=9");
    assert_eq!(s.get("depth").as_deref(), Some("7"));
    assert_eq!(s.get("residual").as_deref(), Some("off"));
    assert_eq!(s.get("norm").as_deref(), Some("post"));
    assert_eq!(s.get("sublayer").as_deref(), Some("attention"));
    assert_eq!(s.get("steps").as_deref(), Some("9"));
    assert!(s.take_notices().is_empty());
    let mut bad = Settings::new("depth=500&width=31&residual=maybe&lr=%41bc&colour=red");
    assert_eq!(bad.get("depth").as_deref(), Some("96"));
    assert_eq!(bad.get("width").as_deref(), Some("32"));
    let notices = bad.take_notices();
    assert_eq!(notices.len(), 5, "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("unknown parameter \"colour\"")), "{notices:?}");
    assert!(notices.iter().any(|n| n.starts_with("depth:")));
    assert!(bad.take_notices().is_empty(), "notices are handed out once");
}

#[wasm_bindgen_test]
fn a_preset_in_the_query_applies_first() {
    let s = Settings::new("?depth=24&preset=explode");
    assert_eq!(s.get("depth").as_deref(), Some("24"));
    assert_eq!(s.get("optimizer").as_deref(), Some("sgd"));
    assert_eq!(s.get("preset").as_deref(), Some("custom"));
    assert!(!s.query().contains("preset"), "a link carries every parameter, not the preset");
}

#[wasm_bindgen_test]
fn pins_come_from_the_query_leniently_and_go_back_into_it() {
    let mut s = Settings::new("?depth=7&pin=residual:off@50&pin=bogus&pin=@3;depth:2@9;@1");
    assert_eq!(s.get("pin").as_deref(), Some("residual:off@50;@3;depth:2@9"), "the first three good pins");
    let notices = s.take_notices();
    assert_eq!(notices.len(), 2, "the bad pin and the fourth: {notices:?}");
    assert!(s.query().ends_with("&pin=residual:off@50;@3;depth:2@9"), "{}", s.query());
    assert_eq!(
        s.config_bytes(),
        Settings::new("?depth=7").config_bytes(),
        "the engine restarts from the model's parameters alone"
    );
    assert!(s.add_pin(4).is_err(), "at most three");
    s.remove_pin(0);
    s.add_pin(4).unwrap();
    assert_eq!(s.get("pin").as_deref(), Some("@3;depth:2@9;depth:7@4"));
    s.set_leniently("pin", "@1;@2;@3;@4");
    assert_eq!((s.pin_count(), s.take_notices().len()), (3, 1));
}

#[wasm_bindgen_test]
fn query_round_trips() {
    let s = Settings::new("?depth=30&norm=pre&norm_kind=rmsnorm&gain=0.5&lr=0.002&warmup=10");
    let again = Settings::new(&s.query());
    assert_eq!(s.query(), again.query());
    assert!(s.query().contains("depth=30") && s.query().contains("norm_kind=rmsnorm"));
}

#[wasm_bindgen_test]
fn a_bad_set_is_an_error_and_changes_nothing() {
    let mut s = Settings::new("");
    let before = s.query();
    assert!(s.set("depth", "0").is_err());
    assert!(s.set("nonsense", "1").is_err());
    assert_eq!(s.query(), before);
    s.set("depth", "3").unwrap();
    assert_eq!(s.get("depth").as_deref(), Some("3"));
}

#[wasm_bindgen_test]
fn training_moves_the_readouts_and_frames_of_older_generations_are_dropped() {
    let mut session = session("depth=4", 1);
    let mut view = view_of(&mut session);
    assert_eq!((view.step(), view.generation()), (0, 1));
    assert_eq!(session.train(25), 25);
    let old = session.frame();
    assert!(view.load(&old, 1).unwrap());
    assert_eq!(view.step(), 25);
    assert!(
        view.status().starts_with("4 layers · Residual ON · LayerNorm ON (pre) · act. std = "),
        "{}",
        view.status()
    );
    assert!(view.status().ends_with("· step 25"), "25 updates: {}", view.status());
    session.want(&Settings::new("depth=5").config_bytes(), 2, true).unwrap();
    assert!(view.load(&session.frame(), 2).unwrap());
    assert!(!view.load(&old, 2).unwrap(), "a frame from before the restart is dropped");
    assert_eq!((view.step(), view.generation()), (0, 2));
    assert!(view.load(&[1, 2, 3], 0).is_err(), "garbage is an error");
    assert_eq!(view.generation(), 2, "and keeps the last good frame");
}

#[wasm_bindgen_test]
fn a_run_stops_at_its_step_limit() {
    let mut session = session("depth=2&steps=10", 0);
    assert_eq!(session.train(1000), 10);
    assert!(!session.running());
    let view = view_of(&mut session);
    assert!(view.finished() && view.status().ends_with("· finished"), "{}", view.status());
    session.continue_run();
    assert_eq!(session.train(1000), 10);
}

#[wasm_bindgen_test]
fn post_norm_reports_unit_std() {
    let view = view_of(&mut session("depth=12&norm=post&residual=off", 0));
    assert!(view.status().contains("act. std = 1.00"), "{}", view.status());
}

/// The page's colours as it passes them: `[slot, CSS colour]` pairs.
fn palette(pairs: &[(&str, &str)]) -> js_sys::Array {
    pairs.iter().map(|(slot, colour)| js_sys::Array::of2(&(*slot).into(), &(*colour).into())).collect()
}

#[wasm_bindgen_test]
fn the_charts_draw_on_a_canvas_and_follow_the_state() {
    let mut session = session("depth=12", 0);
    session.train(10);
    let view = view_of(&mut session);
    let (h, l, d) = (canvas(400, 300), canvas(400, 300), canvas(400, 300));
    view.draw("histogram", h.clone(), 1.0, false, palette(&[])).unwrap();
    view.draw("loss", l.clone(), 1.0, false, palette(&[])).unwrap();
    view.draw("depth", d.clone(), 1.0, true, palette(&[])).unwrap();
    for c in [&h, &l, &d] {
        assert!(colours(c) > 3, "a chart draws more than a background");
    }
    // the page's colours reach the chart: a purple background instead of white
    view.draw(
        "histogram",
        h.clone(),
        1.0,
        false,
        palette(&[("text", "rgb(255, 255, 255)"), ("background", "rgb(80, 0, 120)")]),
    )
    .unwrap();
    let corner = pixels(&h)[..4].to_vec();
    assert_eq!(corner, [80, 0, 120, 255], "the background follows the computed colour");
    view.draw("histogram", h.clone(), 1.0, false, palette(&[])).unwrap();
    let before = pixels(&h);
    session.want(&Settings::new("depth=96&residual=off&norm=off").config_bytes(), 1, true).unwrap();
    let view = view_of(&mut session);
    view.draw("histogram", h.clone(), 1.0, false, palette(&[])).unwrap();
    assert_ne!(before, pixels(&h), "the histogram follows the configuration");
}

#[wasm_bindgen_test]
fn a_diverged_run_is_a_normal_state() {
    let mut session = session("depth=12&norm=off&gain=3&optimizer=sgd&lr=5", 0);
    session.train(100);
    let view = view_of(&mut session);
    let at = view.diverged_at().expect("this recipe diverges");
    assert!(view.status().contains(&format!("diverged at step {at}")), "{}", view.status());
    assert!(view.caption().contains("diverged"));
    let c = canvas(300, 200);
    view.draw("loss", c.clone(), 2.0, false, palette(&[])).unwrap();
    view.draw("histogram", c, 2.0, false, palette(&[])).unwrap();
    assert_eq!(session.train(10), 0, "a diverged run does not train on");
}

#[wasm_bindgen_test]
fn comparisons_are_jobs_a_worker_runs_from_their_bytes() {
    let settings = Settings::new("depth=2&width=8&tokens=4");
    let mut view = view_of(&mut session("depth=2&width=8&tokens=4", 0));
    view.start_comparison("compare", &settings).unwrap();
    let wanted = view.wanted();
    assert_eq!(wanted.len(), 4, "All four is four jobs");
    for id in wanted {
        let mut job = Job::new(&view.job(id)).unwrap();
        assert_eq!(job.id(), id);
        while !job.advance(50) {
            assert_eq!(view.report(&job.report()).unwrap(), 2, "a report part way is taken");
        }
        assert!(job.progressive(), "All four's curves grow as they train");
        assert_eq!(view.report(&job.report()).unwrap(), 2);
    }
    let panels: serde_json::Value = serde_json::from_str(&view.panels()).unwrap();
    let compare = &panels["panels"]["compare"];
    assert!(view.wanted().is_empty() && compare["ready"] == true);
    let table = compare["table"].as_array().unwrap();
    assert!(
        table.len() == 5 && table.iter().all(|r| r.as_array().unwrap().len() == 6),
        "a header and four rows of six cells (the last whether the runs plateaued): {table:?}"
    );
    let summary = compare["summary"].as_str().unwrap();
    assert!(!summary.contains('…'), "every row finished: {summary}");
    // each row keeps what each depth of its trained stack would predict: x_0, x_1, x_2
    let readout = compare["readout"].as_array().unwrap();
    assert!(readout.len() == 5 && readout[1].as_array().unwrap().len() == 4, "{readout:?}");
    assert!(Job::new(&[1, 2, 3]).is_err(), "garbage is an error");
    assert!(view.report(&[1, 2, 3]).is_err());
    // the knockout travels from the live run's worker to a job
    let mut live = session("depth=3&width=8&tokens=4", 0);
    live.train(5);
    view.start_knockout(&live.knockout_job()).unwrap();
    let mut job = Job::new(&view.job(view.wanted()[0])).unwrap();
    while !job.advance(1) {}
    assert!(view.report(&job.report()).unwrap() == 2);
    let panels: serde_json::Value = serde_json::from_str(&view.panels()).unwrap();
    assert!(panels["panels"]["knockout"]["ready"] == true);
    // a sweep's runs keep no curve: only their end is reported; a report of a replaced job is dropped
    view.start_comparison("sweep", &settings).unwrap();
    let first = view.wanted()[0];
    let mut sweep_job = Job::new(&view.job(first)).unwrap();
    assert!(!sweep_job.progressive());
    let stale = sweep_job.report();
    view.start_comparison("sweep", &settings).unwrap();
    assert_eq!(view.report(&stale).unwrap(), 0);
    let panels: serde_json::Value = serde_json::from_str(&view.panels()).unwrap();
    let summary = panels["panels"]["knockout"]["summary"].as_str().unwrap();
    assert!(summary.contains("At step 5,"), "{summary}");
}
