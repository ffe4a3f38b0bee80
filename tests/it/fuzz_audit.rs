//! A fuzz harness for the audit of built HTML (issue 30): hostile `public/` folders, each
//! page's `index.html` one of
//! - a plain head generated at random (robots metas, canonical links, meta refreshes in forms a
//!   browser follows and forms it ignores, decoys in comments, scripts, titles, styles,
//!   templates and the body; UTF-8, UTF-8 or UTF-16 with a byte order mark), whose verdict is
//!   compared with what html5gum's tokenizer (a browser-grade one, used here on its own) and
//!   the HTML standard's refresh steps, written out below from the standard, say;
//! - a FIFO, a socket, a link to `/dev/zero` or to a file outside the output folder (whose
//!   head would leave the page out), a file without read permission (as root, which reads it,
//!   a page like the others): never read, never a hang, the page kept with a warning naming
//!   the file;
//! - a folder, or nothing: no file serves the URL, the page is left out as not built (unless
//!   so many are that the output looks half-built: then all stay listed, with one warning).
//!
//! Each case runs `sitemapgen list --excluded` on the site, killed past a time limit.
//! `cargo test --test it -- --ignored fuzz_audit::` runs it for `FUZZ_SECONDS` (default 60);
//! `FUZZ_SEED` replays a run. A short smoke run is part of the normal test suite.

use crate::common;

use common::{Rng, seed_from_env, write_tree};
use html5gum::{DefaultEmitter, Token, Tokenizer};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BASE: &str = "https://example.com/";
/// A case's time limit (a debug binary on a loaded machine; a hang is minutes).
const LIMIT: Duration = Duration::from_secs(30);

/// What `list --excluded` must say of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Want {
    /// Listed, and no warning about its file.
    Kept,
    /// Listed, with a warning naming its file (which was not read).
    KeptWarned,
    /// Left out for this reason, with this target.
    Out(&'static str, Option<String>),
}

/// A random robots, canonical or refresh tag, or a decoy, for the head of the page at `loc`.
fn head_item(rng: &mut Rng, loc: &str) -> String {
    let q = |rng: &mut Rng, v: &str| match rng.below(3) {
        0 if !v.is_empty() && !v.contains([' ', '\'', '"', '=', '>', '<', '`']) => v.to_string(),
        1 if !v.contains('\'') => format!("'{v}'"),
        _ => format!("\"{}\"", v.replace('"', "&quot;")),
    };
    match rng.below(9) {
        0 | 1 => {
            let name = *rng.pick(&["robots", "ROBOTS", "googlebot", "GoogleBot", "description"]);
            let content = *rng.pick(&[
                "noindex",
                "NoIndex, nofollow",
                "none",
                "index, follow",
                "nofollow",
                "noindex,nofollow",
                " noindex ",
                "noimageindex",
                "max-snippet:-1, noindex",
                "",
            ]);
            let (n, c) = (q(rng, name), q(rng, content));
            if rng.below(2) == 0 {
                format!("<meta name={n} content={c}>")
            } else {
                format!("<META CONTENT={c} NAME={n} />")
            }
        }
        2 | 3 => {
            let rel = *rng.pick(&["canonical", "CANONICAL", "alternate"]);
            let other = format!("{BASE}other/");
            let href = rng.pick(&[loc, other.as_str(), "/other/"]).to_string();
            format!("<link rel={} href={}>", q(rng, rel), q(rng, &href))
        }
        4 | 5 => {
            let time = *rng.pick(&["0", "5", "", " 3", ".5", "1.5.", "5x", "\u{a0}0", "-1"]);
            let sep = *rng.pick(&[";", ",", " ", "", "; ", " ;", ";;"]);
            let own = loc.trim_start_matches(BASE);
            let target = *rng.pick(&["/other/", "other/", "https://example.com/other/", ""]);
            let target = if rng.below(4) == 0 {
                format!("/{own}")
            } else {
                target.to_string()
            };
            let url = match rng.below(6) {
                0 => format!("url={target}"),
                1 => format!("URL = '{target}'"),
                2 => format!("Url=\"{target}\" trailing"),
                3 => format!("ur={target}"),
                4 => target,
                _ => String::new(),
            };
            let equiv = *rng.pick(&["refresh", "Refresh", "REFRESH", "refreshx"]);
            let content = format!("{time}{sep}{url}");
            format!(
                "<meta http-equiv={} content={}>",
                q(rng, equiv),
                q(rng, &content)
            )
        }
        6 => rng
            .pick(&[
                "<!-- <meta name=\"robots\" content=\"noindex\"> -->",
                "<script>document.write('<meta name=\"robots\" content=\"noindex\">')</script>",
                "<title>a <meta name=robots content=noindex> title</title>",
                "<style>/* <link rel=canonical href=\"https://example.com/x/\"> */</style>",
                "<template><meta name=robots content=noindex></template>",
                "<template><template></template><meta http-equiv=refresh content=\"0;url=/t/\"></template>",
                "<script><!-- <script> </script> -->x</script>",
            ])
            .to_string(),
        7 => rng
            .pick(&[
                "<meta charset=\"utf-8\">",
                "<title>T &amp; t</title>",
                "<base href=\"https://example.com/\">",
                "<link rel=\"stylesheet\" href=\"/s.css\">",
                "<!---->",
                "<!-- a -- b -->",
            ])
            .to_string(),
        _ => String::new(),
    }
}

