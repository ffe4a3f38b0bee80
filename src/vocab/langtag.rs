//! Language tags: whether a code can stand in an `hreflang`, which the sitemap schemas type
//! as `xs:language` and search engines read as BCP 47 (RFC 5646).

/// The tags RFC 5646 keeps although they break its grammar ("irregular grandfathered").
const IRREGULAR: [&str; 17] = [
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
];

/// True when `tag` is a well-formed BCP 47 language tag (RFC 5646 section 2.1, any case):
/// `en`, `pt-BR`, `zh-Hant-TW`, `de-CH-1996`, `x-klingon`. Whether the subtags are
/// registered is not checked: well-formed tags are what the schema and readers parse.
pub fn is_well_formed(tag: &str) -> bool {
    if IRREGULAR.iter().any(|g| g.eq_ignore_ascii_case(tag)) {
        return true;
    }
    let subtags: Vec<&str> = tag.split('-').collect();
    if subtags
        .iter()
        .any(|s| s.is_empty() || s.len() > 8 || !s.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return false;
    }
    let alpha = |s: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphabetic())
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let mut rest = &subtags[..];
    let next_if = |rest: &mut &[&str], ok: &dyn Fn(&str) -> bool| match rest.first() {
        Some(s) if ok(s) => {
            *rest = &rest[1..];
            true
        }
        _ => false,
    };
    // A tag that is private use from its first subtag.
    if rest[0].eq_ignore_ascii_case("x") {
        return rest.len() > 1;
    }
    let language = rest[0];
    rest = &rest[1..];
    if !alpha(language, 2..=8) {
        return false;
    }
    if language.len() <= 3 {
        for _ in 0..3 {
            if !next_if(&mut rest, &|s| alpha(s, 3..=3)) {
                break;
            }
        }
    }
    next_if(&mut rest, &|s| alpha(s, 4..=4));
    next_if(&mut rest, &|s| alpha(s, 2..=2) || digits(s, 3));
    while next_if(&mut rest, &|s| {
        s.len() >= 5 || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit())
    }) {}
    // Extensions: a singleton other than `x`, then subtags of 2 to 8 characters.
    while let Some(s) = rest.first() {
        if s.len() != 1 || s.eq_ignore_ascii_case("x") {
            break;
        }
        rest = &rest[1..];
        let mut any = false;
        while next_if(&mut rest, &|s| s.len() >= 2) {
            any = true;
        }
        if !any {
            return false;
        }
    }
    match rest.first() {
        None => true,
        Some(s) if s.eq_ignore_ascii_case("x") => rest.len() > 1,
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_rfc_5646_grammar() {
        for good in [
            "en",
            "EN-gb",
            "pt-br",
            "zh-Hant-TW",
            "zh-yue-HK",
            "sr-Latn-RS",
            "es-419",
            "de-CH-1996",
            "sl-rozaj-biske",
            "en-US-u-islamcal",
            "en-a-bbb-x-a-ccc",
            "x-whatever",
            "qaa-Qaaa-QM-x-southern",
            "english",
            "i-klingon",
            "art-lojban",
            "zh-min-nan",
        ] {
            assert!(is_well_formed(good), "{good}");
        }
        for bad in [
            "",
            "zz zz",
            "x y",
            "en_US",
            "e",
            "en-",
            "-en",
            "en--us",
            "toolonglang",
            "x",
            "en-x",
            "en-a",
            "en-a-x-b",
            "de-419-DE",
            "a-DE",
            "en-US-c",
            "1en",
            "en-ü",
        ] {
            assert!(!is_well_formed(bad), "{bad}");
        }
    }
}
