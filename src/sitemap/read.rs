//! Reading sitemap files back, streaming: the one reader of `<urlset>` and `<sitemapindex>`
//! files (plain or gzip), for the writer's stale-file detection, `validate` and `check`.
//!
//! Two layers:
//! - `Tokens`: quick-xml over a `Counter`, which gives the line of every event without
//!   keeping any text; `validate`'s checker works on these events.
//! - [`Sitemap`]: reads up to the root element, then yields each entry's `<loc>` and
//!   `<lastmod>` with the line of its `<loc>`; memory stays at one entry whatever the size.

use flate2::read::MultiGzDecoder;
use quick_xml::events::{BytesStart, Event};
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// The first two bytes of every gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Which of the two sitemap formats a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SitemapKind {
    /// `<urlset>`: a list of pages.
    UrlSet,
    /// `<sitemapindex>`: a list of sitemaps.
    SitemapIndex,
}

/// How a gzip file is told from a plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gzip {
    /// Its name ends in `.gz` (how the writer names what it compresses).
    ByName,
    /// It starts with the gzip magic bytes, whatever its name.
    ByMagic,
    /// Either: the name ends in `.gz` (any case) or the content starts with the magic.
    ByNameOrMagic,
}

/// A file opened for reading: its content, decompressed when it is gzip.
pub struct Source {
    /// The content, as XML text.
    pub input: Box<dyn Read + Send>,
    /// True when the file is gzip.
    pub gzip: bool,
}

/// Opens the sitemap file at `path`, decompressing it when `gzip` says it is compressed:
/// a regular file only, opened without blocking (see [`crate::vocab::fsread`]).
pub fn open(path: &Path, gzip: Gzip) -> io::Result<Source> {
    source(path, crate::vocab::fsread::open(path)?, gzip)
}

/// Opens `path` as [`open`] does, but whatever it is: for a file the user names on the
/// command line (`validate <(zcat sitemap.xml.gz)` reads a pipe), read with a bound by its
/// caller.
pub fn open_named(path: &Path, gzip: Gzip) -> io::Result<Source> {
    source(path, File::open(path)?, gzip)
}

/// `file` (opened from `path`) as a [`Source`].
fn source(path: &Path, mut file: File, gzip: Gzip) -> io::Result<Source> {
    let ext = path.extension();
    let (gz, raw): (bool, Box<dyn Read + Send>) = match gzip {
        Gzip::ByName => (ext.is_some_and(|e| e == "gz"), Box::new(file)),
        Gzip::ByMagic | Gzip::ByNameOrMagic => {
            let mut magic = [0u8; 2];
            let got = read_up_to(&mut file, &mut magic)?;
            let by_name =
                gzip == Gzip::ByNameOrMagic && ext.is_some_and(|e| e.eq_ignore_ascii_case("gz"));
            let head = io::Cursor::new(magic[..got].to_vec());
            (
                by_name || magic[..got] == GZIP_MAGIC,
                Box::new(head.chain(file)),
            )
        }
    };
    let input: Box<dyn Read + Send> = if gz {
        Box::new(MultiGzDecoder::new(raw))
    } else {
        raw
    };
    Ok(Source { input, gzip: gz })
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
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

/// Why a [`Counter`] stopped serving bytes (see [`Counter::strict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A byte sequence that is not an XML character: what it is (`U+0001`, `invalid UTF-8`).
    BadChar(String),
    /// The stream holds more than the byte limit.
    TooBig,
    /// One markup event (tag, comment, CDATA, PI, doctype, reference) is longer than its limit.
    TooLong,
}

