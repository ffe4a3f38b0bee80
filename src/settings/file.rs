//! `sitemap.toml` as written: its keys, their types and how each is read from TOML. What
//! they mean once resolved against the site and the command line is [`super::Settings`].

use crate::platform::HostSetting;
use crate::siteconfig::Style;
use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use serde::Deserialize;
use std::path::PathBuf;

/// Where a `<lastmod>` may come from, in the order the user lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LastmodSource {
    /// `updated`, `lastmod`, `last_modified_at`, `modified` in front matter.
    FrontMatter,
    /// The last commit that touched the file.
    Git,
    /// The publication date: `date`, `publishDate`, a Zola file-name date.
    Published,
    /// The file's modification time (outside git, or for uncommitted files).
    Mtime,
    /// Front matter `date` alone (Hugo's `date` in `[frontmatter] lastmod`).
    Date,
    /// Front matter `publishDate`, `pubdate` or `published` alone (Hugo's `publishDate`).
    PublishDate,
    /// The date a file name starts with, `YYYY-MM-DD` (Hugo's `:filename`).
    FileName,
    /// Hugo: the page's date from the `k`th run (from 1) of front matter keys in the site's
    /// `[frontmatter] lastmod` order, past a `:git` or `:fileModTime` (never named in
    /// sitemap.toml).
    #[serde(skip)]
    HugoKeys(u8),
}

impl LastmodSource {
    /// The name sitemap.toml uses.
    pub fn as_str(self) -> &'static str {
        match self {
            LastmodSource::FrontMatter => "front_matter",
            LastmodSource::Git => "git",
            LastmodSource::Published => "published",
            LastmodSource::Mtime => "mtime",
            LastmodSource::Date => "date",
            LastmodSource::PublishDate => "publish_date",
            LastmodSource::FileName => "file_name",
            LastmodSource::HugoKeys(_) => "front_matter",
        }
    }
}

/// Which git date counts as a file's last change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum GitDateKind {
    /// When the commit was made (what a rebase or merge updates).
    Committer,
    /// When the change was first written: the default, as it survives rebases and history
    /// rewrites and dated more pages as their authors did (docs/lastmod.md).
    #[default]
    Author,
}

/// Which commits date a page (`lastmod_significance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Significance {
    /// Only a commit that changes what a reader sees: the body (whitespace aside), the title
    /// or the description.
    #[default]
    Content,
    /// Any commit that changes the file (a pure move still does not).
    AnyCommit,
}

/// Which sitemap files a build writes (`layout`; see [`crate::layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum LayoutMode {
    /// The files the site's generator writes (Hugo: one per language under an index).
    #[default]
    Generator,
    /// One sitemap (one per host of a multihost site).
    Single,
    /// An index over one sitemap per language.
    Language,
    /// An index over one sitemap per top-level section.
    Section,
}

/// How finely dates from git and file times are written (`lastmod_precision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// `YYYY-MM-DD`: a sitemap written before a commit still holds once the commit lands.
    #[default]
    Day,
    /// `YYYY-MM-DDThh:mm:ss±hh:mm`.
    Second,
}

/// Whether sitemapgen fetches a shallow clone's history (`git_fetch`, `--git-fetch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GitFetch {
    /// Never: pages whose last change lies past the clone's history take their next source.
    Never,
    /// In a shallow clone with a remote, one bounded blobless fetch of `HEAD`'s history.
    Auto,
}

impl GitFetch {
    /// `auto` in CI (`CI` set, as GitHub Actions, GitLab, Netlify, Vercel and Cloudflare
    /// Pages set it), where the clone is the build's own and thrown away after it; `never`
    /// elsewhere: a fetch would turn a person's clone into a partial one.
    pub fn default_for(ci: Option<&str>) -> GitFetch {
        match ci.map(str::trim) {
            Some(v) if !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false") => {
                GitFetch::Auto
            }
            _ => GitFetch::Never,
        }
    }
}

