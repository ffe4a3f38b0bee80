//! Hugo's `:filename` date handler: with `[frontmatter] date = [":filename", …]` a file named
//! `2023-02-14-valentine-post.md` (a leaf bundle: its folder) is dated 2023-02-14 and named
//! `valentine-post`, unless its front matter sets a `slug`.

use crate::frontmatter::PageMeta;
use crate::hugo::version::HugoRules;
use crate::vocab::date::{SiteTz, W3cDate};
use chrono::{NaiveDate, NaiveDateTime};

/// The date and slug `name` gives, when the site's `[frontmatter] date` order reaches
/// `:filename` for a page with front matter `fm`: every entry before it is a key the page
/// leaves unset.
pub(super) fn name_date(
    order: Option<&[String]>,
    fm: &PageMeta,
    name: &str,
    rules: &HugoRules,
    tz: &SiteTz,
) -> Option<(W3cDate, String)> {
    for entry in order? {
        let set = match entry.as_str() {
            ":filename" => return split(name, rules.filename_datetime, tz),
            ":default" => fm.date.or(fm.publish_date()).or(fm.updated).is_some(),
            "date" => fm.date.is_some(),
            "publishdate" | "pubdate" | "published" => fm.publish_date().is_some(),
            "lastmod" | "modified" => fm.updated.is_some(),
            // Every file has a modification time: the order ends there.
            ":filemodtime" => true,
            _ => false,
        };
        if set {
            return None;
        }
    }
    None
}

/// Hugo's `dateAndSlugFromBaseFilename`: a `YYYY-MM-DD` prefix (from 0.148 first tried as
/// `YYYY-MM-DD-HH-MM-SS`, in the site's zone), and the rest of the name trimmed of
/// ` `, `-` and `_` as the slug ("" when nothing is left).
fn split(name: &str, datetime: bool, tz: &SiteTz) -> Option<(W3cDate, String)> {
    let rest = |from: usize| name[from..].trim_matches([' ', '-', '_']).to_string();
    if datetime && let Some(head) = name.get(..19) {
        let parsed = NaiveDateTime::parse_from_str(head, "%Y-%m-%d-%H-%M-%S").ok();
        if let Some(d) = parsed.and_then(|n| W3cDate::from_naive(n, tz)) {
            return Some((d, rest(19)));
        }
    }
    let day = NaiveDate::parse_from_str(name.get(..10)?, "%Y-%m-%d").ok()?;
    Some((W3cDate::from_date(day), rest(10)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hugo::version::HugoVersion;

    fn rules(v: &str) -> HugoRules {
        HugoRules::of(HugoVersion::parse(v).unwrap())
    }

    /// What Hugo 0.111.3 and 0.168.0 named these files under
    /// `[frontmatter] date = [":filename", ":default"]`.
    #[test]
    fn names_and_dates_as_hugo_reads_them() {
        let order = [":filename".to_string(), ":default".to_string()];
        let fm = PageMeta::default();
        let got = |name: &str, v: &str| {
            name_date(Some(&order), &fm, name, &rules(v), &SiteTz::Utc)
                .map(|(d, s)| (d.to_string(), s))
        };
        let want = |d: &str, s: &str| Some((d.to_string(), s.to_string()));
        assert_eq!(
            got("2023-02-14-valentine-post", "0.111.3"),
            want("2023-02-14", "valentine-post")
        );
        assert_eq!(
            got("2023-04-06_under", "0.168.0"),
            want("2023-04-06", "under")
        );
        assert_eq!(got("2023-04-05", "0.168.0"), want("2023-04-05", ""));
        assert_eq!(got("2023-13-05-x", "0.168.0"), None);
        assert_eq!(got("post", "0.168.0"), None);
        // A date-time prefix from 0.148; before, the time is part of the slug.
        assert_eq!(
            got("2023-02-14-10-30-00-post", "0.148.0"),
            want("2023-02-14T10:30:00+00:00", "post")
        );
        assert_eq!(
            got("2023-02-14-10-30-00-post", "0.147.0"),
            want("2023-02-14", "10-30-00-post")
        );
    }

    #[test]
    fn a_set_key_before_filename_wins() {
        let fm = PageMeta {
            date: W3cDate::parse("2020-01-01", &SiteTz::Utc),
            ..PageMeta::default()
        };
        let r = rules("0.168.0");
        let ask = |order: &[&str]| {
            let order: Vec<String> = order.iter().map(|s| s.to_string()).collect();
            name_date(Some(&order), &fm, "2023-02-14-post", &r, &SiteTz::Utc).is_some()
        };
        assert!(ask(&[":filename", ":default"]));
        assert!(!ask(&[":default", ":filename"]));
        assert!(!ask(&["date", ":filename"]));
        assert!(ask(&["lastmod", ":filename"]));
        assert!(!ask(&[":filemodtime", ":filename"]));
        assert!(!ask(&["date"]));
        assert!(name_date(None, &fm, "2023-02-14-post", &r, &SiteTz::Utc).is_none());
    }
}
