//! The site's own config (Zola `zola.toml`/`config.toml`, Hugo `hugo.*`/`config.*` and
//! `config/_default/`): the style it implies and the settings that shape its URLs.

use crate::frontmatter::yaml::KeyTwice;
use crate::vocab::config_text::{line_of, toml_too_deep_error};
use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use crate::vocab::error::{Error, Result};
use crate::vocab::langtag;
use crate::vocab::limits::MAX_CONFIG;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

mod content_mount;
mod layers;

pub use content_mount::ContentMount;
pub use layers::{Layer, locate};

/// The site conventions sitemapgen can follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Detect from the site's config file.
    #[default]
    Auto,
    /// Zola's content and URL rules.
    Zola,
    /// Hugo's content and URL rules.
    Hugo,
    /// Neither: a file's path is its URL.
    Plain,
}

impl std::str::FromStr for Style {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(Style::Auto),
            "zola" => Ok(Style::Zola),
            "hugo" => Ok(Style::Hugo),
            "plain" => Ok(Style::Plain),
            _ => Err(format!(
                "unknown style '{s}': use zola, hugo, plain or auto"
            )),
        }
    }
}

/// How Hugo titles a section, taxonomy or term page made without a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListTitles {
    /// `titleCaseStyle`: `ap` (the default), `chicago`, `go`, `firstupper` or `none`.
    pub style: String,
    /// `capitalizeListTitles` (Hugo 0.124+, default true).
    pub capitalize: bool,
    /// `pluralizeListTitles` (default true): a section's folder name made plural.
    pub pluralize: bool,
}

impl Default for ListTitles {
    fn default() -> ListTitles {
        ListTitles {
            style: String::new(),
            capitalize: true,
            pluralize: true,
        }
    }
}

