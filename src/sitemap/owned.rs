//! The record of the files sitemapgen wrote in an output folder: what makes the set ours.
//!
//! Every run that writes leaves [`RECORD_NAME`] in the output folder: one line per file it
//! wrote there (sitemaps, indexes, `sitemap.txt`, and any file registered with the writer),
//! each with its length and CRC-32. A file is ours when the record names it **and** its bytes
//! still match: a file another tool wrote over since (Hugo's own `sitemap.xml`, say) is no
//! longer ours. The next run removes the files of ours it no longer writes (gzip turned off,
//! fewer parts, another layout) and nothing else; a sitemap it finds that is not ours is
//! reported, never removed (see [`super::foreign`]).
//!
//! Crash safety: before the new files are renamed into place the record names both the old
//! and the new files (each path with every stamp it may have), and only once the stale files
//! are gone is it cut down to the new set. A run killed anywhere leaves a record that covers
//! every file of ours on disk. The record itself is written to a temporary file and renamed.
//!
//! **Registering a file.** A stage that writes a file of its own into the output folder (issue
//! 26's IndexNow key file) hands it to the writer as an [`OutputFile`] in
//! [`SetOptions::extra_files`](super::setwrite::SetOptions::extra_files) (the pipeline builds the
//! set in [`crate::pipeline::sitemap_set`]): it is then written with the sitemaps (temporary
//! file and rename), recorded here, never reported as someone else's, and removed by the first
//! run that no longer registers it, unless its bytes changed since.
//!
//! [`OutputFile`]: super::write::OutputFile

use crate::error::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

/// The record's file name in the output folder (hidden: it is bookkeeping, not content).
pub const RECORD_NAME: &str = ".sitemapgen-files";
/// The first line of a record, naming the format.
const HEADER: &str = "# sitemapgen: the files it wrote in this folder; it removes them when a later run no longer writes them (a file that changed since is not touched)";
/// The format's version line.
const VERSION: &str = "v1";
/// A record longer than this is not one of ours (a million files of 60 bytes a line).
const MAX_RECORD_BYTES: u64 = 64 << 20;

/// What identifies the bytes of a file we wrote: its length and CRC-32 (enough to tell our
/// file from one another tool wrote over it; not a defence against tampering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stamp {
    /// Bytes on disk.
    pub len: u64,
    /// CRC-32 (IEEE) of those bytes.
    pub crc: u32,
}

impl Stamp {
    /// The stamp of `bytes`.
    pub fn of(bytes: &[u8]) -> Stamp {
        let mut w = StampWriter::new(io::sink());
        // Writing to a sink cannot fail.
        let _ = w.write_all(bytes);
        w.stamp()
    }

    /// The stamp of the file at `path`, read in full.
    pub fn of_file(path: &Path) -> io::Result<Stamp> {
        let mut w = StampWriter::new(io::sink());
        // A FIFO put there since the caller looked would block a plain open.
        io::copy(&mut crate::fsread::open(path)?, &mut w)?;
        Ok(w.stamp())
    }
}

/// A writer that stamps what passes through it on its way to `inner`.
pub(super) struct StampWriter<W> {
    inner: W,
    crc: crc32fast::Hasher,
    len: u64,
}

impl<W> StampWriter<W> {
    pub(super) fn new(inner: W) -> StampWriter<W> {
        StampWriter {
            inner,
            crc: crc32fast::Hasher::new(),
            len: 0,
        }
    }

    /// The stamp of everything written so far.
    pub(super) fn stamp(&self) -> Stamp {
        Stamp {
            len: self.len,
            crc: self.crc.clone().finalize(),
        }
    }

    pub(super) fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for StampWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Whose a file in the output folder is, by the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ownership {
    /// The record names it and its bytes are the ones we wrote.
    Ours,
    /// The record names it, but its bytes changed since: another tool wrote over it.
    Changed,
    /// The record does not name it.
    Unrecorded,
    /// There is no such file.
    Missing,
}

/// The files of ours in one output folder: path (below the folder, `/`-separated) to the
/// stamps it may have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    files: BTreeMap<String, BTreeSet<Stamp>>,
}

impl Record {
    /// The record in `dir`, or `None` when there is none (or it is not one of ours).
    pub fn read(dir: &Path) -> Option<Record> {
        let mut text = String::new();
        crate::fsread::open(&dir.join(RECORD_NAME))
            .ok()?
            .take(MAX_RECORD_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        Record::parse(&text)
    }

    /// Reads a record's text; `None` when it is not one.
    fn parse(text: &str) -> Option<Record> {
        let mut lines = text.lines();
        lines.next().filter(|l| l.starts_with("# sitemapgen"))?;
        lines.next().filter(|l| *l == VERSION)?;
        let mut record = Record::default();
        for line in lines.filter(|l| !l.is_empty()) {
            let mut fields = line.splitn(3, ' ');
            let crc = u32::from_str_radix(fields.next()?, 16).ok()?;
            let len = fields.next()?.parse().ok()?;
            let path = fields.next()?;
            if !is_safe_path(path) {
                return None;
            }
            record.insert(path, Stamp { len, crc });
        }
        Some(record)
    }

    /// The record as stored.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!("{HEADER}\n{VERSION}\n");
        for (path, stamps) in &self.files {
            for s in stamps {
                out.push_str(&format!("{:08x} {} {path}\n", s.crc, s.len));
            }
        }
        out.into_bytes()
    }

