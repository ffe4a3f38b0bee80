//! Which Hugo a site is built with, and the rules that changed between Hugo releases.
//!
//! The version is chosen once (`--hugo-version`, `hugo_version` in sitemap.toml, the
//! `HUGO_VERSION` variable, `hugo version` on PATH, else [`HugoVersion::CURRENT`]) and turned
//! into [`HugoRules`]: named booleans the stages read, each switched at the release that
//! changed it (see the table in docs/hugo.md).

use std::fmt;
use std::process::{Command, Stdio};

/// A Hugo release number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HugoVersion {
    /// Major number (0 so far).
    pub major: u32,
    /// Minor number.
    pub minor: u32,
    /// Patch number.
    pub patch: u32,
}

/// Shorthand for a version in the rule table.
const fn v(major: u32, minor: u32, patch: u32) -> HugoVersion {
    HugoVersion {
        major,
        minor,
        patch,
    }
}

impl HugoVersion {
    /// The current Hugo, whose rules apply when nothing says which Hugo builds the site.
    pub const CURRENT: HugoVersion = v(0, 168, 0);

    /// Reads `0.168.0`, `v0.111.3`, `0.145` or `0.168.0+extended` (what `HUGO_VERSION`
    /// holds on Netlify, Cloudflare Pages and Vercel); `None` for anything else.
    pub fn parse(s: &str) -> Option<HugoVersion> {
        let s = s.trim();
        let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
        // Build metadata and pre-release tags (`+extended`, `-DEV`) do not change the rules.
        let core = s.split(['+', '-']).next()?;
        let mut parts = core.split('.');
        let mut num = |required: bool| -> Option<u32> {
            match parts.next() {
                Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().ok(),
                None if !required => Some(0),
                _ => None,
            }
        };
        let (major, minor, patch) = (num(true)?, num(true)?, num(false)?);
        parts.next().is_none().then_some(v(major, minor, patch))
    }

    /// The version in `hugo version`'s output: `hugo v0.168.0-… linux/amd64 …`.
    pub fn from_hugo_output(out: &str) -> Option<HugoVersion> {
        out.split_whitespace()
            .filter(|w| w.starts_with('v'))
            .find_map(HugoVersion::parse)
    }
}

impl fmt::Display for HugoVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Where the version came from, for `--verbose`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionSource {
    /// `--hugo-version`.
    Flag,
    /// `hugo_version` in sitemap.toml.
    SitemapToml,
    /// The `HUGO_VERSION` environment variable.
    Env,
    /// `hugo version` of the `hugo` on PATH.
    HugoOnPath,
    /// Nothing said: the current Hugo.
    Default,
}

/// How Hugo treats the `_build` front matter key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnderscoreBuild {
    /// Read (the only build key before 0.123).
    Read,
    /// Read, with a deprecation warning (0.145 to 0.159).
    Deprecated,
    /// A build error naming the file (0.160 on: deprecated in 0.145 "and subsequently
    /// removed").
    Refused,
}

/// Which language value Hugo's sitemap template writes as `hreflang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HreflangFrom {
    /// The language key (`cs`): `.Language.Lang`, before 0.112.6.
    Key,
    /// `languageCode`, else the key: `.Language.LanguageCode`, 0.112.6 to 0.157.
    LanguageCode,
    /// `locale`, else `languageCode`, else the key: `.Language.Locale`, 0.158 on.
    Locale,
}

/// How Hugo treats a front matter date it cannot parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadDate {
    /// Dropped silently (before 0.135): we warn, naming file and line, and list the page.
    Ignored,
    /// A build error (0.135 on).
    Refused,
}

