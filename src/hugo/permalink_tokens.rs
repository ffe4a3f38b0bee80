//! The grammar of a Hugo `[permalinks]` pattern: its literal text and its `:tokens`, which
//! tokens Hugo knows (per release), and the check Hugo makes of a config's patterns. Read by
//! the config readers (Hugo refuses a config with an unknown token) and by routing, which
//! expands the tokens.

use super::golayout;
use super::version::HugoRules;

/// The tokens a page's permalink pattern may hold (what routing's `PageTokens::value` knows).
pub(crate) const PAGE_TOKENS: &[&str] = &[
    "year",
    "month",
    "monthname",
    "day",
    "yearday",
    "weekday",
    "weekdayname",
    "slug",
    "title",
    "filename",
    "contentbasename",
    "slugorfilename",
    "slugorcontentbasename",
    "section",
    "sections",
    "sectionslug",
    "sectionslugs",
];

/// A pattern's parts: literal text, and the tokens between, each with `f`. A token is what
/// Hugo's `:\w+(\[.+?\])?` matches: `:` then ASCII letters, digits and `_`, and a cut in
/// brackets (`:sections[1:]`); a `:` without a word after it is text.
pub(crate) fn each_part(
    pattern: &str,
    mut f: impl FnMut(Part<'_>) -> std::result::Result<(), String>,
) -> std::result::Result<(), String> {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let b = pattern.as_bytes();
    let (mut text_from, mut i) = (0, 0);
    while i < b.len() {
        let word_end = (i + 1..b.len())
            .find(|&k| !is_word(b[k]))
            .unwrap_or(b.len());
        if b[i] != b':' || word_end == i + 1 {
            i += 1;
            continue;
        }
        // `[`, at least one character (no line break), then the first `]`.
        let cut_end = (b.get(word_end) == Some(&b'['))
            .then(|| {
                let body = pattern.get(word_end + 1..)?;
                let first = body.chars().next().filter(|&c| c != '\n')?;
                let from = word_end + 1 + first.len_utf8();
                let close = pattern[from..].find([']', '\n'])?;
                (b[from + close] == b']').then_some(from + close + 1)
            })
            .flatten();
        let end = cut_end.unwrap_or(word_end);
        f(Part::Text(&pattern[text_from..i]))?;
        f(Part::Token(&pattern[i + 1..end]))?;
        text_from = end;
        i = end;
    }
    f(Part::Text(&pattern[text_from..]))
}

/// A piece of a permalink pattern.
pub(crate) enum Part<'a> {
    Text(&'a str),
    Token(&'a str),
}

pub(crate) fn unknown_token(pattern: &str, token: &str) -> String {
    format!("the permalink pattern '{pattern}' has an unknown token :{token}")
}

/// Checks that every token of a page's permalink pattern is one Hugo knows: Hugo refuses a
/// config with another ("permalink ill-formed") whether or not a page uses the pattern.
pub(crate) fn check_page_permalink(pattern: &str) -> std::result::Result<(), String> {
    each_part(pattern, |part| match part {
        Part::Token(t) if !known_token(t, true) => Err(unknown_token(pattern, t)),
        _ => Ok(()),
    })
}

/// Whether Hugo knows a page token: one of [`PAGE_TOKENS`] (`sectionslug(s)` only when
/// `sectionslug`), a cut of the sections (`sections[1:]`), or a Go time layout (`06`).
fn known_token(t: &str, sectionslug: bool) -> bool {
    match t.split_once('[') {
        Some(("sections", _)) => true,
        Some(("sectionslugs", _)) if sectionslug => true,
        _ => PAGE_TOKENS.contains(&t) || golayout::is_layout(t),
    }
}

/// The first token of a `[permalinks]` pattern the site's Hugo release does not know, if
/// any: [`check_page_permalink`] knows the newest release's tokens, some of which are
/// younger than the release the site follows.
pub(crate) fn unknown_permalink_token(pattern: &str, rules: &HugoRules) -> Option<String> {
    each_part(pattern, |part| match part {
        Part::Token(t) if !known_to(t, rules) => Err(t.to_string()),
        _ => Ok(()),
    })
    .err()
}

/// Whether the site's Hugo release knows token `t`.
fn known_to(t: &str, rules: &HugoRules) -> bool {
    match t {
        "contentbasename" | "slugorcontentbasename" => rules.permalink_contentbasename,
        "sectionslug" | "sectionslugs" => rules.permalink_sectionslug,
        t => known_token(t, rules.permalink_sectionslug),
    }
}

/// The tokens Go's `:\w+(\[.+?\])?` finds in `s`, without their `:`.
fn go_tokens(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        let start = i + 1;
        let mut j = start;
        while b[i] == b':' && j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        if j == start {
            i += 1;
            continue;
        }
        // A cut: `[`, at least one character, and the first `]` after it.
        let close = (b.get(j) == Some(&b'['))
            .then(|| s.get(j + 2..)?.find(']'))
            .flatten();
        let end = close.map_or(j, |c| j + 2 + c + 1);
        out.push(&s[start..end]);
        i = end;
    }
    out
}

/// Whether Hugo before 0.137 takes a permalink pattern for well formed: past its first byte
/// (taken for the leading `/`), its `/`-separated segments may be empty only at the end, so
/// `x/:slug` and `/a//b` are "permalink ill-formed", and so is an empty pattern (0.111
/// panics on it). Hugo 0.137 dropped the check (its commit a2f666b58).
pub(crate) fn well_formed_before_0_137(pattern: &str, rules: &HugoRules) -> bool {
    let Some(rest) = pattern.as_bytes().get(1..) else {
        return false;
    };
    let segments: Vec<&[u8]> = rest.split(|b| *b == b'/').collect();
    let blank_inside = segments
        .iter()
        .position(|s| s.is_empty())
        .is_some_and(|i| i + 1 != segments.len());
    // Each segment's tokens, as Go's pattern finds them past the first byte (`:sections[:last]`
    // is read as `sections[` and the token `:last`, unknown).
    !blank_inside
        && segments.iter().all(|seg| {
            let seg = String::from_utf8_lossy(seg);
            go_tokens(&seg).iter().all(|t| known_to(t, rules))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_before_0_137_allows_an_empty_segment_only_at_the_end() {
        let rules = HugoRules::of(crate::hugo::version::HugoVersion::parse("0.111.3").unwrap());
        for ok in [
            "/posts/:slug/",
            "/",
            "x",
            "/:year/:month/:title",
            "/:sections[1:]/:slug",
            ":year/",
        ] {
            assert!(well_formed_before_0_137(ok, &rules), "{ok}");
        }
        for bad in [
            "",
            "x/:weekdayname",
            "x/:yearday/a-b/",
            "/a//b/",
            "//",
            ":sections[:last]/",
            "/:nope/",
        ] {
            assert!(!well_formed_before_0_137(bad, &rules), "{bad}");
        }
        assert_eq!(go_tokens("a:b[1]:c_d[]x:[y]"), ["b[1]", "c_d[]x:[y]"]);
    }

    #[test]
    fn a_pattern_with_a_token_hugo_does_not_know_is_refused() {
        for t in PAGE_TOKENS {
            assert_eq!(check_page_permalink(&format!("/x/:{t}/")), Ok(()), "{t}");
        }
        assert_eq!(
            check_page_permalink("/:year/:yr/"),
            Err("the permalink pattern '/:year/:yr/' has an unknown token :yr".into())
        );
        // A `:` without a word is text, as in Hugo; a cut of the sections and a Go time
        // layout are tokens.
        assert_eq!(check_page_permalink("/:/"), Ok(()));
        assert_eq!(check_page_permalink("/:sections[1:]/:06/:Jan/"), Ok(()));
        assert_eq!(check_page_permalink("/posts/plain/"), Ok(()));
    }
}
