//! The sitemaps a run's set has on disk now, read back for `check` (what `build` would
//! change) and for the build's own guard against emptying a sitemap: each file read up to a
//! bound, an index's parts followed below the output folder.

use super::read::{Sitemap, SitemapKind};
use super::set_write::SetOptions;
use crate::vocab::fsread::ReadError;
use std::collections::{BTreeMap, BTreeSet};

/// The host a path below the output folder belongs to: the one with the longest folder.
pub fn host_of<'h>(hosts: &'h [(String, url::Url)], rel: &str) -> (&'h str, &'h url::Url) {
    hosts
        .iter()
        .filter(|(folder, _)| rel.starts_with(folder.as_str()))
        .max_by_key(|(folder, _)| folder.len())
        .or(hosts.first())
        .map(|(f, b)| (f.as_str(), b))
        .expect("a run has a host")
}

/// A file in the output folder, read up to a little past the protocol's size: no file
/// `build` writes is larger, so a larger one differs whatever the rest holds, and a huge or
/// endless file there costs bounded memory.
pub fn read_capped(path: &std::path::Path) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let cap = crate::vocab::protocol::MAX_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    crate::vocab::fsread::open(path)?
        .take(cap)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How many URLs the sitemaps of `set` on disk list now, parts of an index included (0 when
/// there are none or they cannot be read); `hosts` are the site's roots (folder, base URL).
pub fn url_count(set: &SetOptions, hosts: &[(String, url::Url)]) -> usize {
    let root = set.output_dir.as_path();
    let mut urls = BTreeMap::new();
    for entry in set.entry_points() {
        let Some(rel) = super::set_write::rel_below(root, &entry) else {
            continue;
        };
        let host = host_of(hosts, &rel);
        let mut parts = BTreeSet::new();
        if let Ok(disk) = read_capped(&entry) {
            collect_urls(&disk, &mut urls, &mut parts, host);
        }
        for part in parts {
            if let Ok(disk) = read_capped(&root.join(part)) {
                collect_urls(&disk, &mut urls, &mut BTreeSet::new(), host);
            }
        }
    }
    urls.len()
}

/// Adds the URLs of one sitemap file (`bytes`, gzipped or not) to `urls` (loc -> lastmod, ""
/// when none), or, for an index, the paths below the output folder of the parts it lists on
/// `host` (its folder, its base URL) to `parts`. What cannot be read is left out: `check`
/// then reports the file as differing.
pub fn collect_urls(
    bytes: &[u8],
    urls: &mut BTreeMap<String, Option<String>>,
    parts: &mut BTreeSet<String>,
    (folder, base): (&str, &url::Url),
) {
    let Ok(sitemap) = Sitemap::from_bytes(bytes) else {
        return;
    };
    let index = sitemap.root().kind == SitemapKind::SitemapIndex;
    for entry in sitemap.map_while(std::result::Result::ok) {
        if !index {
            urls.insert(entry.loc, entry.lastmod);
        } else if let Some(rel) = entry.loc.strip_prefix(base.as_str()) {
            let plain = !rel.is_empty()
                && rel.split('/').all(|p| {
                    !p.is_empty() && p != ".." && p != "." && !p.contains(['?', '#', '%', '\\'])
                });
            if plain {
                parts.insert(format!("{folder}{rel}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_whole_escapes_decoded_and_images_apart() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/blog/tips-&amp;-tricks/</loc>
    <lastmod>2024-05-01</lastmod>
  </url>
  <url>
    <loc>https://example.com/trip-to-lisbon/</loc>
    <image:image><image:loc>https://example.com/tejo.jpg</image:loc></image:image>
  </url>
</urlset>
"#;
        let base = url::Url::parse("https://example.com/").unwrap();
        let (mut urls, mut parts) = (BTreeMap::new(), BTreeSet::new());
        collect_urls(xml, &mut urls, &mut parts, ("", &base));
        let got: Vec<(&str, Option<&str>)> = urls
            .iter()
            .map(|(l, m)| (l.as_str(), m.as_deref()))
            .collect();
        // A URL without a lastmod has none, not an empty one.
        assert_eq!(
            got,
            [
                (
                    "https://example.com/blog/tips-&-tricks/",
                    Some("2024-05-01")
                ),
                ("https://example.com/trip-to-lisbon/", None),
            ]
        );
        assert!(parts.is_empty());
    }

    #[test]
    fn an_index_gives_its_parts_below_the_base_with_their_folders() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap1.xml</loc></sitemap>
  <sitemap><loc>https://example.com/fr/sitemap.xml</loc></sitemap>
  <sitemap><loc>https://elsewhere.org/sitemap2.xml</loc></sitemap>
</sitemapindex>
"#;
        let base = url::Url::parse("https://example.com/").unwrap();
        let (mut urls, mut parts) = (BTreeMap::new(), BTreeSet::new());
        collect_urls(xml, &mut urls, &mut parts, ("", &base));
        assert!(urls.is_empty());
        assert_eq!(
            parts.into_iter().collect::<Vec<_>>(),
            ["fr/sitemap.xml", "sitemap1.xml"]
        );
    }
}
