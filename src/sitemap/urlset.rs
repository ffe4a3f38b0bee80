//! The output stage: serialises entries into `sitemap.xml` (or an index and its parts),
//! optionally gzipped, plus `sitemap.txt` ([`super::text`]) and the `Sitemap:` line of
//! `robots.txt` ([`super::robots_line`]); `super::disk` gets the bytes onto disk.
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
//! - A split sitemap replaces an old one so that the index on disk always names parts of its
//!   own run, and a killed run's temporary files are removed by the next run (see
//!   `super::disk`).

use super::disk::{INTERIM_TAG, Sink};
use super::format::{push_date, push_escaped, push_priority};
use super::set_write::SetOptions;
use crate::entries::{Entry, Loc, View};
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};
use crate::vocab::protocol::{IMAGE_NS, MAX_BYTES, MAX_URLS, SITEMAP_NS, XHTML_NS};
use std::path::PathBuf;

// The old paths of these names (src/report.rs uses them).
pub use super::robots_line::{ROBOTS_NAME, read_robots, robots_txt};
pub use super::text::TXT_NAME;

const XML_DECL: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const URLSET_END: &[u8] = b"</urlset>\n";
pub(super) const INDEX_END: &[u8] = b"</sitemapindex>\n";
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
    /// With this many entries or more, the sitemap is an index and parts even when they fit
    /// one file (Zola's rule: 30,000 or more URLs make an index); `usize::MAX` for never.
    pub index_from: usize,
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
            index_from: usize::MAX,
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
    /// The files written: each sitemap's parts then its index or single file, then the
    /// index over them all, then sitemap.txt and the registered files.
    pub files: Vec<PathBuf>,
    /// Number of URLs written.
    pub urls: usize,
    /// Stale files of an earlier run that were removed.
    pub removed: Vec<PathBuf>,
    /// True when robots.txt was created or changed.
    pub robots_updated: bool,
    /// What the user may want to fix, said once each (the record of ours could not be kept).
    pub warnings: Vec<String>,
}

/// Serialises `entries` into the files [`write`] would store, in the same order, in memory.
///
/// robots.txt is not included: it depends on the file already on disk (see [`robots_txt`]).
pub fn render<'a>(entries: impl Into<View<'a>>, opts: &WriteOptions) -> Result<Vec<OutputFile>> {
    let entries = entries.into();
    super::set_write::render_set(entries, &SetOptions::single(entries.len(), opts))
}

/// Writes the sitemap files into `output_dir`, atomically, and removes stale ones: the one
/// sitemap of a [`SetOptions::single`] set (see [`super::set_write::write_set`]).
///
/// Every file goes to a temporary file first; only when all of them were written are they
/// renamed into place (parts before the index, so an index never names a missing part, and
/// through interim names when the old index names the parts being replaced, so it never
/// names a part of another run). On error the temporary files are removed and no existing
/// file is touched. Temporary files that killed runs left behind are removed first.
///
/// Stale files: the files of ours (see [`super::owned`]) the new run no longer writes are
/// removed. Without a record of ours in the folder (a folder an older sitemapgen wrote), the
/// existing main file of the same compression is read first, and once the new files are in
/// place, every part it lists is removed when its `<loc>` is `base_url`'s folder plus a name
/// matching `part_name` (or an interim name of it), the new run did not write it, and it is
/// itself a `<urlset>` of the sitemaps.org namespace. Anything else (say a hand-made
/// `sitemap-news.xml`, a `sitemap9.xml` no index of ours lists, or the `sitemap.xml` beside
/// a new `sitemap.xml.gz` that no record names) is left alone.
pub fn write<'a>(entries: impl Into<View<'a>>, opts: &WriteOptions) -> Result<WriteReport> {
    let entries = entries.into();
    super::set_write::write_set(entries, &SetOptions::single(entries.len(), opts))
}

/// The options, checked, with the names and limits derived from them.
pub(super) struct Plan<'a> {
    /// The options as given.
    pub(super) opts: &'a WriteOptions,
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
    pub(super) index_head: Vec<u8>,
}

