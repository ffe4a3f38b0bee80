//! `check`: compares the sitemap files on disk with what `build` would write, writing nothing.
//! Plain data out ([`CheckDiff`]); the binary decides how to show it.

use crate::config::Settings;
use crate::error::{Error, Result};
use crate::sitemap::read::{Sitemap, SitemapKind};
use crate::sitemap::write::OutputFile;
use crate::Outcome;
use std::collections::{BTreeMap, BTreeSet};

/// What `check` found between the sitemap on disk and what `build` would write.
#[derive(Clone, Debug, Default)]
pub struct CheckDiff {
    /// URLs build would add.
    pub added: Vec<String>,
    /// URLs build would remove.
    pub removed: Vec<String>,
    /// URLs whose lastmod (or other field) would change: (loc, old lastmod, new lastmod).
    pub changed: Vec<(String, String, String)>,
    /// Files build would write that are not on disk.
    pub missing: Vec<String>,
    /// Files on disk (listed by the old index) that build would not write.
    pub extra: Vec<String>,
    /// Files whose bytes differ even where the URL sets agree (formatting, order).
    pub differing: Vec<String>,
    /// robots.txt lacks our `Sitemap:` line or names an old one (only when `robots_txt` is on).
    pub robots_stale: bool,
}

impl CheckDiff {
    /// True when the disk already holds exactly what build would write.
    pub fn is_clean(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.missing.is_empty()
            && self.extra.is_empty()
            && self.differing.is_empty()
            && !self.robots_stale
    }
}

/// Compares what `build` would write with the files in the output folder; writes nothing.
pub fn check(settings: &Settings, outcome: &Outcome) -> Result<CheckDiff> {
    let mut diff = CheckDiff::default();
    let mut old_urls: BTreeMap<String, String> = BTreeMap::new();
    let mut new_urls: BTreeMap<String, String> = BTreeMap::new();
    for out in crate::outputs(settings, outcome) {
        let opts = &out.opts;
        let base = url::Url::parse(&opts.base_url).map_err(|e| {
            Error::config(
                settings.config_file.clone().unwrap_or_default(),
                None,
                format!("base URL '{}': {e}", opts.base_url),
            )
        })?;
        // File names as the user sees them below the output folder (`fr/sitemap.xml`).
        let shown = |name: &str| match &out.subdir {
            Some(d) => format!("{d}/{name}"),
            None => name.to_string(),
        };
        let files: Vec<OutputFile> =
            crate::sitemap::write::render(outcome.entries.slice(out.entries.clone()), opts)?;
        let mut old_parts: BTreeSet<String> = BTreeSet::new();
        let written: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
        for f in &files {
            let path = opts.output_dir.join(&f.name);
            collect_urls(&f.bytes, &mut new_urls, &mut BTreeSet::new(), &base);
            match read_capped(&path) {
                Ok(disk) => {
                    collect_urls(&disk, &mut old_urls, &mut old_parts, &base);
                    if disk != f.bytes {
                        diff.differing.push(shown(&f.name));
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    diff.missing.push(shown(&f.name))
                }
                Err(e) => return Err(Error::io(path, e)),
            }
        }
        // Parts the old index lists that build would no longer write.
        for part in old_parts {
            if !written.contains(part.as_str()) {
                let path = opts.output_dir.join(&part);
                if let Ok(disk) = read_capped(&path) {
                    collect_urls(&disk, &mut old_urls, &mut BTreeSet::new(), &base);
                }
                diff.extra.push(shown(&part));
            }
        }
        if opts.robots_txt {
            let path = opts.output_dir.join(crate::sitemap::write::ROBOTS_NAME);
            let existing = match std::fs::read(&path) {
                Ok(b) => Some(b),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Error::io(path, e)),
            };
            let want = crate::sitemap::write::robots_txt(existing.as_deref(), opts)?;
            diff.robots_stale |= existing.as_deref() != Some(want.as_slice());
        }
    }
    for (loc, lm) in &new_urls {
        match old_urls.get(loc) {
            None => diff.added.push(loc.clone()),
            Some(old) if old != lm => diff.changed.push((loc.clone(), old.clone(), lm.clone())),
            Some(_) => {}
        }
    }
    diff.removed = old_urls
        .keys()
        .filter(|l| !new_urls.contains_key(*l))
        .cloned()
        .collect();
    Ok(diff)
}

/// A file in the output folder, read up to a little past the protocol's size: no file
/// `build` writes is larger, so a larger one differs whatever the rest holds, and a huge or
/// endless file there costs bounded memory.
fn read_capped(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let cap = crate::sitemap::protocol::MAX_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How many URLs the sitemaps on disk list now, parts of an index included (0 when there are
/// none or they cannot be read).
pub fn urls_on_disk(settings: &Settings, outcome: &Outcome) -> usize {
    let gz = if settings.gzip { ".gz" } else { "" };
    let mut urls = BTreeMap::new();
    for out in crate::outputs(settings, outcome) {
        let Ok(base) = url::Url::parse(&out.opts.base_url) else {
            continue;
        };
        let main = out
            .opts
            .output_dir
            .join(format!("{}{gz}", settings.file_name));
        let mut parts = BTreeSet::new();
        if let Ok(disk) = read_capped(&main) {
            collect_urls(&disk, &mut urls, &mut parts, &base);
        }
        for part in parts {
            if let Ok(disk) = read_capped(&out.opts.output_dir.join(part)) {
                collect_urls(&disk, &mut urls, &mut BTreeSet::new(), &base);
            }
        }
    }
    urls.len()
}

/// Adds the URLs of one sitemap file (`bytes`, gzipped or not) to `urls` (loc -> lastmod, ""
/// when none), or, for an index, the names of its parts below `base` to `parts`. What cannot
/// be read is left out: `check` then reports the file as differing.
fn collect_urls(
    bytes: &[u8],
    urls: &mut BTreeMap<String, String>,
    parts: &mut BTreeSet<String>,
    base: &url::Url,
) {
    let Ok(sitemap) = Sitemap::from_bytes(bytes) else {
        return;
    };
    let index = sitemap.root().kind == SitemapKind::SitemapIndex;
    for entry in sitemap.map_while(std::result::Result::ok) {
        if !index {
            urls.insert(entry.loc, entry.lastmod.unwrap_or_default());
        } else if let Some(rel) = entry.loc.strip_prefix(base.as_str()) {
            if !rel.contains('/') {
                parts.insert(rel.to_string());
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
        collect_urls(xml, &mut urls, &mut parts, &base);
        let got: Vec<(&str, &str)> = urls.iter().map(|(l, m)| (l.as_str(), m.as_str())).collect();
        assert_eq!(
            got,
            [
                ("https://example.com/blog/tips-&-tricks/", "2024-05-01"),
                ("https://example.com/trip-to-lisbon/", ""),
            ]
        );
        assert!(parts.is_empty());
    }

    #[test]
    fn an_index_gives_its_parts_below_the_base() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap1.xml</loc></sitemap>
  <sitemap><loc>https://example.com/fr/sitemap.xml</loc></sitemap>
  <sitemap><loc>https://elsewhere.org/sitemap2.xml</loc></sitemap>
</sitemapindex>
"#;
        let base = url::Url::parse("https://example.com/").unwrap();
        let (mut urls, mut parts) = (BTreeMap::new(), BTreeSet::new());
        collect_urls(xml, &mut urls, &mut parts, &base);
        assert!(urls.is_empty());
        assert_eq!(parts.into_iter().collect::<Vec<_>>(), ["sitemap1.xml"]);
    }
}