/// A page: its head's items, then the body (which may hold what would count in the head).
fn page_html(rng: &mut Rng, loc: &str) -> String {
    let mut html = String::from(*rng.pick(&["<!DOCTYPE html>", "<!doctype html>\n", ""]));
    html.push_str(rng.pick::<&str>(&["<html><head>", "<html lang=en>\n<head>\n", "<head>", ""]));
    for _ in 0..rng.below(7) {
        html.push_str(&head_item(rng, loc));
        html.push_str(rng.pick::<&str>(&["", "\n", " "]));
    }
    html.push_str(rng.pick::<&str>(&["</head><body>", "</head>\n<body class=x>", "<body>", "<p>"]));
    if rng.below(3) == 0 {
        html.push_str("<meta name=\"robots\" content=\"noindex\">");
        html.push_str("<link rel=\"canonical\" href=\"https://example.com/body/\">");
    }
    html.push_str("<p>text</p></body></html>\n");
    html
}

/// The page's bytes in one of the encodings a browser sniffs from a byte order mark.
fn encoded(rng: &mut Rng, html: &str) -> Vec<u8> {
    match rng.below(5) {
        0 => [b"\xEF\xBB\xBF".as_slice(), html.as_bytes()].concat(),
        1 => {
            let mut b = vec![0xFF, 0xFE];
            b.extend(html.encode_utf16().flat_map(u16::to_le_bytes));
            b
        }
        2 => {
            let mut b = vec![0xFE, 0xFF];
            b.extend(html.encode_utf16().flat_map(u16::to_be_bytes));
            b
        }
        _ => html.as_bytes().to_vec(),
    }
}

/// The HTML standard's "shared declarative refresh steps", step by step: `None` when a
/// browser does not refresh, `Some(None)` when it refreshes the document's own URL, else the
/// URL string (parsed against the document's base URL).
fn refresh_steps(input: &str) -> Option<Option<String>> {
    let s: Vec<char> = input.chars().collect();
    let ws = |c: char| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ');
    let mut p = 0;
    let skip = |p: &mut usize| {
        while s.get(*p).is_some_and(|&c| ws(c)) {
            *p += 1;
        }
    };
    if s.is_empty() {
        return None;
    }
    skip(&mut p);
    let digits = p;
    while s.get(p).is_some_and(char::is_ascii_digit) {
        p += 1;
    }
    if p == digits && s.get(p) != Some(&'.') {
        return None;
    }
    while s.get(p).is_some_and(|c| c.is_ascii_digit() || *c == '.') {
        p += 1;
    }
    if p < s.len() {
        if !(s[p] == ';' || s[p] == ',' || ws(s[p])) {
            return None;
        }
        skip(&mut p);
        if matches!(s.get(p), Some(';' | ',')) {
            p += 1;
        }
        skip(&mut p);
    }
    if p >= s.len() {
        return Some(None);
    }
    let mut start = p;
    // "URL", in any case, then optional whitespace, "=" and whitespace; else the rest as is.
    let is = |p: usize, c: char| s.get(p).is_some_and(|x| x.eq_ignore_ascii_case(&c));
    if is(p, 'u') && is(p + 1, 'r') && is(p + 2, 'l') {
        let mut q = p + 3;
        skip(&mut q);
        if s.get(q) == Some(&'=') {
            q += 1;
            skip(&mut q);
            start = q;
        }
    }
    let mut url: String = s[start..].iter().collect();
    if let Some(quote) = url.chars().next().filter(|c| *c == '\'' || *c == '"') {
        url = url[1..].to_string();
        if let Some(end) = url.find(quote) {
            url.truncate(end);
        }
    }
    Some(Some(url))
}

