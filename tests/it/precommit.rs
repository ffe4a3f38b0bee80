//! The pre-commit flow in a real git repository (issue 17): a content edit, the hook writes
//! (or checks) the sitemap, the commit lands, and then `sitemapgen check` exits 0, in the
//! repository and in a fresh full clone of it, commit after commit. Every hook in
//! `.pre-commit-hooks.yaml` is driven with its own `entry` and `files`, run as pre-commit runs
//! it (`pass_filenames: false`, the commit failing when the hook fails or changes a file), with
//! the `sitemapgen` on PATH that a `language: rust` or `language: system` hook would find.

use crate::common;

use common::gitrepo::Repo;
use common::text;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A hook as `.pre-commit-hooks.yaml` declares it.
#[derive(Debug)]
struct Hook {
    id: String,
    entry: String,
    files: String,
}

/// Reads the hooks file (a list of flat maps: all it holds).
fn hooks() -> Vec<Hook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let yaml = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<Hook> = Vec::new();
    for line in yaml.lines() {
        let line = line.trim_start_matches([' ', '-']);
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim().trim_matches(['"', '\'']).to_string();
        match key {
            "id" => out.push(Hook {
                id: value,
                entry: String::new(),
                files: String::new(),
            }),
            "entry" => out.last_mut().unwrap().entry = value,
            "files" => out.last_mut().unwrap().files = value,
            _ => {}
        }
    }
    out
}

/// PATH with the sitemapgen under test first, as a hook environment has it.
fn path_with_binary() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sitemapgen"));
    let dir = bin.parent().unwrap().display().to_string();
    format!("{dir}:{}", std::env::var("PATH").unwrap_or_default())
}

/// Installs a git pre-commit hook that does what pre-commit does for `hook`.
fn install(r: &Repo, hook: &Hook) {
    let script = format!(
        "#!/bin/sh\n\
         # Only when a staged file matches `files`, as pre-commit filters.\n\
         git diff --cached --name-only | grep -Eq '{files}' || exit 0\n\
         {entry} || exit 1\n\
         # pre-commit fails the commit when the hook changed a file.\n\
         git diff --quiet || {{ echo 'files were modified by this hook' >&2; exit 1; }}\n",
        files = hook.files,
        entry = hook.entry,
    );
    let hooks = r.root.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let path = hooks.join("pre-commit");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `git add -A && git commit` at the real time (the hook runs); its output.
fn commit(r: &Repo) -> Output {
    r.git(&["add", "-A"]);
    Repo::command(&r.root)
        .args(["commit", "-q", "-m", "edit"])
        .env("PATH", path_with_binary())
        .output()
        .unwrap()
}

fn sitemapgen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
        .args(args)
        .current_dir(dir)
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("GIT_COMMITTER_DATE")
        .output()
        .unwrap()
}

