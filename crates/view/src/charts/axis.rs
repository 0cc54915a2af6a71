//! One axis type for every chart. plotters' drawing code (the mesh, its labels, each series and
//! element) is generic over the chart's pair of axis types, and each pair a chart used was
//! compiled apart: five pairs, five copies of that code in the page's wasm. Every chart's axes
//! are now an `Axis`, whose values are `f64`, so the code is compiled once. Each kind keeps
//! plotters' own range inside and hands it every question (where a value goes, which ticks,
//! how a tick is written), so a chart draws the same pixels and labels as with that range.

use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::combinators::{BindKeyPoints, IntoLogRange, LogCoord, WithKeyPoints};
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::{RangedCoordf64, RangedCoordu32, RangedCoordusize};
use plotters::prelude::ChartContext;
use std::ops::Range;

/// A chart of any panel: both axes `Axis`, every point `(f64, f64)`.
pub type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

pub enum Axis {
    /// Whole numbers counted from a start (steps, layers): plotters' `usize` range, whose
    /// ticks are whole numbers and written as such.
    Count(RangedCoordusize),
    /// Whole numbers (a histogram's counts): plotters' `u32` range.
    Whole(RangedCoordu32),
    Linear(RangedCoordf64),
    /// Logarithmic, with plotters' own ticks.
    Log(LogCoord<f64>),
    /// Logarithmic, with the ticks given.
    LogAt(WithKeyPoints<LogCoord<f64>>),
}

impl Axis {
    pub fn count(range: Range<usize>) -> Axis {
        Axis::Count(range.into())
    }

    pub fn whole(range: Range<u32>) -> Axis {
        Axis::Whole(range.into())
    }

    pub fn linear(range: Range<f64>) -> Axis {
        Axis::Linear(range.into())
    }

    pub fn log(range: Range<f64>) -> Axis {
        Axis::Log(range.log_scale().into())
    }

    /// Logarithmic over `range`, its ticks at `ticks`.
    pub fn log_at(range: Range<f64>, ticks: Vec<f64>) -> Axis {
        Axis::LogAt(range.log_scale().with_key_points(ticks))
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    // A `Count`'s or a `Whole`'s values are whole numbers, exact in an f64: the cast back gives
    // the number plotters would have mapped.
    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        match self {
            Axis::Count(r) => r.map(&(*value as usize), limit),
            Axis::Whole(r) => r.map(&(*value as u32), limit),
            Axis::Linear(r) => r.map(value, limit),
            Axis::Log(r) => r.map(value, limit),
            Axis::LogAt(r) => r.map(value, limit),
        }
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match self {
            Axis::Count(r) => r.key_points(hint).into_iter().map(|v| v as f64).collect(),
            Axis::Whole(r) => r.key_points(hint).into_iter().map(f64::from).collect(),
            Axis::Linear(r) => r.key_points(hint),
            Axis::Log(r) => r.key_points(hint),
            Axis::LogAt(r) => r.key_points(hint),
        }
    }

    fn range(&self) -> Range<f64> {
        match self {
            Axis::Count(r) => {
                let Range { start, end } = r.range();
                start as f64..end as f64
            }
            Axis::Whole(r) => {
                let Range { start, end } = r.range();
                f64::from(start)..f64::from(end)
            }
            Axis::Linear(r) => r.range(),
            Axis::Log(r) => r.range(),
            Axis::LogAt(r) => r.range(),
        }
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> Range<i32> {
        match self {
            Axis::Count(r) => r.axis_pixel_range(limit),
            Axis::Whole(r) => r.axis_pixel_range(limit),
            Axis::Linear(r) => r.axis_pixel_range(limit),
            Axis::Log(r) => r.axis_pixel_range(limit),
            Axis::LogAt(r) => r.axis_pixel_range(limit),
        }
    }
}

/// A tick's label where the chart gives no formatter: as plotters writes its range's values
/// (`Debug`), a whole number without a decimal point.
impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, value: &f64) -> String {
        match self {
            Axis::Count(_) => format!("{:?}", *value as usize),
            Axis::Whole(_) => format!("{:?}", *value as u32),
            _ => format!("{value:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, LightPoints};

    /// Each kind maps, ticks and writes as the plotters range inside it.
    #[test]
    fn an_axis_answers_as_its_plotters_range() {
        let limit = (37, 611);
        let count = Axis::count(0..97);
        let plain: RangedCoordusize = (0..97).into();
        for v in [0usize, 1, 13, 50, 96, 97] {
            assert_eq!(count.map(&(v as f64), limit), plain.map(&v, limit), "count {v}");
        }
        let ticks: Vec<f64> = plain.key_points(9usize).into_iter().map(|v| v as f64).collect();
        assert_eq!(count.key_points(9usize), ticks);
        assert_eq!(count.format_ext(&12.0), "12");
        let whole = Axis::whole(0..41);
        let plain: RangedCoordu32 = (0..41).into();
        assert_eq!(whole.map(&17.0, limit), plain.map(&17, limit));
        assert_eq!(whole.format_ext(&40.0), "40");
        let log = Axis::log(1e-3..20.0);
        let plain: LogCoord<f64> = (1e-3..20.0).log_scale().into();
        for v in [1e-3, 0.37, 1.0, 19.9] {
            assert_eq!(log.map(&v, limit), plain.map(&v, limit), "log {v}");
        }
        assert_eq!(log.key_points(5usize), plain.key_points(5usize));
        // the ticks given are the bold ones (labelled), and there are no light ones
        let at = Axis::log_at(1e-2..10.0, vec![0.01, 0.1, 1.0, 10.0]);
        assert_eq!(at.key_points(BoldPoints(5)), vec![0.01, 0.1, 1.0, 10.0]);
        assert_eq!(at.key_points(LightPoints::new(5, 10)), Vec::<f64>::new());
        assert_eq!(Axis::linear(-4.0..4.0).format_ext(&0.5), "0.5");
        assert_eq!(Axis::linear(-4.0..4.0).range(), -4.0..4.0);
    }
}
