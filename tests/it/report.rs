//! `sitemapgen report`: the whole Markdown of a multilingual site, the HTML file's place and
//! what it never writes over, `--against`, and both reports as a person sees them in a real
//! browser (headless Chromium).

use crate::common;

use common::{run, stdout, text, write_tree};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A Hugo site in two languages with a draft and a page a `[[rules]]` entry excludes.
fn two_languages(root: &Path) {
    write_tree(
        root,
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ntitle = \"Two languages\"\ndefaultContentLanguage = \"en\"\ndisableKinds = [\"sitemap\", \"taxonomy\", \"term\"]\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n",
            ),
            (
                "sitemap.toml",
                "audit = false\nexclude = [\"posts/private/**\"]\n\n[[rules]]\npattern = \"posts/old/**\"\nexclude = true\n",
            ),
            (
                "content/_index.md",
                "---\ntitle: Home\nlastmod: 2024-02-01\n---\n",
            ),
            (
                "content/_index.fr.md",
                "---\ntitle: Accueil\nlastmod: 2024-02-02\n---\n",
            ),
            (
                "content/posts/hello.md",
                "---\ntitle: Hello\ndate: 2024-01-10\nlastmod: 2024-03-05\n---\nHi\n",
            ),
            (
                "content/posts/hello.fr.md",
                "---\ntitle: Bonjour\ndate: 2024-01-10\nlastmod: 2024-03-05\n---\nSalut\n",
            ),
            (
                "content/posts/idea.md",
                "---\ntitle: Idea\ndate: 2024-01-12\ndraft: true\n---\n",
            ),
            (
                "content/posts/seulement.fr.md",
                "---\ntitle: Seulement\ndate: 2024-03-20\n---\n",
            ),
            (
                "content/posts/old/notes.md",
                "---\ntitle: Old\ndate: 2019-05-01\n---\n",
            ),
            (
                "content/posts/private/diary.md",
                "---\ntitle: Diary\ndate: 2024-01-01\n---\n",
            ),
        ],
    );
}

/// Today's date as the report prints it, replaced so whole outputs can be compared.
fn dateless(report: &str) -> String {
    let today = chrono::Utc::now()
        .date_naive()
        .format("%Y-%m-%d")
        .to_string();
    report.replace(&format!("made {today}"), "made TODAY")
}

#[test]
fn markdown_of_a_multilingual_site_has_every_section() {
    let d = tempfile::tempdir().unwrap();
    two_languages(d.path());
    let o = run(d.path(), &["report", "--format", "markdown"]);
    assert!(o.status.success(), "{}", text(&o));
    let want = "\
## Sitemap report: https://example.org/

Hugo 0.168.0 · made TODAY

| URLs listed | content files read | languages | pages left out |
|---:|---:|---|---:|
| 7 | 7 | en, fr | 2 |

### Lastmod health

7 dated URLs from 2024-02-01 to 2024-03-20; 0 undated.

| day | URLs | what dated them |
|---|---:|---|
| 2024-03-05 | 3 | 2 × front matter<br>1 × rollup (the newest page below) |
| 2024-03-20 | 2 | 1 × front matter<br>1 × rollup (the newest page below) |

Dates in the future: 0.

### Left out: 2

**draft** (1): Drafts are not published. To list: Remove `draft: true` (or set it to false) in the front matter, or build with --buildDrafts and run sitemapgen with --drafts.

| file | where it is decided | URL |
|---|---|---|
| ./content/posts/idea.md | ./content/posts/idea.md:4 |  |

**excluded** (1): A rule of sitemap.toml excludes it. To list: Narrow or remove the rule named here in sitemap.toml.

| file | where it is decided | URL |
|---|---|---|
| ./content/posts/old/notes.md | sitemap.toml:5 ([[rules]] pattern 'posts/old/**', exclude = true) | https://example.org/posts/old/notes/ |

Not read at all, so not counted above: the files these `exclude` globs match.
- sitemap.toml:2: exclude \"posts/private/**\"

### Host, robots.txt and the audit

- The audit of the built output did not run.

### URLs by section

| section | URLs | newest lastmod |
|---|---:|---|
| `/` | 1 | 2024-02-01 |
| `/fr/` | 1 | 2024-02-02 |
| `/fr/posts/` | 3 | 2024-03-20 |
| `/posts/` | 2 | 2024-03-05 |
";
    assert_eq!(dateless(&stdout(&o)), want);
}

