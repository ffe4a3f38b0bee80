//! Front matter: the fields of a page that decide whether, where and how it is listed.
//!
//! TOML between `+++` lines, YAML between `---` lines, or a JSON object `{ … }` (Hugo).

use std::borrow::Cow;
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

use crate::date::{SiteTz, W3cDate};
use crate::error::{Error, Result};
use sitemap_values::{ChangeFreq, Priority};

pub mod sitemap_values;

/// What sitemapgen reads from one page's front matter; every field is optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrontMatter {
    /// `title`.
    pub title: Option<String>,
    /// `slug`: replaces the last path segment.
    pub slug: Option<String>,
    /// Zola `path`: replaces the whole path.
    pub path: Option<String>,
    /// Hugo `url`: replaces the whole path.
    pub url: Option<String>,
    /// Hugo `translationKey`: links translations whose paths differ.
    pub translation_key: Option<String>,
    /// Last change: the first of `updated`, `lastmod`, `last_modified_at`, `modified`.
    pub updated: Option<W3cDate>,
    /// `date`.
    pub date: Option<W3cDate>,
    /// Publication: the first of `publishDate`, `pubdate`, `published` (when a date).
    pub publish_date: Option<W3cDate>,
    /// Expiry: `expiryDate` or `unpublishdate`.
    pub expiry_date: Option<W3cDate>,
    /// `priority` (top level, `sitemap.priority`, `extra.priority` or `extra.sitemap.priority`).
    pub priority: Option<Priority>,
    /// `changefreq` (same places as `priority`).
    pub changefreq: Option<ChangeFreq>,
    /// Hugo: a negative `priority` (its "not set" value) on the page itself, which leaves
    /// `<priority>` out even where the site or a cascade sets one.
    pub priority_off: bool,
    /// `draft = true`, or Hugo `published = false`.
    pub draft: Option<bool>,
    /// `sitemap = false`, `sitemap.disable = true`, `noindex = true` (also under `extra`).
    pub sitemap_exclude: bool,
    /// Zola `render`: `false` means the page or section has no page of its own.
    pub render: Option<bool>,
    /// Hugo `headless = true`: a bundle with no page of its own.
    pub headless: bool,
    /// Hugo `_build`/`build` options.
    pub build: BuildOptions,
    /// Hugo `cascade`: values pushed down to every page below this section.
    pub cascade: Vec<Cascade>,
    /// Hugo `weight` / Zola `weight`.
    pub weight: Option<i64>,
    /// `aliases`: redirects, never listed, read so `list` can report them.
    pub aliases: Vec<String>,
    /// Taxonomy terms in top-level lists (`tags = [...]`, where Hugo reads them), by
    /// lower-cased name, sorted by name (terms in the order written).
    pub taxonomies: Vec<(String, Vec<String>)>,
    /// Taxonomy terms in Zola's `[taxonomies]` table (where Zola reads them, and only there),
    /// by lower-cased name, in the order written.
    pub taxonomy_table: Vec<(String, Vec<String>)>,
    /// `lang` (when set in front matter rather than in the file name).
    pub lang: Option<String>,
    /// Zola section `transparent = true`.
    pub transparent: bool,
    /// Zola section `paginate_by`.
    pub paginate_by: Option<u32>,
    /// Zola section `paginate_path` (default `page`).
    pub paginate_path: Option<String>,
    /// Zola section `sort_by` (`date`, `update_date`, `title`, `weight`, `slug`, `none`).
    pub sort_by: Option<String>,
    /// Zola section `redirect_to`: the section is a redirect, not a page.
    pub redirect_to: Option<String>,
    /// The 1-based line where the body starts (after the closing delimiter).
    pub body_line: usize,
    /// Values left out in lenient (Hugo) mode, each naming the file and line.
    pub warnings: Vec<String>,
}

/// Hugo build options (`_build` or `build`), from the page itself or a cascade.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `render`: `always` / `never` / `link` (booleans map to always/never).
    pub render: Option<BuildRender>,
    /// `list`: `always` / `never` / `local` (booleans map to always/never).
    pub list: Option<BuildList>,
}

/// Hugo `_build.render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildRender {
    /// Rendered and published (default).
    Always,
    /// Not rendered: no URL.
    Never,
    /// Has a permalink but writes no file: no URL in the sitemap.
    Link,
}

/// Hugo `_build.list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildList {
    /// Listed everywhere (default).
    Always,
    /// In no page collection: Hugo leaves it out of the sitemap.
    Never,
    /// Only in its section's own lists: Hugo leaves it out of the sitemap.
    Local,
}

/// One Hugo `cascade` block: values that apply to the pages below the section.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cascade {
    /// `_target.path` glob (Hugo glob syntax, relative to the content root), if any.
    pub target_path: Option<String>,
    /// `_target.kind` (`page`, `section`, …), if any.
    pub target_kind: Option<String>,
    /// `_target.lang`, if any.
    pub target_lang: Option<String>,
    /// `draft`.
    pub draft: Option<bool>,
    /// `headless`.
    pub headless: Option<bool>,
    /// `sitemap.disable`/`sitemap = false`/`noindex`.
    pub sitemap_exclude: Option<bool>,
    /// `_build`.
    pub build: BuildOptions,
    /// `sitemap.priority` / `priority`.
    pub priority: Option<Priority>,
    /// `sitemap.changefreq` / `changefreq`.
    pub changefreq: Option<ChangeFreq>,
    /// `publishDate`/`expiryDate`/`date` are cascadable in Hugo too.
    pub date: Option<W3cDate>,
    /// `publishDate`.
    pub publish_date: Option<W3cDate>,
    /// `expiryDate`.
    pub expiry_date: Option<W3cDate>,
    /// `lastmod`.
    pub updated: Option<W3cDate>,
}

/// What the pipeline keeps of one page's front matter for the rest of the run: the fields most
/// pages set, inline and small, and the ones few pages set boxed apart. A site of a million
/// pages holds a million of these, so every byte here counts (see [`FrontMatter`] for the
/// meaning of each field).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageMeta {
    /// Last change ([`FrontMatter::updated`]).
    pub updated: Option<W3cDate>,
    /// `date`.
    pub date: Option<W3cDate>,
    /// `priority`.
    pub priority: Option<Priority>,
    /// `changefreq`.
    pub changefreq: Option<ChangeFreq>,
    /// The yes/no fields, a bit each (see the accessors): six bytes would cost eight with
    /// padding.
    flags: u8,
    /// `slug` and Zola `path`, boxed together: most pages set neither.
    pub names: Option<Box<Names>>,
    /// Where its taxonomy terms lie among its pages' packed terms ([`crate::route::Pages`]).
    pub(crate) terms: (u32, u32),
    /// The fields few pages set; `None` when the page sets none of them.
    pub more: Option<Box<MetaMore>>,
}

/// A page's own URL names, when it sets any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// `slug`: replaces the last path segment.
    pub slug: Option<String>,
    /// Zola `path`: replaces the whole path.
    pub path: Option<String>,
}

/// The front matter fields few pages set, kept apart from [`PageMeta`] so most pages pay
/// one pointer for them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetaMore {
    /// `title`, kept only where a URL is made from it (Hugo `:title` and `:slug`).
    pub title: Option<String>,
    /// Hugo `url`.
    pub url: Option<String>,
    /// Hugo `translationKey`.
    pub translation_key: Option<String>,
    /// Publication date (Hugo's `publishDate` and its aliases; Zola has none).
    pub publish_date: Option<W3cDate>,
    /// Expiry date.
    pub expiry_date: Option<W3cDate>,
    /// Hugo `headless`.
    pub headless: bool,
    /// Hugo `_build`.
    pub build: BuildOptions,
    /// Hugo `cascade`.
    pub cascade: Vec<Cascade>,
    /// `lang`.
    pub lang: Option<String>,
    /// Zola section `transparent`.
    pub transparent: bool,
    /// Zola section `paginate_by`.
    pub paginate_by: Option<u32>,
    /// Zola section `paginate_path`.
    pub paginate_path: Option<String>,
    /// Zola section `sort_by`.
    pub sort_by: Option<String>,
    /// Zola section `redirect_to`.
    pub redirect_to: Option<String>,
}

/// What a page without any of the rarer fields reads as.
static NO_MORE: MetaMore = MetaMore {
    title: None,
    url: None,
    translation_key: None,
    publish_date: None,
    expiry_date: None,
    headless: false,
    build: BuildOptions {
        render: None,
        list: None,
    },
    cascade: Vec::new(),
    lang: None,
    transparent: false,
    paginate_by: None,
    paginate_path: None,
    sort_by: None,
    redirect_to: None,
};

// `PageMeta::flags` bits.
const PRIORITY_OFF: u8 = 1;
const DRAFT_SET: u8 = 1 << 1;
const DRAFT: u8 = 1 << 2;
const RENDER_SET: u8 = 1 << 3;
const RENDER: u8 = 1 << 4;
const SITEMAP_EXCLUDE: u8 = 1 << 5;
const HAS_TITLE: u8 = 1 << 6;
const HAS_WEIGHT: u8 = 1 << 7;

impl PageMeta {
    /// Keeps what the pipeline needs of `fm`; `keep_title` keeps the title itself (only
    /// Hugo permalinks make URLs from titles).
    pub fn new(fm: FrontMatter, keep_title: bool) -> PageMeta {
        let more = MetaMore {
            title: if keep_title { fm.title.clone() } else { None },
            url: fm.url,
            translation_key: fm.translation_key,
            publish_date: fm.publish_date,
            expiry_date: fm.expiry_date,
            headless: fm.headless,
            build: fm.build,
            cascade: fm.cascade,
            lang: fm.lang,
            transparent: fm.transparent,
            paginate_by: fm.paginate_by,
            paginate_path: fm.paginate_path,
            sort_by: fm.sort_by,
            redirect_to: fm.redirect_to,
        };
        PageMeta {
            updated: fm.updated,
            date: fm.date,
            priority: fm.priority,
            changefreq: fm.changefreq,
            flags: [
                (fm.priority_off, PRIORITY_OFF),
                (fm.draft.is_some(), DRAFT_SET),
                (fm.draft == Some(true), DRAFT),
                (fm.render.is_some(), RENDER_SET),
                (fm.render == Some(true), RENDER),
                (fm.sitemap_exclude, SITEMAP_EXCLUDE),
                (fm.title.is_some(), HAS_TITLE),
                (fm.weight.is_some(), HAS_WEIGHT),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |acc, (_, bit)| acc | bit),
            names: (fm.slug.is_some() || fm.path.is_some()).then(|| {
                Box::new(Names {
                    slug: fm.slug,
                    path: fm.path,
                })
            }),
            terms: (0, 0),
            more: (more != NO_MORE).then(|| Box::new(more)),
        }
    }

