//! Getting the files onto disk (or into memory) safely: the two sinks the writer serialises
//! into, deterministic gzip, temporary files renamed into place, and what an earlier run left
//! behind that may be removed.
//!
//! Crash safety, in short: every file is written to a hidden temporary file
//! (`.NAME.tmp-PID`) and renamed into place, so no file is ever half-written. A split
//! sitemap is several files, and renaming them one by one over an old set would let a
//! reader (or a kill between two renames) see an old index with new parts. When the old
//! index names files the new run replaces, the new parts first go live under interim names
//! (`sitemap1-tmpPID.xml`) named by an interim index, then take their real names (hard
//! links), then the real index replaces the interim one: at every instant the index on
//! disk names parts of its own run only. Temporary and interim files that a killed run
//! left behind are removed by the next run (see [`sweep`]).

use super::owned::{LEGACY_RECORD_NAME, Stamp, StampWriter};
use super::read::{Gzip, Sitemap, SitemapKind};
use super::urlset::{OutputFile, Plan};
use crate::vocab::error::{Error, Result};
use flate2::{Compression, GzBuilder};
use std::collections::{HashSet, VecDeque};
use std::fs;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// Marks a hidden temporary file: `.NAME` + this + the writer's PID + `.` + a random number.
use crate::vocab::fswrite::TEMP_TAG;
/// Marks an interim part name: `PREFIX N` + this + the writer's PID + `SUFFIX`.
pub(super) const INTERIM_TAG: &str = "-tmp";

/// An error writing `dest` (through a temporary file or not): it names `dest`, the file the
/// user knows, and says what to do.
fn write_error(dest: &Path, e: io::Error) -> Error {
    use io::ErrorKind as K;
    let hint = match e.kind() {
        K::PermissionDenied | K::ReadOnlyFilesystem => {
            "the output folder is not writable: fix its permissions, or write elsewhere with --output (output_dir in sitemap.toml)"
        }
        K::StorageFull | K::QuotaExceeded => "the disk is full: free some space and run again",
        _ => {
            "check the output folder, or write elsewhere with --output (output_dir in sitemap.toml)"
        }
    };
    Error::io(
        dest,
        io::Error::new(e.kind(), format!("could not be written ({e}): {hint}")),
    )
}

/// A new hidden temporary path for `name` in `dir`, at a name nobody can guess; the file is
/// created by [`write_file`], which fails rather than open anything already there.
pub(super) fn temp_path(dir: &Path, name: &str) -> PathBuf {
    crate::vocab::fswrite::temp_name(dir, name)
}

/// The name and writer PID of a hidden temporary file name made by [`temp_path`].
fn parse_temp(file: &str) -> Option<(&str, u32)> {
    let (name, tail) = file.strip_prefix('.')?.rsplit_once(TEMP_TAG)?;
    let pid = tail.split_once('.').map_or(tail, |(pid, k)| {
        if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) {
            pid
        } else {
            ""
        }
    });
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// Receives finished files; the one place that differs between [`render`](super::urlset::render) and [`write`](super::urlset::write).
pub(super) trait Sink {
    /// Stores file `name` made of `chunks` in order, gzip-compressed when `compress`.
    fn file(&mut self, name: &str, compress: bool, chunks: &[&[u8]]) -> Result<()>;
}

/// Streams `chunks` into `w`, through a deterministic gzip encoder when `compress`.
///
/// Shared by both sinks, so memory and disk get the same bytes.
fn encode<W: Write>(mut w: W, compress: bool, chunks: &[&[u8]]) -> io::Result<W> {
    if !compress {
        for chunk in chunks {
            w.write_all(chunk)?;
        }
        return Ok(w);
    }
    // mtime 0, no file name and a fixed OS byte: the same input gives the same bytes anywhere.
    let mut gz = GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(w, Compression::default());
    for chunk in chunks {
        gz.write_all(chunk)?;
    }
    gz.finish()
}

/// Collects the files in memory.
pub(super) struct MemSink(pub(super) Vec<OutputFile>);

impl Sink for MemSink {
    fn file(&mut self, name: &str, compress: bool, chunks: &[&[u8]]) -> Result<()> {
        let len: usize = chunks.iter().map(|c| c.len()).sum();
        let cap = if compress { len / 4 + 64 } else { len };
        let bytes =
            encode(Vec::with_capacity(cap), compress, chunks).map_err(|e| Error::io(name, e))?;
        self.0.push(OutputFile {
            name: name.to_string(),
            bytes,
        });
        Ok(())
    }
}