/// The rules of one Hugo version, as named switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HugoRules {
    /// The version they are the rules of.
    pub version: HugoVersion,
    /// 0.115.2: with `defaultContentLanguageInSubdir`, a site of one language publishes
    /// below `/<lang>/` too (before, only a multilingual site did).
    pub subdir_without_languages: bool,
    /// 0.123.0: with `defaultContentLanguageInSubdir`, a site of one language writes the
    /// sitemap index `sitemap.xml` over `<lang>/sitemap.xml` (before, only a multilingual
    /// site had an index).
    pub sitemap_index_in_subdir: bool,
    /// Before 0.112.0 a language's `[languages.X.sitemap]` table replaces the site's
    /// `[sitemap]` whole: its sitemap is named by that table's `filename`, else
    /// `sitemap.xml` (0.112 merges them key by key).
    pub language_sitemap_replaces_site: bool,
    /// 0.123.0: a path turns each space into `-` before sanitizing, so runs of spaces (and
    /// characters dropped between spaces) leave runs of hyphens (`two  spaces` ->
    /// `two--spaces`); with `disablePathToLower` the original name is sanitized as before.
    pub keep_hyphen_runs: bool,
    /// Before 0.123.0 a draft, future or expired section hides every page below it; from
    /// 0.123.0 only the section page itself is left out.
    pub section_hides_children: bool,
    /// 0.123.0: a top-level folder whose pages are all drafts (or future or expired) is still
    /// a section, listed (before, only built pages made one).
    pub sections_from_withheld_pages: bool,
    /// 0.123.0: a page `sec.md` and the section `sec/` (or the bundle `sec/index.md`) are one
    /// node of the content tree: a draft, future or expired `sec.md` takes the section's (or
    /// bundle's) page with it, a built one beside `sec/_index.md` is no page (the section
    /// is), and a `sec.md` in any language leaves no section for Hugo to make where `sec/`
    /// has no `_index` (the pages in it stay; seen in 0.168.0, not in 0.111.3).
    pub page_takes_section_node: bool,
    /// Before 0.123.0 the terms of a page Hugo does not render (`build.render: never`, a
    /// headless bundle) make term pages; later they do not (seen in 0.166 and 0.168; 0.123
    /// rebuilt the content tree, and no release between 0.111.3 and 0.166.0 could be run).
    pub unrendered_terms_count: bool,
    /// Before 0.123.0 a `translationKey` lives in the space of paths (`page/<key>` against
    /// `page/<folder>/<name>`), so a key can link a page by its path
    /// (`SiteConfig::translation_keys_share_paths`).
    pub translation_keys_share_paths: bool,
    /// 0.123.0: with `disablePathToLower`, a section without `_index.md` keeps its folder's
    /// case (before, it was lower-cased).
    pub implicit_section_keeps_case: bool,
    /// 0.123.0: `build` is read as the build options (before, only `_build`).
    pub build_key: bool,
    /// `_build`: read, deprecated (0.145.0) or refused (0.160.0).
    pub underscore_build: UnderscoreBuild,
    /// 0.125.0: `sitemap.disable` leaves a page out (before, Hugo warned and listed it).
    pub sitemap_disable: bool,
    /// 0.135.0: a date Hugo cannot parse fails the build (before, it was dropped).
    pub bad_date: BadDate,
    /// 0.135.x only: an empty or null date fails the build too (0.136.0 reads it as none).
    pub blank_date_refused: bool,
    /// 0.136.1: a section's front matter `url` keeps its case (before, it was sanitized and
    /// lower-cased like a folder name).
    pub section_url_keeps_case: bool,
    /// 0.148.0: with `uglyURLs`, home, section and taxonomy pages are `dir/index.html`
    /// (before, `dir.html`, and the home `/`).
    pub ugly_lists_as_index: bool,
    /// What `hreflang` holds (0.112.6 and 0.158.0 changed it).
    pub hreflang: HreflangFrom,
    /// 0.123.0: a page date taken from the file name (`[frontmatter] date = [":filename",
    /// …]`) also stands in for `date` where the lastmod and publishDate orders read it, so a
    /// future name date withholds the page (before, it set the page date alone).
    pub filename_date_feeds_dates: bool,
    /// 0.167.0: a section's `slug` names its folder in its URL and in those below it
    /// (before, a section's `slug` was ignored).
    pub section_slug_renames_path: bool,
    /// 0.148.0: a file name may start with a date-time, `2023-02-14-10-30-00-post.md`.
    pub filename_datetime: bool,
    /// Before 0.152.0 YAML front matter is read by gopkg.in/yaml.v2, for which `yes`, `on`,
    /// `y` (and `no`, `off`, `n`) are booleans; go-yaml reads them as text.
    pub yaml_v2: bool,
    /// 0.112.0 (spf13/cast 1.5.1): any number is a boolean (not zero is true) where Hugo
    /// wants one, `draft: 1` in TOML and JSON too; before, only a YAML integer was.
    pub cast_bool_numbers: bool,
    /// 0.124.0: `headless` turns any page into one that is neither rendered nor listed
    /// (before, only a leaf bundle's `index.md`).
    pub headless_any_page: bool,
    /// 0.123.0: the home's lastmod is the newest of every page's (before, of its sections'
    /// and taxonomy lists' only: a page at the top level, a top-level bundle, did not
    /// count; from 0.123 a taxonomy list counts by its own file's date alone, not by its
    /// terms', which before counted even with term pages off, by their own files; seen in
    /// 0.111.3 and 0.168.0).
    pub home_rolls_up_pages: bool,
    /// 0.123.0: every section's dates roll up into its parent section. Before, a section
    /// whose folder's parent is no section (`a/b/c/_index.md` under `a/_index.md`, `b`
    /// without one) was passed over: neither its own date nor its pages' reached `a`, and
    /// it took no date from its pages (seen in 0.111.3; Hugo 0.122's section walk).
    pub deep_sections_roll_up: bool,
    /// 0.123.0: a date order reads a key the page leaves out from the dates set before it
    /// (`date` in the publishDate order is the page's `.Date`, which may come from
    /// `lastmod`), so `lastmod: 2099-01-01` alone makes a future page.
    pub date_reentry: bool,
    /// 0.112.0: a `cascade` that is neither a table nor a list of tables stops the build
    /// (before, it cascaded nothing), and a cascade given as one table follows its
    /// `_target` (before, only the tables of a list did: one table applied to every page
    /// below, the section itself too).
    pub cascade_strict: bool,
    /// Before 0.123.0 an HTML content file without front matter that opens with markup is
    /// copied as it is, like a static file: no page, no bundle.
    pub raw_html_is_static: bool,
    /// Before 0.123.0 a folder with both `_index` and `index` is a branch bundle: `index` is
    /// a page at the folder's URL (Hugo lists it twice) and owns nothing; from 0.123.0 the
    /// leaf bundle wins and the `_index` is not read.
    pub branch_beside_leaf_wins: bool,
    /// 0.153.0: a mount's `sites.matrix` (the languages it is read for) and `files` filters
    /// are read; before, Hugo knew neither key (a mount for several languages was read once).
    pub mount_sites: bool,
    /// 0.168.0: a mount's `lang` (deprecated in 0.153.0 for `sites.matrix`) stops the build:
    /// Hugo fails a deprecated key fifteen minor releases after its deprecation.
    pub mount_lang_refused: bool,
    /// 0.144.0: the permalink tokens `:contentbasename` and `:slugorcontentbasename`
    /// (before, unknown tokens: Hugo refuses the pattern).
    pub permalink_contentbasename: bool,
    /// 0.149.0: the permalink tokens `:sectionslug` and `:sectionslugs`.
    pub permalink_sectionslug: bool,
    /// 0.112.0 (Hugo's new config handling): config values are decoded, not cast: `"yes"`
    /// for a boolean is refused where it was false, `1` is true where it was false (TOML),
    /// kind names match in any case, and the old `taxonomy` ambiguity error is gone.
    pub config_decoded_strictly: bool,
    /// 0.153.0: an expanded permalink is cleaned (`path.Clean`) after it is unescaped and
    /// before its final `/` is put back, so a final `+` (a space once unescaped) is dropped:
    /// title `C++` is `/c/` (before, `/c-/`; seen in 0.111.3 and 0.168.0, the change found
    /// in Hugo's source, commit 264022a75).
    pub permalink_clean_first: bool,
    /// Before 0.137.0 a permalink pattern with an empty segment before its last ("x/:slug",
    /// "/a//b/") or an empty one stops the build: "permalink ill-formed". Hugo checks every
    /// pattern when it reads its config up to 0.131, and a pattern when a page uses it from
    /// 0.132; we check every pattern for all of them.
    pub permalink_segments_checked: bool,
    /// 0.162.0: `security.allowContent` names the content media types Hugo builds, by
    /// default all but `text/html`: an HTML content file stops the build.
    pub content_policy: bool,
    /// 0.123.0: of several files that are one bundle's page (`index.md` and `index.html`),
    /// the last in name order is the page and the only one read (seen in 0.168.0); before,
    /// each is read and the first is the page (seen in 0.111.3). Of a regular page's files
    /// (`a.md` and `a.html`) both read only the last.
    pub last_file_wins: bool,
    /// 0.123.0: a page beside a leaf bundle of its name (`post.md` beside `post/index.md`)
    /// is read, so a front matter Hugo refuses stops the build, though the bundle is the
    /// page (seen in 0.168.0); 0.111.3 never reads it.
    pub shadowed_page_read: bool,
    /// 0.123.0 (assumed: the content map's rewrite; 0.111.3 and 0.166.0 seen): of a mount
    /// whose target holds another mount's (`content` and `docs` into `content/docs`), the
    /// folders below that inner target are read; 0.111.3 lays the inner mount over them and
    /// skips them (`File "docs/v1" not found, skipping`), keeping the files directly in it.
    pub nested_mount_folders_read: bool,
    /// 0.123.0 (assumed: the content map's rewrite; 0.111.3 and 0.168.0 seen): a leaf
    /// bundle owns its folder in every language's content folder, so `fr/r-d/index.md`
    /// makes `en/r-d/sub/index.md` a resource and `en/q/_index.md` below a French leaf `q`
    /// no section; 0.111.3 keeps each language's folders apart there.
    pub leaf_owns_every_language: bool,
    /// 0.123.0 (assumed: the content map's rewrite; 0.111.3 and 0.168.0 seen): a content
    /// file inside a leaf bundle (`r-d/c.md` beside `r-d/index.md`), a resource and no
    /// page, still makes the term pages of its taxonomies (undated, holding no page).
    pub resource_terms_made: bool,
    /// 0.123.0 (assumed: front matter and params merged; 0.111.3 and 0.168.0 seen): a
    /// cascade's `params.sitemap` (`disable`, `priority`, `changefreq`) applies as its
    /// `sitemap` does; a page's own `params.sitemap` never does.
    pub cascade_params_sitemap: bool,
    /// 0.126.0: content adapters, `_content.gotmpl` templates in the content folder that
    /// make pages no content file holds.
    pub content_adapters: bool,
    /// 0.123.0: a leaf bundle's or regular page's own `cascade` applies to the page itself
    /// (seen in 0.168.0; 0.111.3 ignores it; assumed with the content map's rewrite).
    pub own_cascade_applies: bool,
    /// 0.123.0: a cascade's `_target.path` is matched against the page's logical path
    /// (`/blog/post`, a bundle's folder); before, against its file's path with extension
    /// (`/blog/post.md`, `/blog/_index.md`), or a page without a file by its sections'
    /// (`/tags/rust`). Both lower-cased, with a leading `/`.
    pub cascade_path_logical: bool,
    /// 0.161.0: a cascade `_target` glob with a syntax error stops the build; before, the
    /// glob was passed over and the cascade took every page its other targets allow.
    pub cascade_bad_glob_refused: bool,
    /// Before 0.123.0 a home or taxonomy list Hugo does not build (its `_index` a draft,
    /// future or expired) takes the term pages below it out too (seen in 0.111.3; 0.123
    /// rebuilt the content tree, and no release between could be run).
    pub withheld_list_takes_terms: bool,
    /// 0.166.0: `security.allowContent` refuses `text/org` by default too.
    pub org_content_refused: bool,
    /// 0.123.0: a term page's `:sections` hold the term itself (`tags/rust`, before only
    /// `tags`), and its own `_index` names nothing for `:filename` (before, `_index`). Seen
    /// in 0.111.3 and 0.168.0; 0.123 rebuilt the content tree, and no release between could
    /// be run.
    pub term_sections_hold_term: bool,
    /// 0.161.0: `permalinks` may be a list of rules (`[[permalinks]]`, each a `pattern` and a
    /// `target` page matcher), the first that matches a page giving its pattern; before,
    /// Hugo read the key as a table only and a list as none (seen in 0.111.3; the form came
    /// with Hugo's commit 017a7cd63). The same commit made a table's page key the path glob
    /// `/{key,key/**}` (before, it named the page's top-level section).
    pub permalink_rules: bool,
    /// 0.123.0: a page's sections are read from its path, which Hugo lower-cases (spaces
    /// `-`): the permalink tokens `:section` and `:sections` name the folders (and a term)
    /// in lower case even with `disablePathToLower`, and a `[permalinks]` key is matched
    /// against that (before, against the folder as written: `Blog/` took no key). Seen in
    /// 0.111.3 and 0.168.0; the change found in Hugo's source (`pageTree.SectionsEntries`,
    /// `pageMeta.Section`).
    pub sections_from_path: bool,
    /// 0.123.0: a term's own `_index` is the term's page whenever its folder names the term
    /// (`categories/Tom's/` for the term `Tom's`). Before, only when the folder is written
    /// as Hugo keys the term, in lower case (`toms/`, `c++/`): `Tom's/`, `[brack]/`, `eq=x/`
    /// or `Mixed Case/` make a node of their own at the term's URL (Hugo lists that URL
    /// twice), so their being a draft, future, expired or not rendered leaves the term page
    /// as it is (seen in 0.111.3 and 0.168.0).
    pub term_folder_any_form: bool,
    /// 0.166.0: the permalink token `:title` (and `:slug` where it falls back on the title)
    /// of a page or section makes each `/` of the title a `-` (`x/y` -> `/x-y/`; a term's
    /// keeps it). Seen in 0.165.0, 0.166.0 and 0.168.0.
    pub title_token_hyphens_slash: bool,
    /// 0.123.0: a section, taxonomy or term page made without a file is titled in the
    /// site's `titleCaseStyle` (AP by default: the term `the end of a tale` is `The End of a
    /// Tale`; 0.124 adds `capitalizeListTitles = false` to keep it as written). Before, a
    /// term's title is the term as written (seen in 0.111.3; 0.168.0 titles it).
    pub list_titles_cased: bool,
    /// Before 0.115.0: `:sections[n]` past the end of the page's sections stops Hugo with a
    /// panic (an index out of range, seen in 0.111.3); from 0.115 it gives nothing.
    pub sections_cut_panics: bool,
}

