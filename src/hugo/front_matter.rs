//! The fields of a Hugo page, read as the site's Hugo release reads them: every value
//! through the conversion Hugo applies to that key (`cast.rs`), so a value Hugo
//! tolerates (`draft:` with nothing after it, `draft: "true"`, `weight: "3"`) reads as it
//! does there, and only what stops Hugo's build stops ours, naming the file and line.

use std::sync::OnceLock;

use crate::hugo::version::{BadDate, UnderscoreBuild};
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};

use super::cast::{Go, Hugo};
use super::dates::{DateSource, HugoDates, KeyDate, MAX_MASKED_KEYS, keys_of};
use super::glob::HugoGlob;
use super::go_time::GoDate;
use crate::frontmatter::{
    BuildList, BuildOptions, BuildRender, Cascade, Ctx, Dialect, Format, MetaMore, Names, Node,
    NodeValue, Parsed, SITEMAP_TABLE_KEYS, build_key,
};
use crate::vocab::crawl_hints::{ChangeFreq, Priority};

/// Hugo's date orders when the site sets none.
fn default_dates() -> &'static HugoDates {
    static D: OnceLock<HugoDates> = OnceLock::new();
    D.get_or_init(HugoDates::default)
}

/// The output formats Hugo knows without configuration (names compared ignoring case).
const OUTPUT_FORMATS: &[&str] = &[
    "html",
    "amp",
    "calendar",
    "css",
    "csv",
    "json",
    "markdown",
    "robots",
    "rss",
    "sitemap",
    "sitemapindex",
    "webappmanifest",
    "llms",
];

/// The markup names Hugo 0.152 and later accept in `markup` (earlier releases take any).
const MARKUPS: &[&str] = &[
    "markdown",
    "goldmark",
    "md",
    "mdown",
    "mkdn",
    "mkd",
    "mdwn",
    "asciidocext",
    "asciidoc",
    "adoc",
    "ad",
    "pandoc",
    "pdc",
    "rst",
    "org",
    "html",
    "htm",
];

/// Hugo's reading of a front matter block: every value cast as the site's release casts it
/// (the newest release's rules when the options name none).
#[derive(Debug)]
pub struct HugoFrontMatter;

impl Dialect for HugoFrontMatter {
    fn fields(&self, root: &Node<'_>, cx: &Ctx<'_>, format: Format) -> Result<Parsed> {
        let rules = cx.opts.hugo.unwrap_or_default();
        extract(
            root,
            cx,
            Hugo {
                format,
                rules: &rules,
                tz: &cx.opts.tz,
            },
        )
    }
}

