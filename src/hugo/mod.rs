//! Hugo's wing: what Hugo means, whatever the stage that asks: its rules by release
//! ([`version`]), its config ([`config`], from the files [`config_files`] merges, with the
//! content mounts), Go's time layouts as Hugo uses them for front-matter dates and
//! permalink tokens ([`golayout`]), the grammar of a `[permalinks]` pattern
//! ([`permalink_tokens`]), and its routing ([`route`]).

mod cast;
pub mod config;
pub mod config_files;
pub(crate) mod content_policy;
pub mod dates;
pub mod front_matter;
mod glob;
mod go_time;
pub mod golayout;
mod images;
mod mounts;
pub mod permalink_rules;
pub mod permalink_tokens;
pub mod route;
mod title_case;
pub mod version;

use crate::frontmatter;
use crate::generator::{Generator, OwnLayout, OwnSitemap};
use crate::route::{Buffered, RouteContext, Router};
use crate::scan::Files;
use crate::settings::Settings;
use crate::siteconfig::Style;
use crate::siteconfig::{Reader, SiteConfig};
use crate::vocab::error::Result;
use std::path::{Path, PathBuf};

/// Hugo, as the pipeline drives it.
pub struct Hugo;

impl Reader for Hugo {
    fn style(&self) -> Style {
        Style::Hugo
    }

    /// The first of `hugo.toml`, `hugo.yaml`, `hugo.yml`, `hugo.json`, then `config.*` in
    /// the same order, that Zola has not taken.
    fn config_file(&self, site_dir: &Path, _: bool, taken: Option<&Path>) -> Option<PathBuf> {
        [
            "hugo.toml",
            "hugo.yaml",
            "hugo.yml",
            "hugo.json",
            "config.toml",
            "config.yaml",
            "config.yml",
            "config.json",
        ]
        .iter()
        .map(|n| site_dir.join(n))
        .find(|p| p.is_file() && Some(p.as_path()) != taken)
    }

    /// A site with only `config/_default/` is Hugo's too.
    fn claims_folder(&self, site_dir: &Path) -> bool {
        site_dir.join("config").join("_default").is_dir()
    }

    fn read(
        &self,
        site_dir: &Path,
        file: Option<&Path>,
        environment: Option<&str>,
    ) -> Result<SiteConfig> {
        let environment = config_files::environment(environment);
        config::read_hugo(file, &site_dir.join("config"), &environment)
    }
}

impl Generator for Hugo {
    /// Leniently (what Hugo builds with but the protocol forbids is left out, warned), with
    /// the release's casts and the site's date orders; titles are kept only when a
    /// permalink is made from them.
    fn front_matter(&self, settings: &Settings) -> frontmatter::Options {
        frontmatter::Options {
            tz: settings.timezone.clone(),
            lenient: true,
            keep_title: (settings.site.all_permalinks().map(|(_, p)| p.as_str()))
                .chain(settings.site.permalink_rules.patterns())
                .any(|p| p.contains(":title") || p.contains("slug")),
            string_terms: true,
            hugo: Some(settings.hugo),
            dates: Some(settings.site.hugo_dates.clone()),
            hugo_lastmod: settings.hugo_lastmod,
            zola: false,
            dialect: Some(&front_matter::HugoFrontMatter),
            images: settings.images.then(|| images::rules(settings)),
        }
    }

    /// Hugo's rules look across pages (cascades, bundles, translations): its router holds
    /// every page until all are read. The files Hugo never reads are not read either.
    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        let unread = route::unread(files, ctx.settings);
        Box::new(Buffered::new(files, ctx, route::route).never_reading(unread))
    }

    /// `[sitemap] filename` (`sitemap.xml`): at the root of a site of one language; an index
    /// there over one per language below it on a multilingual site (from 0.123 also with
    /// `defaultContentLanguageInSubdir`); one per host's folder, no index, on a multihost one.
    fn own_sitemap(&self, settings: &Settings, hosts: &[&str]) -> Option<OwnSitemap> {
        let site = &settings.site;
        let name = site.sitemap_filename.as_deref().unwrap_or("sitemap.xml");
        let per_language = site.is_multilingual()
            || (settings.hugo.sitemap_index_in_subdir && site.default_language_in_subdir);
        let (files, layout) = if !hosts.is_empty() {
            let files = hosts.iter().map(|lang| format!("{lang}/{name}")).collect();
            (files, OwnLayout::One { split_at: None })
        } else if per_language {
            let files = std::iter::once(name.to_string())
                .chain(
                    site.languages
                        .iter()
                        .map(|l| format!("{}/{}", l.code, language_file(settings, &l.code))),
                )
                .collect();
            let layout = OwnLayout::PerLanguage {
                file_name: language_file,
            };
            (files, layout)
        } else {
            (vec![name.to_string()], OwnLayout::One { split_at: None })
        };
        Some(OwnSitemap {
            name: "Hugo",
            command: "each `hugo` build",
            off: "disableKinds = [\"sitemap\"]",
            files,
            layout,
        })
    }
}

/// The name of a language's sitemap in Hugo's layout: the site's, except before Hugo 0.112
/// for a language with a `[sitemap]` table of its own (unless sitemap.toml names the file).
fn language_file(settings: &Settings, code: &str) -> String {
    let site = &settings.site;
    let hugos = site.sitemap_filename.as_deref().unwrap_or("sitemap.xml");
    let own = site
        .language(code)
        .and_then(|l| l.sitemap_table_filename.clone())
        .filter(|_| settings.hugo.language_sitemap_replaces_site && settings.file_name == hugos);
    own.unwrap_or_else(|| settings.file_name.clone())
}
