//! What a reader sees of a page, boiled down to a few numbers: its words (the text its front
//! matter shows, then the rendered text, in the order they read, an embed counting as one
//! word) and the sites its links lead to. Two versions of a file with the same
//! [`Fingerprint`] differ only in ways no reader notices:
//! whitespace and reflowed lines, Markdown markup (emphasis, list markers, table layout), a
//! code fence's language tag, image sources, HTML tags and their attributes, shortcode
//! arguments, the front matter's format, and its short values (tags, dates, paths).

use crate::frontmatter::reader_view;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::hash::Hasher;

/// A version of a file as a reader sees it (64 bits a part: a collision is not worth a
/// thought).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// The title, the description and the other text the front matter shows.
    head: u64,
    /// The words of the body, in order.
    words: u64,
    /// Where the links go, in order.
    links: u64,
    /// How many of the body's words fall in each of 64 buckets (by a hash of the word): two versions'
    /// counts tell how many words one adds or removes against the other, give or take a
    /// collision.
    sketch: [u16; 64],
    /// Whether the words were counted in `sketch` (not for bytes compared as bytes).
    sketched: bool,
}

/// How large the commit that made an edit is, as far as judging the edit goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Fewer pages than `mass_edit`: every change a reader sees counts.
    One,
    /// A mass edit (`mass_edit` pages or more): a few words changed do not count.
    Mass,
    /// A mass edit of [`SWEEP`] pages or more: nor do links moved to another site.
    Sweep,
}

/// A mass edit of this many pages (or `mass_edit`, when higher) is a sweep: a CDN or domain
/// moved, links pointed at a new home. A smaller one that moves links to another site dates
/// its pages: on the lastmod oracle (docs/lastmod.md) 3 pages more within a day, whose
/// author dated a 7-page commit that pointed their links at the site's own docs; 8 to 12
/// pages alike, 13 and up lose 2 pages.
pub const SWEEP: usize = 10;

impl Scale {
    /// The scale of a commit that changed `pages` pages, mass edits starting at `mass_edit`.
    pub fn of(pages: usize, mass_edit: Option<usize>) -> Scale {
        match mass_edit {
            Some(m) if pages >= Scale::sweep_from(m) => Scale::Sweep,
            Some(m) if pages >= m => Scale::Mass,
            _ => Scale::One,
        }
    }

    /// How many pages make a sweep, when mass edits start at `mass_edit` pages.
    pub fn sweep_from(mass_edit: usize) -> usize {
        mass_edit.max(SWEEP)
    }
}

/// In a mass edit, a page whose words change this little (words added plus words removed, a
/// replaced word counting both ways: three words replaced) is taken for a sweep (a spelling
/// or capitalisation fix, an em dash added to every caption), not a revision of the page.
pub const SMALL_EDIT: u32 = 6;

impl Fingerprint {
    /// Whether a reader sees the same in `self` and `other`, for an edit of this `scale`. A
    /// mass edit counts only where it changed the title or description, or more than a few
    /// words of the body ([`SMALL_EDIT`]); a sweep also not where it moved links to another
    /// site (a site-wide rewrite, not a revision of this page).
    pub fn reads_as(self, other: Fingerprint, scale: Scale) -> bool {
        if self.head != other.head {
            return false;
        }
        let links = scale == Scale::Sweep || self.links == other.links;
        if self.words == other.words {
            return links;
        }
        scale != Scale::One && links && self.words_changed(&other) <= SMALL_EDIT
    }

    /// Words added plus words removed from `self` to `other`, as the sketches tell.
    fn words_changed(&self, other: &Fingerprint) -> u32 {
        if !(self.sketched && other.sketched) {
            return u32::MAX;
        }
        self.sketch
            .iter()
            .zip(&other.sketch)
            .map(|(a, b)| u32::from(a.abs_diff(*b)))
            .sum()
    }
}

/// How two versions of a file are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// By what a reader sees (`lastmod_significance = "content"`).
    Reader,
    /// Byte for byte (`"any-commit"`): any edit counts, a pure move does not.
    Bytes,
}

/// Field separator: a byte UTF-8 text never holds, so fields cannot run into each other.
const SEP: u8 = 0xff;