/// What a browser-grade tokenizer's tokens say of the head.
#[derive(Debug, Default)]
struct Facts {
    noindex: bool,
    canonical: Option<String>,
    /// The first refresh that parses: its URL string, if it has one.
    refresh: Option<Option<String>>,
    /// The first `<base href>`.
    base: Option<String>,
    /// The base came before the refresh (the refresh resolves against it).
    base_first: bool,
}

/// What html5gum's tokenizer (states switched as a browser's tree builder switches them)
/// makes of the head of `html`.
fn oracle(html: &str) -> Facts {
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut f = Facts::default();
    let (mut conflict, mut template) = (false, 0usize);
    let in_head = |n: &[u8]| {
        matches!(
            n,
            b"html"
                | b"head"
                | b"meta"
                | b"link"
                | b"title"
                | b"script"
                | b"style"
                | b"noscript"
                | b"noframes"
                | b"template"
                | b"base"
                | b"basefont"
                | b"bgsound"
        )
    };
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        let t = match token {
            Token::StartTag(t) => t,
            Token::EndTag(t) if t.name.as_slice() == b"head" => break,
            Token::EndTag(t) if t.name.as_slice() == b"template" => {
                template = template.saturating_sub(1);
                continue;
            }
            _ => continue,
        };
        let attr = |k: &str| {
            t.attributes
                .get(k.as_bytes())
                .map(|v| String::from_utf8_lossy(&v.value).into_owned())
        };
        match t.name.as_slice() {
            n if !in_head(n) => break,
            b"template" => template += 1,
            _ if template > 0 => {}
            b"meta" => {
                let name = attr("name").unwrap_or_default();
                let name = name.trim_matches(|c: char| c.is_ascii_whitespace());
                let content = attr("content").unwrap_or_default();
                if (name.eq_ignore_ascii_case("robots") || name.eq_ignore_ascii_case("googlebot"))
                    && content.split(',').any(|d| {
                        let d = d.trim_matches(|c: char| c.is_ascii_whitespace());
                        d.eq_ignore_ascii_case("noindex") || d.eq_ignore_ascii_case("none")
                    })
                {
                    f.noindex = true;
                }
                let equiv = attr("http-equiv").unwrap_or_default();
                if f.refresh.is_none() && equiv.eq_ignore_ascii_case("refresh") {
                    f.refresh = attr("content").and_then(|c| refresh_steps(&c));
                    f.base_first = f.base.is_some();
                }
            }
            b"link" => {
                let rel = attr("rel").unwrap_or_default();
                let canonical = rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"));
                match (canonical, attr("href"), &f.canonical) {
                    (true, Some(href), None) => f.canonical = Some(href),
                    (true, Some(href), Some(c)) if *c != href => conflict = true,
                    _ => {}
                }
            }
            b"base" if f.base.is_none() => f.base = attr("href"),
            _ => {}
        }
    }
    if conflict {
        f.canonical = None;
    }
    f
}