/// The file listing commits that never date a page (`git_ignore_revs`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum IgnoreRevs {
    /// `.git-blame-ignore-revs` at the repository's top folder, when there is one.
    #[default]
    RepoDefault,
    /// A file named in sitemap.toml; it must exist.
    File(PathBuf),
    /// `git_ignore_revs = ""`: none.
    Off,
}

/// A per-glob rule from `[[rules]]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Glob over the content-relative source path (`blog/**`), or over the URL path when it
    /// starts with `/` (`/tags/**`).
    pub pattern: String,
    /// Priority for matching pages (front matter still wins).
    #[serde(default, deserialize_with = "de_priority")]
    pub priority: Option<Priority>,
    /// Change frequency for matching pages (front matter still wins).
    #[serde(default, deserialize_with = "de_changefreq")]
    pub changefreq: Option<ChangeFreq>,
    /// Leave matching pages out.
    #[serde(default)]
    pub exclude: bool,
}

/// A URL that is not backed by a content file (a search page, an app route).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ExtraUrl {
    /// Just a path (`/search/`) or an absolute URL on the base host.
    Path(String),
    /// A path with fields.
    Full {
        /// Path or absolute URL.
        loc: String,
        /// `YYYY-MM-DD` or a full W3C datetime.
        lastmod: Option<String>,
        /// Change frequency.
        #[serde(default, deserialize_with = "de_changefreq")]
        changefreq: Option<ChangeFreq>,
        /// Priority.
        #[serde(default, deserialize_with = "de_priority")]
        priority: Option<Priority>,
    },
}

/// `sitemap.toml` as written: every key optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// The site's public URL.
    pub base_url: Option<String>,
    /// The site root (where its own config lives).
    pub site_dir: Option<PathBuf>,
    /// The content folder (default `SITE/content`).
    pub content_dir: Option<PathBuf>,
    /// Where the sitemap goes (default `SITE/public`).
    pub output_dir: Option<PathBuf>,
    /// `zola`, `hugo`, `plain` or `auto`.
    pub style: Option<Style>,
    /// Force or forbid a trailing slash on page URLs.
    pub trailing_slash: Option<bool>,
    /// Globs (content-relative) of files to leave out.
    pub exclude: Option<Vec<String>>,
    /// `<changefreq>` for pages that set none.
    #[serde(default, deserialize_with = "de_changefreq")]
    pub default_changefreq: Option<ChangeFreq>,
    /// `<priority>` for pages that set none.
    #[serde(default, deserialize_with = "de_priority")]
    pub default_priority: Option<Priority>,
    /// Per-glob priority, changefreq and exclusion.
    pub rules: Option<Vec<Rule>>,
    /// List draft pages too.
    pub include_drafts: Option<bool>,
    /// List pages whose publish date is in the future (Hugo `--buildFuture`).
    pub include_future: Option<bool>,
    /// List pages whose expiry date has passed (Hugo `--buildExpired`).
    pub include_expired: Option<bool>,
    /// Write `sitemap.xml.gz`.
    pub gzip: Option<bool>,
    /// Split into parts above this many URLs (at most 50,000).
    pub max_urls_per_file: Option<usize>,
    /// Keep a `Sitemap:` line in `OUTPUT/robots.txt`.
    pub robots_txt: Option<bool>,
    /// Also write `sitemap.txt`.
    pub sitemap_txt: Option<bool>,
    /// XSL stylesheet href for people opening the sitemap in a browser.
    pub stylesheet: Option<String>,
    /// Add `image:image` entries for the images each page shows.
    pub images: Option<bool>,
    /// Front matter keys that name a page's image, besides the generator's own.
    pub image_keys: Option<Vec<String>>,
    /// Zone for dates without an offset (IANA name or `+hh:mm`; default UTC).
    pub timezone: Option<String>,
    /// Where `<lastmod>` comes from, in order.
    pub lastmod: Option<Vec<LastmodSource>>,
    /// `committer` or `author`.
    pub git_date: Option<GitDateKind>,
    /// `content` (default) or `any-commit`.
    pub lastmod_significance: Option<Significance>,
    /// A commit that changes at least this many pages is a mass edit (0: none is).
    pub mass_edit: Option<usize>,
    /// Commits that never date a page (default `.git-blame-ignore-revs`; `""` for none).
    pub git_ignore_revs: Option<PathBuf>,
    /// Fetch a shallow clone's history: `never` or `auto` (default `auto` in CI).
    pub git_fetch: Option<GitFetch>,
    /// `day` (default) or `second`, for dates from git and file times.
    pub lastmod_precision: Option<Precision>,
    /// URLs to list that have no content file.
    pub extra_urls: Option<Vec<ExtraUrl>>,
    /// The sitemap's file name (default `sitemap.xml`, or Hugo's `[sitemap] filename`).
    pub file_name: Option<String>,
    /// Which files: `generator` (the default), `single`, `language` or `section`.
    pub layout: Option<LayoutMode>,
    /// The language whose version is also the `x-default` alternate.
    pub x_default: Option<String>,
    /// The Hugo release the site is built with (`0.168.0`): its rules apply.
    pub hugo_version: Option<String>,
    /// Audit the built output: `"auto"` (the default), `true`, `false`, or `"strict"`.
    #[serde(default, deserialize_with = "de_audit")]
    pub audit: Option<AuditMode>,
    /// Also list built pages no content file accounts for.
    pub include_unsourced: Option<bool>,
    /// The IndexNow key (`INDEXNOW_KEY` wins): `build` writes its key file, `submit` sends with it.
    pub indexnow_key: Option<String>,
    /// Where the IndexNow key file goes below the output folder (default `<key>.txt`).
    pub indexnow_key_location: Option<String>,
    /// Where `submit` sends (default the shared IndexNow endpoint).
    pub indexnow_endpoint: Option<String>,
    /// The platform that serves the site: `auto` (default), `netlify`, `cloudflare-pages`,
    /// `vercel`, `github-pages` or `plain`.
    #[serde(default, deserialize_with = "de_host")]
    pub host: Option<HostSetting>,
}

