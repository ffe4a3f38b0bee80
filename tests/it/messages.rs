//! Messages that guide (issue 28): each test shows the text a user now reads. Reasons named
//! as the user wrote them, `list --excluded` with the URL wherever it is known, `--header`,
//! "did you mean" for unknown keys, type errors with an example, and "no site here".

use crate::common;
use crate::common::{stderr, stdout};

use common::write_tree;
use std::path::Path;
use std::process::{Command, Output};

fn sitemapgen(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        // The texts must not depend on the caller's environment (CI sets some of these).
        .env_remove("HUGO_VERSION")
        .env_remove("HUGO_ENABLEGITINFO")
        .env_remove("HUGO_ENVIRONMENT")
        .env_remove("HUGO_ENV")
        .env_remove("CI")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap()
}

/// A Hugo site whose pages leave themselves out in the ways front matter can.
fn hugo_site(root: &Path) {
    write_tree(
        root,
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
            ),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
            (
                "content/kept.md",
                "---\ntitle: Kept\ndate: 2024-01-02\n---\n",
            ),
            (
                "content/hidden.md",
                "---\ntitle: Hidden\nnoindex: true\n---\n",
            ),
            (
                "content/off.md",
                "---\ntitle: Off\nsitemap:\n  disable: true\n---\n",
            ),
            (
                "content/both.md",
                "---\nsitemap: false\nnoindex: true\n---\n",
            ),
            ("content/draft.md", "---\ntitle: Draft\ndraft: true\n---\n"),
            (
                "content/private/_index.md",
                "---\ntitle: Private\ncascade:\n  noindex: true\n---\n",
            ),
            ("content/private/note.md", "---\ntitle: Note\n---\n"),
        ],
    );
}