    fn flag(&self, bit: u8) -> bool {
        self.flags & bit != 0
    }

    /// A yes/no field that may be unset.
    fn maybe(&self, set: u8, bit: u8) -> Option<bool> {
        self.flag(set).then(|| self.flag(bit))
    }

    /// No `<priority>` at all ([`FrontMatter::priority_off`]).
    pub fn priority_off(&self) -> bool {
        self.flag(PRIORITY_OFF)
    }

    /// `draft` (or Hugo `published = false`).
    pub fn draft(&self) -> Option<bool> {
        self.maybe(DRAFT_SET, DRAFT)
    }

    /// Zola `render`.
    pub fn render(&self) -> Option<bool> {
        self.maybe(RENDER_SET, RENDER)
    }

    /// `sitemap = false` and its spellings.
    pub fn sitemap_exclude(&self) -> bool {
        self.flag(SITEMAP_EXCLUDE)
    }

    /// Whether `title` is set (Zola drops pages without one from a `sort_by = "title"` list).
    pub fn has_title(&self) -> bool {
        self.flag(HAS_TITLE)
    }

    /// Whether `weight` is set (the same for `sort_by = "weight"`).
    pub fn has_weight(&self) -> bool {
        self.flag(HAS_WEIGHT)
    }

    /// `slug`.
    pub fn slug(&self) -> Option<&str> {
        self.names.as_ref().and_then(|n| n.slug.as_deref())
    }

    /// Zola `path`.
    pub fn path(&self) -> Option<&str> {
        self.names.as_ref().and_then(|n| n.path.as_deref())
    }

    /// The rarer fields (all unset for most pages).
    pub fn more(&self) -> &MetaMore {
        self.more.as_deref().unwrap_or(&NO_MORE)
    }
}

impl From<FrontMatter> for PageMeta {
    fn from(fm: FrontMatter) -> PageMeta {
        PageMeta::new(fm, true)
    }
}

/// A page's taxonomy terms packed in one string (most pages have a few tags, and a vector of
/// vectors of strings would cost a dozen allocations): for each taxonomy its name, its terms
/// and whether they came from Zola's `[taxonomies]` table or a top-level list. The pages keep
/// every page's packed terms in one buffer; this reads one page's share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms<'a>(&'a str);

/// One taxonomy's terms on a page, from [`Terms::iter`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taxon<'a> {
    /// The taxonomy, lower-cased.
    pub name: &'a str,
    /// Written in Zola's `[taxonomies]` table rather than as a top-level list.
    pub from_table: bool,
    /// Its terms, in the order written.
    pub terms: TermIter<'a>,
}

/// The terms of one [`Taxon`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermIter<'a> {
    rest: &'a str,
    left: usize,
}

impl<'a> Terms<'a> {
    /// Packs the top-level `lists` and the `table`'s taxonomies, in that order ("" for none).
    pub fn pack(lists: &[(String, Vec<String>)], table: &[(String, Vec<String>)]) -> String {
        // Each string is written as its byte length, `:`, then the string: any text fits.
        let mut s = String::new();
        let put = |s: &mut String, text: &str| {
            s.push_str(&text.len().to_string());
            s.push(':');
            s.push_str(text);
        };
        let marked = lists
            .iter()
            .map(|t| (t, 'L'))
            .chain(table.iter().map(|t| (t, 'T')));
        for ((name, terms), flag) in marked {
            s.push(flag);
            put(&mut s, name);
            s.push_str(&terms.len().to_string());
            s.push(';');
            for t in terms {
                put(&mut s, t);
            }
        }
        s
    }

    /// The terms packed in `packed` (from [`Terms::pack`]).
    pub fn from_packed(packed: &'a str) -> Terms<'a> {
        Terms(packed)
    }

    /// Each taxonomy with its terms: the top-level lists, then the table's.
    pub fn iter(&self) -> impl Iterator<Item = Taxon<'a>> + 'a {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            let (flag, after) = rest.split_at_checked(1)?;
            let (name, after) = take_counted(after)?;
            let (count, after) = after.split_once(';')?;
            let left: usize = count.parse().ok()?;
            // Skip past this taxonomy's terms to find the next one.
            let mut end = after;
            for _ in 0..left {
                end = take_counted(end)?.1;
            }
            let terms = TermIter {
                rest: &after[..after.len() - end.len()],
                left,
            };
            rest = end;
            Some(Taxon {
                name,
                from_table: flag == "T",
                terms,
            })
        })
    }

    /// The terms of taxonomy `name` from the table (Zola) or from a top-level list (Hugo).
    pub fn get(&self, name: &str, from_table: bool) -> Option<Taxon<'a>> {
        self.iter()
            .find(|t| t.name == name && t.from_table == from_table)
    }
}

impl<'a> Iterator for TermIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.left == 0 {
            return None;
        }
        let (term, rest) = take_counted(self.rest)?;
        self.rest = rest;
        self.left -= 1;
        Some(term)
    }
}

/// Splits a `len:text` string off the front of `s`.
fn take_counted(s: &str) -> Option<(&str, &str)> {
    let (len, rest) = s.split_once(':')?;
    let len: usize = len.parse().ok()?;
    rest.split_at_checked(len)
}

/// The byte-order mark some editors put at the start of UTF-8 files.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How much of a file `read` asks for first: enough for nearly every front matter.
const FIRST_CHUNK: usize = 8 * 1024;

/// Parses the front matter at the start of `text` (the whole file, as read).
///
/// Returns the fields and the byte offset in `text` where the body starts. A file without
/// front matter gives the default fields and the offset just past any BOM.
pub fn parse(text: &str, path: &Path, tz: &SiteTz) -> Result<(FrontMatter, usize)> {
    parse_with(text, path, tz, false)
}

/// [`parse`], lenient about sitemap values Hugo accepts but the protocol does not when
/// `lenient` is set: a negative `priority` is Hugo's "unset"; a `priority` above 1 or an
/// unknown `changefreq` is left out with a warning in [`FrontMatter::warnings`].
pub fn parse_with(
    text: &str,
    path: &Path,
    tz: &SiteTz,
    lenient: bool,
) -> Result<(FrontMatter, usize)> {
    let layout = match scan(text.as_bytes(), true, path)? {
        Scan::Done(layout) => layout,
        // At end of input the scanner always decides; this arm only satisfies the type.
        Scan::NeedMore => return Err(Error::input(path, None, "front matter scan did not finish")),
    };
    let fm = parse_layout(text, &layout, path, tz, lenient)?;
    Ok((fm, layout.body))
}

/// Reads `path` and parses its front matter, reading only as far as the front matter
/// reaches unless `want_body` asks for the body as well.
pub fn read(path: &Path, tz: &SiteTz, want_body: bool) -> Result<(FrontMatter, Option<String>)> {
    read_with(path, tz, want_body, false)
}

/// [`read`] with the leniency of [`parse_with`].
pub fn read_with(
    path: &Path,
    tz: &SiteTz,
    want_body: bool,
    lenient: bool,
) -> Result<(FrontMatter, Option<String>)> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut buf: Vec<u8> = Vec::with_capacity(FIRST_CHUNK);
    let mut eof = false;
    let layout = loop {
        if !eof {
            // Each pass asks for at least as much again as already read, so a large front
            // matter costs a logarithmic number of rescans.
            let want = buf.len().max(FIRST_CHUNK);
            eof = fill(&mut file, &mut buf, want).map_err(|e| Error::io(path, e))?;
        }
        match scan(&buf, eof, path)? {
            Scan::Done(layout) => break layout,
            Scan::NeedMore if eof => {
                return Err(Error::input(path, None, "front matter scan did not finish"))
            }
            Scan::NeedMore => {}
        }
    };
    let head_end = if layout.format.is_some() {
        layout.block.end
    } else {
        layout.body
    };
    let head = std::str::from_utf8(&buf[..head_end.min(buf.len())])
        .map_err(|e| not_utf8(path, &buf, e.valid_up_to()))?;
    let fm = parse_layout(head, &layout, path, tz, lenient)?;
    if !want_body {
        return Ok((fm, None));
    }
    if !eof {
        file.read_to_end(&mut buf).map_err(|e| Error::io(path, e))?;
    }
    let body = buf.split_off(layout.body.min(buf.len()));
    let body = String::from_utf8(body).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = layout.body_line + line_of(e.as_bytes(), at) - 1;
        Error::input(path, Some(line), NOT_UTF8)
    })?;
    Ok((fm, Some(body)))
}

/// Appends up to `want` bytes to `buf`; true when the file has no more.
fn fill(file: &mut File, buf: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    // `read_to_end` reads into the vector's spare room without zeroing it first (a cost per
    // file otherwise), and retries interrupted reads.
    let got = file.take(want as u64).read_to_end(buf)?;
    Ok(got < want)
}

const NOT_UTF8: &str = "the file is not valid UTF-8: save it as UTF-8";

fn not_utf8(path: &Path, bytes: &[u8], at: usize) -> Error {
    Error::input(path, Some(line_of(bytes, at.min(bytes.len()))), NOT_UTF8)
}

/// The 1-based line of byte `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at].iter().filter(|&&b| b == b'\n').count()
}

/// The front matter formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Toml,
    Yaml,
    Json,
    /// Hugo's Org-mode `#+KEY: value` lines.
    Org,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Toml => "TOML",
            Format::Yaml => "YAML",
            Format::Json => "JSON",
            Format::Org => "Org-mode",
        }
    }
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

