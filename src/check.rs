//! `check`: compares the sitemap files on disk with what `build` would write, writing nothing.
//! Plain data out ([`CheckDiff`]); the binary decides how to show it.

use crate::config::Settings;
use crate::error::{Error, Result};
use crate::write::OutputFile;
use crate::Outcome;
use flate2::read::GzDecoder;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;

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
    if outcome.disabled.is_some() {
        return Ok(diff);
    }
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
            crate::write::render(outcome.entries.slice(out.entries.clone()), opts)?;
        let mut old_parts: BTreeSet<String> = BTreeSet::new();
        let written: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
        for f in &files {
            let path = opts.output_dir.join(&f.name);
            collect_urls(
                &plain_bytes(&f.name, &f.bytes),
                &mut new_urls,
                &mut BTreeSet::new(),
                &base,
            );
            match std::fs::read(&path) {
                Ok(disk) => {
                    collect_urls(
                        &plain_bytes(&f.name, &disk),
                        &mut old_urls,
                        &mut old_parts,
                        &base,
                    );
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
                if let Ok(disk) = std::fs::read(&path) {
                    collect_urls(
                        &plain_bytes(&part, &disk),
                        &mut old_urls,
                        &mut BTreeSet::new(),
                        &base,
                    );
                }
                diff.extra.push(shown(&part));
            }
        }
        if opts.robots_txt {
            let path = opts.output_dir.join(crate::write::ROBOTS_NAME);
            let existing = match std::fs::read(&path) {
                Ok(b) => Some(b),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Error::io(path, e)),
            };
            let want = crate::write::robots_txt(existing.as_deref(), opts)?;
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

/// The XML of a sitemap file: gunzipped when its name ends in `.gz` and it inflates, else as is.
fn plain_bytes(name: &str, bytes: &[u8]) -> Vec<u8> {
    if name.ends_with(".gz") {
        let mut out = Vec::new();
        if GzDecoder::new(bytes).read_to_end(&mut out).is_ok() {
            return out;
        }
    }
    bytes.to_vec()
}

/// Collects `<url>` locs with their lastmod, and the part files an index lists.
fn collect_urls(
    xml: &[u8],
    urls: &mut BTreeMap<String, String>,
    parts: &mut BTreeSet<String>,
    base: &url::Url,
) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut buf = Vec::new();
    let (mut in_index, mut field, mut loc, mut lastmod) =
        (false, String::new(), String::new(), String::new());
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                if name == "sitemapindex" {
                    in_index = true;
                }
                if name == "url" || name == "sitemap" {
                    loc.clear();
                    lastmod.clear();
                }
                field = name;
            }
            Ok(Event::Text(t)) => {
                let text = t
                    .decode()
                    .map(|c| {
                        quick_xml::escape::unescape(&c)
                            .map(|u| u.into_owned())
                            .unwrap_or_default()
                    })
                    .unwrap_or_default();
                match field.as_str() {
                    "loc" => loc.push_str(text.trim()),
                    "lastmod" => lastmod.push_str(text.trim()),
                    _ => {}
                }
            }
            Ok(Event::End(e)) => {
                let name = e.local_name();
                if name.as_ref() == b"url" {
                    urls.insert(std::mem::take(&mut loc), std::mem::take(&mut lastmod));
                } else if name.as_ref() == b"sitemap" && in_index {
                    if let Some(rel) = loc.strip_prefix(base.as_str()) {
                        if !rel.contains('/') {
                            parts.insert(rel.to_string());
                        }
                    }
                }
                field.clear();
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
        buf.clear();
    }
}
