//! What the last run's walk found, kept in the repository's git folder so that the next run
//! reads only the commits made since.
//!
//! A walk from `HEAD` back through the whole history costs as much as `git log` over all of it
//! (a minute on 200,000 commits), and its answer for every file changes only where new commits
//! touch the file. So each run leaves, beside the repository's own data
//! (`<git dir>/sitemapgen/lastmod-<key>`), every file's outcome as of the commit it started
//! from: the commit that dated it (name, date, place in the log) or none, and why commits were
//! passed over. The next run whose `HEAD` descends from that commit by a line of ordinary
//! commits (no merge: `git log` then lists them first, in that order, and the rest of the
//! history exactly as it did before) walks only those, and a file still looking for its date
//! where they end takes the outcome recalled for the name it had there.
//!
//! Anything unexpected gives way to the whole walk: no file, a file from another release or
//! other options, a history rewritten since, a merge in between, a name with no outcome.

use super::walk::{GitPath, Stamp};
use crate::vocab::date::W3cDate;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The first line of every file: the release that wrote it and the edition of the rules that
/// judged its edits (a release may judge edits differently, so another's outcomes are never
/// recalled; the edition is raised whenever the rules change between releases).
const MAGIC: &str = concat!("sitemapgen lastmod ", env!("CARGO_PKG_VERSION"), " 2\n");

/// The most commits read through the recalled outcomes; further back a whole walk is as good.
pub const MAX_RANGE: usize = 100_000;

/// What a walk depends on besides the history: the same key, the same outcomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The one line that names it, written in the file.
    line: Vec<u8>,
}

impl Key {
    /// The key of a walk under `prefix` (the content dir in the repository), by the named date
    /// kind and comparison, passing over the `ignored` commits.
    pub fn new(prefix: &[u8], date: &str, compare: &str, ignored: &[&[u8]]) -> Key {
        let mut sorted = ignored.to_vec();
        sorted.sort_unstable();
        let mut crc = crc32fast::Hasher::new();
        for rev in &sorted {
            crc.update(rev);
            crc.update(b"\n");
        }
        let mut line = format!(
            "date={date} compare={compare} ignored={}:{:08x} prefix=",
            sorted.len(),
            crc.finalize()
        )
        .into_bytes();
        line.extend_from_slice(prefix);
        Key { line }
    }

    /// The file it is kept in: one per key, so that two configurations do not overwrite
    /// each other's.
    fn file(&self, git_dir: &Path) -> PathBuf {
        git_dir
            .join("sitemapgen")
            .join(format!("lastmod-{:08x}", crc32fast::hash(&self.line)))
    }
}

/// One file's outcome as of the recalled commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileOutcome {
    /// The commit that dated it (index into [`Recall::commits`]), or none.
    pub commit: Option<u32>,
    /// Why commits were passed over on the way ([`super::walk::passed`] bits).
    pub passed: u8,
}

/// A recalled commit that dated files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dater {
    /// Its full hex name.
    pub name: Box<[u8]>,
    /// Its place in the log read from the recalled commit (that commit is 1).
    pub place: u32,
    /// The date it gave.
    pub date: W3cDate,
}

/// The outcomes of the walk from one commit, read back.
#[derive(Debug, Default)]
pub struct Recall {
    /// The commit the walk started from.
    pub head: String,
    /// The commits that dated files.
    pub commits: Vec<Dater>,
    outcomes: HashMap<GitPath, FileOutcome>,
}

impl Recall {
    /// The outcome for the file that had the name `name` at [`Recall::head`].
    pub fn get(&self, name: &[u8]) -> Option<FileOutcome> {
        self.outcomes.get(name).copied()
    }
}

/// Reads the outcomes kept for `key`; `None` when there are none, or none that can be
/// trusted (another release's, a damaged file).
pub fn load(git_dir: &Path, key: &Key) -> Option<Recall> {
    let bytes = std::fs::read(key.file(git_dir)).ok()?;
    parse(&bytes, key)
}