/// `check` exits 0 here and in a fresh full clone of the last commit.
fn clean_everywhere(r: &Repo, step: &str) {
    let o = sitemapgen(&r.root, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{step}: check\n{}", text(&o));
    let clone = r
        .root
        .with_file_name(format!("clone-{}", step.replace(' ', "-")));
    let o = Repo::command(r.root.parent().unwrap())
        .args(["clone", "-q"])
        .arg(&r.root)
        .arg(&clone)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let o = sitemapgen(&clone, &["check"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{step}: check in a clone\n{}",
        text(&o)
    );
}

fn sitemap(r: &Repo) -> String {
    std::fs::read_to_string(r.root.join("public/sitemap.xml")).unwrap()
}

/// The lastmod of `url` in the sitemap on disk.
fn lastmod(r: &Repo, url: &str) -> String {
    let xml = sitemap(r);
    let at = xml
        .find(&format!("<loc>https://example.com{url}</loc>"))
        .unwrap();
    let rest = &xml[at..];
    let a = rest.find("<lastmod>").unwrap() + "<lastmod>".len();
    rest[a..a + rest[a..].find('<').unwrap()].to_string()
}

/// A site whose sitemap is committed (served straight from the repository), first committed
/// on 2024-01-01 with its sitemap.
fn site(hook: &Hook) -> Repo {
    let r = Repo::new();
    r.write("config.toml", "base_url = \"https://example.com\"\n");
    r.write("content/_index.md", "+++\n+++\n");
    r.write(
        "content/a.md",
        "+++\ntitle = \"A\"\ndate = 2023-06-01\n+++\nFirst.\n",
    );
    r.write("content/b.md", "+++\ntitle = \"B\"\n+++\nFirst.\n");
    r.commit("2024-01-01T10:00:00Z");
    let o = sitemapgen(&r.root, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    r.commit("2024-01-01T10:00:00Z");
    install(&r, hook);
    r
}

/// The date of the last commit, in its own zone, as the sitemap writes it.
fn head_day(r: &Repo) -> String {
    let o = r.git(&["log", "-1", "--format=%cd", "--date=format:%Y-%m-%d"]);
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn every_hook_keeps_the_committed_sitemap_current_commit_after_commit() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| h.id.as_str()).collect();
    assert!(
        ids.contains(&"sitemapgen") && ids.contains(&"sitemapgen-check"),
        "{ids:?}"
    );
    // A -system twin differs from its hook only in how pre-commit finds the binary (built or
    // on PATH); the commit it drives is the same entry on the same files, so each pair is run
    // once, and the twin must stay that pair's exact copy.
    for twin in hooks.iter().filter(|h| h.id.ends_with("-system")) {
        let own = twin.id.trim_end_matches("-system");
        let hook = hooks.iter().find(|h| h.id == own);
        assert!(
            hook.is_some_and(|h| h.entry == twin.entry && h.files == twin.files),
            "{} must run what {own} runs: {hooks:?}",
            twin.id
        );
    }
    for hook in hooks.iter().filter(|h| !h.id.ends_with("-system")) {
        let r = site(hook);
        clean_everywhere(&r, &format!("{} start", hook.id));
        assert_eq!(lastmod(&r, "/a/"), "2024-01-01");
        let writes = !hook.entry.contains("check");
        for (round, page) in [(1, "a"), (2, "b")] {
            let step = format!("{} edit {round}", hook.id);
            r.write(
                &format!("content/{page}.md"),
                &format!("+++\ntitle = \"{page}\"\n+++\nEdit {round}.\n"),
            );
            if writes {
                // The hook writes the new sitemap and fails the commit; staged, it passes.
                let o = commit(&r);
                assert!(
                    !o.status.success(),
                    "{step}: the hook let a stale sitemap through"
                );
                assert!(text(&o).contains("modified by this hook"), "{}", text(&o));
                let o = commit(&r);
                assert!(o.status.success(), "{step}: second commit\n{}", text(&o));
            } else {
                // The check fails the commit until the sitemap is built.
                let o = commit(&r);
                assert!(
                    !o.status.success(),
                    "{step}: the check let a stale sitemap through"
                );
                let o = sitemapgen(&r.root, &["build", "--quiet"]);
                assert!(o.status.success(), "{}", text(&o));
                let o = commit(&r);
                assert!(
                    o.status.success(),
                    "{step}: commit after build\n{}",
                    text(&o)
                );
            }
            assert_eq!(lastmod(&r, &format!("/{page}/")), head_day(&r), "{step}");
            clean_everywhere(&r, &step);
        }
    }
}

/// A change to the site's config (the site moves domain) or to sitemap.toml changes the
/// sitemap without touching content/: every hook fires on it (its `files:` name both), so the
/// commit never lands with a sitemap of the old settings.
#[test]
fn every_hook_fires_on_the_site_config_and_sitemap_toml() {
    let hooks = hooks();
    assert!(hooks.iter().all(|h| h.files == hooks[0].files), "{hooks:?}");
    // The -system twins run the same entry on the same files: one of each entry is enough.
    for hook in hooks.iter().filter(|h| !h.id.ends_with("-system")) {
        let writes = !hook.entry.contains("check");
        let edits: [(&str, &str, &str); 2] = [
            (
                "config.toml",
                "base_url = \"https://example.org\"\n",
                "https://example.org/a/",
            ),
            (
                "sitemap.toml",
                "default_changefreq = \"weekly\"\n",
                "<changefreq>weekly</changefreq>",
            ),
        ];
        let r = site(hook);
        for (file, body, shows) in edits {
            let step = format!("{} {file}", hook.id);
            r.write(file, body);
            let o = commit(&r);
            assert!(
                !o.status.success(),
                "{step}: the hook did not fire\n{}",
                text(&o)
            );
            if !writes {
                let o = sitemapgen(&r.root, &["build", "--quiet"]);
                assert!(o.status.success(), "{}", text(&o));
            }
            let o = commit(&r);
            assert!(o.status.success(), "{step}: second commit\n{}", text(&o));
            assert!(sitemap(&r).contains(shows), "{step}: {}", sitemap(&r));
            clean_everywhere(&r, &step);
        }
    }
}
