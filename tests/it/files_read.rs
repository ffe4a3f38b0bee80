//! Files a user or a checkout controls are opened without blocking and read with a bound
//! (issue 30): a FIFO, a device or a socket where a file is read is an error or a skip naming
//! it, never a hang; links leaving the folder they belong to are not followed; a file that
//! cannot be read is never taken for one that is not there. Each test names the reproducer in
//! `../shared/reliability/round2/` it stands for.

use crate::common;

use common::{CURRENT_HUGO, text, write_tree};
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

/// Builds a Zola site whose output folder has `public/index.html` and `public/a/index.html`
/// (the latter replaced by the caller).
fn built_site(root: &Path) {
    zola_site(root);
    write_tree(
        root,
        &[
            (
                "public/index.html",
                "<html><head><title>x</title></head></html>",
            ),
            (
                "public/a/index.html",
                "<html><head><title>a</title></head></html>",
            ),
        ],
    );
}

/// The `<loc>`s of `public/sitemap.xml`.
fn locs(site: &Path) -> Vec<String> {
    let xml = std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap();
    common::url_locs(&xml).into_iter().collect()
}

const BOTH: [&str; 2] = ["https://example.com/", "https://example.com/a/"];

/// audit-fifo-hang: a FIFO as a page's `index.html` (or a link to one outside the output)
/// is not read: build, list and check finish, and the page stays listed with a warning.
#[test]
fn a_fifo_page_is_not_read_and_stays_listed_with_a_warning() {
    for through_link in [false, true] {
        let d = tempfile::tempdir().unwrap();
        let site = d.path().join("s");
        built_site(&site);
        let page = site.join("public/a/index.html");
        std::fs::remove_file(&page).unwrap();
        if through_link {
            mkfifo(&d.path().join("fifo"));
            std::os::unix::fs::symlink(d.path().join("fifo"), &page).unwrap();
        } else {
            mkfifo(&page);
        }
        let o = run_bounded(&site, &["build"], 10);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        // What the link leads to is no file: that is said first, wherever it is.
        let why = "not a regular file (a FIFO)";
        assert!(
            stderr.contains("a.md: its built page `./public/a/index.html` was not read: ")
                && stderr.contains(why)
                && stderr.contains("https://example.com/a/ stays listed, unchecked"),
            "{}",
            text(&o)
        );
        assert_eq!(locs(&site), BOTH);
        let o = run_bounded(&site, &["list"], 10);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(String::from_utf8_lossy(&o.stdout).contains("https://example.com/a/"));
        let o = run_bounded(&site, &["check"], 10);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    }
}

/// audit-fifo-hang: a FIFO where the sitemap goes is refused by `build`, which never writes
/// over what it did not make (`check` calls it stale); a FIFO as robots.txt is an error
/// naming it, with `robots_txt = true`.
#[test]
fn a_fifo_sitemap_or_robots_txt_does_not_hang() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    built_site(site);
    mkfifo(&site.join("public/sitemap.xml"));
    let o = run_bounded(site, &["check"], 10);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let o = run_bounded(site, &["build"], 10);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(
            "public/sitemap.xml: a FIFO, socket or device sitemapgen did not write stands where it would write a sitemap file"
        ),
        "{}",
        text(&o)
    );
    std::fs::remove_file(site.join("public/sitemap.xml")).unwrap();
    let o = run_bounded(site, &["build"], 10);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(locs(site), BOTH);
    std::fs::write(site.join("sitemap.toml"), "robots_txt = true\n").unwrap();
    mkfifo(&site.join("public/robots.txt"));
    for cmd in ["build", "check"] {
        let o = run_bounded(site, &[cmd], 10);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(
                "public/robots.txt: not a regular file (a FIFO): make it a regular file, or set robots_txt = false"
            ),
            "{}",
            text(&o)
        );
    }
}