/// Reads the fields of a Hugo page's front matter.
fn extract(root: &Node<'_>, cx: &Ctx<'_>, h: Hugo<'_>) -> Result<Parsed> {
    let rules = h.rules;
    let dates = cx.opts.dates.as_deref().unwrap_or_else(|| default_dates());
    let mut out = Parsed::default();
    let mut more = MetaMore::default();
    let mut names = Names::default();

    // Dates: each key of the orders read once, the orders evaluated as Hugo does.
    let reads: Vec<KeyDate> = dates
        .keys
        .iter()
        .map(|key| read_date(root, &[], key, cx, h))
        .collect();
    let (own, bad) = dates.evaluate(rules.date_reentry, |k| reads[k as usize]);
    let mut errors = Vec::new();
    for (k, handler_before) in bad {
        bad_date(
            root,
            &[],
            &dates.keys[k as usize],
            cx,
            h,
            handler_before,
            &mut errors,
        );
    }
    if let Some(e) = Error::from_many(errors) {
        return Err(e);
    }
    let mut mask = 0u16;
    for (k, r) in reads.iter().enumerate().take(MAX_MASKED_KEYS) {
        if matches!(r, KeyDate::Date { .. }) {
            mask |= 1 << k;
        }
    }
    out.meta.set_date_keys(mask);
    out.meta.date = own.date;
    out.meta.set_publish_date(&mut more, own.publish);
    more.expiry_date = own.expiry;
    if cx.opts.hugo_lastmod {
        out.meta.updated = own.lastmod.first().copied().flatten();
        more.lastmod_more = own.lastmod.into_iter().skip(1).collect();
        if more.lastmod_more.iter().all(Option::is_none) {
            more.lastmod_more.clear();
        }
    } else {
        // sitemap.toml's own order: `front_matter` is the first of these keys.
        for key in ["updated", "lastmod", "last_modified_at", "modified"] {
            match read_date(root, &[], key, cx, h) {
                KeyDate::Date { written, .. } => {
                    out.meta.updated = written;
                    break;
                }
                KeyDate::Bad => {
                    let mut errors = Vec::new();
                    bad_date(root, &[], key, cx, h, false, &mut errors);
                    if let Some(e) = Error::from_many(errors) {
                        return Err(e);
                    }
                }
                KeyDate::Absent => {}
            }
        }
    }

    // Build options: `_build` before 0.123; from 0.123 `build` too, `_build` first (and
    // deprecated, then refused), read as for a cascade.
    let build = [root.get("_build"), root.get("build")];
    if let Some((name, n)) = build_key(build, cx)? {
        more.build = build_options(&[name], n, cx, h)?;
    }

    let mut draft = None;
    let mut published = None;
    // What leaves the page out of the sitemap: `noindex` alone is reported as `noindex`.
    let (mut by_noindex, mut by_sitemap) = (false, false);
    // From Hugo 0.123 the date orders and the fields share one map: a `published` the
    // publishDate order read as a date (`published: 0`) is a date there, no longer a flag.
    let published_is_date = rules.date_reentry
        && dates
            .key_id("published")
            .is_some_and(|k| matches!(reads[k as usize], KeyDate::Date { .. }));
    for (k, n) in root.entries() {
        let key = k.to_ascii_lowercase();
        if key == "published" {
            if !published_is_date {
                published = h.bool_e(n);
            }
            continue;
        }
        if dates.key_id(&key).is_some() {
            continue;
        }
        match key.as_str() {
            "title" => {
                out.meta.set_has_title(true);
                if cx.opts.keep_title {
                    more.title = Some(h.string(n));
                }
            }
            "slug" => {
                let slug = h.string(n);
                let slug = slug.trim_matches('-');
                if slug.trim().is_empty() && !slug.is_empty() {
                    cx.warn(
                        &["slug"],
                        n,
                        "`slug` holds only spaces: a page takes its folder's URL, a section keeps its folder's name (Hugo 0.167 and later drop such a section's pages from its sitemap)".into(),
                    );
                }
                if slug.contains('/') {
                    cx.warn(
                        &["slug"],
                        n,
                        format!("`slug` = '{slug}' holds a '/': taken as a nested path (a section's is ignored); Hugo keeps a '//' and a section's names no folder"),
                    );
                }
                names.slug = (!slug.is_empty()).then(|| slug.to_string());
            }
            "url" => {
                let url = h.string(n);
                if url.starts_with("http://") || url.starts_with("https://") {
                    return Err(cx.err(
                        &["url"],
                        n,
                        format!("`url` = '{url}': Hugo supports no URL with a protocol here and stops the build: write a path like /about/"),
                    ));
                }
                if url.contains([':', '?']) {
                    cx.warn(
                        &["url"],
                        n,
                        format!("`url` = '{url}' holds ':' or '?': taken as a path (Hugo expands ':tokens' and reads what follows '?' as a query)"),
                    );
                }
                more.url = (!url.is_empty()).then_some(url);
            }
            "translationkey" => {
                let key = h.string(n);
                more.translation_key = (!key.is_empty()).then_some(key);
            }
            "headless" => more.headless = h.bool(n),
            // A configured language places the page in it (the router checks).
            "lang" => {
                let lang = h.string(n);
                more.lang = (!lang.is_empty()).then_some(lang);
            }
            "draft" => {
                let b = h.bool(n);
                // Hugo builds whatever `draft` holds: what it reads is said, so a page a
                // user meant to hold back is not listed without a word.
                let said = match &n.v {
                    NodeValue::Bool(_) => None,
                    NodeValue::Null => Some("has no value".to_string()),
                    _ if h.bool_e(n).is_none() => Some(format!(
                        "= {} is not true or false",
                        n.as_text()
                            .map_or_else(|| "a list or table".into(), |t| format!("'{t}'"))
                    )),
                    _ => None,
                };
                if let Some(said) = said {
                    let reads = if b {
                        "true: a draft, left out"
                    } else {
                        "false: not a draft, listed"
                    };
                    cx.warn(
                        &["draft"],
                        n,
                        format!("`draft` {said}: Hugo {} reads it as {reads}", rules.version),
                    );
                }
                draft = Some(b);
            }
            "weight" => out.meta.set_has_weight(true),
            "aliases" => aliases(n, cx, h)?,
            "outputs" => more.html_output = outputs(n, cx, h)?,
            "markup" => {
                let m = h.string(n);
                if !rules.yaml_v2
                    && !m.is_empty()
                    && !MARKUPS.iter().any(|k| k.eq_ignore_ascii_case(&m))
                {
                    return Err(cx.err(
                        &["markup"],
                        n,
                        format!("`markup` = '{m}' is no markup Hugo {} knows, and it stops the build there: use markdown, asciidoc, html, org, pandoc or rst", rules.version),
                    ));
                }
                more.markup = (!m.is_empty()).then(|| m.to_ascii_lowercase());
            }
            "sitemap" => {
                let sf = sitemap(n, &["sitemap"], cx, h)?;
                more.sitemap_table = true;
                out.meta.priority = sf.priority;
                out.meta.set_priority_off(sf.priority_off);
                out.meta.changefreq = sf.changefreq;
                out.meta
                    .set_sitemap_exclude(out.meta.sitemap_exclude() || sf.exclude);
                by_sitemap = sf.exclude;
            }
            "noindex" => {
                // The author's choice: counted in the summary, not warned about (Hugo's own
                // sitemap lists the page; its theme marks it noindex).
                if h.bool(n) {
                    out.meta.set_sitemap_exclude(true);
                    by_noindex = true;
                }
            }
            "cascade" => more.cascade = cascades(n, cx, h, dates)?,
            // Keys Hugo reads for itself: never taxonomy terms.
            "linktitle" | "summary" | "description" | "type" | "layout" | "iscjklanguage"
            | "resources" | "_build" | "build" | "params" | "menu" | "menus" => {}
            other => {
                // Any other key is a param; the router keeps those the site declares as
                // taxonomies. Hugo reads one string as one term, a list item by item.
                match &n.v {
                    NodeValue::Str(s) if cx.opts.string_terms => out
                        .taxonomy_strings
                        .push((other.to_string(), s.to_string())),
                    NodeValue::List(_)
                    | NodeValue::Bool(_)
                    | NodeValue::Int(_)
                    | NodeValue::Float(_)
                    | NodeValue::Date(_) => {
                        if let Some(list) = h.string_slice_e(n).filter(|l| !l.is_empty()) {
                            out.taxonomies.push((other.to_string(), list));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // An explicit `draft` wins over `published`.
    out.meta.set_draft(draft.or(published.map(|p| !p)));
    more.noindex = by_noindex && !by_sitemap;
    out.meta.set_names(names);
    out.meta.set_more(more);
    out.taxonomies.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Reads front matter key `key` (lower-cased) as a date.
fn read_date(root: &Node<'_>, prefix: &[&str], key: &str, cx: &Ctx<'_>, h: Hugo<'_>) -> KeyDate {
    let Some(n) = root.get(key) else {
        return KeyDate::Absent;
    };
    match h.date(n) {
        Ok(None) if h.rules.blank_date_refused => KeyDate::Bad,
        Ok(None) => KeyDate::Absent,
        Ok(Some(GoDate::Unwritable(t, when))) => {
            // The key's path, for the warning alone (made here, not for every date read).
            let keys: Vec<&str> = prefix.iter().copied().chain([key]).collect();
            cx.warn(
                &keys,
                n,
                format!(
                    "`{}`: Hugo reads this as {t}, a date no sitemap can carry: left out",
                    keys.join(".")
                ),
            );
            KeyDate::Date {
                written: None,
                when: Some(when),
            }
        }
        Ok(Some(GoDate::Zero)) => KeyDate::Date {
            written: None,
            when: None,
        },
        Ok(Some(d)) => {
            let d = d.w3c();
            KeyDate::Date {
                written: d,
                when: d,
            }
        }
        Err(()) => KeyDate::Bad,
    }
}

/// A date Hugo cannot read, where an order reaches it: Hugo before 0.135 passes over it (a
/// warning), later releases stop the build (an error, unless a handler before it in the
/// order may answer first).
fn bad_date(
    root: &Node<'_>,
    prefix: &[&str],
    key: &str,
    cx: &Ctx<'_>,
    h: Hugo<'_>,
    handler_before: bool,
    errors: &mut Vec<Error>,
) {
    let Some(n) = root.get(key) else { return };
    let shown = h.string_e(n).unwrap_or_else(|| "this value".into());
    let name: Vec<String> = prefix
        .iter()
        .map(|p| p.to_string())
        .chain([display_key(root, key)])
        .collect();
    let name = name.join(".");
    let keys: Vec<&str> = prefix.iter().copied().chain([key]).collect();
    let line = cx.line(&keys, n);
    let already = |e: &Error| matches!(e, Error::Input { line: Some(l), .. } if *l == line);
    if h.rules.bad_date == BadDate::Refused && !handler_before {
        if !errors.iter().any(already) {
            errors.push(cx.err(
                &keys,
                n,
                format!("`{name}` = '{shown}' is not a date Hugo {} reads, and it stops the build there: write 2024-01-31 or 2024-01-31T12:00:00+01:00", h.rules.version),
            ));
        }
        return;
    }
    let message = if h.rules.bad_date == BadDate::Refused {
        format!(
            "`{name}` = '{shown}' is not a date Hugo reads (it stops the build where it reads it): left out"
        )
    } else {
        format!("`{name}` = '{shown}' is not a date Hugo reads: Hugo ignores it, and so do we")
    };
    let text = format!("{}:{line}: {message}", cx.path.display());
    let mut w = cx.warnings.borrow_mut();
    if !w.contains(&text) {
        w.push(text);
    }
}

/// The key as the page writes it (its case), for messages.
fn display_key(root: &Node<'_>, key: &str) -> String {
    root.entries()
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map_or_else(|| key.to_string(), |(k, _)| k.to_string())
}

/// `aliases`: redirects, never listed; Hugo stops at one with a protocol (and, before
/// 0.112, at an item it cannot read as text).
fn aliases(n: &Node<'_>, cx: &Ctx<'_>, h: Hugo<'_>) -> Result<()> {
    if let Go::List(items) = h.go(n)
        && h.rules.yaml_v2
        && !h.rules.cast_bool_numbers
        && let Some(bad) = items.iter().find(|i| h.string_e(i).is_none())
    {
        return Err(cx.err(
                    &["aliases"],
                    bad,
                    format!("an `aliases` item that is not text stops Hugo {}'s build: write each alias as a path", h.rules.version),
                ));
    }
    for alias in h.string_slice_e(n).unwrap_or_default() {
        if alias.starts_with("http://") || alias.starts_with("https://") {
            return Err(cx.err(
                &["aliases"],
                n,
                format!("alias '{alias}': Hugo supports no alias with a protocol and stops the build: write a path like /old/"),
            ));
        }
    }
    Ok(())
}

/// `outputs`: whether the page has an HTML output (`None` when it names none, so the
/// site's default holds); a name Hugo does not know stops its build.
fn outputs(n: &Node<'_>, cx: &Ctx<'_>, h: Hugo<'_>) -> Result<Option<bool>> {
    let list = h.string_slice_e(n).unwrap_or_default();
    if list.is_empty() {
        return Ok(None);
    }
    if let Some(bad) = list
        .iter()
        .find(|o| !OUTPUT_FORMATS.iter().any(|k| k.eq_ignore_ascii_case(o)))
    {
        return Err(cx.err(
            &["outputs"],
            n,
            format!("`outputs`: '{bad}' is no output format Hugo knows, and it stops the build: use html, rss, json or one the site defines"),
        ));
    }
    let html = list.iter().any(|o| o.eq_ignore_ascii_case("html"));
    if !html {
        cx.warn(
            &["outputs"],
            n,
            format!(
                "`outputs` names no html: no page to list (Hugo lists the URL of its {} output)",
                list[0]
            ),
        );
    }
    Ok(Some(html))
}

/// The sitemap values of a `sitemap` table, as the page's Hugo decodes them.
#[derive(Default)]
struct SitemapFields {
    priority: Option<Priority>,
    priority_off: bool,
    changefreq: Option<ChangeFreq>,
    exclude: bool,
}

/// A `sitemap` value. Hugo before 0.125 reads `changefreq`, `priority` and `filename` of a
/// table (anything else is an empty table, values cast, `disable` unknown); later releases
/// decode it strictly, and a value that does not fit stops the build.
fn sitemap(n: &Node<'_>, keys: &[&str], cx: &Ctx<'_>, h: Hugo<'_>) -> Result<SitemapFields> {
    let mut out = SitemapFields::default();
    let sub = |k: &'static str| -> Vec<&str> { keys.iter().copied().chain([k]).collect() };
    let refuse = |k: &'static str, v: &Node<'_>, want: &str| -> Error {
        let shown = h.string_e(v).unwrap_or_else(|| "this value".into());
        cx.err(
            &sub(k),
            v,
            format!(
                "`{}` = '{shown}' is not {want}, and Hugo {} stops the build here",
                sub(k).join("."),
                h.rules.version
            ),
        )
    };
    let strict = h.rules.sitemap_disable;
    if !matches!(n.v, NodeValue::Map(_)) {
        // Hugo reads anything but a table as an empty one. `sitemap: false` is what a user
        // writes to keep a page out, so it does: the author's choice, counted in the
        // summary, not warned about (Hugo's own sitemap lists the page).
        if matches!(n.v, NodeValue::Bool(false)) {
            out.exclude = true;
        }
        return Ok(out);
    }
    // Hugo accepts any key there, so a stranger is a warning, not an error.
    for (k, v) in n.entries() {
        let known = SITEMAP_TABLE_KEYS;
        if !known.iter().any(|x| k.eq_ignore_ascii_case(x)) {
            let at: Vec<&str> = keys.iter().copied().chain([k.as_ref()]).collect();
            let hint = match crate::vocab::suggest::closest(k, known) {
                Some(x) => format!("did you mean `{x}`?"),
                None => "it takes `changefreq`, `priority` or `disable`".to_string(),
            };
            cx.warn(
                &at,
                v,
                format!("unknown key `{k}` in `{}`, ignored: {hint}", keys.join(".")),
            );
        }
    }
    let mut priority = None;
    let mut changefreq = None;
    if let Some(v) = n.get("priority") {
        priority = if strict {
            h.weak_float(v)
                .map_err(|_| refuse("priority", v, "a number"))?
        } else {
            Some(h.float_e(v).unwrap_or(0.0))
        };
    }
    if let Some(v) = n.get("changefreq") {
        changefreq = if strict {
            h.weak_string(v)
                .map_err(|_| refuse("changefreq", v, "text"))?
        } else {
            Some(h.string(v))
        };
    }
    if let Some(v) = n.get("filename").filter(|_| strict) {
        h.weak_string(v)
            .map_err(|_| refuse("filename", v, "text"))?;
    }
    if let Some(v) = n.get("disable").filter(|_| strict) {
        out.exclude = h
            .weak_bool(v)
            .map_err(|_| refuse("disable", v, "true or false"))?
            == Some(true);
    }
    // Hugo writes what it was given; the protocol's range and words are checked here.
    if let Some(p) = priority {
        if p < 0.0 {
            out.priority_off = true;
        } else if let Some(pr) = Priority::from_f64(p) {
            out.priority = Some(pr);
        } else if let Some(v) = n.get("priority") {
            cx.warn(
                &sub("priority"),
                v,
                format!(
                    "`{}` = {p} is above 1.0, the protocol's maximum: left out",
                    sub("priority").join(".")
                ),
            );
        }
    }
    if let Some(c) = changefreq.filter(|c| !c.trim().is_empty()) {
        match c.parse::<ChangeFreq>() {
            Ok(c) => out.changefreq = Some(c),
            Err(m) => {
                if let Some(v) = n.get("changefreq") {
                    cx.warn(
                        &sub("changefreq"),
                        v,
                        format!("`{}`: {m}; left out", sub("changefreq").join(".")),
                    );
                }
            }
        }
    }
    Ok(out)
}

/// `_build`/`build`: decoded weakly, as Hugo does; what does not decode stops the build.
/// `render` and `list` take Hugo's words exactly (`never`, not `Never`), booleans and 0/1.
fn build_options(keys: &[&str], n: &Node<'_>, cx: &Ctx<'_>, h: Hugo<'_>) -> Result<BuildOptions> {
    let refuse = |what: String| -> Error {
        cx.err(
            keys,
            n,
            format!("`{}` {what}, and Hugo {} stops the build here: write a table such as {{ render = \"never\" }}", keys.join("."), h.rules.version),
        )
    };
    match &n.v {
        // go-toml's date values are structs, which mapstructure decodes field by field:
        // none matches, nothing is set.
        NodeValue::Null | NodeValue::Date(_) => return Ok(BuildOptions::default()),
        NodeValue::Map(_) => {}
        _ => return Err(refuse("is not a table".into())),
    }
    let field = |name: &str| -> Result<Option<String>> {
        match n.get(name) {
            None => Ok(None),
            Some(v) => h
                .weak_string(v)
                .map_err(|_| refuse(format!("has a `{name}` that is not text"))),
        }
    };
    let render = field("render")?.map(|r| match r.as_str() {
        "0" | "never" => BuildRender::Never,
        "link" => BuildRender::Link,
        _ => BuildRender::Always,
    });
    if render == Some(BuildRender::Link)
        && keys.first() != Some(&"cascade")
        && let Some(v) = n.get("render")
    {
        let mut at: Vec<&str> = keys.to_vec();
        at.push("render");
        cx.warn(
                &at,
                v,
                format!("`{}: link`: the page gets a URL but no file: left out (Hugo's sitemap lists it, and it answers 404)", at.join(".")),
            );
    }
    let list = field("list")?.map(|l| match l.as_str() {
        "0" | "never" => BuildList::Never,
        "local" => BuildList::Local,
        _ => BuildList::Always,
    });
    if let Some(v) = n.get("publishresources") {
        h.weak_bool(v)
            .map_err(|_| refuse("has a `publishResources` that is not true or false".into()))?;
    }
    Ok(BuildOptions {
        render,
        list,
        given: true,
    })
}

/// `cascade`: a table, or a list of tables (other items skipped), each with an optional
/// `_target` (or, from Hugo 0.123, `target`). Anything else cascades nothing before Hugo
/// 0.112, and stops the build from it.
fn cascades(n: &Node<'_>, cx: &Ctx<'_>, h: Hugo<'_>, dates: &HugoDates) -> Result<Vec<Cascade>> {
    let items: Vec<&Node<'_>> =
        match &n.v {
            NodeValue::Map(_) => vec![n],
            NodeValue::List(items) => items
                .iter()
                .filter(|i| matches!(i.v, NodeValue::Map(_)))
                .collect(),
            NodeValue::Null => Vec::new(),
            _ if h.rules.cascade_strict => return Err(cx.err(
                &["cascade"],
                n,
                format!(
                    "`cascade` must be a table or a list of tables: Hugo {} stops the build here",
                    h.rules.version
                ),
            )),
            _ => Vec::new(),
        };
    // Before 0.112 Hugo read a cascade given as one table (not a list) without its
    // `_target`: it applies to every page below, the section itself too.
    let untargeted = !h.rules.cascade_strict && matches!(n.v, NodeValue::Map(_));
    items
        .into_iter()
        .map(|c| {
            let mut c = cascade(c, cx, h, dates)?;
            if untargeted {
                (c.target_path, c.target_kind, c.target_lang) = (None, None, None);
            }
            Ok(c)
        })
        .collect()
}

fn cascade(n: &Node<'_>, cx: &Ctx<'_>, h: Hugo<'_>, dates: &HugoDates) -> Result<Cascade> {
    let mut c = Cascade::default();
    let target = n
        .get("_target")
        .or_else(|| n.get("target").filter(|_| h.rules.build_key));
    if let Some(t) = target.filter(|t| matches!(t.v, NodeValue::Map(_))) {
        let text = |k: &str| t.get(k).map(|v| h.string(v)).filter(|s| !s.is_empty());
        c.target_path = text("path").map(|p| p.to_lowercase());
        // A path glob Hugo cannot read: from 0.161 the build stops at it; before, Hugo
        // passed it over, so the cascade reaches every page its other targets allow.
        if let Some(Err(e)) = c.target_path.as_deref().map(HugoGlob::new) {
            if h.rules.cascade_bad_glob_refused {
                let at = t.get("path").unwrap_or(t);
                let m = format!(
                    "bad cascade target path glob: {e} (Hugo {} stops the build here)",
                    h.rules.version
                );
                let key = match n.get("_target") {
                    Some(_) => "_target",
                    None => "target",
                };
                return Err(cx.err(&["cascade", key, "path"], at, m));
            }
            c.target_path = None;
        }
        c.target_kind = text("kind").map(|k| k.to_lowercase());
        c.target_lang = text("lang");
    }
    for (k, v) in n.entries() {
        let key = k.to_ascii_lowercase();
        if dates.key_id(&key).is_some() {
            continue;
        }
        match key.as_str() {
            "draft" => c.draft = Some(h.bool(v)),
            "published" if c.draft.is_none() => c.published = h.bool_e(v),
            "headless" => c.headless = Some(h.bool(v)),
            "slug" | "url" => {
                let u = h.string(v);
                if key == "url" && (u.starts_with("http://") || u.starts_with("https://")) {
                    return Err(cx.err(
                        &["cascade", "url"],
                        v,
                        format!("`cascade.url` = '{u}': Hugo supports no URL with a protocol here and stops the build"),
                    ));
                }
                if !u.is_empty() {
                    cx.warn(
                        &["cascade", &key],
                        v,
                        format!("`cascade.{key}` is not cascaded: Hugo gives every page below this one the {key} '{u}', which makes their URLs collide"),
                    );
                }
            }
            "outputs" => c.html_output = outputs(v, cx, h)?,
            // Ours, not Hugo's: `noindex` keeps the pages below out too.
            "noindex" if h.bool(v) => {
                c.sitemap_exclude = Some(true);
                c.noindex = true;
            }
            "tags" | "categories" if h.string_slice_e(v).is_some_and(|l| !l.is_empty()) => {
                cx.warn(
                    &["cascade", &key],
                    v,
                    format!("`cascade.{key}`: terms are not cascaded by sitemapgen (Hugo gives them to every page below, and lists their term pages)"),
                );
            }
            // From 0.123 a cascade's `params` merge into the pages' front matter, so a
            // `sitemap` there counts as one beside them (seen in 0.168.0; a page's own
            // `params.sitemap` does not; 0.111.3 reads neither).
            "params"
                if h.rules.cascade_params_sitemap
                    && n.get("sitemap").is_none()
                    && let Some(sm) = v.get("sitemap") =>
            {
                let sf = sitemap(sm, &["cascade", "params", "sitemap"], cx, h)?;
                c.sitemap_exclude = Some(c.sitemap_exclude == Some(true) || sf.exclude);
                c.priority = sf.priority;
                c.changefreq = sf.changefreq;
            }
            "sitemap" => {
                let sf = sitemap(v, &["cascade", "sitemap"], cx, h)?;
                if sf.exclude {
                    c.noindex = false;
                }
                c.sitemap_exclude = Some(c.sitemap_exclude == Some(true) || sf.exclude);
                c.priority = sf.priority;
                c.changefreq = sf.changefreq;
            }
            _ => {}
        }
    }
    let underscore = n.get("_build");
    let plain = n.get("build").filter(|_| h.rules.build_key);
    if let Some((name, b)) = underscore
        .map(|b| ("_build", b))
        .or(plain.map(|b| ("build", b)))
    {
        if name == "_build" && h.rules.underscore_build == UnderscoreBuild::Refused {
            // Hugo stops only when the cascade reaches a page.
            c.refused = Some((
                cx.line(&["cascade", "_build"], b),
                format!(
                    "the `_build` key was removed in Hugo 0.160 and Hugo {} stops the build where this cascade reaches a page: use `build`",
                    h.rules.version
                ),
            ));
        }
        c.build = build_options(&["cascade", name], b, cx, h)?;
    }
    // Dates: what each key the orders name holds, for the pages that leave it out.
    for (id, key) in dates.keys.iter().enumerate() {
        match read_date(n, &["cascade"], key, cx, h) {
            KeyDate::Date { written, when } => c.dates.push((id as u8, written.or(when))),
            KeyDate::Bad => {
                let mut errors = Vec::new();
                bad_date(n, &["cascade"], key, cx, h, false, &mut errors);
                if let Some(e) = Error::from_many(errors) {
                    return Err(e);
                }
            }
            KeyDate::Absent => {}
        }
    }
    let first = |order: &[DateSource]| -> Option<W3cDate> {
        let keys = keys_of(order);
        keys.iter()
            .find_map(|k| c.dates.iter().find(|(id, _)| id == k).map(|(_, d)| *d))
            .flatten()
    };
    (c.date, c.publish_date, c.expiry_date) = (
        first(&dates.date),
        first(&dates.publish_date),
        first(&dates.expiry_date),
    );
    c.updated = first(&dates.lastmod);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::{Options, parse};
    use std::path::Path;

    #[test]
    fn a_hugo_publish_date_that_is_the_date_boxes_nothing() {
        let hugo = Options {
            lenient: true,
            hugo: Some(crate::hugo::version::HugoRules::default()),
            dialect: Some(&HugoFrontMatter),
            ..Options::default()
        };
        let read = |text: &str| parse(text, Path::new("p.md"), &hugo).unwrap().0.meta;
        let date =
            |d: Option<crate::vocab::date::W3cDate>| d.map(|d| d.to_string()).unwrap_or_default();
        // Hugo's publishDate order falls back to `date`: most pages, nothing boxed.
        let m = read(
            "---
title: T
date: 2024-01-02
---
",
        );
        assert!(m.more.is_none(), "{m:?}");
        assert_eq!(date(m.publish_date()), "2024-01-02");
        // A publishDate of its own is kept apart, and wins.
        let m = read(
            "---
date: 2024-01-02
publishDate: 2024-03-04
---
",
        );
        assert_eq!(date(m.publish_date()), "2024-03-04");
        assert_eq!(date(m.date), "2024-01-02");
        // The same date written twice reads the same either way.
        let m = read(
            "---
date: 2024-01-02
publishDate: 2024-01-02
---
",
        );
        assert_eq!(date(m.publish_date()), "2024-01-02");
        let m = read(
            "---
title: T
---
",
        );
        assert_eq!((m.date, m.publish_date()), (None, None));
    }
}
