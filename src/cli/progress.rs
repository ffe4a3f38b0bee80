//! The progress bar: indicatif on stderr, shown only when a run is slow enough to want one.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sitemapgen::Progress;
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A progress bar on stderr that shows itself only once a run has taken a second, so quick
/// runs (the usual case) print nothing but their summary.
pub struct DelayedBar {
    bar: ProgressBar,
    stop: std::sync::Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl DelayedBar {
    /// A hidden bar, and a timer thread that shows it after a second.
    pub fn start() -> DelayedBar {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        // No colour in the template, so NO_COLOR has nothing to switch off.
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} {msg} {pos}/{len} pages [{wide_bar}] {eta}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message("reading");
        let (tx, rx) = mpsc::channel::<()>();
        let shown = bar.clone();
        let waiter = std::thread::spawn(move || {
            // A message or a hang-up means the run ended first: stay hidden.
            if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(Duration::from_secs(1)) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        DelayedBar {
            bar,
            stop: std::sync::Mutex::new(Some((tx, waiter))),
        }
    }

    /// The callback that moves the bar, for [`sitemapgen::RunOptions::progress`].
    pub fn progress(&self) -> Progress {
        let bar = self.bar.clone();
        Progress(Arc::new(move |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            if done == total {
                bar.set_message("routing, dating and writing");
            }
        }))
    }

    /// Stops the timer and removes the bar (idempotent).
    pub fn clear(&self) {
        let pending = self.stop.lock().ok().and_then(|mut s| s.take());
        if let Some((tx, waiter)) = pending {
            drop(tx);
            let _ = waiter.join();
        }
        self.bar.finish_and_clear();
    }
}
