//! Hostile front matter and site configs (issue 18): every parser we feed a user's files is
//! bounded, and a limit hit is exit 2 naming the file and what was too big, quickly.

use crate::common;

use common::{run, text, write_tree};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

/// A Zola site: `config.toml`, 64 small pages (so the page under test is read on a worker
/// thread, with its small stack) and `files`.
fn zola_site(dir: &Path, files: &[(&str, &str)]) {
    let small: Vec<(String, &str)> = (0..64)
        .map(|i| (format!("content/p{i:02}.md"), "+++\ntitle = \"p\"\n+++\n"))
        .collect();
    let mut all: Vec<(&str, &str)> = small.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    all.push(("config.toml", "base_url = \"https://example.com/\"\n"));
    all.extend_from_slice(files);
    write_tree(dir, &all);
}

/// Builds the site in `dir`, which must take little time.
fn build(dir: &Path) -> Output {
    let start = Instant::now();
    let o = run(dir, &["build", "-q"]);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}: {}",
        start.elapsed(),
        text(&o)
    );
    o
}

/// The run stopped with exit 2, naming `file` and saying `what`.
fn refused(o: &Output, file: &str, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}", text(o));
    assert!(
        err.contains(file) && err.contains(what),
        "want {file} and {what:?}: {}",
        text(o)
    );
}

fn nested_yaml(depth: usize) -> String {
    let mut s = String::from("---\ntitle: x\n");
    for k in 0..depth {
        s += &format!("{}k:\n", " ".repeat(k));
    }
    s + &" ".repeat(depth) + "k: 1\n---\n"
}

/// "Billion laughs": `levels` lists of nine aliases to the one before.
fn alias_bomb(levels: usize) -> String {
    let mut s = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n".to_string();
    for i in 1..=levels {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        s += &format!("a{i}: &a{i} [{refs}]\n");
    }
    s
}

#[test]
fn deep_yaml_block_nesting_on_a_worker_thread_is_exit_2_not_a_stack_overflow() {
    let dir = tempfile::tempdir().unwrap();
    // 2,500 levels: 3 MB, within the front matter size limit.
    zola_site(dir.path(), &[("content/deep.md", &nested_yaml(2500))]);
    let o = build(dir.path());
    refused(
        &o,
        "content/deep.md:259:",
        "nested more than 256 levels deep",
    );
    // Nesting within the limit still builds.
    zola_site(dir.path(), &[("content/deep.md", &nested_yaml(200))]);
    assert!(build(dir.path()).status.success());
}

#[test]
fn yaml_alias_bombs_in_pages_are_exit_2_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for levels in [7, 8] {
        let page = format!("---\ntitle: x\n{}---\nbody\n", alias_bomb(levels));
        zola_site(dir.path(), &[("content/bomb.md", &page)]);
        refused(
            &build(dir.path()),
            "content/bomb.md:",
            "YAML aliases expand to more than 16 MiB",
        );
    }
    // A few aliases are fine.
    let page = format!("---\ntitle: x\n{}---\nbody\n", alias_bomb(2));
    zola_site(dir.path(), &[("content/bomb.md", &page)]);
    assert!(build(dir.path()).status.success());
}

/// A Hugo site with `hugo.yaml` holding `yaml` after its base URL.
fn hugo_site(dir: &Path, yaml: &str) {
    let config = format!("baseURL: https://example.com/\n{yaml}");
    write_tree(
        dir,
        &[
            ("hugo.yaml", &config),
            ("content/p.md", "---\ntitle: p\n---\n"),
        ],
    );
}

#[test]
fn hugo_yaml_alias_bombs_and_deep_nesting_are_exit_2_naming_the_config() {
    let dir = tempfile::tempdir().unwrap();
    hugo_site(
        dir.path(),
        &format!("params:\n  x:\n{}", indent(&alias_bomb(7))),
    );
    refused(
        &build(dir.path()),
        "hugo.yaml:",
        "YAML aliases expand to more than 16 MiB",
    );
    let deep: String = (0..1000)
        .map(|k| format!("{}k:\n", " ".repeat(k + 2)))
        .collect();
    hugo_site(dir.path(), &format!("params:\n{deep}"));
    refused(
        &build(dir.path()),
        "hugo.yaml:",
        "nested more than 256 levels deep",
    );
    // The same config folder file read through Hugo's `config/_default/`.
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            ("hugo.toml", "baseURL = \"https://example.com/\"\n"),
            ("config/_default/params.yaml", &alias_bomb(8)),
            ("content/p.md", "---\ntitle: p\n---\n"),
        ],
    );
    refused(&build(dir.path()), "params.yaml:", "YAML aliases expand");
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