/// What the audit of the built output does (`audit` in sitemap.toml, `--no-audit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AuditMode {
    /// As `On`, except where the sitemap is committed to git while the built pages are not:
    /// a committed sitemap must not depend on files no clone has (the default).
    #[default]
    Auto,
    /// Leave out what the built output does not serve, with warnings (when there is one).
    On,
    /// No audit.
    Off,
    /// Anything the audit would leave out is an error (exit 2): for CI.
    Strict,
}

fn de_priority<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Priority>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Num {
        F(f64),
        S(String),
    }
    match Option::<Num>::deserialize(d)? {
        None => Ok(None),
        Some(Num::F(v)) => Priority::from_f64(v)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("priority {v} is outside 0.0–1.0"))),
        Some(Num::S(s)) => s.parse().map(Some).map_err(serde::de::Error::custom),
    }
}

fn de_audit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<AuditMode>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        B(bool),
        S(String),
    }
    match Option::<Raw>::deserialize(d)? {
        None => Ok(None),
        Some(Raw::B(true)) => Ok(Some(AuditMode::On)),
        Some(Raw::B(false)) => Ok(Some(AuditMode::Off)),
        Some(Raw::S(s)) if s == "strict" => Ok(Some(AuditMode::Strict)),
        Some(Raw::S(s)) if s == "auto" => Ok(Some(AuditMode::Auto)),
        Some(Raw::S(s)) => Err(serde::de::Error::custom(format!(
            "audit = \"{s}\": use \"auto\", true, false or \"strict\""
        ))),
    }
}

fn de_host<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<HostSetting>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(s) => s.parse().map(Some).map_err(serde::de::Error::custom),
    }
}

fn de_changefreq<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ChangeFreq>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(s) => s.parse().map(Some).map_err(serde::de::Error::custom),
    }
}
