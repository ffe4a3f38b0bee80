//! Issue 19: a page's git date is the last commit that changed what a reader sees. A real
//! repository gets each kind of change in its own dated commit, and every page's lastmod is
//! checked, in both `lastmod_significance` modes, before and after uncommitted changes land.

use crate::common;

use common::gitrepo::Repo;
use common::{text, validate_with_xsd};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

const C1: &str = "2024-01-01T10:00:00Z";
const C2: &str = "2024-02-02T10:00:00Z";
const C3: &str = "2024-03-03T10:00:00Z";
const C4: &str = "2024-04-04T10:00:00Z";
const C5: &str = "2024-05-05T10:00:00Z";

/// A paragraph long enough that git pairs a moved file with its old name despite a new
/// front matter.
fn long_text(tag: &str) -> String {
    (1..=12)
        .map(|i| format!("Line {i} of the {tag} page, which says a good deal.\n"))
        .collect()
}

fn toml_page(title: &str, extra: &str, body: &str) -> String {
    format!("+++\ntitle = \"{title}\"\n{extra}+++\n{body}")
}

fn yaml_page(title: &str, extra: &str, body: &str) -> String {
    format!("---\n{extra}title: '{title}'\n---\n{body}")
}

/// The site after five commits, each making one kind of change; returns the repository and
/// the ignored commit's name.
fn history() -> (Repo, String) {
    let r = Repo::new();
    r.write("config.toml", "base_url = \"https://example.com\"\n");
    r.write("content/_index.md", "+++\n+++\n");
    r.write("content/blog/_index.md", "+++\n+++\n");
    r.write("content/body.md", &toml_page("Body", "", "First text.\n"));
    r.write(
        "content/space.md",
        &toml_page("Space", "", "Some words here.\n"),
    );
    r.write(
        "content/reformat.md",
        &toml_page("Reformat", "date = 2020-01-01\n", "Text.\n"),
    );
    r.write(
        "content/key.md",
        &toml_page("Key", "weight = 1\n", "Text.\n"),
    );
    r.write("content/title.md", &toml_page("Old title", "", "Text.\n"));
    r.write(
        "content/desc.md",
        &toml_page("Desc", "description = \"old\"\n", "Text.\n"),
    );
    r.write(
        "content/moved.md",
        &toml_page("Moved", "", &long_text("moved")),
    );
    r.write("content/mr.md", &toml_page("MR", "", &long_text("mr")));
    r.write("content/ignored.md", &toml_page("Ignored", "", "Before.\n"));
    for n in ["edit", "1", "2", "3", "4"] {
        let page = toml_page(&format!("Mass {n}"), "", &long_text(n));
        r.write(&format!("content/mass-{n}.md"), &page);
    }
    r.commit(C1);

    r.write("content/body.md", &toml_page("Body", "", "Second text.\n"));
    r.commit(C2);

    r.write(
        "content/space.md",
        &toml_page("Space", "", "Some   words\r\nhere.  \r\n\r\n"),
    );
    r.write(
        "content/reformat.md",
        &yaml_page("Reformat", "date: 2020-01-01\n", "Text.\n"),
    );
    r.write(
        "content/key.md",
        &toml_page("Key", "weight = 2\ntags = [\"x\"]\n", "Text.\n"),
    );
    r.write("content/title.md", &toml_page("New title", "", "Text.\n"));
    r.write(
        "content/desc.md",
        &toml_page("Desc", "description = \"new\"\n", "Text.\n"),
    );
    r.mv("content/moved.md", "content/blog/moved.md");
    r.mv("content/mr.md", "content/blog/mr.md");
    r.write("content/blog/mr.md", &yaml_page("MR", "", &long_text("mr")));
    r.commit(C3);

    // A commit the site lists in .git-blame-ignore-revs (say, a spelling bot's).
    r.write("content/ignored.md", &toml_page("Ignored", "", "After.\n"));
    let ignored = r.commit(C4);

    // A mass reformat that also edits one page's text.
    for n in ["1", "2", "3", "4"] {
        let page = yaml_page(&format!("Mass {n}"), "", &long_text(n));
        r.write(&format!("content/mass-{n}.md"), &page);
    }
    let edited = long_text("edit").replace("Line 3", "Line three");
    r.write("content/mass-edit.md", &yaml_page("Mass edit", "", &edited));
    r.write(".git-blame-ignore-revs", &format!("# bots\n{ignored}\n"));
    r.commit(C5);
    (r, ignored)
}