/// The fingerprint of one version of a file.
pub fn fingerprint(bytes: &[u8], how: Compare) -> Fingerprint {
    let mut sketch = [0u16; 64];
    let mut head = std::hash::DefaultHasher::new();
    let mut words = std::hash::DefaultHasher::new();
    let mut links = std::hash::DefaultHasher::new();
    let view = match how {
        Compare::Reader => std::str::from_utf8(bytes).ok().and_then(reader_view),
        Compare::Bytes => None,
    };
    match (view, how) {
        (Some(v), _) => {
            words.write_u8(1);
            let fields = [v.title.as_deref(), v.description.as_deref()];
            for field in fields
                .into_iter()
                .chain(v.shown.iter().map(|s| Some(s.as_str())))
            {
                if let Some(f) = field {
                    hash_words(&mut head, f, None);
                }
                head.write_u8(SEP);
            }
            // Longer texts are read as more of the body: their markup (an excerpt's `<a>` tags,
            // a note's emphasis) is not what a reader sees, and in a mass edit a word or two
            // changed there does not count either. The sites their links lead to are not read.
            let mut unread = std::hash::DefaultHasher::new();
            for text in &v.prose {
                let seen = rendered(text, &mut unread);
                hash_words(&mut words, &seen, Some(&mut sketch));
                words.write_u8(SEP);
            }
            let seen = rendered(v.body, &mut links);
            hash_words(&mut words, &seen, Some(&mut sketch));
        }
        // Not text, or a front matter that does not parse: every byte counts but the blanks.
        (None, Compare::Reader) => {
            words.write_u8(2);
            hash_words(
                &mut words,
                &String::from_utf8_lossy(bytes),
                Some(&mut sketch),
            );
        }
        (None, Compare::Bytes) => {
            words.write_u8(3);
            words.write(bytes);
        }
    }
    Fingerprint {
        head: head.finish(),
        words: words.finish(),
        links: links.finish(),
        sketch,
        sketched: how == Compare::Reader,
    }
}

/// Feeds the words of `text` to `h`, one space between them: any run of whitespace (line
/// breaks, indentation, trailing blanks, `\r`) reads as one space, and none at either end.
/// Each word is counted in its bucket of `sketch`, when one is given.
fn hash_words(h: &mut impl Hasher, text: &str, mut sketch: Option<&mut [u16; 64]>) {
    for (i, w) in text.split_whitespace().enumerate() {
        if i > 0 {
            h.write_u8(b' ');
        }
        h.write(w.as_bytes());
        let Some(sketch) = sketch.as_deref_mut() else {
            continue;
        };
        // FNV-1a: a word's bucket needs no more.
        let bucket = w.bytes().fold(0xcbf2_9ce4_8422_2325u64, |a, b| {
            (a ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }) % 64;
        let n = &mut sketch[bucket as usize];
        *n = n.saturating_add(1);
    }
}

/// The text a reader sees of a Markdown body, rendered with the extensions Zola and Hugo turn
/// on (tables, footnotes, strikethrough, task lists); the sites its links lead to are fed to
/// `links`.
/// Text inside an image (its alt text) is not seen; neither are shortcode tags.
fn rendered(body: &str, links: &mut impl Hasher) -> String {
    let body = without_shortcode_tags(body);
    let body = without_unseen_lines(&body);
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let mut seen = String::with_capacity(body.len());
    // The lines of an HTML block, read as one piece (a tag may span lines).
    let mut block = String::new();
    let mut in_image = 0usize;
    for event in Parser::new_ext(&body, options) {
        if !matches!(event, Event::Html(_)) && !block.is_empty() {
            html_text(&block, &mut seen, links);
            seen.push(' ');
            block.clear();
        }
        match event {
            Event::Text(t) | Event::Code(t) if in_image == 0 => seen.push_str(&t),
            Event::Html(h) => block.push_str(&h),
            Event::InlineHtml(h) => html_text(&h, &mut seen, links),
            Event::SoftBreak | Event::HardBreak => seen.push(' '),
            Event::Start(Tag::Link { dest_url, .. }) => {
                hash_link(links, &dest_url);
            }
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image = in_image.saturating_sub(1),
            Event::End(
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link,
            ) => {}
            // The end of a block (and of a table cell) separates words.
            Event::End(_) => seen.push(' '),
            _ => {}
        }
    }
    html_text(&block, &mut seen, links);
    seen
}

/// `body` with the shortcode tags of both generators cut out: Hugo's `{{< name args >}}`,
/// `{{% name args %}}` and their closing tags, Zola's `{{ name(args) }}`, `{% name(args) %}`
/// and `{% end %}`. The text between an opening and a closing tag is Markdown a reader sees,
/// and stays; the arguments (a figure's source, a class) are not counted. A tag that stands
/// alone, with no text of its own (a video, a tweet, a figure: Zola's `{{ name() }}`, a Hugo
/// shortcode never closed, a Liquid tag without its `end` tag), is something the reader sees
/// added or taken away, so it stays as one word, [`EMBED`]; a wrapper does not (a note box,
/// smaller type). Measured on the lastmod oracle (docs/lastmod.md): 2 pages more within a day.
fn without_shortcode_tags(body: &str) -> std::borrow::Cow<'_, str> {
    if !body.contains("{{") && !body.contains("{%") {
        return body.into();
    }
    // Each tag with the name it closes, if it is a closing tag (`{{< /name >}}`, `{% endname
    // %}`), read once.
    let tags: Vec<_> = shortcode_tags(body)
        .into_iter()
        .map(|t| {
            let closing = closes(&body[t.clone()]);
            (t, closing)
        })
        .collect();
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for (t, closing) in &tags {
        out.push_str(&body[last..t.start]);
        out.push(' ');
        let tag = &body[t.clone()];
        let inner = tag_inner(tag);
        let name = tag_name(inner);
        // Zola's `{% name(…) %}` always has a body.
        let zola_body = tag.starts_with("{%") && inner[name.len()..].starts_with('(');
        if !name.is_empty()
            && closing.is_none()
            && !NO_OUTPUT.contains(&name)
            && !zola_body
            && !tags
                .iter()
                .any(|(_, c)| c.is_some_and(|c| c.eq_ignore_ascii_case(name)))
        {
            out.push_str(EMBED);
            out.push(' ');
        }
        last = t.end;
    }
    out.push_str(&body[last..]);
    out.into()
}

