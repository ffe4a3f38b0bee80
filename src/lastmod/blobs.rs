//! File versions read from git's object store, one `git cat-file --batch` process a run: the
//! walk asks for the versions it must compare and goes on reading the log while a thread of
//! this module reads them and reduces each to its [`Fingerprint`].
//!
//! In a partial clone (`--filter=blob:none`) the store lacks most old versions. cat-file is
//! told not to fetch them one by one (a round trip each); the ones it reports missing are
//! fetched in batches ([`super::shallow::fetch_objects`]) and asked for again.

use super::visible::{Compare, Fingerprint, Streamed, fingerprint};
use crate::vocab::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Instant;

/// An object name as git prints it (hex).
pub type Oid = Box<[u8]>;

/// Past this size a version is hashed in pieces, every byte counting (no page is this big).
const WHOLE_LIMIT: u64 = 16 << 20;

/// Versions a partial clone lacks are fetched once this many wait (or when nothing else does).
const FETCH_BATCH: usize = 512;

/// What is known of one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// Asked for, not read yet.
    Pending,
    /// Read: what a reader sees of it.
    Read(Fingerprint),
    /// Not in the object store (a partial clone): it cannot be compared.
    Missing,
}

/// The running `git cat-file --batch` and what it has answered.
pub struct Blobs {
    child: Child,
    input: Option<BufWriter<ChildStdin>>,
    answers: Receiver<(Oid, Version)>,
    reader: Option<JoinHandle<io::Result<()>>>,
    known: HashMap<Oid, Version>,
    /// Requests written since the last flush.
    unsent: bool,
    /// Requests not answered yet.
    pending: usize,
    /// Versions read so far.
    read: usize,
    root: PathBuf,
    /// Fetching what a partial clone lacks.
    lazy: Lazy,
}

/// Versions a partial clone lacks, fetched from its remote in batches.
#[derive(Default)]
struct Lazy {
    /// The partial clone's remote: `None` until a version is missing, `Some(None)` when the
    /// repository is no partial clone (a missing version then stays missing).
    remote: Option<Option<String>>,
    /// Reported missing, to be fetched.
    waiting: Vec<Oid>,
    /// Fetched (or tried): missing again means missing for good.
    tried: HashSet<Oid>,
    /// Fetching stops here.
    deadline: Option<Instant>,
    report: Fetches,
}

/// What fetching a partial clone's missing versions took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fetches {
    /// Requests to the remote.
    pub requests: usize,
    /// Versions asked for.
    pub versions: usize,
    /// Time spent.
    pub seconds: f64,
    /// Why some could not be fetched (they are judged missing).
    pub failed: Option<String>,
}