/// Writes each file to a temporary file in the output folder; [`DiskSink::commit`] renames
/// them into place, and dropping the sink removes whatever was not committed.
///
/// Compression is the slow part of a gzipped run (several times the serialisation), so
/// compressed files are handed to background threads, one per core, while the next part is
/// serialised; the bytes are the same as compressing inline (same `encode`).
pub(super) struct DiskSink<'a> {
    dir: &'a Path,
    /// (temporary path, final path), in the order the files were finished.
    pending: Vec<(PathBuf, PathBuf)>,
    /// Background compressions still running, oldest first, with the file each one is for.
    workers: VecDeque<(PathBuf, JoinHandle<io::Result<Stamp>>)>,
    /// The stamp of each file handed to the sink (its final path), for the record of ours.
    pub(super) stamps: Vec<(PathBuf, Stamp)>,
    /// Most background compressions at once (1: compress inline).
    threads: usize,
    /// Other files of this run that no index names (yet): removed when the sink is dropped.
    scratch: Vec<PathBuf>,
}

/// The interim set a split sitemap goes live as first (see the module doc).
pub(super) struct Interim {
    /// The interim name of each part, in the order the parts were finished (they are the
    /// first files handed to the sink, and the index follows them).
    pub(super) parts: Vec<String>,
    /// The uncompressed interim index naming them.
    pub(super) index: Vec<u8>,
    /// Whether the run writes gzip.
    pub(super) compress: bool,
}