/// Reads `#+KEY: value` lines into a map of strings, as Hugo's Org decoder does: keys
/// lower-cased, `#+KEY[]:` values split on blanks into a list.
fn from_org(block: &str) -> N<'static> {
    let mut entries: Vec<(Cow<'static, str>, N<'static>)> = Vec::new();
    for (n, line) in block.lines().enumerate() {
        let Some(rest) = line.strip_prefix("#+") else {
            continue;
        };
        let Some((key, value)) = rest.split_once(':') else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        let at = Some(block.lines().take(n).map(|l| l.len() + 1).sum());
        let v = match key.strip_suffix("[]") {
            Some(k) => {
                let items = value
                    .split_whitespace()
                    .map(|w| N::new(V::Str(Cow::Owned(w.to_string()))))
                    .collect();
                entries.push((
                    Cow::Owned(k.to_string()),
                    N {
                        v: V::List(items),
                        at,
                    },
                ));
                continue;
            }
            None => V::Str(Cow::Owned(value.to_string())),
        };
        // A later line with the same key wins, as in Go's map.
        entries.retain(|(k, _)| *k != key);
        entries.push((Cow::Owned(key), N { v, at }));
    }
    N {
        v: V::Map(entries),
        at: Some(0),
    }
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

/// A parsed front matter value, the same shape whatever the format.
#[derive(Debug)]
enum V<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Cow<'a, str>),
    /// A TOML date-time literal, kept apart from strings so no guessing is needed.
    Date(toml::value::Datetime),
    List(Vec<N<'a>>),
    Map(Vec<(Cow<'a, str>, N<'a>)>),
}

/// A value and, when the parser reports it, its byte offset in the block.
#[derive(Debug)]
struct N<'a> {
    v: V<'a>,
    at: Option<usize>,
}

impl<'a> N<'a> {
    fn new(v: V<'a>) -> N<'a> {
        N { v, at: None }
    }

    /// True for an empty or blank string, which Hugo treats as "not set".
    fn is_blank(&self) -> bool {
        matches!(&self.v, V::Str(s) if s.trim().is_empty())
    }

    fn entries(&self) -> &[(Cow<'a, str>, N<'a>)] {
        match &self.v {
            V::Map(m) => m,
            _ => &[],
        }
    }

    /// The value of `key` in a map, compared case-insensitively.
    fn get(&self, key: &str) -> Option<&N<'a>> {
        self.entries()
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, n)| n)
    }

    /// A boolean, also written as YAML 1.1 words or a quoted `"true"` (as Hugo casts them).
    fn as_bool(&self) -> Option<bool> {
        match &self.v {
            V::Bool(b) => Some(*b),
            V::Int(0) => Some(false),
            V::Int(1) => Some(true),
            V::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "y" => Some(true),
                "false" | "no" | "off" | "n" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// A scalar as text (numbers and booleans as written by a formatter).
    fn as_text(&self) -> Option<String> {
        match &self.v {
            V::Str(s) => Some(s.to_string()),
            V::Int(i) => Some(i.to_string()),
            V::Float(f) => Some(f.to_string()),
            V::Bool(b) => Some(b.to_string()),
            V::Date(d) => Some(d.to_string()),
            _ => None,
        }
    }

    /// A list of scalars as text; `None` when this is no list or holds a non-scalar.
    fn as_text_list(&self) -> Option<Vec<String>> {
        match &self.v {
            V::List(items) => items.iter().map(N::as_text).collect(),
            _ => None,
        }
    }
}

fn from_toml(v: toml::Spanned<toml::de::DeValue<'_>>) -> N<'_> {
    use toml::de::DeValue;
    let at = Some(v.span().start);
    let v = match v.into_inner() {
        DeValue::String(s) => V::Str(s),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => V::Int(n),
            Err(_) => V::Float(i.as_str().parse().unwrap_or(f64::NAN)),
        },
        DeValue::Float(f) => V::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => V::Bool(b),
        DeValue::Datetime(d) => V::Date(d),
        DeValue::Array(a) => V::List(a.into_iter().map(from_toml).collect()),
        DeValue::Table(t) => V::Map(
            t.into_iter()
                .map(|(k, v)| (k.into_inner(), from_toml(v)))
                .collect(),
        ),
    };
    N { v, at }
}

/// A YAML value as gray_matter's YAML engine reads it (its `Pod`), so results stay as they
/// were: keys as strings (other keys dropped), the last of keys that read alike wins, maps
/// sorted by key, aliases and bad values null.
fn from_yaml(y: yaml_rust2::Yaml) -> N<'static> {
    use yaml_rust2::Yaml;
    N::new(match y {
        Yaml::Real(s) => V::Float(s.parse().unwrap_or(0.0)),
        Yaml::Integer(i) => V::Int(i),
        Yaml::String(s) => V::Str(Cow::Owned(s)),
        Yaml::Boolean(b) => V::Bool(b),
        Yaml::Array(a) => V::List(a.into_iter().map(from_yaml).collect()),
        Yaml::Hash(h) => {
            let mut m: Vec<(Cow<'static, str>, N<'static>)> = Vec::with_capacity(h.len());
            for (k, v) in h {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s,
                    Yaml::Boolean(b) => b.to_string(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Null => "null".to_string(),
                    _ => continue,
                };
                m.push((Cow::Owned(key), from_yaml(v)));
            }
            // Stable: among keys that read alike the last stays last, and is the one kept.
            m.sort_by(|a, b| a.0.cmp(&b.0));
            let mut out: Vec<(Cow<'static, str>, N<'static>)> = Vec::with_capacity(m.len());
            for kv in m {
                match out.last_mut() {
                    Some(last) if last.0 == kv.0 => *last = kv,
                    _ => out.push(kv),
                }
            }
            V::Map(out)
        }
        _ => V::Null,
    })
}

fn from_json(j: serde_json::Value) -> N<'static> {
    use serde_json::Value;
    N::new(match j {
        Value::Null => V::Null,
        Value::Bool(b) => V::Bool(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => V::Int(i),
            None => V::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => V::Str(Cow::Owned(s)),
        Value::Array(a) => V::List(a.into_iter().map(from_json).collect()),
        Value::Object(o) => V::Map(
            o.into_iter()
                .map(|(k, v)| (Cow::Owned(k), from_json(v)))
                .collect(),
        ),
    })
}

/// Where a block sits in its file, for error messages that point at the right line.
struct Ctx<'t> {
    path: &'t Path,
    block: &'t str,
    block_line: usize,
    tz: &'t SiteTz,
    /// Hugo style: values Hugo accepts but the protocol forbids are dropped, not errors.
    lenient: bool,
    /// What lenient mode dropped.
    warnings: std::cell::RefCell<Vec<String>>,
}

impl Ctx<'_> {
    /// The file line of the value at `keys` (a path of map keys from the top).
    fn line(&self, keys: &[&str], node: &N<'_>) -> usize {
        if let Some(at) = node.at {
            return self.block_line + line_of(self.block.as_bytes(), at.min(self.block.len())) - 1;
        }
        // YAML and JSON values carry no position: find the key's line in the block text,
        // each key searched from the line of its parent.
        let lines: Vec<&str> = self.block.lines().collect();
        let mut from = 0;
        for key in keys {
            match (from..lines.len()).find(|&i| line_has_key(lines[i], key)) {
                Some(i) => from = i,
                None => break,
            }
        }
        self.block_line + from
    }

    fn err(&self, keys: &[&str], node: &N<'_>, message: String) -> Error {
        Error::input(self.path, Some(self.line(keys, node)), message)
    }

    fn date(&self, keys: &[&str], node: &N<'_>) -> Result<W3cDate> {
        let parsed = match &node.v {
            V::Str(s) => W3cDate::parse(s, self.tz),
            V::Date(d) => W3cDate::parse(&d.to_string(), self.tz),
            _ => None,
        };
        parsed.ok_or_else(|| {
            let shown = node.as_text().unwrap_or_else(|| "this value".into());
            self.err(
                keys,
                node,
                format!(
                    "`{}` = '{shown}' is not a date: write YYYY-MM-DD or an RFC 3339 date-time like 2024-01-31T12:00:00+01:00",
                    keys.join(".")
                ),
            )
        })
    }

    /// A priority; `None` only in lenient mode, for a value Hugo accepts but writes no
    /// valid element for.
    ///
    /// The flag is true for Hugo's negative "not set" priority, which is `None` too.
    fn priority_lenient(&self, keys: &[&str], node: &N<'_>) -> Result<(Option<Priority>, bool)> {
        if self.lenient {
            let v = match &node.v {
                V::Float(f) => Some(*f),
                V::Int(i) => Some(*i as f64),
                V::Str(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            };
            // Hugo's default priority is -1, meaning "not set": Hugo omits the element.
            if v.is_some_and(|v| v < 0.0) {
                return Ok((None, true));
            }
            if v.is_some_and(|v| v > 1.0) {
                self.warn(
                    keys,
                    node,
                    format!(
                        "`{}` = {} is above 1.0, the protocol's maximum: left out",
                        keys.join("."),
                        v.unwrap_or_default()
                    ),
                );
                return Ok((None, false));
            }
        }
        self.priority(keys, node).map(|p| (Some(p), false))
    }

    /// A changefreq; `None` only in lenient mode, for a word the protocol does not know.
    fn changefreq_lenient(&self, keys: &[&str], node: &N<'_>) -> Result<Option<ChangeFreq>> {
        if self.lenient {
            if let V::Str(s) = &node.v {
                if let Err(m) = s.parse::<ChangeFreq>() {
                    self.warn(keys, node, format!("`{}`: {m}; left out", keys.join(".")));
                    return Ok(None);
                }
            }
        }
        self.changefreq(keys, node).map(Some)
    }

    fn warn(&self, keys: &[&str], node: &N<'_>, message: String) {
        let line = self.line(keys, node);
        self.warnings
            .borrow_mut()
            .push(format!("{}:{line}: {message}", self.path.display()));
    }

    fn priority(&self, keys: &[&str], node: &N<'_>) -> Result<Priority> {
        let p = match &node.v {
            V::Float(f) => Priority::from_f64(*f),
            V::Int(i) => Priority::from_f64(*i as f64),
            V::Str(s) => s.parse().ok(),
            _ => None,
        };
        p.ok_or_else(|| {
            let shown = node.as_text().unwrap_or_else(|| "this value".into());
            self.err(
                keys,
                node,
                format!(
                    "`{}` = '{shown}' is not a number from 0.0 to 1.0",
                    keys.join(".")
                ),
            )
        })
    }

    fn changefreq(&self, keys: &[&str], node: &N<'_>) -> Result<ChangeFreq> {
        let text = match &node.v {
            V::Str(s) => Ok(s.as_ref()),
            _ => Err("it is not a string".to_string()),
        };
        text.and_then(|s| s.parse::<ChangeFreq>())
            .map_err(|m| self.err(keys, node, format!("`{}`: {m}", keys.join("."))))
    }

    fn bool(&self, keys: &[&str], node: &N<'_>) -> Result<bool> {
        node.as_bool().ok_or_else(|| {
            self.err(
                keys,
                node,
                format!("`{}` must be true or false", keys.join(".")),
            )
        })
    }

    fn text(&self, keys: &[&str], node: &N<'_>) -> Result<String> {
        node.as_text()
            .ok_or_else(|| self.err(keys, node, format!("`{}` must be a string", keys.join("."))))
    }

    fn int(&self, keys: &[&str], node: &N<'_>) -> Result<i64> {
        let n = match &node.v {
            V::Int(i) => Some(*i),
            V::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => Some(*f as i64),
            V::Str(s) => s.trim().parse().ok(),
            _ => None,
        };
        n.ok_or_else(|| {
            self.err(
                keys,
                node,
                format!("`{}` must be a whole number", keys.join(".")),
            )
        })
    }
}

