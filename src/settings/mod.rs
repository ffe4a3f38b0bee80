//! Configuration: `sitemap.toml`, the site's own config, and command-line overrides, resolved
//! into one [`Settings`] value that every later stage reads.

use crate::hugo::version::{self as hugo_version, HreflangFrom, HugoRules};
use crate::platform::HostSetting;
pub use crate::siteconfig::Style;
use crate::siteconfig::{self, Reader, SiteConfig};
use crate::vocab::config_text::{error_at, toml_too_deep_error, value_line};
use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use crate::vocab::date::{SiteTz, W3cDate};
use crate::vocab::error::{Error, Result};
use crate::vocab::fsread::FileKind;
use crate::vocab::limits::MAX_CONFIG;
use std::path::{Path, PathBuf};
use url::Url;

mod file;
pub mod indexnow;
pub use file::{
    AuditMode, ExtraUrl, FileConfig, GitDateKind, GitFetch, IgnoreRevs, LastmodSource, LayoutMode,
    Precision, Rule, Significance,
};

/// Values given on the command line; each one, when set, wins over the files.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--config FILE`.
    pub config: Option<PathBuf>,
    /// `--site DIR`.
    pub site: Option<PathBuf>,
    /// `--content DIR`.
    pub content: Option<PathBuf>,
    /// `--output DIR`.
    pub output: Option<PathBuf>,
    /// `--base-url URL`.
    pub base_url: Option<String>,
    /// `--style`.
    pub style: Option<Style>,
    /// `--drafts`.
    pub drafts: bool,
    /// `--future`.
    pub future: bool,
    /// `--expired`.
    pub expired: bool,
    /// `--gzip`.
    pub gzip: bool,
    /// `--environment`: Hugo's `config/<environment>/` (else `HUGO_ENVIRONMENT`, `HUGO_ENV`,
    /// `production`).
    pub environment: Option<String>,
    /// `--hugo-version`.
    pub hugo_version: Option<String>,
    /// `--no-audit`.
    pub no_audit: bool,
    /// `--git-fetch`.
    pub git_fetch: Option<GitFetch>,
    /// `--host`.
    pub host: Option<HostSetting>,
    /// The values came from command-line flags: errors name them as flags (`--site`);
    /// otherwise, for a library caller, as fields (`Overrides::site`).
    pub from_flags: bool,
}

impl Overrides {
    /// How an error names the override `flag` (`--base-url`): the flag itself when the values
    /// came from the command line, else the field a library caller set
    /// (`Overrides::base_url`).
    pub fn name(&self, flag: &str) -> String {
        if self.from_flags {
            flag.to_string()
        } else {
            format!(
                "Overrides::{}",
                flag.trim_start_matches('-').replace('-', "_")
            )
        }
    }
}

/// Everything a run needs, resolved and checked.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The sitemap.toml that was read, if any.
    pub config_file: Option<PathBuf>,
    /// The site root.
    pub site_dir: PathBuf,
    /// The content folder.
    pub content_dir: PathBuf,
    /// The output folder.
    pub output_dir: PathBuf,
    /// The site's public URL, ending in `/`.
    pub base_url: Url,
    /// The conventions in force (never `Auto` here).
    pub style: Style,
    /// `trailing_slash`, when set.
    pub trailing_slash: Option<bool>,
    /// Exclusion globs.
    pub exclude: Vec<String>,
    /// `[[rules]]`.
    pub rules: Vec<Rule>,
    /// Default `<changefreq>`.
    pub default_changefreq: Option<ChangeFreq>,
    /// Default `<priority>`.
    pub default_priority: Option<Priority>,
    /// List drafts.
    pub include_drafts: bool,
    /// List future pages.
    pub include_future: bool,
    /// List expired pages.
    pub include_expired: bool,
    /// Gzip the output.
    pub gzip: bool,
    /// URLs per file before splitting.
    pub max_urls_per_file: usize,
    /// Maintain robots.txt.
    pub robots_txt: bool,
    /// Write sitemap.txt.
    pub sitemap_txt: bool,
    /// XSL stylesheet href.
    pub stylesheet: Option<String>,
    /// Image entries.
    pub images: bool,
    /// Front matter keys that name a page's image, besides the generator's own (dotted
    /// paths, lower-case).
    pub image_keys: Vec<String>,
    /// Zone for offset-less dates.
    pub timezone: SiteTz,
    /// `<lastmod>` sources, in order.
    pub lastmod: Vec<LastmodSource>,
    /// Which git date.
    pub git_date: GitDateKind,
    /// Why the lastmod order is what it is, when the site's config chose it (for `--verbose`).
    #[doc(hidden)]
    pub lastmod_notes: Vec<String>,
    /// What the site's config decided that changes the sitemap (git dates off, as Hugo's
    /// `enableGitInfo` is): one line each, said by default.
    pub decisions: Vec<String>,
    /// Which commits date a page.
    pub lastmod_significance: Significance,
    /// A commit changing at least this many pages dates a page only where it changed its
    /// words (`None`: no commit is a mass edit).
    pub mass_edit: Option<usize>,
    /// Commits that never date a page.
    pub git_ignore_revs: IgnoreRevs,
    /// Whether a shallow clone's history is fetched.
    pub git_fetch: GitFetch,
    /// How finely git and file-time dates are written.
    pub lastmod_precision: Precision,
    /// Static URLs.
    pub extra_urls: Vec<ExtraUrl>,
    /// The sitemap's file name.
    pub file_name: String,
    /// Which files the set is made of.
    pub layout: LayoutMode,
    /// `x-default` language.
    pub x_default: Option<String>,
    /// The audit of the built output.
    pub audit: AuditMode,
    /// List built pages that no content file accounts for.
    pub include_unsourced: bool,
    /// IndexNow: the key, its file, the endpoint.
    #[doc(hidden)]
    pub indexnow: indexnow::IndexNowSettings,
    /// The platform that serves the site (`auto`: detected from its files).
    pub host: HostSetting,
    /// What the site's own config says.
    #[doc(hidden)]
    pub site: SiteConfig,
    /// The rules of the Hugo release the site is built with (Hugo style; the current
    /// Hugo's otherwise).
    #[doc(hidden)]
    pub hugo: HugoRules,
    /// Hugo style with no `lastmod` in sitemap.toml: lastmod follows the site's own
    /// `[frontmatter] lastmod` keys.
    pub hugo_lastmod: bool,
    /// Which Hugo version and why, and sources passed over (for `--verbose`).
    #[doc(hidden)]
    pub hugo_notes: Vec<String>,
}

