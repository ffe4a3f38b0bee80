//! Hugo sites as Hugo reads them (issue 15): a config split over `config/_default/` and
//! `config/<environment>/`, `module.mounts` into `content`, per-section `uglyURLs` and
//! `translationKey`. Each site in `tests/fixtures/hugo15/` was built with the real Hugo
//! 0.168.0 (and 0.111.3 where the two publish differently), and its sitemaps kept beside it
//! (`expected*/`); every test compares every URL and its alternates with Hugo's.

use crate::common;

use common::{percent_decode, text, url_locs, validate_with_xsd, xml_unescape};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `<loc>` -> its `hreflang=href` alternates, sorted, all decoded.
type Urls = BTreeMap<String, Vec<String>>;

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hugo15")
        .join(name)
}

/// The value of attribute `name` in a tag's text.
fn attr(tag: &str, name: &str) -> String {
    let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
    let end = start + tag[start..].find('"').unwrap();
    percent_decode(&xml_unescape(&tag[start..end]))
}

/// Every `<url>` of one sitemap with its alternates.
fn urls_of(xml: &str, out: &mut Urls) {
    for block in xml.split("<url>").skip(1) {
        let block = block.split("</url>").next().unwrap();
        let loc = url_locs(&format!("<url>{block}</url>"))
            .pop_first()
            .unwrap();
        let mut alts: Vec<String> = block
            .split("<xhtml:link")
            .skip(1)
            .map(|l| format!("{}={}", attr(l, "hreflang"), attr(l, "href")))
            .collect();
        alts.sort();
        out.insert(loc, alts);
    }
}

/// Every `sitemap.xml` below `dir` (Hugo writes one per language), read.
fn urls_below(dir: &Path) -> Urls {
    let mut out = Urls::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(urls_below(&p));
        } else if p.file_name().is_some_and(|n| n == "sitemap.xml") {
            urls_of(&std::fs::read_to_string(&p).unwrap(), &mut out);
        }
    }
    out
}

/// Runs `sitemapgen build` on a case with `args` and environment `env`, checks the file
/// against the schemas and returns its URLs.
fn ours(name: &str, args: &[&str], env: &[(&str, &str)]) -> Urls {
    let out = tempfile::tempdir().unwrap();
    let site = case(name);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sitemapgen"));
    cmd.args(["build", "--quiet", "--site"])
        .arg(&site)
        .arg("--output")
        .arg(out.path())
        .args(args)
        .current_dir(&site)
        .env_remove("HUGO_ENVIRONMENT")
        .env_remove("HUGO_ENV")
        .env_remove("SOURCE_DATE_EPOCH")
        // The current Hugo's rules unless `env` names another version.
        .env("HUGO_VERSION", common::CURRENT_HUGO);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let file = out.path().join("sitemap.xml");
    validate_with_xsd(std::slice::from_ref(&file));
    urls_below(out.path())
}

/// Asserts two URL maps are equal, showing only what differs.
fn assert_same(ours: &Urls, hugo: &Urls, what: &str) {
    let differs = |a: &Urls, b: &Urls| -> Vec<String> {
        a.iter()
            .filter(|(k, v)| b.get(*k) != Some(v))
            .map(|(k, v)| format!("{k} {v:?}"))
            .collect()
    };
    let (extra, missing) = (differs(ours, hugo), differs(hugo, ours));
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{what}: ours only {extra:#?}\nHugo's only {missing:#?}"
    );
}

#[test]
fn a_config_split_over_config_default_is_merged_as_hugo_merges_it() {
    // hugo.toml, languages.<lang>.toml (contentDir per language, a disabled one),
    // menus.<lang>.toml, params.toml, taxonomies.toml and permalinks.yaml in config/_default/,
    // permalinks.toml in config/production/ (the default environment) over them.
    let hugo = urls_below(&case("config-dir/expected-production"));
    assert!(hugo.contains_key("https://example.org/2024/03/hello/"));
    assert_same(&ours("config-dir", &[], &[]), &hugo, "production");
}

