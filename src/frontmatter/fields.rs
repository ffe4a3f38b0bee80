//! The fields sitemapgen reads, taken from the neutral tree of any format: dates, sitemap
//! values, draft and build options, cascades, URL names, taxonomies. Bad values are errors
//! naming the file and line of their key.

use std::path::Path;

use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};

use super::formats::{Node, NodeValue};
use super::meta::{BuildList, BuildOptions, BuildRender, Cascade, MetaMore, Names};
use super::{Layout, Options, Parsed, line_of};
use crate::hugo::version::{BadDate, UnderscoreBuild};
use crate::vocab::crawl_hints::{ChangeFreq, Priority};

/// Where a block sits in its file, for error messages that point at the right line.
pub struct Ctx<'t> {
    pub(crate) path: &'t Path,
    pub(crate) block: &'t str,
    pub(crate) block_line: usize,
    /// The zone, leniency and whether titles are kept.
    pub(crate) opts: &'t Options,
    /// What lenient mode dropped.
    pub(crate) warnings: std::cell::RefCell<Vec<String>>,
}

impl Ctx<'_> {
    /// The file line of the value at `keys` (a path of map keys from the top).
    pub(crate) fn line(&self, keys: &[&str], node: &Node<'_>) -> usize {
        if let Some(at) = node.at {
            return self.block_line + line_of(self.block.as_bytes(), at.min(self.block.len())) - 1;
        }
        // YAML and JSON values carry no position: find the key's line in the block text,
        // each key searched from the line of its parent.
        let lines: Vec<&str> = self.block.lines().collect();
        let mut from = 0;
        for key in keys {
            match (from..lines.len()).find(|&i| line_has_key(lines[i], key)) {
                Some(i) => from = i,
                None => break,
            }
        }
        self.block_line + from
    }

    pub(crate) fn err(&self, keys: &[&str], node: &Node<'_>, message: String) -> Error {
        Error::input(self.path, Some(self.line(keys, node)), message)
    }

    /// The date at `keys`; `None` for a value the reading Hugo drops (warned about here).
    fn date(&self, keys: &[&str], node: &Node<'_>) -> Result<Option<W3cDate>> {
        let parsed = match &node.v {
            NodeValue::Str(s) => {
                W3cDate::parse(s, &self.opts.tz).or_else(|| self.hugo_date_form(s))
            }
            NodeValue::Date(d) => W3cDate::parse(&d.to_string(), &self.opts.tz),
            // Hugo reads an integer as Unix seconds.
            NodeValue::Int(secs) if self.opts.hugo.is_some() => {
                chrono::DateTime::from_timestamp(*secs, 0)
                    .map(|t| W3cDate::from_datetime(t.fixed_offset()))
                    .filter(W3cDate::is_writable)
            }
            _ => None,
        };
        if let Some(d) = parsed {
            return Ok(Some(d));
        }
        // Zola builds with what its types let through (a time of day, a year 0, an offset
        // past 14 hours, a YAML timestamp with one-digit parts) and writes it as it is, or
        // not at all: no sitemap reader takes it, so the page gets no date from it (warned).
        if self.opts.zola
            && matches!(node.v, NodeValue::Date(_) | NodeValue::Str(_))
            && keys != ["date"]
        {
            let shown = node.as_text().unwrap_or_default();
            self.warn(
                keys,
                node,
                format!("`{}` = '{shown}' is no date a sitemap can carry (Zola builds with it): the page gets no date from it", keys.join(".")),
            );
            return Ok(None);
        }
        let shown = node.as_text().unwrap_or_else(|| "this value".into());
        let name = keys.join(".");
        if self
            .opts
            .hugo
            .is_some_and(|h| h.bad_date == BadDate::Ignored)
        {
            self.warn(
                keys,
                node,
                format!(
                    "`{name}` = '{shown}' is not a date Hugo reads: Hugo ignores it, and so do we"
                ),
            );
            return Ok(None);
        }
        Err(self.err(
            keys,
            node,
            format!(
                "`{name}` = '{shown}' is not a date: write YYYY-MM-DD or an RFC 3339 date-time like 2024-01-31T12:00:00+01:00"
            ),
        ))
    }

    /// Forms only Hugo reads (Go's `02 Jan 2006`), none elsewhere.
    fn hugo_date_form(&self, s: &str) -> Option<W3cDate> {
        self.opts.hugo?;
        chrono::NaiveDate::parse_from_str(s.trim(), "%d %b %Y")
            .ok()
            .map(W3cDate::from_date)
            .filter(W3cDate::is_writable)
    }

    /// A date value Hugo reads as no date: an empty string or null (from 0.136.0; 0.135
    /// refused them, and before it they were dropped as unparsable).
    fn hugo_blank_date(&self, node: &Node<'_>) -> bool {
        let blank = node.is_blank() || matches!(node.v, NodeValue::Null);
        blank && self.opts.hugo.is_some_and(|h| !h.blank_date_refused)
    }

    /// A priority; `None` only in lenient mode, for a value Hugo accepts but writes no
    /// valid element for.
    ///
    /// The flag is true for Hugo's negative "not set" priority, which is `None` too.
    fn priority_lenient(&self, keys: &[&str], node: &Node<'_>) -> Result<(Option<Priority>, bool)> {
        if self.opts.lenient {
            let v = match &node.v {
                NodeValue::Float(f) => Some(*f),
                NodeValue::Int(i) => Some(*i as f64),
                NodeValue::Str(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            };
            // Hugo's default priority is -1, meaning "not set": Hugo omits the element.
            if v.is_some_and(|v| v < 0.0) {
                return Ok((None, true));
            }
            if v.is_some_and(|v| v > 1.0) {
                self.warn(
                    keys,
                    node,
                    format!(
                        "`{}` = {} is above 1.0, the protocol's maximum: left out",
                        keys.join("."),
                        v.unwrap_or_default()
                    ),
                );
                return Ok((None, false));
            }
        }
        let p = self.priority(keys, node);
        self.zola_warns(p).map(|p| (p, false))
    }

    /// Zola reads nothing in `extra`, so a value of ours there that we cannot use never stops
    /// a build Zola makes: it becomes a warning naming the file and line, and the value is
    /// left out. Elsewhere the error stands.
    fn zola_warns<T>(&self, r: Result<T>) -> Result<Option<T>> {
        match r {
            Err(e) if self.opts.zola => {
                self.warnings.borrow_mut().push(format!("{e}: left out"));
                Ok(None)
            }
            r => r.map(Some),
        }
    }

    /// A changefreq; `None` only in lenient mode, for a word the protocol does not know.
    fn changefreq_lenient(&self, keys: &[&str], node: &Node<'_>) -> Result<Option<ChangeFreq>> {
        if self.opts.lenient
            && let NodeValue::Str(s) = &node.v
            && let Err(m) = s.parse::<ChangeFreq>()
        {
            self.warn(keys, node, format!("`{}`: {m}; left out", keys.join(".")));
            return Ok(None);
        }
        let c = self.changefreq(keys, node);
        self.zola_warns(c)
    }

    pub(crate) fn warn(&self, keys: &[&str], node: &Node<'_>, message: String) {
        let line = self.line(keys, node);
        self.warnings
            .borrow_mut()
            .push(format!("{}:{line}: {message}", self.path.display()));
    }

    fn priority(&self, keys: &[&str], node: &Node<'_>) -> Result<Priority> {
        let p = match &node.v {
            NodeValue::Float(f) => Priority::from_f64(*f),
            NodeValue::Int(i) => Priority::from_f64(*i as f64),
            NodeValue::Str(s) => s.parse().ok(),
            _ => None,
        };
        p.ok_or_else(|| {
            let shown = node.as_text().unwrap_or_else(|| "this value".into());
            self.err(
                keys,
                node,
                format!(
                    "`{}` = '{shown}' is not a number from 0.0 to 1.0",
                    keys.join(".")
                ),
            )
        })
    }

    fn changefreq(&self, keys: &[&str], node: &Node<'_>) -> Result<ChangeFreq> {
        let text = match &node.v {
            NodeValue::Str(s) => Ok(s.as_ref()),
            _ => Err("it is not a string".to_string()),
        };
        text.and_then(|s| s.parse::<ChangeFreq>())
            .map_err(|m| self.err(keys, node, format!("`{}`: {m}", keys.join("."))))
    }

    fn bool(&self, keys: &[&str], node: &Node<'_>) -> Result<bool> {
        node.as_bool().ok_or_else(|| {
            self.err(
                keys,
                node,
                format!("`{}` must be true or false", keys.join(".")),
            )
        })
    }

    fn text(&self, keys: &[&str], node: &Node<'_>) -> Result<String> {
        node.as_text()
            .ok_or_else(|| self.err(keys, node, format!("`{}` must be a string", keys.join("."))))
    }

    fn int(&self, keys: &[&str], node: &Node<'_>) -> Result<i64> {
        let n = match &node.v {
            NodeValue::Int(i) => Some(*i),
            NodeValue::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => Some(*f as i64),
            NodeValue::Str(s) => s.trim().parse().ok(),
            _ => None,
        };
        n.ok_or_else(|| {
            self.err(
                keys,
                node,
                format!("`{}` must be a whole number", keys.join(".")),
            )
        })
    }
}

