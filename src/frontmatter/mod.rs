//! Front matter: the fields of a page that decide whether, where and how it is listed.
//!
//! TOML between `+++` lines, YAML between `---` lines, a JSON object `{ … }` or Org-mode
//! `#+KEY: value` lines (Hugo). This module reads a file and finds the block; `formats`
//! parses it into one neutral tree, `fields` takes the fields from that tree straight into
//! the [`PageMeta`] the later stages take.

use std::ops::Range;
use std::path::Path;

use crate::hugo::dates::HugoDates;
use crate::hugo::version::HugoRules;
use crate::vocab::date::SiteTz;
use crate::vocab::error::{Error, Result};

mod fields;
mod formats;
mod meta;
mod terms;
pub(crate) mod yaml;
mod yaml_fast;

use crate::vocab::limits::{MAX_FRONT_MATTER, MAX_IMAGE_BODY};
pub use fields::Ctx;
pub(crate) use fields::{SITEMAP_TABLE_KEYS, build_key, extract};
pub use formats::{Format, Node, NodeValue};
pub use meta::{BuildList, BuildOptions, BuildRender, Cascade, MetaMore, Names, PageMeta};
pub use terms::{Taxon, TermIter, Terms};

/// The byte-order mark some editors put at the start of UTF-8 files.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How much of a file `read` asks for first: enough for nearly every front matter.
const FIRST_CHUNK: usize = 8 * 1024;

/// How front matter is read.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The zone that dates without an offset are read in.
    pub tz: SiteTz,
    /// Hugo style: sitemap values Hugo accepts but the protocol does not are left out rather
    /// than refused. A negative `priority` is Hugo's "unset"; a `priority` above 1 or an
    /// unknown `changefreq` is left out with a warning in [`Parsed::warnings`].
    pub lenient: bool,
    /// Keep `title` itself, not only whether there is one (only Hugo permalinks make URLs
    /// from titles).
    pub keep_title: bool,
    /// Keep top-level string values in [`Parsed::taxonomy_strings`] (Hugo reads a taxonomy
    /// given as one string as one term).
    pub string_terms: bool,
    /// Hugo style: the rules of the Hugo version that reads the page (dates, `build`,
    /// `published`, `sitemap.disable`).
    pub hugo: Option<HugoRules>,
    /// Hugo style: the site's `[frontmatter]` date orders (`None`: Hugo's defaults).
    pub dates: Option<std::sync::Arc<HugoDates>>,
    /// Hugo style: the lastmod order is the site's own (`[frontmatter] lastmod`), so
    /// [`PageMeta::updated`] is its first run of keys; otherwise sitemap.toml's
    /// `front_matter` keys (`updated`, `lastmod`, `last_modified_at`, `modified`).
    pub hugo_lastmod: bool,
    /// Zola style: each key is held to the type Zola's front matter structs give it.
    pub zola: bool,
    /// The generator's own reading of a block ([`Dialect`]); none: the common one
    /// (`extract`), for plain sites.
    pub dialect: Option<&'static dyn Dialect>,
    /// With `images = true`: where the generator's pages name their images besides
    /// Markdown (front matter keys read into [`Parsed::images`], and shortcodes).
    pub images: Option<crate::images::SourceRules>,
}

/// A generator's own reading of a front matter block, where it differs from the common one
/// (`extract`): Hugo casts every value as its release does, Zola holds each key to the
/// type its structs give it. Each wing implements it; [`Options::dialect`] names it.
pub trait Dialect: Sync + std::fmt::Debug {
    /// The fields of the block whose tree is `root`, written in `format`.
    fn fields(&self, root: &Node<'_>, cx: &Ctx<'_>, format: Format) -> Result<Parsed>;
}

