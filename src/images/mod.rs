//! The images a page shows, for `<image:image>` entries: from its built HTML when the output
//! is fresh ([`built`], read by the audit stage), else from its source: the front matter keys
//! its generator's themes show ([`SourceRules`]), the shortcodes that take an image, and its
//! Markdown.

pub mod built;

use std::collections::HashSet;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use url::Url;

/// At most this many images per page: the limit Google sets for `image:image` per URL.
pub const MAX_IMAGES: usize = 1000;

/// Finds the image sources of a generator's shortcodes in a page body: each with its byte
/// offset, in order.
pub type Shortcodes = fn(&str) -> Vec<(usize, String)>;

/// Where a generator's pages name images besides their Markdown: front matter keys (in the
/// tables its themes read them from) and shortcodes. Its wing gives them
/// ([`crate::generator::Generator::front_matter`]).
#[derive(Clone, Debug, Default)]
pub struct SourceRules {
    /// The front matter tables the keys are looked up in (`""`: the top level).
    pub tables: &'static [&'static str],
    /// The keys, each a dotted path (`cover.image`): the generator's own, then
    /// sitemap.toml's `image_keys`.
    pub keys: Vec<String>,
    /// The generator's shortcodes, when it has any.
    pub shortcodes: Option<Shortcodes>,
}

impl SourceRules {
    /// A generator's `own` keys, then sitemap.toml's `image_keys`, looked up in `tables`.
    pub fn new(
        tables: &'static [&'static str],
        own: &[&str],
        image_keys: &[String],
        shortcodes: Option<Shortcodes>,
    ) -> SourceRules {
        SourceRules {
            tables,
            keys: own
                .iter()
                .map(|k| k.to_string())
                .chain(image_keys.iter().cloned())
                .collect(),
            shortcodes,
        }
    }
}

/// The `src` of every image in `markdown` (Markdown images and `<img src>` in raw HTML),
/// in document order, without duplicates, at most [`MAX_IMAGES`].
pub fn image_sources(markdown: &str) -> Vec<String> {
    body_sources(markdown, None)
}

/// [`image_sources`] and the images of the `shortcodes` in `markdown`, in document order,
/// without duplicates, at most [`MAX_IMAGES`].
pub fn body_sources(markdown: &str, shortcodes: Option<Shortcodes>) -> Vec<String> {
    let mut found = Sources::default();
    let mut at = Vec::new();
    let mut html_block = String::new();
    let mut in_html_block = false;
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        if found.full() {
            break;
        }
        let before = found.list.len();
        match event {
            Event::Start(Tag::Image { dest_url, .. }) => found.push(&dest_url),
            // An HTML block arrives line by line: scan it whole so a tag may span lines.
            Event::Start(Tag::HtmlBlock) => {
                in_html_block = true;
                html_block.clear();
            }
            Event::Html(html) if in_html_block => html_block.push_str(&html),
            Event::End(TagEnd::HtmlBlock) => {
                in_html_block = false;
                img_sources(&html_block, &mut found);
            }
            Event::Html(html) | Event::InlineHtml(html) => img_sources(&html, &mut found),
            _ => {}
        }
        at.resize(found.list.len().max(before), range.start);
    }
    let Some(shortcodes) = shortcodes else {
        return found.list;
    };
    // Both in document order, each without repeats: merged by offset. A shortcode in a
    // comment renders into the comment, and shows nothing.
    let mut all: Vec<(usize, String)> = at.into_iter().zip(found.list).collect();
    let hidden = comments(markdown);
    all.extend(
        shortcodes(markdown)
            .into_iter()
            .filter(|(offset, _)| !hidden.iter().any(|r| r.contains(offset))),
    );
    all.sort_by_key(|(offset, _)| *offset);
    let mut merged = Sources::default();
    for (_, src) in all {
        merged.push(&src);
    }
    merged.list
}