/// The verdict for the page at `loc` whose head says `f`: a refresh elsewhere first, then
/// noindex, then a canonical URL elsewhere (sitemapgen's order), URLs resolved as a browser
/// resolves them (against the base, for a refresh only when the base came first).
fn expected(loc: &str, f: Facts) -> Want {
    let page = url::Url::parse(loc).unwrap();
    let base = f.base.as_deref().and_then(|b| page.join(b).ok());
    let base = base.as_ref().unwrap_or(&page);
    let elsewhere = |against: &url::Url, href: &str| {
        against
            .join(href)
            .ok()
            .filter(|t| t.as_str() != page.as_str())
            .map(|t| t.to_string())
    };
    let refresh_base = if f.base_first { base } else { &page };
    if let Some(t) = f
        .refresh
        .flatten()
        .and_then(|r| elsewhere(refresh_base, &r))
    {
        return Want::Out("redirect", Some(t));
    }
    if f.noindex {
        return Want::Out("noindex", None);
    }
    match f
        .canonical
        .filter(|c| c != loc)
        .and_then(|c| elsewhere(base, &c))
    {
        Some(t) => Want::Out("canonical", Some(t)),
        None => Want::Kept,
    }
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// One case from `seed`: returns the pages judged.
fn case(seed: u64, what: &str) -> usize {
    let mut rng = Rng(seed | 1);
    let d = tempfile::tempdir().unwrap();
    let site = d.path().join("site");
    let outside = d.path().join("outside.html");
    std::fs::write(&outside, "<head><meta name=robots content=noindex></head>").unwrap();
    write_tree(
        &site,
        &[
            (
                "config.toml",
                "base_url = \"https://example.com/\"\ngenerate_sitemap = false\n",
            ),
            ("sitemap.toml", "audit = true\n"),
            ("content/_index.md", "+++\ntitle = \"H\"\n+++\n"),
        ],
    );
    let public = site.join("public");
    std::fs::create_dir_all(&public).unwrap();
    std::fs::write(
        public.join("index.html"),
        "<html><head></head><body></body></html>",
    )
    .unwrap();
    std::fs::write(public.join("other.html"), "<html></html>").unwrap();
    let pages = 1 + rng.below(12);
    let mut wants = BTreeMap::new();
    let mut heads = BTreeMap::new();
    let mut listeners = Vec::new();
    for i in 0..pages {
        let name = format!("p{i}");
        write_tree(
            &site,
            &[(&format!("content/{name}.md"), "+++\ntitle = \"P\"\n+++\n")],
        );
        let loc = format!("{BASE}{name}/");
        let dir = public.join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        let index = dir.join("index.html");
        let want = match rng.below(16) {
            0 => {
                mkfifo(&index);
                Want::KeptWarned
            }
            1 => {
                std::os::unix::fs::symlink("/dev/zero", &index).unwrap();
                Want::KeptWarned
            }
            2 => {
                std::os::unix::fs::symlink(&outside, &index).unwrap();
                Want::KeptWarned
            }
            3 => {
                listeners.push(std::os::unix::net::UnixListener::bind(&index).unwrap());
                Want::KeptWarned
            }
            4 => {
                std::fs::create_dir(&index).unwrap();
                Want::Out("not-built", None)
            }
            5 => Want::Out("not-built", None),
            6 => {
                // Unreadable: kept with a warning; as root (which reads it anyway), judged.
                let html = page_html(&mut rng, &loc);
                std::fs::write(&index, html.as_bytes()).unwrap();
                std::fs::set_permissions(&index, std::fs::Permissions::from_mode(0o000)).unwrap();
                let want = match std::fs::read(&index) {
                    Ok(_) => expected(&loc, oracle(&html)),
                    Err(_) => Want::KeptWarned,
                };
                heads.insert(name.clone(), html);
                want
            }
            _ => {
                let html = page_html(&mut rng, &loc);
                std::fs::write(&index, encoded(&mut rng, &html)).unwrap();
                let want = expected(&loc, oracle(&html));
                heads.insert(name.clone(), html);
                want
            }
        };
        wants.insert(name, want);
    }

    // An output missing many of its pages looks half-built: the audit then drops none as not
    // built (at least 2, and more than a quarter of the URLs, the home page included), and
    // says so once.
    let not_built = Want::Out("not-built", None);
    let missing = wants.values().filter(|w| **w == not_built).count();
    let partial = missing >= 2 && missing * 4 > pages + 1;
    if partial {
        for w in wants.values_mut().filter(|w| **w == not_built) {
            *w = Want::Kept;
        }
    }
    // `build` says what it could not read; `list --excluded` what it left out, and why.
    let (_, err) = bounded(&site, &["build"], what, &wants);
    assert_eq!(
        err.contains("so it looks like a stale or half-built output"),
        partial,
        "{what}: {missing} of {} URLs not built: {err}",
        pages + 1
    );
    let (out, _) = bounded(&site, &["list", "--excluded"], what, &wants);
    let mut got: BTreeMap<String, Want> = BTreeMap::new();
    for line in out.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let file = cols[0].strip_prefix("./").unwrap_or(cols[0]);
        let Some(name) = file
            .strip_prefix("content/")
            .and_then(|f| f.strip_suffix(".md"))
        else {
            continue;
        };
        let reason: &'static str = match cols[1] {
            "noindex" => "noindex",
            "canonical" => "canonical",
            "redirect" => "redirect",
            "not-built" => "not-built",
            other => panic!("{what}: {name}: left out as {other}"),
        };
        let target = cols.get(3).filter(|t| **t != "-").map(|t| t.to_string());
        got.insert(name.to_string(), Want::Out(reason, target));
    }
    for (name, want) in &wants {
        let file = format!("public/{name}/index.html");
        let warned = err.lines().any(|l| l.contains(&file));
        let got = got
            .remove(name)
            .unwrap_or(if warned { Want::KeptWarned } else { Want::Kept });
        let head = heads.get(name).map_or("", String::as_str);
        assert_eq!(&got, want, "{what}: {name}: {head:?}\nstderr: {err}");
    }
    assert!(got.is_empty(), "{what}: {got:?}");
    pages
}