/// Tags that stand alone and show nothing: the Liquid and Nunjucks tags that set a variable or
/// branch (their `if` and `for` are wrappers, closed by `endif`, `endfor`).
const NO_OUTPUT: &[&str] = &[
    "else",
    "elsif",
    "elif",
    "when",
    "assign",
    "set",
    "break",
    "continue",
    "increment",
    "decrement",
];

/// The word an embed reads as: where it stands counts, not what it shows (a newsletter form
/// moved from an `<iframe>` into a shortcode is the same to a reader). A control character, so
/// no word of the page reads the same.
const EMBED: &str = "\u{1}embed";

/// Where the shortcode tags of `body` lie, in order.
fn shortcode_tags(body: &str) -> Vec<std::ops::Range<usize>> {
    let mut tags = Vec::new();
    let mut at = 0;
    while let Some(found) = body[at..].find('{') {
        let from = at + found;
        let close = if body[from..].starts_with("{{") {
            Some("}}")
        } else if body[from..].starts_with("{%") {
            Some("%}")
        } else {
            None
        };
        match close.and_then(|c| body[from + 2..].find(c).map(|end| (c, end))) {
            Some((c, end)) if is_shortcode(&body[from + 2..from + 2 + end], c == "%}") => {
                let to = from + 2 + end + c.len();
                tags.push(from..to);
                at = to;
            }
            _ => at = from + 1,
        }
    }
    tags
}

/// The name a closing tag closes: Hugo's `{{< /name >}}`, Liquid's and Nunjucks' `{% endname
/// %}` (Zola's `{% end %}` closes an unnamed body: `""`).
fn closes(tag: &str) -> Option<&str> {
    let inner = tag_inner(tag);
    match inner.strip_prefix('/') {
        Some(name) => Some(tag_name(name.trim_start())),
        None if tag.starts_with("{%") => inner.strip_prefix("end").map(tag_name),
        None => None,
    }
}

/// A tag's inside without its delimiters: `{{< name x >}}`, `{{% name %}}`, `{%- name -%}`
/// and `{{ name() }}` all give `name …`.
fn tag_inner(tag: &str) -> &str {
    tag.get(2..tag.len().saturating_sub(2))
        .unwrap_or("")
        .trim_matches(|c: char| matches!(c, '<' | '>' | '%' | '-') || c.is_whitespace())
}

