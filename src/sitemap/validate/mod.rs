//! `sitemapgen validate FILE…`: checks any sitemap or sitemap index (plain or gzip) against
//! the protocol, streaming, and reports Search-Console-style findings with line numbers.
//!
//! Memory stays flat whatever the input size: the file is read through a 64 KiB buffer by
//! quick-xml, only the text of the field being read is kept, and duplicate detection keeps one
//! 64-bit hash per `<loc>` for the first [`MAX_ENTRIES`] entries only (past that limit the file
//! is already in error and must be split; duplicates in the tail are not looked for).
//!
//! Where the XSDs are blind or wrong, this goes further (see the README):
//! - `<loc>` must be an absolute http(s) URL, percent-encoded per RFC 3986 (the XSD's
//!   `xsd:anyURI` accepts relative paths, raw spaces and non-ASCII), on the sitemap's host,
//!   at most 2,047 characters (the XSD allows 2,048; Google counts "fewer than 2,048").
//! - `<lastmod>` is a W3C Datetime: `YYYY` and `YYYY-MM` and `hh:mm` without seconds are valid
//!   (the XSD rejects them), a time without an offset is a warning (the XSD accepts it), a date
//!   carrying a time zone (`2024-05-01+02:00`) is an error (the XSD accepts it; W3C has no such
//!   form), and a date in the future is a warning.
//! - Elements in other namespaces than sitemaps.org and Google's image, video, news and XHTML
//!   ones are a warning (Google ignores them; the XSD rejects them). The order of `<loc>`,
//!   `<lastmod>`, `<changefreq>`, `<priority>` is not checked (the XSD wants that order;
//!   search engines do not care).

use crate::error::{Error, Result};
use chrono::{DateTime, Duration, FixedOffset, NaiveDate, NaiveTime, Utc};
use flate2::read::MultiGzDecoder;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::io::{self, BufRead, Read, Write};
use std::path::{Component, Path, PathBuf};
use url::Url;

/// The sitemaps.org 0.9 namespace every sitemap and index must use.
pub const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
/// At most this many `<url>` (or `<sitemap>`) entries in one file.
pub const MAX_ENTRIES: usize = 50_000;
/// At most this many bytes, uncompressed, in one file.
pub const MAX_BYTES: u64 = 52_428_800;
/// At most this many characters in a `<loc>`.
pub const MAX_LOC_CHARS: usize = 2_047;
/// Findings kept per file; further ones are only counted, so a broken huge file stays cheap.
pub const MAX_FINDINGS: usize = 10_000;

const IMAGE_NS: &[u8] = b"http://www.google.com/schemas/sitemap-image/1.1";
const VIDEO_NS: &[u8] = b"http://www.google.com/schemas/sitemap-video/1.1";
const NEWS_NS: &[u8] = b"http://www.google.com/schemas/sitemap-news/0.9";
const XHTML_NS: &[u8] = b"http://www.w3.org/1999/xhtml";
const CHANGEFREQS: [&str; 7] = [
    "always", "hourly", "daily", "weekly", "monthly", "yearly", "never",
];

/// Settings for a validation run.
#[derive(Clone, Debug, Default)]
pub struct ValidateOptions {
    /// `--base-url`: the site the sitemap belongs to; the file is assumed at base_url + its name.
    pub base_url: Option<Url>,
}

/// How bad a finding is: errors fail the run, warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Search engines reject the entry or the file.
    Error,
    /// Accepted, but probably not what the author meant.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// What a finding is about, named the way Google Search Console names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// The file is not well-formed XML, or an element is not allowed where it stands.
    ParsingError,
    /// Whitespace before the XML declaration.
    LeadingWhitespace,
    /// The root element is not in the sitemaps.org 0.9 namespace.
    IncorrectNamespace,
    /// Not a sitemap: another root element (an RSS feed, an HTML page) or not UTF-8.
    UnsupportedFormat,
    /// A required element is missing (`<loc>` in `<url>` or `<sitemap>`).
    MissingXmlTag,
    /// A required attribute is missing (`href` on `<xhtml:link>`).
    MissingXmlAttribute,
    /// An element that may appear once appears twice.
    TooManyTags,
    /// A `<changefreq>`, `<priority>` or similar value is outside what the protocol allows.
    InvalidTagValue,
    /// A `<lastmod>` that is not a W3C Datetime.
    InvalidDate,
    /// A `<loc>` that is not an absolute, percent-encoded http(s) URL.
    InvalidUrl,
    /// A `<loc>` on another host or port, or above the sitemap's folder.
    UrlNotAllowed,
    /// A `<loc>` that differs from the sitemap's site only by `www.` or by http/https.
    PathMismatch,
    /// More than 50,000 `<url>` entries.
    TooManyUrls,
    /// More than 52,428,800 bytes uncompressed.
    SitemapFileSizeError,
    /// An index inside an index, or an index listing another index.
    NestedSitemapIndexes,
    /// More than 50,000 `<sitemap>` entries in an index.
    TooManySitemaps,
    /// The gzip stream is corrupt or the `.gz` file is not gzip.
    CompressionError,
    /// No `<url>` or `<sitemap>` entries at all.
    EmptySitemap,
    /// The same `<loc>` twice (warning).
    DuplicateUrl,
    /// A `<lastmod>` time with no offset, so its instant is unknown (warning).
    TimeWithoutOffset,
    /// A `<lastmod>` after the time of the check (warning).
    FutureDate,
    /// A `<loc>` with a `#fragment`, which crawlers drop (warning).
    UrlFragment,
    /// An element in a namespace no search engine reads (warning).
    UnknownExtension,
}

impl FindingKind {
    /// The Search Console name of this finding.
    pub fn name(&self) -> &'static str {
        match self {
            FindingKind::ParsingError => "Parsing error",
            FindingKind::LeadingWhitespace => "Leading whitespace",
            FindingKind::IncorrectNamespace => "Incorrect namespace",
            FindingKind::UnsupportedFormat => "Unsupported format",
            FindingKind::MissingXmlTag => "Missing XML tag",
            FindingKind::MissingXmlAttribute => "Missing XML attribute",
            FindingKind::TooManyTags => "Invalid XML: too many tags",
            FindingKind::InvalidTagValue => "Invalid tag value",
            FindingKind::InvalidDate => "Invalid date",
            FindingKind::InvalidUrl => "Invalid URL",
            FindingKind::UrlNotAllowed => "URL not allowed",
            FindingKind::PathMismatch => "Path mismatch",
            FindingKind::TooManyUrls => "Too many URLs",
            FindingKind::SitemapFileSizeError => "Sitemap file size error",
            FindingKind::NestedSitemapIndexes => "Nested sitemap indexes",
            FindingKind::TooManySitemaps => "Too many sitemaps",
            FindingKind::CompressionError => "Compression error",
            FindingKind::EmptySitemap => "Empty sitemap",
            FindingKind::DuplicateUrl => "Duplicate URL",
            FindingKind::TimeWithoutOffset => "Time without offset",
            FindingKind::FutureDate => "Date in the future",
            FindingKind::UrlFragment => "URL fragment",
            FindingKind::UnknownExtension => "Unknown extension",
        }
    }

    /// Whether this kind fails the run (error) or only informs (warning).
    pub fn severity(&self) -> Severity {
        match self {
            FindingKind::DuplicateUrl
            | FindingKind::TimeWithoutOffset
            | FindingKind::FutureDate
            | FindingKind::UrlFragment
            | FindingKind::UnknownExtension => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// Every kind, in report order.
    pub const ALL: [FindingKind; 23] = [
        FindingKind::ParsingError,
        FindingKind::LeadingWhitespace,
        FindingKind::IncorrectNamespace,
        FindingKind::UnsupportedFormat,
        FindingKind::MissingXmlTag,
        FindingKind::MissingXmlAttribute,
        FindingKind::TooManyTags,
        FindingKind::InvalidTagValue,
        FindingKind::InvalidDate,
        FindingKind::InvalidUrl,
        FindingKind::UrlNotAllowed,
        FindingKind::PathMismatch,
        FindingKind::TooManyUrls,
        FindingKind::SitemapFileSizeError,
        FindingKind::NestedSitemapIndexes,
        FindingKind::TooManySitemaps,
        FindingKind::CompressionError,
        FindingKind::EmptySitemap,
        FindingKind::DuplicateUrl,
        FindingKind::TimeWithoutOffset,
        FindingKind::FutureDate,
        FindingKind::UrlFragment,
        FindingKind::UnknownExtension,
    ];

    /// The kind with this Search Console name.
    pub fn from_name(name: &str) -> Option<FindingKind> {
        FindingKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One problem found in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The file checked.
    pub file: PathBuf,
    /// 1-based line of the offending element; 0 = the whole file.
    pub line: usize,
    /// Error or warning.
    pub severity: Severity,
    /// The Search Console category.
    pub kind: FindingKind,
    /// What is wrong and what to do.
    pub message: String,
}

/// Which of the two sitemap formats a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SitemapKind {
    /// `<urlset>`: a list of pages.
    UrlSet,
    /// `<sitemapindex>`: a list of sitemaps.
    SitemapIndex,
}

/// The outcome of checking one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The file checked.
    pub path: PathBuf,
    /// The findings, in file order (at most [`MAX_FINDINGS`]).
    pub findings: Vec<Finding>,
    /// `<url>` or `<sitemap>` entries seen.
    pub entries: usize,
    /// Uncompressed bytes read.
    pub bytes: u64,
    /// The root element's format, when the root was recognised.
    pub kind: Option<SitemapKind>,
    /// Error findings, including those past [`MAX_FINDINGS`].
    pub errors: usize,
    /// Warning findings, including those past [`MAX_FINDINGS`].
    pub warnings: usize,
    /// Findings counted but not kept because the file had more than [`MAX_FINDINGS`].
    pub omitted: usize,
}

