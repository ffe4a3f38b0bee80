//! `sitemapgen init`: looks at a site (Zola, Hugo or plain) and writes a commented
//! `sitemap.toml` with what it found filled in. It never overwrites a file.
//!
//! Every other key is written commented out with its default, so the file doubles as the
//! reference of what can be set; a test uncomments them all and parses the result.

use crate::hugo::version::HugoVersion;
use crate::settings::{self, Style};
use crate::siteconfig::{self, Reader, SiteConfig};
use crate::vocab::error::{Error, Result};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

/// What `init` found in a site.
#[derive(Clone, Debug, PartialEq)]
pub struct Detected {
    /// Zola, Hugo or Plain (never Auto).
    pub style: Style,
    /// The site config it was read from, relative to the site.
    pub config_file: Option<PathBuf>,
    /// The site's base URL, when its config has a usable one (or `--base-url` gave one).
    pub base_url: Option<String>,
    /// Whether `base_url` came from the site's config.
    pub base_url_from_site: bool,
    /// The content folder, relative to the site.
    pub content_dir: PathBuf,
    /// Whether the content folder exists.
    pub content_exists: bool,
    /// The output folder, relative to the site.
    pub output_dir: PathBuf,
    /// Language codes, the default one first.
    pub languages: Vec<String>,
    /// Taxonomy names the site declares.
    pub taxonomies: Vec<String>,
    /// The site's time zone (Hugo `timeZone`).
    pub timezone: Option<String>,
    /// Zola's `generate_sitemap = false`.
    pub sitemap_disabled: bool,
}

/// Reads the site in `site_dir` the way a build would (its config found and read by the
/// first of `readers` that claims it), and sums up what matters for the file.
pub fn detect(site_dir: &Path, readers: &[&dyn Reader]) -> Result<Detected> {
    if !site_dir.is_dir() {
        return Err(Error::config(
            site_dir,
            None,
            "is not a folder: point --site at the site's root (where its zola.toml, config.toml or hugo.toml is)",
        ));
    }
    let site = siteconfig::load(site_dir, Style::Auto, None, readers)?;
    Ok(from_site(site_dir, &site))
}

fn from_site(site_dir: &Path, site: &SiteConfig) -> Detected {
    let content_dir = site
        .content_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("content"));
    let output_dir = site
        .publish_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("public"));
    let mut languages: Vec<String> = site.languages.iter().map(|l| l.code.clone()).collect();
    if let Some(i) = languages.iter().position(|l| *l == site.default_language) {
        let d = languages.remove(i);
        languages.insert(0, d);
    }
    Detected {
        style: site.style,
        config_file: site
            .config_file
            .as_ref()
            .map(|f| f.strip_prefix(site_dir).unwrap_or(f).to_path_buf()),
        // A base URL sitemapgen would refuse (Hugo's `baseURL = "/"`) is left for the user.
        base_url: site
            .base_url
            .as_ref()
            .filter(|b| settings::parse_base_url(b).is_ok())
            .cloned(),
        base_url_from_site: site
            .base_url
            .as_ref()
            .is_some_and(|b| settings::parse_base_url(b).is_ok()),
        content_exists: site_dir.join(&content_dir).is_dir(),
        content_dir,
        output_dir,
        languages,
        taxonomies: site.taxonomies.iter().map(|t| t.name.clone()).collect(),
        timezone: site.timezone.clone(),
        sitemap_disabled: site.style == Style::Zola && !site.generate_sitemap,
    }
}

