//! Control characters in file names (reproducer `filename-control-chars-raw` in
//! `../shared/reliability/round2/`) are printed escaped, as Rust escapes them: an escape
//! sequence in a name cannot act on the terminal, and a tab or newline cannot break `list`'s
//! one-record-a-line, tab-separated text.

use crate::common;

use common::{run, text, write_tree};

const ESC_NAME: &str = "esc\u{1b}]0;PWNED\u{7}\u{1b}[2J.md";
const ESC_SHOWN: &str = "esc\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J.md";

#[test]
fn control_characters_in_file_names_are_escaped_in_messages_and_list() {
    let d = tempfile::tempdir().unwrap();
    let s = d.path().join("s");
    let page = "+++\ntitle = \"x\"\n+++\n";
    write_tree(
        &s,
        &[
            (
                "config.toml",
                "base_url = \"https://example.com/\"\ngenerate_sitemap = false\n",
            ),
            ("content/_index.md", "+++\ntitle=\"H\"\n+++\n"),
            (
                &format!("content/{ESC_NAME}"),
                "+++\ntitle = \"x\"\ndraft = true\n+++\n",
            ),
            ("content/tab\there.md", page),
            ("content/new\nline.md", page),
        ],
    );
    let o = run(&s, &["build"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("; 1 draft left out"), "{err}");
    // --verbose names each page left out, the file name escaped.
    let o = run(&s, &["build", "--verbose"]);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(
        err.contains(&format!("note: ./content/{ESC_SHOWN}: left out (draft)")),
        "{err}"
    );

    let o = run(&s, &["list"]);
    let out = String::from_utf8(o.stdout).unwrap();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3, "{out:?}");
    assert!(rows.iter().all(|r| r.len() == 7), "{out:?}");
    let files: Vec<&str> = rows.iter().map(|r| r[5]).collect();
    assert_eq!(
        files,
        [
            "./content/_index.md",
            "./content/new\\nline.md",
            "./content/tab\\there.md"
        ]
    );

    let o = run(&s, &["list", "--excluded"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out, format!("./content/{ESC_SHOWN}\tdraft\t-\t-\t-\n"));
}

#[test]
fn validate_escapes_the_names_it_reports() {
    let d = tempfile::tempdir().unwrap();
    let name = "bad\u{1b}[2J.xml";
    write_tree(
        d.path(),
        &[(
            name,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.com/</loc><lastmod>never</lastmod></url>\n</urlset>\n",
        )],
    );
    for quiet in [false, true] {
        let mut args = vec!["validate", name];
        if quiet {
            args.push("--quiet");
        }
        let o = run(d.path(), &args);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(!out.contains('\u{1b}'), "{out:?}");
        assert!(out.starts_with("bad\\u{1b}[2J.xml:3: error: "), "{out:?}");
    }
}