#[test]
fn the_environment_comes_from_the_flag_or_hugo_environment() {
    // config/staging/hugo.toml: another baseURL, no taxonomies; the permalinks are
    // config/_default's again.
    let hugo = urls_below(&case("config-dir/expected-staging"));
    assert!(hugo.contains_key("https://staging.example.org/2024/hello/"));
    assert_same(
        &ours("config-dir", &["--environment", "staging"], &[]),
        &hugo,
        "--environment staging",
    );
    let by_env = ours("config-dir", &[], &[("HUGO_ENVIRONMENT", "staging")]);
    assert_same(&by_env, &hugo, "HUGO_ENVIRONMENT=staging");
    let by_old_env = ours("config-dir", &[], &[("HUGO_ENV", "staging")]);
    assert_same(&by_old_env, &hugo, "HUGO_ENV=staging");
}

#[test]
fn mounts_into_content_replace_the_content_folder() {
    // Hugo 0.153+'s syntax (`sites.matrix.languages`, `files`).
    // content/en and content/ja mounted with their languages (content/stray.md is no page),
    // a second folder into content/docs/reference without its drafts, a language-neutral
    // folder with includeFiles/excludeFiles as Hugo applies them, a second folder into the
    // same place whose file at a taken path is shadowed, an assets mount ignored.
    let hugo = urls_below(&case("mounts/expected"));
    assert!(hugo.contains_key("https://docs.example.net/docs/reference/api/"));
    assert!(!hugo.contains_key("https://docs.example.net/blog/shadowed/"));
    assert_same(&ours("mounts", &[], &[]), &hugo, "mounts");
}

#[test]
fn mounts_in_the_older_syntax_mount_the_same() {
    // The same site with `lang`, `includeFiles` and `excludeFiles`, which Hugo 0.168 refuses
    // (removed after 0.153) and Hugo 0.111 builds.
    let hugo = urls_below(&case("mounts-legacy/expected-0.111"));
    let got = ours("mounts-legacy", &[], &[("HUGO_VERSION", "0.111.3")]);
    assert_same(&got, &hugo, "Hugo 0.111");
    assert_same(
        &got,
        &urls_below(&case("mounts/expected")),
        "the newer syntax",
    );
}

#[test]
fn ugly_urls_can_be_set_per_section() {
    // uglyURLs = { posts = true, tags = true, docs = false }.
    let hugo = urls_below(&case("ugly-sections/expected-0.111"));
    let got = ours("ugly-sections", &[], &[("HUGO_VERSION", "0.111.3")]);
    assert_same(&got, &hugo, "Hugo 0.111");
    // Hugo 0.168 names ugly list pages `…/index.html` (a rule of Hugo's version); its pages
    // and terms are the same.
    let hugo = urls_below(&case("ugly-sections/expected-0.168"));
    let pages: Vec<&String> = hugo
        .keys()
        .filter(|u| u.ends_with(".html") && !u.ends_with("/index.html"))
        .collect();
    assert_eq!(pages.len(), 4, "{pages:?}");
    for p in pages {
        assert!(got.contains_key(p), "{p} missing");
    }
}

#[test]
fn translation_keys_link_pages_as_hugo_does() {
    // A leaf bundle and a page of one path at the top level, a number as key, a section and
    // a page sharing a key; a key equal to another page's path links nothing (Hugo 0.123+).
    let hugo = urls_below(&case("translation-keys/expected-0.168"));
    assert_eq!(
        hugo["https://example.com/about/"],
        [
            "en=https://example.com/about/",
            "fr=https://example.com/fr/about/"
        ]
    );
    assert_same(&ours("translation-keys", &[], &[]), &hugo, "Hugo 0.168");
}

#[test]
fn before_hugo_0_123_a_translation_key_shares_the_space_of_paths() {
    let settings = sitemapgen::load(&sitemapgen::settings::Overrides {
        site: Some(case("translation-keys")),
        hugo_version: Some("0.111.3".into()),
        ..Default::default()
    })
    .unwrap();
    assert!(settings.site.translation_keys_share_paths);
    let outcome = sitemapgen::generate(&settings, &Default::default()).unwrap();
    let mut got = Urls::new();
    for (k, e) in outcome.entries.list().iter().enumerate() {
        let mut alts: Vec<String> = e
            .extras
            .iter()
            .flat_map(|x| &x.alternates)
            .map(|a| format!("{}={}", a.hreflang, percent_decode(&a.href)))
            .collect();
        alts.sort();
        got.insert(percent_decode(&outcome.entries.loc(k).to_string()), alts);
    }
    let hugo = urls_below(&case("translation-keys/expected-0.111"));
    assert_eq!(
        hugo["https://example.com/blog/post/"],
        [
            "en=https://example.com/blog/post/",
            "fr=https://example.com/fr/blog/billet/"
        ]
    );
    assert_same(&got, &hugo, "Hugo 0.111");
}