/// One page's front matter as read: the record the later stages take, and what is handed on
/// once (its taxonomy terms, to be packed with [`Terms::pack`], and the warnings).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// The page's record for the rest of the run.
    pub meta: PageMeta,
    /// Taxonomy terms in top-level lists (`tags = [...]`, where Hugo reads them), by
    /// lower-cased name, sorted by name (terms in the order written).
    pub taxonomies: Vec<(String, Vec<String>)>,
    /// Taxonomy terms in Zola's `[taxonomies]` table (where Zola reads them, and only there),
    /// by lower-cased name, in the order written.
    pub taxonomy_table: Vec<(String, Vec<String>)>,
    /// Top-level keys with one string (`author = "Jane Doe"`), by lower-cased name: one term
    /// each where the site declares the key a taxonomy (Hugo).
    pub taxonomy_strings: Vec<(String, String)>,
    /// Values left out in lenient (Hugo) mode, each naming the file and line, and images not
    /// read from a body past [`crate::vocab::limits::MAX_IMAGE_BODY`].
    pub warnings: Vec<String>,
    /// The image values of the front matter keys [`Options::images`] names, as written, in
    /// the order of the keys.
    pub images: Vec<String>,
}

impl Parsed {
    /// What a file without front matter reads as: the default fields, marked as such.
    pub fn without_front_matter() -> Parsed {
        Parsed::without_front_matter_before(b"")
    }

    /// [`Parsed::without_front_matter`] for a file whose text starts with `start` (as much
    /// of it as was read), which tells whether it opens with markup.
    fn without_front_matter_before(start: &[u8]) -> Parsed {
        let mut parsed = Parsed::default();
        parsed.meta.set_more(MetaMore {
            no_front_matter: true,
            raw_markup: opens_markup(start),
            ..MetaMore::default()
        });
        parsed
    }
}

/// Whether text opens with markup as Hugo tells a raw HTML file: its first non-blank
/// character is `<`, and not one opening a comment.
fn opens_markup(text: &[u8]) -> bool {
    let start = text.trim_ascii_start();
    start.starts_with(b"<") && !start.starts_with(b"<!--")
}

/// Parses the front matter at the start of `text` (the whole file, as read).
///
/// Returns the fields and the byte offset in `text` where the body starts. A file without
/// front matter gives the default fields and the offset just past any BOM.
pub fn parse(text: &str, path: &Path, opts: &Options) -> Result<(Parsed, usize)> {
    let layout = match scan(text.as_bytes(), true, path)? {
        Scan::Done(layout) => layout,
        // At end of input the scanner always decides; this arm only satisfies the type.
        Scan::NeedMore => return Err(Error::input(path, None, "front matter scan did not finish")),
    };
    let parsed = match layout.format {
        None => Parsed::without_front_matter_before(
            text.as_bytes().get(layout.body..).unwrap_or_default(),
        ),
        Some(_) => parse_layout(text, &layout, path, opts)?,
    };
    Ok((parsed, layout.body))
}

/// Reads `path` and parses its front matter, reading only as far as the front matter
/// reaches unless `want_body` asks for the body as well. A body past
/// [`crate::vocab::limits::MAX_IMAGE_BODY`] is not read: `None`, and a warning says so.
pub fn read(path: &Path, opts: &Options, want_body: bool) -> Result<(Parsed, Option<String>)> {
    // The scan found a regular file; what stands there now may be another (a FIFO would block).
    let opened = crate::vocab::fsread::open_listed(path).map_err(|e| Error::io(path, e.into()))?;
    let mut buf = Vec::new();
    let (parsed, body) = read_opened(opened, path, opts, want_body, &mut buf)?;
    Ok((parsed, body.map(str::to_string)))
}