/// Runs sitemapgen in the repository with `GIT_AUTHOR_DATE` set to `pending` (the date
/// an uncommitted change's commit will carry).
fn run_at(r: &Repo, args: &[&str], pending: &str) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(&r.root)
        .env_remove("SOURCE_DATE_EPOCH")
        .env("GIT_AUTHOR_DATE", pending)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    o
}

/// Builds and returns each URL path's lastmod.
fn lastmods(r: &Repo) -> BTreeMap<String, String> {
    run_at(
        r,
        &["build", "--site", ".", "--quiet"],
        "2024-06-06T10:00:00Z",
    );
    let file = r.root.join("public/sitemap.xml");
    validate_with_xsd(std::slice::from_ref(&file));
    let xml = std::fs::read_to_string(file).unwrap();
    xml.split("<url>")
        .skip(1)
        .map(|b| {
            let field = |t: &str| {
                let open = format!("<{t}>");
                let a = b.find(&open).map(|a| a + open.len());
                a.map(|a| b[a..a + b[a..].find('<').unwrap()].to_string())
            };
            let loc = field("loc").unwrap();
            let path = loc.trim_start_matches("https://example.com").to_string();
            (path, field("lastmod").unwrap_or_default())
        })
        .collect()
}

fn expect(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(p, d)| (p.to_string(), d.to_string()))
        .collect()
}

fn set_config(r: &Repo, text: &str) {
    std::fs::write(r.root.join("sitemap.toml"), text).unwrap();
}

#[test]
fn only_changes_a_reader_sees_date_a_page() {
    let (r, _) = history();
    let d1 = "2024-01-01";
    let content = expect(&[
        ("/", "2024-05-05"),
        ("/blog/", d1),
        ("/blog/moved/", d1),
        ("/blog/mr/", d1),
        ("/body/", "2024-02-02"),
        ("/desc/", "2024-03-03"),
        ("/ignored/", d1),
        ("/key/", d1),
        ("/mass-1/", d1),
        ("/mass-2/", d1),
        ("/mass-3/", d1),
        ("/mass-4/", d1),
        ("/mass-edit/", "2024-05-05"),
        ("/reformat/", d1),
        ("/space/", d1),
        ("/title/", "2024-03-03"),
    ]);
    assert_eq!(lastmods(&r), content);

    // --verbose says how many pages passed over commits, and why.
    let o = run_at(&r, &["build", "--site", ".", "--verbose"], C5);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "git: 10 files dated past commits that did not count (changes no reader sees \
             (whitespace, front matter layout, short values such as tags and dates): 8; \
             moves: 1; commits listed in .git-blame-ignore-revs: 1)"
        ),
        "{err}"
    );

    // The old rule on request: every edit counts; a pure move and an ignored commit still not.
    set_config(&r, "lastmod_significance = \"any-commit\"\n");
    let mut any = content.clone();
    for p in ["/key/", "/reformat/", "/space/", "/blog/mr/", "/blog/"] {
        any.insert(p.into(), "2024-03-03".into());
    }
    for n in 1..=4 {
        any.insert(format!("/mass-{n}/"), "2024-05-05".into());
    }
    assert_eq!(lastmods(&r), any);

    // Another ignore-revs file, or none.
    set_config(&r, "git_ignore_revs = \"\"\n");
    let mut unignored = content.clone();
    unignored.insert("/ignored/".into(), "2024-04-04".into());
    assert_eq!(lastmods(&r), unignored);
    std::fs::write(r.root.join("revs.txt"), "").unwrap();
    set_config(&r, "git_ignore_revs = \"revs.txt\"\n");
    assert_eq!(lastmods(&r), unignored);
    set_config(&r, "git_ignore_revs = \"nosuch.txt\"\n");
    let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(["build", "--site", "."])
        .current_dir(&r.root)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("sitemap.toml:1: git_ignore_revs: "),
        "{}",
        text(&o)
    );
    std::fs::remove_file(r.root.join("sitemap.toml")).unwrap();
    assert_eq!(lastmods(&r), content);
}

