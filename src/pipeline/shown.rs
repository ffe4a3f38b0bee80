//! With `images = true`, the images of a page whose built file is fresh are those the built
//! page shows in its main content ([`crate::images::built`]), less those the theme repeats
//! across the site ([`crate::images::built::drop_repeated`]): what the visitor sees wins
//! over what the source names (a template may hide a Markdown image, or show a cover from
//! front matter). A page whose built file is older than its source, or an output that looks
//! half-built, keeps the images its source names; a generated page (a term, a pager, a
//! section without a file) lists what its built page shows while the output is fresh.

use crate::audit::{self, AuditPlan};
use crate::entries::Built;
use crate::images::{self, MAX_IMAGES};
use crate::scan::Files;
use crate::settings::Settings;
use crate::vocab::fsread::{self, Folder};
use crate::vocab::limits::MAX_BUILT_PAGE;
use rayon::prelude::*;
use std::path::PathBuf;
use url::Url;

/// Replaces the images of the entries whose built pages (`pages`, from the audit) are fresh
/// with those the pages show; `partial`: the output looks half-built, and none is read.
/// Returns a warning for each built page that could not be read, and a note (for
/// `--verbose`) when pages kept their sources' images because their built files are older.
pub(super) fn from_output(
    settings: &Settings,
    plan: &AuditPlan,
    pages: Vec<(usize, PathBuf)>,
    partial: bool,
    built: &mut Built,
    files: &Files,
) -> (Vec<String>, Option<String>) {
    if partial || pages.is_empty() {
        return (Vec::new(), None);
    }
    let source = |k: usize| built.page(k).map(|p| files.get(p).path());
    let config = settings.site.config_file.as_deref();
    let trusted = audit::fresh::trusted(plan, &pages, &source, config);
    let older = pages
        .iter()
        .zip(&trusted)
        .filter(|((k, _), fresh)| !**fresh && built.page(*k).is_some())
        .count();
    let note = match older {
        0 => None,
        1 => Some(
            "images: 1 page lists the images its source names, not what its built page shows: the build is older than its source or the site's config"
                .to_string(),
        ),
        n => Some(format!(
            "images: {n} pages list the images their sources name, not what their built pages show: the build is older than their sources or the site's config"
        )),
    };
    let pages: Vec<(usize, PathBuf)> = pages
        .into_iter()
        .zip(trusted)
        .filter_map(|(page, fresh)| fresh.then_some(page))
        .collect();
    let folders: Vec<Option<Folder>> = plan
        .roots
        .iter()
        .map(|r| Folder::new(&r.dir).ok())
        .collect();
    let entries = &built.entries;
    let read: Vec<Result<Vec<String>, String>> = pages
        .par_iter()
        .map(|(k, file)| {
            let root = plan.roots.iter().position(|r| r.entries.contains(k));
            let folder = root.and_then(|r| folders[r].as_ref());
            let bytes = match folder {
                Some(folder) => fsread::read_in(file, folder, MAX_BUILT_PAGE),
                None => fsread::read(file, MAX_BUILT_PAGE),
            }
            .map_err(|e| e.to_string())?;
            let shown = images::built::shown(&bytes);
            let Ok(page) = Url::parse(&entries.loc(*k).to_string()) else {
                return Ok(Vec::new());
            };
            // Two ways of writing one URL count once on the page.
            let mut seen = std::collections::HashSet::new();
            Ok(shown
                .sources
                .iter()
                .filter_map(|src| images::built::resolve(src, &page, shown.base.as_deref()))
                .map(String::from)
                .filter(|url| seen.insert(url.clone()))
                .collect())
        })
        .collect();
    let mut warnings = Vec::new();
    let mut shown: Vec<(usize, Vec<String>)> = Vec::with_capacity(read.len());
    for ((k, file), got) in pages.into_iter().zip(read) {
        match got {
            Ok(list) => shown.push((k, list)),
            Err(why) => warnings.push(format!(
                "{}: its images were not read: {why}; the images its source names are listed",
                file.display()
            )),
        }
    }
    let mut lists: Vec<Vec<String>> = shown.iter_mut().map(|(_, l)| std::mem::take(l)).collect();
    images::built::drop_repeated(&mut lists);
    let list = built.entries.list_mut();
    for ((k, _), mut images) in shown.into_iter().zip(lists) {
        images.truncate(MAX_IMAGES);
        let entry = &mut list[k];
        match (&mut entry.extras, images.is_empty()) {
            (None, true) => {}
            (Some(extras), _) => extras.images = images,
            (None, false) => {
                entry.extras = Some(Box::new(crate::entries::Extras {
                    images,
                    ..Default::default()
                }));
            }
        }
        if entry
            .extras
            .as_ref()
            .is_some_and(|e| e.images.is_empty() && e.alternates.is_empty())
        {
            entry.extras = None;
        }
    }
    (warnings, note)
}