/// [`read`] of the file at `path`, already opened with its size
/// ([`crate::vocab::fsread::open_listed`] or [`crate::vocab::fsread::open_listed_at`]), into `buf` (a
/// reader's own, used again from page to page: its old contents are dropped); the body is
/// borrowed from it.
pub fn read_opened<'b>(
    (mut file, size): (std::fs::File, u64),
    path: &Path,
    opts: &Options,
    want_body: bool,
    buf: &'b mut Vec<u8>,
) -> Result<(Parsed, Option<&'b str>)> {
    buf.clear();
    buf.reserve(FIRST_CHUNK);
    let mut eof = false;
    let layout = loop {
        if !eof {
            // Each pass asks for at least as much again as already read, so a large front
            // matter costs a logarithmic number of rescans.
            let want = buf.len().max(FIRST_CHUNK);
            eof = crate::vocab::fsread::read_more(&mut file, size, buf, want)
                .map_err(|e| Error::io(path, e))?;
        }
        match scan(buf, eof, path)? {
            Scan::Done(layout) => break layout,
            Scan::NeedMore if eof => {
                return Err(Error::input(path, None, "front matter scan did not finish"));
            }
            // Not closed yet, and far past what any block may hold (with room for blank lines
            // before it): stop reading.
            Scan::NeedMore if buf.len() > 2 * MAX_FRONT_MATTER => return Err(too_big(path, None)),
            Scan::NeedMore => {}
        }
    };
    let head_end = if layout.format.is_some() {
        layout.block.end
    } else {
        layout.body
    };
    let head = std::str::from_utf8(&buf[..head_end.min(buf.len())])
        .map_err(|e| not_utf8(path, buf, e.valid_up_to()))?;
    let parsed = match layout.format {
        None => Parsed::without_front_matter_before(buf.get(layout.body..).unwrap_or_default()),
        Some(_) => parse_layout(head, &layout, path, opts)?,
    };
    if !want_body {
        return Ok((parsed, None));
    }
    if !eof {
        // One byte past the most read tells a body that is too long.
        let room = (layout.body + MAX_IMAGE_BODY + 1).saturating_sub(buf.len());
        crate::vocab::fsread::read_more(&mut file, size, buf, room)
            .map_err(|e| Error::io(path, e))?;
    }
    if buf.len().saturating_sub(layout.body) > MAX_IMAGE_BODY {
        let mut parsed = parsed;
        parsed.warnings.push(format!(
            "{}: images not read: the body is larger than {} MiB (the most read for images)",
            path.display(),
            MAX_IMAGE_BODY >> 20
        ));
        return Ok((parsed, None));
    }
    let body = &buf[layout.body.min(buf.len())..];
    let body = std::str::from_utf8(body).map_err(|e| {
        let line = layout.body_line + line_of(body, e.valid_up_to()) - 1;
        Error::input(path, Some(line), NOT_UTF8)
    })?;
    Ok((parsed, Some(body)))
}

/// What a reader sees of a page: the title and description its front matter gives (in
/// whatever format, key order or quoting) and the body, to tell a change of the text from a
/// reformat. `None` when the front matter cannot be read.
#[derive(Debug, PartialEq)]
pub struct ReaderView<'t> {
    /// `title`, as text.
    pub title: Option<String>,
    /// `description`, as text.
    pub description: Option<String>,
    /// Other text the page shows from its front matter: `summary`, `subtitle` and the titles
    /// of things it names (a book's), as written.
    pub shown: Vec<String>,
    /// Every other text of six words or more in the front matter (an audience note, a change
    /// log entry), which a template shows as Markdown or HTML.
    pub prose: Vec<String>,
    /// Everything after the front matter.
    pub body: &'t str,
}

/// Splits a whole page into its [`ReaderView`].
pub fn reader_view(text: &str) -> Option<ReaderView<'_>> {
    let path = Path::new("");
    let Ok(Scan::Done(layout)) = scan(text.as_bytes(), true, path) else {
        return None;
    };
    let body = text.get(layout.body..)?;
    let Some(format) = layout.format else {
        return Some(ReaderView {
            title: None,
            description: None,
            shown: Vec::new(),
            prose: Vec::new(),
            body,
        });
    };
    if layout.block.len() > MAX_FRONT_MATTER {
        return None;
    }
    let root = formats::tree(
        format,
        text.get(layout.block.clone())?,
        &layout,
        path,
        yaml::Dialect::Core,
    )
    .ok()?;
    let text_of = |key: &str| root.get(key).and_then(formats::Node::as_text);
    let mut shown: Vec<String> = ["summary", "subtitle"]
        .iter()
        .filter_map(|k| text_of(k))
        .collect();
    let mut prose = Vec::new();
    for (key, node) in root.entries() {
        let read = ["title", "description", "summary", "subtitle"];
        if !read.iter().any(|k| key.eq_ignore_ascii_case(k)) {
            prose_in(node, &mut shown, &mut prose);
        }
    }
    Some(ReaderView {
        title: text_of("title"),
        description: text_of("description"),
        shown,
        prose,
        body,
    })
}

