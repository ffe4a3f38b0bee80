//! Images as the page shows them (issue 41): with `images = true`, a page's `<image:image>`
//! entries come from what its source names: front matter keys, shortcodes, Markdown.

use crate::common::{run_site, text, validate_with_xsd, write_tree};
use std::path::Path;

const ZOLA: &str = "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n";

fn sitemap(site: &Path) -> String {
    let file = site.join("public/sitemap.xml");
    validate_with_xsd(std::slice::from_ref(&file));
    std::fs::read_to_string(file).unwrap()
}

/// One `<url>` with a lastmod of the test epoch and `images`.
fn url(loc: &str, images: &[&str]) -> String {
    url_dated(loc, "2020-01-01", images)
}

fn url_dated(loc: &str, date: &str, images: &[&str]) -> String {
    let mut out = format!("  <url>\n    <loc>{loc}</loc>\n");
    if !date.is_empty() {
        out.push_str(&format!("    <lastmod>{date}</lastmod>\n"));
    }
    for i in images {
        out.push_str(&format!(
            "    <image:image>\n      <image:loc>{i}</image:loc>\n    </image:image>\n"
        ));
    }
    out.push_str("  </url>\n");
    out
}

/// A whole urlset of `urls`, with the image namespace when `images`.
fn urlset(images: bool, urls: &[String]) -> String {
    let ns = if images {
        " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\""
    } else {
        ""
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"{ns}>\n{}</urlset>\n",
        urls.concat()
    )
}

#[test]
fn without_a_build_zola_pages_give_their_extra_keys_shortcodes_and_markdown() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[
            ("config.toml", ZOLA),
            (
                "sitemap.toml",
                "images = true\nimage_keys = [\"hero.src\"]\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
            // A colocated cover is the page's own; another relative path is the site's.
            (
                "content/trip/index.md",
                "+++\n[extra]\ncover_image = \"cover.jpg\"\nthumbnail = \"img/thumb.png\"\nbanner = true\n+++\n\
                 Text {{ image(path=\"fig.png\", alt=\"(a)\") }}\n\n![Tejo](tejo.jpg)\n\n\
                 {% figure(src=\"https://cdn.example.net/f.webp\") %}A caption{% end %}\n\
                 {{/* image(path=\"escaped.png\") */}} {{ youtube(id=\"x\") }}\n",
            ),
            ("content/trip/cover.jpg", "jpg"),
            (
                "content/about.md",
                "+++\n[extra]\nhero = { src = \"/me.jpg\" }\n+++\n![](/me.jpg)\n",
            ),
        ],
    );
    let o = run_site(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        sitemap(site),
        urlset(
            true,
            &[
                url("https://example.com/", &[]),
                url(
                    "https://example.com/about/",
                    &["https://example.com/me.jpg"]
                ),
                url(
                    "https://example.com/trip/",
                    &[
                        "https://example.com/trip/cover.jpg",
                        "https://example.com/img/thumb.png",
                        "https://example.com/trip/fig.png",
                        "https://example.com/trip/tejo.jpg",
                        "https://cdn.example.net/f.webp",
                    ]
                ),
            ]
        )
    );
}

#[test]
fn without_a_build_hugo_pages_give_their_front_matter_keys_shortcodes_and_markdown() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[
            (
                "hugo.toml",
                "baseURL = \"https://example.org/docs/\"\ndisableKinds = [\"taxonomy\", \"term\", \"sitemap\"]\n",
            ),
            ("sitemap.toml", "images = true\n"),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
            // PaperMod's cover table, naming a bundle resource.
            (
                "content/posts/trip/index.md",
                "---\ntitle: Trip\ncover:\n  image: cover.webp\n  alt: Tejo\nimages: [/images/og.png]\n---\n\
                 {{< figure src=\"tram.jpg\" title=\"A > B\" >}}\n\n![](tram.jpg)\n\n{{</* figure src=\"escaped.jpg\" */>}}\n",
            ),
            ("content/posts/trip/cover.webp", "webp"),
            // A page of its own (no bundle): a relative value is from the site root.
            (
                "content/posts/note.md",
                "+++\ntitle = \"Note\"\nfeatured_image = \"images/n.png\"\n[params]\nthumbnail = \"https://cdn.example.net/t.png\"\n+++\n\
                 {{% img src=\"/images/inline.gif\" %}}\n",
            ),
        ],
    );
    let o = run_site(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    // No dates: Hugo dates pages from their front matter, and these have none.
    let xml = sitemap(site);
    let expected = urlset(
        true,
        &[
            url_dated("https://example.org/docs/", "", &[]),
            url_dated("https://example.org/docs/posts/", "", &[]),
            url_dated(
                "https://example.org/docs/posts/note/",
                "",
                &[
                    "https://example.org/docs/images/n.png",
                    "https://cdn.example.net/t.png",
                    "https://example.org/docs/images/inline.gif",
                ],
            ),
            url_dated(
                "https://example.org/docs/posts/trip/",
                "",
                &[
                    "https://example.org/docs/images/og.png",
                    "https://example.org/docs/posts/trip/cover.webp",
                    "https://example.org/docs/posts/trip/tram.jpg",
                ],
            ),
        ],
    );
    assert_eq!(xml, expected);
}

#[test]
fn an_image_key_with_an_empty_part_is_a_config_error() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    write_tree(
        site,
        &[
            ("config.toml", ZOLA),
            (
                "sitemap.toml",
                "images = true\nimage_keys = [\"hero\", \"cover..src\"]\n",
            ),
            ("content/_index.md", "+++\n+++\n"),
        ],
    );
    let o = run_site(site, &["build", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = crate::common::stderr(&o);
    assert!(
        err.contains("sitemap.toml:2: image key `cover..src` has an empty part"),
        "{err}"
    );
    assert!(!site.join("public/sitemap.xml").exists());
}
