//! Front matter: the fields of a page that decide whether, where and how it is listed.
//!
//! TOML between `+++` lines, YAML between `---` lines, or a JSON object `{ … }` (Hugo).

use crate::date::W3cDate;
use crate::fields::{ChangeFreq, Priority};

/// What sitemapgen reads from one page's front matter; every field is optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrontMatter {
    /// `title`.
    pub title: Option<String>,
    /// `slug`: replaces the last path segment.
    pub slug: Option<String>,
    /// Zola `path`: replaces the whole path.
    pub path: Option<String>,
    /// Hugo `url`: replaces the whole path.
    pub url: Option<String>,
    /// Hugo `translationKey`: links translations whose paths differ.
    pub translation_key: Option<String>,
    /// Last change: the first of `updated`, `lastmod`, `last_modified_at`, `modified`.
    pub updated: Option<W3cDate>,
    /// `date`.
    pub date: Option<W3cDate>,
    /// Publication: the first of `publishDate`, `pubdate`, `published` (when a date).
    pub publish_date: Option<W3cDate>,
    /// Expiry: `expiryDate` or `unpublishdate`.
    pub expiry_date: Option<W3cDate>,
    /// `priority` (top level, `sitemap.priority`, `extra.priority` or `extra.sitemap.priority`).
    pub priority: Option<Priority>,
    /// `changefreq` (same places as `priority`).
    pub changefreq: Option<ChangeFreq>,
    /// `draft = true`, or Hugo `published = false`.
    pub draft: Option<bool>,
    /// `sitemap = false`, `sitemap.disable = true`, `noindex = true` (also under `extra`).
    pub sitemap_exclude: bool,
    /// Zola `render`: `false` means the page or section has no page of its own.
    pub render: Option<bool>,
    /// Hugo `headless = true`: a bundle with no page of its own.
    pub headless: bool,
    /// Hugo `_build`/`build` options.
    pub build: BuildOptions,
    /// Hugo `cascade`: values pushed down to every page below this section.
    pub cascade: Vec<Cascade>,
    /// Hugo `weight` / Zola `weight`.
    pub weight: Option<i64>,
    /// `aliases`: redirects, never listed, read so `list` can report them.
    pub aliases: Vec<String>,
    /// Taxonomy terms: top-level lists (`tags = [...]`) and Zola's `[taxonomies]` table, by
    /// lower-cased taxonomy name, in the order written.
    pub taxonomies: Vec<(String, Vec<String>)>,
    /// `lang` (when set in front matter rather than in the file name).
    pub lang: Option<String>,
    /// Zola section `transparent = true`.
    pub transparent: bool,
    /// Zola section `paginate_by`.
    pub paginate_by: Option<u32>,
    /// Zola section `paginate_path` (default `page`).
    pub paginate_path: Option<String>,
    /// Zola section `sort_by` (`date`, `update_date`, `title`, `weight`, `slug`, `none`).
    pub sort_by: Option<String>,
    /// Zola section `redirect_to`: the section is a redirect, not a page.
    pub redirect_to: Option<String>,
    /// The 1-based line where the body starts (after the closing delimiter).
    pub body_line: usize,
}

/// Hugo build options (`_build` or `build`), from the page itself or a cascade.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `render`: `always` / `never` / `link` (booleans map to always/never).
    pub render: Option<BuildRender>,
    /// `list`: `always` / `never` / `local` (booleans map to always/never).
    pub list: Option<BuildList>,
}

/// Hugo `_build.render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildRender {
    /// Rendered and published (default).
    Always,
    /// Not rendered: no URL.
    Never,
    /// Has a permalink but writes no file: no URL in the sitemap.
    Link,
}

/// Hugo `_build.list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildList {
    /// Listed everywhere (default).
    Always,
    /// In no page collection: Hugo leaves it out of the sitemap.
    Never,
    /// Only in its section's own lists: Hugo leaves it out of the sitemap.
    Local,
}

/// One Hugo `cascade` block: values that apply to the pages below the section.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cascade {
    /// `_target.path` glob (Hugo glob syntax, relative to the content root), if any.
    pub target_path: Option<String>,
    /// `_target.kind` (`page`, `section`, …), if any.
    pub target_kind: Option<String>,
    /// `_target.lang`, if any.
    pub target_lang: Option<String>,
    /// `draft`.
    pub draft: Option<bool>,
    /// `headless`.
    pub headless: Option<bool>,
    /// `sitemap.disable`/`sitemap = false`/`noindex`.
    pub sitemap_exclude: Option<bool>,
    /// `_build`.
    pub build: BuildOptions,
    /// `sitemap.priority` / `priority`.
    pub priority: Option<Priority>,
    /// `sitemap.changefreq` / `changefreq`.
    pub changefreq: Option<ChangeFreq>,
    /// `publishDate`/`expiryDate`/`date` are cascadable in Hugo too.
    pub date: Option<W3cDate>,
    /// `publishDate`.
    pub publish_date: Option<W3cDate>,
    /// `expiryDate`.
    pub expiry_date: Option<W3cDate>,
    /// `lastmod`.
    pub updated: Option<W3cDate>,
}
