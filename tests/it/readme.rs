//! The README's blocks work as written (issue 28). Each fenced block carries a language, and
//! each one a user would copy an HTML comment before it saying how it is checked:
//!
//! - `run in DIR`: a shell block run with `bash -e -o pipefail` in a copy of `tests/fixtures/readme/DIR`,
//!   with this build's `sitemapgen` first on `PATH`. `hugo` and `zola` are the real ones when
//!   they are on `PATH`; otherwise a stand-in copies in what Hugo 0.111.3 or Zola 0.22.1 built
//!   for the fixture (`tests/fixtures/readme/built/`), so the sitemapgen commands still run.
//! - `pre-commit`: a `.pre-commit-config.yaml`; its hook's `entry` is run in a git checkout of
//!   a site with a staged page, and its `files` pattern must take that page.
//! - `sitemap-toml`: parses as a sitemap.toml and says what the repository's own does.
//! - `ci`: every command is one `.ci/run` runs as written.
//! - `install`: run by `.ci/workflows.sh` in a fresh clone, installing into a temporary folder
//!   the sitemapgen the rest of that walk runs.
//! - `workflow-steps`: GitHub Actions steps, linted by `.ci/run` with actionlint inside a
//!   workflow, and run by `.ci/workflows.sh` (with and without jq on PATH).
//!
//! Rust blocks are compiled as doctests (`ReadmeDoctests` in src/lib.rs).
//!
//! docs/ pages mark a recipe to run with `<!-- docs-test: NAME -->`: the Netlify recipe, here;
//! the pre-commit configs (`pre-commit`, `pre-commit-system`) and the IndexNow workflow
//! (`indexnow-workflow`), in `.ci/workflows.sh`, which also runs the Quick start and the
//! `pre-commit` block with the real pre-commit, in a fresh clone, with the sitemapgen that
//! clone installs. Every relative link between the README and docs/ must lead to a page and
//! heading.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One fenced block: its language, the directive before it, its text, its first line.
struct Block {
    lang: String,
    directive: Option<String>,
    text: String,
    line: usize,
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme_blocks() -> Vec<Block> {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut directive = None;
    let mut open: Option<Block> = None;
    for (i, line) in readme.lines().enumerate() {
        if let Some(b) = open.as_mut() {
            if line.starts_with("```") {
                blocks.push(open.take().unwrap());
            } else {
                b.text.push_str(line);
                b.text.push('\n');
            }
            continue;
        }
        if let Some(d) = line
            .strip_prefix("<!-- readme-test: ")
            .and_then(|d| d.strip_suffix(" -->"))
        {
            directive = Some(d.to_string());
        } else if let Some(lang) = line.strip_prefix("```") {
            open = Some(Block {
                lang: lang.to_string(),
                directive: directive.take(),
                text: String::new(),
                line: i + 1,
            });
        } else if !line.trim().is_empty() {
            directive = None;
        }
    }
    assert!(open.is_none(), "README.md ends inside a code block");
    blocks
}

fn blocks_with(directive: &str) -> Vec<Block> {
    readme_blocks()
        .into_iter()
        .filter(|b| b.directive.as_deref() == Some(directive))
        .collect()
}

/// A directory on `PATH` holding `name`, if any.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Copies the tree at `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let dest = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// A `bin` folder for a block's run: this build's sitemapgen, and a stand-in for each
/// generator that is not on PATH.
fn bin_dir(root: &Path) -> PathBuf {
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // A link, not a copy: a copy's write handle, inherited by a process another test thread
    // forks meanwhile, made running it fail now and then with "Text file busy".
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sitemapgen"), bin.join("sitemapgen")).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(env!("CARGO_BIN_EXE_sitemapgen"), bin.join("sitemapgen")).unwrap();
    let built = repo().join("tests/fixtures/readme/built");
    for (generator, version) in [("hugo", "Hugo 0.111.3"), ("zola", "Zola 0.22.1")] {
        if on_path(generator).is_some() {
            continue;
        }
        // The site's folder name says which fixture's output to copy.
        let script = format!(
            "#!/bin/sh\n\
             echo \"readme test: no {generator} on PATH: copying what {version} built for this site\" >&2\n\
             mkdir -p public && cp -R \"{}/$(basename \"$PWD\")/.\" public/\n",
            built.display()
        );
        let path = bin.join(generator);
        std::fs::write(&path, script).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    bin
}

/// `PATH` with `bin` first.
fn path_with(bin: &Path) -> std::ffi::OsString {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&rest)))
        .unwrap()
}