/// The name a tag's inside starts with.
fn tag_name(inner: &str) -> &str {
    let end = inner
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(inner.len());
    &inner[..end]
}

/// `body` without the lines a reader never sees as such: the fences of markdown-it containers
/// and admonitions (`:::callout`, `::: tip`, a closing `:::`), which some generators render as
/// a box around the text, and abbreviation definitions (`*[HTML]: HyperText Markup Language`,
/// read by kramdown, PHP Markdown Extra, MultiMarkdown, markdown-it-abbr and Python-Markdown),
/// which only add a tooltip to the word where it is used. Measured on the lastmod oracle
/// (docs/lastmod.md): 2 pages more within a day, where abbreviations moved into `<abbr>` tags.
fn without_unseen_lines(body: &str) -> std::borrow::Cow<'_, str> {
    if !body.contains(":::") && !body.contains("*[") {
        return body.into();
    }
    body.lines()
        .filter(|l| !l.trim_start().starts_with(":::") && !is_abbreviation(l))
        .flat_map(|l| [l, "\n"])
        .collect::<String>()
        .into()
}

/// Whether `line` defines an abbreviation: `*[` at its start, then the term and `]:`.
fn is_abbreviation(line: &str) -> bool {
    line.strip_prefix("*[")
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(term, _)| !term.is_empty() && !term.contains(']'))
}

/// Whether the inside of `{{ … }}` (`percent` false) or `{% … %}` (true) is a tag, not
/// literal braces in the text. `{{`: Hugo's `< name … >` and `% name … %`, a template comment
/// `/* … */`, Zola's `name(…)`. `{%`: Zola's `name(…)` and `end`, and the Liquid and Nunjucks
/// tags of Jekyll and Eleventy folders (`include 'x.md'`, `- partial "y" -`): a name first,
/// on one line.
fn is_shortcode(inner: &str, percent: bool) -> bool {
    let t = inner.trim();
    if percent {
        let tag = t.trim_matches('-').trim_start();
        return tag.starts_with(|c: char| c.is_ascii_alphabetic()) && !tag.contains('\n');
    }
    if t.starts_with('<') && t.ends_with('>') || t.starts_with('%') && t.ends_with('%') {
        return true;
    }
    if t.starts_with("/*") && t.ends_with("*/") {
        return true;
    }
    let name_end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    name_end > 0 && t[name_end..].starts_with('(') && t.ends_with(')') && !t.contains('\n')
}

/// The text of a piece of HTML a reader sees: what lies outside its tags and comments. A
/// link's `href` is fed to `links`; other attributes are not seen.
fn html_text(html: &str, seen: &mut String, links: &mut impl Hasher) {
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        seen.push_str(&rest[..at]);
        let tag = &rest[at..];
        let end = if tag.starts_with("<!--") {
            tag.find("-->").map(|e| e + 3)
        } else {
            tag.find('>').map(|e| e + 1)
        };
        // An unclosed tag: the rest is inside it.
        let end = end.unwrap_or(tag.len());
        if let Some(href) = href_of(&tag[..end]) {
            hash_link(links, href);
        }
        if is_embed_element(&tag[..end]) {
            seen.push(' ');
            seen.push_str(EMBED);
            seen.push(' ');
        }
        rest = &tag[end..];
        // What a script or a style element holds is run or applied, never read.
        if let Some(name) = hidden_element(&tag[..end]) {
            let close = find_ascii_nocase(rest, &format!("</{name}"));
            rest = close.map_or("", |c| {
                let after = &rest[c..];
                &after[after.find('>').map_or(after.len(), |e| e + 1)..]
            });
        }
    }
    seen.push_str(rest);
}

/// Whether `tag` opens an element that shows something of its own, as a standalone shortcode
/// does: a frame, a video, a sound, a plugin.
fn is_embed_element(tag: &str) -> bool {
    element_named(tag, &["iframe", "video", "audio", "embed", "object"]).is_some()
}

/// `script` or `style` when `tag` opens such an element.
fn hidden_element(tag: &str) -> Option<&'static str> {
    element_named(tag, &["script", "style"])
}

