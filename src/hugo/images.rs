//! Where Hugo pages name their images besides Markdown, with `images = true`: the front
//! matter keys popular themes show (at the top level, or in a `params` table), and the
//! shortcodes that take an image.

use crate::images::{SourceRules, shortcode_args, shortcode_image};
use crate::settings::Settings;

/// Front matter keys Hugo themes show a page's image from: `images` (Hugo's own, a list),
/// `image` (Stack), `cover` (a string, or PaperMod's table with `image`), `featured_image`
/// (Ananke), `featureImage` (Clarity), `featuredImage` (LoveIt, FixIt), `thumbnail`
/// (Mainroad, Clarity). Lower-case: keys match in any case.
pub const IMAGE_KEYS: [&str; 7] = [
    "images",
    "image",
    "cover",
    "featured_image",
    "featureimage",
    "featuredimage",
    "thumbnail",
];

/// The image sources of a Hugo site: [`IMAGE_KEYS`] and sitemap.toml's `image_keys`, at the
/// top level or in `params`, and its shortcodes.
pub fn rules(settings: &Settings) -> SourceRules {
    SourceRules::new(
        &["", "params"],
        &IMAGE_KEYS,
        &settings.image_keys,
        Some(shortcodes),
    )
}

/// The images of Hugo shortcodes in a page body (`{{< figure src="a.jpg" >}}`,
/// `{{% img src="b.png" %}}`), each with its byte offset. Hugo runs shortcodes in code
/// blocks too; an escaped one (`{{</* figure */>}}`) is shown as text and takes none.
pub fn shortcodes(body: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = body[from..].find("{{") {
        let start = from + pos;
        let close = match body.as_bytes().get(start + 2) {
            Some(b'<') => ">}}",
            Some(b'%') => "%}}",
            _ => {
                from = start + 2;
                continue;
            }
        };
        let inner_start = start + 3;
        let Some(len) = body[inner_start..].find(close) else {
            break;
        };
        from = inner_start + len + close.len();
        let inner = body[inner_start..inner_start + len].trim();
        // An escaped call, or a closing tag.
        if inner.starts_with('/') {
            continue;
        }
        let inner = inner.strip_suffix('/').unwrap_or(inner);
        let (name, args) = inner
            .split_once(|c: char| c.is_ascii_whitespace())
            .unwrap_or((inner, ""));
        if let Some(src) = shortcode_image(name, &shortcode_args(args)) {
            out.push((start, src.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_shortcodes_and_their_offsets() {
        let body = "a {{< figure src=\"/a.jpg\" title=\"A > B\" >}}\n\
            {{% img src='b.png' /%}} {{< youtube id=\"x\" >}} {{< video src=\"v.mp4\" >}}\n\
            {{< gallery >}}{{< photo image=`c.webp` >}}{{< /gallery >}}\n\
            {{</* figure src=\"escaped.jpg\" */>}} {{ .Title }} {{< figure \"positional.jpg\" >}}\n\
            {{< figure src=\"unclosed.jpg\"";
        let got = shortcodes(body);
        let srcs: Vec<&str> = got.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(srcs, ["/a.jpg", "b.png", "c.webp"]);
        assert_eq!(got[0].0, 2);
        assert_eq!(&body[got[1].0..got[1].0 + 3], "{{%");
    }
}
