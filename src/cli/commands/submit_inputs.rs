//! What `submit` checks before it needs the network: a key is set, and the run is not a
//! preview build. A build without the cargo feature `net` checks them too, and the state
//! file, before it says how to get the feature: a mistake in the local inputs is named first.

use crate::cli::args::Cli;
use sitemapgen::settings::Settings;
use sitemapgen::{Error, Result};
use std::path::PathBuf;

/// The settings and the key a submission runs with, or the error naming what to set.
pub fn check(args: &Cli) -> Result<(Settings, String)> {
    let settings = sitemapgen::load(&args.overrides())?;
    let Some(key) = settings.indexnow.key.clone() else {
        // Nothing set it: name where it can be set, and the sitemap.toml read, if any.
        let toml = match &settings.config_file {
            Some(f) => format!("nor indexnow_key in {}", f.display()),
            None => "and there is no sitemap.toml".to_string(),
        };
        return Err(Error::config(
            "submit",
            None,
            format!(
                "no IndexNow key: INDEXNOW_KEY is not set, {toml}. Set one of them to 8 to 128 of a-z, A-Z, 0-9 and '-' (`openssl rand -hex 16` makes one), build and deploy (build writes the key file), then submit"
            ),
        ));
    };
    if let Some((source, line, what)) = preview(args, &settings) {
        return Err(Error::config(
            source,
            line,
            format!(
                "this run lists {what}: a preview build is never submitted to search engines; submit the production build"
            ),
        ));
    }
    Ok((settings, key))
}

/// Without the feature `net`: the local checks, the state file (a regular file sitemapgen
/// wrote, read as `submit` reads it), then the error that says how to get the feature.
#[cfg(not(feature = "net"))]
pub fn without_net(args: &Cli, state: Option<&std::path::Path>) -> Result<std::process::ExitCode> {
    check(args)?;
    if let Some(path) = state {
        sitemapgen::indexnow::state::load(path)?;
    }
    Err(Error::config(
        "submit",
        None,
        sitemapgen::sitemap::set_read::WITHOUT_NET,
    ))
}

/// What makes this run a preview build, when it is one (drafts, future or expired pages),
/// with where that was asked: the flag, else sitemap.toml's key, else the site's config.
fn preview(args: &Cli, settings: &Settings) -> Option<(PathBuf, Option<usize>, &'static str)> {
    use sitemapgen::vocab::config_text::value_line;
    let asked = [
        (
            args.drafts,
            settings.include_drafts,
            "--drafts",
            "include_drafts",
            "buildDrafts",
            "drafts",
        ),
        (
            args.future,
            settings.include_future,
            "--future",
            "include_future",
            "buildFuture",
            "future pages",
        ),
        (
            args.expired,
            settings.include_expired,
            "--expired",
            "include_expired",
            "buildExpired",
            "expired pages",
        ),
    ];
    let (flag, _, name, key, site_key, what) = asked.into_iter().find(|a| a.1)?;
    if flag {
        return Some((PathBuf::from(name), None, what));
    }
    if let Some(file) = &settings.config_file
        && let Some(line) = value_line(file, &[key])
    {
        return Some((file.clone(), Some(line), what));
    }
    let file = settings.site.config_file.clone()?;
    let line = value_line(&file, &[site_key]);
    Some((file, line, what))
}
