//! Images as the page shows them (issue 41): with `images = true`, a page's `<image:image>`
//! entries come from its built HTML when the build is fresh (its main content, the theme's
//! repeated images left out), else from what its source names (front matter keys, shortcodes,
//! Markdown).

use crate::common::{TEST_MTIME_SECS, run_site, stderr, text, validate_with_xsd, write_tree};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

const ZOLA: &str = "base_url = \"https://example.com\"\ntitle = \"t\"\ngenerate_sitemap = false\n";

/// A built page: the theme's header, nav and footer around `main`, and an author avatar in
/// the main content of every page.
fn built(main: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>t</title></head><body>\
         <header><img src=\"/logo.svg\" alt=\"\"></header><nav><img src=\"/menu.svg\"></nav>\
         <main>{main}<p><img src=\"/avatar.png\" alt=\"me\"></p></main>\
         <footer><img src=\"/badge.png\"></footer></body></html>\n"
    )
}

/// A Zola blog whose sources name images, built into public/ with a theme that shows a
/// cover from `[extra]`, hides the Markdown image of `hidden.md`, and shows a `<picture>`.
fn zola_blog(site: &Path, sitemap_toml: &str) {
    let trip = built(
        "<article><header><img src=\"cover.jpg\" srcset=\"cover-480.jpg 480w, cover-1600.jpg 1600w, cover-960.jpg 960w\"></header>\
         <picture><source type=\"image/avif\" srcset=\"tejo.avif 1x, tejo@2x.avif 2x\"><img src=\"tejo.jpg#center\" alt=\"Tejo\"></picture>\
         <img src=\"//cdn.example.net/maps/lisbon%20old.png\"><img src=\"data:image/gif;base64,R0lGOD\"></article>",
    )
    // Beside the main content: the theme's related posts, this page's alone.
    .replace("<footer>", "<div class=\"related\"><img src=\"/blog/other/thumb.jpg\"></div><footer>");
    let hidden = built("<article><p>The photo is for the list pages only.</p></article>");
    write_tree(
        site,
        &[
            ("config.toml", ZOLA),
            ("sitemap.toml", sitemap_toml),
            ("content/_index.md", "+++\n+++\n"),
            ("content/blog/_index.md", "+++\n+++\n"),
            (
                "content/blog/trip/index.md",
                "+++\ntitle = \"Trip\"\n[extra]\ncover_image = \"cover.jpg\"\n+++\n![Tejo](tejo.jpg)\n",
            ),
            ("content/blog/trip/cover.jpg", "jpg"),
            (
                "content/blog/hidden.md",
                "+++\ntitle = \"Hidden\"\n+++\n![Only in lists](/img/teaser.png)\n",
            ),
            ("public/index.html", &built("<h1>Home</h1>")),
            ("public/blog/index.html", &built("<h1>Blog</h1>")),
            ("public/blog/trip/index.html", &trip),
            ("public/blog/hidden/index.html", &hidden),
        ],
    );
}

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
fn a_fresh_build_gives_the_images_its_pages_show_in_their_main_content() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_blog(site, "images = true\n");
    let o = run_site(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    // The cover, its widest candidate, the picture's densest source and its img, the CDN
    // image; not the Markdown image the template hides, nor what stands outside <main>, nor
    // the avatar in the main content of all four pages.
    assert_eq!(
        sitemap(site),
        urlset(
            true,
            &[
                url("https://example.com/", &[]),
                url("https://example.com/blog/", &[]),
                url("https://example.com/blog/hidden/", &[]),
                url(
                    "https://example.com/blog/trip/",
                    &[
                        "https://example.com/blog/trip/cover.jpg",
                        "https://example.com/blog/trip/cover-1600.jpg",
                        "https://example.com/blog/trip/tejo@2x.avif",
                        "https://example.com/blog/trip/tejo.jpg",
                        "https://cdn.example.net/maps/lisbon%20old.png",
                    ]
                ),
            ]
        )
    );
}

