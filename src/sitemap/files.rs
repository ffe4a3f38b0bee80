//! Getting the files onto disk (or into memory) safely: the two sinks the writer serialises
//! into, deterministic gzip, temporary files renamed into place, and what an earlier run left
//! behind that may be removed.

use super::read::{Gzip, Sitemap, SitemapKind};
use super::write::{OutputFile, Plan};
use crate::error::{Error, Result};
use flate2::{Compression, GzBuilder};
use std::collections::{HashSet, VecDeque};
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// Receives finished files; the one place that differs between [`render`](super::write::render) and [`write`](super::write::write).
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
    /// Background compressions still running, oldest first, with the file each one writes.
    workers: VecDeque<(PathBuf, JoinHandle<io::Result<()>>)>,
    /// Most background compressions at once (1: compress inline).
    threads: usize,
}

impl<'a> DiskSink<'a> {
    pub(super) fn new(dir: &'a Path) -> DiskSink<'a> {
        DiskSink {
            dir,
            pending: Vec::new(),
            workers: VecDeque::new(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// Waits for the oldest background compression and reports its error, if any.
    fn join_oldest(&mut self) -> Result<()> {
        let Some((tmp, handle)) = self.workers.pop_front() else {
            return Ok(());
        };
        match handle.join() {
            Ok(result) => result.map_err(|e| Error::io(tmp, e)),
            Err(_) => Err(Error::io(
                tmp,
                io::Error::other("the compression thread panicked"),
            )),
        }
    }

    /// Waits for every background compression, then renames every temporary file into
    /// place in the order they were started.
    pub(super) fn commit(&mut self) -> Result<()> {
        while !self.workers.is_empty() {
            self.join_oldest()?;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut rest = pending.into_iter();
        while let Some((tmp, dest)) = rest.next() {
            if let Err(e) = fs::rename(&tmp, &dest) {
                // Leave the not-yet-renamed temps to Drop.
                self.pending = std::iter::once((tmp, dest.clone())).chain(rest).collect();
                return Err(Error::io(dest, e));
            }
        }
        Ok(())
    }
}

/// Creates `path` and stores `chunks` in it (see [`encode`]).
fn write_file(path: &Path, compress: bool, chunks: &[&[u8]]) -> io::Result<()> {
    let file = File::create(path)?;
    let out = encode(BufWriter::with_capacity(1 << 17, file), compress, chunks)?;
    out.into_inner().map_err(|e| e.into_error())?;
    Ok(())
}

impl Sink for DiskSink<'_> {
    fn file(&mut self, name: &str, compress: bool, chunks: &[&[u8]]) -> Result<()> {
        let tmp = self.dir.join(format!(".{name}.tmp-{}", std::process::id()));
        // Registered before creation, so a failure half-way still gets cleaned up.
        self.pending.push((tmp.clone(), self.dir.join(name)));
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
                self.workers.push_back((tmp, handle));
                return Ok(());
            }
        }
        write_file(&tmp, compress, chunks).map_err(|e| Error::io(&tmp, e))
    }
}

impl Drop for DiskSink<'_> {
    fn drop(&mut self) {
        // A running worker could create its temp file after we removed it: wait first.
        for (_, handle) in self.workers.drain(..) {
            let _ = handle.join();
        }
        for (tmp, _) in &self.pending {
            // Best effort: the file may never have been created.
            let _ = fs::remove_file(tmp);
        }
    }
}

/// What an earlier run left in the output folder, read before the new run overwrites it.
#[derive(Default)]
pub(super) struct OldOutput {
    /// Names of the existing main files (plain and gz) recognised as sitemaps.
    mains: Vec<String>,
    /// Names of the part files the old index(es) listed in our folder.
    listed: Vec<String>,
}

impl OldOutput {
    /// Reads the existing `file_name` and `file_name.gz` in `dir`, when they are sitemaps.
    pub(super) fn read(dir: &Path, plan: &Plan<'_>) -> OldOutput {
        let mut old = OldOutput::default();
        let plain = plan.opts.file_name.clone();
        let gz = format!("{plain}.gz");
        for name in [plain, gz] {
            let Some(sitemap) = read_ours(&dir.join(&name)) else {
                continue;
            };
            old.mains.push(name);
            if sitemap.root().kind != SitemapKind::SitemapIndex {
                continue;
            }
            // Anything unreadable ends the list. Our locs never hold a reference or CDATA:
            // such a loc is not ours.
            for entry in sitemap.map_while(|e| e.ok()) {
                if !entry.verbatim {
                    continue;
                }
                if let Some(part) = plan.our_name(&entry.loc) {
                    if plan.is_part(part) {
                        old.listed.push(part.to_string());
                    }
                }
            }
        }
        old
    }

    /// The old files to remove now that the new ones (`written`) are in place.
    pub(super) fn stale(&self, plan: &Plan<'_>, written: &HashSet<&str>) -> Vec<String> {
        let dir = plan.opts.output_dir.as_path();
        let mut out: Vec<String> = Vec::new();
        // The twin of the other compression: recognised as a sitemap when it was read.
        for name in &self.mains {
            if !written.contains(name.as_str()) {
                out.push(name.clone());
            }
        }
        for name in &self.listed {
            if written.contains(name.as_str()) || out.contains(name) {
                continue;
            }
            let is_urlset =
                read_ours(&dir.join(name)).is_some_and(|s| s.root().kind == SitemapKind::UrlSet);
            if is_urlset {
                out.push(name.clone());
            }
        }
        out
    }
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
