//! The output stage: serialises entries into `sitemap.xml` (or an index and its parts),
//! optionally gzipped, plus `sitemap.txt` and the `Sitemap:` line of `robots.txt`.
//!
//! One serialisation path feeds both [`render`] (in memory, for `check` and tests) and
//! [`write`] (to disk), so what `render` returns is byte for byte what `write` stores.
//!
//! Decisions worth knowing:
//! - File names (`file_name`, `part_name`) may only use RFC 3986 unreserved characters
//!   (`A-Z a-z 0-9 - . _ ~`, plus `{n}` in `part_name`), so they never need percent-encoding
//!   in the index `<loc>`s and the `robots.txt` line.
//! - `max_urls`/`max_bytes` bound the `<urlset>` files; the index and `sitemap.txt` are bound
//!   by the protocol limits (50,000 entries, 52,428,800 bytes) whatever the options say.
//! - `sitemap.txt` is never split or gzipped: a site too big for one file gets an error.
//! - An empty entry list gives an empty `<urlset>` (the XSD wants one `<url>`, but an empty
//!   file says the truth; the entries stage always has at least the home page in practice).
//! - Stale files: only files we can prove an earlier run wrote are removed (see
//!   [`write`]); `sitemap.txt` and `robots.txt` are never removed.
//! - Files are not fsynced: a crash of this process never leaves a half-written file (temp +
//!   rename), and rename-over-existing is what the common file systems keep across power loss.

use crate::date::{W3cDate, W3cKind};
use crate::entries::{Entry, Loc, View};
use crate::error::{Error, Result};
use chrono::{Datelike, Timelike};
use flate2::{Compression, GzBuilder};
use quick_xml::events::Event;
use std::collections::{HashSet, VecDeque};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

/// Protocol maximum of `<url>` (or `<sitemap>`) entries in one file.
pub const MAX_URLS: usize = 50_000;
/// Protocol maximum size of one file, uncompressed.
pub const MAX_BYTES: usize = 52_428_800;
/// The name of the plain-text sitemap.
pub const TXT_NAME: &str = "sitemap.txt";
/// The name of the robots file.
pub const ROBOTS_NAME: &str = "robots.txt";

const NS_SITEMAP: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XML_DECL: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const URLSET_END: &[u8] = b"</urlset>\n";
const INDEX_END: &[u8] = b"</sitemapindex>\n";
const XMLNS_XHTML: &[u8] = b" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"";
const XMLNS_IMAGE: &[u8] = b" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"";
/// Namespace flags: which extension namespaces a `<urlset>` must declare.
const USES_XHTML: usize = 1;
const USES_IMAGE: usize = 2;

/// Where and how the sitemap files are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The folder the files go to (created when missing).
    pub output_dir: PathBuf,
    /// Absolute URL of `output_dir` as served, ending in `/`; prefixes index `<loc>`s and the robots.txt line.
    pub base_url: String,
    /// The single sitemap, or the index when the output is split.
    pub file_name: String,
    /// Name pattern of the parts of a split sitemap; `{n}` becomes 1, 2, …
    pub part_name: String,
    /// Most `<url>`s per file (clamped to the protocol's 50,000).
    pub max_urls: usize,
    /// Most bytes per file, uncompressed (clamped to the protocol's 52,428,800).
    pub max_bytes: usize,
    /// Write gzip-compressed files (`.gz` appended to every sitemap name).
    pub gzip: bool,
    /// `href` of an XSL stylesheet, announced by an `xml-stylesheet` processing instruction.
    pub stylesheet: Option<String>,
    /// Add or update one `Sitemap:` line in `output_dir/robots.txt`.
    pub robots_txt: bool,
    /// Also write `sitemap.txt`, one URL per line.
    pub sitemap_txt: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            output_dir: PathBuf::from("public"),
            base_url: String::new(),
            file_name: "sitemap.xml".to_string(),
            part_name: "sitemap{n}.xml".to_string(),
            max_urls: MAX_URLS,
            max_bytes: MAX_BYTES,
            gzip: false,
            stylesheet: None,
            robots_txt: false,
            sitemap_txt: false,
        }
    }
}

/// One file of the output, as it is (or would be) stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// File name relative to `output_dir`.
    pub name: String,
    /// The exact bytes on disk (gzip-compressed when `gzip` is on).
    pub bytes: Vec<u8>,
}

/// What [`write`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// The sitemap files written (parts, then the index or single file, then sitemap.txt).
    pub files: Vec<PathBuf>,
    /// Number of URLs written.
    pub urls: usize,
    /// Stale files of an earlier run that were removed.
    pub removed: Vec<PathBuf>,
    /// True when robots.txt was created or changed.
    pub robots_updated: bool,
}

/// Serialises `entries` into the files [`write`] would store, in the same order, in memory.
///
/// robots.txt is not included: it depends on the file already on disk (see [`robots_txt`]).
pub fn render<'a>(entries: impl Into<View<'a>>, opts: &WriteOptions) -> Result<Vec<OutputFile>> {
    let entries = entries.into();
    let plan = Plan::new(opts)?;
    plan.check_txt(entries)?;
    let mut sink = MemSink(Vec::new());
    emit(entries, &plan, &mut sink)?;
    Ok(sink.0)
}

