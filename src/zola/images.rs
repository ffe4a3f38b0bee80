//! Where Zola pages name their images besides Markdown, with `images = true`: the `[extra]`
//! keys popular themes show (Zola admits no other keys of its own), and the shortcodes that
//! take an image.

use crate::images::{SourceRules, shortcode_args, shortcode_image};
use crate::settings::Settings;

/// `[extra]` keys Zola themes show a page's image from: `image`, `images`, `cover`,
/// `cover_image`, `banner` (a path; Duckquill's boolean `banner` is not one, and is
/// skipped), `local_image` (Duckquill), `featured_image`, `thumbnail`.
pub const IMAGE_KEYS: [&str; 8] = [
    "image",
    "images",
    "cover",
    "cover_image",
    "banner",
    "local_image",
    "featured_image",
    "thumbnail",
];

/// The image sources of a Zola site: [`IMAGE_KEYS`] and sitemap.toml's `image_keys` in
/// `[extra]`, and its shortcodes.
pub fn rules(settings: &Settings) -> SourceRules {
    SourceRules::new(
        &["extra"],
        &IMAGE_KEYS,
        &settings.image_keys,
        Some(shortcodes),
    )
}

/// The images of Zola shortcodes in a page body (`{{ image(path="a.jpg") }}`,
/// `{% figure(src="b.png") %}…{% end %}`), each with its byte offset. An escaped call
/// (`{{/* image(…) */}}`) is shown as text and takes none.
pub fn shortcodes(body: &str) -> Vec<(usize, String)> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = body[from..].find('{') {
        let start = from + pos;
        from = start + 1;
        if !matches!(b.get(start + 1), Some(b'{' | b'%')) {
            continue;
        }
        let mut i = start + 2;
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let name_start = i;
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            i += 1;
        }
        let name = &body[name_start..i];
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if name.is_empty() || b.get(i) != Some(&b'(') {
            continue;
        }
        let Some(len) = args_len(&b[i + 1..]) else {
            break;
        };
        let args = &body[i + 1..i + 1 + len];
        from = i + 1 + len;
        if let Some(src) = shortcode_image(name, &shortcode_args(args)) {
            out.push((start, src.to_string()));
        }
    }
    out
}

/// The length of a call's arguments up to its closing `)`, quotes respected; `None` when it
/// does not close.
fn args_len(b: &[u8]) -> Option<usize> {
    let mut quote = None;
    for (i, &c) in b.iter().enumerate() {
        match (quote, c) {
            (None, b'"' | b'\'' | b'`') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, b')') => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_shortcodes_and_their_offsets() {
        let body = "x {{ image(path=\"a.jpg\", alt=\"(1)\") }}\n\
            {% figure(src='b.png', caption=\"c\") %}text{% end %}\n\
            {{ youtube(id=\"x\") }} {{ photo(path=`c.webp`, width=10) }}\n\
            {{ include(path=\"p.md\") }} {{/* image(path=\"escaped.jpg\") */}} {{ page.title }}\n\
            {{ image(path=\"unclosed.jpg\"";
        let got = shortcodes(body);
        let srcs: Vec<&str> = got.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(srcs, ["a.jpg", "b.png", "c.webp"]);
        assert_eq!(got[0].0, 2);
    }
}