impl Settings {
    /// The site's language codes, disabled ones too (whose folders may hold a generator's
    /// sitemap).
    pub fn language_codes(&self) -> Vec<String> {
        (self.site.languages.iter().map(|l| l.code.clone()))
            .chain(self.site.disabled_languages.iter().cloned())
            .collect()
    }
}

/// The protocol's cap on URLs per file.
pub use crate::vocab::protocol::MAX_URLS;

/// The default `mass_edit`: a commit that changes this many pages or more. Measured on the
/// lastmod oracle (docs/lastmod.md#mass-edits).
pub const MASS_EDIT: usize = 7;

/// The default `<lastmod>` order.
pub const DEFAULT_LASTMOD: [LastmodSource; 4] = [
    LastmodSource::FrontMatter,
    LastmodSource::Git,
    LastmodSource::Published,
    LastmodSource::Mtime,
];

/// The lastmod order a Hugo site's config asks for, in sitemapgen's sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HugoLastmod {
    /// Sources in Hugo's order; `:git` only when git info is on.
    pub sources: Vec<LastmodSource>,
}

/// Maps Hugo's `.Lastmod` order (the site's `[frontmatter] lastmod`, expanded) onto
/// sitemapgen's sources: each run of front matter keys is one source (the page's first run
/// is [`LastmodSource::FrontMatter`], later runs [`LastmodSource::HugoKeys`]), `:git`,
/// `:fileModTime` and `:filename` their own.
///
/// Hugo reads git dates only with `enableGitInfo` on, so `:git` is dropped when it is off:
/// the sitemap then says what the site's own pages say (`.Lastmod`).
pub(crate) fn hugo_lastmod(dates: &crate::hugo::dates::HugoDates, git_info: bool) -> HugoLastmod {
    use crate::hugo::dates::DateSource;
    let mut sources = Vec::new();
    let mut run: Option<u8> = None;
    let mut runs = 0u8;
    for s in &dates.lastmod {
        let source = match s {
            DateSource::Key(_) => {
                if run.is_some() {
                    continue;
                }
                let k = runs;
                runs = runs.saturating_add(1);
                run = Some(k);
                Some(match k {
                    0 => LastmodSource::FrontMatter,
                    k => LastmodSource::HugoKeys(k),
                })
            }
            DateSource::Git => git_info.then_some(LastmodSource::Git),
            DateSource::ModTime => Some(LastmodSource::Mtime),
            DateSource::FileName => Some(LastmodSource::FileName),
        };
        if !matches!(s, DateSource::Key(_)) {
            run = None;
        }
        if let Some(src) = source
            && !sources.contains(&src)
        {
            sources.push(src);
        }
    }
    HugoLastmod { sources }
}

/// Hugo's `enableGitInfo`, which Hugo also takes from `HUGO_ENABLEGITINFO` (as CI sets it).
fn hugo_git_info(site: &SiteConfig) -> bool {
    std::env::var("HUGO_ENABLEGITINFO")
        .ok()
        .and_then(|v| v.trim().parse::<bool>().ok())
        .unwrap_or(site.enable_git_info)
}

/// Reads `sitemap.toml` (the one named, else `SITE/sitemap.toml` with `--site`, else
/// `./sitemap.toml`, when present), the site's own config (found and read by the first of
/// `readers` that claims it), and applies the command-line overrides: the settings the
/// command would run with. [`crate::pipeline::load`] passes every generator's reader.
pub fn load(over: &Overrides, readers: &[&dyn Reader]) -> Result<Settings> {
    let (file, config_file) = match &over.config {
        Some(path) if !path.exists() => {
            return Err(Error::input(
                format!("{} {}", over.name("--config"), path.display()),
                None,
                "no such file: give the path of a sitemap.toml (`sitemapgen init --config FILE` writes one)",
            ));
        }
        Some(path) => (read_file_config(path)?, Some(path.clone())),
        None => {
            // `--site DIR` means that site's sitemap.toml, not the one of wherever we stand.
            let default = match &over.site {
                Some(site) => site.join("sitemap.toml"),
                None => PathBuf::from("sitemap.toml"),
            };
            if default.is_file() {
                (read_file_config(&default)?, Some(default))
            } else {
                (FileConfig::default(), None)
            }
        }
    };
    resolve(file, config_file, over, readers)
}

/// Parses a sitemap.toml, with the line of any mistake.
pub fn read_file_config(path: &Path) -> Result<FileConfig> {
    let text = crate::vocab::fsread::read_text(path, MAX_CONFIG)?;
    parse_file_config(&text, path)
}

/// Parses sitemap.toml text (`path` is for messages).
pub fn parse_file_config(text: &str, path: &Path) -> Result<FileConfig> {
    if crate::vocab::limits::toml_too_deep(text).is_some() {
        return Err(toml_too_deep_error(text, path));
    }
    toml::from_str(text)
        .map_err(|e| crate::vocab::config_text::toml_error::<FileConfig>(text, path, &e))
}

/// A site folder that is not there stops the run naming where it was given (`--site` or
/// sitemap.toml's `site_dir`), before anything else can blame a missing base_url on it.
fn check_site_dir(site_dir: &Path, flag: Option<String>, cfg_path: &Path) -> Result<()> {
    if site_dir.is_dir() {
        return Ok(());
    }
    let what = if site_dir.exists() {
        "not a folder"
    } else {
        "no such folder"
    };
    let fix =
        "point it at the site's root, the folder with its zola.toml, config.toml or hugo.toml";
    Err(if let Some(flag) = flag {
        Error::config(
            format!("{flag} {}", site_dir.display()),
            None,
            format!("{what}: {fix}"),
        )
    } else {
        error_at(
            cfg_path,
            &["site_dir"],
            format!("site_dir {}: {what}: {fix}", site_dir.display()),
        )
    })
}

