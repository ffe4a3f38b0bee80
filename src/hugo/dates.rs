//! Hugo's four page dates (`.Date`, `.Lastmod`, `.PublishDate`, `.ExpiryDate`) as the
//! site's `[frontmatter]` config orders them: each a list of front matter keys and the
//! handlers `:git`, `:fileModTime` and `:filename`, the first that yields a date winning.

use crate::vocab::date::W3cDate;

/// One entry of a date order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateSource {
    /// A front matter key: its index in [`HugoDates::keys`].
    Key(u8),
    /// `:git`: the last commit's author date (only with `enableGitInfo`).
    Git,
    /// `:fileModTime`.
    ModTime,
    /// `:filename`: a date the file name starts with.
    FileName,
}

/// The site's date orders, expanded as Hugo expands them: `:default` replaced by Hugo's
/// own order, each key followed by its aliases (`lastmod` by `modified`, `publishDate` by
/// `pubdate` and `published`, `expiryDate` by `unpublishdate`), repeats dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HugoDates {
    /// Every front matter key the orders name, lower-cased, in order of first mention.
    pub keys: Vec<String>,
    /// `.Date`.
    pub date: Vec<DateSource>,
    /// `.Lastmod`.
    pub lastmod: Vec<DateSource>,
    /// `.PublishDate`.
    pub publish_date: Vec<DateSource>,
    /// `.ExpiryDate`.
    pub expiry_date: Vec<DateSource>,
    /// Whether the site set any order itself (for `--verbose`).
    pub configured: bool,
}

/// Hugo's defaults, before `:default` and aliases are expanded.
const DEFAULT_DATE: [&str; 3] = ["date", "publishdate", "lastmod"];
const DEFAULT_LASTMOD: [&str; 4] = [":git", "lastmod", "date", "publishdate"];
const DEFAULT_PUBLISH: [&str; 2] = ["publishdate", "date"];
const DEFAULT_EXPIRY: [&str; 1] = ["expirydate"];

/// The keys a key brings after it (Hugo's `dateFieldAliases`).
fn aliases(key: &str) -> &'static [&'static str] {
    match key {
        "lastmod" => &["modified"],
        "publishdate" => &["pubdate", "published"],
        "expirydate" => &["unpublishdate"],
        _ => &[],
    }
}

/// The most keys a page records as present (a bit each in [`crate::frontmatter::PageMeta`]):
/// cascades fill only keys a page leaves out.
pub const MAX_MASKED_KEYS: usize = 16;

impl Default for HugoDates {
    fn default() -> Self {
        HugoDates::new(None, None, None, None)
    }
}

impl HugoDates {
    /// The orders from the config's `[frontmatter]` lists (lower-cased), each `None` where
    /// the config sets none.
    pub fn new(
        date: Option<Vec<String>>,
        lastmod: Option<Vec<String>>,
        publish_date: Option<Vec<String>>,
        expiry_date: Option<Vec<String>>,
    ) -> HugoDates {
        let configured =
            date.is_some() || lastmod.is_some() || publish_date.is_some() || expiry_date.is_some();
        let mut keys = Vec::new();
        let mut order = |given: Option<Vec<String>>, default: &[&str]| -> Vec<DateSource> {
            let given = given.unwrap_or_else(|| default.iter().map(|s| s.to_string()).collect());
            let mut names: Vec<String> = Vec::new();
            for name in given {
                let expanded: Vec<String> = if name == ":default" {
                    default.iter().map(|s| s.to_string()).collect()
                } else {
                    vec![name]
                };
                for n in expanded {
                    let more = aliases(&n);
                    for m in std::iter::once(n.as_str()).chain(more.iter().copied()) {
                        if !names.iter().any(|x| x == m) {
                            names.push(m.to_string());
                        }
                    }
                }
            }
            names
                .into_iter()
                .map(|n| match n.as_str() {
                    ":git" => DateSource::Git,
                    ":filemodtime" => DateSource::ModTime,
                    ":filename" => DateSource::FileName,
                    _ => {
                        let id = keys.iter().position(|k| *k == n).unwrap_or_else(|| {
                            keys.push(n.clone());
                            keys.len() - 1
                        });
                        DateSource::Key(u8::try_from(id).unwrap_or(u8::MAX))
                    }
                })
                .collect()
        };
        let date = order(date, &DEFAULT_DATE);
        let lastmod = order(lastmod, &DEFAULT_LASTMOD);
        let publish_date = order(publish_date, &DEFAULT_PUBLISH);
        let expiry_date = order(expiry_date, &DEFAULT_EXPIRY);
        HugoDates {
            keys,
            date,
            lastmod,
            publish_date,
            expiry_date,
            configured,
        }
    }