impl Blobs {
    /// Starts `git cat-file --batch` in the repository at `root`.
    pub fn start(root: &Path, how: Compare) -> Result<Blobs> {
        let mut child = super::git::git(root)
            // Missing versions are reported, not fetched one by one (git 2.45 and later).
            .env("GIT_NO_LAZY_FETCH", "1")
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error::io(root, e))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::io(
                root,
                io::Error::other("`git cat-file`: no pipes"),
            ));
        };
        let (tx, answers) = channel();
        let reader = std::thread::Builder::new()
            .name("git-blobs".into())
            .spawn(move || {
                let mut out = BufReader::with_capacity(1 << 16, stdout);
                while let Some(answer) = read_one(&mut out, how)? {
                    if tx.send(answer).is_err() {
                        break;
                    }
                }
                Ok(())
            })
            .map_err(|e| Error::io(root, e))?;
        Ok(Blobs {
            child,
            input: Some(BufWriter::new(stdin)),
            answers,
            reader: Some(reader),
            known: HashMap::new(),
            unsent: false,
            pending: 0,
            read: 0,
            root: root.to_path_buf(),
            lazy: Lazy::default(),
        })
    }

    /// What is known of `oid`; asks for it the first time.
    pub fn get(&mut self, oid: &[u8]) -> Result<Version> {
        if let Some(v) = self.known.get(oid) {
            return Ok(*v);
        }
        self.ask(oid)?;
        self.known.insert(oid.into(), Version::Pending);
        self.pending += 1;
        Ok(Version::Pending)
    }

    /// Writes a request for `oid` to cat-file.
    fn ask(&mut self, oid: &[u8]) -> Result<()> {
        let input = self.input.as_mut().ok_or_else(closed)?;
        input.write_all(oid).map_err(broken)?;
        input.write_all(b"\n").map_err(broken)?;
        self.unsent = true;
        Ok(())
    }

    /// What fetching a partial clone's missing versions took, when any were.
    pub fn fetches(&self) -> Option<&Fetches> {
        Some(&self.lazy.report).filter(|r| r.requests > 0)
    }

    /// Sends the requests written so far.
    pub fn flush(&mut self) -> Result<()> {
        if self.unsent {
            self.input
                .as_mut()
                .ok_or_else(closed)?
                .flush()
                .map_err(broken)?;
            self.unsent = false;
        }
        Ok(())
    }

    /// Requests asked for and not answered yet.
    pub fn pending(&self) -> usize {
        self.pending
    }

    /// Versions read so far (each at most once a run).
    pub fn read(&self) -> usize {
        self.read
    }

    /// The versions answered since the last call, without waiting (a batch of missing ones
    /// is fetched first when it is full).
    pub fn answered(&mut self) -> Result<Vec<Oid>> {
        let mut got = Vec::new();
        while let Ok(a) = self.answers.try_recv() {
            got.extend(self.note(a));
        }
        if self.lazy.waiting.len() >= FETCH_BATCH {
            got.extend(self.fetch_missing()?);
        }
        Ok(got)
    }

    /// Waits for at least one answer (after sending what is written; fetching the missing
    /// versions when nothing else is outstanding); then as [`Blobs::answered`].
    pub fn wait(&mut self) -> Result<Vec<Oid>> {
        loop {
            if !self.lazy.waiting.is_empty() && self.pending == self.lazy.waiting.len() {
                let got = self.fetch_missing()?;
                if !got.is_empty() {
                    return Ok(got);
                }
            }
            self.flush()?;
            let first = self.answers.recv().map_err(|_| self.failure())?;
            if let Some(oid) = self.note(first) {
                let mut got = vec![oid];
                got.extend(self.answered()?);
                return Ok(got);
            }
        }
    }

    /// Takes an answer in; `None` when it is a version to fetch first.
    fn note(&mut self, (oid, v): (Oid, Version)) -> Option<Oid> {
        if v == Version::Missing && !self.lazy.tried.contains(&oid) && self.partial() {
            self.lazy.waiting.push(oid);
            return None;
        }
        self.pending = self.pending.saturating_sub(1);
        self.read += 1;
        self.known.insert(oid.clone(), v);
        Some(oid)
    }

    /// Whether the repository is a partial clone (asked once, when a version is missing).
    fn partial(&mut self) -> bool {
        let root = &self.root;
        self.lazy
            .remote
            .get_or_insert_with(|| super::shallow::promisor_remote(root))
            .is_some()
    }

    /// Fetches the versions reported missing and asks for them again; those that cannot be
    /// fetched are answered as missing (returned).
    fn fetch_missing(&mut self) -> Result<Vec<Oid>> {
        let oids = std::mem::take(&mut self.lazy.waiting);
        let lazy = &mut self.lazy;
        let deadline = *lazy
            .deadline
            .get_or_insert_with(|| Instant::now() + super::shallow::FETCH_LIMIT);
        let remote = lazy.remote.clone().flatten().unwrap_or_default();
        let fetched = match &lazy.report.failed {
            // One failure (no network, the time is up) ends fetching for the run.
            Some(_) => false,
            None => {
                let start = Instant::now();
                let result = super::shallow::fetch_objects(&self.root, &remote, &oids, deadline);
                lazy.report.requests += 1;
                lazy.report.versions += oids.len();
                lazy.report.seconds += start.elapsed().as_secs_f64();
                lazy.report.failed = result.err();
                lazy.report.failed.is_none()
            }
        };
        lazy.tried.extend(oids.iter().cloned());
        if fetched {
            for oid in &oids {
                self.ask(oid)?;
            }
            self.flush()?;
            return Ok(Vec::new());
        }
        Ok(oids
            .into_iter()
            .filter_map(|oid| self.note((oid, Version::Missing)))
            .collect())
    }

    /// Why the answers stopped: the reader's error, or git's exit.
    fn failure(&mut self) -> Error {
        let why = match self.reader.take().map(JoinHandle::join) {
            Some(Ok(Err(e))) => e.to_string(),
            Some(Err(_)) => "its reader panicked".into(),
            _ => "it stopped answering".into(),
        };
        Error::io(
            "git cat-file",
            io::Error::other(format!("`git cat-file --batch` failed: {why}")),
        )
    }
}

