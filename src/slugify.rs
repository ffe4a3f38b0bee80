//! The generators' slug rules: Zola's `slugify.paths` strategies and Hugo's path sanitizing.
//!
//! Zola (components/utils/src/slugs.rs): `on` is the `slug` crate's `slugify`, `safe` strips
//! the characters NTFS forbids, `off` keeps the text as is. Hugo 0.111
//! (helpers/path.go `UnicodeSanitize`, `MakePath`, `MakePathSanitized`, helpers/url.go
//! `URLize`) keeps letters, digits, marks and `. / \ _ # + ~ -`, turns runs of spaces into
//! one `-`, and lowercases unless `disablePathToLower`.

use std::fmt;
use std::str::FromStr;

/// Zola's `slugify.paths` setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SlugStrategy {
    /// Transliterate to ASCII, lowercase, one `-` between words (Zola's default).
    #[default]
    On,
    /// Keep case and Unicode; only drop characters that are unsafe in file names.
    Safe,
    /// Use the text as written.
    Off,
}

impl FromStr for SlugStrategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "on" => Ok(SlugStrategy::On),
            "safe" => Ok(SlugStrategy::Safe),
            "off" => Ok(SlugStrategy::Off),
            _ => Err(format!(
                "unknown slugify strategy '{s}': use \"on\", \"safe\" or \"off\""
            )),
        }
    }
}

impl fmt::Display for SlugStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SlugStrategy::On => "on",
            SlugStrategy::Safe => "safe",
            SlugStrategy::Off => "off",
        })
    }
}