impl<'a> DiskSink<'a> {
    pub(super) fn new(dir: &'a Path) -> DiskSink<'a> {
        DiskSink {
            dir,
            pending: Vec::new(),
            workers: VecDeque::new(),
            stamps: Vec::new(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            scratch: Vec::new(),
        }
    }

    /// Waits for the oldest background compression and reports its error, if any.
    fn join_oldest(&mut self) -> Result<()> {
        let Some((dest, handle)) = self.workers.pop_front() else {
            return Ok(());
        };
        match handle.join() {
            Ok(result) => {
                let stamp = result.map_err(|e| write_error(&dest, e))?;
                self.stamps.push((dest, stamp));
                Ok(())
            }
            Err(_) => Err(Error::io(
                dest,
                io::Error::other("the compression thread panicked"),
            )),
        }
    }

    /// Waits for every background compression (after which [`DiskSink::stamps`] is
    /// complete).
    pub(super) fn finish(&mut self) -> Result<()> {
        while !self.workers.is_empty() {
            self.join_oldest()?;
        }
        Ok(())
    }

    /// Waits for every background compression, then renames every temporary file into
    /// place in the order they were started; with `interim`, the parts go live under their
    /// interim names first (see the module doc).
    pub(super) fn commit(&mut self, interim: Option<Interim>) -> Result<()> {
        self.finish()?;
        let live_interims = match interim {
            Some(interim) => self.commit_interim(interim)?,
            None => Vec::new(),
        };
        let pending = std::mem::take(&mut self.pending);
        let mut rest = pending.into_iter();
        while let Some((tmp, dest)) = rest.next() {
            if let Err(e) = fs::rename(&tmp, &dest) {
                // Leave the not-yet-renamed temps to Drop.
                self.pending = std::iter::once((tmp, dest.clone())).chain(rest).collect();
                return Err(write_error(&dest, e));
            }
        }
        // The real index is in place: nothing names the interim parts any more. One left
        // behind is removed by the next run's sweep.
        for path in live_interims {
            let _ = fs::remove_file(path);
        }
        Ok(())
    }

    /// Puts the parts (the first pending files) live under interim names with an interim
    /// index, then gives each its real name, leaving the real index and what follows it
    /// pending; returns the interim paths, to remove once the real index is in place.
    fn commit_interim(&mut self, interim: Interim) -> Result<Vec<PathBuf>> {
        let count = interim.parts.len();
        if count >= self.pending.len() {
            return Err(Error::io(
                self.dir,
                io::Error::other("a split sitemap without its index"),
            ));
        }
        let parts: Vec<(PathBuf, PathBuf)> = self.pending.drain(..count).collect();
        let main = self.pending[0].1.clone();
        let interims: Vec<PathBuf> = interim.parts.iter().map(|n| self.dir.join(n)).collect();
        // Until the interim index is in place nothing names these: Drop may remove them.
        self.scratch
            .extend(parts.iter().map(|(tmp, _)| tmp.clone()));
        self.scratch.extend(interims.iter().cloned());
        for ((tmp, dest), path) in parts.iter().zip(&interims) {
            fs::rename(tmp, path).map_err(|e| write_error(dest, e))?;
        }
        let tmp = self.second_temp(&main);
        write_file(&tmp, interim.compress, &[&interim.index]).map_err(|e| write_error(&main, e))?;
        fs::rename(&tmp, &main).map_err(|e| write_error(&main, e))?;
        // The interim set is live: from here a failure leaves it whole, and the next run
        // replaces it.
        self.scratch.retain(|p| !interims.contains(p));
        for (path, (_, dest)) in interims.iter().zip(&parts) {
            let tmp = self.second_temp(dest);
            // A link costs nothing; where links are not to be had, a copy does the same.
            if fs::hard_link(path, &tmp).is_err() {
                fs::copy(path, &tmp).map_err(|e| write_error(dest, e))?;
            }
            fs::rename(&tmp, dest).map_err(|e| write_error(dest, e))?;
        }
        Ok(interims)
    }

    /// A second temporary path for `dest`, registered for removal, with nothing in it.
    fn second_temp(&mut self, dest: &Path) -> PathBuf {
        let name = dest
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("sitemap");
        let tmp = temp_path(self.dir, name);
        self.scratch.push(tmp.clone());
        tmp
    }
}

/// Creates `path` and stores `chunks` in it (see [`encode`]); returns the stamp of the bytes
/// stored.
fn write_file(path: &Path, compress: bool, chunks: &[&[u8]]) -> io::Result<Stamp> {
    let file = crate::vocab::fswrite::create_new(path)?;
    let out = encode(
        StampWriter::new(BufWriter::with_capacity(1 << 17, file)),
        compress,
        chunks,
    )?;
    let stamp = out.stamp();
    out.into_inner().into_inner().map_err(|e| e.into_error())?;
    Ok(stamp)
}

impl Sink for DiskSink<'_> {
    fn file(&mut self, name: &str, compress: bool, chunks: &[&[u8]]) -> Result<()> {
        let tmp = temp_path(self.dir, name);
        let dest = self.dir.join(name);
        // Registered before creation, so a failure half-way still gets cleaned up.
        self.pending.push((tmp.clone(), dest.clone()));
        if compress && self.threads > 1 {
            while self.workers.len() >= self.threads {
                self.join_oldest()?;
            }
            let data = chunks.concat();
            let path = tmp.clone();
            let spawned = std::thread::Builder::new()
                .name("sitemap-gzip".into())
                .spawn(move || write_file(&path, true, &[&data]));
            // No thread to be had: compress inline instead.
            if let Ok(handle) = spawned {
                self.workers.push_back((dest, handle));
                return Ok(());
            }
        }
        let stamp = write_file(&tmp, compress, chunks).map_err(|e| write_error(&dest, e))?;
        self.stamps.push((dest, stamp));
        Ok(())
    }
}

impl Drop for DiskSink<'_> {
    fn drop(&mut self) {
        // A running worker could create its temp file after we removed it: wait first.
        for (_, handle) in self.workers.drain(..) {
            let _ = handle.join();
        }
        let pending = self.pending.iter().map(|(tmp, _)| tmp);
        for tmp in pending.chain(&self.scratch) {
            // Best effort: the file may never have been created, or was renamed.
            let _ = fs::remove_file(tmp);
        }
    }
}

/// What an earlier run left in the output folder, read before the new run overwrites it.
#[derive(Default)]
pub(super) struct OldOutput {
    /// Names of the part files (real or interim) the old index listed in our folder.
    pub(super) listed: Vec<String>,
}

impl OldOutput {
    /// Reads the index this run replaces (the existing main file of the same compression),
    /// when it is a sitemap index.
    ///
    /// Only the parts such an index lists are ours to remove later: the twin of the other
    /// compression (`sitemap.xml` beside a new `sitemap.xml.gz`) may be another tool's, and
    /// it stays, with its own parts, a set of its own.
    pub(super) fn read(dir: &Path, plan: &Plan<'_>) -> OldOutput {
        let mut old = OldOutput::default();
        let Some(sitemap) = read_ours(&dir.join(plan.main_name())) else {
            return old;
        };
        if sitemap.root().kind != SitemapKind::SitemapIndex {
            return old;
        }
        // Anything unreadable ends the list. Our locs never hold a reference or CDATA:
        // such a loc is not ours.
        for entry in sitemap.map_while(|e| e.ok()) {
            if !entry.verbatim {
                continue;
            }
            if let Some(part) = plan.our_name(&entry.loc)
                && (plan.is_part(part) || plan.interim_pid(part).is_some())
            {
                old.listed.push(part.to_string());
            }
        }
        old
    }

