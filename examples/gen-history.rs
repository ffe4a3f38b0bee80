//! Writes a `git fast-import` stream that gives a generated site a history (issue 31's run
//! users make: the site as a git checkout with years of commits behind it).
//!
//! ```text
//! cargo run --release --example gen-history -- SITE_DIR COMMITS [--seed S] | git -C SITE_DIR fast-import
//! ```
//!
//! The last commit holds exactly the files under SITE_DIR (the site config and `content/`,
//! as `gen-site` wrote them) plus a `.gitignore` and a `README.md`, so checking it out
//! changes nothing on disk. Before it:
//!
//! - the first commit adds the config and every `_index.md`; the next tenth of the commits
//!   add the pages, in file order, a few per commit (a bundle's files together);
//! - each later commit edits one to three random pages: two thirds of the edits change the
//!   body (a paragraph that a later edit takes out), a third only a front matter key no
//!   reader sees (`reviewed`), so dates by significance must look past them;
//! - every 50th commit (but the 1,000th) is a pure rename of a page (from the name it had
//!   before);
//! - every 100th also edits the README (a change outside `content/`);
//! - every 1,000th edits the front matter alone of 300 pages at once (a bulk retag).
//!
//! A page's earlier versions are its final bytes with the edits still to come undone, so
//! every version parses and each edit changes only what it says. One commit every 30
//! minutes from 2014 on, a seventh of them in +05:30. Deterministic for a seed.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// SplitMix64: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One content file and the edits still to come to it.
struct Page {
    /// Path below the site, `/`-separated.
    rel: String,
    /// Renames, body edits and front matter edits not yet made.
    renames: u32,
    texts: u32,
    metas: u32,
    /// Other files added with it (a bundle's image).
    with: Vec<String>,
}

/// What one commit does.
enum Op {
    Text(usize),
    Meta(usize),
    Rename(usize),
}

/// The commits after the adds, as the seed draws them; the same draw in both passes.
fn schedule(
    pages: &[usize],
    renamable: &[usize],
    commits: usize,
    first_edit: usize,
    seed: u64,
    mut each: impl FnMut(usize, &[Op]),
) {
    let mut rng = Rng(seed);
    let mut ops = Vec::new();
    for c in first_edit..=commits {
        ops.clear();
        // The bulk retag first: every 1,000th commit is a 50th too.
        if c.is_multiple_of(1000) {
            for _ in 0..300 {
                ops.push(Op::Meta(pages[rng.below(pages.len())]));
            }
        } else if c.is_multiple_of(50) && !renamable.is_empty() {
            ops.push(Op::Rename(renamable[rng.below(renamable.len())]));
        } else {
            for _ in 0..1 + rng.below(3) {
                let p = pages[rng.below(pages.len())];
                ops.push(if rng.below(3) < 2 {
                    Op::Text(p)
                } else {
                    Op::Meta(p)
                });
            }
        }
        each(c, &ops);
    }
}