/// A buffered reader that counts the newlines and bytes quick-xml consumes, which gives the
/// line of every event without keeping any of the text.
///
/// In strict mode ([`Counter::strict`]) it also checks every byte is part of an XML character
/// (UTF-8, no control characters, no U+FFFE/U+FFFF), and serves no byte past the first bad
/// one, past a total byte limit or past a per-event limit: reading there fails, and
/// [`Counter::stopped`] says why.
pub(crate) struct Counter<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    cap: usize,
    /// Newlines in everything consumed before `buf[counted]`.
    newlines: usize,
    /// Newlines are counted in bulk, once per event, not on every small `consume`.
    counted: usize,
    bytes: u64,
    strict: bool,
    /// Bytes of an incomplete UTF-8 character at the end of `buf`, checked with the next read.
    carry: usize,
    /// Index in `buf` of the first byte that is not part of an XML character, and what it is.
    bad: Option<(usize, String)>,
    /// Most bytes served in all.
    limit: u64,
    /// `bytes` at which the current event's limit is reached (see [`Counter::set_event_limit`]).
    event_end: u64,
    /// Index in `buf` up to which bytes may be served now: `cap`, or less at a bad byte or a
    /// limit (both count in bytes consumed, so the index stays put as `pos` advances).
    end: usize,
    stopped: Option<Stop>,
}

impl<R: Read> Counter<R> {
    /// A counter over `inner`, reading 64 KiB at a time.
    pub(crate) fn new(inner: R) -> Self {
        Counter {
            inner,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            pos: 0,
            cap: 0,
            newlines: 0,
            counted: 0,
            bytes: 0,
            strict: false,
            carry: 0,
            bad: None,
            limit: u64::MAX,
            event_end: u64::MAX,
            end: 0,
            stopped: None,
        }
    }

    /// A counter that checks characters and serves at most `limit` bytes (see the type docs).
    pub(crate) fn strict(inner: R, limit: u64) -> Self {
        Counter {
            strict: true,
            limit,
            ..Counter::new(inner)
        }
    }

    /// A counter that serves at most `limit` bytes, without checking characters.
    pub(crate) fn capped(inner: R, limit: u64) -> Self {
        Counter {
            limit,
            ..Counter::new(inner)
        }
    }

    /// Serves at most `n` more bytes (`u64::MAX`: no limit) before failing with [`Stop::TooLong`].
    pub(crate) fn set_event_limit(&mut self, n: u64) {
        self.event_end = self.bytes.saturating_add(n);
        self.update_end();
    }

    /// Why reading failed, when the counter itself made it fail.
    pub(crate) fn stopped(&self) -> Option<&Stop> {
        self.stopped.as_ref()
    }

    /// Newlines consumed so far.
    pub(crate) fn newlines(&mut self) -> usize {
        self.newlines += memchr::memchr_iter(b'\n', &self.buf[self.counted..self.pos]).count();
        self.counted = self.pos;
        self.newlines
    }

    /// Bytes consumed so far.
    pub(crate) fn consumed(&self) -> u64 {
        self.bytes
    }