/// A front matter text of this many words or more (a word holding a letter) is read as text
/// the page shows, wherever it stands: an audience note, an entry of a change log, a
/// retraction notice. Shorter values (tags, names, paths, dates) are not. Measured on the
/// lastmod oracle (docs/lastmod.md): from 5 to 12 words alike (2 pages more within a day
/// than without); 3 words lose 4 pages to tag renames.
const PROSE_WORDS: usize = 6;

/// Collects the text a top-level value of the front matter shows a reader: every `title`
/// within it (a book's, a series') into `titles`, every text of [`PROSE_WORDS`] words into
/// `prose`.
fn prose_in(node: &formats::Node<'_>, titles: &mut Vec<String>, prose: &mut Vec<String>) {
    match &node.v {
        formats::NodeValue::Str(s) => {
            let words = s
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphabetic))
                .count();
            if words >= PROSE_WORDS {
                prose.push(s.to_string());
            }
        }
        formats::NodeValue::List(items) => {
            for item in items {
                prose_in(item, titles, prose);
            }
        }
        formats::NodeValue::Map(entries) => {
            for (key, value) in entries {
                match (&value.v, key.eq_ignore_ascii_case("title")) {
                    (formats::NodeValue::Str(s), true) => titles.push(s.to_string()),
                    _ => prose_in(value, titles, prose),
                }
            }
        }
        _ => {}
    }
}

/// Parses the block that `layout` found in `text` and reads the fields from it.
fn parse_layout(text: &str, layout: &Layout, path: &Path, opts: &Options) -> Result<Parsed> {
    let Some(format) = layout.format else {
        return Ok(Parsed::without_front_matter());
    };
    if layout.block.len() > MAX_FRONT_MATTER {
        return Err(too_big(path, Some(layout.open_line)));
    }
    let block = &text[layout.block.clone()];
    let dialect = match opts.hugo {
        Some(h) if h.yaml_v2 => yaml::Dialect::GoYamlV2,
        Some(_) => yaml::Dialect::Goccy,
        None => yaml::Dialect::Core,
    };
    let root = formats::tree(format, block, layout, path, dialect)?;
    fields::from_tree(&root, block, layout, path, opts)
}

/// The error for a front matter block past [`MAX_FRONT_MATTER`].
fn too_big(path: &Path, line: Option<usize>) -> Error {
    let most = MAX_FRONT_MATTER >> 20;
    Error::input(
        path,
        line,
        format!("the front matter is larger than {most} MiB (the most read)"),
    )
}

const NOT_UTF8: &str = "the file is not valid UTF-8: save it as UTF-8";

fn not_utf8(path: &Path, bytes: &[u8], at: usize) -> Error {
    Error::input(path, Some(line_of(bytes, at.min(bytes.len()))), NOT_UTF8)
}

/// The 1-based line of byte `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at].iter().filter(|&&b| b == b'\n').count()
}

/// Where the front matter block and the body lie in a file.
#[derive(Debug)]
struct Layout {
    /// `None` when the file has no front matter.
    format: Option<Format>,
    /// The block's bytes, without delimiter lines (JSON: the whole object).
    block: Range<usize>,
    /// The 1-based file line of the block's first byte.
    block_line: usize,
    /// The 1-based line of the opening delimiter.
    open_line: usize,
    /// The byte offset where the body starts.
    body: usize,
    /// The 1-based line of the body's first line.
    body_line: usize,
}

/// What the scanner made of the bytes it was given.
#[derive(Debug)]
enum Scan {
    Done(Layout),
    /// The block may continue past the bytes read so far.
    NeedMore,
}

/// One line starting at `from`: the end of its content (trailing blanks and `\r` dropped)
/// and the start of the next line; `None` when the line may continue past the bytes read.
fn line_at(b: &[u8], from: usize, eof: bool) -> Option<(usize, usize)> {
    let (end, next) = match b[from..].iter().position(|&c| c == b'\n') {
        Some(p) => (from + p, from + p + 1),
        None if eof => (b.len(), b.len()),
        None => return None,
    };
    let mut e = end;
    while e > from && matches!(b[e - 1], b' ' | b'\t' | b'\r') {
        e -= 1;
    }
    Some((e, next))
}

