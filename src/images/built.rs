//! The images a built page shows in its main content, read with html5gum (the tokenizer the
//! audit reads heads with): `<img src>`, the largest candidate of an `<img srcset>` and of
//! each `<source srcset>` of a `<picture>`.
//!
//! The main content is `<main>` when the page has one, else its `<article>`s, else the whole
//! body but its `<header>`, `<footer>`, `<nav>` and `<aside>`: the theme's logo and icons
//! stay out. Images in a `<template>` are inert and not shown; those in a `<noscript>` are
//! read (a lazy-loading theme's fallback holds the real `src`).

use html5gum::{State, Token, Tokenizer};
use std::collections::{HashMap, HashSet};
use url::Url;

/// An image shown on at least this many pages read from the built output...
pub const REPEATED_MIN_PAGES: usize = 3;

/// ...and on at least this share of them (one in [`REPEATED_ONE_IN`]) is the theme's (a
/// logo, an avatar, an icon), not the page's: it is listed for none.
pub const REPEATED_ONE_IN: usize = 2;

/// The most images kept of one page before the site-wide ones are dropped: room for the
/// theme's repeated images besides the [`super::MAX_IMAGES`] a page may list.
const KEPT: usize = 2 * super::MAX_IMAGES;

/// What a built page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The first `<base href>`, as written: what relative URLs resolve against.
    pub base: Option<String>,
    /// The image URLs of its main content as written (entities decoded), in document order,
    /// without repeats.
    pub sources: Vec<String>,
}

/// The images the page `html` shows in its main content.
pub fn shown(html: &[u8]) -> Shown {
    let mut page = Page::default();
    let mut tokens = Tokenizer::new(html);
    while let Some(Ok(token)) = tokens.next() {
        match token {
            Token::StartTag(tag) => {
                let name: &[u8] = &tag.name;
                let attr = |key: &str| {
                    tag.attributes
                        .get(key.as_bytes())
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                };
                // A `/>` closes nothing in HTML: `<main/>` opens a main.
                page.start(name, &attr);
                // Text elements' contents are no markup; a `<noscript>`'s is read as markup,
                // as a browser without scripts reads it.
                if let Some(state) = text_state(name) {
                    tokens.set_state(state);
                }
            }
            Token::EndTag(tag) => page.end(&tag.name),
            _ => {}
        }
    }
    page.finish()
}

