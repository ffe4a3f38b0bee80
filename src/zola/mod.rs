//! Zola's wing: what Zola means, whatever the stage that asks: its config ([`config`]) and
//! its routing ([`route`]: sections, pages, slugs, languages, taxonomies and pagers as Zola
//! 0.22 makes them).

pub mod config;
pub mod front_matter;
pub mod route;

use crate::frontmatter;
use crate::generator::Generator;
use crate::route::{RouteContext, Router};
use crate::scan::Files;
use crate::settings::Settings;
use crate::siteconfig::Style;
use crate::siteconfig::{file_has_key, Reader, SiteConfig};
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
            tz: settings.timezone,
            hugo_lastmod: settings.hugo_lastmod,
            zola: true,
            dialect: Some(&front_matter::ZolaFrontMatter),
            ..Default::default()
        }
    }

    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        Box::new(route::ZolaRouter::new(files, ctx))
    }
}