/// The output folder, or the first of its parents that exists, must be a folder: else the
/// error names the flag, file and line that chose it, before anything is written.
fn check_output_dir(
    dir: &Path,
    flag: Option<String>,
    file: &FileConfig,
    cfg_path: &Path,
    site: &SiteConfig,
) -> Result<()> {
    let Some((at, kind)) = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| a.exists())
        .and_then(|a| match crate::vocab::fsread::kind(a) {
            Some(FileKind::Folder) => None,
            Some(k) => Some((a, k.to_string())),
            None => Some((a, "a file".to_string())),
        })
    else {
        return Ok(());
    };
    let what = if at == dir {
        format!("{} is {kind}, not a folder", dir.display())
    } else {
        format!(
            "{} is {kind}, not a folder, so {} cannot be made",
            at.display(),
            dir.display()
        )
    };
    let fix = "the sitemap goes into the output folder";
    Err(if let Some(flag) = flag {
        Error::config(
            format!("{flag} {}", dir.display()),
            None,
            format!("{what}: {fix}"),
        )
    } else if file.output_dir.is_some() {
        error_at(
            cfg_path,
            &["output_dir"],
            format!("output_dir: {what}: {fix}"),
        )
    } else if site.publish_dir.is_some() {
        let key = if site.style == Style::Hugo {
            "publishDir"
        } else {
            "output_dir"
        };
        site.error_at(&[key], format!("{key}: {what}: {fix}"))
    } else {
        Error::config(dir, None, format!("{what}: {fix}"))
    })
}