/// Writes the sitemap files into `output_dir`, atomically, and removes stale ones.
///
/// Every file goes to a temporary file first; only when all of them were written are they
/// renamed into place (parts before the index, so an index never names a missing part). On
/// error the temporary files are removed and no existing file is touched.
///
/// Stale files: the existing `file_name` and `file_name.gz` are read first. Once the new files
/// are in place, the twin of the other compression (`sitemap.xml` when writing
/// `sitemap.xml.gz`, and the reverse) is removed when it is a `<urlset>` or `<sitemapindex>`
/// of the sitemaps.org namespace, and so is every part an old index lists when its `<loc>` is
/// `base_url`'s folder plus a name matching `part_name` (with or without `.gz`), the new run
/// did not write it, and it is itself such a `<urlset>`. Anything else (say a hand-made
/// `sitemap-news.xml`, or a `sitemap9.xml` no index of ours lists) is left alone.
pub fn write<'a>(entries: impl Into<View<'a>>, opts: &WriteOptions) -> Result<WriteReport> {
    let entries = entries.into();
    let plan = Plan::new(opts)?;
    plan.check_txt(entries)?;
    let dir = opts.output_dir.as_path();
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    // Read before writing: the new index overwrites the old one.
    let old = OldOutput::read(dir, &plan);

    let mut sink = DiskSink::new(dir);
    let names = emit(entries, &plan, &mut sink)?;
    let mut robots_updated = false;
    if opts.robots_txt {
        let path = dir.join(ROBOTS_NAME);
        let existing = match fs::read(&path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(path, e)),
        };
        let new = plan.robots(existing.as_deref());
        if existing.as_deref() != Some(new.as_slice()) {
            sink.file(ROBOTS_NAME, false, &[&new])?;
            robots_updated = true;
        }
    }
    sink.commit()?;

    let written: HashSet<&str> = names.iter().map(String::as_str).collect();
    let mut removed = Vec::new();
    for name in old.stale(&plan, &written) {
        let path = dir.join(&name);
        match fs::remove_file(&path) {
            Ok(()) => removed.push(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(WriteReport {
        files: names.iter().map(|n| dir.join(n)).collect(),
        urls: entries.len(),
        removed,
        robots_updated,
    })
}

/// The robots.txt `write` would store, given the current one (`None` when there is none).
///
/// Adds `Sitemap: <base_url><file_name>[.gz]`, or replaces the first line that names a sitemap
/// called `file_name` or `file_name.gz` in `base_url`'s folder (on any host, so a domain change
/// updates it) and drops further such lines; every other line is kept byte for byte.
pub fn robots_txt(existing: Option<&[u8]>, opts: &WriteOptions) -> Result<Vec<u8>> {
    Ok(Plan::new(opts)?.robots(existing))
}

/// The options, checked, with the names and limits derived from them.
struct Plan<'a> {
    opts: &'a WriteOptions,
    /// Path component of `base_url` (`/` or `/blog/`), to recognise our URLs on any host.
    base_path: String,
    part_prefix: &'a str,
    part_suffix: &'a str,
    /// `.gz` or nothing.
    ext: &'static str,
    max_urls: usize,
    max_bytes: usize,
    /// Declaration, stylesheet PI and `<urlset …>` line, for each namespace combination.
    urlset_heads: [Vec<u8>; 4],
    /// Declaration, stylesheet PI and `<sitemapindex …>` line.
    index_head: Vec<u8>,
}

impl<'a> Plan<'a> {
    fn new(opts: &'a WriteOptions) -> Result<Plan<'a>> {
        let base = url::Url::parse(&opts.base_url).map_err(|e| {
            Error::config(
                "base_url",
                None,
                format!("'{}' is not an absolute URL ({e})", opts.base_url),
            )
        })?;
        if !matches!(base.scheme(), "http" | "https")
            || !opts.base_url.ends_with('/')
            || base.query().is_some()
            || base.fragment().is_some()
        {
            return Err(Error::config(
                "base_url",
                None,
                format!(
                    "'{}' must be the http(s) URL of the output folder, ending in '/', \
                     without '?' or '#'",
                    opts.base_url
                ),
            ));
        }
        check_name("file_name", &opts.file_name, false)?;
        check_name("part_name", &opts.part_name, true)?;
        let (part_prefix, part_suffix) = opts
            .part_name
            .split_once("{n}")
            .unwrap_or((opts.part_name.as_str(), ""));
        if opts.max_urls == 0 || opts.max_bytes == 0 {
            return Err(Error::config(
                if opts.max_urls == 0 {
                    "max_urls"
                } else {
                    "max_bytes"
                },
                None,
                "must be at least 1",
            ));
        }
        let mut plan = Plan {
            opts,
            base_path: base.path().to_string(),
            part_prefix,
            part_suffix,
            ext: if opts.gzip { ".gz" } else { "" },
            max_urls: opts.max_urls.min(MAX_URLS),
            max_bytes: opts.max_bytes.min(MAX_BYTES),
            urlset_heads: Default::default(),
            index_head: Vec::new(),
        };
        if plan.is_part(&opts.file_name) {
            return Err(Error::config(
                "file_name",
                None,
                format!(
                    "'{}' looks like a part name of part_name '{}': choose names that cannot collide",
                    opts.file_name, opts.part_name
                ),
            ));
        }
        for (ns, head) in plan.urlset_heads.iter_mut().enumerate() {
            prolog(head, opts.stylesheet.as_deref());
            head.extend_from_slice(b"<urlset xmlns=\"");
            head.extend_from_slice(NS_SITEMAP.as_bytes());
            head.push(b'"');
            if ns & USES_XHTML != 0 {
                head.extend_from_slice(XMLNS_XHTML);
            }
            if ns & USES_IMAGE != 0 {
                head.extend_from_slice(XMLNS_IMAGE);
            }
            head.extend_from_slice(b">\n");
        }
        prolog(&mut plan.index_head, opts.stylesheet.as_deref());
        plan.index_head.extend_from_slice(b"<sitemapindex xmlns=\"");
        plan.index_head.extend_from_slice(NS_SITEMAP.as_bytes());
        plan.index_head.extend_from_slice(b"\">\n");
        Ok(plan)
    }

    /// The name of the single file or index, as written.
    fn main_name(&self) -> String {
        format!("{}{}", self.opts.file_name, self.ext)
    }

    /// The name of part `n` (1-based), as written.
    fn part(&self, n: usize) -> String {
        format!("{}{n}{}{}", self.part_prefix, self.part_suffix, self.ext)
    }

    /// True when `name` is a part name of our pattern, compressed or not.
    fn is_part(&self, name: &str) -> bool {
        let name = name.strip_suffix(".gz").unwrap_or(name);
        name.strip_prefix(self.part_prefix)
            .and_then(|rest| rest.strip_suffix(self.part_suffix))
            .is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())
            })
    }

    /// The file name a sitemap URL points at when it lies in `base_url`'s folder (any host).
    fn our_name<'u>(&self, url: &'u str) -> Option<&'u str> {
        let parsed = url::Url::parse(url).ok()?;
        if parsed.query().is_some() || parsed.fragment().is_some() {
            return None;
        }
        let name = parsed.path().strip_prefix(self.base_path.as_str())?;
        // The name sits at the end of `url`; borrow it from there rather than from `parsed`.
        (!name.is_empty() && !name.contains('/') && url.ends_with(name))
            .then(|| &url[url.len() - name.len()..])
    }

    /// Errors out early when `sitemap.txt` is asked for but cannot hold the entries.
    fn check_txt(&self, entries: View<'_>) -> Result<()> {
        if !self.opts.sitemap_txt {
            return Ok(());
        }
        let bytes: usize = entries.iter().map(|(loc, _)| loc.len() + 1).sum();
        if entries.len() > MAX_URLS || bytes > MAX_BYTES {
            return Err(Error::config(
                "sitemap_txt",
                None,
                format!(
                    "sitemap.txt cannot hold {} URLs ({bytes} bytes): one text sitemap holds at most \
                     {MAX_URLS} URLs and {MAX_BYTES} bytes; turn sitemap_txt off",
                    entries.len()
                ),
            ));
        }
        Ok(())
    }

    /// robots.txt with our `Sitemap:` line added or updated (see [`robots_txt`]).
    fn robots(&self, existing: Option<&[u8]>) -> Vec<u8> {
        let mut line = b"Sitemap: ".to_vec();
        line.extend_from_slice(self.opts.base_url.as_bytes());
        line.extend_from_slice(self.main_name().as_bytes());
        let Some(existing) = existing.filter(|b| !b.is_empty()) else {
            line.push(b'\n');
            return line;
        };
        let eol: &[u8] = if existing.windows(2).any(|w| w == b"\r\n") {
            b"\r\n"
        } else {
            b"\n"
        };
        let mut out = Vec::with_capacity(existing.len() + line.len() + 2);
        let mut placed = false;
        for raw in existing.split_inclusive(|&b| b == b'\n') {
            let content = raw.strip_suffix(b"\n").unwrap_or(raw);
            let content = content.strip_suffix(b"\r").unwrap_or(content);
            if !self.is_our_robots_line(content) {
                out.extend_from_slice(raw);
            } else if !placed {
                out.extend_from_slice(&line);
                out.extend_from_slice(&raw[content.len()..]);
                placed = true;
            }
        }
        if !placed {
            if !out.is_empty() && !out.ends_with(b"\n") {
                out.extend_from_slice(eol);
            }
            out.extend_from_slice(&line);
            out.extend_from_slice(eol);
        }
        out
    }

    fn is_our_robots_line(&self, line: &[u8]) -> bool {
        let Ok(line) = std::str::from_utf8(line) else {
            return false;
        };
        let line = line.trim_start_matches('\u{feff}').trim_start();
        let Some(key) = line.get(..8) else {
            return false;
        };
        if !key.eq_ignore_ascii_case("sitemap:") {
            return false;
        }
        let value = line[8..].split('#').next().unwrap_or("").trim();
        self.our_name(value)
            .is_some_and(|name| name.strip_suffix(".gz").unwrap_or(name) == self.opts.file_name)
    }
}