impl HugoRules {
    /// The rules of Hugo `version`.
    pub fn of(version: HugoVersion) -> HugoRules {
        let at = |x: HugoVersion| version >= x;
        HugoRules {
            version,
            subdir_without_languages: at(v(0, 115, 2)),
            sitemap_index_in_subdir: at(v(0, 123, 0)),
            language_sitemap_replaces_site: !at(v(0, 112, 0)),
            keep_hyphen_runs: at(v(0, 123, 0)),
            section_hides_children: !at(v(0, 123, 0)),
            implicit_section_keeps_case: at(v(0, 123, 0)),
            sections_from_withheld_pages: at(v(0, 123, 0)),
            page_takes_section_node: at(v(0, 123, 0)),
            translation_keys_share_paths: !at(v(0, 123, 0)),
            unrendered_terms_count: !at(v(0, 123, 0)),
            build_key: at(v(0, 123, 0)),
            underscore_build: if at(v(0, 160, 0)) {
                UnderscoreBuild::Refused
            } else if at(v(0, 145, 0)) {
                UnderscoreBuild::Deprecated
            } else {
                UnderscoreBuild::Read
            },
            sitemap_disable: at(v(0, 125, 0)),
            bad_date: if at(v(0, 135, 0)) {
                BadDate::Refused
            } else {
                BadDate::Ignored
            },
            blank_date_refused: at(v(0, 135, 0)) && !at(v(0, 136, 0)),
            section_url_keeps_case: at(v(0, 136, 1)),
            ugly_lists_as_index: at(v(0, 148, 0)),
            hreflang: if at(v(0, 158, 0)) {
                HreflangFrom::Locale
            } else if at(v(0, 112, 6)) {
                HreflangFrom::LanguageCode
            } else {
                HreflangFrom::Key
            },
            filename_date_feeds_dates: at(v(0, 123, 0)),
            filename_datetime: at(v(0, 148, 0)),
            section_slug_renames_path: at(v(0, 167, 0)),
            yaml_v2: !at(v(0, 152, 0)),
            cast_bool_numbers: at(v(0, 112, 0)),
            headless_any_page: at(v(0, 124, 0)),
            home_rolls_up_pages: at(v(0, 123, 0)),
            term_folder_any_form: at(v(0, 123, 0)),
            title_token_hyphens_slash: at(v(0, 166, 0)),
            list_titles_cased: at(v(0, 123, 0)),
            deep_sections_roll_up: at(v(0, 123, 0)),
            date_reentry: at(v(0, 123, 0)),
            cascade_strict: at(v(0, 112, 0)),
            raw_html_is_static: !at(v(0, 123, 0)),
            branch_beside_leaf_wins: !at(v(0, 123, 0)),
            mount_sites: at(v(0, 153, 0)),
            mount_lang_refused: at(v(0, 168, 0)),
            permalink_contentbasename: at(v(0, 144, 0)),
            permalink_sectionslug: at(v(0, 149, 0)),
            config_decoded_strictly: at(v(0, 112, 0)),
            permalink_clean_first: at(v(0, 153, 0)),
            permalink_segments_checked: !at(v(0, 137, 0)),
            content_policy: at(v(0, 162, 0)),
            last_file_wins: at(v(0, 123, 0)),
            shadowed_page_read: at(v(0, 123, 0)),
            nested_mount_folders_read: at(v(0, 123, 0)),
            leaf_owns_every_language: at(v(0, 123, 0)),
            resource_terms_made: at(v(0, 123, 0)),
            cascade_params_sitemap: at(v(0, 123, 0)),
            content_adapters: at(v(0, 126, 0)),
            own_cascade_applies: at(v(0, 123, 0)),
            cascade_path_logical: at(v(0, 123, 0)),
            cascade_bad_glob_refused: at(v(0, 161, 0)),
            withheld_list_takes_terms: !at(v(0, 123, 0)),
            org_content_refused: at(v(0, 166, 0)),
            term_sections_hold_term: at(v(0, 123, 0)),
            permalink_rules: at(v(0, 161, 0)),
            sections_from_path: at(v(0, 123, 0)),
            sections_cut_panics: !at(v(0, 115, 0)),
        }
    }
}

