//! The record of the files sitemapgen wrote into an output folder: what makes the set ours.
//!
//! **Ours means created by us.** A file is ours when a run of ours created it where no file
//! was (or took over the generator's own sitemap, see [`super::set_write`]), and it is still
//! byte for byte what we wrote. Every run that writes keeps, per output folder, one line per
//! file it wrote there (sitemaps, indexes, `sitemap.txt`, the IndexNow key file), each with
//! its length and CRC-32. A file another tool wrote over since (Hugo's own `sitemap.xml`, say)
//! is no longer ours. The next run removes the files of ours it no longer writes (gzip turned
//! off, fewer parts, another layout) and nothing else: only names of the kinds we write
//! (`*.xml`, `*.xml.gz`, `*.txt`), inside the output folder and never through a link, whatever
//! a record says. A sitemap that is not ours is reported, never removed (see [`super::foreign`]).
//!
//! **Where the record lives.** Not in the output folder: that folder is deployed, and a file
//! of bookkeeping there would be served to anyone and change with every commit of a committed
//! `public/`. It is kept in the git folder of the checkout the output folder is in
//! (`.git/sitemapgen/files-<key>`, beside the git dates of [`crate::lastmod`]), else in the
//! user's cache folder (`$XDG_CACHE_HOME` or `~/.cache`, `sitemapgen/files/`); the key is the
//! CRC-32 of the output folder's real path, which the record also names. The record an older
//! sitemapgen kept in the folder itself (`.sitemapgen-files`) is read once and removed.
//!
//! **One writer at a time.** A run holds a lock on the output folder (`flock` on the folder
//! itself, so no lock file is left behind) from before it reads the record until after it
//! writes the new one: two builds at once take turns, and neither loses the other's files.
//!
//! Crash safety: before the new files are renamed into place the record names both the old
//! and the new files (each path with every stamp it may have), and only once the stale files
//! are gone is it cut down to the new set. A run killed anywhere leaves a record that covers
//! every file of ours on disk. The record itself is written to a temporary file and renamed.
//!
//! **Registering a file.** A stage that writes a file of its own into the output folder (the
//! IndexNow key file) hands it to the writer as an [`OutputFile`] in
//! [`SetOptions::extra_files`](super::set_write::SetOptions::extra_files) (the pipeline builds the
//! set in [`crate::pipeline::sitemap_set`]): it is then written with the sitemaps (temporary
//! file and rename), recorded here, never reported as someone else's, and removed by the first
//! run that no longer registers it, unless its bytes changed since.
//!
//! [`OutputFile`]: super::urlset::OutputFile

use crate::vocab::error::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The name of the record older sitemapgens kept in the output folder itself: read once,
/// then removed.
pub const LEGACY_RECORD_NAME: &str = ".sitemapgen-files";
/// The first line of a record, naming the format.
const HEADER: &str = "# sitemapgen: the files it wrote in one output folder; it removes them when a later run no longer writes them (a file that changed since is not touched)";
/// The format's version line: v2 names its folder on the next line; v1 (the legacy record in
/// the folder itself) does not.
const VERSION: &str = "v2";
const LEGACY_VERSION: &str = "v1";
/// A record longer than this is not one of ours (a million files of 60 bytes a line).
const MAX_RECORD_BYTES: u64 = 64 << 20;
/// How long a run waits for another one writing into the same output folder.
const LOCK_WAIT: Duration = Duration::from_secs(120);

/// Where the record of `output_dir` is kept (see the module doc); `None` when the folder does
/// not exist or there is no git folder and no cache folder to keep it in.
pub fn record_path(output_dir: &Path) -> Option<PathBuf> {
    let real = output_dir.canonicalize().ok()?;
    let key = format!(
        "files-{:08x}",
        crc32fast::hash(real.as_os_str().as_encoded_bytes())
    );
    if let Some(git) = git_dir_above(&real) {
        return Some(git.join("sitemapgen").join(key));
    }
    Some(crate::vocab::fswrite::cache_dir()?.join("files").join(key))
}