/// What the site's own config says, in generator-neutral terms.
#[derive(Clone, Debug, PartialEq)]
pub struct SiteConfig {
    /// The style the config implies (`Plain` when there is none).
    pub style: Style,
    /// The file it came from.
    pub config_file: Option<PathBuf>,
    /// `base_url` / `baseURL`.
    pub base_url: Option<String>,
    /// What `base_url` / `baseURL` is when it is there but not text (`a number`), so the
    /// error says so rather than that it is missing.
    pub base_url_kind: Option<&'static str>,
    /// The default language's code.
    pub default_language: String,
    /// Hugo `defaultContentLanguageInSubdir`.
    pub default_language_in_subdir: bool,
    /// Every language, the default one included, by weight then code.
    pub languages: Vec<Language>,
    /// Hugo languages turned off (`disableLanguages`, `disabled = true`): their files are
    /// recognised by their suffix and left out, as Hugo does.
    pub disabled_languages: Vec<String>,
    /// Site-wide taxonomies (Zola: the default language's; Hugo: all languages').
    pub taxonomies: Vec<Taxonomy>,
    /// Hugo `uglyURLs` (`true`: every section).
    pub ugly_urls: bool,
    /// Hugo `uglyURLs = { posts = true }`: the sections with ugly URLs, lower-cased.
    pub ugly_sections: Vec<String>,
    /// Hugo `[permalinks]` for regular pages: section -> pattern (`[permalinks] posts = …`
    /// or `[permalinks.page]`).
    pub permalinks: Vec<(String, String)>,
    /// Hugo `[permalinks]` for term pages: taxonomy -> pattern (`[permalinks] tags = …` or
    /// `[permalinks.term]`).
    pub term_permalinks: Vec<(String, String)>,
    /// Hugo `[permalinks.section]`: section path (as Hugo writes content paths, lower-cased,
    /// spaces made `-`) -> pattern, for the section pages at and below it.
    pub section_permalinks: Vec<(String, String)>,
    /// Hugo `[permalinks.taxonomy]`: taxonomy -> pattern, for the taxonomy's list page.
    pub taxonomy_permalinks: Vec<(String, String)>,
    /// Hugo 0.161+ `[[permalinks]]`: the rules, each a pattern for the pages its target
    /// matches (read in place of the tables above, when `permalinks` is a list).
    pub permalink_rules: crate::hugo::permalink_rules::PermalinkRules,
    /// Hugo: the environment the config was read for (`production` unless told).
    pub environment: String,
    /// Hugo `title`: the home page's title where its own file sets none.
    pub title: Option<String>,
    /// Hugo `disablePathToLower`.
    pub disable_path_to_lower: bool,
    /// Hugo `titleCaseStyle` (empty: AP, Hugo's default), `capitalizeListTitles` and
    /// `pluralizeListTitles`: how a list page made without a file is titled.
    pub list_titles: ListTitles,
    /// Hugo `removePathAccents`.
    pub remove_path_accents: bool,
    /// Hugo `disableKinds`, lower-cased.
    pub disable_kinds: Vec<String>,
    /// Hugo `timeZone`.
    pub timezone: Option<String>,
    /// Hugo `[sitemap] filename`.
    pub sitemap_filename: Option<String>,
    /// Hugo `[sitemap] changefreq`.
    pub default_changefreq: Option<ChangeFreq>,
    /// Hugo `[sitemap] priority` (negative means none).
    pub default_priority: Option<Priority>,
    /// Zola `generate_sitemap` (default true); false for Hugo `disableKinds = ["sitemap"]`.
    pub generate_sitemap: bool,
    /// Hugo kinds (`home`, `page`, `section`, `taxonomy`, `term`) whose `[outputs]` list has
    /// no `html`: such pages are no page a visitor can open.
    pub no_html_kinds: Vec<String>,
    /// Hugo 0.162+: the content media types (`text/html`, ...) `security.allowContent`
    /// refuses; a content file of one stops the build.
    pub content_denied: Vec<&'static str>,
    /// Hugo `ignoreFiles`: regular expressions over a content file's or folder's absolute
    /// path; a match is no content.
    pub ignore_files: Vec<String>,
    /// Values the config sets that Hugo accepts but the protocol forbids, left out.
    pub warnings: Vec<String>,
    /// Zola `[slugify] paths`: `on`, `safe` or `off`.
    pub slugify_paths: String,
    /// Zola `[slugify] taxonomies`.
    pub slugify_taxonomies: String,
    /// Zola `ignored_content` globs.
    pub ignored_content: Vec<String>,
    /// Zola `taxonomy_root`: the folder taxonomy pages lie below (`blog`: `/blog/tags/…`).
    pub taxonomy_root: Option<String>,
    /// Hugo: the merged config as read, for the values whose reading depends on the Hugo
    /// release (`hugo::config::apply_rules`).
    pub raw: Value,
    /// Hugo: the first key a YAML config file gives twice, and that file (taken with its last
    /// value; Hugo from 0.152 stops at it: `hugo::config::apply_rules`).
    pub yaml_key_twice: Option<(PathBuf, KeyTwice)>,
    /// Hugo before 0.112: `defaultContentLanguage` names no language as written (`FR` for
    /// `fr`), so no language is the one without a folder.
    pub default_language_unmatched: bool,
    /// Hugo `contentDir` (relative to the site).
    pub content_dir: Option<PathBuf>,
    /// Hugo `publishDir` / Zola `output_dir`.
    pub publish_dir: Option<PathBuf>,
    /// Hugo `buildDrafts`.
    pub build_drafts: bool,
    /// Hugo `buildFuture`.
    pub build_future: bool,
    /// Hugo `buildExpired`.
    pub build_expired: bool,
    /// Hugo `enableGitInfo`.
    pub enable_git_info: bool,
    /// Hugo `[frontmatter] lastmod`, lower-cased.
    pub frontmatter_lastmod: Option<Vec<String>>,
    /// Hugo `[frontmatter] date`, lower-cased (`:filename` there also names the page).
    pub frontmatter_date: Option<Vec<String>>,
    /// Hugo's four date orders from `[frontmatter]` (its defaults where it sets none).
    pub hugo_dates: std::sync::Arc<crate::hugo::dates::HugoDates>,
    /// Zola `[slugify] paths_keep_dates`: a file-name date stays in the slug.
    pub paths_keep_dates: bool,
    /// Zola `exclude_paginated_pages_in_sitemap = "all"`: pagers are left out.
    pub exclude_paginated_pages: bool,
    /// Hugo `module.mounts` into `content`: when any, they replace the content folders.
    pub content_mounts: Vec<ContentMount>,
    /// Hugo before 0.123 keyed translations by kind and path, a `translationKey` in the
    /// same space (`translationKey: blog/post` joins `blog/post.md`); 0.123+ keeps them apart.
    pub translation_keys_share_paths: bool,
    /// The Hugo config files, in the order they were merged (to name a key's file and line).
    pub layers: Vec<Layer>,
    /// For `--verbose`: the files read and the content mounts.
    pub notes: Vec<String>,
}

