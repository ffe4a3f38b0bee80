//! Language alternates on a multilingual Hugo site: every version of a translated page lists
//! all versions (itself included, `x-default` when configured) with Hugo's `languageCode` as
//! `hreflang`, the links are reciprocal, and the file validates against the schemas.

use crate::common;

use common::{run, text, url_locs, write_tree};
use std::collections::{BTreeMap, BTreeSet};

const HUGO: &str = r#"baseURL = "https://example.org/"
defaultContentLanguage = "en"
languageCode = "en-US"
disableKinds = ["taxonomy", "term"]
[languages.en]
  weight = 1
[languages.fr]
  weight = 2
  languageCode = "fr-FR"
[languages.de]
  weight = 3
  contentDir = "content-de"
"#;

/// `<loc>` -> its (hreflang, href) alternates, both decoded.
fn alternates(xml: &str) -> BTreeMap<String, BTreeSet<(String, String)>> {
    let mut out = BTreeMap::new();
    for block in xml.split("<url>").skip(1) {
        let block = block.split("</url>").next().unwrap();
        let loc = url_locs(&format!("<url>{block}</url>"))
            .into_iter()
            .next()
            .unwrap();
        let mut alts = BTreeSet::new();
        for link in block.split("<xhtml:link").skip(1) {
            let attr = |name: &str| {
                let start = link.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                let end = start + link[start..].find('"').unwrap();
                common::percent_decode(&common::xml_unescape(&link[start..end]))
            };
            assert_eq!(attr("rel"), "alternate");
            alts.insert((attr("hreflang"), attr("href")));
        }
        out.insert(loc, alts);
    }
    out
}

#[test]
fn translations_list_each_other_reciprocally_and_validate() {
    let d = tempfile::tempdir().unwrap();
    write_tree(
        d.path(),
        &[
            ("hugo.toml", HUGO),
            ("sitemap.toml", "x_default = \"en\"\n"),
            ("content/_index.md", "---\ntitle: Home\n---\n"),
            ("content/_index.fr.md", "---\ntitle: Accueil\n---\n"),
            ("content/about.md", "---\ntitle: About\n---\n"),
            (
                "content/about.fr.md",
                "---\ntitle: À propos\nslug: à-propos\n---\n",
            ),
            ("content-de/about.md", "---\ntitle: Über\n---\n"),
            (
                "content/post/one.md",
                "---\ntitle: One\ntranslationKey: one\n---\n",
            ),
            (
                "content/post/un.fr.md",
                "---\ntitle: Un\ntranslationKey: one\n---\n",
            ),
            ("content/post/solo.md", "---\ntitle: Only English\n---\n"),
        ],
    );
    // No `--site`: the tool reads ./sitemap.toml.
    let o = run(d.path(), &["build", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    // Hugo's layout: the index public/sitemap.xml over one file per language.
    let xml = common::set_text(&d.path().join("public"), "sitemap.xml");
    assert!(xml.contains("xmlns:xhtml=\"http://www.w3.org/1999/xhtml\""));

    let alts = alternates(&xml);
    let about = &alts["https://example.org/about/"];
    let want: BTreeSet<(String, String)> = [
        ("de", "https://example.org/de/about/"),
        ("en-US", "https://example.org/about/"),
        ("fr-FR", "https://example.org/fr/à-propos/"),
        ("x-default", "https://example.org/about/"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(about, &want);
    // translationKey links pages whose paths differ.
    assert_eq!(
        alts["https://example.org/fr/post/un/"]
            .iter()
            .map(|(l, _)| l.as_str())
            .collect::<Vec<_>>(),
        ["en-US", "fr-FR", "x-default"]
    );
    // An untranslated page has no alternates at all.
    assert!(alts["https://example.org/post/solo/"].is_empty());

    // Reciprocity: every version lists itself, and every href it lists lists the same set.
    let mut translated = 0;
    for (loc, set) in &alts {
        if set.is_empty() {
            continue;
        }
        translated += 1;
        assert!(
            set.iter().any(|(l, h)| h == loc && l != "x-default"),
            "{loc} does not list itself"
        );
        for (_, href) in set {
            let other = alts
                .get(href)
                .unwrap_or_else(|| panic!("{loc} links {href}, which is not listed"));
            assert_eq!(other, set, "{href} does not list back what {loc} lists");
        }
    }
    // home (en, fr, and de's generated home), about (en, fr, de), the post section (en, fr),
    // post one/un (en, fr); solo and nothing else stands alone.
    assert_eq!(translated, 10);
    assert_eq!(alts["https://example.org/fr/post/"].len(), 3);
    assert_eq!(alts["https://example.org/de/"].len(), 4);
}