/// The byte ranges of `markdown` no reader sees: HTML comments (an unclosed one runs to the
/// end), and `[//]: # (…)` lines, the Markdown comment idiom (a link definition nothing uses).
fn comments(markdown: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = markdown[from..].find("<!--") {
        let start = from + pos;
        let end = markdown[start + 4..]
            .find("-->")
            .map_or(markdown.len(), |e| start + 4 + e + 3);
        out.push(start..end);
        from = end;
    }
    let mut line_start = 0;
    for line in markdown.split_inclusive('\n') {
        if line.trim_start().starts_with("[//]: #") {
            out.push(line_start..line_start + line.len());
        }
        line_start += line.len();
    }
    out
}

/// The image of a shortcode called `name` with `args` (`key = "value"` pairs, as
/// [`shortcode_args`] reads them): its `src`, `image` or `path` argument, when the
/// shortcode is an image's (`figure`, `img`, `image`) or the value names an image file.
pub fn shortcode_image<'a>(name: &str, args: &[(&str, &'a str)]) -> Option<&'a str> {
    let of_image = matches!(name, "figure" | "img" | "image");
    args.iter()
        .filter(|(k, _)| matches!(*k, "src" | "image" | "path"))
        .map(|(_, v)| *v)
        .find(|v| !v.trim().is_empty() && (of_image || is_image_file(v)))
}

/// Whether a URL or path ends in an image file's extension (its query and fragment aside).
pub fn is_image_file(src: &str) -> bool {
    let path = src.split(['?', '#']).next().unwrap_or_default();
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    [
        "apng", "avif", "bmp", "gif", "jpeg", "jpg", "png", "svg", "tif", "tiff", "webp",
    ]
    .iter()
    .any(|e| ext.eq_ignore_ascii_case(e))
}

/// The named arguments of a shortcode call, `key=value` pairs separated by whitespace or
/// commas, values quoted with `"`, `'` or backticks (or bare, to the next separator);
/// positional arguments are skipped.
pub fn shortcode_args(args: &str) -> Vec<(&str, &str)> {
    let b = args.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let skip = |i: &mut usize, stop: &dyn Fn(u8) -> bool| {
        while *i < b.len() && !stop(b[*i]) {
            *i += 1;
        }
    };
    while i < b.len() {
        skip(&mut i, &|c| !(c.is_ascii_whitespace() || c == b','));
        let start = i;
        skip(&mut i, &|c| {
            c.is_ascii_whitespace() || matches!(c, b'=' | b',' | b'"' | b'\'' | b'`')
        });
        let key = &args[start..i];
        skip(&mut i, &|c| !c.is_ascii_whitespace());
        if b.get(i) != Some(&b'=') {
            // A positional argument: a quoted one is skipped whole.
            if let Some(&q @ (b'"' | b'\'' | b'`')) = b.get(i) {
                i += 1;
                skip(&mut i, &|c| c == q);
                i += 1;
            }
            i += usize::from(start == i);
            continue;
        }
        i += 1;
        skip(&mut i, &|c| !c.is_ascii_whitespace());
        let value = match b.get(i) {
            Some(&q @ (b'"' | b'\'' | b'`')) => {
                let from = i + 1;
                i = from;
                skip(&mut i, &|c| c == q);
                let v = &args[from..i.min(b.len())];
                i += 1;
                v
            }
            _ => {
                let from = i;
                skip(&mut i, &|c| c.is_ascii_whitespace() || c == b',');
                &args[from..i]
            }
        };
        if !key.is_empty() {
            out.push((key, value));
        }
    }
    out
}

/// The sources seen so far, in order and without repeats.
#[derive(Default)]
struct Sources {
    list: Vec<String>,
    seen: HashSet<String>,
}

impl Sources {
    fn full(&self) -> bool {
        self.list.len() >= MAX_IMAGES
    }