impl Drop for Blobs {
    fn drop(&mut self) {
        // Closing its input ends cat-file; the reader then sees the end of its output.
        self.input = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

fn closed() -> Error {
    Error::io("git cat-file", io::Error::other("input already closed"))
}

fn broken(e: io::Error) -> Error {
    Error::io("git cat-file", e)
}

/// Reads one answer: `<oid> <type> <size>\n<bytes>\n`, or `<oid> missing\n`; `None` at the
/// end of the output.
fn read_one(out: &mut impl BufRead, how: Compare) -> io::Result<Option<(Oid, Version)>> {
    let mut head = Vec::with_capacity(96);
    if out.read_until(b'\n', &mut head)? == 0 {
        return Ok(None);
    }
    let head = head.strip_suffix(b"\n").unwrap_or(&head);
    let mut parts = head.split(|b| *b == b' ');
    let oid: Oid = parts.next().unwrap_or_default().into();
    let (kind, size) = (parts.next(), parts.next());
    let Some(size) = size
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.parse::<u64>().ok())
    else {
        // `missing` or `ambiguous`: nothing follows the line.
        return Ok(Some((oid, Version::Missing)));
    };
    let fp = if size <= WHOLE_LIMIT {
        let mut bytes = Vec::with_capacity(size as usize);
        out.take(size).read_to_end(&mut bytes)?;
        short_read(bytes.len() as u64, size)?;
        fingerprint(&bytes, how)
    } else {
        let mut s = Streamed::new();
        let mut left = size;
        while left > 0 {
            let buf = out.fill_buf()?;
            if buf.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let n = buf.len().min(left as usize);
            s.feed(&buf[..n]);
            out.consume(n);
            left -= n as u64;
        }
        s.finish()
    };
    let mut nl = [0u8; 1];
    out.read_exact(&mut nl)?;
    let v = if kind == Some(b"blob") {
        Version::Read(fp)
    } else {
        Version::Missing
    };
    Ok(Some((oid, v)))
}

fn short_read(got: u64, want: u64) -> io::Result<()> {
    if got < want {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_one_after_another() {
        let out = b"aa blob 3\nabc\nbb missing\ncc blob 0\n\n";
        let mut r = &out[..];
        let a = read_one(&mut r, Compare::Bytes).unwrap().unwrap();
        assert_eq!(&*a.0, b"aa");
        assert_eq!(a.1, Version::Read(fingerprint(b"abc", Compare::Bytes)));
        let b = read_one(&mut r, Compare::Bytes).unwrap().unwrap();
        assert_eq!((&*b.0, b.1), (&b"bb"[..], Version::Missing));
        let c = read_one(&mut r, Compare::Bytes).unwrap().unwrap();
        assert_eq!(c.1, Version::Read(fingerprint(b"", Compare::Bytes)));
        assert!(read_one(&mut r, Compare::Bytes).unwrap().is_none());
        let mut cut = &b"aa blob 9\nabc"[..];
        assert!(read_one(&mut cut, Compare::Bytes).is_err());
    }
}