#[test]
fn a_bad_value_in_a_split_config_names_the_file_and_line_that_set_it() {
    let d = tempfile::tempdir().unwrap();
    common::write_tree(
        d.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.org/\"\n"),
            (
                "config/_default/hugo.toml",
                "title = \"x\"\n\ntimeZone = \"Mars/Base\"\n",
            ),
            ("content/a.md", "---\ntitle: a\n---\n"),
        ],
    );
    let o = common::run(d.path(), &["build", "--site", "."]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let want = Path::new("config").join("_default").join("hugo.toml:3");
    assert!(err.contains(&*want.to_string_lossy()), "{err}");
}

#[test]
fn verbose_names_the_config_files_the_environment_and_the_mounts() {
    let out = tempfile::tempdir().unwrap();
    let site = case("config-dir");
    let (site_s, out_s) = (site.to_str().unwrap(), out.path().to_str().unwrap());
    let args = ["build", "--site", site_s, "--output", out_s, "--verbose"];
    let o = common::run(&site, &[&args[..], &["--environment", "staging"]].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}", text(&o));
    let note = err
        .lines()
        .find(|l| l.contains("Hugo config (environment staging)"))
        .unwrap_or_else(|| panic!("{err}"));
    for file in ["languages.fr.toml", "menus.en.toml", "staging"] {
        assert!(note.contains(file), "{note}");
    }
    assert!(!note.contains("production"), "{note}");
    let site = case("mounts");
    let o = common::run(
        &site,
        &[
            "build",
            "--site",
            site.to_str().unwrap(),
            "--output",
            out_s,
            "--verbose",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("content mount: reference -> content/docs/reference (en)"),
        "{err}"
    );
}

#[test]
fn pages_from_mounts_take_their_git_dates() {
    // A folder and one file mounted into content, outside content/: git dates each file.
    let d = tempfile::tempdir().unwrap();
    common::write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\nenableGitInfo = true\n[[module.mounts]]\nsource = \"docs\"\ntarget = \"content\"\n[[module.mounts]]\nsource = \"README.md\"\ntarget = \"content/about.md\"\n",
            ),
            ("docs/guide.md", "---\ntitle: Guide\n---\n"),
            ("README.md", "---\ntitle: About\n---\n"),
        ],
    );
    let git = |args: &[&str], date: &str| {
        let o = Command::new("git")
            .current_dir(d.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .args(["-c", "user.name=T", "-c", "user.email=t@example.org"])
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
    };
    git(&["init", "-q", "-b", "main"], "2021-05-06T10:00:00+00:00");
    git(&["add", "docs"], "2021-05-06T10:00:00+00:00");
    git(&["commit", "-q", "-m", "docs"], "2021-05-06T10:00:00+00:00");
    git(&["add", "-A"], "2022-07-08T09:30:00+02:00");
    git(
        &["commit", "-q", "-m", "readme"],
        "2022-07-08T09:30:00+02:00",
    );
    let o = common::run(d.path(), &["list", "--site", "."]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    // loc, lastmod, its source, changefreq, priority, the file: read from the mount's source.
    for (loc, date, file) in [
        ("https://example.org/guide/", "2021-05-06", "docs/guide.md"),
        ("https://example.org/about/", "2022-07-08", "README.md"),
    ] {
        let found = out.lines().any(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            f.len() > 5 && f[..3] == [loc, date, "git"] && f[5].ends_with(file)
        });
        assert!(found, "{loc} {date} {file}:\n{out}");
    }
}