#[test]
fn noindex_is_reported_as_noindex_and_every_known_url_is_listed() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path());
    let o = sitemapgen(d.path(), &["--hugo-version", "0.168.0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Each was the author's choice: counted in the summary line, none warned about (the one
    // warning is Hugo's own sitemap, still on).
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.starts_with("warning: ./hugo.toml: Hugo's own sitemap is on"),
        "{err}"
    );
    assert!(
        err.trim_end()
            .ends_with("; 1 draft, 2 pages with sitemap = false and 3 noindex pages left out"),
        "{err}"
    );
    let o = sitemapgen(
        d.path(),
        &[
            "list",
            "--excluded",
            "--header",
            "--hugo-version",
            "0.168.0",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // A draft has no URL (Hugo makes no page for it); every other page has one. `noindex`
    // alone is `noindex`, also when a cascade says it; a `sitemap` key is `sitemap-off`.
    assert_eq!(
        stdout(&o),
        "file\treason\turl\ttarget\trule\n\
         ./content/both.md\tsitemap-off\thttps://example.org/both/\t-\t-\n\
         ./content/draft.md\tdraft\t-\t-\t-\n\
         ./content/hidden.md\tnoindex\thttps://example.org/hidden/\t-\t-\n\
         ./content/off.md\tsitemap-off\thttps://example.org/off/\t-\t-\n\
         ./content/private/_index.md\tnoindex\thttps://example.org/private/\t-\t-\n\
         ./content/private/note.md\tnoindex\thttps://example.org/private/note/\t-\t-\n"
    );
    let o = sitemapgen(
        d.path(),
        &[
            "list",
            "--excluded",
            "--format",
            "jsonl",
            "--hugo-version",
            "0.168.0",
        ],
    );
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(
        lines[..3],
        [
            "{\"file\":\"./content/both.md\",\"reason\":\"sitemap-off\",\"url\":\"https://example.org/both/\"}",
            "{\"file\":\"./content/draft.md\",\"reason\":\"draft\"}",
            "{\"file\":\"./content/hidden.md\",\"reason\":\"noindex\",\"url\":\"https://example.org/hidden/\"}",
        ]
    );
}

#[test]
fn list_prints_a_header_naming_its_columns_when_asked() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path());
    let o = sitemapgen(d.path(), &["list", "--header", "--hugo-version", "0.168.0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("loc\tlastmod\tlastmod_source\tchangefreq\tpriority\tfile\tlastmod_commit")
    );
    assert_eq!(
        lines.next(),
        Some("https://example.org/\t2024-01-02\trollup\t-\t-\t./content/_index.md\t-")
    );
    // Without --header, the rows alone, as scripts read them.
    let o = sitemapgen(d.path(), &["list", "--hugo-version", "0.168.0"]);
    assert!(
        stdout(&o).starts_with("https://example.org/\t"),
        "{}",
        stdout(&o)
    );
    // --unsourced names its three columns too.
    write_tree(
        d.path(),
        &[
            ("public/index.html", "<html><head></head></html>"),
            ("public/search/index.html", "<html><head></head></html>"),
        ],
    );
    let o = sitemapgen(
        d.path(),
        &[
            "list",
            "--unsourced",
            "--header",
            "--hugo-version",
            "0.168.0",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().take(2).collect::<Vec<_>>(),
        [
            "loc\tlastmod\tfile",
            &format!(
                "https://example.org/search/\t-\t{}",
                Path::new(".").join("public/search/index.html").display()
            ),
        ]
    );
}

/// The first line of stderr of a build of `example-site`-like folder with `toml` as its
/// sitemap.toml, which must fail with exit 2.
fn config_error(toml: &str) -> String {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("config.toml", "base_url = \"https://example.com\"\n"),
            ("content/_index.md", "+++\n+++\n"),
            ("sitemap.toml", toml),
        ],
    );
    let o = sitemapgen(d.path(), &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    stderr(&o).lines().next().unwrap_or_default().to_string()
}

#[test]
fn unknown_keys_and_values_get_a_did_you_mean() {
    assert_eq!(
        config_error("imagess = true\n"),
        "error: sitemap.toml:1: unknown key `imagess`: did you mean `images`?"
    );
    assert_eq!(
        config_error("gzip = true\n[[rules]]\npatern = \"blog/**\"\n"),
        "error: sitemap.toml:3: unknown key `patern` in [[rules]]: did you mean `pattern`?"
    );
    // Nothing close: a short table says what it takes; the top level, where to find them all.
    assert_eq!(
        config_error("[[rules]]\npattern = \"a\"\nweight = 1\n"),
        "error: sitemap.toml:3: unknown key `weight` in [[rules]]: it takes `pattern`, `priority`, `changefreq` or `exclude`"
    );
    assert_eq!(
        config_error("frobnicate = 1\n"),
        "error: sitemap.toml:1: unknown key `frobnicate`: `sitemapgen init --config FILE` writes a file with every key, commented"
    );
    assert_eq!(
        config_error("lastmod = [\"front_matter\", \"gti\"]\n"),
        "error: sitemap.toml:1: `lastmod`: unknown value \"gti\": did you mean \"git\"? It takes `front_matter`, `git`, `published`, `mtime`, `date`, `publish_date` or `file_name`"
    );
}

/// Every documented key, misspelled, is suggested: the list comes from the keys' definition,
/// so a key added later is suggested without a change to the messages.
#[test]
fn every_documented_key_is_suggested_for_a_slip() {
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md"),
    )
    .unwrap();
    let start = reference.find("## Every key of `sitemap.toml`").unwrap();
    let keys: Vec<&str> = reference[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|k| !k.starts_with('['))
        .collect();
    assert!(keys.len() >= 30, "{keys:?}");
    for key in keys {
        // Two neighbouring letters swapped, in the middle of the key.
        let mut slip: Vec<char> = key.chars().collect();
        let m = slip.len() / 2;
        slip.swap(m - 1, m);
        let slip: String = slip.into_iter().collect();
        if slip == key {
            continue;
        }
        let err = config_error(&format!("{slip} = 1\n"));
        assert_eq!(
            err,
            format!("error: sitemap.toml:1: unknown key `{slip}`: did you mean `{key}`?")
        );
    }
}

#[test]
fn values_of_the_wrong_type_say_what_the_key_takes_with_an_example() {
    assert_eq!(
        config_error("images = yes\n"),
        "error: sitemap.toml:1: `images = yes`: `images` takes true or false (a word without quotes is no TOML value): for example `images = true`"
    );
    assert_eq!(
        config_error("images = \"no\"\n"),
        "error: sitemap.toml:1: `images` takes true or false, not the string \"no\": for example `images = false`"
    );
    assert_eq!(
        config_error("style = hugo\n"),
        "error: sitemap.toml:1: `style = hugo`: a text value must be quoted: write `style = \"hugo\"`"
    );
    assert_eq!(
        config_error("gzip = true\nlastmod = \"git\"\n"),
        "error: sitemap.toml:2: `lastmod` takes a list, not the string \"git\": for example `lastmod = [\"git\"]`"
    );
    assert_eq!(
        config_error("max_urls_per_file = \"1000\"\n"),
        "error: sitemap.toml:1: `max_urls_per_file` takes a whole number, not the string \"1000\": for example `max_urls_per_file = 1000`"
    );
    assert_eq!(
        config_error("base_url = 5\n"),
        "error: sitemap.toml:1: `base_url` takes a quoted string, not the number 5: for example `base_url = \"text\"`"
    );
}

