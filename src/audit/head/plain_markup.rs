//! A tokenizer for plain markup, the kind nearly every generated head is made of: tags with
//! quoted or simple attribute values, comments, a doctype, and scripts, styles and titles
//! whose text holds no surprises. Where it goes it follows the HTML standard's tokenizer
//! states exactly and makes the same calls on the rules that html5gum makes; at anything else
//! (a character reference or a CR in a value the rules read, a NUL, `<!--` in a script, a
//! comment closed by `--!>`, …) it stops and says so, and the page goes to html5gum from the
//! start. A test holds the two to the same answers on generated heads.
//!
//! It exists for speed: the audit reads one head per URL, and html5gum spends most of its
//! time on the attributes of tags the rules never read, which this skips.

use super::{Attr, Rules, Tag, Values};
use html5gum::State;
use memchr::{memchr, memchr2};

/// How a scan ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScanEnd {
    /// The head ended, or the input did in plain text: the rules have seen everything.
    Done,
    /// The input ran out before the head ended, and more may follow.
    NeedMore,
    /// Markup this tokenizer leaves to html5gum.
    NotPlain,
}

/// Why a step could not go on.
enum Stop {
    /// The input ran out in the data state.
    EndOfText,
    /// The input ran out inside markup.
    NeedMore,
    /// Markup left to html5gum.
    NotPlain,
}

type Step<T> = Result<T, Stop>;

/// Scans `bytes` (the page from its start, decoded as a browser would: no byte order mark)
/// into `rules`; `eof` when no bytes follow them. `name` is a buffer for tag names.
pub(super) fn scan(rules: &mut Rules, name: &mut Vec<u8>, bytes: &[u8], eof: bool) -> ScanEnd {
    let mut scanner = Scanner {
        b: bytes,
        rules,
        name,
    };
    match scanner.run() {
        Ok(()) => ScanEnd::Done,
        Err(Stop::EndOfText) if eof => ScanEnd::Done,
        // At the end of the input inside markup html5gum knows what each state makes of it.
        Err(Stop::NeedMore) if eof => ScanEnd::NotPlain,
        Err(Stop::EndOfText | Stop::NeedMore) => ScanEnd::NeedMore,
        Err(Stop::NotPlain) => ScanEnd::NotPlain,
    }
}

/// Byte classes, a bit each, looked up in [`CLASS`].
const SPACE: u8 = 1;
/// Ends a tag name: a space, `/` or `>`.
const TAG_NAME_END: u8 = 2;
/// Ends an attribute name: a space, `/`, `>` or `=`.
const ATTR_NAME_END: u8 = 4;
/// Ends an unquoted attribute value: a space or `>`.
const VALUE_END: u8 = 8;
/// An ASCII capital letter.
const UPPER: u8 = 16;

/// The class bits of each byte. A CR is a space: it stays one as newlines are normalized.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let spaces = [b'\t', b'\n', b'\x0C', b'\r', b' '];
    let mut k = 0;
    while k < spaces.len() {
        t[spaces[k] as usize] = SPACE | TAG_NAME_END | ATTR_NAME_END | VALUE_END;
        k += 1;
    }
    t[b'/' as usize] = TAG_NAME_END | ATTR_NAME_END;
    t[b'>' as usize] = TAG_NAME_END | ATTR_NAME_END | VALUE_END;
    t[b'=' as usize] = ATTR_NAME_END;
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = UPPER;
        c += 1;
    }
    t
};

struct Scanner<'a, 'r> {
    b: &'a [u8],
    rules: &'r mut Rules,
    name: &'r mut Vec<u8>,
}