/// One language of the site.
#[derive(Clone, Debug, PartialEq)]
pub struct Language {
    /// The language key (`en`, `fr`, `pt-br`).
    pub code: String,
    /// Hugo `weight` (ordering only).
    pub weight: i64,
    /// A base URL of its own (Hugo multihost).
    pub base_url: Option<String>,
    /// A content folder of its own (Hugo `contentDir`).
    pub content_dir: Option<PathBuf>,
    /// Hugo `languageCode` (used as `hreflang` when set; see [`Language::locale`]).
    pub hreflang: Option<String>,
    /// Hugo `locale` (0.158's name for `languageCode`: Hugo from 0.158 writes it as the
    /// `hreflang`, older Hugo ignores it).
    pub locale: Option<String>,
    /// Hugo `[languages.X.sitemap] changefreq`.
    pub changefreq: Option<ChangeFreq>,
    /// When the language has a `[languages.X.sitemap]` table: its `filename`, else
    /// `sitemap.xml` (before Hugo 0.112 that table replaced the site's `[sitemap]` whole,
    /// so the language's sitemap took that name).
    pub sitemap_table_filename: Option<String>,
    /// Hugo `[languages.X.sitemap] priority`.
    pub priority: Option<Priority>,
    /// Hugo `[languages.X] title`: its home page's title, over the site's.
    pub title: Option<String>,
    /// Zola per-language taxonomies (`None`: not configured for this language).
    pub taxonomies: Option<Vec<Taxonomy>>,
}

/// One taxonomy: the front matter key that holds terms and the URL segment of its pages.
#[derive(Clone, Debug, PartialEq)]
pub struct Taxonomy {
    /// Plural name: front matter key and URL segment (`tags`).
    pub name: String,
    /// Zola `paginate_by` for term pages.
    pub paginate_by: Option<u32>,
    /// Zola `paginate_path` (default `page`).
    pub paginate_path: String,
    /// Zola `render` (default true).
    pub render: bool,
}

impl Language {
    /// A language with this code and nothing else set.
    pub fn named(code: String) -> Language {
        Language {
            code,
            weight: 0,
            base_url: None,
            content_dir: None,
            hreflang: None,
            locale: None,
            changefreq: None,
            sitemap_table_filename: None,
            priority: None,
            title: None,
            taxonomies: None,
        }
    }
}

impl Default for SiteConfig {
    fn default() -> Self {
        SiteConfig {
            style: Style::Plain,
            config_file: None,
            base_url: None,
            base_url_kind: None,
            default_language: "en".into(),
            default_language_in_subdir: false,
            languages: Vec::new(),
            disabled_languages: Vec::new(),
            taxonomies: Vec::new(),
            ugly_urls: false,
            ugly_sections: Vec::new(),
            permalinks: Vec::new(),
            term_permalinks: Vec::new(),
            section_permalinks: Vec::new(),
            taxonomy_permalinks: Vec::new(),
            permalink_rules: Default::default(),
            environment: String::new(),
            title: None,
            disable_path_to_lower: false,
            list_titles: ListTitles::default(),
            remove_path_accents: false,
            disable_kinds: Vec::new(),
            timezone: None,
            sitemap_filename: None,
            default_changefreq: None,
            default_priority: None,
            generate_sitemap: true,
            no_html_kinds: Vec::new(),
            content_denied: Vec::new(),
            ignore_files: Vec::new(),
            warnings: Vec::new(),
            slugify_paths: "on".into(),
            slugify_taxonomies: "on".into(),
            ignored_content: Vec::new(),
            content_dir: None,
            publish_dir: None,
            build_drafts: false,
            build_future: false,
            build_expired: false,
            enable_git_info: false,
            frontmatter_lastmod: None,
            frontmatter_date: None,
            hugo_dates: Default::default(),
            taxonomy_root: None,
            raw: Value::Null,
            yaml_key_twice: None,
            default_language_unmatched: false,
            paths_keep_dates: false,
            exclude_paginated_pages: false,
            content_mounts: Vec::new(),
            translation_keys_share_paths: false,
            layers: Vec::new(),
            notes: Vec::new(),
        }
    }
}