/// Combines sitemap.toml, the site config and the overrides into [`Settings`].
pub fn resolve(
    file: FileConfig,
    config_file: Option<PathBuf>,
    over: &Overrides,
    readers: &[&dyn Reader],
) -> Result<Settings> {
    // Paths in sitemap.toml are relative to the file; on the command line, to the cwd.
    let rel_base = config_file
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let from_file = |p: &Option<PathBuf>| p.as_ref().map(|p| rel_base.join(p));
    let cfg_path = config_file
        .clone()
        .unwrap_or_else(|| PathBuf::from("command line"));

    let site_dir = over
        .site
        .clone()
        .or_else(|| from_file(&file.site_dir))
        .unwrap_or_else(|| {
            if rel_base.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                rel_base.clone()
            }
        });
    let site_flag = over.site.is_some().then(|| over.name("--site"));
    check_site_dir(&site_dir, site_flag, &cfg_path)?;
    let requested = over.style.or(file.style).unwrap_or_default();
    let mut site = siteconfig::load(&site_dir, requested, over.environment.as_deref(), readers)?;
    let style = match requested {
        Style::Auto => site.style,
        s => s,
    };

    let content_dir = over
        .content
        .clone()
        .or_else(|| from_file(&file.content_dir))
        .unwrap_or_else(|| {
            site_dir.join(site.content_dir.as_deref().unwrap_or(Path::new("content")))
        });
    let output_dir = over
        .output
        .clone()
        .or_else(|| from_file(&file.output_dir))
        .unwrap_or_else(|| {
            site_dir.join(site.publish_dir.as_deref().unwrap_or(Path::new("public")))
        });

    // Nothing here says "site": not a missing base_url, but the wrong folder.
    if config_file.is_none()
        && site.config_file.is_none()
        && over.content.is_none()
        && !content_dir.is_dir()
    {
        let dir = std::path::absolute(&site_dir).unwrap_or(site_dir);
        return Err(Error::NoSite { dir });
    }
    let output_flag = over.output.is_some().then(|| over.name("--output"));
    check_output_dir(&output_dir, output_flag, &file, &cfg_path, &site)?;
    let site_file = site.config_file.clone().unwrap_or_default();
    let site_base_key = if site.style == Style::Hugo {
        "baseURL"
    } else {
        "base_url"
    };
    let (base_src, base_key, raw_base) = match (&over.base_url, &file.base_url, &site.base_url) {
        (Some(b), _, _) => (PathBuf::from(over.name("--base-url")), "", b.clone()),
        (None, Some(b), _) => (cfg_path.clone(), "base_url", b.clone()),
        (None, None, Some(b)) => (site_file.clone(), site_base_key, b.clone()),
        // There, but not text (`base_url = 0`): say that, where it is.
        (None, None, None) if site.base_url_kind.is_some() => {
            let kind = site.base_url_kind.unwrap_or_default();
            return Err(site.error_at(
                &[site_base_key],
                format!(
                    "{site_base_key} is {kind}, not text: it is the site's public URL, like {site_base_key} = \"https://example.com/\""
                ),
            ));
        }
        (None, None, None) => {
            // Name the file that could say it; without one, the site's config or folder.
            let (at, fix) = match (&config_file, &site.config_file) {
                (Some(f), _) => (
                    f.clone(),
                    "set base_url = \"https://…/\" here, or pass --base-url URL",
                ),
                (None, Some(f)) => (
                    f.clone(),
                    "set it in this config, pass --base-url URL, or write a sitemap.toml with `sitemapgen init --base-url URL`",
                ),
                (None, None) => (
                    site_dir.clone(),
                    "pass --base-url URL, or write a sitemap.toml with `sitemapgen init --base-url URL`",
                ),
            };
            return Err(Error::config(
                at,
                None,
                format!("no base_url: the site's public URL is needed for every <loc>: {fix}"),
            ));
        }
    };
    let base_url = parse_base_url(&raw_base).map_err(|m| match base_src == site_file {
        true => site.error_at(&[base_key], m),
        false => error_at(&base_src, &[base_key], m),
    })?;
    if let Some(w) = base_url_differs(&file, &cfg_path, &site, site_base_key, over) {
        site.warnings.push(w);
    }

    // Each value is checked here, where the file (and line) it came from is known.
    let image_keys = image_keys(file.image_keys.as_deref().unwrap_or_default())
        .map_err(|m| error_at(&cfg_path, &["image_keys"], m))?;
    let timezone = match (&file.timezone, &site.timezone) {
        (Some(t), _) => t
            .parse()
            .map_err(|m: String| error_at(&cfg_path, &["timezone"], m))?,
        (None, Some(t)) => t
            .parse()
            .map_err(|m: String| site.error_at(&["timeZone"], m))?,
        (None, None) => SiteTz::Utc,
    };

    let max_urls_per_file = file.max_urls_per_file.unwrap_or(MAX_URLS);
    if max_urls_per_file == 0 || max_urls_per_file > MAX_URLS {
        return Err(error_at(
            &cfg_path,
            &["max_urls_per_file"],
            format!("max_urls_per_file must be from 1 to {MAX_URLS} (the protocol's limit)"),
        ));
    }
    let file_name = match (&file.file_name, &site.sitemap_filename) {
        (Some(f), _) => {
            check_file_name("file_name", f).map_err(|m| error_at(&cfg_path, &["file_name"], m))?;
            f.clone()
        }
        (None, Some(f)) => {
            check_file_name("[sitemap] filename", f)
                .map_err(|m| site.error_at(&["sitemap", "filename"], m))?;
            f.clone()
        }
        (None, None) => "sitemap.xml".to_string(),
    };
    if let Some(c) = file
        .stylesheet
        .as_deref()
        .and_then(|s| s.chars().find(|&c| !crate::vocab::protocol::is_xml_char(c)))
    {
        return Err(error_at(
            &cfg_path,
            &["stylesheet"],
            format!(
                "stylesheet holds U+{:04X}, a character XML cannot carry: the sitemap would not be well-formed",
                u32::from(c)
            ),
        ));
    }
    check_extra_lastmods(
        file.extra_urls.as_deref().unwrap_or_default(),
        &timezone,
        &cfg_path,
    )?;
    if let Some(xd) = &file.x_default {
        check_x_default(xd, &site).map_err(|m| error_at(&cfg_path, &["x_default"], m))?;
    }

    let (lastmod, git_date, lastmod_notes) = resolve_lastmod(&file, &site, style);
    let decisions = git_info_off(&file, &site, style, &site_dir)
        .into_iter()
        .collect();
    // The site's own order: front matter dates are read by its `[frontmatter]` keys.
    let hugo_lastmod = style == Style::Hugo && file.lastmod.is_none();
    let git_ignore_revs = match &file.git_ignore_revs {
        None => IgnoreRevs::RepoDefault,
        Some(p) if p.as_os_str().is_empty() => IgnoreRevs::Off,
        Some(p) => {
            let path = rel_base.join(p);
            if !path.is_file() {
                return Err(error_at(
                    &cfg_path,
                    &["git_ignore_revs"],
                    format!(
                        "git_ignore_revs: {} is not a file: name a file of commit names, one a line (like .git-blame-ignore-revs), or write \"\" for none",
                        path.display()
                    ),
                ));
            }
            IgnoreRevs::File(path)
        }
    };
    let (hugo, hugo_notes) = resolve_hugo_version(&file, over, style, &cfg_path)?;
    if style == Style::Hugo {
        crate::hugo::config::apply_rules(&mut site, &hugo)?;
        // A permalink token the site's Hugo does not know stops its build at the config.
        for (key, pattern) in site.all_permalinks() {
            if let Some(token) =
                crate::hugo::permalink_tokens::unknown_permalink_token(pattern, &hugo)
            {
                return Err(site.error_at(
                    &["permalinks", key],
                    format!("the permalink pattern '{pattern}' has the token :{token}, which Hugo {} does not know (it stops the build): see the tokens of your Hugo's release", hugo.version),
                ));
            }
        }
    }
    let indexnow = indexnow::IndexNowSettings::resolve(
        file.indexnow_key.clone(),
        std::env::var(indexnow::KEY_ENV).ok(),
        file.indexnow_key_location.clone(),
        file.indexnow_endpoint.clone(),
    )
    .map_err(|(key, m)| match key {
        indexnow::KEY_ENV => Error::config(key, None, m),
        key => error_at(&cfg_path, &[key], m),
    })?;
    if style == Style::Hugo {
        hugo_hreflangs(&mut site, hugo.hreflang);
        site.translation_keys_share_paths = hugo.translation_keys_share_paths;
    }

    Ok(Settings {
        config_file,
        site_dir,
        content_dir,
        output_dir,
        base_url,
        style,
        trailing_slash: file.trailing_slash,
        exclude: file.exclude.unwrap_or_default(),
        rules: file.rules.unwrap_or_default(),
        default_changefreq: file.default_changefreq.or(site.default_changefreq),
        default_priority: file.default_priority.or(site.default_priority),
        include_drafts: over.drafts || file.include_drafts.unwrap_or(site.build_drafts),
        include_future: over.future || file.include_future.unwrap_or(site.build_future),
        include_expired: over.expired || file.include_expired.unwrap_or(site.build_expired),
        gzip: over.gzip || file.gzip.unwrap_or(false),
        max_urls_per_file,
        robots_txt: file.robots_txt.unwrap_or(false),
        sitemap_txt: file.sitemap_txt.unwrap_or(false),
        stylesheet: file.stylesheet,
        images: file.images.unwrap_or(false),
        image_keys,
        timezone,
        lastmod,
        git_date,
        lastmod_notes,
        decisions,
        lastmod_significance: file.lastmod_significance.unwrap_or_default(),
        mass_edit: match file.mass_edit {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(MASS_EDIT),
        },
        git_ignore_revs,
        git_fetch: over
            .git_fetch
            .or(file.git_fetch)
            .unwrap_or_else(|| GitFetch::default_for(std::env::var("CI").ok().as_deref())),
        lastmod_precision: file.lastmod_precision.unwrap_or_default(),
        extra_urls: file.extra_urls.unwrap_or_default(),
        file_name,
        layout: file.layout.unwrap_or_default(),
        x_default: file.x_default,
        audit: if over.no_audit {
            AuditMode::Off
        } else {
            file.audit.unwrap_or_default()
        },
        include_unsourced: file.include_unsourced.unwrap_or(false),
        indexnow,
        host: over.host.or(file.host).unwrap_or_default(),
        site,
        hugo,
        hugo_lastmod,
        hugo_notes,
    })
}