/// Checks a configured file name: unreserved URL characters only (and `{n}` once in a pattern).
fn check_name(key: &str, name: &str, pattern: bool) -> Result<()> {
    let plain = if pattern {
        if name.matches("{n}").count() != 1 {
            return Err(Error::config(
                key,
                None,
                format!("'{name}' must contain '{{n}}' exactly once (it becomes 1, 2, …)"),
            ));
        }
        name.replacen("{n}", "1", 1)
    } else {
        name.to_string()
    };
    let ok = !plain.is_empty()
        && plain != "."
        && plain != ".."
        && plain
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    let reserved = [TXT_NAME, ROBOTS_NAME].contains(&plain.as_str());
    if !ok || reserved {
        return Err(Error::config(
            key,
            None,
            format!(
                "'{name}' is not a usable sitemap file name: use letters, digits, '-', '.', '_' \
                 and '~' only, and not sitemap.txt or robots.txt"
            ),
        ));
    }
    Ok(())
}

/// The XML declaration and the optional stylesheet processing instruction.
fn prolog(buf: &mut Vec<u8>, stylesheet: Option<&str>) {
    buf.extend_from_slice(XML_DECL);
    if let Some(href) = stylesheet {
        buf.extend_from_slice(b"<?xml-stylesheet type=\"text/xsl\" href=\"");
        push_escaped(buf, href);
        buf.extend_from_slice(b"\"?>\n");
    }
}

/// Receives finished files; the one place that differs between [`render`] and [`write`].
trait Sink {
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
struct MemSink(Vec<OutputFile>);

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
struct DiskSink<'a> {
    dir: &'a Path,
    /// (temporary path, final path), in the order the files were finished.
    pending: Vec<(PathBuf, PathBuf)>,
    /// Background compressions still running, oldest first, with the file each one writes.
    workers: VecDeque<(PathBuf, JoinHandle<io::Result<()>>)>,
    /// Most background compressions at once (1: compress inline).
    threads: usize,
}