#[test]
fn unknown_keys_in_a_front_matter_sitemap_table_are_warnings_with_a_did_you_mean() {
    let d = tempfile::tempdir().unwrap();
    hugo_site(d.path());
    write_tree(
        d.path(),
        &[(
            "content/typo.md",
            "---\ntitle: Typo\nsitemap:\n  changefreqq: daily\n  colour: red\n---\n",
        )],
    );
    let o = sitemapgen(d.path(), &["--hugo-version", "0.168.0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning: ./content/typo.md:4: unknown key `changefreqq` in `sitemap`, ignored: did you mean `changefreq`?\n"),
        "{err}"
    );
    assert!(
        err.contains("warning: ./content/typo.md:5: unknown key `colour` in `sitemap`, ignored: it takes `changefreq`, `priority` or `disable`\n"),
        "{err}"
    );
}

/// Zola keeps the page's sitemap keys in `[extra.sitemap]` (another reader than Hugo's): the
/// same warnings, naming the table as the user wrote it.
#[test]
fn unknown_keys_in_a_zola_extra_sitemap_table_are_warnings_with_a_did_you_mean() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "config.toml",
                "base_url = \"https://example.com\"\ngenerate_sitemap = false\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            (
                "content/t.md",
                "+++\ntitle = \"T\"\n[extra.sitemap]\nchangefreqq = \"daily\"\ncolour = \"red\"\npriority = 0.4\n+++\n",
            ),
        ],
    );
    let o = sitemapgen(d.path(), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let warnings: Vec<&str> = std::str::from_utf8(&o.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning: ./content/t.md:4: unknown key `changefreqq` in `extra.sitemap`, ignored: did you mean `changefreq`?",
            "warning: ./content/t.md:5: unknown key `colour` in `extra.sitemap`, ignored: it takes `changefreq`, `priority` or `disable`",
        ]
    );
    // The keys it knows still count: the page keeps its priority.
    let sitemap = std::fs::read_to_string(d.path().join("public/sitemap.xml")).unwrap();
    assert!(
        sitemap.contains("<loc>https://example.com/t/</loc>")
            && sitemap.contains("<priority>0.4</priority>"),
        "{sitemap}"
    );
}

/// A page the generator makes (a taxonomy list) that the audit leaves out has no content
/// file: it is "a generated page", never an empty path, and `list --excluded` shows `-`.
#[test]
fn a_generated_page_left_out_is_named_as_such() {
    let d = tempfile::tempdir().unwrap();
    let page =
        |head: &str| format!("<html><head><title>t</title>{head}</head><body>p</body></html>");
    let noindex = page("<meta name=\"robots\" content=\"noindex\">");
    let plain = page("");
    write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"sitemap\", \"taxonomy\"]\n",
            ),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
            (
                "content/a.md",
                "---\ntitle: A\ndate: 2024-01-02\ntags: [x]\n---\n",
            ),
            ("public/index.html", &plain),
            ("public/a/index.html", &plain),
            ("public/tags/x/index.html", &noindex),
        ],
    );
    let o = sitemapgen(d.path(), &["--verbose", "--hugo-version", "0.168.0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "note: a generated page: left out (noindex): https://example.org/tags/x/: its built page says noindex\n"
        ),
        "{}",
        stderr(&o)
    );
    let o = sitemapgen(
        d.path(),
        &["list", "--excluded", "--hugo-version", "0.168.0"],
    );
    assert_eq!(
        stdout(&o),
        "-\tnoindex\thttps://example.org/tags/x/\t-\t-\n"
    );
}