impl<'a> Plan<'a> {
    /// Checks `opts` and derives the names and heads from them.
    pub(super) fn new(opts: &'a WriteOptions) -> Result<Plan<'a>> {
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
            head.extend_from_slice(SITEMAP_NS.as_bytes());
            head.push(b'"');
            if ns & USES_XHTML != 0 {
                push_xmlns(head, "xhtml", XHTML_NS);
            }
            if ns & USES_IMAGE != 0 {
                push_xmlns(head, "image", IMAGE_NS);
            }
            head.extend_from_slice(b">\n");
        }
        prolog(&mut plan.index_head, opts.stylesheet.as_deref());
        plan.index_head.extend_from_slice(b"<sitemapindex xmlns=\"");
        plan.index_head.extend_from_slice(SITEMAP_NS.as_bytes());
        plan.index_head.extend_from_slice(b"\">\n");
        Ok(plan)
    }

    /// The name of the single file or index, as written.
    pub(super) fn main_name(&self) -> String {
        format!("{}{}", self.opts.file_name, self.ext)
    }

    /// The name of part `n` (1-based), as written.
    fn part(&self, n: usize) -> String {
        format!("{}{n}{}{}", self.part_prefix, self.part_suffix, self.ext)
    }

    /// True when `name` is a part name of our pattern, compressed or not.
    pub(super) fn is_part(&self, name: &str) -> bool {
        let name = name.strip_suffix(".gz").unwrap_or(name);
        name.strip_prefix(self.part_prefix)
            .and_then(|rest| rest.strip_suffix(self.part_suffix))
            .is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())
            })
    }

    /// The interim name of part file `part` for this process (see `super::disk`).
    pub(super) fn interim_name(&self, part: &str) -> String {
        let end = part.len() - self.part_suffix.len() - self.ext.len();
        let n = &part[self.part_prefix.len()..end];
        format!(
            "{}{n}{INTERIM_TAG}{}{}{}",
            self.part_prefix,
            std::process::id(),
            self.part_suffix,
            self.ext
        )
    }

    /// The writer's PID when `name` is an interim part name of our pattern, compressed or not.
    pub(super) fn interim_pid(&self, name: &str) -> Option<u32> {
        if name == self.opts.file_name || name.strip_suffix(".gz") == Some(&self.opts.file_name) {
            return None;
        }
        let bare = name.strip_suffix(".gz").unwrap_or(name);
        let middle = bare
            .strip_prefix(self.part_prefix)?
            .strip_suffix(self.part_suffix)?;
        let (n, pid) = middle.split_once(INTERIM_TAG)?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        (digits(n) && !n.starts_with('0') && digits(pid))
            .then(|| pid.parse().ok())
            .flatten()
    }

    /// True when a run of these options may write a file called `name` (either compression).
    pub(super) fn writes_name(&self, name: &str) -> bool {
        let file = self.opts.file_name.as_str();
        name == file
            || name.strip_suffix(".gz") == Some(file)
            || name == TXT_NAME
            || name == ROBOTS_NAME
            || self.is_part(name)
            || self.interim_pid(name).is_some()
    }

    /// The file name a sitemap URL points at when it lies in `base_url`'s folder (any host).
    pub(super) fn our_name<'u>(&self, url: &'u str) -> Option<&'u str> {
        let parsed = url::Url::parse(url).ok()?;
        if parsed.query().is_some() || parsed.fragment().is_some() {
            return None;
        }
        let name = parsed.path().strip_prefix(self.base_path.as_str())?;
        // The name sits at the end of `url`; borrow it from there rather than from `parsed`.
        (!name.is_empty() && !name.contains('/') && url.ends_with(name))
            .then(|| &url[url.len() - name.len()..])
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
        && plain.bytes().all(crate::vocab::protocol::is_file_name_byte);
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

/// Appends ` xmlns:prefix="uri"`.
fn push_xmlns(buf: &mut Vec<u8>, prefix: &str, uri: &str) {
    buf.extend_from_slice(b" xmlns:");
    buf.extend_from_slice(prefix.as_bytes());
    buf.extend_from_slice(b"=\"");
    buf.extend_from_slice(uri.as_bytes());
    buf.push(b'"');
}

