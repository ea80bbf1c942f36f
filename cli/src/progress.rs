//! Progress on a terminal: which phase runs, and how fast (files or bodies
//! per second), on standard error. Shown only to a person watching: never
//! when standard error is not a terminal, under CI, with `TERM=dumb`, with
//! `-q`, or when the report is in a machine format.

use std::fmt;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress line, or nothing when it is not wanted.
pub struct Progress {
    bar: Option<ProgressBar>,
}

/// What decides whether to show progress.
#[derive(Copy, Clone, Debug)]
pub struct Audience {
    pub stderr_is_terminal: bool,
    /// `-q`, or a machine format (JSON, SARIF, GitHub annotations).
    pub quiet: bool,
    /// Running under CI (`CI` set) or on a terminal that cannot redraw.
    pub ci_or_dumb: bool,
}

impl Audience {
    /// The audience of this process: `quiet` is the command's own choice.
    pub fn current(quiet: bool) -> Audience {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        Audience {
            stderr_is_terminal: std::io::stderr().is_terminal(),
            quiet,
            ci_or_dumb: set("CI") || std::env::var_os("TERM").is_some_and(|t| t == "dumb"),
        }
    }

    pub fn wants_progress(self) -> bool {
        self.stderr_is_terminal && !self.quiet && !self.ci_or_dumb
    }
}

impl Progress {
    /// Progress for `audience`: a hidden one when it wants none.
    pub fn new(audience: Audience) -> Progress {
        if !audience.wants_progress() {
            return Progress::hidden();
        }
        let bar =
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(spinner());
        Progress { bar: Some(bar) }
    }

    /// Progress that shows nothing.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// Starts a phase: a spinner, or a bar over `total` items named `unit`.
    pub fn phase(&self, name: &str, total: Option<(u64, &str)>) {
        let Some(bar) = &self.bar else {
            return;
        };
        // Name and style first, so that no frame mixes the old phase and the new.
        bar.set_prefix(name.to_owned());
        match total {
            Some((n, unit)) => {
                bar.set_style(
                    ProgressStyle::with_template(&format!(
                        "{{spinner}} {{prefix:>15}} [{{bar:30}}] {{pos}}/{{len}} {unit} ({{rate}})"
                    ))
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
                        let _ = write!(w, "{:.0}/s", state.per_sec());
                    })
                    .progress_chars("=> "),
                );
                bar.reset();
                bar.set_length(n);
            }
            None => {
                bar.set_style(spinner());
                bar.reset();
                bar.unset_length();
            }
        }
        // Redraws while a phase without items runs, and shows the first phase.
        bar.enable_steady_tick(Duration::from_millis(100));
    }

    /// One more item of the phase done (callable from any thread).
    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Removes the progress line, before the report is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn spinner() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {prefix:>15} {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_only_for_a_person_at_a_terminal() {
        let at = |stderr_is_terminal, quiet, ci_or_dumb| {
            Audience {
                stderr_is_terminal,
                quiet,
                ci_or_dumb,
            }
            .wants_progress()
        };
        assert!(at(true, false, false));
        assert!(!at(false, false, false), "piped or redirected");
        assert!(!at(true, true, false), "-q or a machine format");
        assert!(!at(true, false, true), "CI logs, TERM=dumb");
    }
}