/// True when a YAML or JSON line sets `key` (any case, maybe quoted, maybe a list item).
fn line_has_key(line: &str, key: &str) -> bool {
    let t = line.trim_start().trim_start_matches("- ").trim_start();
    let t = t.strip_prefix(['"', '\'']).unwrap_or(t);
    if t.len() < key.len() || !t.is_char_boundary(key.len()) {
        return false;
    }
    let (head, rest) = t.split_at(key.len());
    if !head.eq_ignore_ascii_case(key) {
        return false;
    }
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    rest.trim_start().starts_with(':')
}

/// Parses the block that `layout` found and reads the fields from it.
fn parse_layout(
    text: &str,
    layout: &Layout,
    path: &Path,
    tz: &SiteTz,
    lenient: bool,
) -> Result<FrontMatter> {
    let Some(format) = layout.format else {
        return Ok(FrontMatter {
            body_line: layout.body_line,
            ..FrontMatter::default()
        });
    };
    let block = &text[layout.block.clone()];
    let root = match format {
        Format::Toml => {
            let table = toml::de::DeTable::parse(block).map_err(|e| {
                let line = e.span().map_or(layout.open_line, |s| {
                    layout.block_line + line_of(block.as_bytes(), s.start.min(block.len())) - 1
                });
                Error::input(
                    path,
                    Some(line),
                    format!("invalid TOML front matter: {}", e.message().trim()),
                )
            })?;
            let at = Some(table.span().start);
            let entries = table.into_inner().into_iter();
            N {
                v: V::Map(
                    entries
                        .map(|(k, v)| (k.into_inner(), from_toml(v)))
                        .collect(),
                ),
                at,
            }
        }
        Format::Yaml => {
            // yaml-rust2 directly (gray_matter's engine, without its deep copies and hash map).
            let docs = yaml_rust2::YamlLoader::load_from_str(block).map_err(|e| {
                let msg = e.to_string();
                let (msg, line) = split_yaml_error(&msg);
                let line = line.map_or(layout.open_line, |l| layout.block_line + l - 1);
                Error::input(
                    path,
                    Some(line),
                    format!("invalid YAML front matter: {msg}"),
                )
            })?;
            docs.into_iter()
                .next()
                .map_or_else(|| N::new(V::Null), from_yaml)
        }
        Format::Json => {
            let value: serde_json::Value = serde_json::from_str(block).map_err(|e| {
                let msg = e.to_string();
                let msg = msg.rfind(" at line ").map_or(msg.as_str(), |p| &msg[..p]);
                Error::input(
                    path,
                    Some(layout.block_line + e.line().max(1) - 1),
                    format!("invalid JSON front matter: {msg} (column {})", e.column()),
                )
            })?;
            from_json(value)
        }
        Format::Org => from_org(block),
    };
    if !matches!(root.v, V::Map(_) | V::Null) {
        return Err(Error::input(
            path,
            Some(layout.open_line),
            format!(
                "the {} front matter is not a table of `key: value` pairs",
                format.name()
            ),
        ));
    }
    let cx = Ctx {
        path,
        block,
        block_line: layout.block_line,
        tz,
        lenient,
        warnings: Default::default(),
    };
    let mut fm = extract(&root, &cx, layout.body_line)?;
    fm.warnings = cx.warnings.into_inner();
    Ok(fm)
}

/// Splits yaml-rust2's "… at byte B line L column C" into the message and the block line.
fn split_yaml_error(msg: &str) -> (String, Option<usize>) {
    let Some(pos) = msg.rfind(" at byte ") else {
        return (msg.to_string(), None);
    };
    let words: Vec<&str> = msg[pos..].split_whitespace().collect();
    let after = |w: &str| {
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| words.get(i + 1))
            .and_then(|x| x.parse::<usize>().ok())
    };
    let text = match after("column") {
        Some(c) => format!("{} (column {c})", &msg[..pos]),
        None => msg[..pos].to_string(),
    };
    (text, after("line").filter(|l| *l > 0))
}

/// Keys whose list values are page settings, never taxonomy terms.
const NOT_TAXONOMIES: &[&str] = &[
    "aliases",
    "outputs",
    "menu",
    "menus",
    "resources",
    "cascade",
    "_build",
    "build",
    "extra",
    "sitemap",
];