    /// Buffers at least `n` bytes (fewer only at the end of the stream), for looking ahead.
    pub(crate) fn fill_min(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.pos >= self.cap {
            self.refill()?;
        }
        while self.cap - self.pos < n && self.cap < self.buf.len() {
            match self.inner.read(&mut self.buf[self.cap..]) {
                Ok(0) => break,
                Ok(k) => {
                    let from = self.cap - self.carry;
                    self.cap += k;
                    self.scan(from);
                    self.update_end();
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(&self.buf[self.pos..self.cap])
    }

    /// Reads (without parsing or checking characters) to the end of the stream or the byte
    /// limit; returns the bytes consumed in all.
    pub(crate) fn drain(&mut self) -> io::Result<u64> {
        (self.strict, self.bad, self.event_end) = (false, None, u64::MAX);
        self.update_end();
        loop {
            let got = self.fill_buf().map(|b| b.len());
            let n = match got {
                Ok(n) => n,
                Err(_) if self.stopped == Some(Stop::TooBig) => return Ok(self.bytes),
                Err(e) => return Err(e),
            };
            if n == 0 {
                return Ok(self.bytes);
            }
            self.consume(n);
        }
    }

    /// Reads the next block into `buf`, keeping an incomplete trailing character in front.
    fn refill(&mut self) -> io::Result<()> {
        self.newlines();
        let keep = self.carry.min(self.cap);
        self.buf.copy_within(self.cap - keep..self.cap, 0);
        let n = loop {
            match self.inner.read(&mut self.buf[keep..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        // The kept bytes were served already: they are scanned again, not served again.
        (self.cap, self.pos, self.counted, self.carry) = (keep + n, keep, keep, 0);
        if n == 0 {
            self.cap = keep;
            if keep > 0 && self.strict && self.bad.is_none() {
                self.bad = Some((keep, "an incomplete UTF-8 sequence at the end".into()));
            }
        } else {
            self.scan(0);
        }
        self.update_end();
        Ok(())
    }

    /// Checks `buf[from..cap]` holds XML characters (strict mode), noting the first bad byte
    /// and any incomplete character at the end.
    fn scan(&mut self, from: usize) {
        self.carry = 0;
        if !self.strict || self.bad.is_some() {
            return;
        }
        let bytes = &self.buf[from..self.cap];
        let (valid, err) = match std::str::from_utf8(bytes) {
            Ok(_) => (bytes.len(), None),
            Err(e) => (e.valid_up_to(), Some(e.error_len())),
        };
        // A bad character that began in bytes already served (the kept start of one cut by
        // the buffer's end) stops reading where serving stands.
        let at = |i: usize| (from + i).max(self.pos);
        if let Some((i, what)) = first_non_xml_char(&bytes[..valid]) {
            self.bad = Some((at(i), what));
            return;
        }
        match err {
            None => {}
            Some(None) => self.carry = bytes.len() - valid,
            Some(Some(_)) => {
                let what = format!("invalid UTF-8 (byte 0x{:02X})", bytes[valid]);
                self.bad = Some((at(valid), what));
            }
        }
    }

    /// Sets `end` after `buf`, `bad` or a limit changed.
    fn update_end(&mut self) {
        let mut end = self.cap;
        if let Some((b, _)) = &self.bad {
            end = end.min(*b);
        }
        let left = self.limit.min(self.event_end).saturating_sub(self.bytes);
        self.end = end.min(
            self.pos
                .saturating_add(usize::try_from(left).unwrap_or(usize::MAX)),
        );
    }
}

/// The first code point in `s` (valid UTF-8) that XML 1.0 does not allow (`Char`): a control
/// character other than tab, LF and CR, or U+FFFE / U+FFFF; its index and name.
fn first_non_xml_char(s: &[u8]) -> Option<(usize, String)> {
    // Blocks with none of the suspect bytes are the rule: test them branch-free.
    let suspect = |b: u8| (b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') || b == 0xEF;
    let mut base = 0;
    for block in s.chunks(64) {
        if block.iter().fold(false, |acc, &b| acc | suspect(b)) {
            for (i, &b) in block.iter().enumerate() {
                let at = base + i;
                if b < 0x20 && suspect(b) {
                    return Some((at, format!("the control character U+{b:04X}")));
                }
                if b == 0xEF
                    && s.get(at + 1) == Some(&0xBF)
                    && let Some(&last @ (0xBE | 0xBF)) = s.get(at + 2)
                {
                    let c = if last == 0xBE { "FFFE" } else { "FFFF" };
                    return Some((at, format!("the non-character U+{c}")));
                }
            }
        }
        base += block.len();
    }
    None
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
            self.refill()?;
        }
        let end = self.end;
        if end == self.pos && (self.pos < self.cap || self.bad.is_some()) {
            let stop = match &self.bad {
                Some((b, what)) if *b == self.pos => Stop::BadChar(what.clone()),
                _ if self.bytes >= self.limit => Stop::TooBig,
                _ => Stop::TooLong,
            };
            self.stopped = Some(stop);
            return Err(io::Error::other("reading stopped"));
        }
        Ok(&self.buf[self.pos..end])
    }

    fn consume(&mut self, amt: usize) {
        let end = (self.pos + amt).min(self.end);
        self.bytes += (end - self.pos) as u64;
        self.pos = end;
    }
}

/// quick-xml over a [`Counter`]: XML events, each with the line it starts on.
pub(crate) struct Tokens<R> {
    xml: quick_xml::Reader<Counter<R>>,
}

impl<R: Read> Tokens<R> {
    /// Events read from `counter`, from where it stands.
    pub(crate) fn new(counter: Counter<R>) -> Self {
        Tokens {
            xml: quick_xml::Reader::from_reader(counter),
        }
    }

    /// The next event and the 1-based line it starts on.
    pub(crate) fn next<'b>(
        &mut self,
        buf: &'b mut Vec<u8>,
    ) -> quick_xml::Result<(Event<'b>, usize)> {
        let ev = self.xml.read_event_into(buf)?;
        // The reader stands just past the event: step back over the event's own newlines
        // to the line it starts on.
        let line = self.line() - newlines_in(&ev);
        Ok((ev, line))
    }

    /// The next markup event, once [`Tokens::text`] has taken the text before it, and the line
    /// it starts on; fails with [`Stop::TooLong`] past `limit` bytes of it.
    pub(crate) fn next_limited<'b>(
        &mut self,
        buf: &'b mut Vec<u8>,
        limit: u64,
    ) -> quick_xml::Result<(Event<'b>, usize)> {
        // No text is left before the event: the reader stands on its first byte.
        let line = self.line();
        self.xml.get_mut().set_event_limit(limit);
        let ev = self.xml.read_event_into(buf)?;
        Ok((ev, line))
    }

    /// Streams the text that stands before the next markup (`<`) or reference (`&`), keeping
    /// none of it: `sink` gets each piece with the line it starts on, and returns false to stop
    /// early (the rest stays unread). Quick-xml then sees no text, only markup.
    pub(crate) fn text(&mut self, mut sink: impl FnMut(&[u8], usize) -> bool) -> io::Result<()> {
        let counter = self.xml.get_mut();
        counter.set_event_limit(u64::MAX);
        loop {
            let line = counter.newlines() + 1;
            let avail = counter.fill_buf()?;
            if avail.is_empty() {
                return Ok(());
            }
            let n = memchr::memchr2(b'<', b'&', avail).unwrap_or(avail.len());
            let ends = n < avail.len();
            let go_on = n == 0 || sink(&avail[..n], line);
            counter.consume(n);
            if !go_on || ends {
                return Ok(());
            }
        }
    }

    /// Why the counter made reading fail, when it did (see [`Counter::strict`]).
    pub(crate) fn stopped(&self) -> Option<&Stop> {
        self.xml.get_ref().stopped()
    }

    /// The 1-based line the reader stands on.
    pub(crate) fn line(&mut self) -> usize {
        self.xml.get_mut().newlines() + 1
    }

    /// Bytes consumed so far.
    pub(crate) fn consumed(&self) -> u64 {
        self.xml.get_ref().consumed()
    }

    /// quick-xml's settings, to change between events.
    pub(crate) fn config_mut(&mut self) -> &mut quick_xml::reader::Config {
        self.xml.config_mut()
    }

    /// The counter back, standing where parsing stopped.
    pub(crate) fn into_counter(self) -> Counter<R> {
        self.xml.into_inner()
    }
}

/// Newlines inside an event's own bytes.
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
    memchr::memchr_iter(b'\n', bytes).count()
}

/// XML whitespace (space, tab, CR, LF).
pub(crate) fn is_xml_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// The `xmlns` an element declares for its own prefix (`xmlns:sm` for `<sm:urlset>`), when
/// it declares one and it is not empty.
pub(crate) fn own_namespace(e: &BytesStart<'_>) -> Option<Vec<u8>> {
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

/// Why a file could not be read as a sitemap.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Reading or decompressing failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The XML is not well-formed, or ends early.
    #[error("line {line}: not well-formed XML: {message}")]
    Xml {
        /// 1-based line where reading stopped.
        line: usize,
        /// What quick-xml (or the reader) found.
        message: String,
    },
    /// The first element is not `<urlset>` or `<sitemapindex>`, or text comes before it.
    #[error("not a sitemap: the file does not start with <urlset> or <sitemapindex>")]
    NotSitemap,
}

/// What a sitemap file's root element says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// `<urlset>` or `<sitemapindex>`, by local name.
    pub kind: SitemapKind,
    /// The prefix of the root's name (`sm` for `<sm:urlset>`), when it has one.
    pub prefix: Option<Vec<u8>>,
    /// True for a self-closing root (`<urlset/>`), which holds no entries.
    pub empty: bool,
    /// The namespace the root declares for its own prefix (see `own_namespace`).
    pub namespace: Option<Vec<u8>>,
}

impl Root {
    /// True for the form every generator writes: an unprefixed root with children, declaring
    /// the sitemaps.org namespace as the default.
    pub fn is_standard(&self) -> bool {
        self.prefix.is_none()
            && !self.empty
            && self.namespace.as_deref() == Some(crate::vocab::protocol::SITEMAP_NS.as_bytes())
    }
}

/// One `<url>` of a sitemap or `<sitemap>` of an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The `<loc>` text, references resolved, XML whitespace trimmed (empty when missing).
    pub loc: String,
    /// The `<lastmod>` text, trimmed the same way, when there is one.
    pub lastmod: Option<String>,
    /// 1-based line of the `<loc>` (of the entry when it has none).
    pub line: usize,
    /// True when the `<loc>` is plain text: no entity or character reference, no CDATA.
    pub verbatim: bool,
}