impl SiteConfig {
    /// True when more than one language is configured.
    pub fn is_multilingual(&self) -> bool {
        self.languages.len() > 1
    }

    /// True when every language has a base URL of its own (Hugo multihost): each gets its own
    /// sitemap, in a folder named for it.
    pub fn is_multihost(&self) -> bool {
        self.languages.len() > 1 && self.languages.iter().all(|l| l.base_url.is_some())
    }

    /// The language with this code.
    pub fn language(&self, code: &str) -> Option<&Language> {
        self.languages.iter().find(|l| l.code == code)
    }

    /// Every `[permalinks]` table pattern, of every kind, with its key (the rules of a
    /// `[[permalinks]]` list are in [`SiteConfig::permalink_rules`]).
    pub fn all_permalinks(&self) -> impl Iterator<Item = &(String, String)> {
        (self.permalinks.iter())
            .chain(&self.term_permalinks)
            .chain(&self.section_permalinks)
            .chain(&self.taxonomy_permalinks)
    }

    /// Hugo: pages of `section` (a first-level folder or taxonomy) have ugly URLs.
    pub fn ugly(&self, section: &str) -> bool {
        self.ugly_urls
            || self
                .ugly_sections
                .iter()
                .any(|s| s.eq_ignore_ascii_case(section))
    }

    /// The file and line that set the value at `keys` (for a Hugo config split over files,
    /// the one that set it last).
    pub fn locate(&self, keys: &[&str]) -> (PathBuf, Option<usize>) {
        let main = self.config_file.clone().unwrap_or_default();
        locate(&self.layers, &main, keys)
    }

    /// A configuration error about the value at `keys`, naming the file and line that set it.
    pub fn error_at(&self, keys: &[&str], message: impl Into<String>) -> Error {
        let (file, line) = self.locate(keys);
        Error::config(file, line, message)
    }
}

/// What the config stage asks of a generator: to find its config in a site's folder and
/// read it. Each generator's wing implements it (as part of
/// [`crate::generator::Generator`]); [`load`] tries them in the order given.
pub trait Reader {
    /// The style this reader's config implies.
    fn style(&self) -> Style;

    /// The config file this generator would read in `site_dir`, if there is one; `asked`:
    /// the style was asked for by name; `taken`: the file a generator earlier in the
    /// order claimed, which this one leaves alone.
    fn config_file(&self, site_dir: &Path, asked: bool, taken: Option<&Path>) -> Option<PathBuf>;

    /// Whether the site is this generator's though it has no config file
    /// ([`Reader::config_file`]): Hugo's `config/_default/`.
    fn claims_folder(&self, _site_dir: &Path) -> bool {
        false
    }

    /// Reads the site's config: `file` as [`Reader::config_file`] found it (none when the
    /// style was asked for and there is none), `environment` as `--environment` gave it.
    fn read(
        &self,
        site_dir: &Path,
        file: Option<&Path>,
        environment: Option<&str>,
    ) -> Result<SiteConfig>;
}