impl FileReport {
    fn new(path: &Path) -> FileReport {
        FileReport {
            path: path.to_path_buf(),
            findings: Vec::new(),
            entries: 0,
            bytes: 0,
            kind: None,
            errors: 0,
            warnings: 0,
            omitted: 0,
        }
    }

    fn add(&mut self, line: usize, kind: FindingKind, message: impl Into<String>) {
        let severity = kind.severity();
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        if self.findings.len() >= MAX_FINDINGS {
            self.omitted += 1;
            return;
        }
        self.findings.push(Finding {
            file: self.path.clone(),
            line,
            severity,
            kind,
            message: message.into(),
        });
    }
}

/// Checks one sitemap or index file (gzip when it starts with the gzip magic or ends in `.gz`).
///
/// Returns `Err` only when the file cannot be read; everything wrong with its content is a
/// finding in the report.
pub fn validate_file(path: &Path, opts: &ValidateOptions) -> Result<FileReport> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut magic = [0u8; 2];
    let got = read_up_to(&mut file, &mut magic).map_err(|e| Error::io(path, e))?;
    let gz_name = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let gzip = gz_name || (got == 2 && magic == [0x1f, 0x8b]);
    let head = io::Cursor::new(magic[..got].to_vec());
    let raw = head.chain(file);
    let mut report = FileReport::new(path);
    let sitemap_url = opts
        .base_url
        .as_ref()
        .map(|base| sitemap_url_of(base, path));
    let ctx = Context {
        path,
        base: opts.base_url.as_ref().map(Site::from_url),
        sitemap_url,
        now: Utc::now(),
    };
    if gzip {
        let counter = Counter::new(MultiGzDecoder::new(raw));
        check_stream(counter, true, &ctx, &mut report)?;
    } else {
        check_stream(Counter::new(raw), false, &ctx, &mut report)?;
    }
    Ok(report)
}

/// Writes `file:line: error: Name: message` lines for every finding, then one summary line.
pub fn print_report(reports: &[FileReport], out: &mut impl Write) -> io::Result<()> {
    let (mut errors, mut warnings, mut entries) = (0usize, 0usize, 0usize);
    for r in reports {
        for f in &r.findings {
            let file = f.file.display();
            if f.line == 0 {
                write!(out, "{file}: ")?;
            } else {
                write!(out, "{file}:{}: ", f.line)?;
            }
            writeln!(out, "{}: {}: {}", f.severity, f.kind.name(), f.message)?;
        }
        if r.omitted > 0 {
            writeln!(
                out,
                "{}: note: {} more findings not shown",
                r.path.display(),
                thousands(r.omitted as u64)
            )?;
        }
        errors += r.errors;
        warnings += r.warnings;
        entries += r.entries;
    }
    let files = reports.len();
    write!(
        out,
        "validated {} file{} ({} entr{}): ",
        thousands(files as u64),
        plural(files),
        thousands(entries as u64),
        if entries == 1 { "y" } else { "ies" }
    )?;
    if errors == 0 && warnings == 0 {
        writeln!(out, "no problems")
    } else {
        writeln!(
            out,
            "{} error{}, {} warning{}",
            thousands(errors as u64),
            plural(errors),
            thousands(warnings as u64),
            plural(warnings)
        )
    }
}

/// The process exit code: 2 when a file could not be read, else 1 when any error was found,
/// else 0 (warnings alone pass).
pub fn exit_code(reports: &[FileReport], unreadable: usize) -> i32 {
    if unreadable > 0 {
        2
    } else if reports.iter().any(|r| r.errors > 0) {
        1
    } else {
        0
    }
}

/// Validates every file, prints the report to `out` and unreadable files to `err`, and
/// returns the exit code (see [`exit_code`]).
pub fn run(
    paths: &[PathBuf],
    opts: &ValidateOptions,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<i32> {
    let mut reports = Vec::with_capacity(paths.len());
    let mut unreadable = 0;
    for path in paths {
        match validate_file(path, opts) {
            Ok(r) => reports.push(r),
            Err(e) => {
                unreadable += 1;
                writeln!(err, "{e}")?;
            }
        }
    }
    print_report(&reports, out)?;
    Ok(exit_code(&reports, unreadable))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Where the sitemap itself lives: `base_url` + the file's name.
fn sitemap_url_of(base: &Url, path: &Path) -> Url {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut base = base.clone();
    if !base.path().ends_with('/') {
        let p = format!("{}/", base.path());
        base.set_path(&p);
    }
    base.join(&name).unwrap_or(base)
}

/// A buffered reader that counts the newlines and bytes quick-xml consumes, which gives the
/// line of every event without keeping any of the text.
struct Counter<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    cap: usize,
    /// Newlines in everything consumed before `buf[counted]`.
    newlines: usize,
    /// Newlines are counted in bulk, once per event, not on every small `consume`.
    counted: usize,
    bytes: u64,
}

impl<R: Read> Counter<R> {
    fn new(inner: R) -> Self {
        Counter {
            inner,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            pos: 0,
            cap: 0,
            newlines: 0,
            counted: 0,
            bytes: 0,
        }
    }

    /// Newlines consumed so far.
    fn newlines(&mut self) -> usize {
        self.newlines += self.buf[self.counted..self.pos]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.counted = self.pos;
        self.newlines
    }
}

impl<R: Read> Counter<R> {
    /// Buffers at least `n` bytes (fewer only at the end of the stream), for looking ahead.
    fn fill_min(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.pos >= self.cap {
            self.newlines();
            self.pos = 0;
            self.cap = 0;
            self.counted = 0;
        }
        while self.cap - self.pos < n && self.cap < self.buf.len() {
            match self.inner.read(&mut self.buf[self.cap..]) {
                Ok(0) => break,
                Ok(k) => self.cap += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(&self.buf[self.pos..self.cap])
    }
}

impl<R: Read> Read for Counter<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Counter<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.cap {
            self.newlines();
            let n = loop {
                match self.inner.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            (self.cap, self.pos, self.counted) = (n, 0, 0);
        }
        Ok(&self.buf[self.pos..self.cap])
    }

    fn consume(&mut self, amt: usize) {
        let end = (self.pos + amt).min(self.cap);
        self.bytes += (end - self.pos) as u64;
        self.pos = end;
    }
}

/// Scheme, host and port of a URL, plus its folder when it names a sitemap's location.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Site {
    https: bool,
    host: String,
    port: u16,
    folder: Option<String>,
}

impl Site {
    fn from_url(u: &Url) -> Site {
        let https = u.scheme().eq_ignore_ascii_case("https");
        let mut folder = u.path().to_string();
        if !folder.ends_with('/') {
            folder.push('/');
        }
        Site {
            https,
            host: u.host_str().unwrap_or("").to_ascii_lowercase(),
            port: u
                .port_or_known_default()
                .unwrap_or(if https { 443 } else { 80 }),
            folder: Some(folder),
        }
    }

    fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        let default = if self.https { 443 } else { 80 };
        if self.port == default {
            format!("{scheme}://{}", self.host)
        } else {
            format!("{scheme}://{}:{}", self.host, self.port)
        }
    }
}

/// What stays the same for the whole file.
struct Context<'a> {
    path: &'a Path,
    base: Option<Site>,
    sitemap_url: Option<Url>,
    now: DateTime<Utc>,
}

/// A `<loc>` that passed the syntax checks, split into its parts.
#[derive(Debug)]
struct ParsedUrl<'a> {
    https: bool,
    /// As written; compare with `eq_ignore_ascii_case`.
    host: &'a str,
    port: u16,
    path: &'a str,
    fragment: bool,
}

impl ParsedUrl<'_> {
    fn site(&self) -> Site {
        Site {
            https: self.https,
            host: self.host.to_ascii_lowercase(),
            port: self.port,
            folder: None,
        }
    }

    fn same_origin(&self, other: &Site) -> bool {
        self.https == other.https
            && self.port == other.port
            && self.host.eq_ignore_ascii_case(&other.host)
    }
}

