//! The comparisons, one module each: its names (its entry of `config::COMPARISONS`), its
//! state, how its arms become jobs and how it starts, what it takes from its finished jobs,
//! its JSON for `ablate` and for `.value`, its panel's words and its chart, behind one trait,
//! `Comparison`. The registry at the foot of this file lists them; the page's record of every
//! panel and the SVG figures (`page.rs`), the scheduler of their jobs (`runs.rs`), `ablate`
//! and the wasm `View` read it, and the generated files read the names table. A new comparison
//! is a module here, a line of the registry and its entry in `config/comparisons.rs`.

// Index loops over tokens and features read like the equations they implement.
#![allow(clippy::needless_range_loop)]

pub mod all_four;
pub mod depth_width;
pub mod elsewhere;
pub mod knockout;
pub mod page;
mod runs;
pub mod sweep;
pub mod tuner;

pub use all_four::{all_four_arms_here, all_four_here};
pub use depth_width::depth_width_here;
pub use knockout::knockout_here;
pub use runs::{Comparisons, Group};
pub use sweep::sweep_here;

use ablation_core::config::{ComparisonSpec, Config, Settings};
use ablation_training::live::frame::Frame;
use ablation_training::measures::tuned_lens::TunedLensState;
use ablation_training::runs::pinned::PinState;
use ablation_view::charts::{ChartResult, Theme};
use ablation_view::json::Json;
use ablation_view::json_arms::{pins_json, tuned_lens_json};
use ablation_view::panels::{Scene, Surface};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One comparison: the page's panel for it, its field of `.value` and of `ablate`'s report.
pub trait Comparison {
    /// Its place in the registry.
    const KIND: ComparisonKind;
    /// Its names: panel, methods, `.value` field, flag (`config/comparisons.rs`).
    const SPEC: &'static ComparisonSpec;
    /// Its SVG figure's size.
    const SIZE: (u32, u32) = ablation_view::panels::SIZE;
    /// Where its jobs stand in the pool's queue: 0 before the pins' (quick measurements), then
    /// by rank after them.
    const RANK: u8;
    /// What it shows, as far as its runs got.
    type State: Clone + std::fmt::Debug + PartialEq;

