//! `check`: compares the sitemap files on disk with what `build` would write, writing nothing.
//! Plain data out ([`CheckDiff`]); the binary decides how to show it.

use crate::pipeline::Outcome;
use crate::settings::Settings;
use crate::sitemap::foreign;
use crate::sitemap::on_disk::{collect_urls, host_of, read_capped};
use crate::sitemap::owned::{Ownership, Record};
use crate::sitemap::urlset::OutputFile;
use crate::vocab::error::{Error, Result};
use crate::vocab::fsread::ReadError;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// What `check` found between the sitemap on disk and what `build` would write.
#[derive(Clone, Debug, Default)]
pub struct CheckDiff {
    /// URLs build would add.
    pub added: Vec<String>,
    /// URLs build would remove.
    pub removed: Vec<String>,
    /// URLs whose `<lastmod>` would change.
    pub changed: Vec<Changed>,
    /// Files build would write that are not on disk (paths below the output folder).
    pub missing: Vec<String>,
    /// Files of ours on disk that build would no longer write, and so remove.
    pub extra: Vec<String>,
    /// Files whose bytes differ even where the URL sets agree (formatting, order).
    pub differing: Vec<String>,
    /// Files build writes that another tool wrote over since sitemapgen wrote them (the
    /// generator's own sitemap, run after sitemapgen).
    pub overwritten: Vec<String>,
    /// Sitemap files in the output folder (or named in robots.txt) that sitemapgen did not
    /// write and does not write: the generator's own, another tool's, a leftover.
    pub foreign: Vec<String>,
    /// robots.txt lacks our `Sitemap:` line or names an old one (only when `robots_txt` is on).
    pub robots_stale: bool,
    /// Content pages missing from the sitemap because the built output has no file for them
    /// (the audit's `not-built`): `check` is never clean while a content page is missing.
    pub not_built: Vec<String>,
}

/// A URL whose `<lastmod>` build would change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The URL.
    pub loc: String,
    /// Its `<lastmod>` on disk (`None`: it has none).
    pub old: Option<String>,
    /// Its `<lastmod>` as build would write it (`None`: it would have none).
    pub new: Option<String>,
}

impl CheckDiff {
    /// True when the disk already holds exactly what build would write, and no other sitemap.
    pub fn is_clean(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.missing.is_empty()
            && self.extra.is_empty()
            && self.differing.is_empty()
            && self.overwritten.is_empty()
            && self.foreign.is_empty()
            && !self.robots_stale
            && self.not_built.is_empty()
    }
}