    /// The id of a front matter key (lower-cased) the orders name.
    pub fn key_id(&self, key: &str) -> Option<u8> {
        self.keys
            .iter()
            .position(|k| k == key)
            .and_then(|i| u8::try_from(i).ok())
    }

    /// `.Lastmod`'s front matter keys in runs between the other handlers: the date of run
    /// `k` is the page's lastmod group `k` ([`crate::frontmatter::PageMeta::updated`] for
    /// the first, [`crate::frontmatter::MetaMore::lastmod_more`] for the rest).
    pub fn lastmod_groups(&self) -> Vec<Vec<u8>> {
        let mut groups: Vec<Vec<u8>> = Vec::new();
        let mut open = false;
        for s in &self.lastmod {
            match s {
                DateSource::Key(k) => {
                    if !open {
                        groups.push(Vec::new());
                        open = true;
                    }
                    if let Some(g) = groups.last_mut() {
                        g.push(*k);
                    }
                }
                _ => open = false,
            }
        }
        groups
    }
}

/// What one date key of a page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyDate {
    /// Not set (absent, null or empty): the order goes on.
    Absent,
    /// A date, which ends the order: `written` is what a sitemap may carry (`None` for
    /// Hugo's zero date and for a date no sitemap can carry, such as year 0), `when` the
    /// instant publishing compares (`None` only for the zero date).
    Date {
        /// The date as written.
        written: Option<W3cDate>,
        /// The date as compared.
        when: Option<W3cDate>,
    },
    /// A value Hugo cannot read as a date.
    Bad,
}

/// A page's four dates as its orders give them from its front matter keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageDates {
    /// `.Date` (as written).
    pub date: Option<W3cDate>,
    /// `.Lastmod` from each run of keys in the lastmod order (as written).
    pub lastmod: Vec<Option<W3cDate>>,
    /// `.PublishDate` (as compared).
    pub publish: Option<W3cDate>,
    /// `.ExpiryDate` (as compared).
    pub expiry: Option<W3cDate>,
}

/// A bad value an order reached: its key, and whether a handler (`:git`, …) came before it
/// in that order (Hugo may then never read it).
pub type BadReached = (u8, bool);

impl HugoDates {
    /// Evaluates the four orders over a page's keys (`value` of a key id), in Hugo's order
    /// (date, lastmod, publishDate, expiryDate). With `reentry` (Hugo 0.123 on) a key the
    /// page leaves out that names an earlier date (`date` in the publishDate order) takes
    /// that date, as Hugo reads its orders from the params the earlier ones set.
    pub fn evaluate(
        &self,
        reentry: bool,
        value: impl Fn(u8) -> KeyDate,
    ) -> (PageDates, Vec<BadReached>) {
        let mut bad = Vec::new();
        // The dates set so far, by canonical key: (written, when).
        let mut done: Vec<(&str, Option<W3cDate>, Option<W3cDate>)> = Vec::new();
        let run = |order: &[DateSource],
                   done: &[(&str, Option<W3cDate>, Option<W3cDate>)],
                   bad: &mut Vec<BadReached>|
         -> Option<(Option<W3cDate>, Option<W3cDate>)> {
            let mut handler_before = false;
            for s in order {
                let DateSource::Key(k) = *s else {
                    handler_before = true;
                    continue;
                };
                match value(k) {
                    KeyDate::Date { written, when } => return Some((written, when)),
                    KeyDate::Bad => bad.push((k, handler_before)),
                    KeyDate::Absent if reentry => {
                        let name = self.keys.get(k as usize).map(String::as_str);
                        if let Some((_, w, c)) = done.iter().find(|(n, ..)| Some(*n) == name) {
                            return Some((*w, *c));
                        }
                    }
                    KeyDate::Absent => {}
                }
            }
            None
        };
        let date = run(&self.date, &done, &mut bad);
        if let Some((w, c)) = date {
            done.push(("date", w, c));
        }
        let lastmod = run(&self.lastmod, &done, &mut bad);
        let groups: Vec<Option<W3cDate>> = self
            .lastmod_groups()
            .iter()
            .map(|g| {
                let order: Vec<DateSource> = g.iter().map(|k| DateSource::Key(*k)).collect();
                run(&order, &done, &mut Vec::new()).and_then(|(w, _)| w)
            })
            .collect();
        if let Some((w, c)) = lastmod {
            done.push(("lastmod", w, c));
        }
        let publish = run(&self.publish_date, &done, &mut bad);
        if let Some((w, c)) = publish {
            done.push(("publishdate", w, c));
        }
        let expiry = run(&self.expiry_date, &done, &mut bad);
        bad.sort_unstable();
        bad.dedup_by_key(|(k, _)| *k);
        (
            PageDates {
                date: date.and_then(|(w, _)| w),
                lastmod: groups,
                publish: publish.and_then(|(_, c)| c),
                expiry: expiry.and_then(|(_, c)| c),
            },
            bad,
        )
    }
}

