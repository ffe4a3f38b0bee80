//! `sitemapgen submit` (IndexNow) against a local server on 127.0.0.1 that plays both the
//! deployed site (key file, live sitemap) and the IndexNow endpoint, and records what it gets:
//! only changed URLs are sent, in batches of at most 10,000; a missing or wrong key file
//! refuses; 429 is retried within bounds; a second submit of the same build sends nothing.

use crate::common;
use crate::common::stderr;

use common::http::{Request, Response, Server};
use common::{text, write_tree};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
const KEY: &str = "0123456789abcdef";

/// What the local server does, changed by the tests as they go.
struct Site {
    /// The key file's body (`None`: 404).
    key_file: Option<String>,
    /// The live sitemap's body (`None`: 404).
    live: Option<String>,
    /// Statuses (and Retry-After) for the POSTs in turn; the last one repeats; empty: 200.
    answers: Vec<(u16, Option<&'static str>)>,
    posts: usize,
}

fn start(site: Site) -> (Server, Arc<Mutex<Site>>) {
    let shared = Arc::new(Mutex::new(site));
    let s = shared.clone();
    let server = Server::start(move |req: &Request| {
        let mut site = s.lock().unwrap();
        match (req.method.as_str(), req.path.as_str()) {
            ("GET", p) if p == format!("/{KEY}.txt") => match &site.key_file {
                Some(k) => Response::new(200, k.clone()),
                None => Response::new(404, "not found"),
            },
            ("GET", "/sitemap.xml") => match &site.live {
                Some(b) => Response::new(200, b.clone()),
                None => Response::new(404, "not found"),
            },
            ("POST", "/indexnow") => {
                let k = site.posts.min(site.answers.len().saturating_sub(1));
                site.posts += 1;
                match site.answers.get(k) {
                    None => Response::new(200, ""),
                    Some((status, retry)) => {
                        let r = Response::new(*status, "slow down");
                        match retry {
                            Some(v) => r.header("Retry-After", v),
                            None => r,
                        }
                    }
                }
            }
            _ => Response::new(404, "not found"),
        }
    });
    (server, shared)
}

fn live_site(key_file: Option<&str>) -> Site {
    Site {
        key_file: key_file.map(str::to_string),
        live: None,
        answers: Vec::new(),
        posts: 0,
    }
}

/// A plain site at the server's URL: a home page and pages `names`, each dated 2024-01-01.
fn site(root: &Path, base: &str, names: &[&str]) {
    let config = format!(
        "base_url = \"{base}/\"\nstyle = \"plain\"\naudit = false\nindexnow_key = \"{KEY}\"\n"
    );
    write_tree(root, &[("sitemap.toml", config.as_str())]);
    for n in names {
        write_tree(
            root,
            &[(
                &format!("content/{n}.md"),
                "---\nlastmod: 2024-01-01\n---\n",
            )],
        );
    }
}

/// A sitemap listing `urls` (path below `base`, lastmod).
fn sitemap(base: &str, urls: &[(&str, &str)]) -> String {
    let mut s = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{NS}\">\n");
    for (path, lastmod) in urls {
        s += &format!("<url><loc>{base}{path}</loc><lastmod>{lastmod}</lastmod></url>\n");
    }
    s + "</urlset>\n"
}