    /// Stores the record in `dir` (temporary file, then rename).
    pub fn write(&self, dir: &Path) -> Result<()> {
        let dest = dir.join(RECORD_NAME);
        // A temporary name the next run's sweep knows (a killed run's is removed).
        let tmp = super::files::temp_path(dir, RECORD_NAME, 0);
        let written = fs::write(&tmp, self.to_bytes()).and_then(|()| fs::rename(&tmp, &dest));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(Error::io(dest, e));
        }
        Ok(())
    }

    /// Notes that the file at `path` (below the folder) has bytes of `stamp`.
    pub fn insert(&mut self, path: &str, stamp: Stamp) {
        self.files
            .entry(path.to_string())
            .or_default()
            .insert(stamp);
    }

    /// Every path the record names.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// True when the record names `path`.
    pub fn names(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// True when the record names `path` with bytes of `stamp`.
    pub fn owns(&self, path: &str, stamp: Stamp) -> bool {
        self.files.get(path).is_some_and(|s| s.contains(&stamp))
    }

    /// Whose the file at `dir/path` is (reading it when the record names it).
    pub fn ownership(&self, dir: &Path, path: &str) -> Ownership {
        let file = dir.join(path);
        if !self.names(path) {
            return match fs::symlink_metadata(&file) {
                Ok(_) => Ownership::Unrecorded,
                Err(_) => Ownership::Missing,
            };
        }
        // A link is never ours: we write files.
        match fs::symlink_metadata(&file) {
            Ok(m) if m.is_file() => {}
            Ok(_) => return Ownership::Changed,
            Err(_) => return Ownership::Missing,
        }
        match Stamp::of_file(&file) {
            Ok(s) if self.owns(path, s) => Ownership::Ours,
            Ok(_) => Ownership::Changed,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ownership::Missing,
            Err(_) => Ownership::Changed,
        }
    }
}

/// A path a record may name: relative, `/`-separated, no `.` or `..` parts, nothing hidden
/// (so the record never names itself or a temporary file).
fn is_safe_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && path
            .split('/')
            .all(|p| !p.is_empty() && !p.starts_with('.') && !p.contains('\0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_what_it_stored() {
        let mut r = Record::default();
        r.insert("sitemap.xml", Stamp::of(b"abc"));
        r.insert("en/sitemap.xml", Stamp::of(b"de"));
        r.insert("en/sitemap.xml", Stamp::of(b"fgh"));
        let text = String::from_utf8(r.to_bytes()).unwrap();
        assert_eq!(Record::parse(&text), Some(r.clone()));
        assert!(r.owns("en/sitemap.xml", Stamp::of(b"de")));
        assert!(r.owns("en/sitemap.xml", Stamp::of(b"fgh")));
        assert!(!r.owns("en/sitemap.xml", Stamp::of(b"abc")));
        assert!(!r.owns("fr/sitemap.xml", Stamp::of(b"de")));
    }

    #[test]
    fn stamps_tell_bytes_apart() {
        assert_eq!(Stamp::of(b"").len, 0);
        // The check value of CRC-32 (IEEE).
        assert_eq!(Stamp::of(b"123456789").crc, 0xcbf4_3926);
        assert_ne!(Stamp::of(b"ab"), Stamp::of(b"ba"));
    }

    #[test]
    fn what_is_not_a_record_is_none() {
        for text in [
            "",
            "v1\n",
            "# sitemapgen\nv2\n",
            "# sitemapgen\nv1\nzz 1 a.xml\n",
            "# sitemapgen\nv1\n00000000 x a.xml\n",
            "# sitemapgen\nv1\n00000000 1 ../a.xml\n",
            "# sitemapgen\nv1\n00000000 1 /etc/passwd\n",
            "# sitemapgen\nv1\n00000000 1 .sitemapgen-files\n",
            "# sitemapgen\nv1\n00000000 1\n",
        ] {
            assert_eq!(Record::parse(text), None, "{text:?}");
        }
        assert_eq!(Record::parse("# sitemapgen\nv1\n"), Some(Record::default()));
    }

    #[test]
    fn ownership_follows_the_bytes() {
        let d = tempfile::tempdir().unwrap();
        fs::write(d.path().join("ours.xml"), "ours").unwrap();
        fs::write(d.path().join("changed.xml"), "someone else's").unwrap();
        fs::write(d.path().join("other.xml"), "other").unwrap();
        let mut r = Record::default();
        r.insert("ours.xml", Stamp::of(b"ours"));
        r.insert("changed.xml", Stamp::of(b"ours"));
        r.insert("gone.xml", Stamp::of(b"ours"));
        r.write(d.path()).unwrap();
        let r = Record::read(d.path()).unwrap();
        assert_eq!(r.ownership(d.path(), "ours.xml"), Ownership::Ours);
        assert_eq!(r.ownership(d.path(), "changed.xml"), Ownership::Changed);
        assert_eq!(r.ownership(d.path(), "other.xml"), Ownership::Unrecorded);
        assert_eq!(r.ownership(d.path(), "gone.xml"), Ownership::Missing);
        assert_eq!(r.ownership(d.path(), "nothing.xml"), Ownership::Missing);
    }
}
