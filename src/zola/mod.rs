//! Zola's wing: what Zola means, whatever the stage that asks: its config ([`config`]) and
//! its routing ([`route`]: sections, pages, slugs, languages, taxonomies and pagers as Zola
//! 0.22 makes them).

pub mod config;
pub mod front_matter;
mod images;
pub mod route;

use crate::frontmatter;
use crate::generator::{Generator, OwnLayout, OwnSitemap};
use crate::route::{RouteContext, Router};
use crate::scan::Files;
use crate::settings::Settings;
use crate::siteconfig::Style;
use crate::siteconfig::{Reader, SiteConfig, file_has_key};
use crate::vocab::error::Result;
use std::path::{Path, PathBuf};

/// Zola, as the pipeline drives it.
pub struct Zola;

impl Reader for Zola {
    fn style(&self) -> Style {
        Style::Zola
    }

    /// `zola.toml`, else `config.toml` (before Zola 0.19): unless Zola was asked for, only
    /// one that sets `base_url` (Hugo's `config.toml` sets `baseURL`).
    fn config_file(&self, site_dir: &Path, asked: bool, _: Option<&Path>) -> Option<PathBuf> {
        ["zola.toml", "config.toml"]
            .iter()
            .map(|n| site_dir.join(n))
            .find(|p| p.is_file() && (asked || file_has_key(p, "base_url")))
    }

    fn read(&self, _: &Path, file: Option<&Path>, _: Option<&str>) -> Result<SiteConfig> {
        match file {
            Some(p) => config::read_zola(p),
            None => Ok(SiteConfig {
                style: Style::Zola,
                ..Default::default()
            }),
        }
    }
}

impl Generator for Zola {
    fn front_matter(&self, settings: &Settings) -> frontmatter::Options {
        frontmatter::Options {
            tz: settings.timezone.clone(),
            hugo_lastmod: settings.hugo_lastmod,
            zola: true,
            dialect: Some(&front_matter::ZolaFrontMatter),
            images: settings.images.then(|| images::rules(settings)),
            ..Default::default()
        }
    }

    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        Box::new(route::ZolaRouter::new(files, ctx))
    }

    /// `sitemap.xml`; from [`SPLIT`] URLs on, an index over `sitemap1.xml`, `sitemap2.xml`, …
    fn own_sitemap(&self, _: &Settings, _: &[&str]) -> Option<OwnSitemap> {
        Some(OwnSitemap {
            name: "Zola",
            command: "`zola build`",
            off: "generate_sitemap = false",
            files: vec!["sitemap.xml".to_string()],
            layout: OwnLayout::One {
                split_at: Some(SPLIT),
            },
        })
    }
}

/// Zola writes an index from this many URLs on, in parts of this many.
pub const SPLIT: usize = 30_000;