/// Any RFC 3986 character outside `%` escapes: a path character, or `?`, `#`, `[`, `]`.
fn is_unreserved_or_delim(b: u8) -> bool {
    crate::loc::is_path_safe(b) || matches!(b, b'?' | b'#' | b'[' | b']')
}

/// Checks `s` is an absolute http(s) URL written with RFC 3986 characters only.
fn parse_loc(s: &str) -> std::result::Result<ParsedUrl<'_>, String> {
    if s.is_empty() {
        return Err("empty <loc>: write the page's absolute URL".into());
    }
    let chars = s.chars().count();
    if chars > MAX_LOC_CHARS {
        return Err(format!(
            "URL is {chars} characters long; at most {MAX_LOC_CHARS} are allowed"
        ));
    }
    let bytes = s.as_bytes();
    // Positions the later steps need, gathered in this one pass.
    let (mut first_hash, mut hashes, mut first_query, mut last_bracket) = (None, 0, None, None);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'#' => {
                hashes += 1;
                first_hash = first_hash.or(Some(i));
            }
            b'?' => first_query = first_query.or(Some(i)),
            b'[' | b']' => last_bracket = Some(i),
            _ => {}
        }
        if b == b'%' {
            let ok = bytes.len() > i + 2
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit();
            if !ok {
                let bad: String = s[i..].chars().take(3).collect();
                return Err(format!(
                    "invalid percent-escape \"{bad}\" in {s:?}: a '%' must start %XX (write a literal '%' as %25)"
                ));
            }
            i += 3;
            continue;
        }
        if b >= 0x80 {
            let c = s[i..].chars().next().unwrap_or('\u{fffd}');
            let mut utf8 = [0u8; 4];
            let enc: String = c
                .encode_utf8(&mut utf8)
                .bytes()
                .map(|b| format!("%{b:02X}"))
                .collect();
            return Err(format!(
                "non-ASCII character '{c}' in {s:?}: percent-encode its UTF-8 bytes as {enc}"
            ));
        }
        if b == b' ' {
            return Err(format!("raw space in {s:?}: percent-encode it as %20"));
        }
        if !is_unreserved_or_delim(b) {
            let shown = if b.is_ascii_graphic() {
                format!("'{}'", b as char)
            } else {
                format!("byte 0x{b:02X}")
            };
            return Err(format!(
                "character {shown} is not allowed in a URL ({s:?}): percent-encode it as %{b:02X}"
            ));
        }
        i += 1;
    }
    let colon = bytes.iter().position(|&b| b == b':');
    let Some(colon) = colon.filter(|&c| s[c..].starts_with("://")) else {
        return Err(if s.starts_with('/') {
            format!("relative URL {s:?}: <loc> must be absolute, like https://example.com{s}")
        } else {
            format!("{s:?} is not an absolute http(s) URL")
        });
    };
    let scheme = &s[..colon];
    let https = if scheme.eq_ignore_ascii_case("https") {
        true
    } else if scheme.eq_ignore_ascii_case("http") {
        false
    } else {
        return Err(format!(
            "scheme '{scheme}' in {s:?}: only http and https URLs are allowed"
        ));
    };
    let rest = &s[colon + 3..];
    let auth_end = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = &rest[..auth_end];
    let after_start = colon + 3 + auth_end;
    if authority.contains('@') {
        return Err(format!(
            "{s:?} carries user credentials ('user@host'): list the public URL only"
        ));
    }
    let (host, port_str) = if let Some(v6) = authority.strip_prefix('[') {
        let Some(close) = v6.find(']') else {
            return Err(format!("unclosed IPv6 address in {s:?}"));
        };
        let tail = &v6[close + 1..];
        let port = match tail.strip_prefix(':') {
            Some(p) => Some(p),
            None if tail.is_empty() => None,
            None => return Err(format!("bad host in {s:?}")),
        };
        (&authority[..close + 2], port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() || host.contains(['[', ']']) && !host.starts_with('[') {
        return Err(format!("{s:?} has no host"));
    }
    let default = if https { 443 } else { 80 };
    let port = match port_str {
        None | Some("") => default,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if p.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Err(format!("bad port '{p}' in {s:?}")),
        },
    };
    if last_bracket.is_some_and(|b| b >= after_start) {
        return Err(format!(
            "'[' or ']' outside an IPv6 host in {s:?}: percent-encode them as %5B and %5D"
        ));
    }
    if hashes > 1 {
        return Err(format!(
            "second '#' in {s:?}: percent-encode a literal '#' as %23"
        ));
    }
    let path_end = match (first_query, first_hash) {
        (Some(q), Some(h)) => q.min(h),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => s.len(),
    };
    Ok(ParsedUrl {
        https,
        host,
        port,
        path: &s[after_start..path_end],
        fragment: first_hash.is_some(),
    })
}

fn strip_www(host: &str) -> &str {
    host.strip_prefix("www.").unwrap_or(host)
}

/// A W3C Datetime, parsed strictly.
#[derive(Debug, PartialEq, Eq)]
struct W3c {
    /// The earliest instant the value can stand for (offset-less times read as UTC).
    instant: DateTime<Utc>,
    has_time: bool,
    has_offset: bool,
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Parses `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mm[:ss[.s+]][TZD]`.
fn parse_w3c(s: &str) -> std::result::Result<W3c, String> {
    const FORMS: &str = "use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm (or Z)";
    let bad = || format!("\"{s}\" is not a W3C Datetime: {FORMS}");
    let (date_s, time_s) = match s.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let mut parts = date_s.split('-');
    let year = parts.next().and_then(|y| digits(y, 4)).ok_or_else(bad)?;
    let month = match parts.next() {
        Some(m) => Some(digits(m, 2).ok_or_else(bad)?),
        None => None,
    };
    let day_part = parts.next();
    if parts.next().is_some() {
        return Err(bad());
    }
    let day = match day_part {
        // `2024-05-01Z` / `2024-05-01+02:00`: xsd:date allows a zone; W3C Datetime does not.
        Some(d) if d.len() > 2 && d[..2].bytes().all(|b| b.is_ascii_digit()) => {
            if matches!(d.as_bytes()[2], b'Z' | b'+') {
                return Err(format!(
                    "\"{s}\" puts a time zone on a bare date, which W3C Datetime does not allow: write {} or add a time, {FORMS}",
                    &s[..10.min(s.len())]
                ));
            }
            return Err(bad());
        }
        Some(d) => Some(digits(d, 2).ok_or_else(bad)?),
        None => None,
    };
    let date = NaiveDate::from_ymd_opt(year as i32, month.unwrap_or(1), day.unwrap_or(1))
        .ok_or_else(|| format!("\"{s}\" is not a real calendar date"))?;
    let Some(t) = time_s else {
        return Ok(W3c {
            instant: date.and_time(NaiveTime::MIN).and_utc(),
            has_time: false,
            has_offset: false,
        });
    };
    if day.is_none() {
        return Err(bad());
    }
    let (clock, offset) = if let Some(c) = t.strip_suffix('Z') {
        (c, Some(FixedOffset::east_opt(0).ok_or_else(bad)?))
    } else if let Some(pos) = t.rfind(['+', '-']) {
        let (c, o) = t.split_at(pos);
        let sign = if o.starts_with('-') { -1 } else { 1 };
        let (h, m) = o[1..].split_once(':').ok_or_else(bad)?;
        let (h, m) = (digits(h, 2).ok_or_else(bad)?, digits(m, 2).ok_or_else(bad)?);
        if m > 59 || h * 60 + m > 14 * 60 {
            return Err(format!("\"{s}\" has an offset outside -14:00..+14:00"));
        }
        let secs = sign * (h * 3600 + m * 60) as i32;
        (c, Some(FixedOffset::east_opt(secs).ok_or_else(bad)?))
    } else {
        (t, None)
    };
    let (hms, frac) = match clock.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (clock, None),
    };
    if let Some(f) = frac {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
    }
    let mut hp = hms.split(':');
    let h = hp.next().and_then(|x| digits(x, 2)).ok_or_else(bad)?;
    let mi = hp.next().and_then(|x| digits(x, 2)).ok_or_else(bad)?;
    let sec = match hp.next() {
        Some(x) => digits(x, 2).ok_or_else(bad)?,
        None if frac.is_some() => return Err(bad()),
        None => 0,
    };
    if hp.next().is_some() {
        return Err(bad());
    }
    let time = NaiveTime::from_hms_opt(h, mi, sec)
        .ok_or_else(|| format!("\"{s}\" is not a real time of day"))?;
    let naive = date.and_time(time);
    let instant = match offset {
        Some(off) => naive
            .and_local_timezone(off)
            .single()
            .ok_or_else(bad)?
            .with_timezone(&Utc),
        None => naive.and_utc(),
    };
    Ok(W3c {
        instant,
        has_time: true,
        has_offset: offset.is_some(),
    })
}