impl<'a> DiskSink<'a> {
    fn new(dir: &'a Path) -> DiskSink<'a> {
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
    fn commit(&mut self) -> Result<()> {
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

/// Serialises everything and hands each finished file to `sink`; returns the names, in order.
fn emit<S: Sink>(entries: View<'_>, plan: &Plan<'_>, sink: &mut S) -> Result<Vec<String>> {
    let compress = plan.opts.gzip;
    let max_bytes = plan.max_bytes;
    let overhead = |ns: usize| plan.urlset_heads[ns].len() + URLSET_END.len();
    let mut names = Vec::new();
    // The current part's <url> elements; its head is known only once the part is complete.
    let mut body: Vec<u8> = Vec::with_capacity(max_bytes.min(8 << 20));
    let mut parts: Vec<(String, Option<W3cDate>)> = Vec::new();
    let (mut part_ns, mut count, mut newest) = (0usize, 0usize, None::<W3cDate>);
    let mut origins = Origins::default();

    for (loc, entry) in entries.iter() {
        let start = body.len();
        let ns = push_url(&mut body, &mut origins, loc, entry);
        let len = body.len() - start;
        if overhead(ns) + len > max_bytes {
            return Err(Error::input(
                loc.to_string(),
                None,
                format!(
                    "this URL's sitemap entry takes {} bytes with the file's header, more than \
                     the {max_bytes} one sitemap file may hold; drop some of its images or \
                     alternates, or raise max_bytes",
                    overhead(ns) + len
                ),
            ));
        }
        if count > 0 && (count == plan.max_urls || overhead(part_ns | ns) + body.len() > max_bytes)
        {
            if parts.len() == MAX_URLS {
                return Err(too_many_parts(entries.len()));
            }
            let name = plan.part(parts.len() + 1);
            sink.file(
                &name,
                compress,
                &[&plan.urlset_heads[part_ns], &body[..start], URLSET_END],
            )?;
            names.push(name.clone());
            parts.push((name, newest.take()));
            // Keep the entry that did not fit: it opens the next part.
            body.drain(..start);
            part_ns = 0;
            count = 0;
        }
        part_ns |= ns;
        count += 1;
        if let Some(d) = &entry.lastmod {
            if newest.as_ref().is_none_or(|n| is_newer(d, n)) {
                newest = Some(*d);
            }
        }
    }

    let main = plan.main_name();
    if parts.is_empty() {
        sink.file(
            &main,
            compress,
            &[&plan.urlset_heads[part_ns], &body, URLSET_END],
        )?;
    } else {
        if parts.len() == MAX_URLS {
            return Err(too_many_parts(entries.len()));
        }
        let name = plan.part(parts.len() + 1);
        sink.file(
            &name,
            compress,
            &[&plan.urlset_heads[part_ns], &body, URLSET_END],
        )?;
        names.push(name.clone());
        parts.push((name, newest));

        body.clear();
        for (name, lastmod) in &parts {
            body.extend_from_slice(b"  <sitemap>\n    <loc>");
            push_escaped(&mut body, &plan.opts.base_url);
            push_escaped(&mut body, name);
            body.extend_from_slice(b"</loc>\n");
            if let Some(d) = lastmod {
                body.extend_from_slice(b"    <lastmod>");
                push_date(&mut body, d);
                body.extend_from_slice(b"</lastmod>\n");
            }
            body.extend_from_slice(b"  </sitemap>\n");
        }
        let size = plan.index_head.len() + body.len() + INDEX_END.len();
        if size > MAX_BYTES {
            return Err(Error::config(
                "base_url",
                None,
                format!(
                    "the sitemap index would take {size} bytes, more than the protocol's \
                     {MAX_BYTES}; use a shorter base_url or part_name, or fewer, larger parts"
                ),
            ));
        }
        sink.file(&main, compress, &[&plan.index_head, &body, INDEX_END])?;
    }
    names.push(main);

    if plan.opts.sitemap_txt {
        body.clear();
        for (loc, _) in entries.iter() {
            body.extend_from_slice(loc.origin().as_bytes());
            body.extend_from_slice(loc.rest().as_bytes());
            body.push(b'\n');
        }
        sink.file(TXT_NAME, false, &[&body])?;
        names.push(TXT_NAME.to_string());
    }
    Ok(names)
}

fn too_many_parts(urls: usize) -> Error {
    Error::config(
        "max_urls",
        None,
        format!(
            "{urls} URLs need more than the {MAX_URLS} sitemap files one index may list; \
             raise max_urls or max_bytes"
        ),
    )
}

/// True when `a` is newer than `b` by [`W3cDate`]'s order; the equality test first spares the
/// allocating tie-break of `Ord` for the common case of pages sharing a date.
fn is_newer(a: &W3cDate, b: &W3cDate) -> bool {
    a != b && a > b
}

/// The origin written last, XML-escaped: the entries of a run share one origin (one store
/// keeps each once), so it is escaped once rather than for every URL.
#[derive(Default)]
struct Origins<'a> {
    last: Option<&'a str>,
    escaped: Vec<u8>,
}

impl<'a> Origins<'a> {
    /// Appends `origin` XML-escaped.
    #[inline]
    fn push(&mut self, buf: &mut Vec<u8>, origin: &'a str) {
        // The same place in the same store: the same text (another place with equal text is
        // merely escaped again).
        if !self.last.is_some_and(|l| std::ptr::eq(l, origin)) {
            self.escaped.clear();
            push_escaped(&mut self.escaped, origin);
            self.last = Some(origin);
        }
        buf.extend_from_slice(&self.escaped);
    }
}

/// Appends one `<url>` element; returns the namespaces it uses.
#[inline]
fn push_url<'a>(
    buf: &mut Vec<u8>,
    origins: &mut Origins<'a>,
    loc: Loc<'a>,
    entry: &Entry,
) -> usize {
    buf.extend_from_slice(b"  <url>\n    <loc>");
    // Escaping maps each character on its own: the two parts escape as the whole URL would.
    origins.push(buf, loc.origin());
    push_escaped(buf, loc.rest());
    buf.extend_from_slice(b"</loc>\n");
    if let Some(d) = &entry.lastmod {
        buf.extend_from_slice(b"    <lastmod>");
        push_date(buf, d);
        buf.extend_from_slice(b"</lastmod>\n");
    }
    if let Some(f) = entry.changefreq {
        buf.extend_from_slice(b"    <changefreq>");
        buf.extend_from_slice(f.as_str().as_bytes());
        buf.extend_from_slice(b"</changefreq>\n");
    }
    if let Some(p) = entry.priority {
        buf.extend_from_slice(b"    <priority>");
        push_priority(buf, p.as_f64());
        buf.extend_from_slice(b"</priority>\n");
    }
    let mut ns = 0;
    if let Some(extras) = entry.extras.as_deref() {
        // The sitemap XSD allows extension elements only after <priority>, in any order.
        for alt in &extras.alternates {
            ns |= USES_XHTML;
            buf.extend_from_slice(b"    <xhtml:link rel=\"alternate\" hreflang=\"");
            push_escaped(buf, &alt.hreflang);
            buf.extend_from_slice(b"\" href=\"");
            push_escaped(buf, &alt.href);
            buf.extend_from_slice(b"\"/>\n");
        }
        debug_assert!(
            extras.images.len() <= 1000,
            "the entries stage caps images at 1,000"
        );
        for image in &extras.images {
            ns |= USES_IMAGE;
            buf.extend_from_slice(b"    <image:image>\n      <image:loc>");
            push_escaped(buf, image);
            buf.extend_from_slice(b"</image:loc>\n    </image:image>\n");
        }
    }
    buf.extend_from_slice(b"  </url>\n");
    ns
}

/// Appends `s` XML-escaped (`& < > ' "`); copies it as is when clean (nearly every URL).
#[inline]
fn push_escaped(buf: &mut Vec<u8>, s: &str) {
    if needs_escape(s.as_bytes()) {
        buf.extend_from_slice(quick_xml::escape::escape(s).as_bytes());
    } else {
        buf.extend_from_slice(s.as_bytes());
    }
}

/// True when `bytes` holds one of `& < > ' "`. Scans 16 bytes at a time without an early
/// exit inside a block, so the compiler can vectorise it: quick-xml's own scan goes byte by
/// byte and was a tenth of the time of writing a million URLs.
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    // Plain equality tests (not a `matches!` jump table) become byte-wise SIMD compares.
    #[inline(always)]
    fn special(b: u8) -> bool {
        (b == b'&') | (b == b'<') | (b == b'>') | (b == b'\'') | (b == b'"')
    }
    let mut blocks = bytes.chunks_exact(16);
    for block in &mut blocks {
        let hits = block.iter().fold(0u8, |acc, &b| acc | u8::from(special(b)));
        if hits != 0 {
            return true;
        }
    }
    blocks.remainder().iter().any(|&b| special(b))
}

/// Appends a priority exactly as `Priority`'s Display does: shortest decimal, at least `x.0`.
fn push_priority(buf: &mut Vec<u8>, value: f64) {
    let thousandths = (value * 1000.0).round() as u32;
    buf.push(b'0' + (thousandths / 1000) as u8);
    buf.push(b'.');
    let mut frac = thousandths % 1000;
    if frac == 0 {
        buf.push(b'0');
        return;
    }
    let mut width = 3;
    while frac.is_multiple_of(10) {
        frac /= 10;
        width -= 1;
    }
    push_padded(buf, frac, width);
}

/// Appends `v` (below 100) as two digits.
#[inline]
fn push2(buf: &mut Vec<u8>, v: u32) {
    buf.extend_from_slice(&[b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]);
}

/// Appends `v` in decimal, zero-padded to `width` digits.
#[inline]
fn push_padded(buf: &mut Vec<u8>, v: u32, width: usize) {
    let mut digits = [b'0'; 10];
    let mut v = v;
    let mut i = digits.len();
    while v > 0 || digits.len() - i < width {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    buf.extend_from_slice(&digits[i..]);
}

/// Appends a date exactly as `W3cDate`'s Display does, without going through chrono's
/// format machinery (a million dates are common).
fn push_date(buf: &mut Vec<u8>, date: &W3cDate) {
    // One conversion to local time: chrono recomputes it for every accessor of a DateTime.
    let (day, time, offset) = match date.kind() {
        W3cKind::Date(d) => (d, None, 0),
        W3cKind::DateTime(dt) => {
            let local = dt.naive_local();
            (
                local.date(),
                Some(local.time()),
                dt.offset().local_minus_utc(),
            )
        }
    };
    let year = day.year();
    if !(0..=9999).contains(&year) {
        // chrono writes a sign and more digits there; such dates are never in a real sitemap.
        let _ = write!(buf, "{date}");
        return;
    }
    let year = year as u32;
    push2(buf, year / 100);
    push2(buf, year % 100);
    buf.push(b'-');
    push2(buf, day.month());
    buf.push(b'-');
    push2(buf, day.day());
    let Some(t) = time else { return };
    let nanos = t.nanosecond();
    buf.push(b'T');
    push2(buf, t.hour());
    buf.push(b':');
    push2(buf, t.minute());
    buf.push(b':');
    // chrono keeps a leap second in the nanoseconds and prints it as second 60.
    push2(buf, t.second() + nanos / 1_000_000_000);
    let frac = nanos % 1_000_000_000;
    if frac != 0 {
        buf.push(b'.');
        if frac.is_multiple_of(1_000_000) {
            push_padded(buf, frac / 1_000_000, 3);
        } else if frac.is_multiple_of(1_000) {
            push_padded(buf, frac / 1_000, 6);
        } else {
            push_padded(buf, frac, 9);
        }
    }
    buf.push(if offset < 0 { b'-' } else { b'+' });
    // Like chrono's `%:z`: round the seconds of an odd offset to the nearest minute.
    let minutes = (offset.unsigned_abs() + 30) / 60;
    push2(buf, minutes / 60);
    buf.push(b':');
    push2(buf, minutes % 60);
}

/// What an earlier run left in the output folder, read before the new run overwrites it.
#[derive(Default)]
struct OldOutput {
    /// Names of the existing main files (plain and gz) recognised as sitemaps.
    mains: Vec<String>,
    /// Names of the part files the old index(es) listed in our folder.
    listed: Vec<String>,
}

impl OldOutput {
    fn read(dir: &Path, plan: &Plan<'_>) -> OldOutput {
        let mut old = OldOutput::default();
        let plain = plan.opts.file_name.clone();
        let gz = format!("{plain}.gz");
        for name in [plain, gz] {
            let Some(root) = read_sitemap(&dir.join(&name), true) else {
                continue;
            };
            old.mains.push(name);
            for loc in root.locs {
                if let Some(part) = plan.our_name(&loc) {
                    if plan.is_part(part) {
                        old.listed.push(part.to_string());
                    }
                }
            }
        }
        old
    }

    /// The old files to remove now that the new ones (`written`) are in place.
    fn stale(&self, plan: &Plan<'_>, written: &HashSet<&str>) -> Vec<String> {
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
            let is_urlset = read_sitemap(&dir.join(name), false).is_some_and(|r| !r.is_index);
            if is_urlset {
                out.push(name.clone());
            }
        }
        out
    }
}

/// The root of a file recognised as a sitemap of the sitemaps.org namespace.
struct SitemapRoot {
    is_index: bool,
    /// `<sitemap><loc>` values of an index (only read when asked for).
    locs: Vec<String>,
}

/// Reads `path` (gzip when its name ends in `.gz`) when it is a `<urlset>` or `<sitemapindex>`
/// in the sitemaps.org namespace; `None` for anything else, a missing or unreadable file
/// included. With `want_locs`, collects an index's `<loc>`s; otherwise stops at the root.
fn read_sitemap(path: &Path, want_locs: bool) -> Option<SitemapRoot> {
    let file = File::open(path).ok()?;
    let gz = path.extension().is_some_and(|e| e == "gz");
    let input: Box<dyn BufRead> = if gz {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    let mut reader = quick_xml::Reader::from_reader(input);
    reader.config_mut().trim_text(true);
    let mut buf = Vec::new();
    let is_index = loop {
        match reader.read_event_into(&mut buf).ok()? {
            Event::Start(e) => {
                let xmlns = e.try_get_attribute("xmlns").ok()??;
                if xmlns.value.as_ref() != NS_SITEMAP.as_bytes() {
                    return None;
                }
                match e.name().as_ref() {
                    b"urlset" => break false,
                    b"sitemapindex" => break true,
                    _ => return None,
                }
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
            _ => return None,
        }
        buf.clear();
    };
    let mut root = SitemapRoot {
        is_index,
        locs: Vec::new(),
    };
    if !(is_index && want_locs) {
        return Some(root);
    }
    // Depth 1 is <sitemap>, depth 2 its <loc>; anything unreadable ends the list.
    let (mut depth, mut in_loc, mut text) = (1usize, false, String::new());
    loop {
        buf.clear();
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => {
                depth += 1;
                in_loc = depth == 3 && e.name().as_ref() == b"loc";
                text.clear();
            }
            Ok(Event::Text(t)) if in_loc => match t.decode() {
                Ok(s) => text.push_str(&s),
                Err(_) => break,
            },
            // Our locs never hold an entity reference: such a loc is not ours.
            Ok(Event::GeneralRef(_)) if in_loc => {
                in_loc = false;
                text.clear();
            }
            Ok(Event::End(_)) => {
                if in_loc && !text.is_empty() {
                    root.locs.push(std::mem::take(&mut text));
                }
                in_loc = false;
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    Some(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::SiteTz;
    use crate::entries::{Alternate, Entries, Extras};
    use crate::fields::{ChangeFreq, Priority};
    use chrono::{FixedOffset, NaiveDate, TimeZone};

    fn opts() -> WriteOptions {
        WriteOptions {
            base_url: "https://example.com/".into(),
            ..WriteOptions::default()
        }
    }

    fn date(s: &str) -> W3cDate {
        W3cDate::parse(s, &SiteTz::Utc).unwrap()
    }

    fn text(file: &OutputFile) -> &str {
        std::str::from_utf8(&file.bytes).unwrap()
    }

    /// An entry before it joins a list: its loc, and the fields a test sets.
    struct Draft {
        loc: String,
        lastmod: Option<W3cDate>,
        changefreq: Option<ChangeFreq>,
        priority: Option<Priority>,
        extras: Option<Box<Extras>>,
    }

    fn entry(loc: &str, lastmod: Option<&str>) -> Draft {
        Draft {
            loc: loc.to_string(),
            lastmod: lastmod.map(date),
            changefreq: None,
            priority: None,
            extras: None,
        }
    }

    /// The drafts as one list, in order.
    fn list(drafts: impl IntoIterator<Item = Draft>) -> Entries {
        let mut out = Entries::new();
        for d in drafts {
            let e = out.push(&d.loc).unwrap();
            e.lastmod = d.lastmod;
            e.changefreq = d.changefreq;
            e.priority = d.priority;
            e.extras = d.extras;
        }
        out
    }

    #[test]
    fn dates_print_exactly_like_display() {
        let mut seen = 0;
        let offsets = [
            0,
            3600,
            -3600,
            19800,
            -34200,
            45 * 60,
            5 * 3600 + 59,
            -(23 * 3600 + 59 * 60 + 59),
            86399,
        ];
        let nanos = [
            0,
            1,
            500,
            1_000,
            120_000,
            1_000_000,
            123_000_000,
            999_999_999,
            1_000_000_000,
            1_500_000_000,
        ];
        let days = [
            (1970, 1, 1),
            (2024, 2, 29),
            (1999, 12, 31),
            (9999, 12, 31),
            (1, 1, 1),
            (0, 3, 4),
            (999, 5, 6),
            (-1, 1, 1),
            (10000, 1, 1),
            (-44, 3, 15),
        ];
        for &(y, m, d) in &days {
            let day = NaiveDate::from_ymd_opt(y, m, d).unwrap();
            let mut check = |w: W3cDate| {
                let mut buf = Vec::new();
                push_date(&mut buf, &w);
                assert_eq!(String::from_utf8(buf).unwrap(), w.to_string());
                seen += 1;
            };
            check(W3cDate::from_date(day));
            for &off in &offsets {
                for &nano in &nanos {
                    for (h, mi, s) in [(0, 0, 0), (9, 5, 7), (23, 59, 59), (12, 30, 1)] {
                        // Leap-second nanos are only valid at second 59.
                        if nano >= 1_000_000_000 && s != 59 {
                            continue;
                        }
                        let naive = day.and_hms_nano_opt(h, mi, s, nano).unwrap();
                        let tz = FixedOffset::east_opt(off).unwrap();
                        let dt = tz.from_local_datetime(&naive).single().unwrap();
                        check(W3cDate::from_datetime(dt));
                    }
                }
            }
        }
        assert!(seen > 2000);
    }

    #[test]
    fn escaping_matches_quick_xml_at_every_position() {
        for len in [0, 1, 15, 16, 17, 33, 70] {
            for pos in 0..len {
                for special in ['&', '<', '>', '\'', '"'] {
                    let mut s: String = "a/é%2F".chars().cycle().take(len).collect();
                    let at = s.char_indices().nth(pos).map_or(s.len(), |(i, _)| i);
                    s.insert(at, special);
                    let mut buf = Vec::new();
                    push_escaped(&mut buf, &s);
                    assert_eq!(
                        String::from_utf8(buf).unwrap(),
                        quick_xml::escape::escape(s.as_str())
                    );
                    assert!(needs_escape(s.as_bytes()));
                }
            }
            let clean: String = "a/é%2F".chars().cycle().take(len).collect();
            assert!(!needs_escape(clean.as_bytes()), "{clean}");
        }
    }

    #[test]
    fn priorities_print_exactly_like_display() {
        for t in 0..=1000u32 {
            let p = Priority::from_f64(f64::from(t) / 1000.0).unwrap();
            let mut buf = Vec::new();
            push_priority(&mut buf, p.as_f64());
            assert_eq!(String::from_utf8(buf).unwrap(), p.to_string(), "{t}");
        }
    }

    #[test]
    fn whole_small_sitemap_is_exact() {
        let mut home = entry("https://example.com/", Some("2024-01-02"));
        home.changefreq = Some(ChangeFreq::Weekly);
        home.priority = Some("0.8".parse().unwrap());
        let post = entry(
            "https://example.com/a&b/?q='x'&r=\"<y>\"",
            Some("2024-03-04T05:06:07+02:00"),
        );
        let files = render(&list([home, post]), &opts()).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].name, "sitemap.xml");
        assert_eq!(
            text(&files[0]),
            r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2024-01-02</lastmod>
    <changefreq>weekly</changefreq>
    <priority>0.8</priority>
  </url>
  <url>
    <loc>https://example.com/a&amp;b/?q=&apos;x&apos;&amp;r=&quot;&lt;y&gt;&quot;</loc>
    <lastmod>2024-03-04T05:06:07+02:00</lastmod>
  </url>
</urlset>
"#
        );
    }

    #[test]
    fn extensions_and_stylesheet_are_written_in_schema_order() {
        let mut e = entry("https://example.com/", None);
        e.priority = Some("1".parse().unwrap());
        e.extras = Some(Box::new(Extras {
            images: vec!["https://example.com/a.png?x=1&y=2".into()],
            alternates: vec![
                Alternate {
                    hreflang: "en".into(),
                    href: "https://example.com/".into(),
                },
                Alternate {
                    hreflang: "fr".into(),
                    href: "https://example.com/fr/".into(),
                },
            ],
        }));
        let o = WriteOptions {
            stylesheet: Some("/sitemap.xsl?a&b".into()),
            ..opts()
        };
        let files = render(&list([e]), &o).unwrap();
        assert_eq!(
            text(&files[0]),
            r#"<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl?a&amp;b"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/</loc>
    <priority>1.0</priority>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/>
    <xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/"/>
    <image:image>
      <image:loc>https://example.com/a.png?x=1&amp;y=2</image:loc>
    </image:image>
  </url>
</urlset>
"#
        );
    }

    #[test]
    fn namespaces_are_declared_per_file_only_when_used() {
        let mut with_alt = entry("https://example.com/a/", None);
        with_alt.extras = Some(Box::new(Extras {
            images: vec![],
            alternates: vec![Alternate {
                hreflang: "de".into(),
                href: "https://example.com/de/a/".into(),
            }],
        }));
        let mut with_img = entry("https://example.com/c/", None);
        with_img.extras = Some(Box::new(Extras {
            images: vec!["https://example.com/i.jpg".into()],
            alternates: vec![],
        }));
        let entries = list([with_alt, entry("https://example.com/b/", None), with_img]);
        let o = WriteOptions {
            max_urls: 1,
            ..opts()
        };
        let files = render(&entries, &o).unwrap();
        let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "sitemap1.xml",
                "sitemap2.xml",
                "sitemap3.xml",
                "sitemap.xml"
            ]
        );
        assert!(
            text(&files[0]).contains("xmlns:xhtml") && !text(&files[0]).contains("xmlns:image")
        );
        assert!(!text(&files[1]).contains("xmlns:"));
        assert!(
            text(&files[2]).contains("xmlns:image") && !text(&files[2]).contains("xmlns:xhtml")
        );
        assert!(!text(&files[3]).contains("xmlns:"));
    }

    #[test]
    fn splits_by_count_with_newest_lastmod_per_part() {
        let entries = list([
            entry("https://example.com/1/", Some("2024-01-05")),
            entry("https://example.com/2/", Some("2024-01-07T10:00:00+05:00")),
            entry("https://example.com/3/", Some("2024-01-07T06:00:00Z")),
            entry("https://example.com/4/", None),
            entry("https://example.com/5/", None),
            entry("https://example.com/6/", None),
            entry("https://example.com/7/", Some("2023-12-31")),
        ]);
        let o = WriteOptions {
            max_urls: 3,
            ..opts()
        };
        let files = render(&entries, &o).unwrap();
        let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "sitemap1.xml",
                "sitemap2.xml",
                "sitemap3.xml",
                "sitemap.xml"
            ]
        );
        for (file, n) in files[..3].iter().zip([3, 3, 1]) {
            assert_eq!(text(file).matches("<url>").count(), n, "{}", file.name);
        }
        // 06:00Z is later than 10:00+05:00 (05:00Z): the instant decides, not the text.
        assert_eq!(
            text(&files[3]),
            r#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap>
    <loc>https://example.com/sitemap1.xml</loc>
    <lastmod>2024-01-07T06:00:00+00:00</lastmod>
  </sitemap>
  <sitemap>
    <loc>https://example.com/sitemap2.xml</loc>
  </sitemap>
  <sitemap>
    <loc>https://example.com/sitemap3.xml</loc>
    <lastmod>2023-12-31</lastmod>
  </sitemap>
</sitemapindex>
"#
        );
    }