    fn push(&mut self, src: &str) {
        let src = src.trim();
        if src.is_empty() || self.full() || self.seen.contains(src) {
            return;
        }
        self.seen.insert(src.to_string());
        self.list.push(src.to_string());
    }
}

/// Finds `<img … src="…">` tags in raw HTML (quoted or unquoted values, any case).
fn img_sources(html: &str, found: &mut Sources) {
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(pos) = lower[from..].find("<img") {
        let start = from + pos + 4;
        // `<imgx` is another tag.
        if !lower[start..].starts_with(|c: char| c.is_ascii_whitespace() || c == '/') {
            from = start;
            continue;
        }
        let end = tag_end(&lower, start);
        if let Some(src) = attribute(&html[start..end], &lower[start..end], "src") {
            found.push(&decode_entities(src));
        }
        from = end;
    }
}

/// The index of the `>` closing a tag that starts before `from` (quotes respected).
fn tag_end(s: &str, from: usize) -> usize {
    let mut quote = None;
    for (i, c) in s[from..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return from + i,
            _ => {}
        }
    }
    s.len()
}

/// The value of attribute `name` in the inside of a tag (`lower` is its lower-cased copy).
fn attribute<'a>(tag: &'a str, lower: &str, name: &str) -> Option<&'a str> {
    let bytes = lower.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Skip to the next attribute name.
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        let name_start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'=' | b'/')
        {
            i += 1;
        }
        let attr = &lower[name_start..i];
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'=' {
            if attr.is_empty() {
                i += 1;
            }
            continue;
        }
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let (value_start, value_end) = match bytes.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let end = lower[i + 1..]
                    .find(char::from(q))
                    .map_or(lower.len(), |p| i + 1 + p);
                (i + 1, end)
            }
            _ => {
                let end = lower[i..]
                    .find(|c: char| c.is_ascii_whitespace())
                    .map_or(lower.len(), |p| i + p);
                (i, end)
            }
        };
        if attr == name {
            return Some(&tag[value_start..value_end]);
        }
        i = value_end + 1;
    }
    None
}

/// Decodes the few entities that show up in URLs written in HTML.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&amp;", "&")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

/// The absolute URL of an image `src` found on the page at `page_url` of the site at `base`.
///
/// Absolute http(s) URLs are kept; `//host/…` takes the site's scheme; `/img/a.png` is placed
/// under the site base, so `https://x.org/blog/` gives `https://x.org/blog/img/a.png`
/// (a path that already starts with the base path is not doubled); any other relative
/// path is resolved against the page URL (bundle resources). A fragment is dropped.
/// `data:` and other schemes give `None`.
pub fn resolve_image(src: &str, page_url: &Url, base: &Url) -> Option<Url> {
    let src = src.trim();
    if src.is_empty() {
        return None;
    }
    let url = if src.starts_with("//") {
        base.join(src).ok()?
    } else if let Some(rest) = src.strip_prefix('/') {
        let base_path = base.path();
        if src.starts_with(base_path) && base_path != "/" {
            base.join(src).ok()?
        } else {
            let mut dir = base.clone();
            if !dir.path().ends_with('/') {
                let with_slash = format!("{}/", dir.path());
                dir.set_path(&with_slash);
            }
            dir.join(rest).ok()?
        }
    } else {
        match Url::parse(src) {
            Ok(abs) => abs,
            Err(url::ParseError::RelativeUrlWithoutBase) => page_url.join(src).ok()?,
            Err(_) => return None,
        }
    };
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    rfc3986(without_fragment(url))
}

/// `url` without its fragment: `a.png#center` (a theme's hint to its CSS) is the file
/// `a.png`, one image, not another.
pub(crate) fn without_fragment(mut url: Url) -> Url {
    url.set_fragment(None);
    url
}