fn submit(root: &Path, server: &Server, extra: &[&str]) -> Output {
    let endpoint = format!("{}/indexnow", server.base);
    let state = root.join("state.json");
    let mut args = vec![
        "submit",
        "--endpoint",
        &endpoint,
        "--state",
        state.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(&args)
        .current_dir(root)
        .env_remove("INDEXNOW_KEY")
        .output()
        .unwrap()
}

fn posted(server: &Server) -> Vec<Value> {
    server
        .to("POST", "/indexnow")
        .iter()
        .map(Request::json)
        .collect()
}

fn url_list(body: &Value) -> Vec<String> {
    body["urlList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn only_changes_are_sent_and_a_second_submit_sends_nothing() {
    let (server, _) = start(live_site(Some(KEY)));
    let base = server.base.clone();
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &base, &["same", "moved", "added"]);
    // Before the deploy: `same` as now, `moved` older, `removed` since deleted; a URL of
    // another site, which is never sent.
    let old = sitemap(
        &base,
        &[
            ("/", "2024-01-01"),
            ("/same/", "2024-01-01"),
            ("/moved/", "2023-06-01"),
            ("/removed/", "2023-06-01"),
        ],
    ) + "";
    let old = old.replace(
        "</urlset>",
        "<url><loc>https://elsewhere.org/x</loc></url></urlset>",
    );
    std::fs::write(d.path().join("before.xml"), old).unwrap();
    let o = submit(d.path(), &server, &["--since", "before.xml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let bodies = posted(&server);
    assert_eq!(bodies.len(), 1, "{bodies:?}");
    let host = base.trim_start_matches("http://");
    assert_eq!(bodies[0]["host"], host);
    assert_eq!(bodies[0]["key"], KEY);
    assert!(
        bodies[0].get("keyLocation").is_none(),
        "the key file is at the root"
    );
    assert_eq!(
        url_list(&bodies[0]),
        [
            format!("{base}/added/"),
            format!("{base}/moved/"),
            format!("{base}/removed/")
        ]
    );
    let order: Vec<String> = server
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(
        order,
        [format!("GET /{KEY}.txt"), "POST /indexnow".to_string()],
        "the key file first"
    );
    let post = &server.to("POST", "/indexnow")[0];
    assert_eq!(
        post.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert!(
        stderr(&o).contains("https://elsewhere.org/x"),
        "{}",
        text(&o)
    );
    assert!(stderr(&o).contains("sent 3 URLs"), "{}", text(&o));

    // The same build again: the state file says search engines know it all.
    let o = submit(d.path(), &server, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(posted(&server).len(), 1, "nothing more sent");
    assert!(
        stderr(&o).contains("nothing changed since the last submission"),
        "{}",
        text(&o)
    );

    // One page edited: only it (and the home page, which takes the newest date) goes.
    write_tree(
        d.path(),
        &[("content/same.md", "---\nlastmod: 2024-03-03\n---\n")],
    );
    let o = submit(d.path(), &server, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let bodies = posted(&server);
    assert_eq!(
        url_list(&bodies[1]),
        [format!("{base}/"), format!("{base}/same/")]
    );
}

#[test]
fn without_a_state_file_the_live_sitemap_is_the_baseline() {
    let (server, shared) = start(live_site(Some(KEY)));
    let base = server.base.clone();
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &base, &["a"]);
    shared.lock().unwrap().live = Some(sitemap(
        &base,
        &[("/", "2024-01-01"), ("/a/", "2023-01-01")],
    ));
    let o = submit(d.path(), &server, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(url_list(&posted(&server)[0]), [format!("{base}/a/")]);
    assert_eq!(server.to("GET", "/sitemap.xml").len(), 1);
    // A dry run prints, sends nothing and keeps the state.
    write_tree(
        d.path(),
        &[("content/b.md", "---\nlastmod: 2024-01-01\n---\n")],
    );
    let before = std::fs::read(d.path().join("state.json")).unwrap();
    let o = submit(d.path(), &server, &["--dry-run"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "# 1 URLs for {} to {base}/indexnow\n{base}/b/\n",
            base.trim_start_matches("http://")
        )
    );
    assert_eq!(posted(&server).len(), 1);
    assert_eq!(std::fs::read(d.path().join("state.json")).unwrap(), before);
}

#[test]
fn batches_hold_at_most_10000_urls() {
    let (server, _) = start(live_site(Some(KEY)));
    let base = server.base.clone();
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &base, &["kept"]);
    // 10,050 pages gone at once.
    let paths: Vec<String> = (0..10_050).map(|i| format!("/old/{i:05}/")).collect();
    let rows: Vec<(&str, &str)> = paths.iter().map(|p| (p.as_str(), "2023-01-01")).collect();
    std::fs::write(d.path().join("before.xml"), sitemap(&base, &rows)).unwrap();
    let o = submit(d.path(), &server, &["--since", "before.xml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let sizes: Vec<usize> = posted(&server).iter().map(|b| url_list(b).len()).collect();
    // The home page and `kept` are new too.
    assert_eq!(sizes, [10_000, 52]);
    let all: std::collections::BTreeSet<String> =
        posted(&server).iter().flat_map(url_list).collect();
    assert_eq!(all.len(), 10_052);
}

#[test]
fn a_missing_or_wrong_live_key_file_refuses_the_submission() {
    for (key_file, says) in [
        (None, "HTTP 404 (Not Found): the deploy is not live yet"),
        (
            Some("another-key-1234"),
            "holds 'another-key-1234', not the key",
        ),
    ] {
        let (server, _) = start(live_site(key_file));
        let d = tempfile::tempdir().unwrap();
        site(d.path(), &server.base, &["a"]);
        std::fs::write(d.path().join("before.xml"), sitemap(&server.base, &[])).unwrap();
        let o = submit(d.path(), &server, &["--since", "before.xml"]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(stderr(&o).contains(says), "{}", text(&o));
        assert!(
            stderr(&o).contains(&format!("{}/{KEY}.txt", server.base)),
            "{}",
            text(&o)
        );
        assert!(posted(&server).is_empty(), "nothing sent");
        assert!(!d.path().join("state.json").exists(), "nothing recorded");
    }
}

#[test]
fn a_429_is_retried_and_repeated_429s_fail_in_bounded_time() {
    let (server, shared) = start(live_site(Some(KEY)));
    shared.lock().unwrap().answers = vec![(429, Some("0")), (200, None)];
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &server.base, &["a"]);
    std::fs::write(d.path().join("before.xml"), sitemap(&server.base, &[])).unwrap();
    let o = submit(d.path(), &server, &["--since", "before.xml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(posted(&server).len(), 2);
    assert_eq!(
        posted(&server)[0],
        posted(&server)[1],
        "the same request again"
    );

    // Throttled every time: five requests, four waits, then exit 2. The first answer asks
    // for a second, which the binary really sleeps; the rest ask for none, as the waits'
    // lengths and their sum are the library's (waits_double_from_two_seconds_and_...).
    let (server, shared) = start(live_site(Some(KEY)));
    shared.lock().unwrap().answers = vec![(429, Some("1")), (429, Some("0"))];
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &server.base, &["a"]);
    std::fs::write(d.path().join("before.xml"), sitemap(&server.base, &[])).unwrap();
    let t = Instant::now();
    let o = submit(d.path(), &server, &["--since", "before.xml"]);
    let took = t.elapsed();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(posted(&server).len(), 5);
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(20),
        "{took:?}"
    );
    assert!(
        stderr(&o).contains("HTTP 429 (Too Many Requests)"),
        "{}",
        text(&o)
    );
    assert!(stderr(&o).contains("5 times"), "{}", text(&o));
    assert!(stderr(&o).contains("throttling"), "{}", text(&o));
}

#[test]
fn refusals_are_explained_and_nothing_is_recorded_for_them() {
    for (status, says) in [
        (400, "malformed"),
        (403, "the key is not valid for this host"),
        (422, "do not belong to the host"),
    ] {
        let (server, shared) = start(live_site(Some(KEY)));
        shared.lock().unwrap().answers = vec![(status, None)];
        let d = tempfile::tempdir().unwrap();
        site(d.path(), &server.base, &["a"]);
        std::fs::write(d.path().join("before.xml"), sitemap(&server.base, &[])).unwrap();
        let o = submit(d.path(), &server, &["--since", "before.xml"]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(stderr(&o).contains(says), "{status}: {}", text(&o));
        assert_eq!(posted(&server).len(), 1, "{status} is not retried");
        // The state records the baseline only: the next run sends the same again.
        let state: Value =
            serde_json::from_slice(&std::fs::read(d.path().join("state.json")).unwrap()).unwrap();
        assert_eq!(state["urls"], serde_json::json!({}), "{status}");
    }
}

#[test]
fn previews_and_keyless_runs_send_nothing() {
    let (server, _) = start(live_site(Some(KEY)));
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &server.base, &["a"]);
    // The error names what asked for the preview: the flag, else sitemap.toml's line.
    let o = submit(d.path(), &server, &["--drafts"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o)
            .contains("error: --drafts: this run lists drafts: a preview build is never submitted"),
        "{}",
        text(&o)
    );
    let toml = std::fs::read_to_string(d.path().join("sitemap.toml")).unwrap();
    std::fs::write(
        d.path().join("sitemap.toml"),
        format!("{toml}include_future = true\n"),
    )
    .unwrap();
    let o = submit(d.path(), &server, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("error: sitemap.toml:5: this run lists future pages"),
        "{}",
        text(&o)
    );
    // sitemap.toml without a key.
    let keyless = || {
        std::fs::write(
            d.path().join("sitemap.toml"),
            format!(
                "base_url = \"{}/\"\nstyle = \"plain\"\naudit = false\n",
                server.base
            ),
        )
        .unwrap()
    };
    keyless();
    let o = submit(d.path(), &server, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains(
            "error: submit: no IndexNow key: INDEXNOW_KEY is not set, nor indexnow_key in sitemap.toml."
        ),
        "{}",
        text(&o)
    );
    // With no sitemap.toml at all, the error does not blame one.
    std::fs::remove_file(d.path().join("sitemap.toml")).unwrap();
    let o = submit(
        d.path(),
        &server,
        &[
            "--base-url",
            &format!("{}/", server.base),
            "--style",
            "plain",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("INDEXNOW_KEY is not set, and there is no sitemap.toml."),
        "{}",
        text(&o)
    );
    keyless();
    // The key from the environment; a malformed one is refused by name.
    let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(["submit", "--dry-run"])
        .current_dir(d.path())
        .env("INDEXNOW_KEY", "bad key")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("INDEXNOW_KEY: an IndexNow key holds only"),
        "{}",
        text(&o)
    );
    assert!(server.requests().is_empty());
}

#[test]
fn urls_the_audit_left_out_are_never_sent() {
    let (server, _) = start(live_site(Some(KEY)));
    let base = server.base.clone();
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &base, &["kept", "hidden"]);
    std::fs::write(
        d.path().join("sitemap.toml"),
        format!("base_url = \"{base}/\"\nstyle = \"plain\"\nindexnow_key = \"{KEY}\"\n"),
    )
    .unwrap();
    // The built output: `hidden` now says noindex.
    let page = "<!doctype html><html><head><title>t</title></head><body>x</body></html>";
    write_tree(
        d.path(),
        &[
            ("public/index.html", page),
            ("public/kept/index.html", page),
            (
                "public/hidden/index.html",
                "<!doctype html><html><head><meta name=\"robots\" content=\"noindex\"></head><body>x</body></html>",
            ),
        ],
    );
    std::fs::write(
        d.path().join("before.xml"),
        sitemap(
            &base,
            &[
                ("/", "2024-01-01"),
                ("/kept/", "2023-01-01"),
                ("/hidden/", "2023-01-01"),
            ],
        ),
    )
    .unwrap();
    let o = submit(d.path(), &server, &["--since", "before.xml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let bodies = posted(&server);
    assert_eq!(bodies.len(), 1, "{}", text(&o));
    assert_eq!(url_list(&bodies[0]), [format!("{base}/kept/")]);
}

#[test]
fn waits_double_from_two_seconds_and_a_long_retry_after_is_cut() {
    use sitemapgen::indexnow::Batch;
    use sitemapgen::indexnow::send::{Retry, send_batch};
    for (retry_after, want) in [(None, vec![2, 4, 8, 16]), (Some("3600"), vec![60, 60])] {
        let (server, shared) = start(live_site(Some(KEY)));
        shared.lock().unwrap().answers = vec![(503, retry_after)];
        let endpoint = url::Url::parse(&format!("{}/indexnow", server.base)).unwrap();
        let batch = Batch {
            host: "127.0.0.1".into(),
            key_location: None,
            key_file: url::Url::parse(&format!("{}/{KEY}.txt", server.base)).unwrap(),
            urls: vec![format!("{}/a/", server.base)],
        };
        let mut waits = Vec::new();
        let client = sitemapgen::net::Client::default();
        let err = send_batch(
            &client,
            &endpoint,
            &batch,
            KEY,
            &Retry::default(),
            &mut |d| waits.push(d.as_secs()),
        )
        .unwrap_err();
        assert_eq!(waits, want, "{retry_after:?}");
        assert_eq!(posted(&server).len(), want.len() + 1);
        assert!(err.to_string().contains("HTTP 503"), "{err}");
    }
}

#[test]
fn build_writes_the_key_file_as_one_of_its_own() {
    let d = tempfile::tempdir().unwrap();
    site(d.path(), "https://example.com", &["a"]);
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
            .args(args)
            .current_dir(d.path())
            .env_remove("INDEXNOW_KEY")
            .output()
            .unwrap()
    };
    // build names the key file it wrote, in its summary line.
    let o = run(&["build"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).starts_with(&format!(
            "wrote 2 URLs to ./public/sitemap.xml and the IndexNow key file ./public/{KEY}.txt in "
        )),
        "{}",
        text(&o)
    );
    let key_file = d.path().join(format!("public/{KEY}.txt"));
    assert_eq!(std::fs::read_to_string(&key_file).unwrap(), KEY);
    let record = sitemapgen::sitemap::owned::Record::read(&d.path().join("public")).unwrap();
    assert!(record.names(&format!("{KEY}.txt")));
    let o = run(&["check", "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    std::fs::remove_file(&key_file).unwrap();
    let o = run(&["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o).starts_with(&format!(
            "warning: ./public/{KEY}.txt: the IndexNow key is set, but its key file is not in the output folder: run `sitemapgen build` and deploy the file with the site, or `submit` is refused\n"
        )),
        "{}",
        text(&o)
    );
    // Elsewhere when asked; the old one, ours, goes.
    let config = "base_url = \"https://example.com/\"\nstyle = \"plain\"\naudit = false\nindexnow_key = \"0123456789abcdef\"\nindexnow_key_location = \"k/key.txt\"\n";
    std::fs::write(d.path().join("sitemap.toml"), config).unwrap();
    let o = run(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(d.path().join("public/k/key.txt")).unwrap(),
        KEY
    );
    // No key, no key file: ours is removed.
    let config = "base_url = \"https://example.com/\"\nstyle = \"plain\"\naudit = false\n";
    std::fs::write(d.path().join("sitemap.toml"), config).unwrap();
    let o = run(&["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!d.path().join("public/k/key.txt").exists());
}

/// `submit` with `extra`, the state file at `state`, killed (and the test failed) when it
/// still runs after 20 s.
fn submit_bounded(root: &Path, server: &Server, state: &Path, extra: &[&str]) -> Output {
    let endpoint = format!("{}/indexnow", server.base);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(["submit", "--endpoint", &endpoint, "--state"])
        .arg(state)
        .args(extra)
        .current_dir(root)
        .env_remove("INDEXNOW_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            let o = child.wait_with_output().unwrap();
            panic!("submit still ran after 20 s (killed): {}", text(&o));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_state_file_that_is_a_fifo_or_a_device_is_refused_at_once() {
    let (server, _) = start(live_site(Some(KEY)));
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &server.base, &["a"]);
    let fifo = d.path().join("state.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let to_fifo = d.path().join("to-fifo.json");
    let to_null = d.path().join("null.json");
    std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
    std::os::unix::fs::symlink("/dev/null", &to_null).unwrap();
    for (state, kind) in [
        (&fifo, "a FIFO"),
        (&to_fifo, "a FIFO"),
        (&to_null, "a character device"),
    ] {
        let started = Instant::now();
        let o = submit_bounded(d.path(), &server, state, &[]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let says = format!("{}: not a regular file ({kind})", state.display());
        assert!(stderr(&o).contains(&says), "{}", text(&o));
        assert!(started.elapsed() < Duration::from_secs(10), "{}", text(&o));
        assert!(server.requests().is_empty(), "nothing asked or sent");
    }
}

#[cfg(unix)]
#[test]
fn a_link_planted_at_the_state_files_temporary_name_is_not_followed() {
    let (server, _) = start(live_site(Some(KEY)));
    let d = tempfile::tempdir().unwrap();
    site(d.path(), &server.base, &["a"]);
    std::fs::write(d.path().join("before.xml"), sitemap(&server.base, &[])).unwrap();
    let shared = d.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    let victim = d.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // The shell's PID is sitemapgen's after `exec`: the link sits at the name the old code
    // wrote (`.state.json.tmp-PID`).
    let endpoint = format!("{}/indexnow", server.base);
    let o = Command::new("sh")
        .args([
            "-c",
            r#"ln -s "$1" "$2/.state.json.tmp-$$" && exec "$3" submit --endpoint "$4" --state "$2/state.json" --since before.xml"#,
            "sh",
        ])
        .arg(&victim)
        .arg(&shared)
        .arg(env!("CARGO_BIN_EXE_sitemapgen"))
        .arg(&endpoint)
        .current_dir(d.path())
        .env_remove("INDEXNOW_KEY")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(posted(&server).len(), 1, "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let state = shared.join("state.json");
    assert!(std::fs::symlink_metadata(&state).unwrap().is_file());
    let saved: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(saved["version"], 1, "{saved}");
}