/// A sitemap or index read as a stream of [`Entry`]s (see the module docs).
///
/// Entries are the root's children named `url` or `sitemap`, and fields their children named
/// `loc` and `lastmod`, all with the root's prefix; everything else is skipped. The iterator
/// ends with the root element, or after yielding the first error.
pub struct Sitemap<R> {
    tokens: Tokens<R>,
    root: Root,
    buf: Vec<u8>,
    done: bool,
}

impl Sitemap<Box<dyn Read + Send>> {
    /// Opens `path` (see [`open`]) and reads up to its root element.
    pub fn open(path: &Path, gzip: Gzip) -> Result<Self, ReadError> {
        Sitemap::new(open(path, gzip)?.input)
    }
}

impl Sitemap<Box<dyn Read + Send>> {
    /// Reads a stream whose name says nothing (a download): gzip when it starts with the
    /// gzip magic bytes.
    pub fn from_stream(mut input: Box<dyn Read + Send>) -> Result<Self, ReadError> {
        let mut magic = [0u8; 2];
        let got = read_up_to(&mut input, &mut magic)?;
        let raw: Box<dyn Read + Send> =
            Box::new(io::Cursor::new(magic[..got].to_vec()).chain(input));
        if magic[..got] == GZIP_MAGIC {
            Sitemap::new(Box::new(MultiGzDecoder::new(raw)))
        } else {
            Sitemap::new(raw)
        }
    }
}