impl<'a> Scanner<'a, '_> {
    /// The data state, from the start until the head ends or the input does. A NUL there is
    /// text, as it is to html5gum (elsewhere it becomes U+FFFD, which no name the rules know
    /// holds, and in a value the rules read it is left to html5gum).
    fn run(&mut self) -> Step<()> {
        let b = self.b;
        let mut i = 0;
        while !self.rules.done {
            let Some(at) = memchr2(b'<', b'&', &b[i..]).map(|k| i + k) else {
                self.rules.text(&b[i..]);
                // The input ends in the data state: nothing more to see, unless more follows.
                return if self.rules.done {
                    Ok(())
                } else {
                    Err(Stop::EndOfText)
                };
            };
            self.rules.text(&b[i..at]);
            if self.rules.done {
                break;
            }
            if b[at] == b'&' {
                // A character reference may stand for a space or for words.
                return Err(Stop::NotPlain);
            }
            i = self.markup(at)?;
        }
        Ok(())
    }

    /// Markup at `lt` (a `<`); the index after it.
    fn markup(&mut self, lt: usize) -> Step<usize> {
        let b = self.b;
        let next = *b.get(lt + 1).ok_or(Stop::NeedMore)?;
        match next {
            c if c.is_ascii_alphabetic() => {
                let (end, state) = self.start_tag(lt + 1)?;
                match state {
                    None => Ok(end),
                    Some(_) if self.rules.done => Ok(end),
                    Some(State::RcData | State::RawText) => self.raw_text(end, false),
                    Some(State::ScriptData) => self.raw_text(end, true),
                    Some(_) => Err(Stop::NotPlain),
                }
            }
            b'/' => match b.get(lt + 2) {
                Some(c) if c.is_ascii_alphabetic() => self.end_tag(lt + 2),
                Some(_) => Err(Stop::NotPlain),
                None => Err(Stop::NeedMore),
            },
            b'!' if b[lt..].starts_with(b"<!--") => self.comment(lt + 4),
            b'!' if b.len() < lt + 4 && b"<!--".starts_with(&b[lt..]) => Err(Stop::NeedMore),
            // A doctype, or a bogus comment (`<!x…>`, `<?…>`): both end at the first `>`.
            b'!' | b'?' => memchr(b'>', &b[lt + 2..])
                .map(|k| lt + 2 + k + 1)
                .ok_or(Stop::NeedMore),
            // A `<` that opens nothing is text.
            _ => {
                self.rules.text(b"<");
                Ok(lt + 1)
            }
        }
    }

    /// A comment whose text starts at `at` (after `<!--`); the index after it.
    fn comment(&mut self, at: usize) -> Step<usize> {
        let b = self.b;
        // `<!-->` and `<!--->` close at once.
        if b[at..].starts_with(b">") {
            return Ok(at + 1);
        }
        if b[at..].starts_with(b"->") {
            return Ok(at + 2);
        }
        // Otherwise the first `>` after `--` within the text closes it; `--!>` would too, and
        // such comments are left to html5gum.
        let mut from = at;
        loop {
            let gt = memchr(b'>', &b[from..]).ok_or(Stop::NeedMore)? + from;
            let before = &b[at..gt];
            if before.ends_with(b"--") {
                return Ok(gt + 1);
            }
            if before.ends_with(b"--!") {
                return Err(Stop::NotPlain);
            }
            from = gt + 1;
        }
    }

    /// A start tag whose name starts at `at`: the index after its `>` and the state the
    /// tokenizer goes on in.
    fn start_tag(&mut self, at: usize) -> Step<(usize, Option<State>)> {
        let (name_end, upper) = self.tag_name(at)?;
        let tag = Tag::of(lowered(&self.b[at..name_end], upper, self.name));
        let mut values: Values = [b""; 5];
        if !matches!(tag, Tag::Meta | Tag::Link | Tag::Base) {
            let end = self.attributes(name_end, |_, _| {})?;
            let name = lowered(&self.b[at..name_end], upper, self.name);
            return Ok((end, self.rules.start_tag(name, tag, &values, 0)));
        }
        let mut set = 0u8;
        let end = self.attributes(name_end, |name, value| {
            let Some(a) = Attr::of(tag, name) else {
                return;
            };
            if set & a.bit() == 0 {
                set |= a.bit();
                values[a as usize] = value;
            }
        })?;
        // A character reference, a CR or a NUL in a value the rules read: html5gum decodes
        // those. (The name, http-equiv and rel values are checked first, as whether the
        // others are read depends on them.)
        let undecoded = |a: Attr| {
            values[a as usize]
                .iter()
                .any(|&c| matches!(c, b'&' | b'\r' | 0))
        };
        let first = [Attr::Name, Attr::HttpEquiv, Attr::Rel];
        if first.into_iter().any(undecoded)
            || [Attr::Content, Attr::Href]
                .into_iter()
                .any(|a| Rules::reads(tag, a, &values) && undecoded(a))
        {
            return Err(Stop::NotPlain);
        }
        let name = lowered(&self.b[at..name_end], upper, self.name);
        Ok((end, self.rules.start_tag(name, tag, &values, set)))
    }

    /// An end tag whose name starts at `at`; the index after its `>`.
    fn end_tag(&mut self, at: usize) -> Step<usize> {
        let (name_end, upper) = self.tag_name(at)?;
        let end = self.attributes(name_end, |_, _| {})?;
        let name = lowered(&self.b[at..name_end], upper, self.name);
        self.rules.end_tag(name);
        Ok(end)
    }

    /// The end of a tag name that starts at `at`, and whether it has a capital letter.
    fn tag_name(&self, at: usize) -> Step<(usize, bool)> {
        let mut seen = 0;
        for (k, &c) in self.b[at..].iter().enumerate() {
            let class = CLASS[c as usize];
            if class & TAG_NAME_END != 0 {
                return Ok((at + k, seen & UPPER != 0));
            }
            seen |= class;
        }
        Err(Stop::NeedMore)
    }

    /// A tag's attributes from `at` (after its name) to its `>`, each name and value (empty
    /// when it has none) given to `attribute`; the index after the `>`.
    fn attributes(&self, at: usize, mut attribute: impl FnMut(&[u8], &'a [u8])) -> Step<usize> {
        let b = self.b;
        let mut i = at;
        loop {
            // Before an attribute's name (and after one's value).
            i = self.skip_space(i)?;
            match b[i] {
                b'>' => return Ok(i + 1),
                // A `/` not before `>` is dropped.
                b'/' => match *b.get(i + 1).ok_or(Stop::NeedMore)? {
                    b'>' => return Ok(i + 2),
                    _ => i += 1,
                },
                _ => {
                    // A name may start with `=`; quotes and `<` in it are kept.
                    let name_end = self.until(i + 1, ATTR_NAME_END)?;
                    let name = &b[i..name_end];
                    i = self.skip_space(name_end)?;
                    if b[i] != b'=' {
                        // No value: the next attribute, `/` or `>` follows.
                        attribute(name, b"");
                        continue;
                    }
                    i = self.skip_space(i + 1)?;
                    let value = match b[i] {
                        // A missing value: the tag ends here.
                        b'>' => {
                            attribute(name, b"");
                            return Ok(i + 1);
                        }
                        q @ (b'"' | b'\'') => {
                            let close = memchr(q, &b[i + 1..]).ok_or(Stop::NeedMore)? + i + 1;
                            let value = &b[i + 1..close];
                            i = close + 1;
                            value
                        }
                        _ => {
                            let end = self.until(i, VALUE_END)?;
                            let value = &b[i..end];
                            i = end;
                            value
                        }
                    };
                    attribute(name, value);
                }
            }
        }
    }

    /// The text of a title, style, script (`script`) or the like, from `at` to its end tag;
    /// the index after that tag.
    fn raw_text(&mut self, at: usize, script: bool) -> Step<usize> {
        let b = self.b;
        let name_len = self.rules.last_start_tag.len();
        let mut from = at;
        loop {
            let lt = memchr(b'<', &b[from..]).ok_or(Stop::NeedMore)? + from;
            // `<!--` in a script starts its escaped states, which move where it ends.
            if script && b[lt..].starts_with(b"<!--") {
                return Err(Stop::NotPlain);
            }
            let name_end = lt + 2 + name_len;
            let Some(&after) = b.get(name_end) else {
                return Err(Stop::NeedMore);
            };
            let appropriate = b[lt + 1] == b'/'
                && b[lt + 2..name_end].eq_ignore_ascii_case(&self.rules.last_start_tag)
                && CLASS[after as usize] & TAG_NAME_END != 0;
            if appropriate {
                return self.end_tag(lt + 2);
            }
            from = lt + 1;
        }
    }

    /// The first index from `at` whose byte is of `class`.
    fn until(&self, at: usize, class: u8) -> Step<usize> {
        self.b[at..]
            .iter()
            .position(|&c| CLASS[c as usize] & class != 0)
            .map(|k| at + k)
            .ok_or(Stop::NeedMore)
    }

    /// The first index from `at` that is not a space.
    fn skip_space(&self, at: usize) -> Step<usize> {
        self.b[at..]
            .iter()
            .position(|&c| CLASS[c as usize] & SPACE == 0)
            .map(|k| at + k)
            .ok_or(Stop::NeedMore)
    }
}