impl Default for HugoRules {
    fn default() -> Self {
        HugoRules::of(HugoVersion::CURRENT)
    }
}

/// The Hugo version a run follows and why, in the order the sources are asked.
///
/// `flag` is `--hugo-version`, `file` sitemap.toml's `hugo_version`, `env` the value of
/// `HUGO_VERSION`; `ask_hugo` runs `hugo version` (only for a Hugo site, when nothing else
/// said). An unreadable flag or file value is an error message for the caller to place; an
/// unreadable environment value or `hugo` output is passed over with a note.
pub fn choose(
    flag: Option<&str>,
    file: Option<&str>,
    env: Option<&str>,
    ask_hugo: impl FnOnce() -> Option<String>,
) -> Result<(HugoVersion, VersionSource, Vec<String>), String> {
    let bad =
        |what: &str, s: &str| format!("{what} '{s}' is not a Hugo version: write it like 0.168.0");
    if let Some(s) = flag {
        // The caller's error names the flag (or library field) as its source.
        let version = HugoVersion::parse(s).ok_or_else(|| bad("the version", s))?;
        return Ok((version, VersionSource::Flag, Vec::new()));
    }
    if let Some(s) = file {
        let version = HugoVersion::parse(s).ok_or_else(|| bad("hugo_version", s))?;
        return Ok((version, VersionSource::SitemapToml, Vec::new()));
    }
    let mut notes = Vec::new();
    if let Some(s) = env.filter(|s| !s.trim().is_empty()) {
        match HugoVersion::parse(s) {
            Some(version) => return Ok((version, VersionSource::Env, notes)),
            None => notes.push(format!(
                "HUGO_VERSION='{s}' is not a Hugo version: passed over"
            )),
        }
    }
    if let Some(out) = ask_hugo() {
        match HugoVersion::from_hugo_output(&out) {
            Some(version) => return Ok((version, VersionSource::HugoOnPath, notes)),
            None => notes.push("`hugo version` printed no version: passed over".into()),
        }
    }
    Ok((HugoVersion::CURRENT, VersionSource::Default, notes))
}