/// Finds the front matter block in the first bytes of a file (all of it when `eof`).
fn scan(b: &[u8], eof: bool, path: &Path) -> Result<Scan> {
    let bom = if b.starts_with(BOM) {
        BOM.len()
    } else if !eof && b.len() < BOM.len() && BOM.starts_with(b) {
        return Ok(Scan::NeedMore);
    } else {
        0
    };
    let none = Layout {
        format: None,
        block: bom..bom,
        block_line: 1,
        open_line: 1,
        body: bom,
        body_line: 1,
    };
    // Both generators allow blank lines before the opening delimiter.
    let mut i = bom;
    let mut line = 1;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
        if b[i] == b'\n' {
            line += 1;
        }
        i += 1;
    }
    if i == b.len() {
        return Ok(if eof {
            Scan::Done(none)
        } else {
            Scan::NeedMore
        });
    }
    match b[i] {
        b'+' | b'-' => scan_delimited(b, i, line, eof, path, none),
        b'{' => scan_json(b, i, line, eof, path, none),
        b'#' => Ok(scan_org(b, i, line, eof, none)),
        _ => Ok(Scan::Done(none)),
    }
}

/// Hugo's Org-mode front matter: the `#+KEY: value` lines at the top, up to the first line
/// that does not start with `#+`.
fn scan_org(b: &[u8], start: usize, line: usize, eof: bool, none: Layout) -> Scan {
    if b.len() < start + 2 && !eof {
        return Scan::NeedMore;
    }
    if !b[start..].starts_with(b"#+") {
        return Scan::Done(none);
    }
    let mut s = start;
    let mut l = line;
    while s < b.len() && b[s..].starts_with(b"#+") {
        let Some((_, next)) = line_at(b, s, eof) else {
            return Scan::NeedMore;
        };
        s = next;
        l += 1;
    }
    if s >= b.len() && !eof {
        return Scan::NeedMore;
    }
    Scan::Done(Layout {
        format: Some(Format::Org),
        block: start..s,
        block_line: line,
        open_line: line,
        body: s,
        body_line: l,
    })
}

fn scan_delimited(
    b: &[u8],
    start: usize,
    line: usize,
    eof: bool,
    path: &Path,
    none: Layout,
) -> Result<Scan> {
    let Some((end, block_start)) = line_at(b, start, eof) else {
        return Ok(Scan::NeedMore);
    };
    let (format, delim): (Format, &[u8]) = match &b[start..end] {
        b"+++" => (Format::Toml, b"+++"),
        b"---" => (Format::Yaml, b"---"),
        _ => return Ok(Scan::Done(none)),
    };
    let mut s = block_start;
    let mut l = line + 1;
    loop {
        if s >= b.len() {
            if !eof {
                return Ok(Scan::NeedMore);
            }
            let d = String::from_utf8_lossy(delim);
            return Err(Error::input(
                path,
                Some(line),
                format!(
                    "{} front matter opened with `{d}` is never closed: add a `{d}` line after it",
                    format.name()
                ),
            ));
        }
        let Some((e, next)) = line_at(b, s, eof) else {
            return Ok(Scan::NeedMore);
        };
        let content = &b[s..e];
        if content == delim || (format == Format::Yaml && content == b"...") {
            return Ok(Scan::Done(Layout {
                format: Some(format),
                block: block_start..s,
                block_line: line + 1,
                open_line: line,
                body: next,
                body_line: l + 1,
            }));
        }
        s = next;
        l += 1;
    }
}

fn scan_json(
    b: &[u8],
    start: usize,
    line: usize,
    eof: bool,
    path: &Path,
    none: Layout,
) -> Result<Scan> {
    match b.get(start + 1) {
        // `{{` opens a shortcode or template call, never a JSON object.
        Some(b'{') => return Ok(Scan::Done(none)),
        None if !eof => return Ok(Scan::NeedMore),
        _ => {}
    }
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for (j, &c) in b.iter().enumerate().skip(start) {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    let close_line = line + b[start..j].iter().filter(|&&c| c == b'\n').count();
                    // The body starts on the next line when only blanks follow the brace.
                    let Some((e, next)) = line_at(b, j + 1, eof) else {
                        return Ok(Scan::NeedMore);
                    };
                    let (body, body_line) = if e == j + 1 {
                        (next, close_line + 1)
                    } else {
                        (j + 1, close_line)
                    };
                    return Ok(Scan::Done(Layout {
                        format: Some(Format::Json),
                        block: start..j + 1,
                        block_line: line,
                        open_line: line,
                        body,
                        body_line,
                    }));
                }
            }
            _ => {}
        }
    }
    if !eof {
        return Ok(Scan::NeedMore);
    }
    Err(Error::input(
        path,
        Some(line),
        "JSON front matter opened with `{` is never closed: add the matching `}`",
    ))
}

