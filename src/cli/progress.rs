//! The progress bar: indicatif on stderr, shown only when a run is slow enough to want one.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sitemapgen::Progress;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
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
        let forward = Forward::default();
        Progress(Arc::new(move |done, total| {
            forward.step(done, |done| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
                if done == total {
                    bar.set_message("routing, dating and writing");
                }
            })
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

/// Passes on only counts above every count passed on before. Reading threads report as
/// they finish, so a thread that counted 41 can report after one that counted 42: the bar
/// must not step back.
#[derive(Default)]
struct Forward(Mutex<usize>);

impl Forward {
    /// Calls `show(done)` when `done` is a new high, holding the lock so no lower count
    /// overtakes it.
    fn step(&self, done: usize, show: impl FnOnce(usize)) {
        // A poisoned lock means a panicking thread: the run is ending anyway.
        if let Ok(mut high) = self.0.lock()
            && done > *high
        {
            *high = done;
            show(done);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_arriving_out_of_order_never_step_back() {
        let f = Forward::default();
        let mut shown = Vec::new();
        for n in [1, 3, 2, 4, 4, 6, 5] {
            f.step(n, |n| shown.push(n));
        }
        assert_eq!(shown, [1, 3, 4, 6]);
    }

    #[test]
    fn many_threads_still_show_a_rising_sequence() {
        let f = Arc::new(Forward::default());
        let shown = Arc::new(Mutex::new(Vec::new()));
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..2_000 {
                        let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        f.step(n, |n| shown.lock().unwrap().push(n));
                    }
                });
            }
        });
        let shown = shown.lock().unwrap();
        assert!(shown.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(shown.last(), Some(&8_000));
    }
}