/// Runs the binary with `args` in `site`, killed past [`LIMIT`] (a hang); its stdout and
/// stderr, after exit 0.
fn bounded(
    site: &Path,
    args: &[&str],
    what: &str,
    wants: &impl std::fmt::Debug,
) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(site)
        .env_remove("CI")
        .env_remove("SOURCE_DATE_EPOCH")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("{what}: {args:?} still running after {LIMIT:?}: a hang ({wants:?})");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{what}: {args:?}: {err}");
    (out, err)
}

/// Runs cases until `budget` is spent or `max_cases` ran; returns how many ran and the pages
/// they judged.
fn fuzz(budget: Duration, max_cases: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed | 1);
    let started = Instant::now();
    let (mut cases, mut pages) = (0, 0);
    while started.elapsed() < budget && cases < max_cases {
        let case_seed = rng.next();
        pages += case(
            case_seed,
            &format!("case {cases} (FUZZ_SEED={seed}, case seed {case_seed})"),
        );
        cases += 1;
    }
    (cases, pages)
}

#[test]
fn refresh_steps_as_the_standard_writes_them() {
    let cases = [
        ("0; url=/a/", Some(Some("/a/"))),
        ("0;URL = '/a/' x", Some(Some("/a/"))),
        ("0;url=''", Some(Some(""))),
        ("5", Some(None)),
        ("1.5. ;", Some(None)),
        (".5, /a/", Some(Some("/a/"))),
        ("0url=/a/", None),
        ("5x;", None),
        ("\u{a0}0;url=/a/", None),
        ("", None),
        ("0 ur=/a/", Some(Some("ur=/a/"))),
    ];
    for (content, want) in cases {
        let got = refresh_steps(content);
        assert_eq!(got.as_ref().map(|u| u.as_deref()), want, "{content:?}");
    }
}

#[test]
fn fuzz_smoke() {
    // A fixed number of cases from a fixed seed: the same ones every run, however fast the
    // machine (the long run, with --ignored, fuzzes for FUZZ_SECONDS).
    let (cases, _) = fuzz(Duration::MAX, 10, 0x6175_6469);
    assert_eq!(cases, 10);
}

#[test]
#[ignore = "long: run with --ignored (FUZZ_SECONDS, default 60)"]
fn fuzz_audit() {
    let secs = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed = seed_from_env();
    let (cases, pages) = fuzz(Duration::from_secs(secs), usize::MAX, seed);
    println!(
        "fuzz_audit: {cases} public/ folders in {secs} s (FUZZ_SEED={seed}), {pages} pages, every verdict as html5gum and the refresh steps give it, no hang"
    );
}