/// Each language's `hreflang` as the reading Hugo's sitemap template writes it: the key
/// before 0.112.6, `languageCode` until 0.158, then `locale` (`None` writes the key).
fn hugo_hreflangs(site: &mut SiteConfig, from: HreflangFrom) {
    for l in &mut site.languages {
        let locale = l.locale.take();
        l.hreflang = match from {
            HreflangFrom::Key => None,
            HreflangFrom::LanguageCode => l.hreflang.take(),
            HreflangFrom::Locale => locale.or(l.hreflang.take()),
        };
    }
}

/// The Hugo version's rules: `--hugo-version`, then sitemap.toml, then `HUGO_VERSION`, then
/// `hugo version` (asked only for a Hugo site), else the current Hugo.
fn resolve_hugo_version(
    file: &FileConfig,
    over: &Overrides,
    style: Style,
    cfg_path: &Path,
) -> Result<(HugoRules, Vec<String>)> {
    let env = std::env::var("HUGO_VERSION").ok();
    let ask = || {
        (style == Style::Hugo)
            .then(hugo_version::ask_hugo_on_path)
            .flatten()
    };
    let (version, source, mut notes) = hugo_version::choose(
        over.hugo_version.as_deref(),
        file.hugo_version.as_deref(),
        env.as_deref(),
        ask,
    )
    .map_err(|m| match over.hugo_version {
        Some(_) => Error::config(over.name("--hugo-version"), None, m),
        None => error_at(cfg_path, &["hugo_version"], m),
    })?;
    if style != Style::Hugo {
        return Ok((HugoRules::default(), Vec::new()));
    }
    notes.insert(0, hugo_version::note(version, &source));
    Ok((HugoRules::of(version), notes))
}

/// A sitemap file name: a plain name ending in `.xml`, of the characters a URL carries
/// unescaped (it is written into index `<loc>`s and robots.txt as it is).
fn check_file_name(key: &str, name: &str) -> Result<(), String> {
    let usable = name.len() > ".xml".len()
        && name.ends_with(".xml")
        && name.bytes().all(crate::vocab::protocol::is_file_name_byte);
    if usable {
        Ok(())
    } else {
        Err(format!(
            "{key} '{name}' must be a plain file name ending in .xml, of letters, digits, '-', '.', '_' and '~' only"
        ))
    }
}