/// A TOML string literal.
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn path_str(p: &Path) -> String {
    // Forward slashes, so the file means the same on every system it is committed to.
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The text of `sitemap.toml` for what was found; `site_dir` is written when the file does
/// not sit in the site's root (relative to the file).
pub fn render(d: &Detected, site_dir: Option<&Path>) -> String {
    let mut t = String::new();
    let style = match d.style {
        Style::Zola => "zola",
        Style::Hugo => "hugo",
        Style::Plain | Style::Auto => "plain",
    };
    let from = d
        .config_file
        .as_deref()
        .map(|f| format!("from {}", path_str(f)))
        .unwrap_or_else(|| "no Zola or Hugo config found".to_string());
    let _ = writeln!(
        t,
        "# sitemapgen settings, written by `sitemapgen init` ({from}).\n\
         # Paths are relative to this file. Command-line flags override every key.\n\
         # A `# key = value` line shows the key's default, or, after \"for example\", a value to\n\
         # adapt; remove the `#` to use it.\n"
    );
    let site_config = d
        .config_file
        .as_deref()
        .map(path_str)
        .unwrap_or_else(|| "the site's config".to_string());
    match &d.base_url {
        // Read at every run, so the sitemap moves with the site; written here it would not.
        Some(b) if d.base_url_from_site => {
            let _ = writeln!(
                t,
                "# The site's public URL: read from {site_config} at every run (now {b}), so the\n\
                 # sitemap follows the site when it moves. Set it here only to publish under another\n\
                 # URL (sitemapgen warns while the two differ); `--base-url URL` overrides both.\n\
                 # base_url = {}\n",
                q(b)
            );
        }
        Some(b) => {
            let _ = writeln!(
                t,
                "# The site's public URL. `--base-url URL` overrides it (deploy previews).\n\
                 base_url = {}\n",
                q(b)
            );
        }
        None => {
            let _ = writeln!(
                t,
                "# The site's public URL: required, and none usable was found in the site's config.\n\
                 # base_url = \"https://example.com/\"\n"
            );
        }
    }
    match site_dir {
        Some(s) => {
            let _ = writeln!(t, "# The site's root.\nsite_dir = {}\n", q(&path_str(s)));
        }
        None => {
            let _ = writeln!(
                t,
                "# The site's root: the folder of this file.\n# site_dir = \".\"\n"
            );
        }
    }
    let _ = writeln!(
        t,
        "# How file paths become URLs: \"zola\", \"hugo\", \"plain\" (path = URL) or \"auto\".\n\
         style = {}\n",
        q(style)
    );
    let _ = writeln!(
        t,
        "# The Hugo release that builds the site (Hugo style): its rules decide the URLs and dates.\n\
         # Default: $HUGO_VERSION, else what `hugo version` says, else {}.\n\
         # hugo_version = {}\n",
        HugoVersion::CURRENT,
        q(&HugoVersion::CURRENT.to_string())
    );
    let missing = if d.content_exists {
        ""
    } else {
        " (not found yet: create it or change this)"
    };
    let from = match d.config_file {
        Some(_) => format!("read from {site_config} at every run"),
        None => "the defaults".to_string(),
    };
    let _ = writeln!(
        t,
        "# Where the pages are{missing}, and where the site is built to (the sitemap goes there):\n\
         # {from}. Set them here only to differ from the site.\n\
         # content_dir = {}\n# output_dir = {}\n",
        q(&path_str(&d.content_dir)),
        q(&path_str(&d.output_dir))
    );
    if d.sitemap_disabled {
        let _ = writeln!(
            t,
            "# The Zola config sets generate_sitemap = false: Zola writes no sitemap, sitemapgen writes the only one.\n"
        );
    }
    if d.languages.len() > 1 {
        let _ = writeln!(
            t,
            "# Languages found: {} (default {}). Each page's versions are linked with\n\
             # hreflang alternates; name one here to also list it as x-default (default none).\n\
             # For example:\n\
             # x_default = {}\n",
            d.languages.join(", "),
            d.languages[0],
            q(&d.languages[0])
        );
    } else {
        let _ = writeln!(
            t,
            "# On a multilingual site, the language also listed as x-default (default none).\n\
             # For example:\n\
             # x_default = \"en\"\n"
        );
    }
    if !d.taxonomies.is_empty() {
        let _ = writeln!(
            t,
            "# Taxonomies found: {} (their list and term pages are listed as the generator publishes them).\n",
            d.taxonomies.join(", ")
        );
    }
    let tz_note = d
        .timezone
        .as_deref()
        .map(|z| format!(" (the site's config says {z}, which is used)"))
        .unwrap_or_default();
    let _ = write!(
        t,
        r#"# Time zone for dates written without an offset{tz_note}: an IANA name or "+hh:mm".
# timezone = "UTC"

# Where <lastmod> comes from, first found wins.
# lastmod = ["front_matter", "git", "published", "mtime"]
# git_date = "author"
# Which commits date a page: "content" (changes a reader sees) or "any-commit".
# lastmod_significance = "content"
# A commit that changes this many pages or more dates a page only if it changed more than
# three of its words; from 10 pages, not if it only moved its links to another site (a
# site-wide link rewrite); 0 turns that off.
# mass_edit = 7
# Commits that never date a page: a file of commit names (default: the repository's
# .git-blame-ignore-revs, when there is one); "" for none.
# git_ignore_revs = ""
# In a shallow clone, fetch the history git dates need: "auto" (the default when CI is set)
# or "never" (the default elsewhere).
# git_fetch = "never"
# Dates from git and file times: "day" (stable across a pre-commit hook) or "second".
# lastmod_precision = "day"

# Pages to leave out: globs over paths inside content_dir (default none). For example:
# exclude = ["drafts/**", "**/_*.md"]

# Drafts, future and expired pages are left out unless asked for.
# include_drafts = false
# include_future = false
# include_expired = false

# <changefreq> and <priority> for pages that set none (search engines ignore both today;
# default none). For example:
# default_changefreq = "weekly"
# default_priority = 0.5

# Force or forbid the trailing slash on page URLs (default: as the generator publishes
# them). For example:
# trailing_slash = true

# URLs with no content file behind them (default none). For example:
# extra_urls = ["/search/", {{ loc = "/app/", lastmod = "2024-01-01" }}]

# After a build, the output folder has the final word: URLs with no built file, and pages
# whose head says noindex, names another canonical URL or redirects, are left out (only on
# the word of an output at least as new as the page's source). "auto" does so except where
# the sitemap is committed to git and the built pages are not; true audits there too;
# "strict" makes each of those (and a stale output) an error (exit 2); false turns it off.
# audit = "auto"
# List built pages no content file accounts for (a template's /search/, say).
# include_unsourced = false
# The platform that serves the site: its redirect rules, the URL forms it serves and the
# site's robots.txt decide what is listed. auto detects it from the site's files; netlify,
# cloudflare-pages, vercel, github-pages, or plain for none of it.
# host = "auto"

# Output.
# Which files: "generator" (the files the generator itself writes, so submitted sitemap URLs
# keep working: Hugo's index over one sitemap per language; Zola's sitemap.xml), "single"
# (one sitemap), "language" (an index over one per language) or "section" (an index over
# one per top-level section, for coverage per part in Search Console).
# layout = "generator"
# file_name = "sitemap.xml"
# gzip = false
# max_urls_per_file = 50000
# robots_txt = false
# sitemap_txt = false
# Image entries for the images each page shows: its built page's main content when the build
# is fresh, else what its front matter, shortcodes and Markdown name.
# images = false
# More front matter keys that name a page's image, besides the theme keys known (default
# none). For example:
# image_keys = ["hero"]

# An XSL stylesheet for people who open the sitemap in a browser (default none). For example:
# stylesheet = "/sitemap.xsl"

# IndexNow, for `sitemapgen submit` after a deploy (default none; INDEXNOW_KEY wins): a key
# of 8 to 128 of a-z, A-Z, 0-9 and '-' (`openssl rand -hex 16`); build writes it into the
# output folder as <key>.txt, or at indexnow_key_location. For example:
# indexnow_key = "0123456789abcdef0123456789abcdef"
# indexnow_key_location = "indexnow/key.txt"

# Where submit sends (the shared endpoint passes it on to every engine that takes part).
# indexnow_endpoint = "https://api.indexnow.org/indexnow"

# Per-glob settings: a glob over content paths, or over URL paths when it starts with "/"
# (default none). Keep [[rules]] last: in TOML every key after a table header belongs to
# that table. For example:
# [[rules]]
# pattern = "blog/**"
# priority = 0.8
# changefreq = "weekly"
# exclude = false
"#
    );
    t
}

/// `to` relative to `from` (both absolute and canonical).
fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Detects the site in `site_dir` and writes `target`; fails, touching nothing, when `target`
/// already exists. `base_url` (from `--base-url`) wins over the one detected.
pub fn init(
    site_dir: &Path,
    target: &Path,
    base_url: Option<&str>,
    readers: &[&dyn Reader],
) -> Result<Detected> {
    let mut found = detect(site_dir, readers)?;
    if let Some(b) = base_url {
        settings::parse_base_url(b).map_err(|m| Error::config("--base-url", None, m))?;
        found.base_url = Some(b.to_string());
        found.base_url_from_site = false;
    }
    let canon = |p: &Path| std::fs::canonicalize(p).map_err(|e| Error::io(p, e));
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (site_abs, parent_abs) = (canon(site_dir)?, canon(parent)?);
    let site_line = (site_abs != parent_abs).then(|| relative(&parent_abs, &site_abs));
    // Paths in the file are relative to the file, so re-base the detected ones onto it.
    let mut shown = found.clone();
    if let Some(rel) = &site_line {
        shown.content_dir = rel.join(&found.content_dir);
        shown.output_dir = rel.join(&found.output_dir);
    }
    let text = render(&shown, site_line.as_deref());
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(Error::config(
                target,
                None,
                "already exists and init never overwrites: edit it, or move it away and run `sitemapgen init` again",
            ));
        }
        Err(e) => return Err(Error::io(target, e)),
    };
    file.write_all(text.as_bytes())
        .map_err(|e| Error::io(target, e))?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zola() -> Detected {
        Detected {
            style: Style::Zola,
            config_file: Some(PathBuf::from("zola.toml")),
            base_url: Some("https://example.com".into()),
            base_url_from_site: true,
            content_dir: PathBuf::from("content"),
            content_exists: true,
            output_dir: PathBuf::from("public"),
            languages: vec!["en".into(), "fr".into()],
            taxonomies: vec!["tags".into()],
            timezone: None,
            sitemap_disabled: false,
        }
    }

    #[test]
    fn the_file_parses_with_the_detected_values() {
        let text = render(&zola(), None);
        let c = settings::parse_file_config(&text, Path::new("sitemap.toml")).unwrap();
        // What the site's config says is read from it at every run, not copied.
        assert_eq!(c.base_url, None);
        assert!(
            text.contains("# base_url = \"https://example.com\""),
            "{text}"
        );
        assert!(text.contains("read from zola.toml at every run"), "{text}");
        assert_eq!(c.style, Some(Style::Zola));
        assert_eq!(c.content_dir, None);
        assert_eq!(c.output_dir, None);
        assert_eq!(c.site_dir, None);
        // A URL given to init (no site value to follow) is written.
        let mut given = zola();
        given.base_url_from_site = false;
        let c =
            settings::parse_file_config(&render(&given, None), Path::new("sitemap.toml")).unwrap();
        assert_eq!(c.base_url.as_deref(), Some("https://example.com"));
        assert!(
            text.contains("Languages found: en, fr (default en)"),
            "{text}"
        );
        assert!(text.contains("Taxonomies found: tags"), "{text}");
    }

    #[test]
    fn every_commented_key_parses_when_uncommented() {
        let text = render(&zola(), Some(Path::new("../site")));
        // `# key = value` and `# [[table]]` lines are settings; other `#` lines are prose.
        let is_setting = |l: &str| {
            let rest = l.trim_start_matches("# ");
            rest.starts_with("[[")
                || rest
                    .split_once(" = ")
                    .is_some_and(|(k, _)| k.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        };
        let mut uncommented = 0;
        let all: String = text
            .lines()
            .map(|l| {
                if l.starts_with("# ") && is_setting(l) {
                    uncommented += 1;
                    format!("{}\n", &l[2..])
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        assert!(uncommented >= 20, "{uncommented} settings found");
        let c = settings::parse_file_config(&all, Path::new("sitemap.toml"))
            .unwrap_or_else(|e| panic!("{e}\n{all}"));
        assert_eq!(c.site_dir, Some(PathBuf::from("../site")));
        assert_eq!(c.x_default.as_deref(), Some("en"));
        assert_eq!(c.rules.unwrap().len(), 1);
        assert_eq!(c.extra_urls.unwrap().len(), 2);
        assert_eq!(c.max_urls_per_file, Some(50_000));
        assert_eq!(c.hugo_version.as_deref(), Some("0.168.0"));
        assert_eq!(c.base_url.as_deref(), Some("https://example.com"));
        assert_eq!(c.content_dir, Some(PathBuf::from("content")));
        assert_eq!(c.layout, Some(settings::LayoutMode::Generator));
    }

    #[test]
    fn a_site_without_base_url_gets_it_commented_out() {
        let mut d = zola();
        d.base_url = None;
        d.style = Style::Plain;
        d.content_exists = false;
        let text = render(&d, None);
        let c = settings::parse_file_config(&text, Path::new("s.toml")).unwrap();
        assert_eq!(c.base_url, None);
        assert_eq!(c.style, Some(Style::Plain));
        assert!(text.contains("required"), "{text}");
        assert!(text.contains("not found yet"), "{text}");
    }

    #[test]
    fn relative_paths_between_folders() {
        assert_eq!(
            relative(Path::new("/a/b"), Path::new("/a/c/d")),
            PathBuf::from("../c/d")
        );
        assert_eq!(
            relative(Path::new("/a"), Path::new("/a/site")),
            PathBuf::from("site")
        );
        assert_eq!(
            relative(Path::new("/a"), Path::new("/a")),
            PathBuf::from(".")
        );
    }
}