/// What [`emit`] handed to the sink.
pub(super) struct Emitted {
    /// Every file's name, in order.
    pub(super) names: Vec<String>,
    /// The parts of a split sitemap with the newest lastmod of each (none for one file).
    pub(super) parts: Vec<(String, Option<W3cDate>)>,
    /// The newest lastmod of all the entries.
    pub(super) newest: Option<W3cDate>,
}

impl Emitted {
    /// The `<urlset>` files written, with the newest lastmod of each: the parts, or the one
    /// file.
    pub(super) fn urlsets(&self, plan: &Plan<'_>) -> Vec<(String, Option<W3cDate>)> {
        if self.parts.is_empty() {
            vec![(plan.main_name(), self.newest)]
        } else {
            self.parts.clone()
        }
    }
}

/// Serialises one sitemap (a `<urlset>`, or parts and their index) and hands each finished
/// file to `sink`.
pub(super) fn emit<S: Sink>(entries: View<'_>, plan: &Plan<'_>, sink: &mut S) -> Result<Emitted> {
    let compress = plan.opts.gzip;
    let max_bytes = plan.max_bytes;
    let overhead = |ns: usize| plan.urlset_heads[ns].len() + URLSET_END.len();
    let mut names = Vec::new();
    // The current part's <url> elements; its head is known only once the part is complete.
    let mut body: Vec<u8> = Vec::with_capacity(max_bytes.min(8 << 20));
    let mut parts: Vec<(String, Option<W3cDate>)> = Vec::new();
    let (mut part_ns, mut count, mut newest) = (0usize, 0usize, None::<W3cDate>);
    let mut newest_all = None::<W3cDate>;
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
            newest_all = newer_of(newest_all, newest);
            parts.push((name, newest.take()));
            // Keep the entry that did not fit: it opens the next part.
            body.drain(..start);
            part_ns = 0;
            count = 0;
        }
        part_ns |= ns;
        count += 1;
        if let Some(d) = &entry.lastmod
            && newest.as_ref().is_none_or(|n| is_newer(d, n))
        {
            newest = Some(*d);
        }
    }

    let main = plan.main_name();
    newest_all = newer_of(newest_all, newest);
    if parts.is_empty() && count < plan.opts.index_from {
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
        index_body(&mut body, plan, &parts)?;
        sink.file(&main, compress, &[&plan.index_head, &body, INDEX_END])?;
    }
    names.push(main);
    Ok(Emitted {
        names,
        parts,
        newest: newest_all,
    })
}

/// The later of two optional dates.
fn newer_of(a: Option<W3cDate>, b: Option<W3cDate>) -> Option<W3cDate> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if is_newer(&y, &x) { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// The `<sitemap>` elements of an index over `parts` (names below `plan`'s base URL) into
/// `body`, or an error when the index would break the protocol's limits.
pub(super) fn index_body(
    body: &mut Vec<u8>,
    plan: &Plan<'_>,
    parts: &[(String, Option<W3cDate>)],
) -> Result<()> {
    if parts.len() > MAX_URLS {
        return Err(too_many_parts(parts.len() * plan.max_urls));
    }
    push_index_body(body, plan, parts);
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
    Ok(())
}

/// Appends one `<sitemap>` element for each part.
pub(super) fn push_index_body(
    body: &mut Vec<u8>,
    plan: &Plan<'_>,
    parts: &[(String, Option<W3cDate>)],
) {
    for (name, lastmod) in parts {
        body.extend_from_slice(b"  <sitemap>\n    <loc>");
        push_escaped(body, &plan.opts.base_url);
        push_escaped(body, name);
        body.extend_from_slice(b"</loc>\n");
        if let Some(d) = lastmod {
            body.extend_from_slice(b"    <lastmod>");
            push_date(body, d);
            body.extend_from_slice(b"</lastmod>\n");
        }
        body.extend_from_slice(b"  </sitemap>\n");
    }
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::entries::{Alternate, Entries, Extras};
    use crate::vocab::crawl_hints::{ChangeFreq, Priority};
    use crate::vocab::date::SiteTz;

    /// Default options on `https://example.com/`.
    pub(in crate::sitemap) fn opts() -> WriteOptions {
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
}