/// The git folder of the checkout `dir` is in: the nearest `.git` folder above it, or the one
/// a `.git` file points at (a worktree or submodule).
fn git_dir_above(dir: &Path) -> Option<PathBuf> {
    for folder in dir.ancestors() {
        let dot_git = folder.join(".git");
        let Ok(meta) = fs::symlink_metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            return Some(dot_git);
        }
        if meta.is_file() {
            let text = crate::vocab::fsread::read_string(&dot_git, 4096).ok()?;
            let target = text.strip_prefix("gitdir:")?.trim();
            let target = folder.join(target);
            return target.is_dir().then_some(target);
        }
    }
    None
}

/// The lock a writing run holds on its output folder (see the module doc); released when
/// dropped, or when the process ends however it ends.
pub struct Lock {
    #[cfg(unix)]
    _dir: Option<fs::File>,
}

impl Lock {
    /// Takes the lock on `output_dir` (which must exist), waiting up to two minutes for a run
    /// that holds it. Where the file system cannot lock, the run goes on without.
    pub fn take(output_dir: &Path) -> Result<Lock> {
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            let Ok(dir) = fs::File::open(output_dir) else {
                return Ok(Lock { _dir: None });
            };
            let start = Instant::now();
            loop {
                // SAFETY: flock on a descriptor we own; no memory is involved.
                if unsafe { libc::flock(dir.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                    return Ok(Lock { _dir: Some(dir) });
                }
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::WouldBlock {
                    // No locks on this file system (some network mounts): go on without.
                    return Ok(Lock { _dir: None });
                }
                if start.elapsed() >= LOCK_WAIT {
                    return Err(Error::io(
                        output_dir,
                        io::Error::other(format!(
                            "another sitemapgen run has been writing into this folder for {} s: wait for it to end (or stop it), then run again",
                            LOCK_WAIT.as_secs()
                        )),
                    ));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (output_dir, Instant::now(), LOCK_WAIT);
            Ok(Lock {})
        }
    }
}

/// True when `rel` (a recorded path below `root`) may be removed as a file of ours: a name of
/// a kind we write, a regular file, and no link on the way to it from `root`.
pub fn removable(root: &Path, rel: &str) -> bool {
    if !is_safe_path(rel) {
        return false;
    }
    let mut path = root.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for (k, part) in parts.iter().enumerate() {
        path.push(part);
        match fs::symlink_metadata(&path) {
            Ok(m) if k + 1 < parts.len() && m.is_dir() => {}
            Ok(m) if k + 1 == parts.len() && m.is_file() => {}
            _ => return false,
        }
    }
    true
}

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
        io::copy(&mut crate::vocab::fsread::open(path)?, &mut w)?;
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
    /// The record of the output folder `dir`, or `None` when there is none (or it is not one
    /// of ours): the one kept outside the folder, else the legacy one in it.
    pub fn read(dir: &Path) -> Option<Record> {
        let real = dir.canonicalize().ok()?;
        if let Some(record) = record_path(dir)
            .and_then(|p| read_capped(&p))
            .and_then(|text| Record::parse(&text, Some(&real)))
        {
            return Some(record);
        }
        read_capped(&dir.join(LEGACY_RECORD_NAME)).and_then(|text| Record::parse(&text, None))
    }

    /// Reads a record's text; `None` when it is not one. `dir` is the folder a v2 record must
    /// name; without it only the legacy v1 format is read.
    fn parse(text: &str, dir: Option<&Path>) -> Option<Record> {
        let mut lines = text.lines();
        lines.next().filter(|l| l.starts_with("# sitemapgen"))?;
        let version = lines.next()?;
        match dir {
            Some(dir) if version == VERSION => {
                let named = lines.next()?.strip_prefix("dir ")?;
                if Path::new(named) != dir {
                    return None;
                }
            }
            None if version == LEGACY_VERSION => {}
            _ => return None,
        }
        let mut record = Record::default();
        for line in lines.filter(|l| !l.is_empty()) {
            let mut fields = line.splitn(3, ' ');
            let crc = u32::from_str_radix(fields.next()?, 16).ok()?;
            let len = fields.next()?.parse().ok()?;
            let path = fields.next()?;
            // A name we never write (`index.html`), or one that leaves the folder, is not
            // ours whatever the record says: it is passed over.
            if is_safe_path(path) {
                record.insert(path, Stamp { len, crc });
            }
        }
        Some(record)
    }

    /// The record as stored for the output folder whose real path is `dir`.
    fn to_bytes(&self, dir: &Path) -> Vec<u8> {
        let mut out = format!("{HEADER}\n{VERSION}\ndir {}\n", dir.display());
        for (path, stamps) in &self.files {
            for s in stamps {
                out.push_str(&format!("{:08x} {} {path}\n", s.crc, s.len));
            }
        }
        out.into_bytes()
    }

    /// Stores the record of the output folder `dir` where it is kept (temporary file, then
    /// rename), and removes the legacy record from the folder. The caller holds the folder's
    /// [`Lock`]. Where there is no place to
    /// keep it, nothing is stored: the next run then removes no file of ours.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let (Ok(real), Some(dest)) = (dir.canonicalize(), record_path(dir)) else {
            return Ok(());
        };
        let folder = dest.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
        let name = dest
            .file_name()
            .map_or("files".into(), |n| n.to_string_lossy());
        // What a killed run left: the caller holds the folder's lock, so no other run is
        // writing this record now.
        let leftover = format!(".{name}{}", crate::vocab::fswrite::TEMP_TAG);
        for entry in fs::read_dir(folder).into_iter().flatten().flatten() {
            if entry
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&leftover))
            {
                let _ = fs::remove_file(entry.path());
            }
        }
        let (mut file, tmp) =
            crate::vocab::fswrite::create_temp(folder, &name).map_err(|e| Error::io(&dest, e))?;
        let written = file
            .write_all(&self.to_bytes(&real))
            .and_then(|()| file.sync_data())
            .and_then(|()| fs::rename(&tmp, &dest));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(Error::io(dest, e));
        }
        remove_legacy(dir);
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
        // A link is never ours, nor a file reached through one: we write files, in folders.
        if !removable(dir, path) {
            return match fs::symlink_metadata(&file) {
                Ok(_) => Ownership::Changed,
                Err(_) => Ownership::Missing,
            };
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
/// (so never a temporary file), and a name of a kind we write: a sitemap or index
/// (`.xml`, `.xml.gz`), `sitemap.txt` or the IndexNow key file (`.txt`).
fn is_safe_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && [".xml", ".xml.gz", ".txt"]
            .iter()
            .any(|e| path.ends_with(e))
        && path
            .split('/')
            .all(|p| !p.is_empty() && !p.starts_with('.') && !p.contains('\0'))
}