/// Runs a shell block in `dir`; panics with its output unless it exits 0.
fn run_block(block: &Block, dir: &Path, path: &std::ffi::OsStr) -> String {
    // bash for pipefail: `sitemapgen list | head` fails when sitemapgen does.
    let o = Command::new("bash")
        .args(["-e", "-o", "pipefail", "-c"])
        .arg(&block.text)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("HUGO_VERSION")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    let out = common::text(&o);
    assert!(
        o.status.success(),
        "README.md:{}: the block exits {:?}:\n{}\n{out}",
        block.line,
        o.status.code(),
        block.text
    );
    out
}

#[test]
fn every_block_has_a_language_and_every_block_to_copy_a_check() {
    let blocks = readme_blocks();
    assert!(blocks.len() >= 8, "{} blocks", blocks.len());
    let known = [
        "install",
        "pre-commit",
        "workflow-steps",
        "sitemap-toml",
        "ci",
    ];
    for b in &blocks {
        // An untagged block would be compiled as Rust by the README doctest.
        assert!(
            !b.lang.is_empty(),
            "README.md:{}: a block without a language",
            b.line
        );
        if b.lang.starts_with("rust") {
            continue;
        }
        let d = b.directive.as_deref().unwrap_or_else(|| {
            panic!(
                "README.md:{}: a `{}` block without a `<!-- readme-test: … -->` line before it",
                b.line, b.lang
            )
        });
        let run_in = d
            .strip_prefix("run in ")
            .is_some_and(|dir| repo().join("tests/fixtures/readme").join(dir).is_dir());
        assert!(
            run_in || known.contains(&d),
            "README.md:{}: unknown readme-test directive `{d}`",
            b.line
        );
    }
}

#[test]
fn quick_starts_run_as_written() {
    let blocks: Vec<Block> = readme_blocks()
        .into_iter()
        .filter(|b| {
            b.directive
                .as_deref()
                .is_some_and(|d| d.starts_with("run in "))
        })
        .collect();
    assert_eq!(blocks.len(), 3, "the Hugo, Zola and plain quick starts");
    for block in &blocks {
        let dir = block.directive.as_deref().unwrap()["run in ".len()..].to_string();
        let root = tempfile::tempdir().unwrap();
        let site = root.path().join(&dir);
        copy_tree(&repo().join("tests/fixtures/readme").join(&dir), &site);
        let bin = bin_dir(root.path());
        let out = run_block(block, &site, &path_with(&bin));
        // Each quick start ends with a sitemap on disk that passes our validator.
        let sitemap = site.join("public/sitemap.xml");
        assert!(sitemap.is_file(), "{dir}: no public/sitemap.xml\n{out}");
        let o = Command::new(env!("CARGO_BIN_EXE_sitemapgen"))
            .args(["validate", "--quiet"])
            .arg(&sitemap)
            .output()
            .unwrap();
        assert!(o.status.success(), "{dir}: {}", common::text(&o));
        common::validate_with_xsd(&[sitemap]);
    }
}

#[test]
fn the_pre_commit_hook_runs_its_entry_on_a_staged_page() {
    let blocks = blocks_with("pre-commit");
    assert_eq!(blocks.len(), 1);
    let yaml = &blocks[0].text;
    let field = |name: &str| -> String {
        yaml.lines()
            .find_map(|l| {
                let l = l.trim().trim_start_matches("- ");
                l.strip_prefix(&format!("{name}: "))
            })
            .unwrap_or_else(|| panic!("no `{name}:` in the hook\n{yaml}"))
            .trim()
            .to_string()
    };
    assert_eq!(field("repo"), "local");
    assert_eq!(field("language"), "system");
    assert_eq!(field("pass_filenames"), "false");
    let entry = field("entry");
    let files = field("files");
    // pre-commit matches `files` as a Python regex against the staged paths (`re.search`).
    assert!(files.starts_with('^'), "an anchored pattern: {files}");
    let re = regex_automata::meta::Regex::new(&files).unwrap();
    for staged in [
        "content/about.md",
        "sitemap.toml",
        "config.toml",
        "zola.toml",
    ] {
        assert!(re.is_match(staged), "{files}: {staged}");
    }
    for other in ["README.md", "public/sitemap.xml", "static/sitemap.toml"] {
        assert!(!re.is_match(other), "{files}: {other}");
    }

    let root = tempfile::tempdir().unwrap();
    let site = root.path().join("my-zola-site");
    copy_tree(&repo().join("tests/fixtures/readme/my-zola-site"), &site);
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(args)
            .current_dir(&site)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap();
        assert!(o.status.success(), "git {args:?}: {}", common::text(&o));
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "site"]);
    std::fs::write(
        site.join("content/about.md"),
        "+++\ntitle = \"About\"\ndate = 2024-03-01\n+++\nAbout us, edited.\n",
    )
    .unwrap();
    git(&["add", "content/about.md"]);
    let bin = bin_dir(root.path());
    let hook = Block {
        lang: "sh".into(),
        directive: None,
        text: format!("{entry}\n"),
        line: blocks[0].line,
    };
    run_block(&hook, &site, &path_with(&bin));
    let xml = std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap();
    assert!(
        xml.contains("<loc>https://example.com/about/</loc>"),
        "{xml}"
    );
}