/// `s` in ASCII lower case, as the tokenizer lowers tag names: `s` itself unless it has a
/// capital letter (`upper`), else a copy in `buf`.
fn lowered<'s>(s: &'s [u8], upper: bool, buf: &'s mut Vec<u8>) -> &'s [u8] {
    if !upper {
        return s;
    }
    buf.clear();
    buf.extend(s.iter().map(u8::to_ascii_lowercase));
    buf
}

#[cfg(test)]
mod tests {
    use super::super::{HeadFacts, HeadReader, page_bytes, read_head};
    use super::{ScanEnd, scan};
    use proptest::prelude::*;
    use std::io::Read;

    /// What html5gum alone makes of a page.
    fn by_html5gum(page: &[u8]) -> HeadFacts {
        let mut reader = HeadReader::default();
        reader.rules.reset();
        reader.tokenize(page_bytes(page));
        reader.rules.take_facts()
    }

    /// How the plain tokenizer's scan of the page's first `len` bytes ends, and what it found.
    fn plain_scan(page: &[u8], len: usize, eof: bool) -> (ScanEnd, HeadFacts) {
        let mut reader = HeadReader::default();
        reader.rules.reset();
        let r = &mut reader;
        let outcome = scan(&mut r.rules, &mut r.name, page_bytes(&page[..len]), eof);
        (outcome, reader.rules.take_facts())
    }