/// A file one mount reads for two languages (`sites.matrix`, Hugo 0.153+) is a page in each
/// (Hugo 0.168.0 lists `/p/` and `/fr/p/` for this site), and what is said about it is said
/// once, not once per language.
#[test]
fn a_file_mounted_for_two_languages_is_warned_about_once() {
    let d = tempfile::tempdir().unwrap();
    common::write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n[[module.mounts]]\nsource = \"shared\"\ntarget = \"content\"\n[module.mounts.sites.matrix]\nlanguages = [\"en\", \"fr\"]\n",
            ),
            ("shared/p.md", "---\ntitle: P\ndraft:\n---\n"),
        ],
    );
    let out = d.path().join("out");
    let o = common::run(
        d.path(),
        &[
            "build",
            "--site",
            ".",
            "--output",
            out.to_str().unwrap(),
            "--hugo-version",
            "0.168.0",
        ],
    );
    assert!(o.status.success(), "{}", common::text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.matches("p.md:3: `draft` has no value").count(),
        1,
        "{err}"
    );
    let locs = common::url_locs(&common::set_text(&out, "sitemap.xml"));
    for url in ["https://example.org/p/", "https://example.org/fr/p/"] {
        assert!(locs.contains(url), "{locs:?}");
    }
}

/// `HUGO_<KEY>` environment variables override the config as Hugo's loader applies them, the
/// lists split and nested keys after the delimiter. The URLs are what Hugo 0.111.3 and 0.168.0
/// built for this site with the same variables (both alike).
#[test]
fn hugo_env_variables_override_the_config_as_hugo_reads_them() {
    let d = tempfile::tempdir().unwrap();
    common::write_tree(
        d.path(),
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\"]\ndefaultContentLanguage = \"fr\"\n[languages.fr]\nweight = 1\n[languages.en]\nweight = 2\n",
            ),
            ("content/hello.en.md", "---\ntitle: Hello\n---\n"),
            ("content/bonjour.fr.md", "---\ntitle: Bonjour\n---\n"),
        ],
    );
    // The variables set, and the URLs Hugo built with them.
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);
    let cases: [Case; 4] = [
        (
            &[],
            &[
                "https://example.org/",
                "https://example.org/bonjour/",
                "https://example.org/en/",
                "https://example.org/en/hello/",
            ],
        ),
        (
            &[("HUGO_DISABLELANGUAGES", "en")],
            &["https://example.org/", "https://example.org/bonjour/"],
        ),
        (
            &[
                ("HUGO_DISABLELANGUAGES", "en"),
                ("HUGO_BASEURL", "https://other.example/"),
            ],
            &["https://other.example/", "https://other.example/bonjour/"],
        ),
        // Another delimiter, and a nested key.
        (
            &[
                ("HUGOxDEFAULTCONTENTLANGUAGE", "en"),
                ("HUGOxLANGUAGESxENxWEIGHT", "0"),
            ],
            &[
                "https://example.org/",
                "https://example.org/fr/",
                "https://example.org/fr/bonjour/",
                "https://example.org/hello/",
            ],
        ),
    ];
    for version in ["0.111.3", "0.168.0"] {
        for (vars, want) in cases {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_sitemapgen"));
            cmd.args(["list", "--hugo-version", version, "--no-audit"])
                .current_dir(d.path());
            for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("HUGO")) {
                cmd.env_remove(k);
            }
            let o = cmd.envs(vars.iter().copied()).output().unwrap();
            assert!(o.status.success(), "{version} {vars:?}: {}", text(&o));
            let stdout = String::from_utf8(o.stdout).unwrap();
            // The URLs, as a set: list gives each language's file in turn.
            let mut got: Vec<&str> = stdout
                .lines()
                .map(|l| l.split('\t').next().unwrap())
                .collect();
            got.sort_unstable();
            assert_eq!(got, want, "{version} {vars:?}");
        }
    }
    // A bad value is named by its variable, not by the config file it overrides.
    let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(["list", "--no-audit"])
        .current_dir(d.path())
        .env("HUGO_BASEURL", "not a url")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .starts_with("error: HUGO_BASEURL: base_url 'not a url' is not an absolute URL"),
        "{}",
        text(&o)
    );
}
