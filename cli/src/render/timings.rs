//! `--timings`: how long each phase took, for standard error.

use std::time::Duration;

/// One line per phase with its time and share of the total, then the total.
/// Phases are given in the order they ran.
pub fn timings(phases: &[(&str, Duration)]) -> String {
    let total: Duration = phases.iter().map(|(_, d)| *d).sum();
    let width = phases
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0)
        .max("total".len());
    let mut out = String::from("timings:\n");
    for (name, d) in phases {
        let share = if total.is_zero() {
            0.0
        } else {
            100.0 * d.as_secs_f64() / total.as_secs_f64()
        };
        out.push_str(&format!(
            "  {name:width$}  {:>10}  {share:>5.1}%\n",
            millis(*d)
        ));
    }
    out.push_str(&format!("  {:width$}  {:>10}\n", "total", millis(total)));
    out
}

fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_shares_and_total() {
        let text = timings(&[
            ("discovery", Duration::from_millis(25)),
            ("read+parse", Duration::from_millis(75)),
        ]);
        assert_eq!(
            text,
            "timings:\n  discovery      25.0 ms   25.0%\n  read+parse     75.0 ms   75.0%\n  total         100.0 ms\n"
        );
        assert_eq!(timings(&[]), "timings:\n  total      0.0 ms\n");
        assert!(timings(&[("a", Duration::ZERO)]).contains("0.0%"));
    }
}