/// Every `extra_urls` lastmod must be a date a sitemap can carry; the error names its line.
/// `x_default` must name one of the site's languages as the site writes it: otherwise no
/// `x-default` link would be written, and nothing would say why.
fn check_x_default(xd: &str, site: &SiteConfig) -> std::result::Result<(), String> {
    let mut codes: Vec<&str> = site.languages.iter().map(|l| l.code.as_str()).collect();
    if !codes.contains(&site.default_language.as_str()) {
        codes.insert(0, &site.default_language);
    }
    if codes.contains(&xd) {
        return Ok(());
    }
    let hint = match codes.iter().find(|c| c.eq_ignore_ascii_case(xd)) {
        Some(c) => format!(": the site writes it \"{c}\""),
        None => format!(
            ": the site's languages are {}",
            codes
                .iter()
                .map(|c| format!("\"{c}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Err(format!(
        "x_default = \"{xd}\" names no language of the site{hint}; x_default names the version of each page shown to other languages"
    ))
}

fn check_extra_lastmods(extra: &[ExtraUrl], tz: &SiteTz, cfg_path: &Path) -> Result<()> {
    for (i, item) in extra.iter().enumerate() {
        if let ExtraUrl::Full {
            lastmod: Some(s), ..
        } = item
            && W3cDate::parse(s, tz).is_none()
        {
            return Err(error_at(
                cfg_path,
                &["extra_urls", &i.to_string(), "lastmod"],
                format!(
                    "extra_urls: lastmod '{s}' is not a date a sitemap can carry: write YYYY-MM-DD \
                         (years 0001 to 9999) or a date-time like 2024-01-31T12:00:00+01:00 (offsets up to ±14:00)"
                ),
            ));
        }
    }
    Ok(())
}

/// The lastmod order and git date: sitemap.toml's, else a Hugo site's own, else the default.
/// A Hugo site whose lastmod order has `:git` while `enableGitInfo` is off (as by default):
/// Hugo dates no page by git, so neither does sitemapgen. One line to say so, as a README
/// promising git dates would lead its reader to expect them.
fn git_info_off(
    file: &FileConfig,
    site: &SiteConfig,
    style: Style,
    site_dir: &Path,
) -> Option<String> {
    let wants_git = site
        .hugo_dates
        .lastmod
        .iter()
        .any(|s| matches!(s, crate::hugo::dates::DateSource::Git));
    if style != Style::Hugo || file.lastmod.is_some() || !wants_git || hugo_git_info(site) {
        return None;
    }
    // Outside a git checkout there were no git dates to turn off.
    let site_dir = std::path::absolute(site_dir).unwrap_or_else(|_| site_dir.to_path_buf());
    if !site_dir.ancestors().any(|d| d.join(".git").exists()) {
        return None;
    }
    let config = site
        .config_file
        .as_deref()
        .map_or("the site's config".to_string(), |f| f.display().to_string());
    Some(format!(
        "lastmod: no git dates, as enableGitInfo is off in {config} (Hugo's rule); set it to true, or lastmod in sitemap.toml, to date pages by their commits"
    ))
}

fn resolve_lastmod(
    file: &FileConfig,
    site: &SiteConfig,
    style: Style,
) -> (Vec<LastmodSource>, GitDateKind, Vec<String>) {
    if let Some(order) = &file.lastmod {
        return (order.clone(), file.git_date.unwrap_or_default(), Vec::new());
    }
    if style != Style::Hugo {
        return (
            DEFAULT_LASTMOD.to_vec(),
            file.git_date.unwrap_or_default(),
            Vec::new(),
        );
    }
    let git_info = hugo_git_info(site);
    let hugo = hugo_lastmod(&site.hugo_dates, git_info);
    let d = &site.hugo_dates;
    let order: Vec<&str> = d
        .lastmod
        .iter()
        .filter_map(|s| match s {
            crate::hugo::dates::DateSource::Key(k) => d.keys.get(*k as usize).map(String::as_str),
            crate::hugo::dates::DateSource::Git => git_info.then_some(":git"),
            crate::hugo::dates::DateSource::ModTime => Some(":fileModTime"),
            crate::hugo::dates::DateSource::FileName => Some(":filename"),
        })
        .collect();
    let notes = vec![format!(
        "lastmod order from the Hugo config{}: {}{}",
        if site.frontmatter_lastmod.is_some() {
            "'s [frontmatter] lastmod"
        } else {
            " (Hugo's default)"
        },
        order.join(", "),
        if git_info {
            ""
        } else {
            "; no git dates, as enableGitInfo is off (set lastmod in sitemap.toml to use them anyway)"
        }
    )];
    // Hugo's `:git` is the author date; sitemap.toml can still ask for the committer's.
    let git_date = file.git_date.unwrap_or_default();
    (hugo.sources, git_date, notes)
}

/// sitemap.toml's `base_url` where the site's config says another: the sitemap would keep a
/// domain the site has left (or not yet moved to), so both are named. `--base-url` (a deploy
/// preview) and a site base URL sitemapgen cannot use (Hugo's `baseURL = "/"`) say nothing.
fn base_url_differs(
    file: &FileConfig,
    cfg_path: &Path,
    site: &SiteConfig,
    site_key: &str,
    over: &Overrides,
) -> Option<String> {
    if over.base_url.is_some() {
        return None;
    }
    let ours = parse_base_url(file.base_url.as_deref()?).ok()?;
    let theirs = parse_base_url(site.base_url.as_deref()?).ok()?;
    if ours == theirs {
        return None;
    }
    let (site_file, site_line) = site.locate(&[site_key]);
    let at = |path: &Path, line: Option<usize>| match line {
        Some(l) => format!("{}:{l}", path.display()),
        None => path.display().to_string(),
    };
    Some(format!(
        "{}: base_url = \"{ours}\" differs from {site_key} = \"{theirs}\" in {}; the sitemap uses \"{ours}\": remove base_url from {} to follow the site's config (or pass --base-url for a one-off)",
        at(cfg_path, value_line(cfg_path, &["base_url"])),
        at(&site_file, site_line),
        cfg_path.display()
    ))
}

/// Checks a base URL: absolute http(s) with a host; the path always ends in `/`.
///
/// Every `<loc>` starts with it, so it is held to what a `<loc>` must be: RFC 3986 text
/// that every reader splits the same way (no backslash, no empty authority, no user
/// credentials, a host of DNS characters), valid percent-escapes, and at least
/// 12 characters (`sitemap::loc::MIN_LOC_LEN`). Path characters a URL cannot hold are
/// percent-encoded.
pub fn parse_base_url(raw: &str) -> Result<Url, String> {
    let text = raw.trim();
    // WHATWG reads `\` as `/` where RFC 3986 readers keep it: `https://evil.com\@good.com/`
    // has a different host for each.
    if text.contains('\\') {
        return Err(format!(
            "base_url '{raw}' holds a backslash, which URL readers split differently: write '/'"
        ));
    }
    let mut url = Url::parse(text).map_err(|e| {
        format!("base_url '{raw}' is not an absolute URL ({e}); write it like https://example.com/")
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(format!(
            "base_url '{raw}' must be an http:// or https:// URL with a host"
        ));
    }
    // `https:///x` and `https:x` gain the host `x` in WHATWG readers and have none in RFC 3986.
    let after_scheme = text.split_once(':').map_or("", |(_, rest)| rest);
    if !after_scheme.starts_with("//") || after_scheme[2..].starts_with('/') {
        return Err(format!(
            "base_url '{raw}' has no host after '//': write it like https://example.com/"
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "base_url '{raw}' carries user credentials: they would be published in every URL"
        ));
    }
    if let Some(url::Host::Domain(host)) = url.host()
        && let Some(c) = host
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')))
    {
        return Err(format!(
            "base_url '{raw}' has '{c}' in its host name: use letters, digits, '-' and '.'"
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "base_url '{raw}' must not have a query or fragment"
        ));
    }
    let path = encode_base_path(url.path()).map_err(|bad| {
        format!(
            "base_url '{raw}' has an invalid percent-escape \"{bad}\": a '%' must start %XX (write a literal '%' as %25)"
        )
    })?;
    let path = if path.ends_with('/') {
        path
    } else {
        format!("{path}/")
    };
    if path != url.path() {
        url.set_path(&path);
    }
    let len = url.as_str().chars().count();
    if len < crate::vocab::loc::MIN_LOC_LEN {
        return Err(format!(
            "base_url '{raw}' makes URLs of {len} characters; the sitemap schema wants at least {}",
            crate::vocab::loc::MIN_LOC_LEN
        ));
    }
    Ok(url)
}

/// A parsed URL path with the characters the url crate leaves alone but RFC 3986 forbids
/// (`[ ] | ^`) percent-encoded; `Err` holds a `%` that does not start an escape.
fn encode_base_path(path: &str) -> Result<String, String> {
    let b = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    for (i, &c) in b.iter().enumerate() {
        if c == b'%' {
            let hex = |k: usize| b.get(k).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return Err(path[i..].chars().take(3).collect());
            }
            out.push('%');
        } else if crate::vocab::loc::is_path_safe(c) {
            out.push(c as char);
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    Ok(out)
}

/// sitemap.toml's `image_keys`, lower-cased (front matter keys match in any case); `Err`
/// names a key with an empty part.
fn image_keys(keys: &[String]) -> Result<Vec<String>, String> {
    keys.iter()
        .map(|k| {
            if k.split('.').any(|part| part.trim().is_empty()) {
                return Err(format!(
                    "image key `{k}` has an empty part: write a front matter key, or a dotted path of keys (`cover.image`)"
                ));
            }
            Ok(k.to_lowercase())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_gains_a_trailing_slash_and_rejects_others() {
        assert_eq!(
            parse_base_url("https://example.com").unwrap().as_str(),
            "https://example.com/"
        );
        assert_eq!(
            parse_base_url("https://example.org/my/site")
                .unwrap()
                .as_str(),
            "https://example.org/my/site/"
        );
        assert!(parse_base_url("example.com").is_err());
        assert!(parse_base_url("ftp://example.com/").is_err());
        assert!(parse_base_url("https://example.com/?q=1").is_err());
    }

    #[test]
    fn base_urls_that_cannot_start_a_valid_loc_are_refused() {
        for (bad, why) in [
            ("https://example.com/%/", "percent-escape"),
            ("https://example.com/a%2/", "percent-escape"),
            ("https://example.com}/root/", "'}'"),
            ("http://a.b/", "at least 12"),
            ("https:///x", "no host"),
            ("https:example.com/", "no host"),
            ("https://user:secret@example.com/", "credentials"),
            ("https://user@example.com/", "credentials"),
            ("https://evil.com\\@example.com/", "backslash"),
        ] {
            let err = parse_base_url(bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn base_urls_that_work_keep_working() {
        for (raw, want) in [
            ("https://example.com", "https://example.com/"),
            ("HTTPS://Example.COM/Docs", "https://example.com/Docs/"),
            ("https://bücher.de/", "https://xn--bcher-kva.de/"),
            ("http://[::1]:8080/x/", "http://[::1]:8080/x/"),
            ("http://127.0.0.1:1313/", "http://127.0.0.1:1313/"),
            ("https://my_host.example/", "https://my_host.example/"),
            (
                "https://example.com/a b/%C3%BC/",
                "https://example.com/a%20b/%C3%BC/",
            ),
            ("https://example.com/x/../y/", "https://example.com/y/"),
            (
                "https://example.com/a[1]|^/",
                "https://example.com/a%5B1%5D%7C%5E/",
            ),
            ("http://ab.c/", "http://ab.c/"),
        ] {
            assert_eq!(
                parse_base_url(raw).map(String::from).as_deref(),
                Ok(want),
                "{raw}"
            );
        }
    }

    /// `resolve` on a temporary site whose files are `files`, with sitemap.toml when given.
    fn resolve_site(files: &[(&str, &str)], over: Overrides) -> Result<Settings> {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let over = Overrides {
            site: Some(dir.path().to_path_buf()),
            ..over
        };
        load(&over, &crate::pipeline::READERS)
    }

    #[test]
    fn values_that_cannot_be_written_name_their_file_and_line() {
        let site = "baseURL = \"https://h.org/\"\n";
        let cases: [(&[(&str, &str)], &str); 9] = [
            (
                &[(
                    "sitemap.toml",
                    "\nstylesheet = \"a\\u001bb\"\nbase_url = \"https://x.org/\"\n",
                )],
                "sitemap.toml:2: stylesheet holds U+001B",
            ),
            (
                &[("sitemap.toml", "\n\nbase_url = \"https://x.org/%zz/\"\n")],
                "sitemap.toml:3: base_url",
            ),
            (
                &[(
                    "sitemap.toml",
                    "base_url = \"https://x.org/\"\ntimezone = \"Mars/Olympus\"\n",
                )],
                "sitemap.toml:2: unknown time zone",
            ),
            (
                &[(
                    "sitemap.toml",
                    "base_url = \"https://x.org/\"\n\nmax_urls_per_file = 0\n",
                )],
                "sitemap.toml:3: max_urls_per_file",
            ),
            (
                &[(
                    "sitemap.toml",
                    "base_url = \"https://x.org/\"\nextra_urls = [\n  \"/a/\",\n  { loc = \"/b/\", lastmod = \"2024-01-01T10:00:00-23:59\" },\n]\n",
                )],
                "sitemap.toml:4: extra_urls: lastmod",
            ),
            (
                &[(
                    "sitemap.toml",
                    "base_url = \"https://x.org/\"\nextra_urls = [{ loc = \"/b/\", lastmod = \"0000-01-01\" }]\n",
                )],
                "sitemap.toml:2: extra_urls: lastmod",
            ),
            (
                &[("hugo.toml", "title = \"t\"\nbaseURL = \"https:///x\"\n")],
                "hugo.toml:2: base_url",
            ),
            (
                &[(
                    "hugo.toml",
                    "baseURL = \"https://h.org/\"\ntimeZone = \"Mars/Olympus\"\n",
                )],
                "hugo.toml:2: unknown time zone",
            ),
            (
                &[(
                    "hugo.toml",
                    &format!("{site}[sitemap]\nfilename = \"x y.xml\"\n"),
                )],
                "hugo.toml:3: [sitemap] filename 'x y.xml'",
            ),
        ];
        for (files, want) in cases {
            let err = resolve_site(files, Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "want {want:?} in {err}");
        }
        let err = resolve_site(
            &[("hugo.toml", site)],
            Overrides {
                base_url: Some("https://u:p@h.org/".into()),
                ..Default::default()
            },
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("Overrides::base_url: "), "{err}");
        // The same values, well formed, pass.
        let ok = resolve_site(
            &[(
                "sitemap.toml",
                "base_url = \"https://x.org/\"\nstylesheet = \"/s.xsl?a&b\"\ntimezone = \"+14:00\"\nextra_urls = [{ loc = \"/b/\", lastmod = \"0001-01-01\" }]\n",
            )],
            Overrides::default(),
        );
        assert!(ok.is_ok(), "{ok:?}");
    }

    #[test]
    fn config_errors_name_the_line() {
        let text = "base_url = \"https://x.org\"\ndefault_changefreq = \"fortnightly\"\n";
        let err = parse_file_config(text, Path::new("sitemap.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("sitemap.toml:2:"), "{err}");
        assert!(err.contains("fortnightly"), "{err}");
        let err = parse_file_config("bse_url = 1\n", Path::new("s.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("s.toml:1:") && err.contains("bse_url"),
            "{err}"
        );
    }

    #[test]
    fn reads_every_key() {
        let text = r#"
            base_url = "https://example.com"
            site_dir = "site"
            style = "zola"
            trailing_slash = false
            exclude = ["drafts/**"]
            default_changefreq = "weekly"
            default_priority = 0.5
            include_drafts = true
            gzip = true
            max_urls_per_file = 1000
            robots_txt = true
            timezone = "Europe/Paris"
            lastmod = ["git", "mtime"]
            git_date = "author"
            extra_urls = ["/search/", { loc = "/app/", lastmod = "2024-01-01", priority = 0.3 }]
            [[rules]]
            pattern = "blog/**"
            priority = "0.8"
            changefreq = "daily"
        "#;
        let c = parse_file_config(text, Path::new("s.toml")).unwrap();
        assert_eq!(c.default_priority.unwrap().to_string(), "0.5");
        assert_eq!(
            c.rules.as_ref().unwrap()[0].priority.unwrap().to_string(),
            "0.8"
        );
        assert_eq!(
            c.lastmod.unwrap(),
            vec![LastmodSource::Git, LastmodSource::Mtime]
        );
        assert_eq!(c.git_date, Some(GitDateKind::Author));
        assert_eq!(c.extra_urls.unwrap().len(), 2);
        assert_eq!(c.style, Some(Style::Zola));
    }

    #[test]
    fn git_fetch_is_auto_in_ci_and_never_elsewhere_unless_set() {
        for (ci, want) in [
            (Some("true"), GitFetch::Auto),
            (Some("1"), GitFetch::Auto),
            (Some("woodpecker"), GitFetch::Auto),
            (Some(""), GitFetch::Never),
            (Some("0"), GitFetch::Never),
            (Some("False"), GitFetch::Never),
            (None, GitFetch::Never),
        ] {
            assert_eq!(GitFetch::default_for(ci), want, "CI={ci:?}");
        }
        let c: FileConfig = toml::from_str("git_fetch = \"auto\"").unwrap();
        assert_eq!(c.git_fetch, Some(GitFetch::Auto));
        assert!(toml::from_str::<FileConfig>("git_fetch = \"always\"").is_err());
    }

    #[test]
    fn hugo_lastmod_maps_hugos_order_and_honours_enable_git_info() {
        use crate::hugo::dates::HugoDates;
        use LastmodSource::*;
        let default = HugoDates::default();
        // Hugo's lastmod, modified, date, publishDate, pubdate, published: one run of keys.
        assert_eq!(hugo_lastmod(&default, true).sources, vec![Git, FrontMatter]);
        assert_eq!(hugo_lastmod(&default, false).sources, vec![FrontMatter]);
        let list: Vec<String> = ["lastmod", ":filemodtime", ":default", "expirydate"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let d = HugoDates::new(None, Some(list), None, None);
        // :default expands in place; repeats keep their first position; the keys after the
        // handlers are a second run.
        assert_eq!(
            hugo_lastmod(&d, true).sources,
            vec![FrontMatter, Mtime, Git, HugoKeys(1)]
        );
        let by_name = HugoDates::new(
            None,
            Some(vec![":filename".into(), ":git".into()]),
            None,
            None,
        );
        assert_eq!(hugo_lastmod(&by_name, false).sources, vec![FileName]);
    }

    #[test]
    fn a_hugo_site_takes_its_own_order_unless_sitemap_toml_sets_one() {
        let mut site = SiteConfig {
            style: Style::Hugo,
            enable_git_info: true,
            ..Default::default()
        };
        let (order, git_date, notes) = resolve_lastmod(&FileConfig::default(), &site, Style::Hugo);
        assert_eq!(order[0], LastmodSource::Git);
        assert_eq!(
            git_date,
            GitDateKind::Author,
            "Hugo's :git is the author date"
        );
        assert!(notes[0].contains("Hugo's default"), "{notes:?}");
        site.frontmatter_lastmod = Some(vec!["date".into(), ":git".into()]);
        site.hugo_dates = std::sync::Arc::new(crate::hugo::dates::HugoDates::new(
            None,
            site.frontmatter_lastmod.clone(),
            None,
            None,
        ));
        let (order, _, _) = resolve_lastmod(&FileConfig::default(), &site, Style::Hugo);
        assert_eq!(order, vec![LastmodSource::FrontMatter, LastmodSource::Git]);
        let file = FileConfig {
            lastmod: Some(vec![LastmodSource::Mtime]),
            ..Default::default()
        };
        let (order, git_date, notes) = resolve_lastmod(&file, &site, Style::Hugo);
        assert_eq!(
            (order, git_date, notes.len()),
            (vec![LastmodSource::Mtime], GitDateKind::Author, 0)
        );
        let (order, _, _) = resolve_lastmod(&FileConfig::default(), &site, Style::Zola);
        assert_eq!(order, DEFAULT_LASTMOD.to_vec());
    }

    #[test]
    fn every_source_reads_back_under_its_own_name() {
        use LastmodSource::*;
        for s in [
            FrontMatter,
            Git,
            Published,
            Mtime,
            Date,
            PublishDate,
            FileName,
        ] {
            let text = format!("lastmod = [\"{}\"]\n", s.as_str());
            let c = parse_file_config(&text, Path::new("s.toml")).unwrap();
            assert_eq!(c.lastmod.unwrap(), vec![s]);
        }
    }
}