#[test]
fn toml_and_json_nesting_stay_exit_2_in_pages_and_configs() {
    let d = 5000;
    let arrays = format!("{}{}", "[".repeat(d), "]".repeat(d));
    let dir = tempfile::tempdir().unwrap();
    // A few hundred unclosed levels on many lines overflowed the toml crate's recursion
    // (fuzzing, seed 1795486556941613135): TOML brackets are counted before parsing.
    let unclosed: String = (0..400).map(|_| "y = {a\nx =[[[[1]]]]\n").collect();
    for (page, what) in [
        (format!("+++\nx = {arrays}\n+++\n"), "nested more than 64"),
        (
            format!("+++\nx = {}1{}\n+++\n", "{a=".repeat(d), "}".repeat(d)),
            "nested more than 64",
        ),
        (format!("+++\n{unclosed}+++\n"), "nested more than 64"),
        (
            format!("+++\n{} = 1\n+++\n", vec!["a"; d].join(".")),
            "recursion",
        ),
        (format!("{{\"x\": {arrays}}}\n"), "recursion"),
    ] {
        zola_site(dir.path(), &[("content/deep.md", &page)]);
        refused(&build(dir.path()), "content/deep.md:", what);
    }
    let dir = tempfile::tempdir().unwrap();
    let toml = format!("baseURL = \"https://example.com/\"\n{unclosed}");
    write_tree(
        dir.path(),
        &[
            ("hugo.toml", &toml),
            ("content/p.md", "---\ntitle: p\n---\n"),
        ],
    );
    refused(&build(dir.path()), "hugo.toml:", "nested more than 64");
    let dir = tempfile::tempdir().unwrap();
    let json = format!("{{\"baseURL\": \"https://example.com/\", \"x\": {arrays}}}\n");
    write_tree(
        dir.path(),
        &[
            ("hugo.json", &json),
            ("content/p.md", "---\ntitle: p\n---\n"),
        ],
    );
    refused(&build(dir.path()), "hugo.json:", "recursion limit");
}

#[test]
fn front_matter_past_4_mib_is_exit_2_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(5 << 20);
    for page in [
        format!("+++\ns = \"{big}\"\n+++\n"),
        format!("---\ns: {big}\n---\n"),
        format!("{{\"s\": \"{big}\"}}\n"),
        // Never closed: reading stops rather than taking the whole file.
        format!("---\ns: {}\n", big.repeat(4)),
    ] {
        zola_site(dir.path(), &[("content/big.md", &page)]);
        refused(
            &build(dir.path()),
            "content/big.md",
            "the front matter is larger than 4 MiB",
        );
    }
}

#[test]
fn images_of_a_body_past_16_mib_are_left_out_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("![a](/a.png)\n\n{}\n", "word ".repeat(4 << 20));
    write_tree(
        dir.path(),
        &[
            ("config.toml", "base_url = \"https://example.com/\"\n"),
            ("sitemap.toml", "images = true\n"),
            (
                "content/big.md",
                &format!("+++\ntitle = \"b\"\n+++\n{body}"),
            ),
            (
                "content/small.md",
                "+++\ntitle = \"s\"\n+++\n![b](/b.png)\n",
            ),
        ],
    );
    let o = run(dir.path(), &["build"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        err.contains("content/big.md: images not read: the body is larger than 16 MiB"),
        "{}",
        text(&o)
    );
    let xml = std::fs::read_to_string(dir.path().join("public/sitemap.xml")).unwrap();
    assert!(xml.contains("https://example.com/b.png"), "{xml}");
    assert!(!xml.contains("https://example.com/a.png"), "{xml}");
}