#[test]
fn uncommitted_changes_follow_the_same_rule_and_hold_once_committed() {
    let (r, _) = history();
    // Not yet committed: a reformat, a staged move and a real edit.
    r.write(
        "content/body.md",
        &yaml_page("Body", "tags: [a]\n", "Second\ntext.\n"),
    );
    r.mv("content/title.md", "content/blog/title.md");
    r.write("content/key.md", &toml_page("Key", "", "Text, edited.\n"));
    let before = lastmods(&r);
    assert_eq!(before["/body/"], "2024-02-02");
    assert_eq!(before["/blog/title/"], "2024-03-03");
    // The date the commit will carry (GIT_AUTHOR_DATE in this test, else now).
    assert_eq!(before["/key/"], "2024-06-06");
    assert_eq!(before["/"], "2024-06-06");

    r.commit("2024-06-06T10:00:00Z");
    assert_eq!(lastmods(&r), before);
}

#[test]
fn list_names_the_commit_behind_each_git_date() {
    let (r, _) = history();
    let c2 = {
        let o = r.git(&["rev-list", "-1", "--before=2024-02-03", "HEAD"]);
        String::from_utf8(o.stdout).unwrap().trim()[..10].to_string()
    };
    r.write("content/key.md", &toml_page("Key", "", "Text, edited.\n"));
    let o = run_at(&r, &["list", "--site", "."], "2024-06-06T10:00:00Z");
    let out = String::from_utf8(o.stdout).unwrap();
    let row = |url: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("https://example.com{url}\t")))
            .unwrap_or_else(|| panic!("{url} not in {out}"))
            .to_string()
    };
    let body = Path::new("./content/body.md").display().to_string();
    assert_eq!(
        row("/body/"),
        format!("https://example.com/body/\t2024-02-02\tgit\t-\t-\t{body}\t{c2}")
    );
    assert!(row("/key/").ends_with("\tuncommitted"), "{out}");
    assert!(
        row("/").ends_with("\trollup\t-\t-\t./content/_index.md\t-"),
        "{out}"
    );

    let o = run_at(
        &r,
        &["list", "--site", ".", "--format", "jsonl"],
        "2024-06-06T10:00:00Z",
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains(&format!("\"lastmod_commit\":\"{c2}\"")),
        "{out}"
    );
}