/// The output of `hugo version` for the `hugo` on PATH, if there is one that runs.
pub fn ask_hugo_on_path() -> Option<String> {
    let out = Command::new("hugo")
        .arg("version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The `--verbose` line saying which Hugo's rules apply and why.
pub fn note(version: HugoVersion, source: &VersionSource) -> String {
    let why = match source {
        VersionSource::Flag => "from --hugo-version".to_string(),
        VersionSource::SitemapToml => "from hugo_version in sitemap.toml".to_string(),
        VersionSource::Env => "from the HUGO_VERSION environment variable".to_string(),
        VersionSource::HugoOnPath => "`hugo version` of the hugo on PATH".to_string(),
        VersionSource::Default => format!(
            "nothing named a version (--hugo-version, hugo_version, HUGO_VERSION, hugo on PATH): the current Hugo, {}",
            HugoVersion::CURRENT
        ),
    };
    format!("following Hugo {version}'s rules ({why})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_as_hosts_and_hugo_write_them() {
        assert_eq!(HugoVersion::parse("0.168.0"), Some(v(0, 168, 0)));
        assert_eq!(HugoVersion::parse("v0.111.3"), Some(v(0, 111, 3)));
        assert_eq!(HugoVersion::parse(" 0.145 "), Some(v(0, 145, 0)));
        assert_eq!(HugoVersion::parse("0.140.2+extended"), Some(v(0, 140, 2)));
        assert_eq!(HugoVersion::parse("0.123.0-DEV"), Some(v(0, 123, 0)));
        for bad in ["", "latest", "0", "0.x.1", "0.1.2.3", "1..2", "-1.2"] {
            assert_eq!(HugoVersion::parse(bad), None, "{bad}");
        }
        // What the real binaries print.
        let new = "hugo v0.168.0-a1b2c3+extended linux/amd64 BuildDate=2026-01-01T00:00:00Z";
        assert_eq!(HugoVersion::from_hugo_output(new), Some(v(0, 168, 0)));
        let old = "hugo v0.111.3+extended linux/amd64 BuildDate=2023-03-16T08:41:31Z VendorInfo=debian:0.111.3-1";
        assert_eq!(HugoVersion::from_hugo_output(old), Some(v(0, 111, 3)));
        assert_eq!(HugoVersion::from_hugo_output("zsh: not found"), None);
    }

    #[test]
    fn each_rule_switches_at_its_release() {
        let r = |s: &str| HugoRules::of(HugoVersion::parse(s).unwrap());
        // (before, at) pairs for every boolean rule.
        type Rule = fn(&HugoRules) -> bool;
        let flips: [(&str, &str, Rule); 49] = [
            ("0.122.0", "0.123.0", |r| r.keep_hyphen_runs),
            ("0.122.0", "0.123.0", |r| !r.section_hides_children),
            ("0.122.0", "0.123.0", |r| r.implicit_section_keeps_case),
            ("0.122.0", "0.123.0", |r| r.sections_from_withheld_pages),
            ("0.122.0", "0.123.0", |r| r.page_takes_section_node),
            ("0.122.0", "0.123.0", |r| !r.translation_keys_share_paths),
            ("0.122.0", "0.123.0", |r| !r.unrendered_terms_count),
            ("0.122.0", "0.123.0", |r| r.build_key),
            ("0.124.1", "0.125.0", |r| r.sitemap_disable),
            ("0.134.3", "0.135.0", |r| r.bad_date == BadDate::Refused),
            ("0.136.0", "0.136.1", |r| r.section_url_keeps_case),
            ("0.147.9", "0.148.0", |r| r.ugly_lists_as_index),
            ("0.122.0", "0.123.0", |r| r.filename_date_feeds_dates),
            ("0.147.9", "0.148.0", |r| r.filename_datetime),
            ("0.166.0", "0.167.0", |r| r.section_slug_renames_path),
            ("0.151.0", "0.152.0", |r| !r.yaml_v2),
            ("0.111.3", "0.112.0", |r| r.cast_bool_numbers),
            ("0.123.1", "0.124.0", |r| r.headless_any_page),
            ("0.122.0", "0.123.0", |r| r.home_rolls_up_pages),
            ("0.122.0", "0.123.0", |r| r.term_folder_any_form),
            ("0.165.0", "0.166.0", |r| r.title_token_hyphens_slash),
            ("0.122.0", "0.123.0", |r| r.list_titles_cased),
            ("0.122.0", "0.123.0", |r| r.deep_sections_roll_up),
            ("0.122.0", "0.123.0", |r| r.date_reentry),
            ("0.111.3", "0.112.0", |r| r.cascade_strict),
            ("0.152.0", "0.153.0", |r| r.mount_sites),
            ("0.167.0", "0.168.0", |r| r.mount_lang_refused),
            ("0.136.0", "0.137.0", |r| !r.permalink_segments_checked),
            ("0.161.0", "0.162.0", |r| r.content_policy),
            ("0.122.0", "0.123.0", |r| r.last_file_wins),
            ("0.122.0", "0.123.0", |r| r.shadowed_page_read),
            ("0.122.0", "0.123.0", |r| r.nested_mount_folders_read),
            ("0.122.0", "0.123.0", |r| r.leaf_owns_every_language),
            ("0.122.0", "0.123.0", |r| r.resource_terms_made),
            ("0.114.0", "0.115.0", |r| !r.sections_cut_panics),
            ("0.122.0", "0.123.0", |r| r.cascade_params_sitemap),
            ("0.125.0", "0.126.0", |r| r.content_adapters),
            ("0.122.0", "0.123.0", |r| r.own_cascade_applies),
            ("0.122.0", "0.123.0", |r| r.cascade_path_logical),
            ("0.160.1", "0.161.0", |r| r.cascade_bad_glob_refused),
            ("0.122.0", "0.123.0", |r| !r.withheld_list_takes_terms),
            ("0.165.0", "0.166.0", |r| r.org_content_refused),
            ("0.143.0", "0.144.0", |r| r.permalink_contentbasename),
            ("0.148.0", "0.149.0", |r| r.permalink_sectionslug),
            ("0.111.3", "0.112.0", |r| r.config_decoded_strictly),
            ("0.152.0", "0.153.0", |r| r.permalink_clean_first),
            ("0.122.0", "0.123.0", |r| r.term_sections_hold_term),
            ("0.160.1", "0.161.0", |r| r.permalink_rules),
            ("0.122.0", "0.123.0", |r| r.sections_from_path),
        ];
        for (before, at, rule) in flips {
            assert!(!rule(&r(before)), "{before}");
            assert!(rule(&r(at)), "{at}");
        }
        assert!(!r("0.134.0").blank_date_refused);
        assert!(r("0.135.1").blank_date_refused);
        assert!(!r("0.136.0").blank_date_refused);
        let ub = |s| r(s).underscore_build;
        assert_eq!(ub("0.144.2"), UnderscoreBuild::Read);
        assert_eq!(ub("0.145.0"), UnderscoreBuild::Deprecated);
        assert_eq!(ub("0.159.2"), UnderscoreBuild::Deprecated);
        assert_eq!(ub("0.160.0"), UnderscoreBuild::Refused);
        let hl = |s| r(s).hreflang;
        assert_eq!(hl("0.112.5"), HreflangFrom::Key);
        assert_eq!(hl("0.112.6"), HreflangFrom::LanguageCode);
        assert_eq!(hl("0.157.0"), HreflangFrom::LanguageCode);
        assert_eq!(hl("0.158.0"), HreflangFrom::Locale);
        assert_eq!(HugoRules::default(), r("0.168.0"));
    }

    #[test]
    fn the_first_source_that_names_a_version_wins() {
        let never = || -> Option<String> { panic!("hugo must not be asked") };
        let got = |f, t, e| choose(f, t, e, never).map(|(v, s, _)| (v.to_string(), s));
        assert_eq!(
            got(Some("0.111.3"), Some("0.140.0"), Some("0.150.0")),
            Ok(("0.111.3".into(), VersionSource::Flag))
        );
        assert_eq!(
            got(None, Some("0.140.0"), Some("0.150.0")),
            Ok(("0.140.0".into(), VersionSource::SitemapToml))
        );
        assert_eq!(
            got(None, None, Some("0.150.0")),
            Ok(("0.150.0".into(), VersionSource::Env))
        );
        assert!(
            got(Some("latest"), None, None)
                .unwrap_err()
                .contains("the version 'latest'")
        );
        // A bad HUGO_VERSION is passed over with a note; then hugo is asked, then the default.
        let asked = choose(None, None, Some("latest"), || {
            Some("hugo v0.120.4 linux/amd64".into())
        })
        .unwrap();
        assert_eq!(
            (asked.0, asked.1),
            (v(0, 120, 4), VersionSource::HugoOnPath)
        );
        assert!(asked.2[0].contains("HUGO_VERSION='latest'"));
        let none = choose(None, None, None, || None).unwrap();
        assert_eq!(
            (none.0, none.1),
            (HugoVersion::CURRENT, VersionSource::Default)
        );
        assert!(note(none.0, &none.1).contains("Hugo 0.168.0"));
    }
}