#[test]
fn with_images_off_nothing_is_read_and_no_namespace_is_declared() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_blog(site, "");
    let o = run_site(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        sitemap(site),
        urlset(
            false,
            &[
                url("https://example.com/", &[]),
                url("https://example.com/blog/", &[]),
                url("https://example.com/blog/hidden/", &[]),
                url("https://example.com/blog/trip/", &[]),
            ]
        )
    );
}

#[test]
fn a_page_changed_since_the_build_keeps_the_images_its_source_names() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    zola_blog(site, "images = true\n");
    // hidden.md edited after the build: its built page may no longer say what it shows.
    let hidden = site.join("content/blog/hidden.md");
    std::fs::File::options()
        .write(true)
        .open(&hidden)
        .unwrap()
        .set_modified(UNIX_EPOCH + Duration::from_secs(TEST_MTIME_SECS + 86_400))
        .unwrap();
    let o = run_site(site, &["build", "--verbose"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        stderr(&o).contains(
            "images: 1 page lists the images its source names, not what its built page shows: the build is older than its source or the site's config"
        ),
        "{}",
        text(&o)
    );
    let xml = sitemap(site);
    assert_eq!(
        xml,
        urlset(
            true,
            &[
                // The home and the section roll up the edited page's date.
                url_dated("https://example.com/", "2020-01-02", &[]),
                url_dated("https://example.com/blog/", "2020-01-02", &[]),
                url_dated(
                    "https://example.com/blog/hidden/",
                    "2020-01-02",
                    &["https://example.com/img/teaser.png"]
                ),
                url(
                    "https://example.com/blog/trip/",
                    &[
                        "https://example.com/blog/trip/cover.jpg",
                        "https://example.com/blog/trip/cover-1600.jpg",
                        "https://example.com/blog/trip/tejo@2x.avif",
                        "https://example.com/blog/trip/tejo.jpg",
                        "https://cdn.example.net/maps/lisbon%20old.png",
                    ]
                ),
            ]
        )
    );
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
                 Text {{ image(path=\"fig.png\", alt=\"(a)\") }}\n\n![Tejo](tejo.jpg#center)\n\n\
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
                 {{< figure src=\"tram.jpg\" title=\"A > B\" >}}\n\n![](tram.jpg)\n\n{{</* figure src=\"escaped.jpg\" */>}}\n\
                 <!-- {{< figure src=\"commented.jpg\" >}} -->\n",
            ),
            ("content/posts/trip/cover.webp", "webp"),
            // A page of its own (no bundle): a relative value is from the site root.
            (
                "content/posts/note.md",
                "+++\ntitle = \"Note\"\nfeatured_image = \"images/n.png\"\n[params]\nthumbnail = \"https://cdn.example.net/t.png\"\n[params.cover]\nimage = \"hidden.png\"\nhidden = true\n+++\n\
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
fn a_built_page_lists_at_most_a_thousand_images() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path();
    let many: String = (0..1200)
        .map(|i| format!("<img src=\"/g/{i}.png\">"))
        .collect();
    write_tree(
        site,
        &[
            ("config.toml", ZOLA),
            ("sitemap.toml", "images = true\n"),
            ("content/_index.md", "+++\n+++\n"),
            ("content/gallery.md", "+++\n+++\n"),
            ("public/index.html", &built("")),
            ("public/gallery/index.html", &built(&many)),
        ],
    );
    let o = run_site(site, &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let shown: Vec<String> = (0..1000)
        .map(|i| format!("https://example.com/g/{i}.png"))
        .collect();
    let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
    assert_eq!(
        sitemap(site),
        urlset(
            true,
            &[
                // Two pages read: the avatar on both is under the three pages a theme's
                // repeated image needs, so it stays.
                url("https://example.com/", &["https://example.com/avatar.png"]),
                url("https://example.com/gallery/", &shown),
            ]
        )
    );
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