/// audit-symlink-outside: a page file that is a link leaving the output folder is not
/// followed: a file elsewhere never decides a verdict, and a device is never read.
#[test]
fn links_leaving_the_output_folder_are_not_followed() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path().join("s");
    zola_site(&site);
    write_tree(
        d.path(),
        &[
            (
                "elsewhere/private.html",
                "<html><head><meta name=\"robots\" content=\"noindex\"></head></html>",
            ),
            ("s/content/b.md", "+++\ntitle = \"B\"\n+++\n"),
            ("s/content/c.md", "+++\ntitle = \"C\"\n+++\n"),
            ("s/public/index.html", "<html><head></head></html>"),
            // A link inside the output folder is followed.
            (
                "s/public/inside.html",
                "<html><head><meta name=\"robots\" content=\"noindex\"></head></html>",
            ),
        ],
    );
    let link = |target: &Path, page: &str| {
        let at = site.join("public").join(page).join("index.html");
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, at).unwrap();
    };
    link(&d.path().join("elsewhere/private.html"), "a");
    link(Path::new("/dev/zero"), "b");
    link(Path::new("../inside.html"), "c");
    let o = run_bounded(&site, &["build"], 20);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        stderr.contains(
            "a.md: its built page `./public/a/index.html` was not read: a link that leads outside"
        ),
        "{}",
        text(&o)
    );
    assert!(
        stderr.contains("b.md: its built page `./public/b/index.html` was not read: not a regular file (a character device)"),
        "{}",
        text(&o)
    );
    assert_eq!(
        locs(&site),
        [
            "https://example.com/",
            "https://example.com/a/",
            "https://example.com/b/"
        ]
    );
    let o = run_bounded(&site, &["list", "--excluded"], 20);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("c.md\tnoindex\thttps://example.com/c/") && !out.contains("a.md"),
        "{}",
        text(&o)
    );
}

/// audit-unreadable-page-not-built: a built page that cannot be read is not "not built": it
/// stays listed with a warning saying why, in strict mode too. As root (which reads any
/// file) the run drops to `nobody` with setpriv; a link loop, which no one can open, is
/// checked either way.
#[test]
fn a_page_that_cannot_be_read_stays_listed_with_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let setpriv = Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    for (case, can) in [("loop", true), ("no permission", !root || setpriv)] {
        if !can {
            eprintln!("skipped: {case} (root without setpriv)");
            continue;
        }
        let d = tempfile::tempdir().unwrap();
        let site = d.path();
        built_site(site);
        let page = site.join("public/a/index.html");
        let (why, as_nobody) = if case == "loop" {
            std::fs::remove_file(&page).unwrap();
            std::os::unix::fs::symlink("index.html", &page).unwrap();
            ("symbolic links", false)
        } else {
            for e in walkdir(site) {
                let mode = if e.is_dir() { 0o777 } else { 0o666 };
                std::fs::set_permissions(&e, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            std::fs::set_permissions(&page, std::fs::Permissions::from_mode(0o000)).unwrap();
            ("Permission denied", root)
        };
        for strict in [false, true] {
            if strict {
                std::fs::write(site.join("sitemap.toml"), "audit = \"strict\"\n").unwrap();
            }
            let o = if as_nobody {
                let bin = env!("CARGO_BIN_EXE_sitemapgen");
                Command::new("setpriv")
                    .args([
                        "--reuid=65534",
                        "--regid=65534",
                        "--clear-groups",
                        bin,
                        "build",
                    ])
                    .current_dir(site)
                    .env("HUGO_VERSION", CURRENT_HUGO)
                    .output()
                    .unwrap()
            } else {
                run_bounded(site, &["build"], 10)
            };
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(0), "{case}: {}", text(&o));
            assert!(
                stderr.contains("a.md: its built page `./public/a/index.html` was not read: ")
                    && stderr.contains(why)
                    && !stderr.contains("not-built"),
                "{case}: {}",
                text(&o)
            );
            assert_eq!(locs(site), BOTH, "{case}");
        }
    }
}

/// Every path below `dir`, `dir` included.
fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        if out[i].is_dir() && !out[i].is_symlink() {
            for e in std::fs::read_dir(&out[i]).unwrap() {
                out.push(e.unwrap().path());
            }
        }
        i += 1;
    }
    out
}