/// Finds and reads the site's config in `site_dir` with the first of `readers` that claims
/// it; `requested` forces a style, `Auto` detects. A site none claims is plain.
pub fn load(
    site_dir: &Path,
    requested: Style,
    environment: Option<&str>,
    readers: &[&dyn Reader],
) -> Result<SiteConfig> {
    let mut taken: Option<PathBuf> = None;
    let mut found = Vec::with_capacity(readers.len());
    for r in readers {
        let file = r.config_file(site_dir, requested == r.style(), taken.as_deref());
        if taken.is_none() {
            taken.clone_from(&file);
        }
        found.push(file);
    }
    let mut pairs = readers.iter().zip(&found);
    let chosen = match requested {
        Style::Auto => pairs.find(|(r, file)| file.is_some() || r.claims_folder(site_dir)),
        asked => pairs.find(|(r, _)| r.style() == asked),
    };
    match chosen {
        Some((r, file)) => r.read(site_dir, file.as_deref(), environment),
        None => Ok(SiteConfig::default()),
    }
}

/// Whether the config file at `path` sets `key`: a line that starts with it and has a `=`.
pub fn file_has_key(path: &Path, key: &str) -> bool {
    crate::vocab::fsread::read_string(path, MAX_CONFIG)
        .map(|t| {
            t.lines()
                .any(|l| l.trim_start().starts_with(key) && l.contains('='))
        })
        .unwrap_or(false)
}

/// Reads a TOML, YAML or JSON file into a generic value, by extension, with the first key a
/// YAML mapping gives twice (taken with its last value; see [`parse_value`]).
pub fn read_value(path: &Path) -> Result<(Value, Option<KeyTwice>)> {
    let text = crate::vocab::fsread::read_text(path, MAX_CONFIG)?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    parse_value(&text, ext, path)
}

/// Parses config text of the given format (`toml`, `yaml`/`yml`, `json`). A key YAML gives
/// twice is taken with its last value and returned beside the value, for the reader to judge
/// (Hugo before 0.152 reads it; TOML and JSON never give one here: TOML refuses it, and JSON
/// takes the last, as Go's decoder does).
pub fn parse_value(text: &str, ext: &str, path: &Path) -> Result<(Value, Option<KeyTwice>)> {
    let one = |v: Value| (v, None);
    match ext {
        "toml" if crate::vocab::limits::toml_too_deep(text).is_some() => {
            Err(toml_too_deep_error(text, path))
        }
        "toml" => toml::from_str::<toml::Value>(text)
            .map(|v| one(toml_to_json(v)))
            .map_err(|e| {
                let line = e.span().map(|s| line_of(text, s.start));
                Error::config(path, line, e.message().trim().to_string())
            }),
        "json" => serde_json::from_str(text)
            .map(one)
            .map_err(|e| Error::config(path, Some(e.line()), e.to_string())),
        _ => crate::frontmatter::yaml::config_value(text, path),
    }
}

/// Converts TOML to the generic value; datetimes become their RFC 3339 text.
pub fn toml_to_json(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect())
        }
    }
}

pub use crate::vocab::config_text::get;

/// The kinds Hugo's `[outputs]` gives no HTML output (`section = ["rss"]`); Hugo's older name
/// `taxonomyterm` is today's `taxonomy`.
pub(crate) fn no_html_kinds(outputs: Option<&Value>) -> Vec<String> {
    let Some(Value::Object(kinds)) = outputs else {
        return Vec::new();
    };
    let mut off: Vec<String> = kinds
        .iter()
        .filter(|(_, formats)| {
            !strings(Some(formats))
                .iter()
                .any(|f| f.eq_ignore_ascii_case("html"))
        })
        .map(|(kind, _)| match kind.to_ascii_lowercase().as_str() {
            "taxonomyterm" => "taxonomy".to_string(),
            k => k.to_string(),
        })
        .collect();
    off.sort();
    off
}

/// What a value is, in words, when it is there and not text.
pub(crate) fn not_text(v: Option<&Value>) -> Option<&'static str> {
    Some(match v? {
        Value::String(_) => return None,
        Value::Null => "empty",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::Array(_) => "a list",
        Value::Object(_) => "a table",
    })
}

pub(crate) fn get_str(map: &Value, key: &str) -> Option<String> {
    get(map, key).and_then(Value::as_str).map(str::to_string)
}

pub(crate) fn get_bool(map: &Value, key: &str) -> Option<bool> {
    get(map, key).and_then(Value::as_bool)
}

