//! The page record the later stages take: what the pipeline keeps of one page's front
//! matter for the rest of the run, laid out small because a large site holds a million.

use crate::vocab::date::W3cDate;

use crate::vocab::crawl_hints::{ChangeFreq, Priority};

/// What the pipeline keeps of one page's front matter for the rest of the run, every field
/// optional: the fields most pages set, inline and small, and the ones few pages set boxed
/// apart. A site of a million pages holds a million of these, so every byte here counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageMeta {
    /// Last change: the first of `updated`, `lastmod`, `last_modified_at`, `modified`.
    pub updated: Option<W3cDate>,
    /// `date`.
    pub date: Option<W3cDate>,
    /// `priority` (top level, `sitemap.priority`, `extra.priority` or `extra.sitemap.priority`).
    pub priority: Option<Priority>,
    /// `changefreq` (same places as `priority`).
    pub changefreq: Option<ChangeFreq>,
    /// The yes/no fields, a bit each (see the accessors): six bytes would cost eight with
    /// padding. Opaque, so only the setters change them (and a literal can still take
    /// `..Default::default()`).
    pub(crate) flags: Flags,
    /// `slug` and Zola `path`, boxed together: most pages set neither.
    pub names: Option<Box<Names>>,
    /// Hugo: which of the site's date keys ([`super::HugoDates::keys`], the first 16) the
    /// page sets to a date, so a cascade fills only the others. Lies in padding.
    pub(crate) date_keys: u16,
    /// The publication date is [`PageMeta::date`] (Hugo's default order falls back to
    /// `date`, so most Hugo pages): said here, in padding, rather than boxing a
    /// [`MetaMore`] for it (24 MB more at 100,000 pages). Read it with
    /// [`PageMeta::publish_date`].
    pub(crate) publish_is_date: bool,
    /// The fields few pages set; `None` when the page sets none of them.
    pub more: Option<Box<MetaMore>>,
}

/// A page's own URL names, when it sets any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// `slug`: replaces the last path segment.
    pub slug: Option<String>,
    /// Zola `path`: replaces the whole path.
    pub path: Option<String>,
}

/// The front matter fields few pages set, kept apart from [`PageMeta`] so most pages pay
/// one pointer for them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetaMore {
    /// `title`, kept only where a URL is made from it (Hugo `:title` and `:slug`).
    pub title: Option<String>,
    /// Hugo `url`: replaces the whole path.
    pub url: Option<String>,
    /// Hugo `translationKey`: links translations whose paths differ.
    pub translation_key: Option<String>,
    /// Publication: the first of `publishDate`, `pubdate`, `published` (when a date); Zola
    /// has none. `None` here when it is the page's `date`: read
    /// [`PageMeta::publish_date`], which knows.
    pub publish_date: Option<W3cDate>,
    /// Expiry: `expiryDate` or `unpublishdate`.
    pub expiry_date: Option<W3cDate>,
    /// Hugo `headless = true`: a bundle with no page of its own.
    pub headless: bool,
    /// Hugo `_build`/`build` options.
    pub build: BuildOptions,
    /// Hugo `cascade`: values pushed down to every page below this section.
    pub cascade: Vec<Cascade>,
    /// Hugo: the front matter has a `sitemap` table, which replaces a cascade's whole.
    pub sitemap_table: bool,
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
    /// Hugo `outputs`: whether the list names `html` (`None` when the page sets none).
    pub html_output: Option<bool>,
    /// Hugo `markup` (lower-cased): the page's content format, which its file name
    /// gives otherwise.
    pub markup: Option<String>,
    /// Hugo: the dates of the second and later runs of front matter keys in the site's
    /// `[frontmatter] lastmod` order (the first run's is [`PageMeta::updated`]).
    pub lastmod_more: Vec<Option<W3cDate>>,
    /// The file has no front matter at all (Zola refuses to build such a page).
    pub no_front_matter: bool,
    /// No front matter, and the file's first non-blank character opens markup (`<`, not a
    /// comment): Hugo before 0.123 copies such an HTML file as it is, as a static file.
    pub raw_markup: bool,
    /// `noindex = true` alone leaves the page out ([`PageMeta::sitemap_exclude`] is set; no
    /// `sitemap` key says so), so it is reported as `noindex`.
    pub noindex: bool,
    /// Zola `aliases`, as written: no other page or alias may take one (Zola refuses a path
    /// collision). Hugo's are not kept.
    pub aliases: Vec<String>,
}