impl<'a> Sitemap<Box<dyn Read + 'a>> {
    /// Reads a file held in memory (gzip when it starts with the gzip magic bytes).
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, ReadError> {
        let input: Box<dyn Read + 'a> = if bytes.starts_with(&GZIP_MAGIC) {
            Box::new(MultiGzDecoder::new(bytes))
        } else {
            Box::new(bytes)
        };
        Sitemap::new(input)
    }
}

impl<R: Read> Sitemap<R> {
    /// Reads `input` up to its root element: only the XML declaration, processing
    /// instructions, comments, a doctype and whitespace may come before it.
    pub fn new(input: R) -> Result<Self, ReadError> {
        // No file we write passes the protocol's size: reading stops a little past it, so a
        // huge or endless file on disk costs bounded time and memory.
        let cap = crate::vocab::protocol::MAX_BYTES as u64 + 64 * 1024;
        let mut tokens = Tokens::new(Counter::capped(input, cap));
        let mut buf = Vec::new();
        let root = loop {
            buf.clear();
            let (ev, _) = tokens
                .next(&mut buf)
                .map_err(|e| xml_error(&mut tokens, e))?;
            let (e, empty) = match ev {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => continue,
                Event::Text(t) if t.iter().all(|&b| is_xml_ws(char::from(b))) => continue,
                _ => return Err(ReadError::NotSitemap),
            };
            let kind = match e.local_name().as_ref() {
                b"urlset" => SitemapKind::UrlSet,
                b"sitemapindex" => SitemapKind::SitemapIndex,
                _ => return Err(ReadError::NotSitemap),
            };
            break Root {
                kind,
                prefix: e.name().prefix().map(|p| p.into_inner().to_vec()),
                empty,
                namespace: own_namespace(&e),
            };
        };
        let done = root.empty;
        Ok(Sitemap {
            tokens,
            root,
            buf,
            done,
        })
    }

