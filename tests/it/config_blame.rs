//! Config errors name the file and line that hold the bad value (reproducers
//! `errors-misattributed` and `x-default-unknown-silent` in `../shared/reliability/round2/`):
//! a wrong-typed base URL is not "missing", a bad permalink token is the config's fault and not
//! a page's, an output folder that is not a folder is said before anything is written, and an
//! `x_default` naming no language of the site is an error, not a silent no-op.

use crate::common;

use common::{text, write_tree};
use std::path::Path;
use std::process::Output;

fn build(site: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["build", "--site", site.to_str().unwrap()];
    args.extend_from_slice(extra);
    common::run(site.parent().unwrap(), &args)
}

/// The one error line of a failed run (exit 2), with the site's folder cut off its paths.
fn error(o: &Output, site: &Path) -> String {
    assert_eq!(o.status.code(), Some(2), "{}", text(o));
    let err = String::from_utf8_lossy(&o.stderr);
    let prefix = format!("{}/", site.display());
    err.trim_end().replace(&prefix, "")
}

#[test]
fn a_base_url_of_the_wrong_type_is_named_where_it_is_not_reported_missing() {
    let d = tempfile::tempdir().unwrap();
    let z = d.path().join("z");
    write_tree(
        &z,
        &[
            ("config.toml", "title = \"t\"\nbase_url = 0\n"),
            ("content/_index.md", "+++\ntitle=\"H\"\n+++\n"),
        ],
    );
    assert_eq!(
        error(&build(&z, &[]), &z),
        "error: config.toml:2: base_url is a number, not text: it is the site's public URL, like base_url = \"https://example.com/\""
    );
    let h = d.path().join("h");
    write_tree(
        &h,
        &[
            ("hugo.toml", "title = \"t\"\n\nbaseURL = true\n"),
            ("content/posts/p1.md", "---\ntitle: P\n---\n"),
        ],
    );
    assert_eq!(
        error(&build(&h, &[]), &h),
        "error: hugo.toml:3: baseURL is true or false, not text: it is the site's public URL, like baseURL = \"https://example.com/\""
    );
    // --base-url still wins over the site's value, whatever its type.
    let o = build(&h, &["--base-url", "https://example.org/"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_permalink_token_hugo_does_not_know_is_the_configs_error() {
    let d = tempfile::tempdir().unwrap();
    let h = d.path().join("h");
    for (config, line) in [
        // The old flat form, and the nested form of Hugo 0.112+.
        (
            "baseURL = \"https://example.org/\"\n[permalinks]\nposts = \"/:yr/:slug/\"\n",
            3,
        ),
        (
            "baseURL = \"https://example.org/\"\n[permalinks]\n[permalinks.page]\nother = \"/:slug/\"\nposts = \"/:yr/:slug/\"\n",
            5,
        ),
    ] {
        write_tree(
            &h,
            &[
                ("hugo.toml", config),
                ("content/posts/p1.md", "---\ntitle: P\n---\n"),
            ],
        );
        assert_eq!(
            error(&build(&h, &[]), &h),
            format!(
                "error: hugo.toml:{line}: the permalink pattern '/:yr/:slug/' has an unknown token :yr"
            )
        );
    }
    // Hugo refuses the config whether or not a page uses the pattern (checked with 0.111.3 and
    // 0.168.0: "permalink ill-formed").
    std::fs::remove_dir_all(h.join("content/posts")).unwrap();
    write_tree(&h, &[("content/other/p.md", "---\ntitle: P\n---\n")]);
    assert!(error(&build(&h, &[]), &h).starts_with("error: hugo.toml:5: "));
    // Every token Hugo knows passes.
    let all = "/:year/:month/:monthname/:day/:yearday/:weekday/:weekdayname/:slug/:title/:filename/:contentbasename/:slugorfilename/:slugorcontentbasename/:section/:sections/";
    write_tree(
        &h,
        &[(
            "hugo.toml",
            &format!("baseURL = \"https://example.org/\"\n[permalinks]\nother = \"{all}\"\n"),
        )],
    );
    let o = build(&h, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn an_output_folder_that_is_not_a_folder_names_what_chose_it() {
    let d = tempfile::tempdir().unwrap();
    let z = d.path().join("z");
    write_tree(
        &z,
        &[
            ("config.toml", "base_url = \"https://example.com/\"\n"),
            ("content/_index.md", "+++\ntitle=\"H\"\n+++\n"),
            ("sitemap.toml", "# where\noutput_dir = \"/dev/null\"\n"),
            ("afile", "x"),
        ],
    );
    let fix = "the sitemap goes into the output folder";
    assert_eq!(
        error(&build(&z, &[]), &z),
        format!(
            "error: sitemap.toml:2: output_dir: /dev/null is a character device, not a folder: {fix}"
        )
    );
    let afile = z.join("afile");
    let o = build(&z, &["--output", afile.join("out").to_str().unwrap()]);
    assert_eq!(
        error(&o, &z),
        format!(
            "error: --output afile/out: afile is a file, not a folder, so afile/out cannot be made: {fix}"
        )
    );
    // The site's own setting is named in the site's config.
    std::fs::remove_file(z.join("sitemap.toml")).unwrap();
    write_tree(
        &z,
        &[(
            "config.toml",
            "base_url = \"https://example.com/\"\noutput_dir = \"afile\"\n",
        )],
    );
    assert_eq!(
        error(&build(&z, &[]), &z),
        format!("error: config.toml:2: output_dir: afile is a file, not a folder: {fix}")
    );
    // Nothing was written anywhere.
    assert_eq!(std::fs::read_to_string(&afile).unwrap(), "x");
}

/// A Zola site in English and French.
fn bilingual(root: &Path) {
    write_tree(
        root,
        &[
            (
                "config.toml",
                "base_url = \"https://example.com/\"\ndefault_language = \"en\"\ngenerate_sitemap = false\n[languages.fr]\n",
            ),
            ("content/_index.md", "+++\ntitle=\"H\"\n+++\n"),
            ("content/_index.fr.md", "+++\ntitle=\"H\"\n+++\n"),
        ],
    );
}

#[test]
fn x_default_must_name_a_language_of_the_site() {
    let d = tempfile::tempdir().unwrap();
    let s = d.path().join("s");
    bilingual(&s);
    write_tree(&s, &[("sitemap.toml", "x_default = \"fr\"\n")]);
    let o = build(&s, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let xml = std::fs::read_to_string(s.join("public/sitemap.xml")).unwrap();
    assert_eq!(
        xml.matches(r#"hreflang="x-default" href="https://example.com/fr/""#)
            .count(),
        2,
        "{xml}"
    );
    let tail = "; x_default names the version of each page shown to other languages";
    for (value, hint) in [
        ("frr", ": the site's languages are \"en\", \"fr\""),
        ("EN", ": the site writes it \"en\""),
    ] {
        write_tree(
            &s,
            &[("sitemap.toml", &format!("\nx_default = \"{value}\"\n"))],
        );
        assert_eq!(
            error(&build(&s, &[]), &s),
            format!(
                "error: sitemap.toml:2: x_default = \"{value}\" names no language of the site{hint}{tail}"
            )
        );
    }
}