/// The text of a record file, when it is a regular file within the size a record may have.
fn read_capped(path: &Path) -> Option<String> {
    let mut text = String::new();
    crate::vocab::fsread::open(path)
        .ok()?
        .take(MAX_RECORD_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// Removes the record an older sitemapgen kept in the output folder, once the record is kept
/// elsewhere: only when it is a regular file that reads as such a record.
fn remove_legacy(dir: &Path) {
    let path = dir.join(LEGACY_RECORD_NAME);
    let is_file = fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
    if is_file && read_capped(&path).is_some_and(|t| Record::parse(&t, None).is_some()) {
        let _ = fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_v2(text: &str) -> Option<Record> {
        Record::parse(text, Some(Path::new("/site/public")))
    }

    #[test]
    fn a_record_reads_back_what_it_stored() {
        let mut r = Record::default();
        r.insert("sitemap.xml", Stamp::of(b"abc"));
        r.insert("en/sitemap.xml", Stamp::of(b"de"));
        r.insert("en/sitemap.xml", Stamp::of(b"fgh"));
        let text = String::from_utf8(r.to_bytes(Path::new("/site/public"))).unwrap();
        assert_eq!(parse_v2(&text), Some(r.clone()));
        // Kept for another folder (a CRC clash of two keys): not this folder's.
        assert_eq!(Record::parse(&text, Some(Path::new("/other/public"))), None);
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
            "v2\n",
            "# sitemapgen\nv3\ndir /site/public\n",
            "# sitemapgen\nv2\n",
            "# sitemapgen\nv2\ndir /site\n",
            "# sitemapgen\nv2\ndir /site/public\nzz 1 a.xml\n",
            "# sitemapgen\nv2\ndir /site/public\n00000000 x a.xml\n",
            "# sitemapgen\nv2\ndir /site/public\n00000000 1\n",
        ] {
            assert_eq!(parse_v2(text), None, "{text:?}");
        }
        // The legacy format is read only where a legacy record is looked for.
        assert_eq!(parse_v2("# sitemapgen\nv1\n"), None);
        assert_eq!(
            Record::parse("# sitemapgen\nv1\n", None),
            Some(Record::default())
        );
        assert_eq!(
            parse_v2("# sitemapgen\nv2\ndir /site/public\n"),
            Some(Record::default())
        );
    }

    #[test]
    fn entries_for_names_we_never_write_are_passed_over() {
        let r = parse_v2(
            "# sitemapgen\nv2\ndir /site/public\n00000001 1 sitemap.xml\n00000001 1 ../a.xml\n00000001 1 /etc/passwd.txt\n00000001 1 index.html\n00000001 1 css/site.css\n00000001 1 .sitemapgen-files\n00000001 1 en/.x.xml\n00000001 1 key.txt\n00000001 1 s.xml.gz\n",
        )
        .unwrap();
        let paths: Vec<&str> = r.paths().collect();
        assert_eq!(paths, ["key.txt", "s.xml.gz", "sitemap.xml"]);
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
        assert_eq!(r.ownership(d.path(), "ours.xml"), Ownership::Ours);
        assert_eq!(r.ownership(d.path(), "changed.xml"), Ownership::Changed);
        assert_eq!(r.ownership(d.path(), "other.xml"), Ownership::Unrecorded);
        assert_eq!(r.ownership(d.path(), "gone.xml"), Ownership::Missing);
        assert_eq!(r.ownership(d.path(), "nothing.xml"), Ownership::Missing);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_reached_through_a_link_is_never_ours_nor_removable() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("public");
        let outside = d.path().join("outside");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(outside.join("fr")).unwrap();
        fs::write(outside.join("fr/sitemap.xml"), "ours").unwrap();
        std::os::unix::fs::symlink(outside.join("fr"), root.join("fr")).unwrap();
        std::os::unix::fs::symlink(outside.join("fr/sitemap.xml"), root.join("s.xml")).unwrap();
        let mut r = Record::default();
        r.insert("fr/sitemap.xml", Stamp::of(b"ours"));
        r.insert("s.xml", Stamp::of(b"ours"));
        assert_eq!(r.ownership(&root, "fr/sitemap.xml"), Ownership::Changed);
        assert_eq!(r.ownership(&root, "s.xml"), Ownership::Changed);
        assert!(!removable(&root, "fr/sitemap.xml"));
        assert!(!removable(&root, "s.xml"));
        fs::write(root.join("real.xml"), "x").unwrap();
        assert!(removable(&root, "real.xml"));
        assert!(!removable(&root, "index.html"));
    }

    #[test]
    fn the_record_is_kept_outside_the_folder_and_replaces_the_legacy_one() {
        let d = tempfile::tempdir().unwrap();
        // A checkout: the record goes into its git folder.
        let root = d.path().join("site/public");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(d.path().join("site/.git")).unwrap();
        let legacy = "# sitemapgen: old\nv1\n00000000 0 old.xml\n";
        fs::write(root.join(LEGACY_RECORD_NAME), legacy).unwrap();
        let read = Record::read(&root).unwrap();
        assert_eq!(read.paths().collect::<Vec<_>>(), ["old.xml"]);
        let mut r = Record::default();
        r.insert("sitemap.xml", Stamp::of(b"abc"));
        r.write(&root).unwrap();
        let kept = record_path(&root).unwrap();
        assert!(
            kept.starts_with(d.path().join("site/.git/sitemapgen")),
            "{kept:?}"
        );
        assert!(!root.join(LEGACY_RECORD_NAME).exists());
        assert_eq!(fs::read_dir(&root).unwrap().count(), 0);
        assert_eq!(Record::read(&root), Some(r));
    }

    #[cfg(unix)]
    #[test]
    fn a_second_writer_waits_for_the_first() {
        let d = tempfile::tempdir().unwrap();
        let first = Lock::take(d.path()).unwrap();
        let path = d.path().to_path_buf();
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            let _second = Lock::take(&path).unwrap();
            tx.send(()).unwrap();
        });
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        drop(first);
        assert!(rx.recv_timeout(Duration::from_secs(10)).is_ok());
        waiter.join().unwrap();
    }
}