    /// The root element, as read by [`Sitemap::new`].
    pub fn root(&self) -> &Root {
        &self.root
    }

    /// Reads up to the end of the next entry; `None` once the root element is closed.
    fn next_entry(&mut self) -> Result<Option<Entry>, ReadError> {
        let entry_name: &[u8] = match self.root.kind {
            SitemapKind::UrlSet => b"url",
            SitemapKind::SitemapIndex => b"sitemap",
        };
        let prefix = self.root.prefix.clone();
        let ours = |e: &BytesStart<'_>, local: &[u8]| {
            e.local_name().as_ref() == local
                && e.name().prefix().map(|p| p.into_inner()) == prefix.as_deref()
        };
        // Depth below the root: 1 is an entry, 2 its fields.
        let mut depth = 0usize;
        let mut entry: Option<Entry> = None;
        // Which field is being read (loc or lastmod), and its text so far.
        let (mut field, mut text) = (None::<bool>, String::new());
        loop {
            self.buf.clear();
            let tokens = &mut self.tokens;
            let (ev, line) = tokens
                .next(&mut self.buf)
                .map_err(|e| xml_error(tokens, e))?;
            match ev {
                Event::Start(e) => {
                    depth += 1;
                    if depth == 1 && ours(&e, entry_name) {
                        entry = Some(Entry {
                            loc: String::new(),
                            lastmod: None,
                            line,
                            verbatim: true,
                        });
                    } else if let (2, Some(en)) = (depth, entry.as_mut()) {
                        if ours(&e, b"loc") {
                            field = Some(true);
                            en.line = line;
                            en.verbatim = true;
                            text.clear();
                        } else if ours(&e, b"lastmod") {
                            field = Some(false);
                            text.clear();
                        }
                    }
                }
                Event::Empty(e) if depth == 0 && ours(&e, entry_name) => {
                    return Ok(Some(Entry {
                        loc: String::new(),
                        lastmod: None,
                        line,
                        verbatim: true,
                    }));
                }
                Event::Text(t) if field.is_some() && depth == 2 => {
                    let s = t.decode().map_err(|e| xml_error(tokens, e.into()))?;
                    text.push_str(&s);
                }
                Event::CData(t) if field.is_some() && depth == 2 => {
                    let s = t.decode().map_err(|e| xml_error(tokens, e.into()))?;
                    text.push_str(&s);
                    if let (Some(true), Some(en)) = (field, entry.as_mut()) {
                        en.verbatim = false;
                    }
                }
                Event::GeneralRef(r) if field.is_some() && depth == 2 => {
                    text.push(resolve_ref(&r).ok_or_else(|| ReadError::Xml {
                        line,
                        message: format!("unknown reference &{};", String::from_utf8_lossy(&r)),
                    })?);
                    if let (Some(true), Some(en)) = (field, entry.as_mut()) {
                        en.verbatim = false;
                    }
                }
                Event::End(_) if depth == 0 => {
                    // The root closes: nothing after it is read.
                    self.done = true;
                    return Ok(None);
                }
                Event::End(_) => {
                    depth -= 1;
                    if depth == 1 {
                        if let (Some(is_loc), Some(en)) = (field.take(), entry.as_mut()) {
                            let value = text.trim_matches(is_xml_ws).to_string();
                            if is_loc {
                                en.loc = value;
                            } else {
                                en.lastmod = Some(value);
                            }
                        }
                    } else if depth == 0
                        && let Some(en) = entry.take()
                    {
                        return Ok(Some(en));
                    }
                }
                Event::Eof => {
                    let line = self.tokens.line();
                    return Err(ReadError::Xml {
                        line,
                        message: "the file ends before the root element is closed".into(),
                    });
                }
                _ => {}
            }
        }
    }
}