fn parse(bytes: &[u8], key: &Key) -> Option<Recall> {
    let mut rest = bytes.strip_prefix(MAGIC.as_bytes())?;
    let line = |rest: &mut &[u8]| -> Option<Vec<u8>> {
        let end = rest.iter().position(|b| *b == b'\n')?;
        let l = rest[..end].to_vec();
        *rest = &rest[end + 1..];
        Some(l)
    };
    if line(&mut rest)? != key.line {
        return None;
    }
    let head = String::from_utf8(line(&mut rest)?.strip_prefix(b"head ")?.to_vec()).ok()?;
    let n: usize = number(line(&mut rest)?.strip_prefix(b"commits ")?)?;
    let mut commits = Vec::with_capacity(n.min(1 << 20));
    for _ in 0..n {
        let l = line(&mut rest)?;
        let mut f = l.splitn(3, |b| *b == b' ');
        let (name, place, date) = (f.next()?, f.next()?, f.next()?);
        commits.push(Dater {
            name: name.into(),
            place: number(place)?,
            date: super::walk::parse_git_date(date).ok()?,
        });
    }
    let m: usize = number(line(&mut rest)?.strip_prefix(b"files ")?)?;
    let mut outcomes = HashMap::with_capacity(m.min(1 << 24));
    for _ in 0..m {
        // `<commit index or -> <passed bits> <name>\0`: names may hold any byte but NUL.
        let end = rest.iter().position(|b| *b == 0)?;
        let rec = &rest[..end];
        rest = &rest[end + 1..];
        let mut f = rec.splitn(3, |b| *b == b' ');
        let (commit, passed, name) = (f.next()?, f.next()?, f.next()?);
        let commit = match commit {
            b"-" => None,
            c => {
                let c: u32 = number(c)?;
                if c as usize >= commits.len() {
                    return None;
                }
                Some(c)
            }
        };
        let passed = number(passed)?;
        outcomes.insert(name.into(), FileOutcome { commit, passed });
    }
    if rest != b"end\n" {
        return None;
    }
    Some(Recall {
        head,
        commits,
        outcomes,
    })
}

fn number<T: std::str::FromStr>(bytes: &[u8]) -> Option<T> {
    std::str::from_utf8(bytes).ok()?.parse().ok()
}

/// One file's outcome as a walk from `head` found it, to be kept.
pub struct Kept<'a> {
    /// Its name at `head`.
    pub name: &'a [u8],
    /// The commit that dated it, or none.
    pub stamp: Option<Stamp>,
    /// Why commits were passed over.
    pub passed: u8,
}