    #[test]
    fn splits_by_bytes_counting_header_and_footer() {
        let entries = list((0..10).map(|i| entry(&format!("https://example.com/page-{i}/"), None)));
        let one = render(entries.slice(0..1), &opts()).unwrap()[0].bytes.len();
        let per_url = render(entries.slice(0..2), &opts()).unwrap()[0].bytes.len() - one;
        // Room for exactly three URLs: a fourth would overflow by one byte.
        let max_bytes = one + 2 * per_url;
        for limit in [max_bytes, max_bytes + per_url - 1] {
            let files = render(
                &entries,
                &WriteOptions {
                    max_bytes: limit,
                    ..opts()
                },
            )
            .unwrap();
            assert_eq!(files.len(), 5, "4 parts + index at {limit}");
            for f in &files[..4] {
                assert!(
                    f.bytes.len() <= limit,
                    "{} has {} bytes",
                    f.name,
                    f.bytes.len()
                );
            }
            assert_eq!(
                files[0].bytes.len(),
                max_bytes,
                "a full part uses the limit exactly"
            );
            assert_eq!(text(&files[3]).matches("<url>").count(), 1);
        }
    }

    #[test]
    fn an_entry_too_big_for_any_file_is_an_error_naming_it() {
        let entries = list([
            entry("https://example.com/a/", None),
            entry("https://example.com/very-long-page-name/", None),
        ]);
        let small = render(entries.slice(0..1), &opts()).unwrap()[0].bytes.len();
        let err = render(
            &entries,
            &WriteOptions {
                max_bytes: small + 5,
                ..opts()
            },
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("https://example.com/very-long-page-name/"),
            "{err}"
        );
    }