impl HugoDates {
    /// A page's dates once cascades fill the date keys it leaves out: each order read again,
    /// a key the page sets (`own_sets`) giving the page's own result for that order (its
    /// first own key is the one it took), a key it leaves out the cascade's (`cascaded`).
    pub fn merge(
        &self,
        reentry: bool,
        own: &PageDates,
        own_sets: impl Fn(u8) -> bool,
        cascaded: impl Fn(u8) -> Option<Option<W3cDate>>,
    ) -> PageDates {
        let mut done: Vec<(&str, Option<W3cDate>)> = Vec::new();
        let run = |order: &[DateSource], own: Option<W3cDate>, done: &[(&str, Option<W3cDate>)]| {
            for s in order {
                let DateSource::Key(k) = *s else { continue };
                if own_sets(k) {
                    return own;
                }
                if let Some(d) = cascaded(k) {
                    return d;
                }
                if reentry {
                    let name = self.keys.get(k as usize).map(String::as_str);
                    if let Some((_, d)) = done.iter().find(|(n, _)| Some(*n) == name) {
                        return *d;
                    }
                }
            }
            own
        };
        let date = run(&self.date, own.date, &done);
        done.push(("date", date));
        let lastmod: Vec<Option<W3cDate>> = self
            .lastmod_groups()
            .iter()
            .enumerate()
            .map(|(g, keys)| {
                let order: Vec<DateSource> = keys.iter().map(|k| DateSource::Key(*k)).collect();
                run(&order, own.lastmod.get(g).copied().flatten(), &done)
            })
            .collect();
        done.push(("lastmod", lastmod.first().copied().flatten()));
        let publish = run(&self.publish_date, own.publish, &done);
        done.push(("publishdate", publish));
        let expiry = run(&self.expiry_date, own.expiry, &done);
        PageDates {
            date,
            lastmod,
            publish,
            expiry,
        }
    }
}

/// The front matter keys of an order, without its other handlers.
pub fn keys_of(order: &[DateSource]) -> Vec<u8> {
    order
        .iter()
        .filter_map(|s| match s {
            DateSource::Key(k) => Some(*k),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(d: &HugoDates, order: &[DateSource]) -> Vec<String> {
        order
            .iter()
            .map(|s| match s {
                DateSource::Key(k) => d.keys[*k as usize].clone(),
                DateSource::Git => ":git".into(),
                DateSource::ModTime => ":filemodtime".into(),
                DateSource::FileName => ":filename".into(),
            })
            .collect()
    }

    #[test]
    fn defaults_expand_as_hugo_expands_them() {
        let d = HugoDates::default();
        assert_eq!(
            names(&d, &d.date),
            [
                "date",
                "publishdate",
                "pubdate",
                "published",
                "lastmod",
                "modified"
            ]
        );
        assert_eq!(
            names(&d, &d.lastmod),
            [
                ":git",
                "lastmod",
                "modified",
                "date",
                "publishdate",
                "pubdate",
                "published"
            ]
        );
        assert_eq!(
            names(&d, &d.publish_date),
            ["publishdate", "pubdate", "published", "date"]
        );
        assert_eq!(names(&d, &d.expiry_date), ["expirydate", "unpublishdate"]);
        assert_eq!(d.lastmod_groups().len(), 1);
    }

    #[test]
    fn default_inside_a_list_and_runs_around_handlers() {
        // The order Hugo's docs give: a page's own lastmod, else the file time, else Hugo's.
        let d = HugoDates::new(
            None,
            Some(vec![
                "lastmod".into(),
                ":filemodtime".into(),
                ":default".into(),
            ]),
            None,
            None,
        );
        assert_eq!(
            names(&d, &d.lastmod),
            [
                "lastmod",
                "modified",
                ":filemodtime",
                ":git",
                "date",
                "publishdate",
                "pubdate",
                "published"
            ]
        );
        let groups: Vec<Vec<String>> = d
            .lastmod_groups()
            .iter()
            .map(|g| g.iter().map(|k| d.keys[*k as usize].clone()).collect())
            .collect();
        assert_eq!(
            groups,
            [
                vec!["lastmod", "modified"],
                vec!["date", "publishdate", "pubdate", "published"]
            ]
        );
        assert!(d.configured);
    }
}
