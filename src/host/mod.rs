//! The host: what the platform that serves the built site does with its files, which no
//! generator's sitemap looks at. A listed URL that a host rule redirects, that is served in
//! another form, or that the site's robots.txt keeps crawlers from is not a URL to submit.
//!
//! - [`detect`]: which host (`netlify`, `cloudflare-pages`, `vercel`, `github-pages`,
//!   `plain`) from the files a site ships, and why;
//! - [`rules`]: the redirect rules of `_redirects` (Netlify's and Cloudflare's dialects),
//!   `netlify.toml` and `vercel.json`, one matcher for all;
//! - [`served`]: the form of a URL the host answers with 200 (`.html` dropped, a folder's
//!   trailing slash);
//! - [`robots`]: robots.txt as RFC 9309 reads it.
//!
//! Plain data in (file texts, paths), plain data out; nothing here prints.

pub mod detect;
mod netlify;
pub mod robots;
pub mod rules;
pub mod served;
mod vercel;

pub use detect::{detect, Detected, HostFiles};
pub use rules::{Judged, Origin, Request, Rule, RuleSet};
pub use served::{FileKind, Forms};

use rules::Dialect;
use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};

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
    /// Detect the platform from the files the site ships (see [`detect`]).
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
                ))
            }
        };
        Ok(HostSetting::Fixed(platform))
    }
}

/// The largest rule file read (`_redirects`, `netlify.toml`, `vercel.json`): far above what
/// the hosts accept (Cloudflare takes 2,100 rules of at most 1,000 characters).
pub const MAX_RULE_FILE_BYTES: u64 = 16 << 20;

/// What the host does with a site's URLs: its redirect rules and the forms it serves them in.
#[derive(Clone, Debug)]
pub struct Host {
    /// The platform.
    pub platform: Platform,
    /// Its redirect rules, in the order it tries them.
    pub rules: RuleSet,
    /// The forms it serves URLs in.
    pub forms: Forms,
    /// Rule lines the host ignores, files that could not be read.
    pub warnings: Vec<String>,
    /// For `--verbose`: which host and why, which files were read.
    pub notes: Vec<String>,
}

/// The texts of a host's rule files, each with where it was read.
#[derive(Clone, Debug, Default)]
pub struct RuleTexts {
    /// `_redirects`.
    pub redirects: Option<(PathBuf, String)>,
    /// `netlify.toml`.
    pub netlify_toml: Option<(PathBuf, String)>,
    /// `vercel.json`.
    pub vercel_json: Option<(PathBuf, String)>,
}

impl Host {
    /// The host `setting` names (or the detected one) for a site, with its rules read from
    /// the files found. `origin` is the site's `scheme://host[:port]`.
    pub fn load(setting: HostSetting, site_dir: &Path, output_dir: &Path, origin: &str) -> Host {
        let found = detect(site_dir, output_dir);
        let (platform, why) = match setting {
            HostSetting::Auto => (found.platform, found.why.clone()),
            HostSetting::Fixed(p) => (p, "set by `host` in sitemap.toml".to_string()),
        };
        let mut warnings = Vec::new();
        let mut read = |path: &Option<PathBuf>| {
            let path = path.as_ref()?;
            match read_rule_file(path) {
                Ok(text) => Some((path.clone(), text)),
                Err(e) => {
                    warnings.push(format!("{}: {e}; its rules are not read", path.display()));
                    None
                }
            }
        };
        let texts = match platform {
            Platform::Netlify => RuleTexts {
                redirects: read(&found.files.redirects),
                netlify_toml: read(&found.files.netlify_toml),
                ..Default::default()
            },
            Platform::CloudflarePages => RuleTexts {
                redirects: read(&found.files.redirects),
                ..Default::default()
            },
            Platform::Vercel => RuleTexts {
                vercel_json: read(&found.files.vercel_json),
                ..Default::default()
            },
            Platform::GithubPages | Platform::Plain => RuleTexts::default(),
        };
        let mut host = Host::from_texts(platform, &texts, origin);
        host.notes.insert(0, format!("host: {platform} ({why})"));
        warnings.append(&mut host.warnings);
        host.warnings = warnings;
        host
    }

    /// The host `platform` with the rules of `texts`.
    pub fn from_texts(platform: Platform, texts: &RuleTexts, origin: &str) -> Host {
        let mut rules = Vec::new();
        let mut warnings = Vec::new();
        let mut notes = Vec::new();
        let mut forms = Forms::of(platform);
        let mut take = |read: netlify::Read, notes: &mut Vec<String>, file: &Path| {
            notes.push(format!(
                "{}: {} rules read",
                file.display(),
                read.rules.len()
            ));
            rules.extend(read.rules);
            warnings.extend(read.warnings);
        };
        let dialect = match platform {
            Platform::Netlify => {
                if let Some((file, text)) = &texts.redirects {
                    take(netlify::netlify_redirects(text, file), &mut notes, file);
                }
                if let Some((file, text)) = &texts.netlify_toml {
                    take(netlify::netlify_toml(text, file), &mut notes, file);
                }
                Dialect::Netlify
            }
            Platform::CloudflarePages => {
                if let Some((file, text)) = &texts.redirects {
                    take(netlify::cloudflare_redirects(text, file), &mut notes, file);
                }
                Dialect::Cloudflare
            }
            Platform::Vercel => {
                if let Some((file, text)) = &texts.vercel_json {
                    let cfg = vercel::vercel_json(text, file, origin);
                    forms.clean_urls = cfg.clean_urls;
                    forms.trailing_slash = cfg.trailing_slash;
                    notes.extend(cfg.notes);
                    take(cfg.read, &mut notes, file);
                }
                Dialect::Vercel
            }
            Platform::GithubPages | Platform::Plain => Dialect::Cloudflare,
        };
        Host {
            platform,
            rules: RuleSet::new(dialect, rules),
            forms,
            warnings,
            notes,
        }
    }
}

/// A rule file's text: a regular file only (a FIFO would block), at most
/// [`MAX_RULE_FILE_BYTES`], bytes that are not UTF-8 replaced.
fn read_rule_file(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > MAX_RULE_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB",
            MAX_RULE_FILE_BYTES >> 20
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_RULE_FILE_BYTES)
        .read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_settings_parse() {
        assert_eq!("auto".parse(), Ok(HostSetting::Auto));
        assert_eq!(
            "Cloudflare-Pages".parse(),
            Ok(HostSetting::Fixed(Platform::CloudflarePages))
        );
        for p in [
            Platform::Netlify,
            Platform::CloudflarePages,
            Platform::Vercel,
            Platform::GithubPages,
            Platform::Plain,
        ] {
            assert_eq!(p.as_str().parse(), Ok(HostSetting::Fixed(p)));
        }
        assert!("heroku"
            .parse::<HostSetting>()
            .unwrap_err()
            .contains("heroku"));
    }
}