    /// Starts it at `config` (the live run's settings), its jobs for the pool, replacing one
    /// under way; nothing for a comparison of the live run's stack (`SPEC.from_live_stack`),
    /// which the live run's worker starts.
    fn start(comparisons: &mut Comparisons, config: &Config);
    /// Its state from its jobs so far.
    fn state(group: &Group) -> Self::State;
    /// Its panel has something to draw.
    fn ready(_state: &Self::State) -> bool {
        true
    }
    /// Its field of `.value` and the events (`null` while it has nothing to show).
    fn value(state: &Self::State) -> Json;
    /// Its field of `ablate`'s report.
    fn report(state: &Self::State) -> Json;
    /// Its panel's summary (the chart's text alternative) and what else the page writes beside
    /// it (its tables), before it starts too.
    fn words(state: Option<&Self::State>, scene: &Scene) -> (String, Vec<(&'static str, Json)>);
    /// Its chart, once ready.
    fn draw<DB: Surface>(state: &Self::State, area: &DrawingArea<DB, Shift>, theme: &Theme) -> ChartResult;
    /// What its runs wrote, as `(name, text)` (a sequence task's), for the page's `writes`.
    fn writings(_state: &Self::State) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// The registry: `field: module::Type` per comparison, in the page's order (the field is the
/// comparison's in `ComparisonsState`, as its `.value` field). Writes `ComparisonKind`, the state of all
/// of them, and the scheduler's groups.
macro_rules! registry {
    ($($field:ident: $module:ident::$ty:ident),* $(,)?) => {
        /// Each comparison of the registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ComparisonKind {
            $($ty),*
        }

        /// What the page draws of the comparisons: the pins, the tuned lens and each
        /// comparison's state (`None` before it starts), and every job that failed.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct ComparisonsState {
            pub pins: Vec<PinState>,
            pub tuned_lens: Option<TunedLensState>,
            $(pub $field: Option<<$module::$ty as Comparison>::State>,)*
            /// Every job that failed, as "what: why" (`Comparisons::failures`).
            pub failures: Vec<String>,
        }

        impl ComparisonKind {
            /// Every comparison, in the page's order.
            pub const ALL: &'static [ComparisonKind] = &[$(ComparisonKind::$ty),*];

            pub fn spec(self) -> &'static ComparisonSpec {
                match self {
                    $(ComparisonKind::$ty => <$module::$ty as Comparison>::SPEC),*
                }
            }

            pub fn size(self) -> (u32, u32) {
                match self {
                    $(ComparisonKind::$ty => <$module::$ty as Comparison>::SIZE),*
                }
            }

            const fn rank(self) -> u8 {
                match self {
                    $(ComparisonKind::$ty => <$module::$ty as Comparison>::RANK),*
                }
            }

            /// Every comparison in the order its jobs are handed out (by rank; `RANK`).
            const QUEUE: [ComparisonKind; [$(ComparisonKind::$ty),*].len()] = {
                let mut kinds = [$(ComparisonKind::$ty),*];
                let mut i = 1;
                while i < kinds.len() {
                    let mut j = i;
                    while j > 0 && kinds[j - 1].rank() > kinds[j].rank() {
                        let k = kinds[j - 1];
                        kinds[j - 1] = kinds[j];
                        kinds[j] = k;
                        j -= 1;
                    }
                    i += 1;
                }
                kinds
            };

            /// Starts it at `config` (`Comparison::start`).
            pub fn start(self, comparisons: &mut Comparisons, config: &Config) {
                match self {
                    $(ComparisonKind::$ty => <$module::$ty as Comparison>::start(comparisons, config)),*
                }
            }

            /// Its panel has something to draw.
            pub fn ready(self, shown: &ComparisonsState) -> bool {
                match self {
                    $(ComparisonKind::$ty => shown.$field.as_ref().is_some_and(<$module::$ty as Comparison>::ready)),*
                }
            }

            /// Its field of `.value`.
            pub fn value(self, shown: &ComparisonsState) -> Json {
                match self {
                    $(ComparisonKind::$ty => shown.$field.as_ref().map_or(Json::Null, <$module::$ty as Comparison>::value)),*
                }
            }

            /// Its panel's words.
            pub fn words(self, shown: &ComparisonsState, scene: &Scene) -> (String, Vec<(&'static str, Json)>) {
                match self {
                    $(ComparisonKind::$ty => <$module::$ty as Comparison>::words(shown.$field.as_ref(), scene)),*
                }
            }

            /// Its chart, when it is ready.
            pub fn draw<DB: Surface>(
                self,
                shown: &ComparisonsState,
                area: &DrawingArea<DB, Shift>,
                theme: &Theme,
            ) -> ChartResult {
                if !self.ready(shown) {
                    return Ok(());
                }
                match self {
                    $(ComparisonKind::$ty => match &shown.$field {
                        Some(state) => <$module::$ty as Comparison>::draw(state, area, theme),
                        None => Ok(()),
                    }),*
                }
            }

            /// What its runs wrote.
            pub fn writings(self, shown: &ComparisonsState) -> Vec<(String, String)> {
                match self {
                    $(ComparisonKind::$ty => shown.$field.as_ref().map_or_else(Vec::new, <$module::$ty as Comparison>::writings)),*
                }
            }
        }

        /// The scheduler's group of jobs of each comparison under way.
        #[derive(Default)]
        struct Groups {
            $($field: Option<Group>,)*
        }

        impl Groups {
            fn get_mut(&mut self, kind: ComparisonKind) -> &mut Option<Group> {
                match kind {
                    $(ComparisonKind::$ty => &mut self.$field),*
                }
            }

            fn get(&self, kind: ComparisonKind) -> Option<&Group> {
                match kind {
                    $(ComparisonKind::$ty => self.$field.as_ref()),*
                }
            }

            fn all_mut(&mut self) -> Vec<Option<&mut Group>> {
                vec![$(self.$field.as_mut()),*]
            }

            /// Each comparison's state into `state`.
            fn fill(&self, state: &mut ComparisonsState) {
                $(state.$field = self.$field.as_ref().map(<$module::$ty as Comparison>::state);)*
            }
        }
    };
}

registry! {
    compare: all_four::AllFour,
    sweep: sweep::DepthSweep,
    depth_width: depth_width::DepthOrWidth,
    knockout: knockout::LayerKnockout,
}

impl Groups {
    /// The groups under way in the pool's order: those ranked 0 (before the pins) if `quick`,
    /// else the rest by rank.
    fn in_queue(&self, quick: bool) -> impl Iterator<Item = &Group> {
        ComparisonKind::QUEUE.iter().filter(move |k| (k.rank() == 0) == quick).filter_map(|&k| self.get(k))
    }
}

/// The comparisons for `.value` and the events: the pins (with their labels against `live`),
/// each comparison's field (`null` until it has something to show), the tuned lens, and every
/// job that failed.
pub fn comparisons_json(shown: &ComparisonsState, live: &Config) -> Json {
    let mut fields = vec![("pins", pins_json(&shown.pins, live))];
    fields.extend(ComparisonKind::ALL.iter().map(|k| (k.spec().field, k.value(shown))));
    fields.push(("tuned_lens", tuned_lens_json(shown.tuned_lens.as_ref())));
    fields.push(("failures", Json::Arr(shown.failures.iter().map(|f| Json::Str(f.clone())).collect())));
    Json::Obj(fields)
}

/// What `.value` and the element's events carry: the settings, the live run's readouts from
/// `frame` (none before the first) and the comparisons.
pub fn value_json(settings: &Settings, frame: Option<&Frame>, shown: &ComparisonsState) -> Json {
    let live = frame.map(|f| f.config.clone()).unwrap_or_else(|| settings.config.clone());
    ablation_view::json_frame::value_json(settings, frame, comparisons_json(shown, &live))
}

impl ComparisonKind {
    /// The comparison whose panel is `name`.
    pub fn of_panel(name: &str) -> Option<ComparisonKind> {
        ComparisonKind::ALL.iter().copied().find(|k| k.spec().panel == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_and_the_names_table_list_the_same_comparisons_in_one_order() {
        let registry: Vec<&str> = ComparisonKind::ALL.iter().map(|k| k.spec().panel).collect();
        let table: Vec<&str> = ablation_core::config::COMPARISONS.iter().map(|c| c.panel).collect();
        assert_eq!(registry, table);
    }
}
