//! Files a user or a checkout controls are opened without blocking and read with a bound
//! (issue 30): a FIFO, a device or a socket where a file is read is an error or a skip naming
//! it, never a hang; links leaving the folder they belong to are not followed; a file that
//! cannot be read is never taken for one that is not there. Each test names the reproducer in
//! `../shared/reliability/round2/` it stands for.

mod common;

use common::{text, write_tree, CURRENT_HUGO};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `args` in `cwd`, killing it after `secs` (a hang fails the test
/// rather than stopping the suite).
fn run_bounded(cwd: &Path, args: &[&str], secs: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(cwd)
        .env_remove("SOURCE_DATE_EPOCH")
        .env("HUGO_VERSION", CURRENT_HUGO)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().expect("kill");
            let o = child.wait_with_output().expect("output");
            panic!(
                "sitemapgen {args:?} still ran after {secs} s (killed): {}",
                text(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", path.display());
}

/// A Zola site with a home and a page `a`.
fn zola_site(root: &Path) {
    write_tree(
        root,
        &[
            (
                "config.toml",
                "base_url = \"https://example.com/\"\ntitle = \"t\"\n",
            ),
            ("content/_index.md", "+++\ntitle = \"Home\"\n+++\n"),
            ("content/a.md", "+++\ntitle = \"A\"\n+++\n"),
        ],
    );
}

/// config-devzero-unbounded: `--config` naming a FIFO or a device is exit 2 naming it, at once.
#[test]
fn a_config_flag_naming_a_fifo_or_a_device_is_refused_at_once() {
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path());
    let fifo = d.path().join("fifo.toml");
    mkfifo(&fifo);
    for (file, kind) in [
        (fifo.to_str().unwrap(), "a FIFO"),
        ("/dev/zero", "a character device"),
    ] {
        let o = run_bounded(d.path(), &["build", "--config", file], 10);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            stderr.contains(&format!("{file}: not a regular file ({kind})")),
            "{}",
            text(&o)
        );
        assert!(!d.path().join("public/sitemap.xml").exists());
    }
}

/// A config file past the most read is refused naming it, not read into memory whole.
#[test]
fn a_config_file_past_the_limit_is_refused_naming_it() {
    let d = tempfile::tempdir().unwrap();
    zola_site(d.path());
    let big = format!("# {}\n", "x".repeat(16 << 20));
    std::fs::write(d.path().join("sitemap.toml"), big).unwrap();
    let o = run_bounded(d.path(), &["build"], 20);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr.contains("sitemap.toml: larger than 16 MiB (the most read)"),
        "{}",
        text(&o)
    );
}
