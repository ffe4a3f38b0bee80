//! Hugo's content policy (0.162+): `security.allowContent` names the media types of the
//! content files Hugo builds, by default every type but `text/html` (and from 0.166
//! `text/org`); a content file of another type (an `.html` page, a page with `markup: html`)
//! stops the build, draft or not.

use regex_automata::meta::Regex;

/// The media types of Hugo's content formats, for the file suffixes and `markup` names that
/// give them (Hugo's `media/builtin.go` and its markup names).
const TYPES: &[(&str, &[&str])] = &[
    (
        "text/markdown",
        &["md", "markdown", "mdown", "goldmark", "mkdn", "mkd", "mdwn"],
    ),
    ("text/html", &["html", "htm"]),
    ("text/asciidoc", &["asciidoc", "adoc", "ad", "asciidocext"]),
    ("text/pandoc", &["pandoc", "pdc"]),
    ("text/rst", &["rst"]),
    ("text/org", &["org"]),
];

/// Hugo's default, when the config says nothing: before 0.166, and from 0.166 (seen in
/// `hugo config` of 0.166.0 and 0.168.0; the source of 0.165.0 has the first).
pub(crate) const DEFAULT: &[&str] = &["! ^text/html$"];
pub(crate) const DEFAULT_0_166: &[&str] = &["! ^text/html$", "! ^text/org$"];

/// The media type of a content file: its `markup` (lower-cased), else its suffix.
pub(crate) fn media_type(file_name: &str, markup: Option<&str>) -> Option<&'static str> {
    let name = match markup {
        Some(m) => m.to_string(),
        None => file_name.rsplit_once('.')?.1.to_ascii_lowercase(),
    };
    TYPES
        .iter()
        .find(|(_, names)| names.contains(&name.as_str()))
        .map(|(t, _)| *t)
}

/// The media types `security.allowContent` refuses, read as Hugo reads a whitelist
/// (`config/security/whitelist.go`): `none`, or no pattern, refuses all; a pattern starting
/// `! ` refuses what it matches; other patterns allow what they match and, if any is given,
/// nothing else. `patterns` is `None` when the config sets no `allowContent`: the release's
/// `default` then. The error names the pattern Go would not compile.
pub(crate) fn denied(
    patterns: Option<Vec<String>>,
    default: &[&str],
) -> Result<Vec<&'static str>, String> {
    let patterns = patterns.unwrap_or_else(|| default.iter().map(|p| p.to_string()).collect());
    let all = TYPES.iter().map(|(t, _)| *t);
    let mut given = Vec::new();
    for p in &patterns {
        if p == "none" {
            return Ok(all.collect());
        }
        let p = p.trim();
        if !p.is_empty() {
            given.push(p);
        }
    }
    if given.is_empty() {
        return Ok(all.collect());
    }
    let (mut allow, mut deny) = (Vec::new(), Vec::new());
    for p in given {
        let (raw, list) = match p.strip_prefix("! ") {
            Some(raw) => (raw, &mut deny),
            None => (p, &mut allow),
        };
        let re = Regex::new(raw).map_err(|e| {
            format!("the `security.allowContent` pattern '{p}' is no regular expression ({e})")
        })?;
        list.push(re);
    }
    let accepts = |t: &str| {
        !deny.iter().any(|r| r.is_match(t))
            && (allow.is_empty() || allow.iter().any(|r| r.is_match(t)))
    };
    Ok(all.filter(|t| !accepts(t)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn denied_by(p: &[&str]) -> Vec<&'static str> {
        denied(Some(p.iter().map(|s| s.to_string()).collect()), DEFAULT).unwrap()
    }

    #[test]
    fn html_is_refused_unless_the_policy_allows_it() {
        // What real Hugo 0.168 built (or refused) with each setting.
        assert_eq!(denied(None, DEFAULT).unwrap(), ["text/html"]);
        assert_eq!(
            denied(None, DEFAULT_0_166).unwrap(),
            ["text/html", "text/org"]
        );
        assert!(denied_by(&[".*"]).is_empty());
        assert!(denied_by(&["^text/html$", "^text/markdown$"]).len() == 4);
        assert_eq!(denied_by(&["! ^text/markdown$"]), ["text/markdown"]);
        assert_eq!(denied_by(&["none"]).len(), TYPES.len());
        assert_eq!(denied_by(&[]).len(), TYPES.len());
        assert!(denied(Some(vec!["(".into()]), DEFAULT).is_err());
    }

    #[test]
    fn markup_names_the_type_before_the_file_name() {
        assert_eq!(media_type("a.md", None), Some("text/markdown"));
        assert_eq!(media_type("a.HTM", None), Some("text/html"));
        assert_eq!(media_type("a.md", Some("html")), Some("text/html"));
        assert_eq!(
            media_type("a.html", Some("goldmark")),
            Some("text/markdown")
        );
        assert_eq!(media_type("README", None), None);
    }
}