#[test]
fn the_sitemap_toml_shown_is_the_repositorys_own() {
    let blocks = blocks_with("sitemap-toml");
    assert_eq!(blocks.len(), 1);
    let shown = sitemapgen::settings::parse_file_config(&blocks[0].text, Path::new("README.md"))
        .unwrap_or_else(|e| panic!("README.md:{}: {e}", blocks[0].line));
    let own = sitemapgen::settings::read_file_config(&repo().join("sitemap.toml")).unwrap();
    assert_eq!(format!("{shown:?}"), format!("{own:?}"));
}

/// The rows of the first table after `heading` in `text` whose first cell is a key in
/// backticks: (key, default cell).
fn key_rows(text: &str, heading: &str) -> Vec<(String, String)> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let key = cells.first()?.strip_prefix("| `")?.strip_suffix('`')?;
            Some((key.to_string(), cells.get(1)?.trim().to_string()))
        })
        .collect()
}

/// What a default cell says first: its first `code` span when it starts with one, else its
/// first word ("none", "from").
fn default_head(cell: &str) -> &str {
    match cell.strip_prefix('`') {
        Some(code) => code.split('`').next().unwrap(),
        None => cell.split(' ').next().unwrap(),
    }
}

/// The README's ten keys are in the configuration reference, with the same default: the
/// README is a digest of it, and a default changed there must change here.
#[test]
fn the_readmes_keys_and_defaults_are_the_references() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let reference = std::fs::read_to_string(repo().join("docs/configuration.md")).unwrap();
    let shown = key_rows(&readme, "## Configuration");
    let every = key_rows(&reference, "## Every key of `sitemap.toml`");
    assert_eq!(shown.len(), 10, "{shown:?}");
    for (key, default) in &shown {
        let (_, reference_default) = every
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("README.md: `{key}` is not in docs/configuration.md"));
        assert_eq!(
            default_head(default),
            default_head(reference_default),
            "README.md: the default of `{key}` is `{default}`, docs/configuration.md says `{reference_default}`"
        );
    }
}

#[test]
fn contributor_commands_are_the_ones_ci_runs() {
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    let ci_lines: Vec<&str> = ci.lines().map(str::trim).collect();
    let blocks = blocks_with("ci");
    assert!(!blocks.is_empty());
    for b in &blocks {
        for line in b.text.lines() {
            let command = line.split(" #").next().unwrap().trim();
            if command.is_empty() {
                continue;
            }
            assert!(
                ci_lines.contains(&command),
                "README.md:{}: `{command}` is not a command .ci/run runs",
                b.line
            );
        }
    }
}

/// The fenced block after `<!-- docs-test: NAME -->` in a page of docs/.
fn docs_block(page: &str, name: &str) -> String {
    let text = std::fs::read_to_string(repo().join("docs").join(page)).unwrap();
    let marker = format!("<!-- docs-test: {name} -->\n");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("{page}: no {marker}"));
    let rest = &text[at + marker.len()..];
    let body = &rest[rest.find('\n').unwrap() + 1..];
    body[..body.find("\n```").unwrap()].to_string()
}