impl<R: Read> Iterator for Sitemap<R> {
    type Item = Result<Entry, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_entry();
        self.done = !matches!(next, Ok(Some(_)));
        next.transpose()
    }
}

/// A quick-xml error as a [`ReadError`], with the line reading stopped on.
fn xml_error<R: Read>(tokens: &mut Tokens<R>, e: quick_xml::Error) -> ReadError {
    if tokens.stopped() == Some(&Stop::TooBig) {
        return ReadError::Xml {
            line: tokens.line(),
            message: format!(
                "the file is larger than the protocol's {} bytes; reading stopped there",
                crate::vocab::protocol::MAX_BYTES
            ),
        };
    }
    match e {
        quick_xml::Error::Io(e) => ReadError::Io(io::Error::new(e.kind(), e.to_string())),
        e => ReadError::Xml {
            line: tokens.line(),
            message: e.to_string(),
        },
    }
}

/// The character an entity or character reference stands for (XML's five entities only).
fn resolve_ref(r: &quick_xml::events::BytesRef<'_>) -> Option<char> {
    if r.is_char_ref() {
        return r.resolve_char_ref().ok().flatten();
    }
    match &**r {
        b"amp" => Some('&'),
        b"lt" => Some('<'),
        b"gt" => Some('>'),
        b"apos" => Some('\''),
        b"quot" => Some('"'),
        _ => None,
    }
}

