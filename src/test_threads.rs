//! Unit tests only: two tests a core at once (`RUST_TEST_THREADS`, when neither it nor
//! `--test-threads` is given). The slowest unit tests wait on timers and child processes
//! (time limits, a process left holding a pipe); one test a core made them the run's tail
//! (7.0 s against 4.4 s on 2 cores, see docs/performance.md). The integration tests set the
//! same in `tests/it/common`.

/// Runs before `main`, so before the test harness reads the variable or starts a thread.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static TEST_THREADS: extern "C" fn() = test_threads;

#[cfg(target_os = "linux")]
extern "C" fn test_threads() {
    if std::env::var_os("RUST_TEST_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // SAFETY: no other thread exists yet; the harness reads the variable after this.
        unsafe { std::env::set_var("RUST_TEST_THREADS", (2 * cores).to_string()) };
    }
}