/// Keeps the outcomes of the walk from `head` for the next run: written beside and renamed
/// over the last ones, so a reader never sees half a file. `commits` and `places` are the
/// walk's own ([`super::walk::Walk::commits`], ...), which the stamps index.
pub fn save<'a>(
    git_dir: &Path,
    key: &Key,
    head: &str,
    commits: &[Box<[u8]>],
    places: &[u32],
    files: impl Iterator<Item = Kept<'a>>,
) -> io::Result<()> {
    let mut out = Vec::with_capacity(1 << 20);
    out.extend_from_slice(MAGIC.as_bytes());
    out.extend_from_slice(&key.line);
    out.push(b'\n');
    writeln!(out, "head {head}")?;
    // Only the commits some kept file names, in order, each with its date and new number.
    let mut files: Vec<Kept> = files.collect();
    let mut used: BTreeMap<u32, (W3cDate, u32)> = BTreeMap::new();
    for s in files.iter().filter_map(|f| f.stamp) {
        used.entry(s.commit).or_insert((s.date, 0));
    }
    writeln!(out, "commits {}", used.len())?;
    for (new, (&c, (date, number))) in used.iter_mut().enumerate() {
        *number = new as u32;
        let name = commits.get(c as usize).ok_or_else(bad_index)?;
        let place = places.get(c as usize).ok_or_else(bad_index)?;
        out.extend_from_slice(name);
        writeln!(out, " {place} {date}")?;
    }
    files.sort_unstable_by(|a, b| a.name.cmp(b.name));
    writeln!(out, "files {}", files.len())?;
    for f in &files {
        match f.stamp {
            Some(s) => {
                let (_, number) = used.get(&s.commit).ok_or_else(bad_index)?;
                write!(out, "{number} ")?;
            }
            None => out.extend_from_slice(b"- "),
        }
        write!(out, "{} ", f.passed)?;
        out.extend_from_slice(f.name);
        out.push(0);
    }
    out.extend_from_slice(b"end\n");

    let path = key.file(git_dir);
    let dir = path.parent().unwrap_or(git_dir);
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".lastmod-{}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, &out).and_then(|()| std::fs::rename(&tmp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

fn bad_index() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "a stamp names no commit")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(s: &str) -> W3cDate {
        super::super::walk::parse_git_date(s.as_bytes()).unwrap()
    }

    #[test]
    fn outcomes_come_back_as_kept_and_only_under_their_key() {
        let dir = tempfile::tempdir().unwrap();
        let key = Key::new(b"content/", "committer", "reader", &[b"abc"]);
        let commits: Vec<Box<[u8]>> = vec![b"c0".as_slice().into(), b"c1".as_slice().into()];
        let places = [3, 9];
        let d1 = date("2020-01-02T03:04:05+02:00");
        let kept = [
            Kept {
                name: b"content/a b.md",
                stamp: Some(Stamp {
                    date: d1,
                    commit: 1,
                }),
                passed: 2,
            },
            Kept {
                name: b"content/new\nline.md",
                stamp: None,
                passed: 1,
            },
        ];
        save(
            dir.path(),
            &key,
            "headhex",
            &commits,
            &places,
            kept.into_iter(),
        )
        .unwrap();
        let r = load(dir.path(), &key).unwrap();
        assert_eq!(r.head, "headhex");
        assert_eq!(r.outcomes.len(), 2);
        let a = r.get(b"content/a b.md").unwrap();
        assert_eq!(a.passed, 2);
        let c = &r.commits[a.commit.unwrap() as usize];
        assert_eq!((&*c.name, c.place, c.date), (&b"c1"[..], 9, d1));
        assert_eq!(
            r.get(b"content/new\nline.md"),
            Some(FileOutcome {
                commit: None,
                passed: 1
            })
        );
        assert_eq!(r.get(b"content/other.md"), None);
        // Another ignore list, another prefix: nothing recalled.
        assert!(
            load(
                dir.path(),
                &Key::new(b"content/", "committer", "reader", &[])
            )
            .is_none()
        );
        assert!(load(dir.path(), &Key::new(b"", "committer", "reader", &[b"abc"])).is_none());
    }

    #[test]
    fn a_damaged_file_is_not_recalled() {
        let dir = tempfile::tempdir().unwrap();
        let key = Key::new(b"", "author", "any", &[]);
        let commits: Vec<Box<[u8]>> = vec![b"c0".as_slice().into()];
        let kept = [Kept {
            name: b"a.md",
            stamp: Some(Stamp {
                date: date("2021-05-06T07:08:09Z"),
                commit: 0,
            }),
            passed: 0,
        }];
        save(dir.path(), &key, "h", &commits, &[1], kept.into_iter()).unwrap();
        let path = key.file(dir.path());
        let good = std::fs::read(&path).unwrap();
        assert!(parse(&good, &key).is_some());
        // Cut short anywhere, or with another release's first line: never half an answer.
        for cut in [10, good.len() / 2, good.len() - 1] {
            assert!(parse(&good[..cut], &key).is_none(), "cut at {cut}");
        }
        let other = [
            b"sitemapgen lastmod 0.0.0 1\n".as_slice(),
            &good[MAGIC.len()..],
        ]
        .concat();
        assert!(parse(&other, &key).is_none());
    }
}