/// What a page without any of the rarer fields reads as.
static NO_MORE: MetaMore = MetaMore {
    title: None,
    url: None,
    translation_key: None,
    publish_date: None,
    expiry_date: None,
    headless: false,
    build: BuildOptions {
        render: None,
        list: None,
        given: false,
    },
    cascade: Vec::new(),
    sitemap_table: false,
    lang: None,
    transparent: false,
    paginate_by: None,
    paginate_path: None,
    sort_by: None,
    redirect_to: None,
    html_output: None,
    markup: None,
    lastmod_more: Vec::new(),
    no_front_matter: false,
    raw_markup: false,
    noindex: false,
    aliases: Vec::new(),
};

/// [`PageMeta`]'s yes/no fields, a bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flags(u8);

// `PageMeta::flags` bits.
const PRIORITY_OFF: u8 = 1;
const DRAFT_SET: u8 = 1 << 1;
const DRAFT: u8 = 1 << 2;
const RENDER_SET: u8 = 1 << 3;
const RENDER: u8 = 1 << 4;
const SITEMAP_EXCLUDE: u8 = 1 << 5;
const HAS_TITLE: u8 = 1 << 6;
const HAS_WEIGHT: u8 = 1 << 7;

impl PageMeta {
    /// Sets [`PageMeta::names`], boxed only when the page sets a name.
    pub fn set_names(&mut self, names: Names) {
        self.names = (names.slug.is_some() || names.path.is_some()).then(|| Box::new(names));
    }

    /// Sets [`PageMeta::more`], boxed only when the page sets one of the rarer fields.
    pub fn set_more(&mut self, more: MetaMore) {
        self.more = (more != NO_MORE).then(|| Box::new(more));
    }

    /// Sets the publication date, after [`PageMeta::date`]: boxed apart only when it differs
    /// from `date`.
    pub fn set_publish_date(&mut self, more: &mut MetaMore, publish: Option<W3cDate>) {
        self.publish_is_date = publish.is_some() && publish == self.date;
        more.publish_date = if self.publish_is_date { None } else { publish };
    }

    /// Publication: the first of `publishDate`, `pubdate`, `published` (when a date), or
    /// what the site's order falls back to.
    pub fn publish_date(&self) -> Option<W3cDate> {
        if self.publish_is_date {
            self.date
        } else {
            self.more().publish_date
        }
    }

    /// Sets or clears one yes/no bit.
    fn set_flag(&mut self, bit: u8, on: bool) {
        if on {
            self.flags.0 |= bit;
        } else {
            self.flags.0 &= !bit;
        }
    }

    /// Sets a yes/no field that may be unset: `set` says whether it is, `bit` its value.
    fn set_maybe(&mut self, set: u8, bit: u8, value: Option<bool>) {
        self.set_flag(set, value.is_some());
        self.set_flag(bit, value == Some(true));
    }

    /// Sets [`PageMeta::date_keys`].
    pub fn set_date_keys(&mut self, mask: u16) {
        self.date_keys = mask;
    }

    /// Hugo: whether the page itself sets date key `id` (an index into the site's
    /// [`super::HugoDates::keys`]) to a date; keys past the 16th never count as set.
    pub fn sets_date_key(&self, id: u8) -> bool {
        id < 16 && self.date_keys & (1 << id) != 0
    }

    /// Sets [`PageMeta::priority_off`].
    pub fn set_priority_off(&mut self, on: bool) {
        self.set_flag(PRIORITY_OFF, on);
    }

    /// Sets [`PageMeta::draft`].
    pub fn set_draft(&mut self, draft: Option<bool>) {
        self.set_maybe(DRAFT_SET, DRAFT, draft);
    }

    /// Sets [`PageMeta::render`].
    pub fn set_render(&mut self, render: Option<bool>) {
        self.set_maybe(RENDER_SET, RENDER, render);
    }

    /// Sets [`PageMeta::sitemap_exclude`].
    pub fn set_sitemap_exclude(&mut self, on: bool) {
        self.set_flag(SITEMAP_EXCLUDE, on);
    }

    /// Sets [`PageMeta::has_title`].
    pub fn set_has_title(&mut self, on: bool) {
        self.set_flag(HAS_TITLE, on);
    }

    /// Sets [`PageMeta::has_weight`].
    pub fn set_has_weight(&mut self, on: bool) {
        self.set_flag(HAS_WEIGHT, on);
    }

    fn flag(&self, bit: u8) -> bool {
        self.flags.0 & bit != 0
    }

    /// A yes/no field that may be unset.
    fn maybe(&self, set: u8, bit: u8) -> Option<bool> {
        self.flag(set).then(|| self.flag(bit))
    }