/// Issue 39: what a reader sees is the rendered page (its words, the sites its links lead to),
/// and a commit that moves links over many pages dates only the pages whose words it changed.
#[test]
fn rendered_words_and_links_date_a_page_and_mass_link_rewrites_do_not() {
    let r = Repo::new();
    r.write("config.toml", "base_url = \"https://example.com\"\n");
    r.write("content/_index.md", "+++\n+++\n");
    let link = |n: usize, host: &str, word: &str| {
        let body = format!(
            "Page {n}: the {word} [source](https://{host}/site/src).\n\n\
             ![a figure](fig-{n}.png)\n\n<div class=\"note\">A note.</div>\n\n\
             ```sh\necho {n}\n```\n"
        );
        toml_page(&format!("Page {n}"), "", &body)
    };
    for n in 0..12 {
        r.write(&format!("content/p{n}.md"), &link(n, "git.example", "old"));
    }
    r.commit(C1);

    // One commit, four pages: an image source, an HTML class, a code fence's language and a
    // link's address on the same site (none seen), and a link to another site (seen).
    let p0 = link(0, "git.example", "old").replace("fig-0.png", "https://cdn.example/fig-0.webp");
    r.write("content/p0.md", &p0);
    let p1 =
        link(1, "git.example", "old").replace("class=\"note\"", "class=\"note\" role=\"note\"");
    r.write("content/p1.md", &p1);
    r.write(
        "content/p2.md",
        &link(2, "git.example", "old")
            .replace("```sh", "```bash")
            .replace("/site/src", "/site/main/src"),
    );
    r.write("content/p3.md", &link(3, "code.example", "old"));
    r.commit(C2);

    // Every page's link moved to another site, and a word changed in one of them.
    for n in 4..12 {
        let word = if n == 4 {
            "new and much revised, as the last release changed it"
        } else {
            "old"
        };
        r.write(&format!("content/p{n}.md"), &link(n, "code.example", word));
    }
    r.write(
        "content/p0.md",
        &p0.replace("git.example/", "code.example/"),
    );
    r.write(
        "content/p1.md",
        &p1.replace("git.example/", "code.example/"),
    );
    r.commit(C3);

    let d1 = "2024-01-01";
    let mut want = expect(&[
        ("/", "2024-03-03"),
        ("/p3/", "2024-02-02"),
        ("/p4/", "2024-03-03"),
    ]);
    for n in [0, 1, 2, 5, 6, 7, 8, 9, 10, 11] {
        want.insert(format!("/p{n}/"), d1.into());
    }
    assert_eq!(lastmods(&r), want);

    let o = run_at(&r, &["build", "--site", ".", "--verbose"], C3);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("commits changing 7 pages or more that changed up to three words, or 10 or more that changed only the sites its links lead to: 9"),
        "{err}"
    );

    // Fewer pages than the threshold make no mass edit; 0 turns the rule off; a sweep starts
    // at 10 pages, or at mass_edit when higher.
    for (setting, dated) in [
        ("mass_edit = 11\n", true),
        ("mass_edit = 0\n", true),
        ("mass_edit = 10\n", false),
        ("mass_edit = 9\n", false),
    ] {
        set_config(&r, setting);
        let got = lastmods(&r);
        for n in [0, 1, 5, 11] {
            let want = if dated { "2024-03-03" } else { d1 };
            assert_eq!(got[&format!("/p{n}/")], want, "{setting} p{n}");
        }
    }
}

/// Issue 39: a mass edit of fewer than 10 pages that points their links at another site (the
/// site's own docs instead of an old home) dates them; a few words changed over as many pages
/// do not.
#[test]
fn a_small_mass_edit_moving_links_to_another_site_dates_its_pages() {
    let r = Repo::new();
    r.write("config.toml", "base_url = \"https://example.com\"\n");
    r.write("content/_index.md", "+++\n+++\n");
    let page = |n: usize, host: &str, word: &str| {
        let body = format!("Page {n}: see the {word} [report](https://{host}/report/).\n");
        toml_page(&format!("Page {n}"), "", &body)
    };
    for n in 0..8 {
        r.write(&format!("content/p{n}.md"), &page(n, "old.example", "full"));
    }
    r.commit(C1);
    for n in 0..8 {
        r.write(
            &format!("content/p{n}.md"),
            &page(n, "docs.example", "full"),
        );
    }
    r.commit(C2);
    for n in 0..8 {
        r.write(
            &format!("content/p{n}.md"),
            &page(n, "docs.example", "whole"),
        );
    }
    r.commit(C3);

    let mut want = expect(&[("/", "2024-02-02")]);
    for n in 0..8 {
        want.insert(format!("/p{n}/"), "2024-02-02".into());
    }
    assert_eq!(lastmods(&r), want);

    // With mass edits from 9 pages, neither commit is one: the word dates every page.
    set_config(&r, "mass_edit = 9\n");
    assert!(lastmods(&r).values().all(|d| d == "2024-03-03"));
}