/// True for an `xsd:decimal` from 0.0 to 1.0.
fn valid_priority(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return false;
    }
    s.parse::<f64>().is_ok_and(|v| (0.0..=1.0).contains(&v))
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        // Byte-wise: slicing the str after a `%` could split a multi-byte character.
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex_value(b[i + 1]), hex_value(b[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An identity hasher: the set already stores 64-bit hashes.
#[derive(Default)]
struct PreHashed(u64);

impl Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

fn hash_loc(s: &str) -> u64 {
    // SipHash with fixed keys: stable within a run, and collisions among 50,000 locs are
    // ~1e-10 likely (a false "Duplicate URL" warning at worst).
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// What the element being read is, for the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    Root,
    Entry,
    Loc,
    Lastmod,
    ChangeFreq,
    Priority,
    /// An extension element whose text is a URL (`image:loc`, `video:content_loc`, …).
    ExtUrl,
    /// `<image:image>`, which needs an `<image:loc>`.
    Image,
    /// `<video:video>`, which needs a `<video:content_loc>` or `<video:player_loc>`.
    Video,
    /// Anything whose content is not checked (extensions, unknown elements).
    Skip,
}

/// Per-entry state: which fields were seen, on which line the entry started.
#[derive(Default)]
struct EntryState {
    line: usize,
    loc: bool,
    lastmod: bool,
    changefreq: bool,
    priority: bool,
}

/// Google's sitemap extensions (and XHTML for `<xhtml:link>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ext {
    Image,
    Video,
    News,
    Xhtml,
}

/// How a Start tag's namespace relates to the document.
enum Ns {
    Doc,
    Known(Ext),
    Other(String),
    Unqualified,
    Unknown(String),
}

struct Checker<'c> {
    ctx: &'c Context<'c>,
    kind: Option<SitemapKind>,
    doc_ns: Option<Vec<u8>>,
    root_done: bool,
    stack: Vec<(Frame, usize)>,
    entry: EntryState,
    text: String,
    first_site: Option<(Site, usize)>,
    seen: HashSet<u64, BuildHasherDefault<PreHashed>>,
    ext_has_loc: bool,
    reported_too_many: bool,
}

/// Reads the whole stream, adding findings to `report`.
fn check_stream<R: Read>(
    mut counter: Counter<R>,
    gzip: bool,
    ctx: &Context<'_>,
    report: &mut FileReport,
) -> Result<()> {
    let io_fail = |report: &mut FileReport, e: io::Error| -> Result<()> {
        if gzip {
            // Whatever was decoded from a corrupt stream is not what the author wrote, so
            // findings about it would mislead: the compression error alone stands.
            report.findings.clear();
            (report.errors, report.warnings, report.omitted) = (0, 0, 0);
            report.add(
                0,
                FindingKind::CompressionError,
                format!(
                    "the gzip stream cannot be decompressed ({e}): recompress the file with gzip"
                ),
            );
            Ok(())
        } else {
            Err(Error::io(ctx.path, e))
        }
    };
    // Leading bytes: a UTF-8 BOM is fine; whitespace before `<?xml` is not.
    let head = match counter.fill_min(4096) {
        Ok(h) => h,
        Err(e) => return io_fail(report, e),
    };
    if head.starts_with(&[0xFE, 0xFF]) || head.starts_with(&[0xFF, 0xFE]) {
        report.add(
            1,
            FindingKind::ParsingError,
            "the file is UTF-16: sitemaps must be UTF-8",
        );
        report.bytes = drain(&mut counter).unwrap_or(counter.bytes);
        return Ok(());
    }
    let bom = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    let ws = head[bom..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    let decl_follows = head[bom + ws..].starts_with(b"<?xml");
    let only_ws = bom + ws == head.len();
    counter.consume(bom + ws);
    if ws > 0 && decl_follows {
        report.add(
            counter.newlines() + 1,
            FindingKind::LeadingWhitespace,
            format!("{ws} whitespace byte(s) before the XML declaration: the file must start with <?xml"),
        );
    }
    if only_ws {
        // Nothing but whitespace in the first buffer: look further before calling it empty.
        match counter.fill_buf() {
            Ok([]) => {
                report.bytes = counter.bytes;
                report.add(0, FindingKind::EmptySitemap, "the file is empty");
                return Ok(());
            }
            Ok(_) => {}
            Err(e) => return io_fail(report, e),
        }
    }

    let mut reader = Reader::from_reader(counter);
    let mut scopes = Scopes::default();
    let mut doc_binding = None;
    let mut buf = Vec::with_capacity(1024);
    let mut checker = Checker {
        ctx,
        kind: None,
        doc_ns: None,
        root_done: false,
        stack: Vec::with_capacity(8),
        entry: EntryState::default(),
        text: String::new(),
        first_site: None,
        seen: HashSet::default(),
        ext_has_loc: false,
        reported_too_many: false,
    };
    let mut first_event = true;
    let mut fatal = false;
    loop {
        // Whitespace between elements is skipped inside quick-xml (half the events otherwise);
        // field text is kept exact, since a space after `&amp;` is still part of a URL.
        reader.config_mut().trim_text_start = !checker.in_field();
        buf.clear();
        let step = match reader.read_event_into(&mut buf) {
            Ok(ev) => {
                // The reader stands just past the event: step back over the event's own
                // newlines to the line it starts on.
                let line = reader.get_mut().newlines() + 1 - newlines_in(&ev);
                let ns = match &ev {
                    Event::Start(e) | Event::Empty(e) => {
                        scopes.enter(e);
                        let resolved = scopes.resolve(e.name().into_inner());
                        if checker.kind.is_none() {
                            if let Resolved::Bound(i, _) = resolved {
                                doc_binding = Some(i);
                            }
                        }
                        classify(resolved, checker.doc_ns.as_deref(), doc_binding)
                    }
                    _ => Ns::Doc,
                };
                let leaves = matches!(ev, Event::Empty(_) | Event::End(_));
                let step = checker.event(ns, ev, line, first_event, report);
                if leaves {
                    scopes.leave();
                }
                step
            }
            Err(quick_xml::Error::Io(e)) => {
                let e = io::Error::new(e.kind(), e.to_string());
                let bytes = reader.get_ref().bytes;
                report.bytes = bytes;
                return io_fail(report, e);
            }
            Err(e) => {
                let line = reader.get_mut().newlines() + 1;
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!("not well-formed XML: {e}"),
                );
                Step::Fatal
            }
        };
        first_event = false;
        match step {
            Step::Go => {}
            Step::Eof => break,
            Step::Fatal => {
                fatal = true;
                break;
            }
        }
    }
    let last_line = reader.get_mut().newlines() + 1;
    let mut counter = reader.into_inner();
    if fatal {
        // Keep reading (without parsing) so the size and the gzip stream are still checked.
        if let Err(e) = drain(&mut counter) {
            report.bytes = counter.bytes;
            return io_fail(report, e);
        }
    } else {
        checker.finish(last_line, report);
    }
    report.bytes = counter.bytes;
    report.kind = checker.kind;
    if counter.bytes > MAX_BYTES {
        report.add(
            0,
            FindingKind::SitemapFileSizeError,
            format!(
                "{} bytes uncompressed; a sitemap may hold at most {} bytes: split it and list the parts in a sitemap index",
                thousands(counter.bytes),
                thousands(MAX_BYTES)
            ),
        );
    }
    Ok(())
}

fn newlines_in(ev: &Event<'_>) -> usize {
    let bytes: &[u8] = match ev {
        Event::Start(e) | Event::Empty(e) => e,
        Event::End(e) => e,
        Event::Text(e) | Event::Comment(e) | Event::DocType(e) => e,
        Event::CData(e) => e,
        Event::PI(e) => e,
        Event::Decl(e) => e,
        Event::GeneralRef(_) | Event::Eof => &[],
    };
    bytes.iter().filter(|&&b| b == b'\n').count()
}

fn drain<R: Read>(counter: &mut Counter<R>) -> io::Result<u64> {
    loop {
        let n = counter.fill_buf()?.len();
        if n == 0 {
            return Ok(counter.bytes);
        }
        counter.consume(n);
    }
}

/// The namespace declarations in scope. quick-xml's NsReader does the same with more work per
/// event; sitemaps declare namespaces on the root only, so this stays a tiny vector.
#[derive(Default)]
struct Scopes {
    /// (prefix, namespace URI, depth of the declaring element); the empty prefix is the default.
    bindings: Vec<(Vec<u8>, Vec<u8>, usize)>,
    depth: usize,
}