    /// Hugo: a negative `priority` (its "not set" value) on the page itself, which leaves
    /// `<priority>` out even where the site or a cascade sets one.
    pub fn priority_off(&self) -> bool {
        self.flag(PRIORITY_OFF)
    }

    /// `draft = true`, or Hugo `published = false`.
    pub fn draft(&self) -> Option<bool> {
        self.maybe(DRAFT_SET, DRAFT)
    }

    /// Zola `render`: `false` means the page or section has no page of its own.
    pub fn render(&self) -> Option<bool> {
        self.maybe(RENDER_SET, RENDER)
    }

    /// `sitemap = false`, `sitemap.disable = true`, `noindex = true` (also under `extra`).
    pub fn sitemap_exclude(&self) -> bool {
        self.flag(SITEMAP_EXCLUDE)
    }

    /// Whether `title` is set (Zola drops pages without one from a `sort_by = "title"` list).
    pub fn has_title(&self) -> bool {
        self.flag(HAS_TITLE)
    }

    /// Whether `weight` is set (the same for `sort_by = "weight"`).
    pub fn has_weight(&self) -> bool {
        self.flag(HAS_WEIGHT)
    }

    /// `slug`.
    pub fn slug(&self) -> Option<&str> {
        self.names.as_ref().and_then(|n| n.slug.as_deref())
    }

    /// Zola `path`.
    pub fn path(&self) -> Option<&str> {
        self.names.as_ref().and_then(|n| n.path.as_deref())
    }

    /// The rarer fields (all unset for most pages).
    pub fn more(&self) -> &MetaMore {
        self.more.as_deref().unwrap_or(&NO_MORE)
    }
}

/// Hugo build options (`_build` or `build`), from the page itself or a cascade.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `render`: `always` / `never` / `link` (booleans map to always/never).
    pub render: Option<BuildRender>,
    /// `list`: `always` / `never` / `local` (booleans map to always/never).
    pub list: Option<BuildList>,
    /// The table was written (an empty one too): a page's own replaces every cascade's.
    pub given: bool,
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
    /// The exclusion comes from `noindex` alone.
    pub noindex: bool,
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
    /// Hugo `published` (a boolean), the inverse of `draft`.
    pub published: Option<bool>,
    /// Hugo `outputs`: whether they name `html`.
    pub html_output: Option<bool>,
    /// Hugo: each date key ([`super::HugoDates::keys`] index) the cascade sets, with its
    /// date (`None` for Hugo's zero date).
    pub dates: Vec<(u8, Option<W3cDate>)>,
    /// Hugo: the error the cascade raises once it reaches a page (the line of its `_build`
    /// in a release that removed it, and the message); a cascade that reaches none is
    /// harmless, as in Hugo.
    pub refused: Option<(usize, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_meta_keeps_every_yes_no_field_apart() {
        let tri = [None, Some(false), Some(true)];
        for (draft, render) in tri.iter().flat_map(|d| tri.iter().map(move |r| (*d, *r))) {
            for bits in 0..16u8 {
                let on = |k: u8| bits & (1 << k) != 0;
                // From every bit set, so a setter must clear as well as set.
                let mut m = PageMeta {
                    flags: Flags(u8::MAX),
                    ..Default::default()
                };
                m.set_draft(draft);
                m.set_render(render);
                m.set_priority_off(on(0));
                m.set_sitemap_exclude(on(1));
                m.set_has_title(on(2));
                m.set_has_weight(on(3));
                let got = (
                    m.draft(),
                    m.render(),
                    m.priority_off(),
                    m.sitemap_exclude(),
                    m.has_title(),
                    m.has_weight(),
                );
                assert_eq!(got, (draft, render, on(0), on(1), on(2), on(3)));
            }
        }
        // A Hugo site holds one a page through routing (its taxonomy terms lie apart, in
        // `route::Pages`).
        assert!(std::mem::size_of::<PageMeta>() <= 48);
    }

    #[test]
    fn names_and_the_rarer_fields_are_boxed_only_when_set() {
        let mut m = PageMeta::default();
        m.set_names(Names::default());
        m.set_more(MetaMore::default());
        assert_eq!(m, PageMeta::default());
        m.set_names(Names {
            path: Some("/p/".into()),
            ..Default::default()
        });
        m.set_more(MetaMore {
            headless: true,
            ..Default::default()
        });
        assert_eq!(
            (m.slug(), m.path(), m.more().headless),
            (None, Some("/p/"), true)
        );
    }
}
