//! Generated git histories of a Zola site, with the answer: random commits (pages added,
//! deleted, renamed, edited in what a reader sees or only in what no reader sees), written
//! with `git fast-import`, and for each page at `HEAD` the commit of its last significant
//! change by sitemapgen's rule (body words, title, description), kept as the history is made.

use super::Rng;
use std::fmt::Write as _;

/// What one commit does to one page (or to a file outside the content dir).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A new page.
    Add,
    /// A word of its body changed.
    Body,
    /// Its title changed.
    Title,
    /// Its description set or changed.
    Description,
    /// Only its `weight` (no reader sees it).
    Weight,
    /// Only whitespace in its body.
    Whitespace,
    /// Its front matter from TOML to YAML or back (same keys).
    Format,
    /// Moved to a new name, unchanged.
    Move,
    /// Moved to a new name with its `weight` changed.
    MoveWeight,
    /// Deleted.
    Delete,
    /// A file outside `content/` changed.
    Outside,
}

impl Op {
    /// Whether a reader sees the change (so it dates the page).
    pub fn seen(self) -> bool {
        matches!(self, Op::Add | Op::Body | Op::Title | Op::Description)
    }
}

/// How often each operation is drawn (relative weights).
#[derive(Clone, Debug)]
pub struct Mix(pub Vec<(Op, u32)>);

/// Every operation, for drawing mixes.
pub const OPS: [Op; 11] = [
    Op::Add,
    Op::Body,
    Op::Title,
    Op::Description,
    Op::Weight,
    Op::Whitespace,
    Op::Format,
    Op::Move,
    Op::MoveWeight,
    Op::Delete,
    Op::Outside,
];

impl Mix {
    /// Random weights (0 to 9 each; an add always possible).
    pub fn random(rng: &mut Rng) -> Mix {
        Mix(OPS
            .iter()
            .map(|op| (*op, rng.below(10) as u32 + u32::from(*op == Op::Add)))
            .collect())
    }

    /// Every operation, seen edits about half of them.
    pub fn balanced() -> Mix {
        Mix(vec![
            (Op::Add, 6),
            (Op::Body, 10),
            (Op::Title, 3),
            (Op::Description, 3),
            (Op::Weight, 6),
            (Op::Whitespace, 4),
            (Op::Format, 3),
            (Op::Move, 3),
            (Op::MoveWeight, 3),
            (Op::Delete, 2),
            (Op::Outside, 2),
        ])
    }

    fn draw(&self, rng: &mut Rng) -> Op {
        let total: u32 = self.0.iter().map(|(_, w)| w).sum();
        let mut x = rng.below(total as usize) as u32;
        for (op, w) in &self.0 {
            if x < *w {
                return *op;
            }
            x -= w;
        }
        Op::Add
    }
}

/// A page as the history leaves it.
#[derive(Clone, Debug)]
pub struct Page {
    /// Its path now, from the repository's top (`content/...`).
    pub path: String,
    /// The commit (1-based, in the order made) of its last change a reader sees.
    pub last: usize,
    /// The commit of its last change of any kind but a pure move (`any-commit`).
    pub last_any: usize,
    /// How many commits touched it (its share of the walk's work).
    pub touched: usize,
    id: usize,
    title: u32,
    description: Option<u32>,
    weight: u32,
    words: Vec<u32>,
    pad: bool,
    yaml: bool,
}

impl Page {
    fn text(&self) -> String {
        let mut fm = String::new();
        if self.yaml {
            let _ = write!(fm, "---\ntitle: 'Page {} v{}'\n", self.id, self.title);
            if let Some(d) = self.description {
                let _ = writeln!(fm, "description: 'About {} v{d}'", self.id);
            }
            let _ = write!(fm, "weight: {}\n---\n", self.weight);
        } else {
            let _ = write!(fm, "+++\ntitle = \"Page {} v{}\"\n", self.id, self.title);
            if let Some(d) = self.description {
                let _ = writeln!(fm, "description = \"About {} v{d}\"", self.id);
            }
            let _ = write!(fm, "weight = {}\n+++\n", self.weight);
        }
        // Lines that name the page, so no two pages look alike to git's rename detection.
        for (k, w) in self.words.iter().enumerate() {
            let pad = if self.pad { "   " } else { "" };
            let _ = writeln!(fm, "Line {k} of page {} says word{w}.{pad}", self.id);
        }
        fm
    }
}