/// Test helpers shared by the front matter modules' tests.
#[cfg(test)]
mod testing {
    use super::*;
    use crate::vocab::date::W3cDate;

    /// The options the tests parse with: UTC, strict, titles kept.
    pub(super) fn opts(lenient: bool) -> Options {
        Options {
            lenient,
            keep_title: true,
            ..Options::default()
        }
    }

    /// Parses `text` as `content/p.md`, which must succeed.
    pub(super) fn parse_ok(text: &str) -> (Parsed, usize) {
        parse(text, Path::new("content/p.md"), &opts(false)).unwrap()
    }

    /// The fields of `text`.
    pub(super) fn fm(text: &str) -> Parsed {
        parse_ok(text).0
    }

    /// The fields of `text`, read leniently (Hugo).
    pub(super) fn lenient(text: &str) -> Parsed {
        parse(text, Path::new("content/p.md"), &opts(true))
            .unwrap()
            .0
    }

    /// The line and message of the error `text` gives.
    pub(super) fn fails(text: &str) -> (usize, String) {
        match parse(text, Path::new("content/p.md"), &opts(false)) {
            Err(Error::Input {
                path,
                line,
                message,
            }) => {
                assert_eq!(path, Path::new("content/p.md"));
                (line.expect("a line number"), message)
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    /// A date as text, "" for none.
    pub(super) fn date(fm_date: Option<W3cDate>) -> String {
        fm_date.map(|d| d.to_string()).unwrap_or_default()
    }

    /// SplitMix64, so every generated block comes again from its seed; `calm` makes the odd
    /// events ([`Rng::odd`]) that many times rarer.
    pub(super) struct Rng(pub(super) u64, pub(super) usize);

    impl Rng {
        pub(super) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        pub(super) fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        /// True one time in `n`.
        pub(super) fn one_in(&mut self, n: usize) -> bool {
            self.below(n) == 0
        }

        /// True one time in `n` times `calm`: an edge, or something outside the subset.
        pub(super) fn odd(&mut self, n: usize) -> bool {
            self.below(n * self.1) == 0
        }

        pub(super) fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    /// How many generated blocks the fast path's tests check in every build.
    pub(super) fn generated_seeds() -> std::ops::Range<u64> {
        0..if cfg!(debug_assertions) {
            4_000
        } else {
            20_000
        }
    }

    /// Holds a fast path to its full path over generated blocks: `agrees` checks the block
    /// of one seed and says whether the fast path read it. Enough must be read for the
    /// comparison to say something, and not all (the grammar reaches past the subset).
    pub(super) fn agrees_on_generated(seeds: std::ops::Range<u64>, agrees: impl Fn(u64) -> bool) {
        let n = seeds.end - seeds.start;
        let accepted = seeds.filter(|&s| agrees(s)).count() as u64;
        assert!(
            accepted > n / 5 && accepted < n,
            "{accepted} of {n} accepted"
        );
    }

    /// The 1-based line where the body of `bytes` starts.
    pub(super) fn body_line(bytes: &[u8]) -> usize {
        match scan(bytes, true, Path::new("p")).unwrap() {
            Scan::Done(l) => l.body_line,
            Scan::NeedMore => panic!("undecided at eof"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use std::io::Write;

    #[test]
    fn toml_block_and_body_offset() {
        let text = "+++\ntitle = \"T\"\nslug = \"s\"\n+++\nBody\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.more().title.as_deref(), Some("T"));
        assert_eq!(f.meta.slug(), Some("s"));
        assert_eq!(&text[body..], "Body\n");
        assert_eq!(body_line(text.as_bytes()), 5);
    }

    #[test]
    fn yaml_block_closed_by_dashes_or_dots() {
        let text = "---\ntitle: Y\n---\nB";
        let (f, body) = parse_ok(text);
        assert_eq!((f.meta.more().title.as_deref(), body), (Some("Y"), 17));
        assert_eq!(body_line(text.as_bytes()), 4);
        let text = "---\ntitle: Dots\n...\nBody";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.more().title.as_deref(), Some("Dots"));
        assert_eq!(&text[body..], "Body");
    }

    #[test]
    fn json_objects_multi_line_and_one_line() {
        let text = "{\n  \"title\": \"J\",\n  \"x\": \"}{\\\"\"\n}\nBody.\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.more().title.as_deref(), Some("J"));
        assert_eq!(&text[body..], "Body.\n");
        assert_eq!(body_line(text.as_bytes()), 5);
        let text = "{\"title\": \"One\", \"slug\": \"json-one-line\", \"date\": \"2023-04-04\", \"sitemap\": {\"priority\": 0.9}}\nBody.\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.slug(), Some("json-one-line"));
        assert_eq!(
            f.meta.priority.map(|p| p.to_string()).as_deref(),
            Some("0.9")
        );
        assert_eq!(date(f.meta.date), "2023-04-04");
        assert_eq!(&text[body..], "Body.\n");
        assert_eq!(body_line(text.as_bytes()), 2);
    }

    #[test]
    fn a_shortcode_at_the_start_is_not_json() {
        let text = "{{< figure src=\"a.png\" >}}\ntext";
        let (f, body) = parse_ok(text);
        assert_eq!(f, Parsed::without_front_matter());
        assert_eq!((body, body_line(text.as_bytes())), (0, 1));
    }

    #[test]
    fn bom_and_crlf_are_tolerated() {
        let text = "\u{feff}---\r\ntitle: \"BOM\"\r\nslug: crlf-slug\r\ndate: 2023-04-06\r\n---\r\nBody.\r\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.slug(), Some("crlf-slug"));
        assert_eq!(date(f.meta.date), "2023-04-06");
        assert_eq!(&text[body..], "Body.\r\n");
        assert_eq!(body_line(text.as_bytes()), 6);
        let text = "\u{feff}+++\r\ntitle = \"x\"\r\n+++  \r\nB";
        let (f, body) = parse_ok(text);
        assert_eq!(f.meta.more().title.as_deref(), Some("x"));
        assert_eq!(&text[body..], "B");
    }

    #[test]
    fn no_front_matter_is_still_a_page() {
        for text in [
            "# No front matter\nTitle from the file name.\n",
            "",
            "\n\n",
            "--- x\n",
            "++++\na\n",
        ] {
            let (f, body) = parse_ok(text);
            assert_eq!(f, Parsed::without_front_matter(), "{text:?}");
            assert_eq!((body, body_line(text.as_bytes())), (0, 1));
        }
        let (_, body) = parse_ok("\u{feff}plain");
        assert_eq!(body, 3);
    }

    #[test]
    fn a_file_without_front_matter_that_opens_with_markup_is_told() {
        let raw = |text: &str| parse_ok(text).0.meta.more().raw_markup;
        assert!(raw("<html><body>x</body></html>"));
        assert!(raw("\u{feff}\n  <!DOCTYPE html>"));
        assert!(!raw("<!-- a comment first -->\n<p>x</p>"));
        assert!(!raw("plain <b>text</b>"));
        assert!(!raw("---\ntitle: x\n---\n<p>x</p>"));
    }

    #[test]
    fn empty_blocks_give_defaults() {
        assert_eq!(fm("---\n---\nEmpty YAML.\n"), Parsed::default());
        assert_eq!(body_line(b"---\n---\nEmpty YAML.\n"), 3);
        assert_eq!(fm("+++\n+++\n").meta.more().title, None);
        assert_eq!(fm("{}\n").meta.more().title, None);
    }

    #[test]
    fn a_second_block_in_the_body_is_body_text() {
        let text =
            "---\ntitle: \"YAML then +++\"\ndate: 2023-04-11\n---\n+++\nnot front matter\n+++\n";
        let (f, body) = parse_ok(text);
        assert_eq!(date(f.meta.date), "2023-04-11");
        assert_eq!(&text[body..], "+++\nnot front matter\n+++\n");
    }

    #[test]
    fn leading_blank_lines_count_in_line_numbers() {
        let (line, _) = fails("\n\n+++\ntitle = \"a\"\npriority = 2\n+++\n");
        assert_eq!(line, 5);
    }

    #[test]
    fn unclosed_blocks_name_the_opening_line() {
        let (line, msg) = fails("+++\ntitle = \"x\"\n");
        assert_eq!(line, 1);
        assert!(msg.contains("never closed"), "{msg}");
        let (line, msg) = fails("\n---\ntitle: x\n");
        assert_eq!(line, 2);
        assert!(msg.contains("`---`"), "{msg}");
        let (line, msg) = fails("{\n\"title\": \"x\"\n");
        assert_eq!(line, 1);
        assert!(msg.contains("JSON"), "{msg}");
    }

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
        p
    }

    #[test]
    fn read_with_and_without_body() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(
            dir.path(),
            "a.md",
            b"\xEF\xBB\xBF+++\r\ntitle = \"R\"\r\n+++\r\nBody \xC3\xBC\r\n",
        );
        let (f, body) = read(&p, &opts(false), false).unwrap();
        assert_eq!((f.meta.more().title.as_deref(), body), (Some("R"), None));
        let (_, body) = read(&p, &opts(false), true).unwrap();
        assert_eq!(body.as_deref(), Some("Body \u{fc}\r\n"));
        let p = write(dir.path(), "b.md", b"no front matter");
        let (f, body) = read(&p, &opts(false), true).unwrap();
        assert_eq!(
            (f, body.as_deref()),
            (Parsed::without_front_matter(), Some("no front matter"))
        );
        assert!(matches!(
            read(&dir.path().join("missing.md"), &opts(false), false),
            Err(Error::Io { .. })
        ));
    }

    #[test]
    fn read_handles_front_matter_longer_than_a_chunk_and_ignores_bad_body_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::from("---\ntitle: long\n");
        for i in 0..3000 {
            text.push_str(&format!("k{i}: \"some value {i}\"\n"));
        }
        text.push_str("lastmod: 2024-02-03\n---\nbody\n");
        assert!(text.len() > 4 * FIRST_CHUNK);
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"\xFF\xFE not utf-8");
        let p = write(dir.path(), "long.md", &bytes);
        // Without the body the invalid bytes after the block are never looked at.
        let (f, _) = read(&p, &opts(false), false).unwrap();
        assert_eq!(date(f.meta.updated), "2024-02-03");
        assert_eq!(body_line(&bytes), 3005);
        match read(&p, &opts(false), true) {
            Err(Error::Input {
                line: Some(3006),
                message,
                ..
            }) => assert!(message.contains("UTF-8")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn read_reports_unclosed_blocks_and_syntax_errors_with_file_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "u.md", b"\n+++\ntitle = 1\n");
        assert!(matches!(
            read(&p, &opts(false), false),
            Err(Error::Input { line: Some(2), .. })
        ));
        let p = write(dir.path(), "s.md", b"---\r\na: 1\r\nb: [\r\n---\r\n");
        match read(&p, &opts(false), false) {
            Err(Error::Input {
                path,
                line: Some(l),
                ..
            }) => {
                assert_eq!(path, p);
                assert!((3..=4).contains(&l), "{l}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scanning_in_pieces_agrees_with_scanning_at_once() {
        let texts = [
            "\u{feff}---\ntitle: a\n---\nbody",
            "+++\r\na = 1\r\n+++\r\n",
            "{\"a\": \"}\"}\nbody",
            "{\n\"a\": 1\n}  \nx",
            "plain text",
            "\n\n---\nx: 1\n...\n",
        ];
        for text in texts {
            let b = text.as_bytes();
            let whole = match scan(b, true, Path::new("p")).unwrap() {
                Scan::Done(l) => l,
                Scan::NeedMore => panic!("undecided at eof"),
            };
            // The first prefix the scanner decides on must give the same layout.
            for n in 0..=b.len() {
                if let Scan::Done(l) = scan(&b[..n], n == b.len(), Path::new("p")).unwrap() {
                    assert_eq!(format!("{l:?}"), format!("{whole:?}"), "{text:?} at {n}");
                    break;
                }
            }
        }
    }
}
