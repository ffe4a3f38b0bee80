//! The platform that serves the built site, as sitemap.toml names it (`host`), and the form
//! it serves each URL in ([`served`]): what routing, the entries and the config all need to
//! know of the host, below the host's rules themselves (the `host` module).

pub mod served;

pub use served::{FileKind, Forms};
use std::fmt;

/// The platforms whose serving rules sitemapgen knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Platform {
    /// Netlify: `_redirects` and `netlify.toml`; a file is served before a rule that is not
    /// forced.
    Netlify,
    /// Cloudflare Pages (and Workers static assets): `_redirects`, always applied; `.html`
    /// dropped from URLs.
    CloudflarePages,
    /// Vercel: `vercel.json` `redirects`, `cleanUrls`, `trailingSlash`.
    Vercel,
    /// GitHub Pages: no rules; a folder's URL without its trailing slash redirects.
    GithubPages,
    /// A server that serves the files as they are.
    Plain,
}

impl Platform {
    /// The name sitemap.toml and messages use.
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Netlify => "netlify",
            Platform::CloudflarePages => "cloudflare-pages",
            Platform::Vercel => "vercel",
            Platform::GithubPages => "github-pages",
            Platform::Plain => "plain",
        }
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `host` in sitemap.toml: a platform, or `auto` to detect it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HostSetting {
    /// Detect the platform from the files the site ships (the host module's `detect`).
    #[default]
    Auto,
    /// This platform, whatever the files say.
    Fixed(Platform),
}

impl std::str::FromStr for HostSetting {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let platform = match s.to_ascii_lowercase().as_str() {
            "auto" => return Ok(HostSetting::Auto),
            "netlify" => Platform::Netlify,
            "cloudflare-pages" | "cloudflare" => Platform::CloudflarePages,
            "vercel" => Platform::Vercel,
            "github-pages" | "github" => Platform::GithubPages,
            "plain" => Platform::Plain,
            _ => {
                return Err(format!(
                    "unknown host '{s}': use auto, netlify, cloudflare-pages, vercel, github-pages or plain"
                ));
            }
        };
        Ok(HostSetting::Fixed(platform))
    }
}