/// True when a YAML or JSON line sets `key` (any case, maybe quoted, maybe a list item).
fn line_has_key(line: &str, key: &str) -> bool {
    let t = line.trim_start().trim_start_matches("- ").trim_start();
    let t = t.strip_prefix(['"', '\'']).unwrap_or(t);
    if t.len() < key.len() || !t.is_char_boundary(key.len()) {
        return false;
    }
    let (head, rest) = t.split_at(key.len());
    if !head.eq_ignore_ascii_case(key) {
        return false;
    }
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    rest.trim_start().starts_with(':')
}

/// Keys whose list values are page settings, never taxonomy terms.
const NOT_TAXONOMIES: &[&str] = &[
    "aliases",
    "outputs",
    "menu",
    "menus",
    "resources",
    "cascade",
    "_build",
    "build",
    "extra",
    "sitemap",
];

/// Date keys seen so far, each group in its precedence order (first found wins).
#[derive(Default)]
struct DateSlots<'n, 'a> {
    updated: [Option<(&'static str, &'n Node<'a>)>; 4],
    date: Option<(&'static str, &'n Node<'a>)>,
    publish: [Option<(&'static str, &'n Node<'a>)>; 3],
    expiry: [Option<(&'static str, &'n Node<'a>)>; 2],
}

/// The dates a block sets: updated, date, publish, expiry.
type Dates = [Option<W3cDate>; 4];

impl<'n, 'a> DateSlots<'n, 'a> {
    /// Records a date key (lower-cased); false when `key` is not one.
    fn take(&mut self, key: &str, n: &'n Node<'a>) -> bool {
        let slot = match key {
            "updated" => &mut self.updated[0],
            "lastmod" => &mut self.updated[1],
            "last_modified_at" => &mut self.updated[2],
            "modified" => &mut self.updated[3],
            "date" => &mut self.date,
            "publishdate" => &mut self.publish[0],
            "pubdate" => &mut self.publish[1],
            "published" => &mut self.publish[2],
            "expirydate" => &mut self.expiry[0],
            "unpublishdate" => &mut self.expiry[1],
            _ => return false,
        };
        let name = match key {
            "updated" => "updated",
            "lastmod" => "lastmod",
            "last_modified_at" => "last_modified_at",
            "modified" => "modified",
            "date" => "date",
            "publishdate" => "publishDate",
            "pubdate" => "pubdate",
            "published" => "published",
            "expirydate" => "expiryDate",
            _ => "unpublishdate",
        };
        *slot = Some((name, n));
        true
    }

    /// Parses the winning key of each group; only the winner has to be a valid date. Where
    /// Hugo drops a value (blank, or unparsable before 0.135) the next key of the group is
    /// taken, as Hugo's date handlers fall through.
    fn finish(&self, cx: &Ctx<'_>, prefix: Option<&str>) -> Result<Dates> {
        let one = |slots: &[Option<(&'static str, &Node<'_>)>]| -> Result<Option<W3cDate>> {
            for (name, n) in slots.iter().flatten() {
                if cx.hugo_blank_date(n) {
                    continue;
                }
                let keys: Vec<&str> = prefix.into_iter().chain([*name]).collect();
                if let Some(d) = cx.date(&keys, n)? {
                    return Ok(Some(d));
                }
            }
            Ok(None)
        };
        Ok([
            one(&self.updated)?,
            one(std::slice::from_ref(&self.date))?,
            one(&self.publish)?,
            one(&self.expiry)?,
        ])
    }

    /// Hugo from 0.135 reads `published` as a date when no `publishDate` or `pubdate` comes
    /// first, so a boolean there fails its build; before, it is the inverse of `draft`.
    fn refuse_published_flag(&self, cx: &Ctx<'_>, flag: Option<(&Node<'_>, bool)>) -> Result<()> {
        let strict = cx.opts.hugo.is_some_and(|h| h.bad_date == BadDate::Refused);
        match flag {
            Some((n, _)) if strict && self.publish[..2].iter().all(Option::is_none) => Err(cx.err(
                &["published"],
                n,
                "`published` is not a parsable date (Hugo 0.135 and later read it as a date, and stop the build here): use `draft: true` or a date".into(),
            )),
            _ => Ok(()),
        }
    }
}

/// Sitemap settings of one table: its `priority`, `changefreq`, `noindex`, `sitemap`.
#[derive(Default)]
struct SitemapFields {
    priority: Option<Priority>,
    /// A negative (Hugo "not set") priority where `priority` is `None`.
    priority_off: bool,
    changefreq: Option<ChangeFreq>,
    /// `Some(true)` when the table excludes the page, `Some(false)` when it says to keep it.
    exclude: Option<bool>,
    /// A `sitemap` key (`false`, `disable = true`) excludes the page, not only `noindex`.
    off_by_sitemap: bool,
}

impl SitemapFields {
    /// Excluded by `noindex` alone, so reported as `noindex`, as the user wrote it.
    fn noindex_only(&self) -> bool {
        self.exclude == Some(true) && !self.off_by_sitemap
    }
}

/// The keys a front matter `sitemap` table takes (Hugo's `filename` is the site's business,
/// accepted and ignored on a page).
pub(crate) const SITEMAP_TABLE_KEYS: &[&str] = &["changefreq", "priority", "disable", "filename"];

/// Blank `priority`/`changefreq` strings count as unset (Hugo omits the element for them).
fn sitemap_fields<'n, 'a>(
    map: &'n Node<'a>,
    prefix: &[&str],
    cx: &Ctx<'_>,
) -> Result<SitemapFields> {
    let keys = |k: &'static str| -> Vec<&str> { prefix.iter().copied().chain([k]).collect() };
    let mut out = SitemapFields::default();
    let map_get = |m: &'n Node<'a>, k: &str| m.get(k).filter(|n| !n.is_blank());
    if let Some(n) = map_get(map, "priority") {
        (out.priority, out.priority_off) = cx.priority_lenient(&keys("priority"), n)?;
    }
    if let Some(n) = map_get(map, "changefreq") {
        out.changefreq = cx.changefreq_lenient(&keys("changefreq"), n)?;
    }
    if let Some(n) = map.get("noindex") {
        out.exclude = cx.zola_warns(cx.bool(&keys("noindex"), n))?;
    }
    let Some(sm) = map.get("sitemap") else {
        return Ok(out);
    };
    // Zola reads no `extra`: `extra.sitemap` is ours, `false` or a table; anything else
    // is not ours to read (left alone, warned about).
    if cx.opts.zola && !matches!(sm.v, NodeValue::Bool(_) | NodeValue::Map(_)) {
        let at = keys("sitemap");
        cx.warn(
            &at,
            sm,
            format!("`{}` is not `false` or a table: not read", at.join(".")),
        );
        return Ok(out);
    }
    let sk = keys("sitemap");
    if let NodeValue::Map(_) = sm.v {
        let sub = |k: &'static str| -> Vec<&str> { sk.iter().copied().chain([k]).collect() };
        // The generators accept any key there, so a stranger is a warning, not an error.
        for (k, v) in sm.entries() {
            if !SITEMAP_TABLE_KEYS
                .iter()
                .any(|known| k.eq_ignore_ascii_case(known))
            {
                let at: Vec<&str> = sk.iter().copied().chain([k.as_ref()]).collect();
                let hint = match crate::vocab::suggest::closest(k, SITEMAP_TABLE_KEYS) {
                    Some(known) => format!("did you mean `{known}`?"),
                    None => "it takes `changefreq`, `priority` or `disable`".to_string(),
                };
                cx.warn(
                    &at,
                    v,
                    format!("unknown key `{k}` in `{}`, ignored: {hint}", sk.join(".")),
                );
            }
        }
        // Hugo before 0.125 knows no `disable` there: it warns and lists the page.
        let reads_disable = cx.opts.hugo.is_none_or(|h| h.sitemap_disable);
        if let Some(n) = sm.get("disable").filter(|_| reads_disable)
            && let Some(disable) = cx.zola_warns(cx.bool(&sub("disable"), n))?
        {
            out.off_by_sitemap |= disable;
            out.exclude = Some(out.exclude == Some(true) || disable);
        }
        if let Some(n) = map_get(sm, "priority") {
            let (p, off) = cx.priority_lenient(&sub("priority"), n)?;
            // A top-level value, set or "not set", comes first.
            if out.priority.is_none() && !out.priority_off {
                (out.priority, out.priority_off) = (p, off);
            }
        }
        if let Some(n) = map_get(sm, "changefreq") {
            let c = cx.changefreq_lenient(&sub("changefreq"), n)?;
            out.changefreq = out.changefreq.or(c);
        }
    } else {
        let keep = cx.bool(&sk, sm).map_err(|_| {
            cx.err(
                &sk,
                sm,
                "`sitemap` must be `false` or a table such as `{ disable = true }`".into(),
            )
        })?;
        out.off_by_sitemap |= !keep;
        out.exclude = Some(out.exclude == Some(true) || !keep);
    }
    Ok(out)
}

/// Hugo `_build.render`: booleans (and the 0/1 they decode to) map to always/never; any
/// other value falls back to `always`, as Hugo's decoder does.
fn build_render(n: &Node<'_>) -> BuildRender {
    match &n.v {
        NodeValue::Bool(false) | NodeValue::Int(0) => BuildRender::Never,
        NodeValue::Str(s) if s.eq_ignore_ascii_case("never") || s.as_ref() == "0" => {
            BuildRender::Never
        }
        NodeValue::Str(s) if s.eq_ignore_ascii_case("link") => BuildRender::Link,
        _ => BuildRender::Always,
    }
}

/// Hugo `_build.list`, decoded the same way as `render`.
fn build_list(n: &Node<'_>) -> BuildList {
    match &n.v {
        NodeValue::Bool(false) | NodeValue::Int(0) => BuildList::Never,
        NodeValue::Str(s) if s.eq_ignore_ascii_case("never") || s.as_ref() == "0" => {
            BuildList::Never
        }
        NodeValue::Str(s) if s.eq_ignore_ascii_case("local") => BuildList::Local,
        _ => BuildList::Always,
    }
}

fn build_options(keys: &[&str], n: &Node<'_>, cx: &Ctx<'_>) -> Result<BuildOptions> {
    if !matches!(n.v, NodeValue::Map(_)) {
        return Err(cx.err(
            keys,
            n,
            format!(
                "`{}` must be a table such as {{ render = \"never\" }}",
                keys.join(".")
            ),
        ));
    }
    Ok(BuildOptions {
        render: n.get("render").map(build_render),
        list: n.get("list").map(build_list),
        given: true,
    })
}

fn cascades(n: &Node<'_>, cx: &Ctx<'_>) -> Result<Vec<Cascade>> {
    match &n.v {
        NodeValue::Map(_) => Ok(vec![cascade(n, cx)?]),
        NodeValue::List(items) => items.iter().map(|item| cascade(item, cx)).collect(),
        _ => Err(cx.err(
            &["cascade"],
            n,
            "`cascade` must be a table or a list of tables".into(),
        )),
    }
}

fn cascade(n: &Node<'_>, cx: &Ctx<'_>) -> Result<Cascade> {
    if !matches!(n.v, NodeValue::Map(_)) {
        return Err(cx.err(
            &["cascade"],
            n,
            "each `cascade` entry must be a table".into(),
        ));
    }
    let mut c = Cascade::default();
    let mut dates = DateSlots::default();
    let mut published = None;
    let mut build = [None, None];
    for (k, v) in n.entries() {
        let key = k.to_ascii_lowercase();
        match key.as_str() {
            "_target" | "target" => {
                c.target_path = v.get("path").and_then(Node::as_text);
                c.target_kind = v.get("kind").and_then(Node::as_text);
                c.target_lang = v.get("lang").and_then(Node::as_text);
            }
            "draft" => c.draft = Some(cx.bool(&["cascade", "draft"], v)?),
            "headless" => c.headless = Some(cx.bool(&["cascade", "headless"], v)?),
            "_build" => build[0] = Some(v),
            "build" => build[1] = Some(v),
            "published" if v.as_bool().is_some() => published = v.as_bool(),
            k => {
                dates.take(k, v);
            }
        }
    }
    if let Some((name, v)) = build_key(build, cx)? {
        c.build = build_options(&["cascade", name], v, cx)?;
    }
    c.draft = c.draft.or(published.map(|p| !p));
    let [updated, date, publish, expiry] = dates.finish(cx, Some("cascade"))?;
    (c.updated, c.date, c.publish_date, c.expiry_date) = (updated, date, publish, expiry);
    let sf = sitemap_fields(n, &["cascade"], cx)?;
    c.priority = sf.priority;
    c.changefreq = sf.changefreq;
    c.sitemap_exclude = sf.exclude;
    c.noindex = sf.noindex_only();
    Ok(c)
}

/// Reads the fields of the block at `layout` from its tree `root`.
pub(crate) fn from_tree(
    root: &Node<'_>,
    block: &str,
    layout: &Layout,
    path: &Path,
    opts: &Options,
) -> Result<Parsed> {
    let cx = Ctx {
        path,
        block,
        block_line: layout.block_line,
        opts,
        warnings: Default::default(),
    };
    let mut parsed = match (opts.dialect, layout.format) {
        (Some(dialect), Some(format)) => dialect.fields(root, &cx, format)?,
        _ => extract(root, &cx)?,
    };
    parsed.warnings = cx.warnings.into_inner();
    if let Some(rules) = &opts.images {
        parsed.images = image_values(root, rules);
    }
    Ok(parsed)
}

/// The values of the image keys `rules` names, in each of its tables, in the order of the
/// keys (a dotted key is a path of tables).
fn image_values(root: &Node<'_>, rules: &crate::images::SourceRules) -> Vec<String> {
    let mut out = Vec::new();
    for key in &rules.keys {
        for table in rules.tables {
            let start = if table.is_empty() {
                Some(root)
            } else {
                root.get(table)
            };
            let found = key
                .split('.')
                .try_fold(start, |node, part| Some(node?.get(part)))
                .flatten();
            if let Some(value) = found {
                front_matter_images(value, &mut out);
            }
        }
    }
    out
}

/// Front matter image values as themes read them: a string, each string of a list, or a
/// table's `image`, `src` or `url` (PaperMod's `cover.image`) unless the table says
/// `hidden` or `hiddenInSingle`; at most `MAX_IMAGES`.
fn front_matter_images(value: &Node<'_>, out: &mut Vec<String>) {
    match &value.v {
        NodeValue::Str(s) if !s.trim().is_empty() => out.push(s.trim().to_string()),
        NodeValue::List(items) => {
            for item in items.iter().take(crate::images::MAX_IMAGES) {
                front_matter_images(item, out);
            }
        }
        // A table that hides its image (PaperMod's `cover.hidden`, `hiddenInSingle`) shows
        // none on the page.
        NodeValue::Map(_)
            if ["hidden", "hiddeninsingle"]
                .iter()
                .any(|k| value.get(k).and_then(|v| v.as_bool()) == Some(true)) => {}
        NodeValue::Map(_) => {
            let inner = ["image", "src", "url"].iter().find_map(|k| value.get(k));
            if let Some(NodeValue::Str(s)) = inner.map(|v| &v.v)
                && !s.trim().is_empty()
            {
                out.push(s.trim().to_string());
            }
        }
        _ => {}
    }
    out.truncate(crate::images::MAX_IMAGES);
}

/// Reads every field sitemapgen uses from a parsed block, straight into the page record;
/// the taxonomy terms are handed back apart for packing.
pub(crate) fn extract(root: &Node<'_>, cx: &Ctx<'_>) -> Result<Parsed> {
    let mut out = Parsed::default();
    let meta = &mut out.meta;
    let mut names = Names::default();
    let mut more = MetaMore::default();
    let (mut draft, mut render) = (None, None);
    let mut dates = DateSlots::default();
    let mut published = None;
    let mut build: [Option<&Node<'_>>; 2] = [None, None];
    for (k, n) in root.entries() {
        // Zola's optional keys take null as "not set" (its types were checked already).
        if cx.opts.zola && matches!(n.v, NodeValue::Null) {
            continue;
        }
        let key = k.to_ascii_lowercase();
        let key = key.as_str();
        if dates.take(key, n) {
            // `published` is Hugo's inverse of `draft` when it is a boolean, a date otherwise.
            if key == "published"
                && let Some(b) = n.as_bool()
            {
                published = Some((n, b));
                dates.publish[2] = None;
            }
            continue;
        }
        match key {
            "title" => {
                let title = cx.text(&["title"], n)?;
                meta.set_has_title(true);
                // Only Hugo permalinks make URLs from titles: elsewhere it is not kept.
                if cx.opts.keep_title {
                    more.title = Some(title);
                }
            }
            "slug" | "path" => {
                let v = cx.text(&[key], n)?;
                // Zola stops at an empty slug ("can't be empty if present"), and an empty
                // path takes the home's URL, which it refuses as a collision.
                if cx.opts.zola && v.trim().is_empty() {
                    return Err(cx.err(
                        &[key],
                        n,
                        format!("`{key}` can't be empty if present: Zola refuses it"),
                    ));
                }
                if key == "slug" {
                    names.slug = Some(v);
                } else {
                    names.path = Some(v);
                }
            }
            "url" => more.url = Some(cx.text(&["url"], n)?),
            "translationkey" => more.translation_key = Some(cx.text(&["translationKey"], n)?),
            "lang" => more.lang = Some(cx.text(&["lang"], n)?),
            "draft" => draft = Some(cx.bool(&["draft"], n)?),
            "render" => render = Some(cx.bool(&["render"], n)?),
            "headless" => more.headless = cx.bool(&["headless"], n)?,
            "_build" => build[0] = Some(n),
            "build" => build[1] = Some(n),
            "cascade" => more.cascade = cascades(n, cx)?,
            "weight" => {
                cx.int(&["weight"], n)?;
                meta.set_has_weight(true);
            }
            // Redirects are never listed; a bad value is still an error, as in the generators.
            "aliases" => {
                let list = aliases(n, cx)?;
                if cx.opts.hugo.is_none() {
                    more.aliases = list;
                }
            }
            "transparent" => more.transparent = cx.bool(&["transparent"], n)?,
            "paginate_by" => {
                let v = cx.int(&["paginate_by"], n)?;
                more.paginate_by = Some(u32::try_from(v).map_err(|_| {
                    cx.err(
                        &["paginate_by"],
                        n,
                        "`paginate_by` must be a positive number".into(),
                    )
                })?);
            }
            "paginate_path" => more.paginate_path = Some(cx.text(&["paginate_path"], n)?),
            "sort_by" => more.sort_by = Some(cx.text(&["sort_by"], n)?),
            "redirect_to" => more.redirect_to = Some(cx.text(&["redirect_to"], n)?),
            "taxonomies" if matches!(n.v, NodeValue::Map(_)) => {
                for (name, terms) in n.entries() {
                    let list = terms.as_text_list().ok_or_else(|| {
                        cx.err(
                            &["taxonomies", name],
                            terms,
                            format!("`taxonomies.{name}` must be a list of terms"),
                        )
                    })?;
                    // As written: Zola matches a taxonomy's name exactly.
                    out.taxonomy_table.push((name.to_string(), list));
                }
            }
            // Hugo: a page whose outputs have no HTML is no page a visitor can open.
            "outputs" => {
                let formats = n.as_text_list().or_else(|| n.as_text().map(|s| vec![s]));
                more.html_output =
                    formats.map(|f| f.iter().any(|f| f.eq_ignore_ascii_case("html")));
            }
            k if NOT_TAXONOMIES.contains(&k) => {}
            k => {
                // Which keys are taxonomies depends on the site config: keep every list of
                // strings and let the router pick the declared ones. A lone string is one
                // term to Hugo (`author: Jane Doe`): kept apart, for the reader to keep only
                // where the key is a taxonomy (most string keys are not).
                if let Some(list) = n.as_text_list().filter(|l| !l.is_empty()) {
                    out.taxonomies.push((k.to_string(), list));
                } else if let (NodeValue::Str(term), true) = (&n.v, cx.opts.string_terms) {
                    out.taxonomy_strings.push((k.to_string(), term.to_string()));
                }
            }
        }
    }
    dates.refuse_published_flag(cx, published)?;
    // Hugo: an explicit `draft` wins over `published`.
    meta.set_draft(draft.or(published.map(|(_, p)| !p)));
    meta.set_render(render);
    if let Some((name, n)) = build_key(build, cx)? {
        more.build = build_options(&[name], n, cx)?;
    }
    let [updated, date, publish, expiry] = dates.finish(cx, None)?;
    (meta.updated, meta.date, more.expiry_date) = (updated, date, expiry);
    meta.set_publish_date(&mut more, publish);

    let top = sitemap_fields(root, &[], cx)?;
    let extra = match root.get("extra") {
        // Zola reads nothing in `extra`: a value we cannot use there is warned about.
        Some(e) if matches!(e.v, NodeValue::Map(_)) && cx.opts.zola => {
            match sitemap_fields(e, &["extra"], cx) {
                Ok(f) => f,
                Err(err) => {
                    let text = match &err {
                        Error::Input { message, .. } => message.clone(),
                        other => other.to_string(),
                    };
                    let line = match &err {
                        Error::Input { line: Some(l), .. } => *l,
                        _ => cx.block_line,
                    };
                    cx.warnings
                        .borrow_mut()
                        .push(format!("{}:{line}: {text}: left out", cx.path.display()));
                    SitemapFields::default()
                }
            }
        }
        Some(e) if matches!(e.v, NodeValue::Map(_)) => sitemap_fields(e, &["extra"], cx)?,
        _ => SitemapFields::default(),
    };
    meta.priority = top.priority.or(extra.priority);
    meta.set_priority_off(meta.priority.is_none() && (top.priority_off || extra.priority_off));
    meta.changefreq = top.changefreq.or(extra.changefreq);
    let off = top.exclude == Some(true) || extra.exclude == Some(true);
    meta.set_sitemap_exclude(off);
    more.noindex = off && !top.off_by_sitemap && !extra.off_by_sitemap;
    meta.set_names(names);
    meta.set_more(more);
    out.taxonomies.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The build options' key and value, `_build` first, as the reading Hugo takes them: `build`
/// from 0.123.0; `_build` deprecated from 0.145.0 (a warning) and refused from 0.160.0.
pub(crate) fn build_key<'n, 'a>(
    [underscore, plain]: [Option<&'n Node<'a>>; 2],
    cx: &Ctx<'_>,
) -> Result<Option<(&'static str, &'n Node<'a>)>> {
    let Some(hugo) = cx.opts.hugo else {
        return Ok(underscore
            .map(|n| ("_build", n))
            .or(plain.map(|n| ("build", n))));
    };
    if let Some(n) = underscore {
        const GONE: &str = "the `_build` front matter key was deprecated in Hugo 0.145.0";
        match hugo.underscore_build {
            UnderscoreBuild::Read => {}
            UnderscoreBuild::Deprecated => cx.warn(
                &["_build"],
                n,
                format!("{GONE} and will be removed: use `build`"),
            ),
            UnderscoreBuild::Refused => {
                return Err(cx.err(
                    &["_build"],
                    n,
                    format!(
                        "{GONE} and removed (Hugo {} stops the build here): use `build`",
                        hugo.version
                    ),
                ));
            }
        }
        return Ok(Some(("_build", n)));
    }
    Ok(plain.filter(|_| hugo.build_key).map(|n| ("build", n)))
}

/// `aliases`: one path or a list of them.
fn aliases(n: &Node<'_>, cx: &Ctx<'_>) -> Result<Vec<String>> {
    match (&n.v, n.as_text_list()) {
        (NodeValue::Str(s), _) => Ok(vec![s.to_string()]),
        (_, Some(list)) => Ok(list),
        _ => Err(cx.err(&["aliases"], n, "`aliases` must be a list of paths".into())),
    }
}

#[cfg(test)]
mod tests {
    use crate::frontmatter::testing::*;
    use crate::frontmatter::{BuildList, BuildOptions, BuildRender, Options, Terms, parse};
    use crate::vocab::crawl_hints::ChangeFreq;
    use crate::vocab::date::{SiteTz, W3cDate};
    use std::path::Path;

    #[test]
    fn image_keys_in_their_tables_strings_lists_and_cover_tables() {
        let rules = crate::images::SourceRules {
            tables: &["", "params"],
            keys: ["images", "cover", "hero.src", "featureimage"]
                .map(String::from)
                .to_vec(),
            shortcodes: None,
        };
        let opts = Options {
            images: Some(rules),
            ..Options::default()
        };
        let text = "---\nimages: [a.png, \"\", b.png]\ncover:\n  image: /c.jpg\n  hidden: false\nfeatureImage: d.webp\nhero: { src: e.png }\nthumbnail: not-a-key.png\nparams:\n  cover: { image: p.jpg, hiddenInSingle: true }\n---\n";
        let (parsed, _) = parse(text, Path::new("content/p.md"), &opts).unwrap();
        assert_eq!(
            parsed.images,
            ["a.png", "b.png", "/c.jpg", "e.png", "d.webp"]
        );
        // The cover in params hides itself (PaperMod's hiddenInSingle). Images off: nothing
        // is read.
        let (parsed, _) = parse(text, Path::new("content/p.md"), &Options::default()).unwrap();
        assert!(parsed.images.is_empty());
    }

    #[test]
    fn bad_values_give_the_line_of_their_key() {
        let (line, msg) = fails("+++\ntitle = \"x\"\n\n[extra]\npriority = 1.5\n+++\n");
        assert_eq!(line, 5);
        assert!(msg.contains("extra.priority"), "{msg}");
        let (line, msg) = fails("---\ntitle: x\nsitemap:\n  changefreq: fortnightly\n---\n");
        assert_eq!(line, 4);
        assert!(
            msg.contains("sitemap.changefreq") && msg.contains("fortnightly"),
            "{msg}"
        );
        let (line, msg) = fails("---\ntitle: x\n\"LastMod\": yesterday\n---\n");
        assert_eq!(line, 3);
        assert!(
            msg.contains("lastmod") && msg.contains("yesterday"),
            "{msg}"
        );
        let (line, msg) = fails("{\n\"title\": \"x\",\n\"date\": \"soon\"\n}\n");
        assert_eq!(line, 3);
        assert!(msg.contains("`date`"), "{msg}");
        let (line, _) = fails("+++\ndraft = \"maybe\"\n+++\n");
        assert_eq!(line, 2);
        let (line, _) = fails("+++\n[sitemap]\npriority = \"high\"\n+++\n");
        assert_eq!(line, 3);
        let (line, _) = fails("+++\ntitle = \"x\"\nexpiryDate = 12:00:00\n+++\n");
        assert_eq!(line, 3);
    }

    #[test]
    fn priority_changefreq_and_exclusion_from_every_place() {
        let f = fm("+++\npriority = \"0.3\"\nchangefreq = \"Daily\"\n+++\n");
        assert_eq!(
            f.meta.priority.map(|p| p.to_string()).as_deref(),
            Some("0.3")
        );
        assert_eq!(f.meta.changefreq, Some(ChangeFreq::Daily));
        assert!(!f.meta.sitemap_exclude());
        let f = fm("+++\n[sitemap]\n  changefreq = \"daily\"\n  priority = 0.6\n+++\n");
        assert_eq!(
            (f.meta.priority.map(|p| p.to_string()), f.meta.changefreq),
            (Some("0.6".into()), Some(ChangeFreq::Daily))
        );
        let f = fm("+++\n[extra]\npriority = 1\n[extra.sitemap]\nchangefreq = \"never\"\n+++\n");
        assert_eq!(
            (f.meta.priority.map(|p| p.to_string()), f.meta.changefreq),
            (Some("1.0".into()), Some(ChangeFreq::Never))
        );
        let f =
            fm("+++\npriority = 0.2\n[sitemap]\npriority = 0.9\n[extra]\npriority = 0.7\n+++\n");
        assert_eq!(
            f.meta.priority.map(|p| p.to_string()).as_deref(),
            Some("0.2")
        );
        for excluded in [
            "+++\nsitemap = false\n+++\n",
            "---\nsitemap:\n  disable: true\n---\n",
            "---\nNoIndex: true\n---\n",
            "+++\n[extra]\nnoindex = true\n+++\n",
            "+++\n[extra]\nsitemap = false\n+++\n",
            "+++\n[extra.sitemap]\ndisable = true\n+++\n",
            "{\"sitemap\": {\"disable\": true}}\n",
        ] {
            assert!(fm(excluded).meta.sitemap_exclude(), "{excluded}");
        }
        for kept in [
            "+++\nsitemap = true\n+++\n",
            "---\nsitemap:\n  disable: false\n---\n",
            "+++\nnoindex = false\n+++\n",
        ] {
            assert!(!fm(kept).meta.sitemap_exclude(), "{kept}");
        }
        assert!(
            fails("+++\nsitemap = \"no thanks\"\n+++\n")
                .1
                .contains("`sitemap` must be")
        );
        let f = fm("---\nsitemap:\n  changefreq: \"\"\n  priority: \" \"\n---\n");
        assert_eq!((f.meta.priority, f.meta.changefreq), (None, None));
    }

    #[test]
    fn date_keys_and_their_precedence() {
        let f = fm("---\ndate: 2023-01-30\npublishDate: 2023-02-15\nexpiryDate: 2030-01-01\n---\n");
        assert_eq!(
            (
                date(f.meta.date),
                date(f.meta.publish_date()),
                date(f.meta.more().expiry_date)
            ),
            (
                "2023-01-30".into(),
                "2023-02-15".into(),
                "2030-01-01".into()
            )
        );
        assert_eq!(f.meta.updated, None);
        // updated > lastmod > last_modified_at > modified, whatever order they are written in.
        let f = fm(
            "+++\nmodified = 2020-01-04\nlast_modified_at = 2020-01-03\nlastmod = 2020-01-02\nupdated = 2020-01-01\n+++\n",
        );
        assert_eq!(date(f.meta.updated), "2020-01-01");
        let f = fm(
            "+++\nmodified = 2020-01-04\nlast_modified_at = 2020-01-03\nlastmod = 2020-01-02\n+++\n",
        );
        assert_eq!(date(f.meta.updated), "2020-01-02");
        let f = fm("+++\nmodified = 2020-01-04\nlast_modified_at = 2020-01-03\n+++\n");
        assert_eq!(date(f.meta.updated), "2020-01-03");
        assert_eq!(
            date(fm("---\nmodified: 2023-07-01\n---\n").meta.updated),
            "2023-07-01"
        );
        // Only the winner must parse: a bad alias behind it is never read.
        assert_eq!(
            date(
                fm("+++\nupdated = 2020-01-01\nmodified = \"junk\"\n+++\n")
                    .meta
                    .updated
            ),
            "2020-01-01"
        );
        assert_eq!(
            date(fm("---\npubdate: 2023-01-29\n---\n").meta.publish_date()),
            "2023-01-29"
        );
        let f =
            fm("---\npubdate: 2023-01-29\npublishDate: 2023-01-28\npublished: 2023-01-27\n---\n");
        assert_eq!(date(f.meta.publish_date()), "2023-01-28");
        assert_eq!(
            date(fm("---\npublished: 2023-01-27\n---\n").meta.publish_date()),
            "2023-01-27"
        );
        assert_eq!(
            date(
                fm("---\nunpublishdate: 2001-01-01\n---\n")
                    .meta
                    .more()
                    .expiry_date
            ),
            "2001-01-01"
        );
        assert_eq!(
            date(
                fm("---\nunpublishdate: 2001-01-01\nexpirydate: 2002-02-02\n---\n")
                    .meta
                    .more()
                    .expiry_date
            ),
            "2002-02-02"
        );
    }

    #[test]
    fn keys_are_case_insensitive() {
        let f = fm(
            "---\ntitle: \"camel\"\nDate: 2023-02-02\nLastMod: 2023-08-08\nPublishDate: 2023-01-01\nExpiryDate: 2099-01-01\nSlug: UPPER-Slug-Key\nDRAFT: true\nTranslationKey: k\n---\n",
        );
        assert_eq!(date(f.meta.date), "2023-02-02");
        assert_eq!(date(f.meta.updated), "2023-08-08");
        assert_eq!(date(f.meta.publish_date()), "2023-01-01");
        assert_eq!(date(f.meta.more().expiry_date), "2099-01-01");
        assert_eq!(f.meta.slug(), Some("UPPER-Slug-Key"));
        assert_eq!(f.meta.draft(), Some(true));
        assert_eq!(f.meta.more().translation_key.as_deref(), Some("k"));
        let f = fm("+++\nPRIORITY = 0.5\n[SiteMap]\nChangeFreq = \"weekly\"\n+++\n");
        assert_eq!(
            (f.meta.priority.is_some(), f.meta.changefreq),
            (true, Some(ChangeFreq::Weekly))
        );
    }

    /// The date forms of the parity cases zola/11-updated-vs-date, hugo/11-dates and
    /// hugo/12-frontmatter-formats, with what Zola 0.22 and Hugo 0.111 made of them.
    #[test]
    fn parity_date_forms() {
        let cases: &[(&str, &str)] = &[
            // Zola, TOML.
            ("+++\ndate = 2021-01-01\n+++\n", "2021-01-01"),
            (
                "+++\ndate = 2021-04-05T06:07:08+02:00\n+++\n",
                "2021-04-05T06:07:08+02:00",
            ),
            (
                "+++\ndate = 2021-04-05T06:07:08Z\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = 2021-04-05T06:07:08\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = 2021-04-05T06:07:08.123456Z\n+++\n",
                "2021-04-05T06:07:08.123456+00:00",
            ),
            ("+++\ndate = \"2021-06-07\"\n+++\n", "2021-06-07"),
            (
                "+++\ndate = 2021-04-05 06:07:08Z\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = \"2021-04-05t06:07:08z\"\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            (
                "+++\ndate = \"2021-4-5 6:07:08\"\n+++\n",
                "2021-04-05T06:07:08+00:00",
            ),
            // Hugo, TOML.
            (
                "+++\ndate = 2023-02-10T10:20:30-03:00\n+++\n",
                "2023-02-10T10:20:30-03:00",
            ),
            ("+++\ndate = 2023-02-13\n+++\n", "2023-02-13"),
            (
                "+++\ndate = \"2023-02-14T10:20:30+01:00\"\n+++\n",
                "2023-02-14T10:20:30+01:00",
            ),
            (
                "+++\ndate = 2023-02-15 10:20:30+02:00\n+++\n",
                "2023-02-15T10:20:30+02:00",
            ),
            // Hugo, YAML.
            ("---\ndate: 2023-01-15\n---\n", "2023-01-15"),
            ("---\ndate: \"2023-01-16\"\n---\n", "2023-01-16"),
            (
                "---\ndate: 2023-01-17T10:20:30+05:30\n---\n",
                "2023-01-17T10:20:30+05:30",
            ),
            (
                "---\ndate: 2023-01-18T10:20:30Z\n---\n",
                "2023-01-18T10:20:30+00:00",
            ),
            (
                "---\ndate: 2023-01-19T10:20:30.123456789-08:00\n---\n",
                "2023-01-19T10:20:30.123456789-08:00",
            ),
            (
                "---\ndate: 2023-01-20 10:20:30\n---\n",
                "2023-01-20T10:20:30+00:00",
            ),
            (
                "---\ndate: 2023-01-21T10:20:30\n---\n",
                "2023-01-21T10:20:30+00:00",
            ),
            (
                "---\ndate: \"2023-01-22T10:20:30-0700\"\n---\n",
                "2023-01-22T10:20:30-07:00",
            ),
            (
                "---\ndate: \"Mon, 23 Jan 2023 10:20:30 +0100\"\n---\n",
                "2023-01-23T10:20:30+01:00",
            ),
            (
                "---\ndate: \"Tue, 24 Jan 2023 10:20:30 CET\"\n---\n",
                "2023-01-24T10:20:30+00:00",
            ),
            // Hugo, JSON.
            (
                "{\n  \"date\": \"2023-03-01T10:20:30+02:00\"\n}\n",
                "2023-03-01T10:20:30+02:00",
            ),
            ("{\n  \"date\": \"2023-03-02\"\n}\n", "2023-03-02"),
        ];
        for (text, want) in cases {
            assert_eq!(date(fm(text).meta.date), *want, "{text}");
        }
        // hugo/11-dates: lastmod and publishDate in the forms the case uses.
        let f =
            fm("{\n  \"date\": \"2023-03-02\",\n  \"lastmod\": \"2023-03-03T00:00:00-05:00\"\n}\n");
        assert_eq!(date(f.meta.updated), "2023-03-03T00:00:00-05:00");
        let f = fm("---\npublishDate: 2023-01-26T08:00:00+09:00\n---\n");
        assert_eq!(date(f.meta.publish_date()), "2023-01-26T08:00:00+09:00");
        let f = fm("---\ndate: 2023-05-01\nlastmod: 2023-02-01\n---\n");
        assert_eq!(
            (date(f.meta.date), date(f.meta.updated)),
            ("2023-05-01".into(), "2023-02-01".into())
        );
    }

    #[test]
    fn zola_reads_no_dates_from_extra() {
        let f = fm("+++\ntitle = \"date in extra only\"\n[extra]\nlastmod = 2020-01-01\n+++\nx\n");
        assert_eq!((f.meta.updated, f.meta.date), (None, None));
    }

    #[test]
    fn naive_dates_take_the_site_zone() {
        let opts = Options {
            tz: "Europe/Berlin".parse().unwrap(),
            ..Options::default()
        };
        let (f, _) = parse(
            "+++\ndate = 2023-07-01T12:00:00\n+++\n",
            Path::new("p.md"),
            &opts,
        )
        .unwrap();
        assert_eq!(date(f.meta.date), "2023-07-01T12:00:00+02:00");
        let (f, _) = parse(
            "---\ndate: 2023-01-01 12:00:00\n---\n",
            Path::new("p.md"),
            &opts,
        )
        .unwrap();
        assert_eq!(date(f.meta.date), "2023-01-01T12:00:00+01:00");
    }

    #[test]
    fn draft_and_published() {
        assert_eq!(fm("+++\ndraft = true\n+++\n").meta.draft(), Some(true));
        assert_eq!(fm("---\ndraft: false\n---\n").meta.draft(), Some(false));
        assert_eq!(fm("---\ndraft: \"true\"\n---\n").meta.draft(), Some(true));
        assert_eq!(fm("---\ndraft: yes\n---\n").meta.draft(), Some(true));
        assert_eq!(fm("---\npublished: false\n---\n").meta.draft(), Some(true));
        assert_eq!(fm("---\npublished: true\n---\n").meta.draft(), Some(false));
        let f = fm("---\npublished: false\n---\n");
        assert_eq!(f.meta.publish_date(), None);
        // Hugo: `draft` wins when both are set.
        assert_eq!(
            fm("---\npublished: false\ndraft: false\n---\n")
                .meta
                .draft(),
            Some(false)
        );
        assert_eq!(fm("---\ntitle: x\n---\n").meta.draft(), None);
    }

    #[test]
    fn zola_render_and_section_keys() {
        let f = fm(
            "+++\nrender = false\ntransparent = true\npaginate_by = 5\npaginate_path = \"p\"\nsort_by = \"date\"\nredirect_to = \"/x/\"\nweight = 3\n+++\n",
        );
        assert_eq!(f.meta.render(), Some(false));
        assert!(f.meta.more().transparent);
        assert_eq!(f.meta.more().paginate_by, Some(5));
        assert_eq!(f.meta.more().paginate_path.as_deref(), Some("p"));
        assert_eq!(f.meta.more().sort_by.as_deref(), Some("date"));
        assert_eq!(f.meta.more().redirect_to.as_deref(), Some("/x/"));
        assert!(f.meta.has_weight());
        assert_eq!(fails("+++\npaginate_by = -1\n+++\n").0, 2);
        assert_eq!(fails("+++\nweight = \"heavy\"\n+++\n").0, 2);
    }

    #[test]
    fn lenient_mode_drops_what_hugo_accepts_and_the_protocol_forbids() {
        let f = lenient(
            "---\ntitle: x\nsitemap:\n  changefreq: every-now-and-then\n  priority: -1\n---\n",
        );
        assert_eq!((f.meta.priority, f.meta.changefreq), (None, None));
        // -1 is Hugo's "not set": no warning, and no priority at all for the page.
        assert!(f.meta.priority_off());
        assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
        assert!(
            f.warnings[0].starts_with("content/p.md:4: ")
                && f.warnings[0].contains("every-now-and-then"),
            "{:?}",
            f.warnings
        );
        let f = lenient("+++\n[sitemap]\npriority = 1.5\nchangefreq = \"weekly\"\n+++\n");
        assert_eq!((f.meta.priority, f.meta.priority_off()), (None, false));
        assert_eq!(f.meta.changefreq, Some(ChangeFreq::Weekly));
        assert!(
            f.warnings[0].contains("content/p.md:3:"),
            "{:?}",
            f.warnings
        );
        // Valid values are kept and give no warning; a non-number is still an error.
        let f = lenient("---\nsitemap:\n  priority: 0.4\n---\n");
        assert_eq!(
            f.meta.priority.map(|p| p.to_string()).as_deref(),
            Some("0.4")
        );
        assert!(f.warnings.is_empty());
        assert!(
            parse(
                "---\nsitemap:\n  priority: high\n---\n",
                Path::new("p.md"),
                &opts(true),
            )
            .is_err()
        );
        // Strict mode (Zola, plain) rejects both.
        fails("---\nsitemap:\n  priority: -1\n---\n");
        fails("---\nsitemap:\n  changefreq: every-now-and-then\n---\n");
    }

    #[test]
    fn hugo_headless_and_build_options() {
        assert!(fm("---\nheadless: true\n---\n").meta.more().headless);
        let f = fm(
            "+++\n[_build]\nrender = \"never\"\nlist = \"local\"\npublishResources = false\n+++\n",
        );
        assert_eq!(
            f.meta.more().build,
            BuildOptions {
                render: Some(BuildRender::Never),
                list: Some(BuildList::Local),
                given: true,
            }
        );
        let f = fm("---\nbuild:\n  render: link\n  list: never\n---\n");
        assert_eq!(
            f.meta.more().build,
            BuildOptions {
                render: Some(BuildRender::Link),
                list: Some(BuildList::Never),
                given: true,
            }
        );
        let f = fm("+++\n[_build]\nrender = false\nlist = true\n+++\n");
        assert_eq!(
            f.meta.more().build,
            BuildOptions {
                render: Some(BuildRender::Never),
                list: Some(BuildList::Always),
                given: true,
            }
        );
        // Hugo's decoder treats unknown values as the default.
        let f = fm("+++\n[_build]\nrender = \"sometimes\"\n+++\n");
        assert_eq!(f.meta.more().build.render, Some(BuildRender::Always));
        assert_eq!(f.meta.more().build.list, None);
        assert_eq!(fails("+++\n_build = \"never\"\n+++\n").0, 2);
    }

    #[test]
    fn page_meta_boxes_only_the_rarer_fields() {
        let text = "+++\ntitle = \"T\"\ndate = 2024-01-02\nweight = 3\n[taxonomies]\ntags = [\"a\"]\n+++\n";
        let plain = fm(text);
        let packed = Terms::pack(&plain.taxonomies, &plain.taxonomy_table);
        let terms = Terms::from_packed(&packed);
        assert!(terms.get("tags", true).is_some() && terms.get("tags", false).is_none());
        let drop_title = |text: &str| parse(text, Path::new("p.md"), &Options::default());
        let m = drop_title(text).unwrap().0.meta;
        assert!(m.more.is_none(), "{m:?}");
        assert!(m.has_title() && m.has_weight());
        assert_eq!(m.date, W3cDate::parse("2024-01-02", &SiteTz::Utc));
        assert_eq!(m.more().title, None);
        assert_eq!(plain.meta.more().title.as_deref(), Some("T"));

        let section = "+++\ntitle = \"T\"\npaginate_by = 5\nsort_by = \"date\"\n+++\n";
        let m = fm(section).meta;
        assert_eq!(m.more().paginate_by, Some(5));
        assert_eq!(m.more().sort_by.as_deref(), Some("date"));
        assert_eq!(m.more().title.as_deref(), Some("T"));
        let m = drop_title(section).unwrap().0.meta;
        assert_eq!(
            (m.more().title.as_deref(), m.more().paginate_by),
            (None, Some(5))
        );
    }

    #[test]
    fn cascade_as_table_or_list() {
        let f = fm(
            "+++\n[cascade]\ndraft = true\n[cascade._target]\npath = \"/blog/**\"\nkind = \"page\"\nlang = \"en\"\n+++\n",
        );
        assert_eq!(f.meta.more().cascade.len(), 1);
        let c = &f.meta.more().cascade[0];
        assert_eq!(c.draft, Some(true));
        assert_eq!(c.target_path.as_deref(), Some("/blog/**"));
        assert_eq!(c.target_kind.as_deref(), Some("page"));
        assert_eq!(c.target_lang.as_deref(), Some("en"));
        let f = fm(
            "---\ncascade:\n  - _build:\n      render: never\n      list: never\n    _target:\n      kind: section\n  - headless: true\n    sitemap:\n      disable: true\n      priority: 0.1\n    changefreq: monthly\n    expiryDate: 2000-01-01\n    lastmod: 2022-02-02\n    publishDate: 2099-01-01\n    date: 2021-01-01\n---\n",
        );
        assert_eq!(f.meta.more().cascade.len(), 2);
        assert_eq!(
            f.meta.more().cascade[0].build.render,
            Some(BuildRender::Never)
        );
        assert_eq!(f.meta.more().cascade[0].build.list, Some(BuildList::Never));
        assert_eq!(
            f.meta.more().cascade[0].target_kind.as_deref(),
            Some("section")
        );
        let c = &f.meta.more().cascade[1];
        assert_eq!(c.headless, Some(true));
        assert_eq!(c.sitemap_exclude, Some(true));
        assert_eq!(c.priority.map(|p| p.to_string()).as_deref(), Some("0.1"));
        assert_eq!(c.changefreq, Some(ChangeFreq::Monthly));
        assert_eq!(
            (date(c.expiry_date), date(c.updated)),
            ("2000-01-01".into(), "2022-02-02".into())
        );
        assert_eq!(
            (date(c.publish_date), date(c.date)),
            ("2099-01-01".into(), "2021-01-01".into())
        );
        // The page's own fields are untouched by its cascade.
        assert!(!f.meta.more().headless);
        let (line, msg) = fails("---\ntitle: x\ncascade:\n  lastmod: never\n---\n");
        assert_eq!(line, 4);
        assert!(msg.contains("cascade.lastmod"), "{msg}");
        assert_eq!(fails("+++\ncascade = 3\n+++\n").0, 2);
    }

    #[test]
    fn routing_keys_and_aliases() {
        let f = fm(
            "+++\nslug = \"s\"\npath = \"/p/\"\nurl = \"/u/\"\nlang = \"fr\"\naliases = [\"/a/\", \"/b/\"]\n+++\n",
        );
        assert_eq!(
            (f.meta.slug(), f.meta.path(), f.meta.more().url.as_deref()),
            (Some("s"), Some("/p/"), Some("/u/"))
        );
        assert_eq!(f.meta.more().lang.as_deref(), Some("fr"));
        // Aliases are checked, and kept only where Zola's path collisions need them (Hugo's
        // are not): redirects are never listed.
        assert_eq!(
            f.meta.more().aliases,
            vec!["/a/".to_string(), "/b/".to_string()]
        );
        assert_eq!(
            fm("---\naliases: /one/\n---\n").meta.more().aliases,
            vec!["/one/".to_string()]
        );
        assert_eq!(fm("---\nslug: 2023\n---\n").meta.slug(), Some("2023"));
        assert_eq!(fails("+++\n[slug]\na = 1\n+++\n").0, 2);
        assert_eq!(fails("+++\naliases = [{ a = 1 }]\n+++\n").0, 2);
    }

    #[test]
    fn taxonomies_from_zola_table_and_top_level_lists() {
        let f = fm(
            "+++\ntags = [\"top\"]\n[taxonomies]\nTags = [\"Rust\", \"web\"]\ncategories = [\"dev\"]\n+++\n",
        );
        assert_eq!(
            f.taxonomy_table,
            vec![
                // As written: Zola matches taxonomy names exactly.
                (
                    "Tags".to_string(),
                    vec!["Rust".to_string(), "web".to_string()]
                ),
                ("categories".to_string(), vec!["dev".to_string()]),
            ]
        );
        assert_eq!(
            f.taxonomies,
            vec![("tags".to_string(), vec!["top".to_string()])]
        );
        let f = fm(
            "---\ntags: [b, a]\nSeries: [\"S1\"]\naliases: [\"/x/\"]\noutputs: [html]\nempty: []\nnumbers: [2023]\nmixed: [a, {b: 1}]\n---\n",
        );
        let names: Vec<&str> = f.taxonomies.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["numbers", "series", "tags"]);
        assert!(f.taxonomy_table.is_empty());
        assert_eq!(f.taxonomies[2].1, ["b", "a"]);
        assert_eq!(f.taxonomies[0].1, ["2023"]);
        assert_eq!(fails("+++\n[taxonomies]\ntags = \"one\"\n+++\n").0, 3);
    }
}