/// What an element name resolves to.
enum Resolved<'a> {
    /// Index of the binding, and its URI.
    Bound(usize, &'a [u8]),
    Unbound,
    Unknown(&'a [u8]),
}

impl Scopes {
    fn enter(&mut self, e: &BytesStart<'_>) {
        self.depth += 1;
        if !e.attributes_raw().windows(5).any(|w| w == b"xmlns") {
            return;
        }
        for a in e.attributes().flatten() {
            let key = a.key.as_ref();
            let prefix = if key == b"xmlns" {
                &[][..]
            } else if let Some(p) = key.strip_prefix(b"xmlns:") {
                p
            } else {
                continue;
            };
            self.bindings
                .push((prefix.to_vec(), a.value.to_vec(), self.depth));
        }
    }

    fn leave(&mut self) {
        while self.bindings.last().is_some_and(|b| b.2 == self.depth) {
            self.bindings.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    fn resolve<'a>(&'a self, name: &'a [u8]) -> Resolved<'a> {
        let prefix = match name.iter().position(|&b| b == b':') {
            Some(i) => &name[..i],
            None => &[][..],
        };
        // Unprefixed names are nearly all of them: test the prefix length, not its bytes.
        let found = if prefix.is_empty() {
            self.bindings.iter().rposition(|b| b.0.is_empty())
        } else {
            self.bindings.iter().rposition(|b| b.0 == prefix)
        };
        match found.map(|i| (i, &self.bindings[i])) {
            // `xmlns=""` undeclares the default namespace.
            Some((_, b)) if b.1.is_empty() && prefix.is_empty() => Resolved::Unbound,
            Some((i, b)) => Resolved::Bound(i, &b.1),
            None if prefix.is_empty() => Resolved::Unbound,
            None => Resolved::Unknown(prefix),
        }
    }
}

/// `doc_binding` is the binding the root resolved to: a name resolving to it is in the
/// document's namespace without comparing URIs.
fn classify(ns: Resolved<'_>, doc: Option<&[u8]>, doc_binding: Option<usize>) -> Ns {
    match ns {
        Resolved::Bound(i, _) if Some(i) == doc_binding => Ns::Doc,
        Resolved::Bound(_, n) => {
            if Some(n) == doc {
                Ns::Doc
            } else if n == IMAGE_NS {
                Ns::Known(Ext::Image)
            } else if n == VIDEO_NS {
                Ns::Known(Ext::Video)
            } else if n == NEWS_NS {
                Ns::Known(Ext::News)
            } else if n == XHTML_NS {
                Ns::Known(Ext::Xhtml)
            } else {
                Ns::Other(String::from_utf8_lossy(n).into_owned())
            }
        }
        Resolved::Unbound if doc.is_none() => Ns::Doc,
        Resolved::Unbound => Ns::Unqualified,
        Resolved::Unknown(p) => Ns::Unknown(String::from_utf8_lossy(p).into_owned()),
    }
}

enum Step {
    Go,
    Eof,
    Fatal,
}

impl Checker<'_> {
    fn event(
        &mut self,
        ns: Ns,
        ev: Event<'_>,
        line: usize,
        first: bool,
        report: &mut FileReport,
    ) -> Step {
        match ev {
            Event::Start(e) => self.open(ns, &e, line, report),
            Event::Empty(e) => match self.open(ns, &e, line, report) {
                Step::Go => self.close(line, report),
                other => other,
            },
            Event::End(_) => self.close(line, report),
            Event::Text(t) => match t.decode() {
                Ok(s) => self.text(&s, line, report),
                Err(e) => fatal(report, line, format!("invalid UTF-8 in text: {e}")),
            },
            Event::CData(t) => match t.decode() {
                Ok(s) => {
                    let s = s.into_owned();
                    if self.in_field() {
                        self.text.push_str(&s);
                        Step::Go
                    } else {
                        self.text(&s, line, report)
                    }
                }
                Err(e) => fatal(report, line, format!("invalid UTF-8 in CDATA: {e}")),
            },
            Event::GeneralRef(r) => {
                let c = if r.is_char_ref() {
                    match r.resolve_char_ref() {
                        Ok(Some(c)) => c,
                        _ => {
                            let name = String::from_utf8_lossy(&r).into_owned();
                            return fatal(
                                report,
                                line,
                                format!("invalid character reference &{name};"),
                            );
                        }
                    }
                } else {
                    match &*r {
                        b"amp" => '&',
                        b"lt" => '<',
                        b"gt" => '>',
                        b"apos" => '\'',
                        b"quot" => '"',
                        other => {
                            let name = String::from_utf8_lossy(other).into_owned();
                            return fatal(
                                report,
                                line,
                                format!("undefined entity &{name};: escape '&' as &amp;"),
                            );
                        }
                    }
                };
                if self.in_field() {
                    self.text.push(c);
                    Step::Go
                } else {
                    let mut tmp = [0u8; 4];
                    let s: &str = c.encode_utf8(&mut tmp);
                    self.text(s, line, report)
                }
            }
            Event::Decl(d) => {
                if !first {
                    return fatal(
                        report,
                        line,
                        "the XML declaration must come first in the file".to_string(),
                    );
                }
                if let Some(Ok(enc)) = d.encoding() {
                    let enc = String::from_utf8_lossy(&enc).to_ascii_lowercase();
                    if enc != "utf-8" && enc != "utf8" {
                        report.add(
                            line,
                            FindingKind::UnsupportedFormat,
                            format!("declared encoding '{enc}': sitemaps must be UTF-8"),
                        );
                    }
                }
                Step::Go
            }
            Event::Comment(_) | Event::PI(_) | Event::DocType(_) => Step::Go,
            Event::Eof => Step::Eof,
        }
    }

    fn in_field(&self) -> bool {
        matches!(
            self.stack.last(),
            Some((
                Frame::Loc | Frame::Lastmod | Frame::ChangeFreq | Frame::Priority | Frame::ExtUrl,
                _
            ))
        )
    }

    fn text(&mut self, s: &str, line: usize, report: &mut FileReport) -> Step {
        match self.stack.last() {
            Some((Frame::Skip | Frame::Image | Frame::Video, _)) => Step::Go,
            Some(_) if self.in_field() => {
                self.text.push_str(s);
                Step::Go
            }
            _ if s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) => Step::Go,
            Some((frame, _)) => {
                let what = if *frame == Frame::Root {
                    self.root_name()
                } else {
                    self.entry_name()
                };
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!("text is not allowed directly inside <{what}>: move it into an element or remove it"),
                );
                Step::Go
            }
            None => fatal(report, line, "text outside the root element".to_string()),
        }
    }

    fn root_name(&self) -> &'static str {
        match self.kind {
            Some(SitemapKind::SitemapIndex) => "sitemapindex",
            _ => "urlset",
        }
    }

    fn entry_name(&self) -> &'static str {
        match self.kind {
            Some(SitemapKind::SitemapIndex) => "sitemap",
            _ => "url",
        }
    }

    fn open(&mut self, ns: Ns, e: &BytesStart<'_>, line: usize, report: &mut FileReport) -> Step {
        // Attribute syntax (quotes, duplicates) is checked for every element.
        for a in e.attributes() {
            if let Err(err) = a {
                return fatal(report, line, format!("bad attribute: {err}"));
            }
        }
        let local = e.local_name();
        let local = local.as_ref();
        let name = Name(e.name().into_inner());
        if let Ns::Unknown(prefix) = &ns {
            return fatal(
                report,
                line,
                format!("<{name}> uses the prefix '{prefix}' without declaring it (add xmlns:{prefix}=\"…\" to the root)"),
            );
        }
        let Some(&(parent, _)) = self.stack.last() else {
            return self.open_root(e, local, name, line, report);
        };
        let frame = match parent {
            Frame::Skip => Frame::Skip,
            Frame::Image | Frame::Video => self.open_in_media(parent, &ns, local),
            Frame::Loc | Frame::Lastmod | Frame::ChangeFreq | Frame::Priority | Frame::ExtUrl => {
                report.add(
                    line,
                    FindingKind::InvalidTagValue,
                    format!("<{name}> inside a text-only element: it must hold text only"),
                );
                Frame::Skip
            }
            Frame::Root => self.open_in_root(ns, local, name, line, report),
            Frame::Entry => self.open_in_entry(ns, e, local, name, line, report),
        };
        self.stack.push((frame, line));
        if matches!(
            frame,
            Frame::Loc | Frame::Lastmod | Frame::ChangeFreq | Frame::Priority | Frame::ExtUrl
        ) {
            self.text.clear();
        }
        Step::Go
    }

    fn open_root(
        &mut self,
        e: &BytesStart<'_>,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Step {
        if self.root_done {
            return fatal(
                report,
                line,
                format!(
                    "a second root element <{name}>: a file holds one <urlset> or <sitemapindex>"
                ),
            );
        }
        let kind = match local {
            b"urlset" => SitemapKind::UrlSet,
            b"sitemapindex" => SitemapKind::SitemapIndex,
            _ => {
                report.add(
                    line,
                    FindingKind::UnsupportedFormat,
                    format!(
                        "root element <{name}>: a sitemap starts with <urlset> or <sitemapindex>"
                    ),
                );
                return Step::Fatal;
            }
        };
        self.kind = Some(kind);
        // The root's own namespace is what its children must share, right or wrong, so a
        // wrong namespace is reported once rather than on every element.
        let root_ns = root_namespace(e);
        match &root_ns {
            Some(n) if n == SITEMAP_NS.as_bytes() => {}
            _ => {
                let found = match &root_ns {
                    Some(n) => format!("'{}'", String::from_utf8_lossy(n)),
                    None => "no namespace".to_string(),
                };
                report.add(
                    line,
                    FindingKind::IncorrectNamespace,
                    format!("<{name}> has {found}: use xmlns=\"{SITEMAP_NS}\""),
                );
            }
        }
        self.doc_ns = root_ns;
        self.stack.push((Frame::Root, line));
        Step::Go
    }

    fn open_in_root(
        &mut self,
        ns: Ns,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Frame {
        let index = self.kind == Some(SitemapKind::SitemapIndex);
        match ns {
            Ns::Doc => {}
            other => {
                self.foreign(other, name, line, !index, report);
                return Frame::Skip;
            }
        }
        match (index, local) {
            (false, b"url") | (true, b"sitemap") => {
                report.entries += 1;
                self.entry = EntryState {
                    line,
                    ..EntryState::default()
                };
                if report.entries > MAX_ENTRIES && !self.reported_too_many {
                    self.reported_too_many = true;
                    let (kind, what) = if index {
                        (FindingKind::TooManySitemaps, "sitemaps")
                    } else {
                        (FindingKind::TooManyUrls, "URLs")
                    };
                    report.add(
                        line,
                        kind,
                        format!(
                            "entry {} is past the limit of {} {what} per file: split the file and list the parts in a sitemap index",
                            thousands(report.entries as u64),
                            thousands(MAX_ENTRIES as u64)
                        ),
                    );
                }
                Frame::Entry
            }
            (true, b"sitemapindex") => {
                report.add(
                    line,
                    FindingKind::NestedSitemapIndexes,
                    "a <sitemapindex> inside a <sitemapindex>: an index may list sitemaps only",
                );
                Frame::Skip
            }
            _ => {
                let want = if index { "<sitemap>" } else { "<url>" };
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!(
                        "<{name}> is not allowed in <{}>: only {want} entries",
                        self.root_name()
                    ),
                );
                Frame::Skip
            }
        }
    }

    fn open_in_entry(
        &mut self,
        ns: Ns,
        e: &BytesStart<'_>,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Frame {
        let index = self.kind == Some(SitemapKind::SitemapIndex);
        match ns {
            Ns::Doc => {}
            Ns::Known(ext) if !index => {
                return self.open_extension(ext, e, local, name, line, report)
            }
            other => {
                self.foreign(other, name, line, !index, report);
                return Frame::Skip;
            }
        }
        let (frame, seen) = match local {
            b"loc" => (Frame::Loc, &mut self.entry.loc),
            b"lastmod" => (Frame::Lastmod, &mut self.entry.lastmod),
            b"changefreq" if !index => (Frame::ChangeFreq, &mut self.entry.changefreq),
            b"priority" if !index => (Frame::Priority, &mut self.entry.priority),
            _ => {
                let allowed = if index {
                    "<loc> and <lastmod>"
                } else {
                    "<loc>, <lastmod>, <changefreq> and <priority>"
                };
                report.add(
                    line,
                    FindingKind::ParsingError,
                    format!(
                        "<{name}> is not allowed in <{}>: only {allowed}",
                        self.entry_name()
                    ),
                );
                return Frame::Skip;
            }
        };
        if *seen {
            report.add(
                line,
                FindingKind::TooManyTags,
                format!("a second <{name}> in one <{}>: keep one", self.entry_name()),
            );
            return Frame::Skip;
        }
        *seen = true;
        frame
    }

    /// Google's image, video, news and XHTML extensions, inside a `<url>`.
    fn open_extension(
        &mut self,
        ext: Ext,
        e: &BytesStart<'_>,
        local: &[u8],
        name: Name<'_>,
        line: usize,
        report: &mut FileReport,
    ) -> Frame {
        if ext == Ext::Xhtml && local == b"link" {
            let (mut rel, mut hreflang, mut href) = (None, None, None);
            for a in e.attributes().flatten() {
                let v = a.unescape_value().map(|v| v.into_owned()).ok();
                match a.key.local_name().as_ref() {
                    b"rel" => rel = v,
                    b"hreflang" => hreflang = v,
                    b"href" => href = v,
                    _ => {}
                }
            }
            match href {
                None => report.add(
                    line,
                    FindingKind::MissingXmlAttribute,
                    format!("<{name}> has no href attribute"),
                ),
                Some(h) => {
                    if let Err(msg) = parse_loc(h.trim()) {
                        report.add(
                            line,
                            FindingKind::InvalidUrl,
                            format!("<{name} href>: {msg}"),
                        );
                    }
                }
            }
            if rel.as_deref() == Some("alternate") && hreflang.is_none() {
                report.add(
                    line,
                    FindingKind::MissingXmlAttribute,
                    format!("<{name} rel=\"alternate\"> has no hreflang attribute"),
                );
            }
            return Frame::Skip;
        }
        match (ext, local) {
            (Ext::Image, b"image") => {
                self.ext_has_loc = false;
                Frame::Image
            }
            (Ext::Video, b"video") => {
                self.ext_has_loc = false;
                Frame::Video
            }
            _ => Frame::Skip,
        }
    }

    /// A child of `<image:image>` or `<video:video>`: the URL-valued ones are checked.
    fn open_in_media(&mut self, parent: Frame, ns: &Ns, local: &[u8]) -> Frame {
        let url = match (parent, ns) {
            (Frame::Image, Ns::Known(Ext::Image)) => local == b"loc",
            (Frame::Video, Ns::Known(Ext::Video)) => {
                matches!(local, b"content_loc" | b"player_loc" | b"thumbnail_loc")
            }
            _ => false,
        };
        if !url {
            return Frame::Skip;
        }
        // What makes the entry usable: image:loc, or video:content_loc / video:player_loc.
        self.ext_has_loc |= matches!(local, b"loc" | b"content_loc" | b"player_loc");
        Frame::ExtUrl
    }

    fn foreign(&self, ns: Ns, name: Name<'_>, line: usize, urlset: bool, report: &mut FileReport) {
        match ns {
            Ns::Known(_) if urlset => {}
            Ns::Known(_) | Ns::Other(_) => {
                let uri = match ns {
                    Ns::Other(u) => u,
                    _ => "an extension namespace".to_string(),
                };
                report.add(
                    line,
                    FindingKind::UnknownExtension,
                    format!("<{name}> is in {uri}, which search engines do not read here: it is ignored"),
                );
            }
            Ns::Unqualified => report.add(
                line,
                FindingKind::ParsingError,
                format!("<{name}> has no namespace: sitemap elements must be in {SITEMAP_NS}"),
            ),
            Ns::Doc | Ns::Unknown(_) => {}
        }
    }

    fn close(&mut self, line: usize, report: &mut FileReport) -> Step {
        let Some((frame, start)) = self.stack.pop() else {
            return fatal(
                report,
                line,
                "a closing tag with no opening tag".to_string(),
            );
        };
        match frame {
            Frame::Root => self.root_done = true,
            Frame::Entry => {
                if !self.entry.loc {
                    report.add(
                        self.entry.line,
                        FindingKind::MissingXmlTag,
                        format!("<{}> has no <loc>", self.entry_name()),
                    );
                }
            }
            Frame::Loc => {
                let text = std::mem::take(&mut self.text);
                self.check_loc(text.trim_matches(is_xml_ws), start, report);
                self.text = text;
            }
            Frame::Lastmod => self.check_lastmod(start, report),
            Frame::ChangeFreq => {
                let v = self.text.trim_matches(is_xml_ws);
                if !CHANGEFREQS.contains(&v) {
                    report.add(
                        start,
                        FindingKind::InvalidTagValue,
                        format!("<changefreq> \"{v}\": use always, hourly, daily, weekly, monthly, yearly or never"),
                    );
                }
            }
            Frame::Priority => {
                let v = self.text.trim_matches(is_xml_ws);
                if !valid_priority(v) {
                    report.add(
                        start,
                        FindingKind::InvalidTagValue,
                        format!("<priority> \"{v}\": use a decimal number from 0.0 to 1.0"),
                    );
                }
            }
            Frame::ExtUrl => {
                let v = self.text.trim_matches(is_xml_ws);
                if let Err(msg) = parse_loc(v) {
                    report.add(start, FindingKind::InvalidUrl, msg);
                }
            }
            Frame::Image if !self.ext_has_loc => report.add(
                start,
                FindingKind::MissingXmlTag,
                "<image:image> has no <image:loc>",
            ),
            Frame::Video if !self.ext_has_loc => report.add(
                start,
                FindingKind::MissingXmlTag,
                "<video:video> has no <video:content_loc> or <video:player_loc>",
            ),
            Frame::Image | Frame::Video | Frame::Skip => {}
        }
        Step::Go
    }

    fn check_loc(&mut self, loc: &str, line: usize, report: &mut FileReport) {
        let parsed = match parse_loc(loc) {
            Ok(p) => p,
            Err(msg) => {
                report.add(line, FindingKind::InvalidUrl, msg);
                return;
            }
        };
        if parsed.fragment {
            report.add(
                line,
                FindingKind::UrlFragment,
                format!("{loc:?} has a #fragment, which crawlers drop: if '#' belongs to the path, encode it as %23"),
            );
        }
        let index = self.kind == Some(SitemapKind::SitemapIndex);
        let ctx = self.ctx;
        if ctx.base.is_none() && self.first_site.is_none() {
            self.first_site = Some((parsed.site(), line));
        }
        let (reference, first_line) = match (&ctx.base, &self.first_site) {
            (Some(base), _) => (base, None),
            (None, Some((site, l))) => (site, Some(*l)),
            (None, None) => return,
        };
        if !parsed.same_origin(reference) {
            let default_port = |https: bool, port: u16| port == if https { 443 } else { 80 };
            let kind = if strip_www(&parsed.host.to_ascii_lowercase()) == strip_www(&reference.host)
                && default_port(parsed.https, parsed.port)
                && default_port(reference.https, reference.port)
            {
                FindingKind::PathMismatch
            } else {
                FindingKind::UrlNotAllowed
            };
            let from = match first_line {
                None => "--base-url".to_string(),
                Some(l) => format!("the first <loc> (line {l})"),
            };
            report.add(
                line,
                kind,
                format!(
                    "{loc:?} is not on {} ({from}): every URL must share the sitemap's scheme, host and port",
                    reference.origin()
                ),
            );
        } else if let (Some(folder), false) = (&reference.folder, index) {
            let below = parsed.path.starts_with(folder.as_str())
                || folder.strip_suffix('/') == Some(parsed.path);
            if !below {
                let at = ctx
                    .sitemap_url
                    .as_ref()
                    .map(|u| u.to_string())
                    .unwrap_or_default();
                report.add(
                    line,
                    FindingKind::UrlNotAllowed,
                    format!("{loc:?} is above the sitemap's folder {folder} (the sitemap is at {at}): a sitemap may list only URLs in its own folder and below"),
                );
            }
        }
        if index {
            self.check_nested(&parsed, reference, line, report);
        }
        if report.entries <= MAX_ENTRIES {
            let h = hash_loc(loc);
            if !self.seen.insert(h) {
                report.add(
                    line,
                    FindingKind::DuplicateUrl,
                    format!("{loc:?} is listed twice: keep one entry"),
                );
            }
        }
    }

    /// An index entry that names a local file which is itself an index.
    fn check_nested(
        &self,
        loc: &ParsedUrl<'_>,
        reference: &Site,
        line: usize,
        report: &mut FileReport,
    ) {
        // Without --base-url the index is taken to sit at the site root.
        let folder = reference.folder.as_deref().unwrap_or("/");
        let Some(rel) = loc.path.strip_prefix(folder) else {
            return;
        };
        let rel = percent_decode(rel);
        let rel = Path::new(&rel);
        if rel.as_os_str().is_empty()
            || rel.components().any(|c| !matches!(c, Component::Normal(_)))
        {
            return;
        }
        let dir = self.ctx.path.parent().unwrap_or(Path::new(""));
        let candidate = dir.join(rel);
        if !candidate.is_file() {
            return;
        }
        if sniff_kind(&candidate) == Some(SitemapKind::SitemapIndex) {
            report.add(
                line,
                FindingKind::NestedSitemapIndexes,
                format!(
                    "{} is itself a sitemap index: an index may list sitemaps only, not other indexes",
                    candidate.display()
                ),
            );
        }
    }

    fn check_lastmod(&mut self, line: usize, report: &mut FileReport) {
        let v = self.text.trim_matches(is_xml_ws);
        match parse_w3c(v) {
            Err(msg) => report.add(line, FindingKind::InvalidDate, msg),
            Ok(d) => {
                if d.has_time && !d.has_offset {
                    report.add(
                        line,
                        FindingKind::TimeWithoutOffset,
                        format!("<lastmod> \"{v}\" has a time but no offset, so its instant is unknown: add Z or ±hh:mm"),
                    );
                }
                // A bare date or a zone-less time may be a day ahead of UTC somewhere.
                let slack = if d.has_offset {
                    Duration::zero()
                } else {
                    Duration::hours(14)
                };
                if d.instant > self.ctx.now + slack {
                    report.add(
                        line,
                        FindingKind::FutureDate,
                        format!("<lastmod> \"{v}\" lies in the future: use the date the page last changed"),
                    );
                }
            }
        }
    }

    fn finish(&mut self, line: usize, report: &mut FileReport) {
        if let Some(&(frame, start)) = self.stack.last() {
            let what = match frame {
                Frame::Root => self.root_name(),
                Frame::Entry => self.entry_name(),
                _ => "element",
            };
            report.add(
                line,
                FindingKind::ParsingError,
                format!("the file ends before <{what}> from line {start} is closed"),
            );
            return;
        }
        match self.kind {
            None => report.add(0, FindingKind::EmptySitemap, "the file has no root element"),
            Some(_) if report.entries == 0 => {
                let what = self.entry_name();
                report.add(
                    0,
                    FindingKind::EmptySitemap,
                    format!("no <{what}> entries: list at least one"),
                );
            }
            Some(_) => {}
        }
    }
}