    #[test]
    fn limits_are_clamped_to_the_protocol() {
        let entries = list((0..50_001).map(|i| entry(&format!("https://example.com/{i}"), None)));
        let files = render(
            &entries,
            &WriteOptions {
                max_urls: 1_000_000,
                max_bytes: usize::MAX,
                ..opts()
            },
        )
        .unwrap();
        let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["sitemap1.xml", "sitemap2.xml", "sitemap.xml"]);
        assert_eq!(text(&files[0]).matches("<url>").count(), 50_000);
    }

    #[test]
    fn gzip_is_deterministic_and_holds_the_plain_bytes() {
        let entries =
            list((0..7).map(|i| entry(&format!("https://example.com/{i}/"), Some("2024-05-06"))));
        let plain = render(
            &entries,
            &WriteOptions {
                max_urls: 3,
                ..opts()
            },
        )
        .unwrap();
        let gz_opts = WriteOptions {
            max_urls: 3,
            gzip: true,
            ..opts()
        };
        let a = render(&entries, &gz_opts).unwrap();
        let b = render(&entries, &gz_opts).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), plain.len());
        for (z, p) in a.iter().zip(&plain) {
            assert_eq!(z.name, format!("{}.gz", p.name));
            assert_eq!(&z.bytes[..2], b"\x1f\x8b");
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&z.bytes[..]), &mut out)
                .unwrap();
            let expected = String::from_utf8(p.bytes.clone())
                .unwrap()
                .replace(".xml</loc>", ".xml.gz</loc>");
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }

    #[test]
    fn locs_of_several_origins_are_written_whole_and_escaped() {
        // The writer escapes each origin once per run of entries sharing it.
        let locs = [
            "https://example.com/a/",
            "https://o'neil@example.com/b/?x=1&y=2",
            "https://o'neil@example.com/c/",
            "http://example.com:8080/d/",
            "https://example.com/e/",
        ];
        let files = render(&list(locs.map(|l| entry(l, None))), &opts()).unwrap();
        let written: Vec<&str> = text(&files[0])
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<loc>")?.strip_suffix("</loc>"))
            .collect();
        let escaped: Vec<String> = locs
            .iter()
            .map(|l| quick_xml::escape::escape(*l).into_owned())
            .collect();
        assert_eq!(written, escaped);
        assert!(written[1].starts_with("https://o&apos;neil@example.com/b/?x=1&amp;y=2"));
    }

    #[test]
    fn sitemap_txt_lists_locs_and_refuses_too_many() {
        let o = WriteOptions {
            sitemap_txt: true,
            ..opts()
        };
        let files = render(
            &list([
                entry("https://example.com/", None),
                entry("https://example.com/a%20b/", None),
            ]),
            &o,
        )
        .unwrap();
        assert_eq!(files[1].name, "sitemap.txt");
        assert_eq!(
            text(&files[1]),
            "https://example.com/\nhttps://example.com/a%20b/\n"
        );
        let many = list((0..50_001).map(|i| entry(&format!("https://example.com/{i}"), None)));
        let err = render(&many, &o).unwrap_err().to_string();
        assert!(err.contains("sitemap.txt cannot hold 50001 URLs"), "{err}");
    }

    #[test]
    fn empty_input_gives_an_empty_urlset() {
        let files = render(&Entries::new(), &opts()).unwrap();
        assert_eq!(
            text(&files[0]),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</urlset>\n"
        );
    }

    #[test]
    fn bad_options_are_config_errors() {
        let bad = [
            WriteOptions {
                base_url: "example.com/".into(),
                ..opts()
            },
            WriteOptions {
                base_url: "https://example.com/blog".into(),
                ..opts()
            },
            WriteOptions {
                base_url: "https://example.com/?x=1/".into(),
                ..opts()
            },
            WriteOptions {
                base_url: "ftp://example.com/".into(),
                ..opts()
            },
            WriteOptions {
                file_name: "../sitemap.xml".into(),
                ..opts()
            },
            WriteOptions {
                file_name: "site map.xml".into(),
                ..opts()
            },
            WriteOptions {
                file_name: "robots.txt".into(),
                ..opts()
            },
            WriteOptions {
                part_name: "sitemap.xml".into(),
                ..opts()
            },
            WriteOptions {
                part_name: "s{n}-{n}.xml".into(),
                ..opts()
            },
            WriteOptions {
                file_name: "sitemap1.xml".into(),
                ..opts()
            },
            WriteOptions {
                max_urls: 0,
                ..opts()
            },
            WriteOptions {
                max_bytes: 0,
                ..opts()
            },
        ];
        for o in bad {
            assert!(
                matches!(render(&Entries::new(), &o), Err(Error::Config { .. })),
                "{o:?}"
            );
        }
        let ok = WriteOptions {
            file_name: "sitemap_index.xml".into(),
            part_name: "sitemap-{n}.xml".into(),
            ..opts()
        };
        assert!(render(&Entries::new(), &ok).is_ok());
    }

    #[test]
    fn part_names_are_recognised_strictly() {
        let o = opts();
        let plan = Plan::new(&o).unwrap();
        for yes in ["sitemap1.xml", "sitemap12.xml", "sitemap3.xml.gz"] {
            assert!(plan.is_part(yes), "{yes}");
        }
        for no in [
            "sitemap.xml",
            "sitemap01.xml",
            "sitemap-news.xml",
            "sitemap1.xml.bak",
            "sitemapx.xml",
        ] {
            assert!(!plan.is_part(no), "{no}");
        }
    }

    fn robots(existing: Option<&str>, o: &WriteOptions) -> String {
        String::from_utf8(robots_txt(existing.map(str::as_bytes), o).unwrap()).unwrap()
    }

    #[test]
    fn robots_txt_is_created_with_one_line() {
        assert_eq!(
            robots(None, &opts()),
            "Sitemap: https://example.com/sitemap.xml\n"
        );
        assert_eq!(
            robots(Some(""), &opts()),
            "Sitemap: https://example.com/sitemap.xml\n"
        );
        let gz = WriteOptions {
            gzip: true,
            ..opts()
        };
        assert_eq!(
            robots(None, &gz),
            "Sitemap: https://example.com/sitemap.xml.gz\n"
        );
    }

    #[test]
    fn robots_txt_updates_our_line_in_place_and_keeps_the_rest() {
        let existing = "User-agent: *\nDisallow: /private\n\nsitemap: http://old.example.org/sitemap.xml.gz # old\nSitemap: https://example.com/blog/sitemap.xml\nSitemap: https://example.com/news-sitemap.xml\nSitemap: https://example.com/sitemap.xml\n# end";
        let got = robots(Some(existing), &opts());
        assert_eq!(
            got,
            "User-agent: *\nDisallow: /private\n\nSitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/blog/sitemap.xml\nSitemap: https://example.com/news-sitemap.xml\n# end"
        );
        assert_eq!(robots(Some(&got), &opts()), got, "idempotent");
    }

    #[test]
    fn robots_txt_appends_with_the_files_line_ending() {
        let crlf = "User-agent: *\r\nAllow: /";
        let got = robots(Some(crlf), &opts());
        assert_eq!(
            got,
            "User-agent: *\r\nAllow: /\r\nSitemap: https://example.com/sitemap.xml\r\n"
        );
        assert_eq!(robots(Some(&got), &opts()), got);
        let lf = "User-agent: *\n";
        assert_eq!(
            robots(Some(lf), &opts()),
            "User-agent: *\nSitemap: https://example.com/sitemap.xml\n"
        );
    }
}