/// The absolute URL of an image `src` in a built page at `page`, whose first `<base href>`
/// is `base_href`: resolved as a browser resolves it (against the base, itself resolved
/// against the page), http(s) only, without a fragment, percent-encoded as RFC 3986 asks.
pub fn resolve(src: &str, page: &Url, base_href: Option<&str>) -> Option<Url> {
    let base = base_href.and_then(|b| page.join(b.trim()).ok());
    let url = base.as_ref().unwrap_or(page).join(src.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    super::rfc3986(super::without_fragment(url))
}

/// Drops from each page's images those shown on too many of the `pages` (at least
/// [`REPEATED_MIN_PAGES`], and at least one in [`REPEATED_ONE_IN`]): the theme's own.
pub fn drop_repeated(pages: &mut [Vec<String>]) {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for page in pages.iter() {
        for image in page {
            *count.entry(image.as_str()).or_default() += 1;
        }
    }
    let total = pages.len();
    let repeated: HashSet<String> = count
        .into_iter()
        .filter(|&(_, n)| n >= REPEATED_MIN_PAGES && n * REPEATED_ONE_IN >= total)
        .map(|(image, _)| image.to_string())
        .collect();
    if repeated.is_empty() {
        return;
    }
    for page in pages.iter_mut() {
        page.retain(|image| !repeated.contains(image));
    }
}

/// The state a start tag's contents are read in, when they are text.
fn text_state(name: &[u8]) -> Option<State> {
    match name {
        b"noscript" => None,
        name => html5gum::naive_next_state(name),
    }
}

/// Image URLs in order, without repeats, at most [`KEPT`].
#[derive(Debug, Default)]
struct Found {
    list: Vec<String>,
    seen: HashSet<String>,
}

impl Found {
    fn push(&mut self, src: &str) {
        if self.list.len() < KEPT && self.seen.insert(src.to_string()) {
            self.list.push(src.to_string());
        }
    }
}

/// The reading of one page: where in it the tokens are, and the images of each part.
#[derive(Debug, Default)]
struct Page {
    base: Option<String>,
    /// Open `<main>`, `<article>`, chrome (`<header>`, `<footer>`, `<nav>`, `<aside>`),
    /// `<template>` and `<picture>` elements.
    main: usize,
    article: usize,
    chrome: usize,
    template: usize,
    picture: usize,
    /// Whether the page has a `<main>`, an `<article>`.
    has_main: bool,
    has_article: bool,
    /// Images inside `<main>`, inside `<article>`, and outside the chrome.
    in_main: Found,
    in_article: Found,
    in_body: Found,
}

impl Page {
    fn start(&mut self, name: &[u8], attr: &dyn Fn(&str) -> Option<String>) {
        match name {
            b"main" => {
                self.main += 1;
                self.has_main = true;
            }
            b"article" => {
                self.article += 1;
                self.has_article = true;
            }
            b"header" | b"footer" | b"nav" | b"aside" => self.chrome += 1,
            b"template" => self.template += 1,
            b"picture" => self.picture += 1,
            b"base" if self.base.is_none() => self.base = attr("href"),
            b"img" => {
                if let Some(src) = attr("src") {
                    self.image(&src);
                }
                if let Some(set) = attr("srcset") {
                    self.image(largest_candidate(&set).unwrap_or_default());
                }
            }
            b"source" if self.picture > 0 => {
                if let Some(set) = attr("srcset") {
                    self.image(largest_candidate(&set).unwrap_or_default());
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, name: &[u8]) {
        let open = match name {
            b"main" => &mut self.main,
            b"article" => &mut self.article,
            b"header" | b"footer" | b"nav" | b"aside" => &mut self.chrome,
            b"template" => &mut self.template,
            b"picture" => &mut self.picture,
            _ => return,
        };
        *open = open.saturating_sub(1);
    }

    fn image(&mut self, src: &str) {
        let src = src.trim();
        if src.is_empty() || self.template > 0 {
            return;
        }
        if self.main > 0 {
            self.in_main.push(src);
        }
        if self.article > 0 {
            self.in_article.push(src);
        }
        if self.chrome == 0 {
            self.in_body.push(src);
        }
    }

    fn finish(self) -> Shown {
        let found = if self.has_main {
            self.in_main
        } else if self.has_article {
            self.in_article
        } else {
            self.in_body
        };
        Shown {
            base: self.base,
            sources: found.list,
        }
    }
}

/// The largest candidate of a `srcset`: the widest by `w` descriptor, else the densest by
/// `x` (a candidate without one is `1x`); the first of equals. Split as the HTML standard
/// splits a srcset: a URL runs to whitespace, its descriptors to a comma outside parentheses.
pub fn largest_candidate(srcset: &str) -> Option<&str> {
    let b = srcset.as_bytes();
    let mut i = 0;
    // (has a width, the width or density, the URL)
    let mut best: Option<(bool, f64, &str)> = None;
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let url = &srcset[start..i];
        let descriptors = if url.ends_with(',') {
            ""
        } else {
            let from = i;
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'(' => depth += 1,
                    b')' => depth = depth.saturating_sub(1),
                    b',' if depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            &srcset[from..i]
        };
        let url = url.trim_end_matches(',');
        let size = size_of(descriptors);
        let better = match best {
            None => true,
            Some((w, v, _)) => (size.0, size.1) > (w, v),
        };
        if better && !url.is_empty() {
            best = Some((size.0, size.1, url));
        }
    }
    best.map(|(_, _, url)| url)
}

/// A candidate's size from its descriptors: `(true, width)` for `Nw`, `(false, density)`
/// for `Nx`, `(false, 1.0)` for none (or none that parses).
fn size_of(descriptors: &str) -> (bool, f64) {
    for d in descriptors.split_ascii_whitespace() {
        if let Some(w) = d.strip_suffix('w').and_then(|n| n.parse::<u32>().ok()) {
            return (true, f64::from(w));
        }
        if let Some(x) = d
            .strip_suffix('x')
            .and_then(|n| n.parse::<f64>().ok())
            .filter(|x| x.is_finite())
        {
            return (false, x);
        }
    }
    (false, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(html: &str) -> Vec<String> {
        shown(html.as_bytes()).sources
    }

    #[test]
    fn the_largest_candidate_by_width_else_density() {
        assert_eq!(
            largest_candidate("a.jpg 480w, b.jpg 1080w, c.jpg 800w"),
            Some("b.jpg")
        );
        assert_eq!(
            largest_candidate("a.jpg, b.jpg 2x, c.jpg 1.5x"),
            Some("b.jpg")
        );
        // A URL may hold commas; the candidate's comma is the one after whitespace.
        assert_eq!(
            largest_candidate("/i/x,w_100.jpg 100w,/i/x,w_900.jpg 900w"),
            Some("/i/x,w_900.jpg")
        );
        assert_eq!(largest_candidate("a.jpg 1x,b.jpg 3x"), Some("b.jpg"));
        assert_eq!(largest_candidate("a.jpg, b.jpg 3x,"), Some("b.jpg"));
        // Without whitespace after it, a comma is the URL's own.
        assert_eq!(largest_candidate("a.jpg,b.jpg 3x"), Some("a.jpg,b.jpg"));
        // Widths win over densities; the first of equals stays.
        assert_eq!(largest_candidate("a.jpg 9x, b.jpg 10w"), Some("b.jpg"));
        assert_eq!(largest_candidate("a.jpg 10w, b.jpg 9x"), Some("a.jpg"));
        assert_eq!(largest_candidate("a.jpg 2x, b.jpg 2x"), Some("a.jpg"));
        assert_eq!(largest_candidate(" , ,"), None);
        assert_eq!(largest_candidate(""), None);
    }

    #[test]
    fn main_content_is_main_else_articles_else_the_body_without_its_chrome() {
        let chrome = "<header><img src=/logo.svg></header><nav><img src=/menu.svg></nav>";
        let html = format!(
            "<!doctype html><html><head><base href=/b/></head><body>{chrome}<img src=out.png><main><header><img src=cover.jpg></header><p><img src=a.png></main><footer><img src=/f.svg></footer></body></html>"
        );
        let got = shown(html.as_bytes());
        assert_eq!(got.sources, ["cover.jpg", "a.png"]);
        assert_eq!(got.base.as_deref(), Some("/b/"));
        assert_eq!(
            sources(&format!(
                "<body>{chrome}<img src=x.png><article><header><img src=c.jpg></header></article><article><img src=d.jpg></article></body>"
            )),
            ["c.jpg", "d.jpg"]
        );
        assert_eq!(
            sources(&format!(
                "<body>{chrome}<div><img src=x.png></div><aside><img src=ad.png></aside><IMG SRC='y.png'></body>"
            )),
            ["x.png", "y.png"]
        );
    }

    #[test]
    fn img_srcset_and_picture_sources() {
        let html = r#"<main>
<img src="s.jpg" srcset="s.jpg 300w, l.jpg 1200w" alt="">
<picture><source type="image/avif" srcset="p.avif 1x, p2.avif 2x"><source srcset="p.webp"><img src="p.jpg"></picture>
<source srcset="not-in-picture.jpg">
<img src="s.jpg"><img src="/q?a=1&amp;b=2"><img alt="no src"><img src="  ">
</main>"#;
        assert_eq!(
            sources(html),
            ["s.jpg", "l.jpg", "p2.avif", "p.webp", "p.jpg", "/q?a=1&b=2"]
        );
    }

    #[test]
    fn markup_that_shows_nothing_is_not_read() {
        let html = r#"<main><!-- <img src="c.png"> --><script>let s = '<img src="j.png">';</script>
<style>/* <img src="s.png"> */</style><textarea><img src="t.png"></textarea>
<template><img src="tpl.png"></template><noscript><img src="lazy.jpg"></noscript>
<img src="data:image/gif;base64,R0lGOD" data-src="lazy.jpg"></main>"#;
        assert_eq!(sources(html), ["lazy.jpg", "data:image/gif;base64,R0lGOD"]);
    }

    #[test]
    fn at_most_the_kept_number_of_images() {
        let html: String = (0..KEPT + 5)
            .map(|i| format!("<img src=/{i}.png>"))
            .collect();
        let got = sources(&html);
        assert_eq!(got.len(), KEPT);
        assert_eq!(got[KEPT - 1], format!("/{}.png", KEPT - 1));
    }

    #[test]
    fn built_sources_resolve_as_a_browser_resolves_them() {
        let page = Url::parse("https://x.org/docs/a/").unwrap();
        let got = |src: &str, base: Option<&str>| resolve(src, &page, base).map(String::from);
        assert_eq!(
            got("i.png", None).as_deref(),
            Some("https://x.org/docs/a/i.png")
        );
        // A path from the root is the host's root: the built page's links are final.
        assert_eq!(got("/i.png", None).as_deref(), Some("https://x.org/i.png"));
        assert_eq!(
            got("i.png", Some("/docs/")).as_deref(),
            Some("https://x.org/docs/i.png")
        );
        assert_eq!(
            got("//cdn.net/a b|.png", None).as_deref(),
            Some("https://cdn.net/a%20b%7C.png")
        );
        assert_eq!(
            got("a.png#center", None).as_deref(),
            Some("https://x.org/docs/a/a.png")
        );
        assert_eq!(got("data:image/gif;base64,R0lG", None), None);
        assert_eq!(got("javascript:x()", None), None);
    }

    #[test]
    fn images_on_half_the_pages_or_more_are_the_themes() {
        let page = |srcs: &[&str]| srcs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut pages = vec![
            page(&["logo", "a"]),
            page(&["logo", "b", "shared"]),
            page(&["logo", "shared"]),
            page(&["logo", "shared"]),
            page(&["c"]),
            page(&["logo"]),
            page(&[]),
        ];
        // logo: 5 of 7, shared: 3 of 7 (under half).
        drop_repeated(&mut pages);
        assert_eq!(pages[0], ["a"]);
        assert_eq!(pages[1], ["b", "shared"]);
        assert_eq!(pages[5], Vec::<String>::new());
        // On a small site an image on every page is kept below three pages.
        let mut two = vec![page(&["x"]), page(&["x"])];
        drop_repeated(&mut two);
        assert_eq!(two[1], ["x"]);
    }

    proptest::proptest! {
        #[test]
        fn any_markup_is_read_without_panics(s in "(\\PC|<img |<main>|</main>|srcset=|src=|[\"'<>=, ])*") {
            let got = shown(s.as_bytes());
            proptest::prop_assert!(got.sources.len() <= KEPT);
            proptest::prop_assert!(got.sources.iter().all(|f| !f.trim().is_empty()));
        }
    }
}