/// A generated history and its answer.
pub struct History {
    /// The fast-import stream (branch `main`).
    pub stream: Vec<u8>,
    /// Commits made.
    pub commits: usize,
    /// The pages at `HEAD`.
    pub pages: Vec<Page>,
}

/// The commit time of commit `n` (1-based): an hour apart from 2020-01-01, UTC.
pub fn time_of(n: usize) -> i64 {
    1_577_836_800 + 3600 * n as i64
}

/// A commit time as git writes it (`%cI`, UTC).
pub fn stamp(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .unwrap()
        .format("%Y-%m-%dT%H:%M:%S+00:00")
        .to_string()
}

/// A history of `commits` commits (the first adds `start` pages, each later one makes 1-3
/// changes drawn from `mix`), from `seed`.
pub fn generate(seed: u64, commits: usize, start: usize, mix: &Mix) -> History {
    let mut rng = Rng(seed | 1);
    let mut live: Vec<Page> = Vec::new();
    let mut next_id = 0;
    let mut names = 0;
    let mut stream = String::new();
    let fresh = |names: &mut usize, id: usize| {
        *names += 1;
        format!("content/s{}/p{id}-n{names}.md", id % 4)
    };
    for n in 1..=commits {
        let _ = write!(
            stream,
            "commit refs/heads/main\nauthor T <t@e> {t} +0000\ncommitter T <t@e> {t} +0000\ndata 2\nc{}\n",
            n % 10,
            t = time_of(n)
        );
        let mut ops = Vec::new();
        if n == 1 {
            put(
                &mut stream,
                "config.toml",
                "base_url = \"https://example.com/\"\ntitle = \"t\"\n",
            );
            put(
                &mut stream,
                "content/_index.md",
                "+++\ntitle = \"Home\"\n+++\n",
            );
            ops.extend(std::iter::repeat_n(Op::Add, start));
        } else {
            for _ in 0..1 + rng.below(3) {
                ops.push(mix.draw(&mut rng));
            }
        }
        // One change to a page a commit at most: git shows a commit's net change.
        let mut touched = std::collections::HashSet::new();
        for op in ops {
            if op == Op::Outside {
                put(&mut stream, "README.md", &format!("readme {n}\n"));
                continue;
            }
            if op == Op::Add || live.is_empty() {
                let id = next_id;
                next_id += 1;
                let page = Page {
                    path: fresh(&mut names, id),
                    last: n,
                    last_any: n,
                    touched: 1,
                    id,
                    title: 0,
                    description: None,
                    weight: 0,
                    words: (0..10).map(|_| rng.below(1000) as u32).collect(),
                    pad: false,
                    yaml: rng.below(2) == 0,
                };
                put(&mut stream, &page.path, &page.text());
                touched.insert(id);
                live.push(page);
                continue;
            }
            let k = rng.below(live.len());
            if !touched.insert(live[k].id) {
                continue;
            }
            let page = &mut live[k];
            page.touched += 1;
            match op {
                Op::Body => {
                    let w = rng.below(page.words.len());
                    page.words[w] += 1;
                }
                Op::Title => page.title += 1,
                Op::Description => page.description = Some(page.description.map_or(0, |d| d + 1)),
                Op::Weight | Op::MoveWeight => page.weight += 1,
                Op::Whitespace => page.pad = !page.pad,
                Op::Format => page.yaml = !page.yaml,
                Op::Move | Op::Delete | Op::Add | Op::Outside => {}
            }
            if op.seen() {
                page.last = n;
            }
            if !matches!(op, Op::Move) {
                page.last_any = n;
            }
            match op {
                Op::Delete => {
                    let _ = writeln!(stream, "D {}", page.path);
                    live.swap_remove(k);
                }
                Op::Move | Op::MoveWeight => {
                    let _ = writeln!(stream, "D {}", page.path);
                    page.path = fresh(&mut names, page.id);
                    let (path, text) = (page.path.clone(), page.text());
                    put(&mut stream, &path, &text);
                }
                _ => {
                    let (path, text) = (page.path.clone(), page.text());
                    put(&mut stream, &path, &text);
                }
            }
        }
    }
    History {
        stream: stream.into_bytes(),
        commits,
        pages: live,
    }
}

/// An inline `M` of `path` with `text` in a fast-import stream.
fn put(stream: &mut String, path: &str, text: &str) {
    let _ = write!(
        stream,
        "M 100644 inline {path}\ndata {}\n{text}\n",
        text.len()
    );
}