/// Every file below `dir` (relative, `/`-separated), sorted.
fn files_below(root: &Path, dir: &Path, out: &mut Vec<String>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            files_below(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// A page's path before its `renames` renames still to come.
fn path_at(rel: &str, renames: u32) -> String {
    if renames == 0 {
        return rel.to_string();
    }
    let stem = rel.strip_suffix(".md").unwrap_or(rel);
    format!("{stem}-was-{renames}.md")
}

/// A page's bytes before the edits still to come: a `reviewed` key while front matter edits
/// remain, a closing paragraph while body edits do.
fn version(text: &[u8], texts: u32, metas: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 64);
    let (open, key) = if text.starts_with(b"+++\n") {
        (4, format!("reviewed = {metas}\n"))
    } else if text.starts_with(b"---\n") {
        (4, format!("reviewed: {metas}\n"))
    } else if text.starts_with(b"{\n") {
        (2, format!("  \"reviewed\": {metas},\n"))
    } else {
        (0, String::new())
    };
    out.extend_from_slice(&text[..open]);
    if metas > 0 {
        out.extend_from_slice(key.as_bytes());
    }
    out.extend_from_slice(&text[open..]);
    if texts > 0 {
        out.extend_from_slice(format!("\nA draft paragraph, revision {texts}.\n").as_bytes());
    }
    out
}

struct Stream<W: Write> {
    out: W,
    root: PathBuf,
    mark: usize,
}

impl<W: Write> Stream<W> {
    fn commit(&mut self, c: usize, message: &str) -> io::Result<()> {
        self.mark += 1;
        let t = 1_390_000_000u64 + 1800 * c as u64;
        let zone = if c.is_multiple_of(7) {
            "+0530"
        } else {
            "+0000"
        };
        writeln!(self.out, "commit refs/heads/main\nmark :{}", self.mark)?;
        writeln!(self.out, "author Bench <bench@example.org> {t} {zone}")?;
        writeln!(self.out, "committer Bench <bench@example.org> {t} {zone}")?;
        writeln!(self.out, "data {}\n{message}", message.len())
    }

    fn put(&mut self, path: &str, bytes: &[u8]) -> io::Result<()> {
        writeln!(self.out, "M 100644 inline {path}\ndata {}", bytes.len())?;
        self.out.write_all(bytes)?;
        self.out.write_all(b"\n")
    }

    fn file(&self, rel: &str) -> io::Result<Vec<u8>> {
        fs::read(self.root.join(rel))
    }

    /// Writes page `p` as it stands after its counters.
    fn page(&mut self, page: &Page) -> io::Result<()> {
        let text = self.file(&page.rel)?;
        let bytes = version(&text, page.texts, page.metas);
        self.put(&path_at(&page.rel, page.renames), &bytes)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed = 31u64;
    let mut positional = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--seed" {
            match it.next().and_then(|s| s.parse().ok()) {
                Some(s) => seed = s,
                None => return usage(),
            }
        } else {
            positional.push(a.clone());
        }
    }
    let (Some(dir), Some(commits)) = (
        positional.first(),
        positional.get(1).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        return usage();
    };
    match run(Path::new(dir), commits, seed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen-history: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: gen-history SITE_DIR COMMITS [--seed S] | git -C SITE_DIR fast-import");
    ExitCode::from(2)
}

fn run(root: &Path, commits: usize, seed: u64) -> io::Result<()> {
    let mut all = Vec::new();
    files_below(root, &root.join("content"), &mut all)?;
    all.sort();
    // Pages (with their bundle's other files) and the section indexes.
    let mut pages: Vec<Page> = Vec::new();
    let mut sections = Vec::new();
    for rel in &all {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if name == "_index.md" {
            sections.push(rel.clone());
        } else if rel.ends_with(".md") {
            pages.push(Page {
                rel: rel.clone(),
                renames: 0,
                texts: 0,
                metas: 0,
                with: Vec::new(),
            });
        }
    }
    for rel in &all {
        if rel.ends_with(".md") {
            continue;
        }
        // A bundle's resource goes with the bundle's index.md.
        let folder = rel.rsplit_once('/').map_or("", |(d, _)| d);
        let owner =
            pages.binary_search_by(|p| p.rel.as_str().cmp(&format!("{folder}/index.md")[..]));
        match owner {
            Ok(k) => pages[k].with.push(rel.clone()),
            Err(_) => sections.push(rel.clone()),
        }
    }
    if pages.is_empty() || commits < 20 {
        return Err(io::Error::other(
            "need pages under content/ and at least 20 commits",
        ));
    }
    let editable: Vec<usize> = (0..pages.len()).collect();
    let renamable: Vec<usize> = (0..pages.len())
        .filter(|&k| !pages[k].rel.ends_with("/index.md"))
        .collect();
    let adders = (commits / 10).max(1);
    let per = pages.len().div_ceil(adders);
    let first_edit = 2 + pages.len().div_ceil(per);
    // Pass 1: count the edits each page gets.
    schedule(
        &editable,
        &renamable,
        commits,
        first_edit,
        seed,
        |_, ops| {
            for op in ops {
                match *op {
                    Op::Text(p) => pages[p].texts += 1,
                    Op::Meta(p) => pages[p].metas += 1,
                    Op::Rename(p) => pages[p].renames += 1,
                }
            }
        },
    );

    let stdout = io::stdout();
    let mut s = Stream {
        out: BufWriter::with_capacity(1 << 20, stdout.lock()),
        root: root.to_path_buf(),
        mark: 0,
    };
    s.commit(1, "The site's config and sections")?;
    let mut top = Vec::new();
    for entry in fs::read_dir(root)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type()?.is_file() && !name.starts_with('.') {
            top.push(name);
        }
    }
    top.sort();
    for name in &top {
        let bytes = s.file(name)?;
        s.put(name, &bytes)?;
    }
    s.put(
        ".gitignore",
        b"public/\nresources/\nthemes/\n.hugo_build.lock\n.gen-site\n",
    )?;
    s.put("README.md", b"A generated site.\n")?;
    for rel in &sections {
        let bytes = s.file(rel)?;
        s.put(rel, &bytes)?;
    }
    let mut c = 2;
    for chunk in pages.chunks(per) {
        s.commit(c, "Add pages")?;
        for page in chunk {
            s.page(page)?;
            for rel in &page.with {
                let bytes = s.file(rel)?;
                s.put(rel, &bytes)?;
            }
        }
        c += 1;
    }
    debug_assert_eq!(c, first_edit);
    // Pass 2: the same draw, each edit undoing one of the differences still to come.
    let mut failed = None;
    schedule(
        &editable,
        &renamable,
        commits,
        first_edit,
        seed,
        |c, ops| {
            if failed.is_some() {
                return;
            }
            let result = (|| -> io::Result<()> {
                s.commit(c, &format!("Edit {c}"))?;
                for op in ops {
                    match *op {
                        Op::Text(p) => {
                            pages[p].texts -= 1;
                            s.page(&pages[p])?;
                        }
                        Op::Meta(p) => {
                            pages[p].metas -= 1;
                            s.page(&pages[p])?;
                        }
                        Op::Rename(p) => {
                            let from = path_at(&pages[p].rel, pages[p].renames);
                            pages[p].renames -= 1;
                            let to = path_at(&pages[p].rel, pages[p].renames);
                            writeln!(s.out, "R {from} {to}")?;
                        }
                    }
                }
                if c.is_multiple_of(100) {
                    s.put(
                        "README.md",
                        format!("A generated site, edit {c}.\n").as_bytes(),
                    )?;
                }
                Ok(())
            })();
            if let Err(e) = result {
                failed = Some(e);
            }
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    // The last state: the README as the working tree will have it.
    s.commit(commits + 1, "Last touches")?;
    s.put("README.md", b"A generated site.\n")?;
    s.out.flush()
}