/// Date keys seen so far, each group in its precedence order (first found wins).
#[derive(Default)]
struct DateSlots<'n, 'a> {
    updated: [Option<(&'static str, &'n N<'a>)>; 4],
    date: Option<(&'static str, &'n N<'a>)>,
    publish: [Option<(&'static str, &'n N<'a>)>; 3],
    expiry: [Option<(&'static str, &'n N<'a>)>; 2],
}

/// The dates a block sets: updated, date, publish, expiry.
type Dates = [Option<W3cDate>; 4];

impl<'n, 'a> DateSlots<'n, 'a> {
    /// Records a date key (lower-cased); false when `key` is not one.
    fn take(&mut self, key: &str, n: &'n N<'a>) -> bool {
        let slot = match key {
            "updated" => &mut self.updated[0],
            "lastmod" => &mut self.updated[1],
            "last_modified_at" => &mut self.updated[2],
            "modified" => &mut self.updated[3],
            "date" => &mut self.date,
            "publishdate" => &mut self.publish[0],
            "pubdate" => &mut self.publish[1],
            "published" => &mut self.publish[2],
            "expirydate" => &mut self.expiry[0],
            "unpublishdate" => &mut self.expiry[1],
            _ => return false,
        };
        let name = match key {
            "updated" => "updated",
            "lastmod" => "lastmod",
            "last_modified_at" => "last_modified_at",
            "modified" => "modified",
            "date" => "date",
            "publishdate" => "publishDate",
            "pubdate" => "pubdate",
            "published" => "published",
            "expirydate" => "expiryDate",
            _ => "unpublishdate",
        };
        *slot = Some((name, n));
        true
    }

    /// Parses the winning key of each group; only the winner has to be a valid date.
    fn finish(&self, cx: &Ctx<'_>, prefix: Option<&str>) -> Result<Dates> {
        let one = |slots: &[Option<(&'static str, &N<'_>)>]| -> Result<Option<W3cDate>> {
            match slots.iter().flatten().next() {
                None => Ok(None),
                Some((name, n)) => {
                    let keys: Vec<&str> = prefix.into_iter().chain([*name]).collect();
                    cx.date(&keys, n).map(Some)
                }
            }
        };
        Ok([
            one(&self.updated)?,
            one(std::slice::from_ref(&self.date))?,
            one(&self.publish)?,
            one(&self.expiry)?,
        ])
    }
}

/// Sitemap settings of one table: its `priority`, `changefreq`, `noindex`, `sitemap`.
#[derive(Default)]
struct SitemapFields {
    priority: Option<Priority>,
    /// A negative (Hugo "not set") priority where `priority` is `None`.
    priority_off: bool,
    changefreq: Option<ChangeFreq>,
    /// `Some(true)` when the table excludes the page, `Some(false)` when it says to keep it.
    exclude: Option<bool>,
}

/// Blank `priority`/`changefreq` strings count as unset (Hugo omits the element for them).
fn sitemap_fields<'n, 'a>(map: &'n N<'a>, prefix: &[&str], cx: &Ctx<'_>) -> Result<SitemapFields> {
    let keys = |k: &'static str| -> Vec<&str> { prefix.iter().copied().chain([k]).collect() };
    let mut out = SitemapFields::default();
    let map_get = |m: &'n N<'a>, k: &str| m.get(k).filter(|n| !n.is_blank());
    if let Some(n) = map_get(map, "priority") {
        (out.priority, out.priority_off) = cx.priority_lenient(&keys("priority"), n)?;
    }
    if let Some(n) = map_get(map, "changefreq") {
        out.changefreq = cx.changefreq_lenient(&keys("changefreq"), n)?;
    }
    if let Some(n) = map.get("noindex") {
        out.exclude = Some(cx.bool(&keys("noindex"), n)?);
    }
    let Some(sm) = map.get("sitemap") else {
        return Ok(out);
    };
    let sk = keys("sitemap");
    if let V::Map(_) = sm.v {
        let sub = |k: &'static str| -> Vec<&str> { sk.iter().copied().chain([k]).collect() };
        if let Some(n) = sm.get("disable") {
            let disable = cx.bool(&sub("disable"), n)?;
            out.exclude = Some(out.exclude == Some(true) || disable);
        }
        if let Some(n) = map_get(sm, "priority") {
            let (p, off) = cx.priority_lenient(&sub("priority"), n)?;
            // A top-level value, set or "not set", comes first.
            if out.priority.is_none() && !out.priority_off {
                (out.priority, out.priority_off) = (p, off);
            }
        }
        if let Some(n) = map_get(sm, "changefreq") {
            let c = cx.changefreq_lenient(&sub("changefreq"), n)?;
            out.changefreq = out.changefreq.or(c);
        }
    } else {
        let keep = cx.bool(&sk, sm).map_err(|_| {
            cx.err(
                &sk,
                sm,
                "`sitemap` must be `false` or a table such as `{ disable = true }`".into(),
            )
        })?;
        out.exclude = Some(out.exclude == Some(true) || !keep);
    }
    Ok(out)
}

/// Hugo `_build.render`: booleans (and the 0/1 they decode to) map to always/never; any
/// other value falls back to `always`, as Hugo's decoder does.
fn build_render(n: &N<'_>) -> BuildRender {
    match &n.v {
        V::Bool(false) | V::Int(0) => BuildRender::Never,
        V::Str(s) if s.eq_ignore_ascii_case("never") || s.as_ref() == "0" => BuildRender::Never,
        V::Str(s) if s.eq_ignore_ascii_case("link") => BuildRender::Link,
        _ => BuildRender::Always,
    }
}

/// Hugo `_build.list`, decoded the same way as `render`.
fn build_list(n: &N<'_>) -> BuildList {
    match &n.v {
        V::Bool(false) | V::Int(0) => BuildList::Never,
        V::Str(s) if s.eq_ignore_ascii_case("never") || s.as_ref() == "0" => BuildList::Never,
        V::Str(s) if s.eq_ignore_ascii_case("local") => BuildList::Local,
        _ => BuildList::Always,
    }
}

fn build_options(keys: &[&str], n: &N<'_>, cx: &Ctx<'_>) -> Result<BuildOptions> {
    if !matches!(n.v, V::Map(_)) {
        return Err(cx.err(
            keys,
            n,
            format!(
                "`{}` must be a table such as {{ render = \"never\" }}",
                keys.join(".")
            ),
        ));
    }
    Ok(BuildOptions {
        render: n.get("render").map(build_render),
        list: n.get("list").map(build_list),
    })
}

fn cascades(n: &N<'_>, cx: &Ctx<'_>) -> Result<Vec<Cascade>> {
    match &n.v {
        V::Map(_) => Ok(vec![cascade(n, cx)?]),
        V::List(items) => items.iter().map(|item| cascade(item, cx)).collect(),
        _ => Err(cx.err(
            &["cascade"],
            n,
            "`cascade` must be a table or a list of tables".into(),
        )),
    }
}

fn cascade(n: &N<'_>, cx: &Ctx<'_>) -> Result<Cascade> {
    if !matches!(n.v, V::Map(_)) {
        return Err(cx.err(
            &["cascade"],
            n,
            "each `cascade` entry must be a table".into(),
        ));
    }
    let mut c = Cascade::default();
    let mut dates = DateSlots::default();
    let mut published = None;
    for (k, v) in n.entries() {
        let key = k.to_ascii_lowercase();
        match key.as_str() {
            "_target" | "target" => {
                c.target_path = v.get("path").and_then(N::as_text);
                c.target_kind = v.get("kind").and_then(N::as_text);
                c.target_lang = v.get("lang").and_then(N::as_text);
            }
            "draft" => c.draft = Some(cx.bool(&["cascade", "draft"], v)?),
            "headless" => c.headless = Some(cx.bool(&["cascade", "headless"], v)?),
            "_build" | "build" => c.build = build_options(&["cascade", "_build"], v, cx)?,
            "published" if v.as_bool().is_some() => published = v.as_bool(),
            k => {
                dates.take(k, v);
            }
        }
    }
    c.draft = c.draft.or(published.map(|p| !p));
    let [updated, date, publish, expiry] = dates.finish(cx, Some("cascade"))?;
    (c.updated, c.date, c.publish_date, c.expiry_date) = (updated, date, publish, expiry);
    let sf = sitemap_fields(n, &["cascade"], cx)?;
    c.priority = sf.priority;
    c.changefreq = sf.changefreq;
    c.sitemap_exclude = sf.exclude;
    Ok(c)
}

/// Reads every field sitemapgen uses from a parsed block.
fn extract(root: &N<'_>, cx: &Ctx<'_>, body_line: usize) -> Result<FrontMatter> {
    let mut fm = FrontMatter {
        body_line,
        ..FrontMatter::default()
    };
    let mut dates = DateSlots::default();
    let mut published = None;
    let mut build: [Option<&N<'_>>; 2] = [None, None];
    for (k, n) in root.entries() {
        let key = k.to_ascii_lowercase();
        let key = key.as_str();
        if dates.take(key, n) {
            // `published` is Hugo's inverse of `draft` when it is a boolean, a date otherwise.
            if key == "published" {
                if let Some(b) = n.as_bool() {
                    published = Some(b);
                    dates.publish[2] = None;
                }
            }
            continue;
        }
        match key {
            "title" => fm.title = Some(cx.text(&["title"], n)?),
            "slug" => fm.slug = Some(cx.text(&["slug"], n)?),
            "path" => fm.path = Some(cx.text(&["path"], n)?),
            "url" => fm.url = Some(cx.text(&["url"], n)?),
            "translationkey" => fm.translation_key = Some(cx.text(&["translationKey"], n)?),
            "lang" => fm.lang = Some(cx.text(&["lang"], n)?),
            "draft" => fm.draft = Some(cx.bool(&["draft"], n)?),
            "render" => fm.render = Some(cx.bool(&["render"], n)?),
            "headless" => fm.headless = cx.bool(&["headless"], n)?,
            "_build" => build[0] = Some(n),
            "build" => build[1] = Some(n),
            "cascade" => fm.cascade = cascades(n, cx)?,
            "weight" => fm.weight = Some(cx.int(&["weight"], n)?),
            "aliases" => {
                fm.aliases = match (&n.v, n.as_text_list()) {
                    (V::Str(s), _) => vec![s.to_string()],
                    (_, Some(list)) => list,
                    _ => {
                        return Err(cx.err(
                            &["aliases"],
                            n,
                            "`aliases` must be a list of paths".into(),
                        ))
                    }
                }
            }
            "transparent" => fm.transparent = cx.bool(&["transparent"], n)?,
            "paginate_by" => {
                let v = cx.int(&["paginate_by"], n)?;
                fm.paginate_by = Some(u32::try_from(v).map_err(|_| {
                    cx.err(
                        &["paginate_by"],
                        n,
                        "`paginate_by` must be a positive number".into(),
                    )
                })?);
            }
            "paginate_path" => fm.paginate_path = Some(cx.text(&["paginate_path"], n)?),
            "sort_by" => fm.sort_by = Some(cx.text(&["sort_by"], n)?),
            "redirect_to" => fm.redirect_to = Some(cx.text(&["redirect_to"], n)?),
            "taxonomies" if matches!(n.v, V::Map(_)) => {
                for (name, terms) in n.entries() {
                    let list = terms.as_text_list().ok_or_else(|| {
                        cx.err(
                            &["taxonomies", name],
                            terms,
                            format!("`taxonomies.{name}` must be a list of terms"),
                        )
                    })?;
                    fm.taxonomy_table.push((name.to_lowercase(), list));
                }
            }
            k if NOT_TAXONOMIES.contains(&k) => {}
            k => {
                // Which keys are taxonomies depends on the site config: keep every list of
                // strings and let the router pick the declared ones.
                if let Some(list) = n.as_text_list().filter(|l| !l.is_empty()) {
                    fm.taxonomies.push((k.to_string(), list));
                }
            }
        }
    }
    // Hugo: an explicit `draft` wins over `published`.
    fm.draft = fm.draft.or(published.map(|p| !p));
    if let Some((i, n)) = build
        .iter()
        .enumerate()
        .find_map(|(i, b)| b.map(|b| (i, b)))
    {
        let name = if i == 0 { "_build" } else { "build" };
        fm.build = build_options(&[name], n, cx)?;
    }
    let [updated, date, publish, expiry] = dates.finish(cx, None)?;
    (fm.updated, fm.date, fm.publish_date, fm.expiry_date) = (updated, date, publish, expiry);

    let top = sitemap_fields(root, &[], cx)?;
    let extra = match root.get("extra") {
        Some(e) if matches!(e.v, V::Map(_)) => sitemap_fields(e, &["extra"], cx)?,
        _ => SitemapFields::default(),
    };
    fm.priority = top.priority.or(extra.priority);
    fm.priority_off = fm.priority.is_none() && (top.priority_off || extra.priority_off);
    fm.changefreq = top.changefreq.or(extra.changefreq);
    fm.sitemap_exclude = top.exclude == Some(true) || extra.exclude == Some(true);
    fm.taxonomies.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(fm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn parse_ok(text: &str) -> (FrontMatter, usize) {
        parse(text, Path::new("content/p.md"), &SiteTz::Utc).unwrap()
    }

    fn fm(text: &str) -> FrontMatter {
        parse_ok(text).0
    }

    /// The line and message of the error `text` gives.
    fn fails(text: &str) -> (usize, String) {
        match parse(text, Path::new("content/p.md"), &SiteTz::Utc) {
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

    fn date(fm_date: Option<W3cDate>) -> String {
        fm_date.map(|d| d.to_string()).unwrap_or_default()
    }

    #[test]
    fn toml_block_and_body_offset() {
        let text = "+++\ntitle = \"T\"\nslug = \"s\"\n+++\nBody\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.title.as_deref(), Some("T"));
        assert_eq!(f.slug.as_deref(), Some("s"));
        assert_eq!(&text[body..], "Body\n");
        assert_eq!(f.body_line, 5);
    }

    #[test]
    fn yaml_block_closed_by_dashes_or_dots() {
        let (f, body) = parse_ok("---\ntitle: Y\n---\nB");
        assert_eq!((f.title.as_deref(), body, f.body_line), (Some("Y"), 17, 4));
        let text = "---\ntitle: Dots\n...\nBody";
        let (f, body) = parse_ok(text);
        assert_eq!(f.title.as_deref(), Some("Dots"));
        assert_eq!(&text[body..], "Body");
    }

    #[test]
    fn json_objects_multi_line_and_one_line() {
        let text = "{\n  \"title\": \"J\",\n  \"x\": \"}{\\\"\"\n}\nBody.\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.title.as_deref(), Some("J"));
        assert_eq!(&text[body..], "Body.\n");
        assert_eq!(f.body_line, 5);
        let text = "{\"title\": \"One\", \"slug\": \"json-one-line\", \"date\": \"2023-04-04\", \"sitemap\": {\"priority\": 0.9}}\nBody.\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.slug.as_deref(), Some("json-one-line"));
        assert_eq!(f.priority.map(|p| p.to_string()).as_deref(), Some("0.9"));
        assert_eq!(date(f.date), "2023-04-04");
        assert_eq!(&text[body..], "Body.\n");
        assert_eq!(f.body_line, 2);
    }

    #[test]
    fn a_shortcode_at_the_start_is_not_json() {
        let text = "{{< figure src=\"a.png\" >}}\ntext";
        let (f, body) = parse_ok(text);
        assert_eq!(
            f,
            FrontMatter {
                body_line: 1,
                ..FrontMatter::default()
            }
        );
        assert_eq!(body, 0);
    }

    #[test]
    fn bom_and_crlf_are_tolerated() {
        let text = "\u{feff}---\r\ntitle: \"BOM\"\r\nslug: crlf-slug\r\ndate: 2023-04-06\r\n---\r\nBody.\r\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.slug.as_deref(), Some("crlf-slug"));
        assert_eq!(date(f.date), "2023-04-06");
        assert_eq!(&text[body..], "Body.\r\n");
        assert_eq!(f.body_line, 6);
        let text = "\u{feff}+++\r\ntitle = \"x\"\r\n+++  \r\nB";
        let (f, body) = parse_ok(text);
        assert_eq!(f.title.as_deref(), Some("x"));
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
            assert_eq!(
                f,
                FrontMatter {
                    body_line: 1,
                    ..FrontMatter::default()
                },
                "{text:?}"
            );
            assert_eq!(body, 0);
        }
        let (_, body) = parse_ok("\u{feff}plain");
        assert_eq!(body, 3);
    }

    #[test]
    fn empty_blocks_give_defaults() {
        assert_eq!(fm("---\n---\nEmpty YAML.\n").body_line, 3);
        assert_eq!(fm("+++\n+++\n").title, None);
        assert_eq!(fm("{}\n").title, None);
    }

    #[test]
    fn a_second_block_in_the_body_is_body_text() {
        let text =
            "---\ntitle: \"YAML then +++\"\ndate: 2023-04-11\n---\n+++\nnot front matter\n+++\n";
        let (f, body) = parse_ok(text);
        assert_eq!(date(f.date), "2023-04-11");
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

    #[test]
    fn syntax_errors_give_the_line_in_the_file() {
        let (line, msg) = fails("+++\ntitle = \"ok\"\ndate = \n+++\n");
        assert_eq!(line, 3, "{msg}");
        assert!(msg.starts_with("invalid TOML front matter"), "{msg}");
        let (line, msg) = fails("+++\na = 1\nb = 2\nc = \"unterminated\n+++\n");
        assert_eq!(line, 4, "{msg}");
        let (line, msg) = fails("\u{feff}---\ntitle: ok\nslug: [unclosed\nx: 1\n---\n");
        assert!(msg.starts_with("invalid YAML front matter"), "{msg}");
        assert!((3..=5).contains(&line), "line {line}: {msg}");
        let (line, msg) = fails("---\ntitle: ok\n  bad: indent\n---\n");
        assert_eq!(line, 3, "{msg}");
        let (line, msg) = fails("{\n  \"title\": \"x\",\n  \"slug\": nope\n}\n");
        assert_eq!(line, 3, "{msg}");
        assert!(msg.starts_with("invalid JSON front matter"), "{msg}");
        let (line, msg) = fails("---\n- a\n- b\n---\n");
        assert_eq!(line, 1);
        assert!(msg.contains("not a table"), "{msg}");
    }

    #[test]
    fn bad_values_give_the_line_of_their_key() {
        let (line, msg) = fails("+++\ntitle = \"x\"\n\n[extra]\npriority = 1.5\n+++\n");
        assert_eq!(line, 5);
        assert!(msg.contains("extra.priority"), "{msg}");
        let (line, msg) = fails("---\ntitle: x\nsitemap:\n  changefreq: fortnightly\n---\n");
        assert_eq!(line, 4);
        assert!(
            msg.contains("sitemap.changefreq") && msg.contains("fortnightly"),
            "{msg}"
        );
        let (line, msg) = fails("---\ntitle: x\n\"LastMod\": yesterday\n---\n");
        assert_eq!(line, 3);
        assert!(
            msg.contains("lastmod") && msg.contains("yesterday"),
            "{msg}"
        );
        let (line, msg) = fails("{\n\"title\": \"x\",\n\"date\": \"soon\"\n}\n");
        assert_eq!(line, 3);
        assert!(msg.contains("`date`"), "{msg}");
        let (line, _) = fails("+++\ndraft = \"maybe\"\n+++\n");
        assert_eq!(line, 2);
        let (line, _) = fails("+++\n[sitemap]\npriority = \"high\"\n+++\n");
        assert_eq!(line, 3);
        let (line, _) = fails("+++\ntitle = \"x\"\nexpiryDate = 12:00:00\n+++\n");
        assert_eq!(line, 3);
    }

    #[test]
    fn priority_changefreq_and_exclusion_from_every_place() {
        let f = fm("+++\npriority = \"0.3\"\nchangefreq = \"Daily\"\n+++\n");
        assert_eq!(f.priority.map(|p| p.to_string()).as_deref(), Some("0.3"));
        assert_eq!(f.changefreq, Some(ChangeFreq::Daily));
        assert!(!f.sitemap_exclude);
        let f = fm("+++\n[sitemap]\n  changefreq = \"daily\"\n  priority = 0.6\n+++\n");
        assert_eq!(
            (f.priority.map(|p| p.to_string()), f.changefreq),
            (Some("0.6".into()), Some(ChangeFreq::Daily))
        );
        let f = fm("+++\n[extra]\npriority = 1\n[extra.sitemap]\nchangefreq = \"never\"\n+++\n");
        assert_eq!(
            (f.priority.map(|p| p.to_string()), f.changefreq),
            (Some("1.0".into()), Some(ChangeFreq::Never))
        );
        let f =
            fm("+++\npriority = 0.2\n[sitemap]\npriority = 0.9\n[extra]\npriority = 0.7\n+++\n");
        assert_eq!(f.priority.map(|p| p.to_string()).as_deref(), Some("0.2"));
        for excluded in [
            "+++\nsitemap = false\n+++\n",
            "---\nsitemap:\n  disable: true\n---\n",
            "---\nNoIndex: true\n---\n",
            "+++\n[extra]\nnoindex = true\n+++\n",
            "+++\n[extra]\nsitemap = false\n+++\n",
            "+++\n[extra.sitemap]\ndisable = true\n+++\n",
            "{\"sitemap\": {\"disable\": true}}\n",
        ] {
            assert!(fm(excluded).sitemap_exclude, "{excluded}");
        }
        for kept in [
            "+++\nsitemap = true\n+++\n",
            "---\nsitemap:\n  disable: false\n---\n",
            "+++\nnoindex = false\n+++\n",
        ] {
            assert!(!fm(kept).sitemap_exclude, "{kept}");
        }
        assert!(fails("+++\nsitemap = \"no thanks\"\n+++\n")
            .1
            .contains("`sitemap` must be"));
        let f = fm("---\nsitemap:\n  changefreq: \"\"\n  priority: \" \"\n---\n");
        assert_eq!((f.priority, f.changefreq), (None, None));
    }

    #[test]
    fn date_keys_and_their_precedence() {
        let f = fm("---\ndate: 2023-01-30\npublishDate: 2023-02-15\nexpiryDate: 2030-01-01\n---\n");
        assert_eq!(
            (date(f.date), date(f.publish_date), date(f.expiry_date)),
            (
                "2023-01-30".into(),
                "2023-02-15".into(),
                "2030-01-01".into()
            )
        );
        assert_eq!(f.updated, None);
        // updated > lastmod > last_modified_at > modified, whatever order they are written in.
        let f = fm("+++\nmodified = 2020-01-04\nlast_modified_at = 2020-01-03\nlastmod = 2020-01-02\nupdated = 2020-01-01\n+++\n");
        assert_eq!(date(f.updated), "2020-01-01");
        let f = fm("+++\nmodified = 2020-01-04\nlast_modified_at = 2020-01-03\nlastmod = 2020-01-02\n+++\n");
        assert_eq!(date(f.updated), "2020-01-02");
        let f = fm("+++\nmodified = 2020-01-04\nlast_modified_at = 2020-01-03\n+++\n");
        assert_eq!(date(f.updated), "2020-01-03");
        assert_eq!(
            date(fm("---\nmodified: 2023-07-01\n---\n").updated),
            "2023-07-01"
        );
        // Only the winner must parse: a bad alias behind it is never read.
        assert_eq!(
            date(fm("+++\nupdated = 2020-01-01\nmodified = \"junk\"\n+++\n").updated),
            "2020-01-01"
        );
        assert_eq!(
            date(fm("---\npubdate: 2023-01-29\n---\n").publish_date),
            "2023-01-29"
        );
        let f =
            fm("---\npubdate: 2023-01-29\npublishDate: 2023-01-28\npublished: 2023-01-27\n---\n");
        assert_eq!(date(f.publish_date), "2023-01-28");
        assert_eq!(
            date(fm("---\npublished: 2023-01-27\n---\n").publish_date),
            "2023-01-27"
        );
        assert_eq!(
            date(fm("---\nunpublishdate: 2001-01-01\n---\n").expiry_date),
            "2001-01-01"
        );
        assert_eq!(
            date(fm("---\nunpublishdate: 2001-01-01\nexpirydate: 2002-02-02\n---\n").expiry_date),
            "2002-02-02"
        );
    }

    #[test]
    fn keys_are_case_insensitive() {
        let f = fm("---\ntitle: \"camel\"\nDate: 2023-02-02\nLastMod: 2023-08-08\nPublishDate: 2023-01-01\nExpiryDate: 2099-01-01\nSlug: UPPER-Slug-Key\nDRAFT: true\nTranslationKey: k\n---\n");
        assert_eq!(date(f.date), "2023-02-02");
        assert_eq!(date(f.updated), "2023-08-08");
        assert_eq!(date(f.publish_date), "2023-01-01");
        assert_eq!(date(f.expiry_date), "2099-01-01");
        assert_eq!(f.slug.as_deref(), Some("UPPER-Slug-Key"));
        assert_eq!(f.draft, Some(true));
        assert_eq!(f.translation_key.as_deref(), Some("k"));
        let f = fm("+++\nPRIORITY = 0.5\n[SiteMap]\nChangeFreq = \"weekly\"\n+++\n");
        assert_eq!(
            (f.priority.is_some(), f.changefreq),
            (true, Some(ChangeFreq::Weekly))
        );
    }

    /// The date forms of the parity cases zola/11-updated-vs-date, hugo/11-dates and
    /// hugo/12-frontmatter-formats, with what Zola 0.22 and Hugo 0.111 made of them.
    #[test]
    fn parity_date_forms() {
        let cases: &[(&str, &str)] = &[
            // Zola, TOML.
            ("+++\ndate = 2021-01-01\n+++\n", "2021-01-01"),
            (
                "+++\ndate = 2021-04-05T06:07:08+02:00\n+++\n",
                "2021-04-05T06:07:08+02:00",
            ),
            (
                "+++\ndate = 2021-04-05T06:07:08Z\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = 2021-04-05T06:07:08\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = 2021-04-05T06:07:08.123456Z\n+++\n",
                "2021-04-05T06:07:08.123456+00:00",
            ),
            ("+++\ndate = \"2021-06-07\"\n+++\n", "2021-06-07"),
            (
                "+++\ndate = 2021-04-05 06:07:08Z\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = \"2021-04-05t06:07:08z\"\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = \"2021-4-5 6:07:08\"\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            // Hugo, TOML.
            (
                "+++\ndate = 2023-02-10T10:20:30-03:00\n+++\n",
                "2023-02-10T10:20:30-03:00",
            ),
            ("+++\ndate = 2023-02-13\n+++\n", "2023-02-13"),
            (
                "+++\ndate = \"2023-02-14T10:20:30+01:00\"\n+++\n",
                "2023-02-14T10:20:30+01:00",
            ),
            (
                "+++\ndate = 2023-02-15 10:20:30+02:00\n+++\n",
                "2023-02-15T10:20:30+02:00",
            ),
            // Hugo, YAML.
            ("---\ndate: 2023-01-15\n---\n", "2023-01-15"),
            ("---\ndate: \"2023-01-16\"\n---\n", "2023-01-16"),
            (
                "---\ndate: 2023-01-17T10:20:30+05:30\n---\n",
                "2023-01-17T10:20:30+05:30",
            ),
            (
                "---\ndate: 2023-01-18T10:20:30Z\n---\n",
                "2023-01-18T10:20:30+00:00",
            ),
            (
                "---\ndate: 2023-01-19T10:20:30.123456789-08:00\n---\n",
                "2023-01-19T10:20:30.123456789-08:00",
            ),
            (
                "---\ndate: 2023-01-20 10:20:30\n---\n",
                "2023-01-20T10:20:30+00:00",
            ),
            (
                "---\ndate: 2023-01-21T10:20:30\n---\n",
                "2023-01-21T10:20:30+00:00",
            ),
            (
                "---\ndate: \"2023-01-22T10:20:30-0700\"\n---\n",
                "2023-01-22T10:20:30-07:00",
            ),
            (
                "---\ndate: \"Mon, 23 Jan 2023 10:20:30 +0100\"\n---\n",
                "2023-01-23T10:20:30+01:00",
            ),
            (
                "---\ndate: \"Tue, 24 Jan 2023 10:20:30 CET\"\n---\n",
                "2023-01-24T10:20:30+00:00",
            ),
            // Hugo, JSON.
            (
                "{\n  \"date\": \"2023-03-01T10:20:30+02:00\"\n}\n",
                "2023-03-01T10:20:30+02:00",
            ),
            ("{\n  \"date\": \"2023-03-02\"\n}\n", "2023-03-02"),
        ];
        for (text, want) in cases {
            assert_eq!(date(fm(text).date), *want, "{text}");
        }
        // hugo/11-dates: lastmod and publishDate in the forms the case uses.
        let f =
            fm("{\n  \"date\": \"2023-03-02\",\n  \"lastmod\": \"2023-03-03T00:00:00-05:00\"\n}\n");
        assert_eq!(date(f.updated), "2023-03-03T00:00:00-05:00");
        let f = fm("---\npublishDate: 2023-01-26T08:00:00+09:00\n---\n");
        assert_eq!(date(f.publish_date), "2023-01-26T08:00:00+09:00");
        let f = fm("---\ndate: 2023-05-01\nlastmod: 2023-02-01\n---\n");
        assert_eq!(
            (date(f.date), date(f.updated)),
            ("2023-05-01".into(), "2023-02-01".into())
        );
    }

    #[test]
    fn zola_reads_no_dates_from_extra() {
        let f = fm("+++\ntitle = \"date in extra only\"\n[extra]\nlastmod = 2020-01-01\n+++\nx\n");
        assert_eq!((f.updated, f.date), (None, None));
    }

    #[test]
    fn naive_dates_take_the_site_zone() {
        let tz: SiteTz = "Europe/Berlin".parse().unwrap();
        let (f, _) = parse(
            "+++\ndate = 2023-07-01T12:00:00\n+++\n",
            Path::new("p.md"),
            &tz,
        )
        .unwrap();
        assert_eq!(date(f.date), "2023-07-01T12:00:00+02:00");
        let (f, _) = parse(
            "---\ndate: 2023-01-01 12:00:00\n---\n",
            Path::new("p.md"),
            &tz,
        )
        .unwrap();
        assert_eq!(date(f.date), "2023-01-01T12:00:00+01:00");
    }

    #[test]
    fn draft_and_published() {
        assert_eq!(fm("+++\ndraft = true\n+++\n").draft, Some(true));
        assert_eq!(fm("---\ndraft: false\n---\n").draft, Some(false));
        assert_eq!(fm("---\ndraft: \"true\"\n---\n").draft, Some(true));
        assert_eq!(fm("---\ndraft: yes\n---\n").draft, Some(true));
        assert_eq!(fm("---\npublished: false\n---\n").draft, Some(true));
        assert_eq!(fm("---\npublished: true\n---\n").draft, Some(false));
        let f = fm("---\npublished: false\n---\n");
        assert_eq!(f.publish_date, None);
        // Hugo: `draft` wins when both are set.
        assert_eq!(
            fm("---\npublished: false\ndraft: false\n---\n").draft,
            Some(false)
        );
        assert_eq!(fm("---\ntitle: x\n---\n").draft, None);
    }

    #[test]
    fn zola_render_and_section_keys() {
        let f = fm("+++\nrender = false\ntransparent = true\npaginate_by = 5\npaginate_path = \"p\"\nsort_by = \"date\"\nredirect_to = \"/x/\"\nweight = 3\n+++\n");
        assert_eq!(f.render, Some(false));
        assert!(f.transparent);
        assert_eq!(f.paginate_by, Some(5));
        assert_eq!(f.paginate_path.as_deref(), Some("p"));
        assert_eq!(f.sort_by.as_deref(), Some("date"));
        assert_eq!(f.redirect_to.as_deref(), Some("/x/"));
        assert_eq!(f.weight, Some(3));
        assert_eq!(fails("+++\npaginate_by = -1\n+++\n").0, 2);
        assert_eq!(fails("+++\nweight = \"heavy\"\n+++\n").0, 2);
    }

    fn lenient(text: &str) -> FrontMatter {
        parse_with(text, Path::new("content/p.md"), &SiteTz::Utc, true)
            .unwrap()
            .0
    }

    #[test]
    fn lenient_mode_drops_what_hugo_accepts_and_the_protocol_forbids() {
        let f = lenient(
            "---\ntitle: x\nsitemap:\n  changefreq: every-now-and-then\n  priority: -1\n---\n",
        );
        assert_eq!((f.priority, f.changefreq), (None, None));
        // -1 is Hugo's "not set": no warning, and no priority at all for the page.
        assert!(f.priority_off);
        assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
        assert!(
            f.warnings[0].starts_with("content/p.md:4: ")
                && f.warnings[0].contains("every-now-and-then"),
            "{:?}",
            f.warnings
        );
        let f = lenient("+++\n[sitemap]\npriority = 1.5\nchangefreq = \"weekly\"\n+++\n");
        assert_eq!((f.priority, f.priority_off), (None, false));
        assert_eq!(f.changefreq, Some(ChangeFreq::Weekly));
        assert!(
            f.warnings[0].contains("content/p.md:3:"),
            "{:?}",
            f.warnings
        );
        // Valid values are kept and give no warning; a non-number is still an error.
        let f = lenient("---\nsitemap:\n  priority: 0.4\n---\n");
        assert_eq!(f.priority.map(|p| p.to_string()).as_deref(), Some("0.4"));
        assert!(f.warnings.is_empty());
        assert!(parse_with(
            "---\nsitemap:\n  priority: high\n---\n",
            Path::new("p.md"),
            &SiteTz::Utc,
            true
        )
        .is_err());
        // Strict mode (Zola, plain) rejects both.
        fails("---\nsitemap:\n  priority: -1\n---\n");
        fails("---\nsitemap:\n  changefreq: every-now-and-then\n---\n");
    }

    #[test]
    fn org_mode_front_matter() {
        let text = "#+TITLE: Org mode\n#+SLUG: org-slug\n#+DATE: 2023-04-08\n#+tags[]: a b\n#+DRAFT: true\nBody in org.\n";
        let (f, body) = parse_ok(text);
        assert_eq!(f.title.as_deref(), Some("Org mode"));
        assert_eq!(f.slug.as_deref(), Some("org-slug"));
        assert_eq!(date(f.date), "2023-04-08");
        assert_eq!(f.draft, Some(true));
        assert_eq!(
            f.taxonomies,
            vec![("tags".to_string(), vec!["a".to_string(), "b".to_string()])]
        );
        assert_eq!(&text[body..], "Body in org.\n");
        assert_eq!(f.body_line, 6);
        // A Markdown heading is not Org front matter.
        let (f, body) = parse_ok("# Title\nText\n");
        assert_eq!((f.title, body), (None, 0));
        // A bad value names its line.
        let (line, _) = fails("#+TITLE: x\n#+DATE: not a date\n");
        assert_eq!(line, 2);
    }

    #[test]
    fn hugo_headless_and_build_options() {
        assert!(fm("---\nheadless: true\n---\n").headless);
        let f = fm(
            "+++\n[_build]\nrender = \"never\"\nlist = \"local\"\npublishResources = false\n+++\n",
        );
        assert_eq!(
            f.build,
            BuildOptions {
                render: Some(BuildRender::Never),
                list: Some(BuildList::Local)
            }
        );
        let f = fm("---\nbuild:\n  render: link\n  list: never\n---\n");
        assert_eq!(
            f.build,
            BuildOptions {
                render: Some(BuildRender::Link),
                list: Some(BuildList::Never)
            }
        );
        let f = fm("+++\n[_build]\nrender = false\nlist = true\n+++\n");
        assert_eq!(
            f.build,
            BuildOptions {
                render: Some(BuildRender::Never),
                list: Some(BuildList::Always)
            }
        );
        // Hugo's decoder treats unknown values as the default.
        let f = fm("+++\n[_build]\nrender = \"sometimes\"\n+++\n");
        assert_eq!(f.build.render, Some(BuildRender::Always));
        assert_eq!(f.build.list, None);
        assert_eq!(fails("+++\n_build = \"never\"\n+++\n").0, 2);
    }

    #[test]
    fn terms_pack_any_text_and_read_back_in_order() {
        let taxonomies = vec![
            ("authors".to_string(), vec![]),
            (
                "categories".to_string(),
                vec!["12:x".to_string(), "a;b".to_string(), "".to_string()],
            ),
            (
                "tags".to_string(),
                vec!["Rust".to_string(), "日本".to_string()],
            ),
        ];
        let table = vec![("tags".to_string(), vec!["zola".to_string()])];
        let packed = Terms::pack(&taxonomies, &table);
        let t = Terms::from_packed(&packed);
        let read: Vec<(&str, bool, Vec<&str>)> = t
            .iter()
            .map(|x| (x.name, x.from_table, x.terms.collect()))
            .collect();
        assert_eq!(
            read,
            vec![
                ("authors", false, vec![]),
                ("categories", false, vec!["12:x", "a;b", ""]),
                ("tags", false, vec!["Rust", "日本"]),
                ("tags", true, vec!["zola"]),
            ]
        );
        // One name in both places: each generator finds its own.
        let list: Vec<&str> = t.get("tags", false).unwrap().terms.collect();
        let tab: Vec<&str> = t.get("tags", true).unwrap().terms.collect();
        assert_eq!((list, tab), (vec!["Rust", "日本"], vec!["zola"]));
        assert!(t.get("series", false).is_none());
        assert!(t.get("categories", true).is_none());
        assert_eq!(Terms::pack(&[], &[]), "");
        assert_eq!(Terms::from_packed("").iter().count(), 0);
    }

    #[test]
    fn page_meta_boxes_only_the_rarer_fields() {
        let plain = fm("+++\ntitle = \"T\"\ndate = 2024-01-02\nweight = 3\n[taxonomies]\ntags = [\"a\"]\n+++\n");
        let packed = Terms::pack(&plain.taxonomies, &plain.taxonomy_table);
        let terms = Terms::from_packed(&packed);
        assert!(terms.get("tags", true).is_some() && terms.get("tags", false).is_none());
        let m = PageMeta::new(plain, false);
        assert!(m.more.is_none(), "{m:?}");
        assert!(m.has_title() && m.has_weight());
        assert_eq!(m.date, W3cDate::parse("2024-01-02", &SiteTz::Utc));
        assert_eq!(m.more().title, None);

        let section = fm("+++\ntitle = \"T\"\npaginate_by = 5\nsort_by = \"date\"\n+++\n");
        let m = PageMeta::new(section.clone(), true);
        assert_eq!(m.more().paginate_by, Some(5));
        assert_eq!(m.more().sort_by.as_deref(), Some("date"));
        assert_eq!(m.more().title.as_deref(), Some("T"));
        assert_eq!(PageMeta::new(section, false).more().title, None);
    }

    #[test]
    fn page_meta_keeps_every_yes_no_field_apart() {
        let tri = [None, Some(false), Some(true)];
        for (draft, render) in tri.iter().flat_map(|d| tri.iter().map(move |r| (*d, *r))) {
            for bits in 0..16u8 {
                let on = |k: u8| bits & (1 << k) != 0;
                let f = FrontMatter {
                    draft,
                    render,
                    priority_off: on(0),
                    sitemap_exclude: on(1),
                    title: on(2).then(|| "t".to_string()),
                    weight: on(3).then_some(1),
                    ..Default::default()
                };
                let m = PageMeta::from(f);
                let got = (
                    m.draft(),
                    m.render(),
                    m.priority_off(),
                    m.sitemap_exclude(),
                    m.has_title(),
                    m.has_weight(),
                );
                assert_eq!(got, (draft, render, on(0), on(1), on(2), on(3)));
            }
        }
        assert!(std::mem::size_of::<PageMeta>() <= 64);
    }

    #[test]
    fn cascade_as_table_or_list() {
        let f = fm("+++\n[cascade]\ndraft = true\n[cascade._target]\npath = \"/blog/**\"\nkind = \"page\"\nlang = \"en\"\n+++\n");
        assert_eq!(f.cascade.len(), 1);
        let c = &f.cascade[0];
        assert_eq!(c.draft, Some(true));
        assert_eq!(c.target_path.as_deref(), Some("/blog/**"));
        assert_eq!(c.target_kind.as_deref(), Some("page"));
        assert_eq!(c.target_lang.as_deref(), Some("en"));
        let f = fm("---\ncascade:\n  - _build:\n      render: never\n      list: never\n    _target:\n      kind: section\n  - headless: true\n    sitemap:\n      disable: true\n      priority: 0.1\n    changefreq: monthly\n    expiryDate: 2000-01-01\n    lastmod: 2022-02-02\n    publishDate: 2099-01-01\n    date: 2021-01-01\n---\n");
        assert_eq!(f.cascade.len(), 2);
        assert_eq!(f.cascade[0].build.render, Some(BuildRender::Never));
        assert_eq!(f.cascade[0].build.list, Some(BuildList::Never));
        assert_eq!(f.cascade[0].target_kind.as_deref(), Some("section"));
        let c = &f.cascade[1];
        assert_eq!(c.headless, Some(true));
        assert_eq!(c.sitemap_exclude, Some(true));
        assert_eq!(c.priority.map(|p| p.to_string()).as_deref(), Some("0.1"));
        assert_eq!(c.changefreq, Some(ChangeFreq::Monthly));
        assert_eq!(
            (date(c.expiry_date), date(c.updated)),
            ("2000-01-01".into(), "2022-02-02".into())
        );
        assert_eq!(
            (date(c.publish_date), date(c.date)),
            ("2099-01-01".into(), "2021-01-01".into())
        );
        // The page's own fields are untouched by its cascade.
        assert!(!f.headless);
        let (line, msg) = fails("---\ntitle: x\ncascade:\n  lastmod: never\n---\n");
        assert_eq!(line, 4);
        assert!(msg.contains("cascade.lastmod"), "{msg}");
        assert_eq!(fails("+++\ncascade = 3\n+++\n").0, 2);
    }

    #[test]
    fn routing_keys_and_aliases() {
        let f = fm("+++\nslug = \"s\"\npath = \"/p/\"\nurl = \"/u/\"\nlang = \"fr\"\naliases = [\"/a/\", \"/b/\"]\n+++\n");
        assert_eq!(
            (f.slug.as_deref(), f.path.as_deref(), f.url.as_deref()),
            (Some("s"), Some("/p/"), Some("/u/"))
        );
        assert_eq!(f.lang.as_deref(), Some("fr"));
        assert_eq!(f.aliases, ["/a/", "/b/"]);
        assert_eq!(fm("---\naliases: /one/\n---\n").aliases, ["/one/"]);
        assert_eq!(fm("---\nslug: 2023\n---\n").slug.as_deref(), Some("2023"));
        assert_eq!(fails("+++\n[slug]\na = 1\n+++\n").0, 2);
        assert_eq!(fails("+++\naliases = [{ a = 1 }]\n+++\n").0, 2);
    }

    #[test]
    fn taxonomies_from_zola_table_and_top_level_lists() {
        let f = fm("+++\ntags = [\"top\"]\n[taxonomies]\nTags = [\"Rust\", \"web\"]\ncategories = [\"dev\"]\n+++\n");
        assert_eq!(
            f.taxonomy_table,
            vec![
                (
                    "tags".to_string(),
                    vec!["Rust".to_string(), "web".to_string()]
                ),
                ("categories".to_string(), vec!["dev".to_string()]),
            ]
        );
        assert_eq!(
            f.taxonomies,
            vec![("tags".to_string(), vec!["top".to_string()])]
        );
        let f = fm("---\ntags: [b, a]\nSeries: [\"S1\"]\naliases: [\"/x/\"]\noutputs: [html]\nempty: []\nnumbers: [2023]\nmixed: [a, {b: 1}]\n---\n");
        let names: Vec<&str> = f.taxonomies.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["numbers", "series", "tags"]);
        assert!(f.taxonomy_table.is_empty());
        assert_eq!(f.taxonomies[2].1, ["b", "a"]);
        assert_eq!(f.taxonomies[0].1, ["2023"]);
        assert_eq!(fails("+++\n[taxonomies]\ntags = \"one\"\n+++\n").0, 3);
    }

    #[test]
    fn toml_duplicate_keys_are_errors() {
        let (line, msg) = fails("+++\ntitle = \"a\"\ntitle = \"b\"\n+++\n");
        assert_eq!(line, 3, "{msg}");
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
        let (f, body) = read(&p, &SiteTz::Utc, false).unwrap();
        assert_eq!((f.title.as_deref(), body), (Some("R"), None));
        let (f, body) = read(&p, &SiteTz::Utc, true).unwrap();
        assert_eq!(f.body_line, 4);
        assert_eq!(body.as_deref(), Some("Body \u{fc}\r\n"));
        let p = write(dir.path(), "b.md", b"no front matter");
        let (f, body) = read(&p, &SiteTz::Utc, true).unwrap();
        assert_eq!((f.body_line, body.as_deref()), (1, Some("no front matter")));
        assert!(matches!(
            read(&dir.path().join("missing.md"), &SiteTz::Utc, false),
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
        let (f, _) = read(&p, &SiteTz::Utc, false).unwrap();
        assert_eq!(date(f.updated), "2024-02-03");
        assert_eq!(f.body_line, 3005);
        match read(&p, &SiteTz::Utc, true) {
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
            read(&p, &SiteTz::Utc, false),
            Err(Error::Input { line: Some(2), .. })
        ));
        let p = write(dir.path(), "s.md", b"---\r\na: 1\r\nb: [\r\n---\r\n");
        match read(&p, &SiteTz::Utc, false) {
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