#[test]
fn the_html_report_goes_to_the_current_folder_and_never_over_a_file_of_the_users() {
    let d = tempfile::tempdir().unwrap();
    two_languages(d.path());
    let o = run(d.path(), &["report"]);
    assert!(o.status.success(), "{}", text(&o));
    let path = d.path().join("sitemap-report.html");
    let html = std::fs::read_to_string(&path).unwrap();
    assert!(html.starts_with(sitemapgen::report::MARK), "{html}");
    assert!(
        !d.path().join("public").exists(),
        "nothing in the output folder"
    );
    // A report written before is replaced; a file of the user's is not, and stays as it was.
    let again = run(d.path(), &["report"]);
    assert!(again.status.success(), "{}", text(&again));
    std::fs::write(&path, "<!DOCTYPE html><p>my page</p>").unwrap();
    let refused = run(d.path(), &["report"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        common::stderr(&refused).contains(
            "sitemap-report.html: a file that is not a sitemapgen report is already there"
        ),
        "{}",
        text(&refused)
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "<!DOCTYPE html><p>my page</p>"
    );
    let left: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn against_an_older_sitemap_it_lists_what_was_added_removed_and_redated() {
    let d = tempfile::tempdir().unwrap();
    two_languages(d.path());
    let old = d.path().join("old.xml");
    std::fs::write(
        &old,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.org/</loc><lastmod>2024-02-01</lastmod></url>\n<url><loc>https://example.org/posts/hello/</loc><lastmod>2024-01-10</lastmod></url>\n<url><loc>https://example.org/posts/gone/</loc></url>\n</urlset>\n",
    )
    .unwrap();
    let o = run(
        d.path(),
        &["report", "--format", "markdown", "--against", "old.xml"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let md = stdout(&o);
    let start = md.find("### Changes since").expect("a changes section");
    let end = md.find("### URLs by section").unwrap();
    assert_eq!(
        &md[start..end],
        "### Changes since old.xml\n\n5 added, 1 removed, 1 re-dated.\n\nAdded:\n- https://example.org/fr/\n- https://example.org/fr/posts/\n- https://example.org/fr/posts/hello/\n- https://example.org/fr/posts/seulement/\n- https://example.org/posts/\nRemoved:\n- https://example.org/posts/gone/\nRe-dated:\n- https://example.org/posts/hello/: 2024-01-10 → 2024-03-05\n\n"
    );
}

#[test]
fn json_is_not_a_report_format() {
    let d = tempfile::tempdir().unwrap();
    two_languages(d.path());
    let o = run(d.path(), &["report", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        common::stderr(&o).contains("--format: report is HTML"),
        "{}",
        text(&o)
    );
    assert!(!d.path().join("sitemap-report.html").exists());
}

/// Chromium (Debian's `chromium`, which .ci/run installs), when this machine has it. Where
/// `SITEMAPGEN_BROWSER_TESTS=1` (CI), its absence is a failure, not a skip.
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok())
        .map(PathBuf::from);
    if found.is_none() && std::env::var_os("SITEMAPGEN_BROWSER_TESTS").is_some_and(|v| v == "1") {
        panic!("SITEMAPGEN_BROWSER_TESTS=1 but no chromium here: .ci/run installs it");
    }
    found
}

/// What a person sees of the report at `html`, measured by a script run in the page in
/// headless Chromium: the counts as shown, the reasons and left-out rows that are visible,
/// the histogram bars drawn with a size, and the URL rows still shown after typing `filter`
/// into the filter box.
fn seen_in_browser(browser: &Path, html: &Path, filter: &str) -> Value {
    const PROBE: &str = r#"<script>
(function(){
function seen(el){var r=el.getBoundingClientRect();return r.width>0&&r.height>0&&getComputedStyle(el).visibility!=='hidden';}
function texts(sel){return Array.prototype.slice.call(document.querySelectorAll(sel)).filter(seen).map(function(e){return e.innerText.replace(/\s+/g,' ').trim();});}
var out={urls:texts('#n-urls')[0],left_out:texts('#n-left-out')[0],languages:texts('#n-languages')[0],
reasons:texts('#left-out summary'),left_out_rows:texts('#left-out tbody tr'),
bars:Array.prototype.slice.call(document.querySelectorAll('#histogram rect.bar')).filter(seen).length,
rows:texts('table.urls tbody tr').length};
var f=document.getElementById('filter');f.value=FILTER;f.dispatchEvent(new Event('input'));
out.filtered=texts('table.urls tbody tr td:first-child');out.shown=texts('#shown')[0];
var pre=document.createElement('pre');pre.id='probe';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
})();
</script>"#;
    let page = std::fs::read_to_string(html).unwrap();
    let probe = PROBE.replace("FILTER", &serde_json::to_string(filter).unwrap());
    let probed = html.with_extension("probe.html");
    std::fs::write(&probed, page.replace("</body>", &format!("{probe}</body>"))).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", probed.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&o.stdout);
    let json = dom
        .split_once("<pre id=\"probe\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(json, _)| {
            json.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .unwrap_or_else(|| panic!("no probe result: {}", text(&o)));
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

#[test]
fn a_person_sees_the_counts_a_reason_and_the_histogram_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no chromium on this machine");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    // The example site, reported from the repository's root as the README runs it.
    let out = d.path().join("example.html");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = run(repo, &["report", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let seen = seen_in_browser(&browser, &out, "hello");
    assert_eq!(seen["urls"], "17", "{seen}");
    assert_eq!(seen["left_out"], "2", "{seen}");
    assert_eq!(seen["languages"], "1", "{seen}");
    assert_eq!(
        seen["reasons"],
        serde_json::json!([
            "draft: 1 page. Drafts are not published.",
            "sitemap-off: 1 page. Its front matter keeps it out of sitemaps."
        ]),
        "{seen}"
    );
    assert_eq!(
        seen["left_out_rows"][0],
        "example-site/content/blog/draft-idea.md example-site/content/blog/draft-idea.md:4",
        "{seen}"
    );
    // The example's 17 dates fall in 7 months.
    assert_eq!(seen["bars"], 7, "{seen}");
    assert_eq!(seen["rows"], 17, "{seen}");
    assert_eq!(
        seen["filtered"],
        serde_json::json!(["/blog/hello-world/"]),
        "{seen}"
    );
    assert_eq!(seen["shown"], "1 of 17 URLs match", "{seen}");

    // A multilingual site: two languages, its excluded page with the rule that excludes it.
    let site = d.path().join("site");
    two_languages(&site);
    let o = run(&site, &["report"]);
    assert!(o.status.success(), "{}", text(&o));
    let seen = seen_in_browser(&browser, &site.join("sitemap-report.html"), "/fr/");
    assert_eq!(seen["urls"], "7", "{seen}");
    assert_eq!(seen["languages"], "2", "{seen}");
    assert_eq!(
        seen["left_out_rows"][1],
        "./content/posts/old/notes.md sitemap.toml:5 ([[rules]] pattern 'posts/old/**', exclude = true) https://example.org/posts/old/notes/",
        "{seen}"
    );
    assert_eq!(seen["bars"], 4, "{seen}");
    assert_eq!(seen["shown"], "4 of 7 URLs match", "{seen}");
}