/// Which of `names` the element `tag` opens, if any.
fn element_named(tag: &str, names: &[&'static str]) -> Option<&'static str> {
    // Bytes, not chars: a tag may hold any text past its name.
    let inner = tag.strip_prefix('<')?.as_bytes();
    names.iter().copied().find(|name| {
        inner.len() > name.len()
            && inner[..name.len()].eq_ignore_ascii_case(name.as_bytes())
            && matches!(
                inner[name.len()],
                b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'
            )
    })
}

/// Where `needle` (ASCII) first occurs in `hay`, without regard to case.
fn find_ascii_nocase(hay: &str, needle: &str) -> Option<usize> {
    hay.as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Feeds where a link goes to `links`: the site it leads to (its host, in lower case), or for
/// a link within the site (a relative address, a fragment) only that there is one. A link
/// moved to another address on the same site (a moved page, a broken link mended, `http:` to
/// `https:`) is the same link to a reader; one to another site, or a link added or removed,
/// is not. Measured on the lastmod oracle (docs/lastmod.md): 62% of the pages within a day,
/// against 61% when every change of address counted.
fn hash_link(links: &mut impl Hasher, url: &str) {
    let url = url.trim();
    let host = match url.split_once("://") {
        Some((scheme, rest))
            if scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
        {
            &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())]
        }
        _ => "",
    };
    for b in host.bytes() {
        links.write_u8(b.to_ascii_lowercase());
    }
    links.write_u8(SEP);
}

/// The `href` of an `<a …>` tag.
fn href_of(tag: &str) -> Option<&str> {
    let inner = tag.strip_prefix('<')?;
    if !(inner.starts_with(['a', 'A']) && inner[1..].starts_with(|c: char| c.is_whitespace())) {
        return None;
    }
    let at = inner.to_ascii_lowercase().find("href=")?;
    let value = &inner[at + 5..];
    let (quote, value) = match value.chars().next()? {
        q @ ('"' | '\'') => (q, &value[1..]),
        _ => (' ', value),
    };
    let end = value.find([quote, '>']).unwrap_or(value.len());
    Some(&value[..end])
}

/// The fingerprint of a file too large to hold whole, fed in pieces: every byte counts.
pub struct Streamed(std::hash::DefaultHasher);

impl Streamed {
    /// No bytes yet.
    pub fn new() -> Streamed {
        let mut h = std::hash::DefaultHasher::new();
        h.write_u8(4);
        Streamed(h)
    }

    /// The next piece.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    /// The fingerprint.
    pub fn finish(&self) -> Fingerprint {
        Fingerprint {
            head: 0,
            words: self.0.finish(),
            links: 0,
            // No words counted: in a mass edit, as in any other, every byte counts.
            sketch: [0; 64],
            sketched: false,
        }
    }
}

impl Default for Streamed {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        fingerprint(a.as_bytes(), Compare::Reader) == fingerprint(b.as_bytes(), Compare::Reader)
    }

    #[test]
    fn reformatted_front_matter_and_other_keys_are_the_same_page() {
        let toml = "+++\ntitle = \"Hello\"\ndate = 2024-01-01\n+++\nSome text.\n";
        let yaml = "---\ndate: 2024-01-01\ntitle: 'Hello'\ntags: [a]\n---\nSome text.\n";
        let json = "{\n  \"title\": \"Hello\"\n}\nSome text.\n";
        assert!(same(toml, yaml));
        assert!(same(toml, json));
        assert!(!same(toml, &toml.replace("Hello", "Hello!")));
        let described = toml.replace("+++\nSome", "description = \"d\"\n+++\nSome");
        assert!(!same(toml, &described));
    }

    #[test]
    fn longer_front_matter_texts_and_nested_titles_are_read_but_not_tags_or_dates() {
        let page = "---\ntitle: A review\ndate: 2020-01-01\ntags: [books]\n---\nText.\n";
        // An audience note, a change log entry or a retraction notice the page shows.
        let noted = page.replace(
            "tags:",
            "qualifiers:\n  audience: People who like long books about short things.\ntags:",
        );
        assert!(!same(page, &noted));
        let logged = page.replace(
            "tags:",
            "updates:\n  - at: 2021-01-01\n    changes: Added a retraction of the whole review.\ntags:",
        );
        assert!(!same(page, &logged));
        // Read as more of the body: markup unseen, and a word or two in a mass edit passes.
        let excerpt = page.replace(
            "tags:",
            "excerpt: Why don't we use <a href=\"https://x.example/tls\">TLS</a> everywhere, then?\ntags:",
        );
        assert!(same(
            &excerpt,
            &excerpt.replace("<a href=\"https://x.example/tls\">TLS</a>", "TLS")
        ));
        let fixed = excerpt.replace("everywhere", "anywhere");
        assert!(!same(&excerpt, &fixed));
        assert!(reads_as(&excerpt, &fixed, Scale::Mass));
        // A book's title, however short.
        let book = page.replace("tags:", "book:\n  title: Dune\ntags:");
        assert!(!same(&book, &book.replace("Dune", "Dune Messiah")));
        // Tags, short values and dates are not text a reader is shown; nor is a date written
        // out in words (six words, but only two hold a letter).
        assert!(same(
            page,
            &page.replace("[books]", "[books, book reviews, sci-fi]")
        ));
        assert!(same(page, &page.replace("tags:", "image: /a/b.png\ntags:")));
        let dated = page.replace("date: 2020-01-01", "date: Sat, 22 Aug 2020 21:00:55 -0600");
        assert!(same(&dated, &dated.replace("22 Aug", "23 Aug")));
    }

    #[test]
    fn whitespace_is_one_space_and_words_still_count() {
        let a = "+++\n+++\nOne two\nthree.\n";
        assert!(same(a, "+++\n+++\r\n\r\n  One   two three.  \r\n\n"));
        assert!(!same(a, "+++\n+++\nOnetwo three.\n"));
        assert!(!same(a, "+++\n+++\nOne two three!\n"));
        // The body is not the title: moving text between them is a change.
        assert!(!same("+++\ntitle = \"a\"\n+++\n", "+++\n+++\na\n"));
    }

    fn reads_as(a: &str, b: &str, scale: Scale) -> bool {
        let (x, y) = (
            fingerprint(a.as_bytes(), Compare::Reader),
            fingerprint(b.as_bytes(), Compare::Reader),
        );
        x.reads_as(y, scale)
    }

    /// The same to a reader, in a sweep.
    fn words_alike(a: &str, b: &str) -> bool {
        reads_as(a, b, Scale::Sweep)
    }

    #[test]
    fn a_commit_is_a_mass_edit_from_mass_edit_pages_and_a_sweep_from_ten() {
        assert_eq!(Scale::of(6, Some(7)), Scale::One);
        assert_eq!(Scale::of(7, Some(7)), Scale::Mass);
        assert_eq!(Scale::of(9, Some(7)), Scale::Mass);
        assert_eq!(Scale::of(10, Some(7)), Scale::Sweep);
        assert_eq!(Scale::of(12, Some(20)), Scale::One);
        assert_eq!(Scale::of(20, Some(20)), Scale::Sweep);
        assert_eq!(Scale::of(3, Some(3)), Scale::Mass);
        assert_eq!(Scale::of(1000, None), Scale::One);
    }

    #[test]
    fn markup_a_reader_does_not_see_is_no_change() {
        let a = "+++\n+++\nSome *very* important text.\n\n```rust\nfn main() {}\n```\n";
        // Emphasis, a code fence's language, a reflowed paragraph.
        assert!(same(a, &a.replace("*very*", "**very**")));
        assert!(same(a, &a.replace("```rust", "```rs")));
        assert!(same(a, &a.replace("important text", "important\ntext")));
        // The code itself is read.
        assert!(!same(a, &a.replace("main()", "start()")));
        // Image sources and alt text, HTML attributes, comments.
        let img = "+++\n+++\nSee ![a cat](cat.png) here.\n";
        assert!(same(
            img,
            &img.replace("cat.png", "https://cdn.example/cat.webp")
        ));
        assert!(same(img, &img.replace("a cat", "a grey cat")));
        let html = "+++\n+++\n<div class=\"note\">\nA <span style=\"x\">note</span>.\n</div>\n";
        assert!(same(
            html,
            &html.replace("class=\"note\"", "class=\"note\" role=\"note\"")
        ));
        assert!(same(html, &html.replace(" style=\"x\"", "")));
        assert!(!same(html, &html.replace("A <span", "One <span")));
        assert!(same(html, &html.replace("</div>", "<!-- done -->\n</div>")));
        // A table's layout.
        let t = "+++\n+++\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        assert!(same(t, "+++\n+++\n|a|b|\n|:--|--:|\n|1|2|\n"));
        assert!(!same(t, &t.replace("| 2", "| 3")));
    }

    #[test]
    fn the_site_a_link_leads_to_counts_but_not_in_a_mass_edit() {
        let a = "+++\n+++\nRead [the guide](https://example.com/master/guide).\n";
        // Another address on the same site (a moved page, a mended link) reads the same.
        assert!(same(a, &a.replace("master", "main")));
        assert!(same(
            a,
            &a.replace("https://example.com", "HTTPS://Example.COM")
        ));
        // Another site does not, but a sweep may move every link to one; a smaller mass edit
        // that does dates the page.
        let elsewhere = a.replace("example.com", "example.org");
        assert!(!same(a, &elsewhere));
        assert!(words_alike(a, &elsewhere));
        assert!(!reads_as(a, &elsewhere, Scale::Mass));
        assert!(!reads_as(a, &elsewhere.replace("Read", "See"), Scale::Mass));
        assert!(reads_as(a, &a.replace("Read", "See"), Scale::Mass));
        assert!(!reads_as(a, &a.replace("Read", "See"), Scale::One));
        let html = "+++\n+++\n<p>Read <a class=\"x\" href=\"/a\">this</a>.</p>\n";
        assert!(same(html, &html.replace("/a", "/b#top")));
        assert!(same(html, &html.replace("class=\"x\"", "class=\"y\"")));
        assert!(!same(
            html,
            &html.replace("\"/a\"", "\"https://example.com/a\"")
        ));
        // A link added or removed where the words stay.
        let linked = "+++\n+++\nRead [this](/a) and [that](/b).\n";
        assert!(!same(linked, "+++\n+++\nRead [this](/a) and that.\n"));
        assert!(words_alike(linked, "+++\n+++\nRead [this](/a) and that.\n"));
        // In a mass edit, a sweep of three words or fewer does not count; more words do.
        assert!(words_alike(a, &a.replace("Read", "See")));
        let three = a.replace("Read [the", "You could read [the");
        assert!(words_alike(a, &three) && !same(a, &three));
        let revised = a.replace("guide)", "guide), which covers the new release in full");
        assert!(!words_alike(a, &revised));
    }

    #[test]
    fn shortcode_tags_are_not_read_but_their_text_is() {
        let hugo = "+++\n+++\n{{< figure src=\"a.png\" >}}\n\n{{% note %}}\nMind the gap.\n{{% /note %}}\n";
        assert!(same(hugo, &hugo.replace("a.png", "b.png")));
        assert!(!same(hugo, &hugo.replace("Mind", "Watch")));
        let zola = "+++\n+++\n{{ youtube(id=\"abc\") }}\n\n{% note(kind=\"info\") %}\nMind the gap.\n{% end %}\n";
        assert!(same(
            zola,
            &zola.replace("abc", "xyz").replace("info", "warn")
        ));
        assert!(!same(zola, &zola.replace("gap", "step")));
        // Braces in the text are text.
        let code = "+++\n+++\nA map: {{a}} and {% b %}.\n";
        assert!(!same(code, &code.replace("{{a}}", "{{c}}")));
    }

    #[test]
    fn scripts_and_styles_are_not_read() {
        let page = "+++\n+++\nSubscribe below.\n\n<iframe src=\"/form\"></iframe>\n<script>\nlet shown = false;\n</script>\n\n<STYLE type=\"text/css\">p { color: red }</style>\n\nThanks.\n";
        assert!(same(page, &page.replace("shown = false", "seen = true")));
        assert!(same(page, &page.replace("color: red", "color: blue")));
        // The form's frame moved into a shortcode: an embed for an embed.
        assert!(same(
            page,
            "+++\n+++\nSubscribe below.\n\n{{< newsletter >}}\n\nThanks.\n"
        ));
        assert!(!same(page, "+++\n+++\nSubscribe below.\n\nThanks.\n"));
        assert!(!same(page, &page.replace("Thanks", "Thank you")));
        // A tag whose name only starts the same is read as any other.
        let other = "+++\n+++\n<scripted>Act one</scripted>\n";
        assert!(!same(other, &other.replace("one", "two")));
        // Past the name any text may follow, cut where it may.
        for tag in ["<scripé>", "<stylé>", "<ifram€>", "<é>", "<script"] {
            let page = format!("+++\n+++\n<div>\nA {tag} b\n</div>\n");
            assert!(!same(&page, "+++\n+++\n<div>\nA c\n</div>\n"), "{tag}");
        }
        assert_eq!(element_named("<video/>", &["video"]), Some("video"));
    }

    #[test]
    fn abbreviation_definitions_are_not_read() {
        let defined = "+++\n+++\nThe MVP ships.\n\n*[MVP]: minimum viable product\n";
        let tagged = "+++\n+++\nThe <abbr title=\"minimum viable product\">MVP</abbr> ships.\n";
        assert!(same(defined, tagged));
        assert!(same(defined, &defined.replace("minimum", "smallest")));
        assert!(!same(defined, &defined.replace("ships", "shipped")));
        // Text that only looks like one is read.
        let text = "+++\n+++\n*[see below]* for the terms: they are read\n";
        assert!(!same(text, &text.replace("they are", "all are")));
        assert!(!is_abbreviation("*[]: empty") && !is_abbreviation(" *[A]: indented"));
        assert!(is_abbreviation("*[W3C]: World Wide Web Consortium"));
    }

    #[test]
    fn an_embed_added_or_removed_counts_but_a_wrapper_does_not() {
        let text = "+++\n+++\nWatch the talk.\n\nThanks.\n";
        for embed in [
            "{{ youtube(id=\"abc\") }}",
            "{{< tweet user=\"a\" id=\"1\" >}}",
            "{{< gist a 1 />}}",
            "{% YouTube id='6oXic6dcn9w', startTime='58' %}",
        ] {
            let with = text.replace("talk.\n", &format!("talk.\n\n{embed}\n"));
            assert!(!same(text, &with), "{embed}");
            // Its arguments are not read, nor which embed it is.
            let other = embed.replace("abc", "xyz").replace('1', "2");
            assert!(same(&with, &with.replace(embed, &other)), "{embed}");
            let video = text.replace("talk.\n", "talk.\n\n<video src=\"t.mp4\"></video>\n");
            assert!(same(&with, &video), "{embed}");
        }
        // A wrapper around text already there: a box, smaller type, a condition.
        for (open, close) in [
            ("{{% note %}}", "{{% /note %}}"),
            ("{{< details summary=\"x\" >}}", "{{< /details >}}"),
            ("{% smaller() %}", "{% end %}"),
            ("{% if site.talks %}", "{% endif %}"),
        ] {
            let wrapped = text.replace(
                "Watch the talk.",
                &format!("{open}\nWatch the talk.\n{close}"),
            );
            assert!(same(text, &wrapped), "{open}");
        }
        assert!(same(
            "+++\n+++\n<small>\nFine print.\n</small>\n",
            "+++\n+++\n{% smaller() %}\nFine print.\n{% end %}\n"
        ));
        // Tags that show nothing.
        assert!(same(
            text,
            &text.replace("Thanks.", "{% assign x = 1 %}\nThanks.")
        ));
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_without_panics(s in "(\\PC|<scrip|<styl|<ifram|é|€|<script|<style|</script>|<iframe|<a href=|\\{\\{<|\\{%|%\\}|\\}\\}|/|end|\\*\\[|\\]:|:::|[<>{}%\" \\n])*") {
            // Inside an HTML block every `<` is read as a tag's start.
            let page = format!("+++\n+++\n{s}\n\n<div>\n{s}\n</div>\n");
            let f = fingerprint(page.as_bytes(), Compare::Reader);
            // Reading is a function of the text.
            proptest::prop_assert_eq!(f, fingerprint(page.as_bytes(), Compare::Reader));
        }
    }

    #[test]
    fn unreadable_front_matter_counts_every_word() {
        let bad = "+++\ntitle = \n+++\nx\n";
        assert!(same(bad, "+++\ntitle =   \n+++\nx"));
        assert!(!same(bad, "+++\ntitle = \n+++\ny\n"));
        assert!(!same(bad, "+++\ntitle = 1\n+++\nx\n"));
    }

    #[test]
    fn bytes_mode_counts_every_byte() {
        let f = |s: &str| fingerprint(s.as_bytes(), Compare::Bytes);
        assert_ne!(f("a b"), f("a  b"));
        assert_eq!(f("a b"), f("a b"));
        let mut s = Streamed::new();
        s.feed(b"ab");
        let mut t = Streamed::new();
        t.feed(b"a");
        t.feed(b"b");
        assert_eq!(s.finish(), t.finish());
    }
}