/// `url` with every byte RFC 3986 does not allow after its host percent-encoded. The url
/// crate follows WHATWG, which leaves `|`, `^`, `[`, `]`, a second `#` and a stray `%` as
/// they are; sitemap readers (and our `validate`) follow RFC 3986 and reject them.
fn rfc3986(url: Url) -> Option<Url> {
    let s = url.as_str();
    let (head, tail) = s.split_at(url[..url::Position::AfterPort].len());
    let b = tail.as_bytes();
    let mut seen_hash = false;
    let mut keep = |i: usize, c: u8| match c {
        b'%' => {
            b[i + 1..]
                .iter()
                .take(2)
                .filter(|h| h.is_ascii_hexdigit())
                .count()
                == 2
        }
        b'#' => !std::mem::replace(&mut seen_hash, true),
        c => c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&c),
    };
    let kept: Vec<bool> = b.iter().enumerate().map(|(i, &c)| keep(i, c)).collect();
    if kept.iter().all(|&k| k) {
        return Some(url);
    }
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(head);
    // A serialized URL is ASCII: each byte is a char.
    for (&c, k) in b.iter().zip(kept) {
        if k {
            out.push(c as char);
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    Url::parse(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_urls_hold_only_rfc_3986_characters() {
        let base = Url::parse("https://x.org/").unwrap();
        let page = Url::parse("https://x.org/blog/p/").unwrap();
        let got = |src: &str| resolve_image(src, &page, &base).map(|u| u.to_string());
        assert_eq!(
            got("a|b^c.png").as_deref(),
            Some("https://x.org/blog/p/a%7Cb%5Ec.png")
        );
        assert_eq!(
            got("/i[1].png?x=|#f#g").as_deref(),
            Some("https://x.org/i%5B1%5D.png?x=%7C")
        );
        assert_eq!(
            got("100%.png").as_deref(),
            Some("https://x.org/blog/p/100%25.png")
        );
        // Valid escapes and sub-delimiters stay as written.
        assert_eq!(
            got("/a%20b(1)!.png").as_deref(),
            Some("https://x.org/a%20b(1)!.png")
        );
    }

    #[test]
    fn markdown_images_in_order_without_duplicates() {
        let md = "# T\n\n![a](/img/a.png) text ![b](b.jpg \"title\")\n\n![again](/img/a.png)\n\n[link](/not-an-image.png)\n\n![ref][r]\n\n[r]: ./ref.webp\n\n```\n![in code](/no.png)\n```\n";
        assert_eq!(image_sources(md), ["/img/a.png", "b.jpg", "./ref.webp"]);
    }

    #[test]
    fn img_tags_in_raw_html() {
        let md = "<figure>\n<img class=\"x\"\n     src=\"/fig.png\" alt='a > b'>\n</figure>\n\nInline <IMG SRC='inline.png'/> and <img src=bare.gif> and <imgx src=\"no.png\">.\n\n<img alt=\"no src\">\n\n<img src=\"/q?a=1&amp;b=2\">\n";
        assert_eq!(
            image_sources(md),
            ["/fig.png", "inline.png", "bare.gif", "/q?a=1&b=2"]
        );
    }

    #[test]
    fn shortcodes_and_markdown_images_in_document_order() {
        fn codes(body: &str) -> Vec<(usize, String)> {
            body.match_indices("[[")
                .map(|(at, _)| (at, body[at + 2..at + 7].to_string()))
                .collect()
        }
        let md =
            "![a](a.png) [[s.png]] ![b](b.png)\n\n<img src=\"c.png\">\n\n[[a.png]] [[t.png]]\n";
        assert_eq!(
            body_sources(md, Some(codes)),
            ["a.png", "s.png", "b.png", "c.png", "t.png"]
        );
        assert_eq!(body_sources(md, None), image_sources(md));
        // Shortcodes in comments show nothing.
        let md = "<!-- [[a.png]] -->\n[//]: # ([[b.png]])\n[[c.png]]\n<!-- [[d.png]]";
        assert_eq!(body_sources(md, Some(codes)), ["c.png"]);
    }

    #[test]
    fn shortcode_arguments_and_which_take_an_image() {
        let args = shortcode_args("src=\"a b.jpg\" alt='x, y' `pos` width=10, path=`p.png` 'q' k=");
        assert_eq!(
            args,
            [
                ("src", "a b.jpg"),
                ("alt", "x, y"),
                ("width", "10"),
                ("path", "p.png"),
                ("k", "")
            ]
        );
        assert_eq!(shortcode_image("figure", &[("src", "x")]), Some("x"));
        assert_eq!(shortcode_image("video", &[("src", "v.mp4")]), None);
        assert_eq!(
            shortcode_image("gallery", &[("image", "g.JPG?w=1")]),
            Some("g.JPG?w=1")
        );
        assert_eq!(shortcode_image("include", &[("path", "p.md")]), None);
        assert_eq!(shortcode_image("figure", &[("title", "t.png")]), None);
    }

    #[test]
    fn at_most_a_thousand_images() {
        let md: String = (0..1500).map(|i| format!("![i](/{i}.png)\n")).collect();
        let found = image_sources(&md);
        assert_eq!(found.len(), MAX_IMAGES);
        assert_eq!(found[999], "/999.png");
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_scanned_without_panics(s in "(\\PC|<img |src=|[\"'<>= ])*") {
            let found = image_sources(&s);
            proptest::prop_assert!(found.len() <= MAX_IMAGES);
            proptest::prop_assert!(found.iter().all(|f| !f.trim().is_empty()));
        }
    }

    fn resolve(src: &str, page: &str, base: &str) -> Option<String> {
        resolve_image(src, &Url::parse(page).unwrap(), &Url::parse(base).unwrap()).map(String::from)
    }

    #[test]
    fn resolves_against_page_and_base() {
        let page = "https://x.org/blog/posts/one/";
        let base = "https://x.org/blog/";
        assert_eq!(
            resolve("https://cdn.net/a.png", page, base).as_deref(),
            Some("https://cdn.net/a.png")
        );
        assert_eq!(
            resolve("http://cdn.net/a.png", page, base).as_deref(),
            Some("http://cdn.net/a.png")
        );
        assert_eq!(
            resolve("//cdn.net/a.png", page, base).as_deref(),
            Some("https://cdn.net/a.png")
        );
        assert_eq!(
            resolve("/img/a.png", page, base).as_deref(),
            Some("https://x.org/blog/img/a.png")
        );
        assert_eq!(
            resolve("/blog/img/a.png", page, base).as_deref(),
            Some("https://x.org/blog/img/a.png")
        );
        assert_eq!(
            resolve("pic.png", page, base).as_deref(),
            Some("https://x.org/blog/posts/one/pic.png")
        );
        assert_eq!(
            resolve("./pic.png", page, base).as_deref(),
            Some("https://x.org/blog/posts/one/pic.png")
        );
        assert_eq!(
            resolve("../x.png", page, base).as_deref(),
            Some("https://x.org/blog/posts/x.png")
        );
        assert_eq!(
            resolve("/img/a.png", "https://x.org/p/", "https://x.org").as_deref(),
            Some("https://x.org/img/a.png")
        );
        assert_eq!(
            resolve("/img/a.png", "https://x.org/b/p/", "https://x.org/b").as_deref(),
            Some("https://x.org/b/img/a.png")
        );
        assert_eq!(
            resolve("ünï cödé.png", page, base).as_deref(),
            Some("https://x.org/blog/posts/one/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.png")
        );
    }

    #[test]
    fn drops_other_schemes_and_empty_sources() {
        let (page, base) = ("https://x.org/p/", "https://x.org/");
        for src in [
            "data:image/png;base64,AAAA",
            "javascript:alert(1)",
            "mailto:a@b.c",
            "ftp://x.org/a.png",
            "file:///etc/x.png",
            "",
            "  ",
        ] {
            assert_eq!(resolve(src, page, base), None, "{src}");
        }
    }
}