/// An element's qualified name, turned into text only when a message needs it.
#[derive(Clone, Copy)]
struct Name<'a>(&'a [u8]);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.0))
    }
}

fn is_xml_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn fatal(report: &mut FileReport, line: usize, message: String) -> Step {
    report.add(line, FindingKind::ParsingError, message);
    Step::Fatal
}

/// The `xmlns` the root element declares for itself.
fn root_namespace(e: &BytesStart<'_>) -> Option<Vec<u8>> {
    let prefix = e.name().prefix().map(|p| p.as_ref().to_vec());
    let want: Vec<u8> = match &prefix {
        Some(p) => [b"xmlns:".as_slice(), p].concat(),
        None => b"xmlns".to_vec(),
    };
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == want.as_slice())
        .map(|a| a.value.into_owned())
        .filter(|v| !v.is_empty())
}

/// The format of a sitemap file on disk, read from its root element only.
fn sniff_kind(path: &Path) -> Option<SitemapKind> {
    let mut file = File::open(path).ok()?;
    let mut magic = [0u8; 2];
    let got = read_up_to(&mut file, &mut magic).ok()?;
    let raw = io::Cursor::new(magic[..got].to_vec()).chain(file);
    let reader: Box<dyn Read> = if got == 2 && magic == [0x1f, 0x8b] {
        Box::new(MultiGzDecoder::new(raw))
    } else {
        Box::new(raw)
    };
    let mut xml = quick_xml::Reader::from_reader(io::BufReader::new(reader.take(1 << 20)));
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match xml.read_event_into(&mut buf).ok()? {
            Event::Start(e) | Event::Empty(e) => {
                return match e.local_name().as_ref() {
                    b"sitemapindex" => Some(SitemapKind::SitemapIndex),
                    b"urlset" => Some(SitemapKind::UrlSet),
                    _ => None,
                };
            }
            Event::Eof => return None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn percent_decoding_never_splits_a_character() {
        assert_eq!(percent_decode("/a%20b/"), "/a b/");
        assert_eq!(percent_decode("/%C3%BC/"), "/ü/");
        // A `%` before a multi-byte character is kept as it is, not sliced through.
        assert_eq!(percent_decode("/%é%/x%4"), "/%é%/x%4");
    }

    use super::*;

    fn check(xml: &str) -> FileReport {
        check_with(xml, None)
    }

    fn check_with(xml: &str, base: Option<&str>) -> FileReport {
        let path = Path::new("mem.xml");
        let base = base.map(|b| Url::parse(b).unwrap());
        let ctx = Context {
            path,
            base: base.as_ref().map(Site::from_url),
            sitemap_url: base.as_ref().map(|b| sitemap_url_of(b, path)),
            now: Utc::now(),
        };
        let mut report = FileReport::new(path);
        check_stream(Counter::new(xml.as_bytes()), false, &ctx, &mut report).unwrap();
        report
    }

    fn kinds(r: &FileReport) -> Vec<(usize, &'static str)> {
        r.findings.iter().map(|f| (f.line, f.kind.name())).collect()
    }

    const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

    #[test]
    fn a_clean_urlset_has_no_findings() {
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/a/</loc><lastmod>2024-05-01</lastmod></url>\n</urlset>\n"
        ));
        assert_eq!(kinds(&r), vec![]);
        assert_eq!(r.entries, 1);
        assert_eq!(r.kind, Some(SitemapKind::UrlSet));
    }

    #[test]
    fn loc_syntax_follows_rfc_3986() {
        assert!(parse_loc("https://example.com/a%20b/?q=1&r=(2)#x").is_ok());
        assert!(parse_loc("http://[::1]:8080/x").is_ok());
        for bad in [
            "",
            "/relative",
            "example.com/x",
            "ftp://example.com/",
            "https://example.com/a b",
            "https://example.com/café",
            "https://example.com/%zz",
            "https://example.com/%4",
            "https://example.com/a\"b",
            "https://example.com/{x}",
            "https://user:pw@example.com/",
            "https:///path",
            "https://example.com:99999/",
            "https://example.com/a#b#c",
            "https://example.com/[x]",
        ] {
            assert!(parse_loc(bad).is_err(), "{bad:?} should be rejected");
        }
        let long = format!("https://example.com/{}", "a".repeat(MAX_LOC_CHARS));
        assert!(parse_loc(&long).is_err());
        let exact = format!(
            "https://example.com/{}",
            "a".repeat(MAX_LOC_CHARS - "https://example.com/".len())
        );
        assert!(parse_loc(&exact).is_ok());
    }

    #[test]
    fn non_ascii_message_gives_the_encoding() {
        let err = parse_loc("https://example.com/ü").unwrap_err();
        assert!(err.contains("%C3%BC"), "{err}");
    }

    #[test]
    fn w3c_dates_strict() {
        for ok in [
            "2024",
            "2024-05",
            "2024-05-01",
            "2024-05-01T10:00Z",
            "2024-05-01T10:00:30+02:00",
            "2024-05-01T10:00:30.123-07:00",
            "2024-02-29",
        ] {
            let d = parse_w3c(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert!(!d.has_time || d.has_offset, "{ok}");
        }
        let naive = parse_w3c("2024-05-01T10:00:00").unwrap();
        assert!(naive.has_time && !naive.has_offset);
        for bad in [
            "",
            "yesterday",
            "2024-5-1",
            "2023-02-29",
            "2024-13-01",
            "2024-05-01T24:00:00Z",
            "2024-05-01T10:00:60Z",
            "2024-05-01T10Z",
            "2024-05-01T10:00:00+0200",
            "2024-05-01T10:00:00+15:00",
            "2024-05-01T10:00:00z",
            "2024-05-01Z",
            "2024-05-01+02:00",
            "2024-05T10:00Z",
            "2024-05-01T10:00.5Z",
            "2024-05-01 10:00:00Z",
            "20240501",
        ] {
            assert!(parse_w3c(bad).is_err(), "{bad:?} should be rejected");
        }
        let d = parse_w3c("2024-05-01T02:00:00+02:00").unwrap();
        assert_eq!(
            d.instant,
            Utc.with_ymd_and_hms(2024, 5, 1, 0, 0, 0).unwrap()
        );
    }

    use chrono::TimeZone;

    #[test]
    fn priority_is_a_decimal_in_range() {
        for ok in ["0", "0.0", "1", "1.0", ".5", "0.50", "+0.3"] {
            assert!(valid_priority(ok), "{ok}");
        }
        for bad in ["", ".", "1.5", "-0.1", "high", "1e-1", "0,5", "NaN"] {
            assert!(!valid_priority(bad), "{bad}");
        }
    }

    #[test]
    fn lines_point_at_the_offending_element() {
        let r = check(&format!(
            "{HEAD}<url>\n  <loc>https://example.com/a/</loc>\n</url>\n<url>\n  <loc>/b/</loc>\n  <lastmod>soon</lastmod>\n</url>\n<url>\n</url>\n</urlset>\n"
        ));
        assert_eq!(
            kinds(&r),
            vec![
                (7, "Invalid URL"),
                (8, "Invalid date"),
                (10, "Missing XML tag")
            ]
        );
    }

    #[test]
    fn hosts_compare_with_the_first_loc_or_base_url() {
        let body = format!(
            "{HEAD}<url><loc>https://example.com/</loc></url>\n<url><loc>https://www.example.com/x</loc></url>\n<url><loc>http://example.com/y</loc></url>\n<url><loc>https://other.org/z</loc></url>\n<url><loc>https://example.com:8443/p</loc></url>\n</urlset>"
        );
        let r = check(&body);
        assert_eq!(
            kinds(&r),
            vec![
                (4, "Path mismatch"),
                (5, "Path mismatch"),
                (6, "URL not allowed"),
                (7, "URL not allowed")
            ]
        );
        let r = check_with(&body, Some("https://www.example.com/"));
        assert_eq!(
            kinds(&r),
            vec![
                (3, "Path mismatch"),
                (5, "Path mismatch"),
                (6, "URL not allowed"),
                (7, "URL not allowed")
            ]
        );
    }

    #[test]
    fn base_url_with_a_folder_rejects_urls_above_it() {
        let body = format!(
            "{HEAD}<url><loc>https://example.com/blog/</loc></url>\n<url><loc>https://example.com/blog/a/</loc></url>\n<url><loc>https://example.com/about/</loc></url>\n</urlset>"
        );
        assert_eq!(
            kinds(&check_with(&body, Some("https://example.com/blog/"))),
            vec![(5, "URL not allowed")]
        );
        assert_eq!(
            kinds(&check_with(&body, Some("https://example.com/blog"))),
            vec![(5, "URL not allowed")]
        );
        assert_eq!(
            kinds(&check_with(&body, Some("https://example.com/"))),
            vec![]
        );
    }

    #[test]
    fn well_formedness_errors_stop_with_a_line() {
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/?a=1&b=2</loc></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(3, "Parsing error")]);
        let r = check(&format!(
            "{HEAD}<url>\n<loc>https://example.com/</lo></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(4, "Parsing error")]);
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/</loc></url>\n"
        ));
        assert_eq!(kinds(&r), vec![(4, "Parsing error")]);
    }

    #[test]
    fn entities_and_cdata_are_decoded_before_checks() {
        let r = check(&format!(
            "{HEAD}<url><loc>https://example.com/?a=1&amp;b=&#50;</loc></url>\n<url><loc><![CDATA[https://example.com/c]]></loc></url>\n<url><loc>https://example.com/?a=1&#38;b=2</loc></url>\n</urlset>"
        ));
        assert_eq!(kinds(&r), vec![(5, "Duplicate URL")]);
    }

    #[test]
    fn leading_whitespace_and_bom() {
        let r = check(&format!(
            "\n  {HEAD}<url><loc>https://example.com/</loc></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![(2, "Leading whitespace")]);
        let r = check(&format!(
            "\u{feff}{HEAD}<url><loc>https://example.com/</loc></url></urlset>"
        ));
        assert_eq!(kinds(&r), vec![]);
    }

    #[test]
    fn report_prints_file_line_and_summary() {
        let mut r = check(&format!("{HEAD}<url><loc>/x</loc></url>\n</urlset>"));
        r.findings.push(Finding {
            file: "mem.xml".into(),
            line: 0,
            severity: Severity::Warning,
            kind: FindingKind::DuplicateUrl,
            message: "m".into(),
        });
        r.warnings += 1;
        let mut out = Vec::new();
        print_report(&[r], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("mem.xml:3: error: Invalid URL: relative URL"),
            "{text}"
        );
        assert_eq!(lines[1], "mem.xml: warning: Duplicate URL: m");
        assert_eq!(lines[2], "validated 1 file (1 entry): 1 error, 1 warning");
    }

    #[test]
    fn exit_codes() {
        let clean = check(&format!("{HEAD}<url><loc>https://example.com/</loc><lastmod>2024-01-01T00:00:00</lastmod></url></urlset>"));
        assert_eq!(clean.warnings, 1);
        let broken = check(&format!("{HEAD}<url><loc>/x</loc></url></urlset>"));
        assert_eq!(exit_code(std::slice::from_ref(&clean), 0), 0);
        assert_eq!(exit_code(&[clean.clone(), broken.clone()], 0), 1);
        assert_eq!(exit_code(&[clean, broken], 1), 2);
    }

    #[test]
    fn findings_past_the_cap_are_counted_not_kept() {
        let mut body = String::from(HEAD);
        for _ in 0..MAX_FINDINGS + 5 {
            body.push_str("<url><loc>/x</loc></url>\n");
        }
        body.push_str("</urlset>");
        let r = check(&body);
        assert_eq!(r.findings.len(), MAX_FINDINGS);
        assert_eq!(r.omitted, 5);
        assert_eq!(r.errors, MAX_FINDINGS + 5);
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(52428800), "52,428,800");
    }

    #[test]
    fn kind_names_round_trip() {
        for k in FindingKind::ALL {
            assert_eq!(FindingKind::from_name(k.name()), Some(k));
        }
    }
}
