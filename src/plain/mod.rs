//! The plain wing, for sites that follow neither generator: a file's path is its URL
//! ([`route`]), and there is no site config to read.

pub mod route;

use crate::frontmatter;
use crate::generator::{Generator, OwnSitemap};
use crate::route::{RouteContext, Router};
use crate::scan::Files;
use crate::settings::Settings;
use crate::siteconfig::Style;
use crate::siteconfig::{Reader, SiteConfig};
use crate::vocab::error::Result;
use std::path::{Path, PathBuf};

/// Neither generator: a file's path is its URL.
pub struct Plain;

/// A plain site has no config of its own: sitemap.toml says all there is.
impl Reader for Plain {
    fn style(&self) -> Style {
        Style::Plain
    }

    fn config_file(&self, _: &Path, _: bool, _: Option<&Path>) -> Option<PathBuf> {
        None
    }

    fn read(&self, _: &Path, _: Option<&Path>, _: Option<&str>) -> Result<SiteConfig> {
        Ok(SiteConfig::default())
    }
}

impl Generator for Plain {
    /// The common reading, strict: a plain site has no generator to be lenient for.
    fn front_matter(&self, settings: &Settings) -> frontmatter::Options {
        frontmatter::Options {
            tz: settings.timezone.clone(),
            hugo_lastmod: settings.hugo_lastmod,
            // No generator, no theme: only the keys sitemap.toml names, at the top level.
            images: settings
                .images
                .then(|| crate::images::SourceRules::new(&[""], &[], &settings.image_keys, None)),
            ..Default::default()
        }
    }

    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        Box::new(route::PlainRouter::new(files, ctx))
    }

    /// No generator, no sitemap of its own.
    fn own_sitemap(&self, _: &Settings, _: &[&str]) -> Option<OwnSitemap> {
        None
    }
}