pub(crate) fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        Some(Value::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

pub(crate) fn check_languages(
    c: &mut SiteConfig,
    path: &Path,
    warnings: &mut Vec<String>,
) -> Result<()> {
    if !c.is_multilingual() {
        return Ok(());
    }
    let layers = c.layers.clone();
    let default_key = if c.style == Style::Hugo {
        "defaultContentLanguage"
    } else {
        "default_language"
    };
    for l in &mut c.languages {
        for (name, tag) in [("languageCode", &mut l.hreflang), ("locale", &mut l.locale)] {
            if let Some(h) = tag.take() {
                if langtag::is_well_formed(&h) {
                    *tag = Some(h);
                    continue;
                }
                warnings.push(format!(
                    "{name} '{h}' of language '{}' is not a BCP 47 language tag (like en-US): left out of hreflang",
                    l.code
                ));
            }
        }
        if !langtag::is_well_formed(&l.code) {
            let keys = if l.code == c.default_language {
                vec![default_key]
            } else {
                vec!["languages", l.code.as_str()]
            };
            let (file, line) = locate(&layers, path, &keys);
            return Err(Error::config(
                file,
                line,
                format!(
                    "language code '{}' is not a BCP 47 language tag (like en, pt-BR or zh-Hant): it cannot be an hreflang",
                    l.code
                ),
            ));
        }
    }
    Ok(())
}

/// Merges `b` into `a`, key by key (tables recursively), as Hugo merges config files.
pub(crate) fn merge(a: &mut Value, b: Value) {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(&k) {
                    Some(existing) => merge(existing, v),
                    None => {
                        a.insert(k, v);
                    }
                }
            }
        }
        (a, b) => *a = b,
    }
}

#[cfg(test)]
mod tests {
    /// The site's config as a run reads it: every generator's reader, in the run's order.
    fn load(site_dir: &Path, requested: Style, environment: &str) -> Result<SiteConfig> {
        super::load(
            site_dir,
            requested,
            Some(environment),
            &crate::pipeline::READERS,
        )
    }

    use super::*;

    fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir
    }

    #[test]
    fn detects_zola_from_base_url() {
        let d = site(&[(
            "config.toml",
            "base_url = \"https://z.org\"\ntaxonomies = [{ name = \"tags\", paginate_by = 2 }]\n[languages.fr]\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(c.style, Style::Zola);
        assert_eq!(c.base_url.as_deref(), Some("https://z.org"));
        assert_eq!(c.taxonomies[0].paginate_by, Some(2));
        assert!(!c.paths_keep_dates && !c.exclude_paginated_pages);
        assert_eq!(
            c.languages
                .iter()
                .map(|l| l.code.as_str())
                .collect::<Vec<_>>(),
            ["en", "fr"]
        );
    }

    #[test]
    fn reads_zola_slugify_and_pagination_keys_and_refuses_unknown_values() {
        let d = site(&[(
            "zola.toml",
            "base_url = \"https://z.org\"\nexclude_paginated_pages_in_sitemap = \"all\"\n[slugify]\npaths = \"safe\"\npaths_keep_dates = true\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert!(c.paths_keep_dates && c.exclude_paginated_pages);
        assert_eq!(c.slugify_paths, "safe");
        let d = site(&[(
            "config.toml",
            "base_url = \"https://z.org\"\n[slugify]\npaths = \"sometimes\"\n",
        )]);
        let err = load(d.path(), Style::Auto, "production")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("slugify.paths") && err.contains("sometimes"),
            "{err}"
        );
        let d = site(&[(
            "config.toml",
            "base_url = \"https://z.org\"\nexclude_paginated_pages_in_sitemap = \"some\"\n",
        )]);
        assert!(load(d.path(), Style::Auto, "production").is_err());
    }

    #[test]
    fn detects_hugo_and_merges_config_default() {
        let d = site(&[
            (
                "hugo.toml",
                "baseURL = \"https://h.org/\"\nuglyURLs = true\n[taxonomies]\ntag = \"tags\"\n",
            ),
            (
                "config/_default/languages.toml",
                "[en]\nweight = 1\n[de]\nweight = 2\ncontentDir = \"content/de\"\n",
            ),
            ("config/_default/params.yaml", "x: 1\n"),
        ]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(c.style, Style::Hugo);
        assert!(c.ugly_urls);
        assert_eq!(c.taxonomies.len(), 1);
        assert_eq!(
            c.languages
                .iter()
                .map(|l| l.code.as_str())
                .collect::<Vec<_>>(),
            ["en", "de"]
        );
        assert_eq!(
            c.languages[1].content_dir.as_deref(),
            Some(Path::new("content/de"))
        );
    }

    #[test]
    fn the_hugo_default_language_is_resolved_as_hugo_0_168_does() {
        let langs = |c: &SiteConfig| -> Vec<String> {
            c.languages.iter().map(|l| l.code.clone()).collect()
        };
        // Unset: `en` when configured, else the first by weight.
        let d = site(&[(
            "hugo.toml",
            "baseURL = \"https://h.org/\"\n[languages.fr]\nweight = 2\n[languages.de]\nweight = 1\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(
            (c.default_language.as_str(), langs(&c)),
            ("de", vec!["de".into(), "fr".into()])
        );
        // Menus of a language alone make it the site's one language.
        let d = site(&[
            (
                "config/_default/hugo.toml",
                "baseURL = \"https://h.org/\"\n",
            ),
            ("config/_default/menus.fr.toml", "[[main]]\nname = \"x\"\n"),
        ]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(
            (c.default_language.as_str(), langs(&c)),
            ("fr", vec!["fr".into()])
        );
        // Empty is unset.
        let d = site(&[(
            "hugo.toml",
            "baseURL = \"https://h.org/\"\ndefaultContentLanguage = \"\"\n[languages.fr]\nweight = 2\n[languages.en]\nweight = 3\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(c.default_language, "en");
        // Named but not configured, or turned off: Hugo refuses to build.
        for (extra, why) in [
            ("", "not one of"),
            ("[languages.en]\ndisabled = true\n", "turned off"),
        ] {
            let d = site(&[(
                "hugo.toml",
                &format!(
                    "baseURL = \"https://h.org/\"\ndefaultContentLanguage = \"en\"\n[languages.fr]\nweight = 1\n{extra}"
                ),
            )]);
            let err = load(d.path(), Style::Auto, "production")
                .unwrap_err()
                .to_string();
            assert!(err.contains("hugo.toml:2") && err.contains(why), "{err}");
        }
    }

    #[test]
    fn ugly_urls_is_a_boolean_or_a_map_of_sections() {
        for (text, all, sections) in [
            ("uglyURLs = true\n", true, vec![]),
            ("uglyURLs = \"true\"\n", true, vec![]),
            (
                "[uglyURLs]\nPosts = true\ndocs = false\ntags = true\n",
                false,
                vec!["posts", "tags"],
            ),
        ] {
            let d = site(&[(
                "hugo.toml",
                &format!("baseURL = \"https://h.org/\"\n{text}"),
            )]);
            let c = load(d.path(), Style::Auto, "production").unwrap();
            assert_eq!(
                (c.ugly_urls, c.ugly_sections.clone()),
                (all, sections.iter().map(|s| s.to_string()).collect()),
                "{text}"
            );
            assert_eq!(c.ugly("POSTS"), all || !sections.is_empty(), "{text}");
            assert_eq!(c.ugly("docs"), all, "{text}");
        }
    }

    #[test]
    fn hugo_sitemap_values_the_protocol_forbids_warn_instead_of_failing() {
        let d = site(&[(
            "hugo.toml",
            "baseURL = \"https://h.org/\"\nlanguageCode = \"en-GB\"\ndisableKinds = [\"sitemap\"]\n[sitemap]\nchangefreq = \"sometimes\"\npriority = 0.4\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n[languages.fr.sitemap]\npriority = 2.0\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(c.default_changefreq, None);
        assert_eq!(
            c.default_priority.map(|p| p.to_string()).as_deref(),
            Some("0.4")
        );
        assert_eq!(c.language("fr").and_then(|l| l.priority), None);
        assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
        assert!(c.warnings[0].contains("hugo.toml") && c.warnings[0].contains("sometimes"));
        assert!(c.warnings[1].contains("2"), "{:?}", c.warnings);
        // The top-level languageCode is the default language's hreflang, not fr's.
        assert_eq!(
            c.language("en").and_then(|l| l.hreflang.as_deref()),
            Some("en-GB")
        );
        assert_eq!(c.language("fr").and_then(|l| l.hreflang.as_deref()), None);
        assert!(!c.generate_sitemap);
    }

    #[test]
    fn hugo_defaults_to_tags_and_categories_and_reads_yaml() {
        let d = site(&[(
            "hugo.yaml",
            "baseURL: https://h.org/\nsitemap:\n  changefreq: weekly\n  priority: -1\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(
            c.taxonomies
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>(),
            ["categories", "tags"]
        );
        assert_eq!(c.default_changefreq, Some(ChangeFreq::Weekly));
        assert_eq!(c.default_priority, None);
    }

    #[test]
    fn a_language_code_that_cannot_be_an_hreflang_names_the_config_line() {
        let cases = [
            (
                "config.toml",
                "base_url = \"https://z.org/\"\ndefault_language = \"zz zz\"\n[languages.fr]\n",
                ":2:",
            ),
            (
                "hugo.toml",
                "baseURL = \"https://h.org/\"\ndefaultContentLanguage = \"x_y\"\n[languages.x_y]\nweight = 1\n[languages.fr]\nweight = 2\n",
                ":2:",
            ),
            (
                "hugo.toml",
                "baseURL = \"https://h.org/\"\n[languages.en]\nweight = 1\n[languages.\"x y\"]\nweight = 2\n",
                ":4:",
            ),
            (
                "hugo.yaml",
                "baseURL: https://h.org/\nlanguages:\n  en: {weight: 1}\n  x y:\n    weight: 2\n",
                ":4:",
            ),
        ];
        for (name, text, line) in cases {
            let d = site(&[(name, text)]);
            let err = load(d.path(), Style::Auto, "production")
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(&format!("{name}{line}")) && err.contains("BCP 47"),
                "{name}: {err}"
            );
        }
        // One language writes no hreflang: nothing to refuse.
        let d = site(&[(
            "config.toml",
            "base_url = \"https://z.org/\"\ndefault_language = \"zz zz\"\n",
        )]);
        assert!(load(d.path(), Style::Auto, "production").is_ok());
    }

    #[test]
    fn a_hugo_language_code_setting_that_is_not_bcp_47_is_left_out_with_a_warning() {
        let d = site(&[(
            "hugo.toml",
            "baseURL = \"https://h.org/\"\n[languages.en]\nweight = 1\nlanguageCode = \"en_US\"\n[languages.fr]\nweight = 2\nlanguageCode = \"fr-FR\"\n",
        )]);
        let c = load(d.path(), Style::Auto, "production").unwrap();
        assert_eq!(c.language("en").unwrap().hreflang, None);
        assert_eq!(c.language("fr").unwrap().hreflang.as_deref(), Some("fr-FR"));
        assert!(
            c.warnings.len() == 1 && c.warnings[0].contains("en_US"),
            "{:?}",
            c.warnings
        );
    }

    #[test]
    fn a_bad_ignored_content_glob_names_the_config_line() {
        let d = site(&[(
            "config.toml",
            "base_url = \"https://z.org/\"\n\nignored_content = [\"*.tmp\", \"[\"]\n",
        )]);
        let err = load(d.path(), Style::Auto, "production")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("config.toml:3:") && err.contains("ignored_content"),
            "{err}"
        );
    }

    #[test]
    fn no_config_is_plain_and_bad_config_names_the_line() {
        let d = site(&[]);
        assert_eq!(
            load(d.path(), Style::Auto, "production").unwrap().style,
            Style::Plain
        );
        let d = site(&[("hugo.toml", "baseURL = \"https://h.org/\"\n[[broken\n")]);
        let err = load(d.path(), Style::Auto, "production")
            .unwrap_err()
            .to_string();
        assert!(err.contains("hugo.toml:2"), "{err}");
    }
}