/// Applies a Zola `slugify.paths` strategy to one path segment (a file name or `slug`).
pub fn zola_slugify(s: &str, strategy: SlugStrategy) -> String {
    match strategy {
        SlugStrategy::On => slug_on(s),
        SlugStrategy::Safe => {
            // NTFS forbids these; it also drops trailing spaces and dots from names.
            let trimmed = s.trim_end_matches([' ', '.']);
            trimmed
                .chars()
                .filter(|c| !r#"<>:"/\|?*"#.contains(*c))
                .collect()
        }
        SlugStrategy::Off => s.to_string(),
    }
}

/// The `slug` crate's `slugify` (what Zola calls): deunicode each non-ASCII character,
/// keep `[a-z0-9]` (ASCII upper case lowered), and turn every other run into one `-`,
/// never leading or trailing.
fn slug_on(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // Starting "after a dash" keeps a leading separator out.
    let mut prev_dash = true;
    let mut push = |b: u8| match b {
        b'a'..=b'z' | b'0'..=b'9' => {
            prev_dash = false;
            out.push(char::from(b));
        }
        b'A'..=b'Z' => {
            prev_dash = false;
            out.push(char::from(b.to_ascii_lowercase()));
        }
        _ => {
            if !prev_dash {
                out.push('-');
                prev_dash = true;
            }
        }
    };
    for c in s.chars() {
        if c.is_ascii() {
            push(c as u8);
        } else {
            for b in deunicode::deunicode_char(c).unwrap_or("-").bytes() {
                push(b);
            }
        }
    }
    if out.ends_with('-') {
        out.pop();
    }
    out
}

/// Hugo's `MakePath` (`UnicodeSanitize`): keeps letters, digits, marks, `. / \ _ # + ~ - @`
/// and `%XX` escapes; a run of spaces between kept characters becomes one `-`; case is kept.
///
/// `remove_accents` is Hugo's `removePathAccents`: Latin, Greek and Cyrillic letters lose
/// their diacritics (an approximation of Hugo's NFD-and-drop-marks, which needs no
/// normalization tables: letters with no decomposition such as `ø`, `ß`, `ł` are kept).
pub fn hugo_make_path(s: &str, remove_accents: bool) -> String {
    let source: Vec<char> = if remove_accents {
        s.chars().filter_map(remove_accent).collect()
    } else {
        s.chars().collect()
    };
    let mut out = String::with_capacity(s.len());
    let (mut prepend_hyphen, mut was_hyphen) = (false, false);
    for (i, &r) in source.iter().enumerate() {
        let allowed = matches!(r, '.' | '/' | '\\' | '_' | '#' | '+' | '~' | '-' | '@')
            || is_go_letter_digit_or_mark(r)
            || (r == '%'
                && i + 2 < source.len()
                && source[i + 1].is_ascii_hexdigit()
                && source[i + 2].is_ascii_hexdigit());
        if allowed {
            was_hyphen = r == '-';
            if prepend_hyphen {
                if !was_hyphen {
                    out.push('-');
                }
                prepend_hyphen = false;
            }
            out.push(r);
        } else if !out.is_empty() && r.is_whitespace() && !was_hyphen {
            prepend_hyphen = true;
        }
    }
    out
}

/// Hugo's `MakePathSanitized`: `MakePath`, lowercased unless `disable_path_to_lower`.
pub fn hugo_make_path_sanitized(
    s: &str,
    remove_accents: bool,
    disable_path_to_lower: bool,
) -> String {
    let path = hugo_make_path(s, remove_accents);
    if disable_path_to_lower {
        path
    } else {
        go_to_lower(&path)
    }
}

/// Hugo's `urlize` (taxonomy terms, `:title` and `:slug` permalinks): `MakePathSanitized`
/// with lowercasing. The result is not percent-encoded: the sitemap writer encodes URLs.
pub fn hugo_urlize(s: &str, remove_accents: bool) -> String {
    hugo_make_path_sanitized(s, remove_accents, false)
}

/// Go's `strings.ToLower`: a per-character mapping (no context rules like Greek final sigma).
pub fn go_to_lower(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// Go's `unicode.IsLetter || IsDigit || IsMark`, from the categories std can tell apart.
fn is_go_letter_digit_or_mark(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    if is_combining_mark(c) {
        return true;
    }
    // `is_alphabetic` also covers letter numbers (Nl) such as Roman numerals, which Go's
    // IsLetter rejects; `is_numeric` covers No (², ½, ①), which IsDigit rejects.
    let letter_number = matches!(c, '\u{16EE}'..='\u{16F0}' | '\u{2160}'..='\u{2188}' | '\u{3007}' | '\u{3021}'..='\u{3029}' | '\u{3038}'..='\u{303A}');
    let other_number = matches!(c, '\u{B2}' | '\u{B3}' | '\u{B9}' | '\u{BC}'..='\u{BE}' | '\u{2070}'..='\u{209F}' | '\u{2150}'..='\u{215F}' | '\u{2189}' | '\u{2460}'..='\u{24FF}' | '\u{2776}'..='\u{2793}' | '\u{3192}'..='\u{3195}' | '\u{3220}'..='\u{3229}' | '\u{3248}'..='\u{324F}' | '\u{3251}'..='\u{325F}' | '\u{3280}'..='\u{3289}' | '\u{32B1}'..='\u{32BF}');
    (c.is_alphanumeric() && !letter_number && !other_number) || is_combining_mark(c)
}

/// The main blocks of combining marks (Unicode category M) that are not also alphabetic,
/// plus the viramas, nuktas and tone marks of the Indic and South-East Asian scripts.
fn is_combining_mark(c: char) -> bool {
    let cp = u32::from(c);
    if (0x0900..=0x0DFF).contains(&cp) && matches!(cp & 0x7F, 0x3C | 0x4D) || cp == 0x0DCA {
        return true;
    }
    matches!(c, '\u{0E31}' | '\u{0E34}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}' | '\u{0EB1}' | '\u{0EB4}'..='\u{0EBC}' | '\u{0EC8}'..='\u{0ECD}' | '\u{1037}' | '\u{1039}' | '\u{103A}')
        || matches!(c, '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05BD}' | '\u{0610}'..='\u{061A}' | '\u{064B}'..='\u{065F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{302A}'..='\u{302F}' | '\u{3099}' | '\u{309A}' | '\u{FE00}'..='\u{FE0F}' | '\u{FE20}'..='\u{FE2F}')
}

/// One character without its accent (`None` for a lone combining accent, which is dropped).
fn remove_accent(c: char) -> Option<char> {
    if ('\u{0300}'..='\u{036F}').contains(&c) {
        return None;
    }
    let greek_cyrillic = match c {
        'ά' | 'ἀ' | 'ἁ' => 'α',
        'έ' => 'ε',
        'ή' => 'η',
        'ί' | 'ϊ' | 'ΐ' => 'ι',
        'ό' => 'ο',
        'ύ' | 'ϋ' | 'ΰ' => 'υ',
        'ώ' => 'ω',
        'Ά' => 'Α',
        'Έ' => 'Ε',
        'Ή' => 'Η',
        'Ί' | 'Ϊ' => 'Ι',
        'Ό' => 'Ο',
        'Ύ' | 'Ϋ' => 'Υ',
        'Ώ' => 'Ω',
        'й' => 'и',
        'Й' => 'И',
        'ё' => 'е',
        'Ё' => 'Е',
        'ї' => 'і',
        'Ї' => 'І',
        _ => c,
    };
    if greek_cyrillic != c {
        return Some(greek_cyrillic);
    }
    // Latin letters with a canonical decomposition; these have none and stay as they are.
    const KEEP: &str = "ÆæÐðØøÞþßĐđĦħıĲĳĸĿŀŁłŉŊŋŒœŦŧ";
    let latin = matches!(c, '\u{C0}'..='\u{17F}' | '\u{218}'..='\u{21B}' | '\u{1E00}'..='\u{1EFF}');
    if latin
        && !KEEP.contains(c)
        && c != '×'
        && c != '÷'
        && let Some(t) = deunicode::deunicode_char(c)
    {
        let mut it = t.chars();
        if let (Some(base), None) = (it.next(), it.next())
            && base.is_ascii_alphabetic()
        {
            return Some(base);
        }
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Zola's own table (components/utils/src/slugs.rs): input -> (on, safe, off).
    #[test]
    fn zola_strategies_match_zola_tests() {
        let cases = [
            ("input", ("input", "input", "input")),
            ("test ", ("test", "test", "test ")),
            ("tes t", ("tes-t", "tes t", "tes t")),
            ("dot. ", ("dot", "dot", "dot. ")),
            ("日本", ("ri-ben", "日本", "日本")),
            ("héhé", ("hehe", "héhé", "héhé")),
            ("test (hey)", ("test-hey", "test (hey)", "test (hey)")),
        ];
        for (input, (on, safe, off)) in cases {
            assert_eq!(zola_slugify(input, SlugStrategy::On), on, "{input}");
            assert_eq!(zola_slugify(input, SlugStrategy::Safe), safe, "{input}");
            assert_eq!(zola_slugify(input, SlugStrategy::Off), off, "{input}");
        }
    }

    /// Cases from the `slug` crate's tests and the brief.
    #[test]
    fn zola_on_is_the_slug_crate() {
        assert_eq!(
            zola_slugify("My Test String!!!1!1", SlugStrategy::On),
            "my-test-string-1-1"
        );
        assert_eq!(
            zola_slugify("test\nit   now!", SlugStrategy::On),
            "test-it-now"
        );
        assert_eq!(
            zola_slugify("  --test_-_cool", SlugStrategy::On),
            "test-cool"
        );
        assert_eq!(zola_slugify("Æúű--cool?", SlugStrategy::On), "aeuu-cool");
        assert_eq!(zola_slugify("You & Me", SlugStrategy::On), "you-me");
        assert_eq!(
            zola_slugify("user@example.com", SlugStrategy::On),
            "user-example-com"
        );
        assert_eq!(zola_slugify("Héllo Wörld", SlugStrategy::On), "hello-world");
        assert_eq!(zola_slugify("日本語", SlugStrategy::On), "ri-ben-yu");
        assert_eq!(zola_slugify("", SlugStrategy::On), "");
    }

    #[test]
    fn zola_safe_strips_ntfs_characters() {
        assert_eq!(
            zola_slugify(r#"a<b>c:d"e/f\g|h?i*j"#, SlugStrategy::Safe),
            "abcdefghij"
        );
        assert_eq!(
            zola_slugify("Ünïcode Ok...", SlugStrategy::Safe),
            "Ünïcode Ok"
        );
        // Zola trims trailing dots and spaces before it strips: the dot survives here.
        assert_eq!(zola_slugify("a.\\", SlugStrategy::Safe), "a.");
    }

    #[test]
    fn strategy_parses_and_prints() {
        for s in ["on", "safe", "off"] {
            assert_eq!(s.parse::<SlugStrategy>().unwrap().to_string(), s);
        }
        assert_eq!("SAFE".parse::<SlugStrategy>().unwrap(), SlugStrategy::Safe);
        assert!("yes".parse::<SlugStrategy>().is_err());
    }

    /// Hugo's TestMakePath (helpers/path_test.go).
    #[test]
    fn hugo_make_path_matches_hugo_tests() {
        let cases = [
            ("  Foo bar  ", "Foo-bar"),
            ("Foo.Bar/foo_Bar-Foo", "Foo.Bar/foo_Bar-Foo"),
            ("fOO,bar:foobAR", "fOObarfoobAR"),
            ("FOo/BaR.html", "FOo/BaR.html"),
            ("трям/трям", "трям/трям"),
            ("은행", "은행"),
            ("Банковский кассир", "Банковский-кассир"),
            ("संस्कृत", "संस्कृत"),
            ("a%C3%B1ame", "a%C3%B1ame"),
            ("this+is+a+test", "this+is+a+test"),
            ("~foo", "~foo"),
            // Kept since Hugo 0.109 (parity case 08: `tilde~at@`).
            ("tilde~at@", "tilde~at@"),
            ("foo--bar", "foo--bar"),
            ("foo - bar", "foo-bar"),
            ("100%-google", "100-google"),
            ("a ½ b²", "a-b"),
        ];
        for (input, want) in cases {
            assert_eq!(hugo_make_path(input, false), want, "{input}");
        }
    }

    /// Hugo's TestMakePathSanitized and TestURLize (helpers/url_test.go, before escaping).
    #[test]
    fn hugo_sanitized_and_urlize() {
        let cases = [
            ("  FOO bar  ", "foo-bar"),
            ("Foo.Bar/fOO_bAr-Foo", "foo.bar/foo_bar-foo"),
            ("FOO,bar:FooBar", "foobarfoobar"),
            ("foo/BAR.HTML", "foo/bar.html"),
            ("трям/трям", "трям/трям"),
            ("Vim (text editor)", "vim-text-editor"),
        ];
        for (input, want) in cases {
            assert_eq!(
                hugo_make_path_sanitized(input, false, false),
                want,
                "{input}"
            );
            assert_eq!(hugo_urlize(input, false), want, "{input}");
        }
        assert_eq!(
            hugo_make_path_sanitized("  FOO bar  ", false, true),
            "FOO-bar"
        );
        assert_eq!(go_to_lower("ΟΔΟΣ"), "οδοσ");
    }

    #[test]
    fn hugo_remove_path_accents() {
        assert_eq!(hugo_make_path("Crème Brûlée", true), "Creme-Brulee");
        assert_eq!(
            hugo_make_path("Ærøskøbing Straße", true),
            "Ærøskøbing-Straße"
        );
        assert_eq!(hugo_make_path("Ελληνικά Йога", true), "Ελληνικα-Иога");
        assert_eq!(hugo_make_path("e\u{301}te\u{301}", true), "ete");
        assert_eq!(hugo_make_path("Crème", false), "Crème");
    }

    proptest! {
        #[test]
        fn zola_on_output_is_a_clean_slug(s in "\\PC{0,40}") {
            let out = zola_slugify(&s, SlugStrategy::On);
            prop_assert!(out.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            prop_assert!(!out.starts_with('-') && !out.ends_with('-'));
            prop_assert!(!out.contains("--"));
            prop_assert_eq!(zola_slugify(&out, SlugStrategy::On), out.clone());
        }

        #[test]
        fn zola_safe_never_leaves_forbidden_characters(s in "\\PC{0,40}") {
            let out = zola_slugify(&s, SlugStrategy::Safe);
            prop_assert!(!out.contains(['<', '>', ':', '"', '/', '\\', '|', '?', '*']));
            // Zola trims before it strips, so "a.\\" keeps its dot: not idempotent, by design.
            prop_assert!(out.chars().count() <= s.chars().count());
        }

        #[test]
        fn hugo_make_path_is_idempotent_and_spaceless(s in "\\PC{0,40}") {
            let out = hugo_make_path(&s, false);
            prop_assert!(!out.chars().any(char::is_whitespace));
            prop_assert_eq!(hugo_make_path(&out, false), out.clone());
            // A leading '-' comes from a '-' or whitespace in the input (dropped characters
            // before it vanish), never from nothing.
            prop_assert!(!out.starts_with('-') || s.contains('-') || s.chars().any(char::is_whitespace));
        }
    }
}