/// The format of a sitemap file on disk (gzip told by its magic bytes), read from its root
/// element within the first MiB; `None` when it is not a sitemap or cannot be read.
pub fn sniff_kind(path: &Path) -> Option<SitemapKind> {
    let source = open(path, Gzip::ByMagic).ok()?;
    let sitemap = Sitemap::new(source.input.take(1 << 20)).ok()?;
    Some(sitemap.root().kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

    #[test]
    fn a_bad_character_cut_by_the_buffer_end_stops_where_serving_stands() {
        // U+FFFE (EF BF BE) and an invalid sequence (EF 41), each begun in the last byte of
        // the first 64 KiB block, which is served before the next block completes it: the
        // counter stops at the next byte with the character named (a fuzz case once sliced
        // `buf[1..0]` here).
        for (tail, what) in [(&b"\xEF\xBF\xBEb"[..], "U+FFFE"), (&b"\xEFAb"[..], "0xEF")] {
            let mut input = vec![b'a'; 64 * 1024 - 1];
            input.extend_from_slice(tail);
            let mut c = Counter::strict(&input[..], u64::MAX);
            let mut served = 0;
            let err = loop {
                match c.fill_buf() {
                    Ok([]) => panic!("read to the end past {what}"),
                    Ok(b) => {
                        let n = b.len();
                        served += n;
                        c.consume(n);
                    }
                    Err(e) => break e,
                }
            };
            assert_eq!(served, 64 * 1024, "{what}");
            assert!(err.to_string().contains("reading stopped"), "{err}");
            match c.stopped() {
                Some(Stop::BadChar(w)) => assert!(w.contains(what), "{w}"),
                other => panic!("{what}: {other:?}"),
            }
        }
    }

    fn entries(xml: &str) -> Vec<Result<Entry, String>> {
        Sitemap::from_bytes(xml.as_bytes())
            .unwrap()
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    fn entry(loc: &str, lastmod: Option<&str>, line: usize, verbatim: bool) -> Entry {
        Entry {
            loc: loc.into(),
            lastmod: lastmod.map(Into::into),
            line,
            verbatim,
        }
    }

    #[test]
    fn reading_stops_a_little_past_the_protocols_size() {
        // An endless file: one <loc> that never ends.
        let head = b"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/";
        let endless = head.chain(io::repeat(b'a'));
        let mut sitemap = Sitemap::new(endless).unwrap();
        let err = sitemap.next().unwrap().unwrap_err().to_string();
        assert!(
            err.contains("larger than the protocol's 52428800 bytes"),
            "{err}"
        );
    }

    #[test]
    fn reads_locs_and_lastmods_with_the_line_of_each_loc() {
        let xml = format!(
            "{HEAD}<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n\
             <url>\n  <loc> https://a.example/x </loc>\n  <lastmod>2024-01-01</lastmod>\n\
             <image:image><image:loc>https://a.example/i.png</image:loc></image:image>\n</url>\n\
             <url><loc>https://a.example/?a=1&amp;b=&#50;</loc></url>\n<url/>\n</urlset>\ntrailing junk <"
        );
        let got = entries(&xml);
        assert_eq!(
            got,
            [
                Ok(entry("https://a.example/x", Some("2024-01-01"), 4, true)),
                Ok(entry("https://a.example/?a=1&b=2", None, 8, false)),
                Ok(entry("", None, 9, true)),
            ]
        );
        let sitemap = Sitemap::from_bytes(xml.as_bytes()).unwrap();
        assert!(sitemap.root().is_standard());
        assert_eq!(sitemap.root().kind, SitemapKind::UrlSet);
    }

    #[test]
    fn reads_gzip_and_prefixed_indexes() {
        use flate2::{Compression, write::GzEncoder};
        use std::io::Write;
        let xml = format!(
            "{HEAD}<!-- c --><sm:sitemapindex xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
             <sm:sitemap><sm:loc><![CDATA[https://a.example/s1.xml]]></sm:loc><loc>x</loc></sm:sitemap>\
             </sm:sitemapindex>"
        );
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(xml.as_bytes()).unwrap();
        let bytes = gz.finish().unwrap();
        let sitemap = Sitemap::from_bytes(&bytes).unwrap();
        assert_eq!(sitemap.root().kind, SitemapKind::SitemapIndex);
        assert_eq!(sitemap.root().prefix.as_deref(), Some(&b"sm"[..]));
        assert!(!sitemap.root().is_standard());
        let got: Vec<_> = sitemap.map(Result::unwrap).collect();
        assert_eq!(got, [entry("https://a.example/s1.xml", None, 2, false)]);
    }

    #[test]
    fn other_files_are_not_sitemaps_and_broken_ones_end_in_an_error() {
        for xml in ["<rss/>", "junk<urlset/>", "", "<html><urlset/></html>"] {
            assert!(
                matches!(
                    Sitemap::from_bytes(xml.as_bytes()),
                    Err(ReadError::NotSitemap)
                ),
                "{xml}"
            );
        }
        let empty = Sitemap::from_bytes(b"<urlset/>").unwrap();
        assert!(empty.root().empty);
        assert_eq!(empty.count(), 0);
        let cut = entries("<urlset>\n<url><loc>a</loc></url>\n<url><loc>b</loc>");
        assert_eq!(cut.len(), 2);
        assert_eq!(cut[0], Ok(entry("a", None, 2, true)));
        assert!(cut[1].as_ref().unwrap_err().contains("line 3"), "{cut:?}");
        let bad = entries("<urlset><url><loc>a</lox></url></urlset>");
        assert!(bad[0].is_err(), "{bad:?}");
    }
}