/// Compares what `build` would write with the files in the output folder; writes nothing.
///
/// ```
/// # let site = tempfile::tempdir()?;
/// # std::fs::write(site.path().join("config.toml"), "base_url = \"https://example.com\"\n")?;
/// # std::fs::create_dir(site.path().join("content"))?;
/// # std::fs::write(site.path().join("content/_index.md"), "+++\n+++\n")?;
/// use sitemapgen::{build, check, generate, load, Overrides, RunOptions};
///
/// let settings = load(&Overrides {
///     site: Some(site.path().to_path_buf()),
///     ..Default::default()
/// })?;
/// build(&settings, &RunOptions::default())?;
/// // A new page: the sitemap on disk no longer lists every URL.
/// std::fs::write(site.path().join("content/new.md"), "+++\ntitle = \"New\"\n+++\n")?;
/// let outcome = generate(&settings, &RunOptions::default())?;
/// let diff = check(&settings, &outcome)?;
/// assert!(!diff.is_clean());
/// assert_eq!(diff.added, ["https://example.com/new/"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(settings: &Settings, outcome: &Outcome) -> Result<CheckDiff> {
    let mut diff = CheckDiff::default();
    let mut old_urls: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut new_urls: BTreeMap<String, Option<String>> = BTreeMap::new();
    let set = crate::pipeline::sitemap_set(settings, outcome);
    let root = set.output_dir.as_path();
    let hosts = crate::pipeline::site_roots(settings, outcome);
    let record = Record::read(root);
    let files: Vec<OutputFile> =
        crate::sitemap::set_write::render_set(outcome.entries.view(), &set)?;
    let written: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
    let mut old_parts: BTreeSet<String> = BTreeSet::new();
    for f in &files {
        let path = root.join(&f.name);
        let host = host_of(&hosts, &f.name);
        collect_urls(&f.bytes, &mut new_urls, &mut BTreeSet::new(), host);
        match read_capped(&path) {
            Ok(disk) => {
                collect_urls(&disk, &mut old_urls, &mut old_parts, host);
                if disk != f.bytes {
                    diff.differing.push(f.name.clone());
                    if record
                        .as_ref()
                        .is_some_and(|r| r.ownership(root, &f.name) == Ownership::Changed)
                    {
                        diff.overwritten.push(f.name.clone());
                    }
                }
            }
            Err(e) if e.is_not_found() => diff.missing.push(f.name.clone()),
            // A FIFO, device or folder where the file goes: build would replace it.
            Err(ReadError::NotAFile(_)) => diff.differing.push(f.name.clone()),
            Err(e) => return Err(Error::io(path, e.into())),
        }
    }
    // The files of ours build would no longer write (it removes them); without a record of
    // ours (an older sitemapgen's output), the parts the old index lists.
    let stale: Vec<String> = match &record {
        Some(r) => r
            .paths()
            .filter(|p| !written.contains(p) && r.ownership(root, p) == Ownership::Ours)
            .map(str::to_string)
            .collect(),
        None => old_parts
            .into_iter()
            .filter(|p| !written.contains(p.as_str()))
            .collect(),
    };
    for rel in stale {
        if let Ok(disk) = read_capped(&root.join(&rel)) {
            collect_urls(
                &disk,
                &mut old_urls,
                &mut BTreeSet::new(),
                host_of(&hosts, &rel),
            );
        }
        diff.extra.push(rel);
    }
    for (folder, base) in &hosts {
        if !settings.robots_txt {
            break;
        }
        let Some(entry) = set.entry_points().into_iter().find(|p| {
            crate::sitemap::set_write::rel_below(root, p).is_some_and(|r| {
                r.strip_prefix(folder.as_str())
                    .is_some_and(|n| !n.contains('/'))
            })
        }) else {
            continue;
        };
        let path = entry.with_file_name(crate::sitemap::urlset::ROBOTS_NAME);
        let existing = crate::sitemap::urlset::read_robots(&path)?;
        let mut opts = crate::pipeline::write_options(settings);
        opts.base_url = base.to_string();
        let want = crate::sitemap::urlset::robots_txt(existing.as_deref(), &opts)?;
        diff.robots_stale |= existing.as_deref() != Some(want.as_slice());
    }
    let foreign_hosts: Vec<foreign::SiteRoot<'_>> = hosts
        .iter()
        .map(|(folder, base)| foreign::SiteRoot { folder, base })
        .collect();
    let mut known: HashSet<&str> = written.iter().copied().collect();
    known.extend(diff.extra.iter().map(String::as_str));
    diff.foreign = foreign::find(
        root,
        &foreign_hosts,
        &known,
        record.as_ref(),
        &settings.file_name,
        &settings.language_codes(),
    );
    for (loc, lm) in &new_urls {
        match old_urls.get(loc) {
            None => diff.added.push(loc.clone()),
            Some(old) if old != lm => diff.changed.push(Changed {
                loc: loc.clone(),
                old: old.clone(),
                new: lm.clone(),
            }),
            Some(_) => {}
        }
    }
    diff.removed = old_urls
        .keys()
        .filter(|l| !new_urls.contains_key(*l))
        .cloned()
        .collect();
    diff.not_built = outcome
        .skipped
        .iter()
        .filter(|s| s.reason == crate::route::Reason::NotBuilt)
        .filter_map(|s| s.file.as_ref().map(|f| f.display().to_string()))
        .collect();
    Ok(diff)
}
