//! `sitemapgen validate FILE…`: checks any sitemap or sitemap index (plain or gzip) against
//! the protocol, streaming, and reports Search-Console-style findings with line numbers.
//!
//! Memory stays flat whatever the input size: the file is read through a 64 KiB buffer by
//! quick-xml, only the text of the field being read is kept, and duplicate detection keeps one
//! 64-bit hash per `<loc>` for the first `MAX_ENTRIES` entries only (past that limit the file
//! is already in error and must be split; duplicates in the tail are not looked for).
//!
//! Where the XSDs are blind or wrong, this goes further:
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

mod checker;
mod elements;
mod namespaces;
mod url_fields;
mod urls;
mod values;

use super::read::{self, Gzip};
use crate::vocab::error::{Error, Result};
use crate::vocab::prose::thousands;
use crate::vocab::protocol::MAX_LOC_CHARS;
use ::url::Url;
use checker::{Context, check_stream};
use chrono::Utc;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use urls::Site;

pub use super::read::SitemapKind;

// Limits: every one bounds memory or time whatever the input (the protocol's own, 50,000
// entries and 52,428,800 bytes, are in `sitemap::protocol`: reading stops past the byte one).

/// Findings kept per file; further ones are only counted, so a broken huge file stays cheap.
pub const MAX_FINDINGS: usize = 10_000;
/// Bytes of finding messages kept per file; further findings are only counted.
pub const MAX_FINDING_BYTES: usize = 4 << 20;
/// Bytes kept of one field's text (`<loc>`, `<lastmod>`, …): room for any `<loc>` of
/// [`MAX_LOC_CHARS`] characters; a longer value is reported as too long, not kept.
pub const MAX_TEXT_KEPT: usize = 4 * (MAX_LOC_CHARS + 1);
/// Longest tag, comment, CDATA section, processing instruction or doctype: past it, a parsing
/// error (text between tags is streamed and has no such limit).
pub const MAX_MARKUP_BYTES: usize = 1 << 20;
/// Deepest element nesting (libxml2's default); a sitemap needs 4 levels.
pub const MAX_DEPTH: usize = 256;
/// Longest element name.
pub const MAX_NAME_BYTES: usize = 1024;
/// Most bytes of namespace declarations in scope at once.
pub const MAX_NAMESPACE_BYTES: usize = 64 << 10;

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
    /// A `"`, `<` or `>` in a URL, which RFC 3986 wants percent-encoded (warning: the
    /// protocol's own escaping table writes them as entities).
    UnencodedCharacter,
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
            FindingKind::UnencodedCharacter => "Unencoded character",
        }
    }

    /// Whether this kind fails the run (error) or only informs (warning).
    pub fn severity(&self) -> Severity {
        match self {
            FindingKind::DuplicateUrl
            | FindingKind::TimeWithoutOffset
            | FindingKind::FutureDate
            | FindingKind::UrlFragment
            | FindingKind::UnknownExtension
            | FindingKind::UnencodedCharacter => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// Every kind, in report order.
    pub const ALL: [FindingKind; 24] = [
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
        FindingKind::UnencodedCharacter,
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
    /// Findings counted but not kept because the file had more than [`MAX_FINDINGS`] (or
    /// [`MAX_FINDING_BYTES`] of messages).
    pub omitted: usize,
    /// Bytes of the kept findings' messages.
    message_bytes: usize,
}

impl FileReport {
    /// An empty report for `path`.
    pub(super) fn new(path: &Path) -> FileReport {
        FileReport {
            path: path.to_path_buf(),
            findings: Vec::new(),
            entries: 0,
            bytes: 0,
            kind: None,
            errors: 0,
            warnings: 0,
            omitted: 0,
            message_bytes: 0,
        }
    }

    /// Adds a finding (or only counts it, past [`MAX_FINDINGS`]).
    pub(super) fn add(&mut self, line: usize, kind: FindingKind, message: impl Into<String>) {
        let severity = kind.severity();
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        let message = message.into();
        if self.findings.len() >= MAX_FINDINGS
            || self.message_bytes + message.len() > MAX_FINDING_BYTES
        {
            self.omitted += 1;
            return;
        }
        self.message_bytes += message.len();
        self.findings.push(Finding {
            file: self.path.clone(),
            line,
            severity,
            kind,
            message,
        });
    }
}

/// Checks one sitemap or index file (gzip when it starts with the gzip magic or ends in `.gz`).
///
/// Returns `Err` only when the file cannot be read; everything wrong with its content is a
/// finding in the report.
pub fn validate_file(path: &Path, opts: &ValidateOptions) -> Result<FileReport> {
    let source = read::open_named(path, Gzip::ByNameOrMagic).map_err(|e| Error::io(path, e))?;
    validate_reader(path, source.input, source.gzip, opts)
}

/// Checks a sitemap read from `input` (already decompressed; `gzip` says whether it was, for
/// how read errors are reported), naming it `path` in the findings.
///
/// Memory stays within the limits above whatever `input` holds, and at most
/// [`MAX_BYTES`](crate::vocab::protocol::MAX_BYTES) bytes of it are read.
pub fn validate_reader(
    path: &Path,
    input: impl io::Read,
    gzip: bool,
    opts: &ValidateOptions,
) -> Result<FileReport> {
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
    check_stream(input, gzip, &ctx, &mut report)?;
    Ok(report)
}

/// Writes `file:line: error: Name: message` lines for every finding, then one summary line
/// (which counts the `unreadable` files too: a run that read nothing found no "no problems").
pub fn print_report(
    reports: &[FileReport],
    unreadable: usize,
    out: &mut impl Write,
) -> io::Result<()> {
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
    if errors == 0 && warnings == 0 && unreadable == 0 {
        return writeln!(out, "no problems");
    }
    write!(
        out,
        "{} error{}, {} warning{}",
        thousands(errors as u64),
        plural(errors),
        thousands(warnings as u64),
        plural(warnings)
    )?;
    match unreadable {
        0 => writeln!(out),
        n => writeln!(
            out,
            "; {} file{} could not be read",
            thousands(n as u64),
            plural(n)
        ),
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

/// Validates every file, prints the report to `out` and unreadable files to `err`
/// (`error: FILE: why`), and returns the exit code (see [`exit_code`]).
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
                writeln!(err, "error: {e}")?;
            }
        }
    }
    print_report(&reports, unreadable, out)?;
    Ok(exit_code(&reports, unreadable))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
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

#[cfg(test)]
mod tests {
    use super::checker::tests::{HEAD, check};
    use super::*;

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
        print_report(&[r], 0, &mut out).unwrap();
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
    fn a_run_that_could_not_read_a_file_never_says_no_problems() {
        let mut out = Vec::new();
        print_report(&[], 1, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "validated 0 files (0 entries): 0 errors, 0 warnings; 1 file could not be read\n"
        );
        let mut out = Vec::new();
        print_report(&[], 0, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "validated 0 files (0 entries): no problems\n"
        );
    }

    #[test]
    fn exit_codes() {
        let clean = check(&format!(
            "{HEAD}<url><loc>https://example.com/</loc><lastmod>2024-01-01T00:00:00</lastmod></url></urlset>"
        ));
        assert_eq!(clean.warnings, 1);
        let broken = check(&format!("{HEAD}<url><loc>/x</loc></url></urlset>"));
        assert_eq!(exit_code(std::slice::from_ref(&clean), 0), 0);
        assert_eq!(exit_code(&[clean.clone(), broken.clone()], 0), 1);
        assert_eq!(exit_code(&[clean, broken], 1), 2);
    }

    #[test]
    fn kind_names_round_trip() {
        for k in FindingKind::ALL {
            assert_eq!(FindingKind::from_name(k.name()), Some(k));
        }
    }
}