/// The Netlify recipe (docs/workflows.md) compiles sitemapgen on the first deploy of a rev
/// only: its command, run twice in the same folder (which the cache plugin keeps), calls
/// `cargo install` once, and both deploys write the sitemap with the binary it installed.
#[test]
fn the_netlify_recipe_compiles_once_then_uses_the_cached_binary() {
    let recipe: toml::Table = toml::from_str(&docs_block("workflows.md", "netlify")).unwrap();
    let cached: Vec<&str> = recipe["plugins"].as_array().unwrap()[0]["inputs"]["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(
        recipe["plugins"][0]["package"].as_str(),
        Some("netlify-plugin-cache")
    );
    let env: Vec<(String, String)> = recipe["build"]["environment"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();

    let root = tempfile::tempdir().unwrap();
    let site = root.path().join("my-hugo-site");
    copy_tree(&repo().join("tests/fixtures/readme/my-hugo-site"), &site);
    let bin = bin_dir(root.path());
    // A stand-in cargo: logs its arguments and "installs" this build's sitemapgen at --root.
    let log = root.path().join("cargo.log");
    std::fs::write(
        bin.join("cargo"),
        format!(
            "#!/bin/sh\necho \"$*\" >> {log}\nwhile [ \"$1\" != --root ]; do shift; done\n\
             mkdir -p \"$2/bin\" && cp {exe} \"$2/bin/sitemapgen\"\n",
            log = log.display(),
            exe = env!("CARGO_BIN_EXE_sitemapgen"),
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join("cargo"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    // sitemapgen itself must come from the cached folder, not from PATH.
    std::fs::remove_file(bin.join("sitemapgen")).unwrap();
    let deploy = |command: &str| {
        let o = Command::new("bash")
            .args(["-e", "-o", "pipefail", "-c", command])
            .current_dir(&site)
            .env("PATH", path_with(&bin))
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("URL", "https://example.org/")
            .env(
                "DEPLOY_PRIME_URL",
                "https://deploy-preview-1--example.netlify.app/",
            )
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}\n{}", common::text(&o));
        std::fs::read_to_string(site.join("public/sitemap.xml")).unwrap()
    };
    let production = recipe["build"]["command"].as_str().unwrap();
    let preview = recipe["context"]["deploy-preview"]["command"]
        .as_str()
        .unwrap();
    let first = deploy(production);
    assert!(
        first.contains("<loc>https://example.org/posts/first/</loc>"),
        "{first}"
    );
    let preview_xml = deploy(preview);
    assert!(
        preview_xml
            .contains("<loc>https://deploy-preview-1--example.netlify.app/posts/first/</loc>"),
        "{preview_xml}"
    );
    deploy(production);
    let calls = std::fs::read_to_string(&log).unwrap();
    let rev = &env.iter().find(|(k, _)| k == "SITEMAPGEN_REV").unwrap().1;
    let git = &env.iter().find(|(k, _)| k == "SITEMAPGEN_GIT").unwrap().1;
    assert_eq!(
        calls,
        format!("install --locked --root .sitemapgen/{rev} --git {git} --rev {rev}\n"),
        "three deploys, one compile"
    );
    // What was installed is inside a folder the plugin keeps.
    assert!(
        cached
            .iter()
            .any(|c| Path::new(&format!(".sitemapgen/{rev}")).starts_with(c)),
        "{cached:?}"
    );
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation but `-` and `_` gone.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The text of a Markdown page outside its fenced blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every relative link in the README and docs/ leads to a file that exists, and every
/// `#anchor` to a heading of that page: the pages move and grow, the links must follow.
#[test]
fn links_between_the_readme_and_docs_resolve() {
    let mut pages = vec![repo().join("README.md")];
    for e in std::fs::read_dir(repo().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    let anchors = |page: &Path| -> Vec<String> {
        let text = prose(&std::fs::read_to_string(page).unwrap());
        text.lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| anchor(l.trim_start_matches('#')))
            .collect()
    };
    let mut broken = Vec::new();
    for page in &pages {
        let text = prose(&std::fs::read_to_string(page).unwrap());
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (file, frag) = target.split_once('#').unwrap_or((target, ""));
            let dest = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let name = page.strip_prefix(repo()).unwrap().display().to_string();
            if !dest.exists() {
                broken.push(format!("{name}: {target}: no such file"));
            } else if !frag.is_empty()
                && dest.extension().is_some_and(|x| x == "md")
                && !anchors(&dest).iter().any(|a| a == frag)
            {
                broken.push(format!("{name}: {target}: no such heading"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Every module of the crate has a row in docs/architecture.md's module map: the map is
/// what the next contributor reads first, so a new module adds its line there.
#[test]
fn the_module_map_names_every_module() {
    let lib = std::fs::read_to_string(repo().join("src/lib.rs")).unwrap();
    let map = std::fs::read_to_string(repo().join("docs/architecture.md")).unwrap();
    let start = map.find("## Modules").unwrap();
    let rows: Vec<&str> = map[start..]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split(" | ").next().unwrap())
        .collect();
    let mut missing = Vec::new();
    let mut modules = vec!["cli".to_string()];
    modules.extend(lib.lines().filter_map(|l| {
        let name = l.trim().strip_prefix("pub mod ")?.strip_suffix(';')?;
        Some(name.to_string())
    }));
    assert!(modules.len() > 20, "{modules:?}");
    for m in &modules {
        let named = rows
            .iter()
            .any(|r| r.contains(&format!("`{m}.rs`")) || r.contains(&format!("`{m}/")));
        if !named {
            missing.push(m.as_str());
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md: no row for {missing:?} in the module map (## Modules)"
    );
}

/// docs/README.md, the index, links every page of docs/, and so does the README's
/// Documentation section: a new page is found from both.
#[test]
fn the_indexes_link_every_docs_page() {
    let index = std::fs::read_to_string(repo().join("docs/README.md")).unwrap();
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let section = &readme[readme.find("## Documentation").unwrap()..];
    let mut missing = Vec::new();
    for e in std::fs::read_dir(repo().join("docs")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with(".md") || name == "README.md" {
            continue;
        }
        if !index.contains(&format!("]({name})")) {
            missing.push(format!("docs/README.md does not link {name}"));
        }
        if !section.contains(&format!("](docs/{name})")) {
            missing.push(format!(
                "README.md's Documentation section does not link {name}"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