/// As docs/cli.md says: a page a `[[rules]]` entry excludes is `excluded`, with its URL; a
/// file an `exclude` glob matches is never read, so it is in neither list.
#[test]
fn excluded_by_a_rule_is_listed_with_its_url_and_an_exclude_glob_drops_the_file() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            (
                "config.toml",
                "base_url = \"https://example.com\"\ngenerate_sitemap = false\n",
            ),
            (
                "sitemap.toml",
                "exclude = [\"globbed.md\"]\n[[rules]]\npattern = \"/ruled/\"\nexclude = true\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            ("content/kept.md", "+++\n+++\n"),
            ("content/ruled.md", "+++\n+++\n"),
            ("content/globbed.md", "+++\n+++\n"),
        ],
    );
    let o = sitemapgen(d.path(), &["list", "--excluded"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "./content/ruled.md\texcluded\thttps://example.com/ruled/\t-\tsitemap.toml:3 ([[rules]] pattern '/ruled/', exclude = true)\n"
    );
    let o = sitemapgen(d.path(), &["list"]);
    let locs: Vec<&str> = std::str::from_utf8(&o.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(locs, ["https://example.com/", "https://example.com/kept/"]);
}

#[test]
fn outside_any_site_the_error_says_no_site_here() {
    let d = tempfile::tempdir().unwrap();
    let o = sitemapgen(d.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    let dir = std::path::absolute(d.path()).unwrap();
    assert_eq!(
        stderr(&o),
        format!(
            "error: no site here: no content/ folder and no Hugo or Zola config in {}: run sitemapgen in the site's folder, or point --site at it\n",
            dir.display()
        )
    );
    // A folder of pages is a site: what it lacks is its public URL, named as such.
    write_tree(d.path(), &[("content/a.md", "# A\n")]);
    let o = sitemapgen(d.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: .: no base_url: the site's public URL is needed for every <loc>: pass --base-url URL, or write a sitemap.toml with `sitemapgen init --base-url URL`\n"
    );
}

/// What the site's files decided is said once, one `note:` line each, by default; drafts are
/// counted, not warned about; a second build says the same and no more (issue 40).
#[test]
fn decisions_are_one_line_each_by_default() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[
            (
                "config.toml",
                "base_url = \"https://example.com/\"\ngenerate_sitemap = false\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            ("content/blog/_index.md", "+++\n+++\n"),
            ("content/blog/a.md", "+++\ndate = 2024-01-02\n+++\n"),
            ("content/blog/wip.md", "+++\ndraft = true\n+++\n"),
            // GitHub Pages serves the site: Netlify's rules file is not read.
            ("static/CNAME", "example.com\n"),
            ("static/_redirects", "/blog/a/ /elsewhere/ 301!\n"),
            (
                "sitemap.toml",
                "[[rules]]\npattern = \"blog/**\"\npriority = 0.7\n\n[[rules]]\npattern = \"docs/**\"\nchangefreq = \"weekly\"\n",
            ),
        ],
    );
    let want = "note: host: github-pages, as ./static/CNAME is there; ./static/_redirects passed over, as github-pages does not read it (`host` in sitemap.toml names the host that serves the site)\n\
                warning: sitemap.toml:6: [[rules]] pattern 'docs/**' matches no content file, so the rule does nothing: correct the pattern or remove the rule\n";
    for _ in 0..2 {
        let o = sitemapgen(site, &["build"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        let (said, summary) = err.split_once("wrote ").unwrap();
        assert_eq!(said, want);
        assert!(summary.ends_with("; 1 draft left out\n"), "{err}");
    }
    // The redirect rule was not applied: a/ is listed.
    let xml = std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap();
    assert!(
        xml.contains("<loc>https://example.com/blog/a/</loc>"),
        "{xml}"
    );
    // list says the same on stderr; its rows alone go to stdout.
    let o = sitemapgen(site, &["list"]);
    assert_eq!(stderr(&o), want);
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    // check says the same decisions; --quiet says nothing; JSON carries them.
    let o = sitemapgen(site, &["check"]);
    assert!(
        stderr(&o).starts_with(want.lines().next().unwrap()),
        "{}",
        stderr(&o)
    );
    let o = sitemapgen(site, &["build", "--quiet"]);
    assert_eq!(stderr(&o), "");
    let o = sitemapgen(site, &["build", "--format", "json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        j["decisions"][0],
        want.lines().next().unwrap()["note: ".len()..]
    );

    // The rule that matched nothing, once fixed, says nothing; `host` set names its reason,
    // and Netlify's rule then leaves the redirected page out.
    write_tree(
        site,
        &[(
            "sitemap.toml",
            "host = \"netlify\"\n[[rules]]\npattern = \"blog/**\"\npriority = 0.7\n",
        )],
    );
    let o = sitemapgen(site, &["build"]);
    let err = stderr(&o);
    assert!(
        err.starts_with("note: host: netlify, as set by `host` in sitemap.toml or `--host`\nwarning: ./static/_redirects:1 (/blog/a/ /elsewhere/ 301!) redirects 1 listed URL (https://example.com/blog/a/): left out (redirect); remove the page or the rule to stop this warning\nwrote 2 URLs "),
        "{err}"
    );
}

/// A Hugo site in a git checkout with `enableGitInfo` off (Hugo's default) gets no git dates,
/// and the default output says so once, with how to turn them on; outside git it says nothing.
#[test]
fn git_dates_off_is_said_where_git_could_date() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"sitemap\", \"taxonomy\", \"term\"]\n",
            ),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
        ],
    );
    let o = sitemapgen(site, &["build"]);
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
    std::fs::create_dir(site.join(".git")).unwrap();
    let o = sitemapgen(site, &["build"]);
    let err = stderr(&o);
    assert!(
        err.starts_with("note: lastmod: no git dates, as enableGitInfo is off in ./hugo.toml (Hugo's rule); set it to true, or lastmod in sitemap.toml, to date pages by their commits\nwrote "),
        "{err}"
    );
    // Asked for in sitemap.toml, git dates are on: nothing to say.
    write_tree(
        site,
        &[("sitemap.toml", "lastmod = [\"git\", \"mtime\"]\n")],
    );
    let o = sitemapgen(site, &["build"]);
    assert!(!stderr(&o).contains("enableGitInfo"), "{}", stderr(&o));
}