    /// What the plain tokenizer makes of a whole page, when it takes it.
    fn by_plain(page: &[u8]) -> Option<HeadFacts> {
        let (outcome, facts) = plain_scan(page, page.len(), true);
        (outcome == ScanEnd::Done).then_some(facts)
    }

    /// A reader that hands out a few bytes at a time, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    const NAMES: &[&str] = &[
        "meta", "META", "link", "Link", "base", "div", "title", "body", "head", "template",
    ];
    const ATTRS: &[&str] = &[
        "name",
        "NAME",
        "content",
        "http-equiv",
        "rel",
        "href",
        "property",
        "nam\"e",
        "x<y",
        "=a",
    ];
    const VALUES: &[&str] = &[
        "robots",
        "GoogleBot",
        "noindex",
        "noindex, follow",
        "none",
        "index",
        "canonical",
        "Canonical alternate",
        "/a/",
        "https://e.org/x",
        "&#110;oindex",
        "r&#111;bots",
        "refresh",
        "0; url=/n/",
        "5",
        "a\r\nb",
        "x>y",
        "",
        " robots ",
        "&amp;",
        "/a/?b=1&c=2",
        "0url=/m/",
        "&#xa0;0; url=/m/",
        "5x; url=/m/",
        " refresh",
        "30",
        "0; URL = '/q/' x",
        "0; url=http://[::1",
    ];
    const PIECES: &[&str] = &[
        " ",
        "\n",
        "\r\n",
        "\t",
        "\x0C",
        "x",
        "&#32;",
        "&#x20;",
        "&amp;",
        "&",
        "<",
        "< x",
        "\0",
        "<!DOCTYPE html>",
        "<!doctype html PUBLIC \"a>b\" x>",
        "<!-- c -->",
        "<!-->",
        "<!--->",
        "<!---->",
        "<!-- a --!> b -->",
        "<!-- <meta name=robots content=noindex> -->",
        "<!-- - -- --->",
        "<!-x>",
        "<!>",
        "<?php x ?>",
        "<![CDATA[ x ]]>",
        "<!--",
        "<!-",
        "</>",
        "</ x>",
        "</3>",
        "<head>",
        "</head>",
        "<HEAD >",
        "<html lang=en>",
        "<body>",
        "</body>",
        "</html>",
        "<div>",
        "<template>",
        "</template>",
        "<title>a &amp; b</title>",
        "<title>x</TITLE >",
        "<title><meta name=robots content=noindex></title>",
        "<script>if (a < b) {}</script>",
        "<script>var s = '</scrip>';</script>",
        "<script><!-- <script></script> --></script>",
        "<script>x</script foo='>'>",
        "<SCRIPT>x</sCrIpT\n>",
        "<script>",
        "</script>",
        "<style>p{}</style>",
        "<style><!-- </style>",
        "<noscript><meta name=robots content=noindex></noscript>",
        "<noframes><meta name=robots content=noindex></noframes>",
        "<textarea>",
        "<plaintext>",
        "<br/>",
        "<meta/>",
        "<meta / name=robots content=noindex>",
    ];

    /// One attribute, written as `how` picks: spacing before it, quoting, spacing around `=`.
    fn attribute(t: &mut String, name: &str, value: &str, how: u32) {
        t.push_str([" ", "\n", "\r\n", "/", "  ", "", "\t"][how as usize % 7]);
        t.push_str(name);
        let plain = !value.is_empty() && !value.contains([' ', '\r', '\n', '>', '"', '\'']);
        match how / 7 % 6 {
            0 => t.push_str(&format!("=\"{}\"", value.replace('"', ""))),
            1 => t.push_str(&format!("='{}'", value.replace('\'', ""))),
            2 if plain => t.push_str(&format!("={value}")),
            3 => t.push_str(&format!(" = \"{}\"", value.replace('"', ""))),
            4 => {}
            _ => t.push_str(&format!("=\"{}\"", value.replace('"', "&quot;"))),
        }
    }

    /// A tag made of random parts: the markup generated heads are made of, with the odd
    /// corner the standard defines.
    fn tag(picks: &[u32]) -> String {
        let pick = |k: usize, list: &[&'static str]| list[picks[k] as usize % list.len()];
        let mut t = format!("<{}", pick(0, NAMES));
        for a in 0..(picks[1] % 4) as usize {
            attribute(
                &mut t,
                pick(3 + a * 3, ATTRS),
                pick(4 + a * 3, VALUES),
                picks[5 + a * 3],
            );
        }
        t.push_str(pick(18, &[">", "/>", " />", "/ >", " >", "\n>"]));
        t
    }

    /// A robots, canonical or refresh tag, written in one of many ways, often with another
    /// attribute or a repeated one.
    fn telling_tag(picks: &[u32]) -> String {
        let pick = |k: usize, list: &[&'static str]| list[picks[k] as usize % list.len()];
        let mut attrs = match picks[1] % 3 {
            0 => vec![
                (
                    pick(2, &["name", "NAME", "Name"]),
                    pick(
                        3,
                        &[
                            "robots",
                            "ROBOTS",
                            "googlebot",
                            " robots",
                            "r&#111;bots",
                            "bingbot",
                            "robots\r\n",
                        ],
                    ),
                ),
                (
                    "content",
                    pick(
                        4,
                        &[
                            "noindex",
                            "NoIndex, follow",
                            "none",
                            "index",
                            "nofollow,noindex",
                            "&#110;oindex",
                            "noindex\r\n",
                            "a&amp;b",
                        ],
                    ),
                ),
            ],
            1 => vec![
                (
                    "rel",
                    pick(
                        2,
                        &[
                            "canonical",
                            "Canonical",
                            "alternate canonical",
                            "canonicalx",
                            "c&#97;nonical",
                            "canonical\r\n",
                        ],
                    ),
                ),
                (
                    pick(3, &["href", "HREF"]),
                    pick(
                        4,
                        &[
                            "/a/",
                            "https://e.org/x",
                            " /b/ ",
                            "",
                            "/a/?b=1&amp;c=2",
                            "/a/\r\n",
                            "/c/",
                        ],
                    ),
                ),
            ],
            _ => vec![
                (
                    "http-equiv",
                    pick(2, &["refresh", "Refresh", "content-type", "re&#102;resh"]),
                ),
                (
                    "content",
                    pick(
                        3,
                        &[
                            "0; url=/n/",
                            "5",
                            "0;URL='/a b/'",
                            "0; url=/x&amp;y",
                            "text/html",
                        ],
                    ),
                ),
            ],
        };
        if picks[5].is_multiple_of(3) {
            attrs.swap(0, 1);
        }
        if picks[6].is_multiple_of(4) {
            attrs.push((
                pick(7, &["name", "content", "rel", "href", "data-x"]),
                pick(8, VALUES),
            ));
        }
        let mut t = format!(
            "<{}",
            if picks[1] % 3 == 1 {
                pick(9, &["link", "LINK"])
            } else {
                pick(9, &["meta", "Meta"])
            }
        );
        for (k, (name, value)) in attrs.into_iter().enumerate() {
            attribute(&mut t, name, value, picks[10 + k]);
        }
        t.push_str(pick(18, &[">", "/>", " />", "/ >", " >", "\n>"]));
        t
    }

    fn page(picks: &[Vec<u32>], bom: bool, cut: Option<usize>) -> Vec<u8> {
        let mut s = String::new();
        if bom {
            s.push('\u{feff}');
        }
        for p in picks {
            match p[19] % 4 {
                0 => s.push_str(PIECES[p[0] as usize % PIECES.len()]),
                1 => s.push_str(&tag(p)),
                _ => s.push_str(&telling_tag(p)),
            }
        }
        let mut bytes = s.into_bytes();
        if let Some(cut) = cut {
            bytes.truncate(cut % (bytes.len() + 1));
        }
        bytes
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Wherever the plain tokenizer takes a page, it finds what html5gum finds; and the
        /// head reader (plain first, html5gum after) always does, read whole or a few bytes
        /// at a time.
        #[test]
        fn plain_agrees_with_html5gum(
            picks in prop::collection::vec(prop::collection::vec(any::<u32>(), 20), 0..12),
            bom in any::<bool>(),
            cut in prop::option::weighted(0.2, any::<usize>()),
            trickle in 1usize..40,
        ) {
            let page = page(&picks, bom, cut);
            let want = by_html5gum(&page);
            if let Some(got) = by_plain(&page) {
                prop_assert_eq!(&got, &want, "{:?}", String::from_utf8_lossy(&page));
            }
            let read = read_head(&page[..]).unwrap();
            prop_assert_eq!(&read, &want);
            let trickled = read_head(Trickle(&page, trickle)).unwrap();
            prop_assert_eq!(&trickled, &want);
        }
    }

    /// The plain tokenizer takes a theme's head as generators write it, so the fast path is
    /// the usual one.
    #[test]
    fn takes_a_typical_head() {
        let page = br#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Page &middot; Example</title>
  <meta name="description" content="Notes on caching &amp; deploys.">
  <meta property="og:url" content="https://e.org/a/">
  <!-- theme: 1.2 -->
  <link rel="canonical" href="https://e.org/a/">
  <link rel="preload" href="/f.woff2" as="font" crossorigin>
  <script type="application/ld+json">{"@type":"Article","url":"https://e.org/a/"}</script>
  <script>if (window.innerWidth < 640) { document.body.classList.add("narrow"); }</script>
  <style>:root{--fg:#222}</style>
  <meta name="robots" content="noindex, follow">
</head>
<body><p>noindex</p></body></html>"#;
        let got = by_plain(page).expect("a plain head");
        assert!(got.noindex);
        assert_eq!(got.canonical.as_deref(), Some("https://e.org/a/"));
        assert_eq!(got, by_html5gum(page));
        // A head that goes on past the first read is read on, and taken.
        assert_eq!(plain_scan(page, 200, false).0, ScanEnd::NeedMore);
    }

    #[test]
    fn leaves_the_rest_to_html5gum() {
        for page in [
            "<head><meta name=robots content=\"&#110;oindex\">",
            "<head><meta name=robots content=\"noindex\0\">",
            "<head><script><!-- <script></script> --></script>",
            "<head><!-- a --!> <meta name=robots content=noindex>",
            "<head><link rel=canonical href=\"/a/?x=1&amp;y=2\">",
            "<head><meta name=robots content=\"noindex\r\n\">",
            "<head>&#32;<meta name=robots content=noindex>",
        ] {
            assert_eq!(by_plain(page.as_bytes()), None, "{page}");
            let facts = read_head(page.as_bytes()).unwrap();
            assert_eq!(facts, by_html5gum(page.as_bytes()), "{page}");
        }
        // A NUL in text is text to both: the head has ended.
        let page = b"<head>\0<meta name=robots content=noindex>";
        assert_eq!(by_plain(page), Some(HeadFacts::default()));
        assert_eq!(by_html5gum(page), HeadFacts::default());
        // html5gum decodes the reference: a noindex.
        assert!(
            read_head(&b"<meta name=robots content=\"&#110;oindex\">"[..])
                .unwrap()
                .noindex
        );
    }
}