    /// The old files to remove now that the new ones (`written`) are in place: listed parts
    /// the new run did not write that are still `<urlset>`s.
    pub(super) fn stale(&self, plan: &Plan<'_>, written: &HashSet<&str>) -> Vec<String> {
        let dir = plan.opts.output_dir.as_path();
        let mut out: Vec<String> = Vec::new();
        for name in &self.listed {
            if written.contains(name.as_str()) || out.contains(name) {
                continue;
            }
            if is_urlset(&dir.join(name)) {
                out.push(name.clone());
            }
        }
        out
    }
}

/// Removes what killed runs of ours left in `dir`: hidden temporary files of the names this
/// run writes, and interim parts that no index names (`named`: the parts the index on disk
/// lists, removed as stale parts once the new index replaces it). Call it holding the
/// folder's lock (see [`super::owned::Lock`]) and before writing anything: no other run is
/// then writing here, so every such file is a leftover. Returns what was removed.
pub(super) fn sweep(dir: &Path, plan: &Plan<'_>, named: &[String]) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(listing) = fs::read_dir(dir) else {
        return removed;
    };
    for entry in listing.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else {
            continue;
        };
        let path = entry.path();
        let leftover = match parse_temp(file) {
            Some((name, _)) => plan.writes_name(name) || name == LEGACY_RECORD_NAME,
            None => {
                plan.interim_pid(file).is_some()
                    && !named.iter().any(|n| n == file)
                    && is_urlset(&path)
            }
        };
        let is_file = fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
        if leftover && is_file && fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// `path` below `root`, `/`-separated (`en/sitemap.xml`); `None` when it is not below it or
/// not UTF-8.
pub(super) fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel
        .components()
        .map(|c| match c {
            std::path::Component::Normal(p) => p.to_str(),
            _ => None,
        })
        .collect();
    parts.filter(|p| !p.is_empty()).map(|p| p.join("/"))
}

/// The `<loc>`s of the sitemap at `path`: none for a `<urlset>`, the files an index lists;
/// `None` when it is no sitemap as generators write them (see [`read_ours`]).
pub(super) fn sitemap_listing(path: &Path) -> Option<Vec<String>> {
    let sitemap = read_ours(path)?;
    if sitemap.root().kind != SitemapKind::SitemapIndex {
        return Some(Vec::new());
    }
    // Anything unreadable ends the list; a loc with a reference or CDATA is none of ours.
    Some(
        sitemap
            .map_while(|e| e.ok())
            .filter(|e| e.verbatim)
            .map(|e| e.loc)
            .collect(),
    )
}

/// True when `path` is a `sitemap.txt` of the site at `base`: a regular file within the
/// protocol's size whose every line is a URL below `base`.
pub(super) fn is_url_list(path: &Path, base: &str) -> bool {
    let Ok(text) = crate::vocab::fsread::read_string(path, 52_428_800) else {
        return false;
    };
    let mut lines = text.lines().filter(|l| !l.is_empty()).peekable();
    lines.peek().is_some() && lines.all(|l| l.starts_with(base) && !l.contains(char::is_whitespace))
}

/// True when `path` is a `<urlset>` as generators write it.
fn is_urlset(path: &Path) -> bool {
    read_ours(path).is_some_and(|s| s.root().kind == SitemapKind::UrlSet)
}

/// `path` (gzip when its name ends in `.gz`) read up to its root, when that root is a
/// `<urlset>` or `<sitemapindex>` as generators write it (see [`Root::is_standard`]); `None`
/// for anything else, a missing or unreadable file included.
///
/// [`Root::is_standard`]: super::read::Root::is_standard
fn read_ours(path: &Path) -> Option<Sitemap<Box<dyn Read + Send>>> {
    Sitemap::open(path, Gzip::ByName)
        .ok()
        .filter(|s| s.root().is_standard())
}
