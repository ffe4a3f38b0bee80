//! Hugo's `titleCaseStyle`: how it titles a section, taxonomy or term page made without a
//! file (from 0.123), which names its URL wherever a permalink reads `:title` or `:slug` and
//! `disablePathToLower` keeps the case. The AP and Chicago styles follow jdkato/prose's
//! `transform.TitleConverter`, which Hugo calls.

/// Words AP style leaves in lower case inside a title.
const SMALL_WORDS: &[&str] = &[
    "a", "an", "and", "as", "at", "but", "by", "en", "for", "if", "in", "nor", "of", "on", "or",
    "per", "the", "to", "vs", "vs.", "via", "v", "v.",
];

/// The prepositions Chicago style leaves in lower case too.
const PREPOSITIONS: &[&str] = &[
    "with",
    "from",
    "into",
    "during",
    "including",
    "until",
    "against",
    "among",
    "throughout",
    "despite",
    "towards",
    "upon",
    "concerning",
    "about",
    "over",
    "through",
    "before",
    "between",
    "after",
    "since",
    "without",
    "under",
    "within",
    "along",
    "following",
    "across",
    "beyond",
    "around",
    "down",
    "near",
    "above",
];

/// `s` titled in `style` (Hugo's `titleCaseStyle`, any case): `go` (Go's `strings.Title`),
/// `chicago`, `none`, `firstupper`; anything else is AP, Hugo's default.
pub fn title(s: &str, style: &str) -> String {
    match style.to_ascii_lowercase().as_str() {
        "go" => go_title(s),
        "chicago" => prose_title(s, true),
        "none" => s.to_string(),
        "firstupper" => first_upper(s),
        _ => prose_title(s, false),
    }
}

/// Each word's first letter upper-cased, words split at spaces: how a list page without a
/// file is titled before Hugo 0.123 where this code follows it (what the title changes in
/// a path is the case, which only `disablePathToLower` keeps).
pub fn each_word_upper(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut start = true;
    for c in s.chars() {
        if start {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        start = c == ' ';
    }
    out
}

/// The first character in upper case (Hugo's `helpers.FirstUpper`).
pub fn first_upper(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => format!("{}{}", to_title(c), chars.as_str()),
        None => String::new(),
    }
}

/// A character in title case; one whose upper case is several characters (`ß`) stays.
fn to_title(c: char) -> String {
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u.to_string(),
        _ => c.to_string(),
    }
}

/// Go's `strings.Title`: each letter after a separator (any ASCII character but letters,
/// digits and `_`, or white space) in title case.
fn go_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut after_separator = true;
    for c in s.chars() {
        if after_separator {
            out.push_str(&to_title(c));
        } else {
            out.push(c);
        }
        after_separator = if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else {
            c.is_whitespace()
        };
    }
    out
}

/// prose's `TitleConverter.Title`: each word (a letter or digit, then anything up to a
/// space, `-` or `/`) gets an upper-case first letter, but a small word (and for Chicago a
/// preposition) inside the title, after a space, `-` or `/`, is written in lower case.
/// Positions are read in a copy with typographic quotes, dashes and ellipses made ASCII,
/// byte for byte as prose does.
fn prose_title(s: &str, chicago: bool) -> String {
    let t = s
        .replace(['\u{201c}', '\u{201d}'], "\"")
        .replace(['\u{2018}', '\u{2019}'], "'")
        .replace(['\u{2013}', '\u{2014}'], "-")
        .replace('\u{2026}', "...");
    let tb = t.as_bytes();
    // Go's `charAt`: the byte at `i`, else the first byte.
    let char_at = |i: isize| -> u8 {
        match usize::try_from(i).ok().and_then(|i| tb.get(i)) {
            Some(&b) => b,
            None => tb.first().copied().unwrap_or(0),
        }
    };
    let end = t.len() as isize;
    let mut out = String::with_capacity(s.len());
    let mut idx: isize = 0;
    let mut rest = s;
    while let Some((before, word, after)) = next_word(rest) {
        out.push_str(before);
        let lower = word.to_lowercase();
        let from = usize::try_from(idx).unwrap_or(0);
        let found = t.get(from..).and_then(|r| r.find(word));
        let pos = found.map_or(idx - 1, |p| (p + from) as isize);
        let prev = char_at(pos - 1);
        idx = pos + word.len() as isize;
        let bounding = pos == 0 || idx == end;
        let small = SMALL_WORDS.contains(&lower.as_str())
            || (chicago && PREPOSITIONS.contains(&lower.as_str()));
        let keep_small = !bounding
            && small
            && matches!(prev, b' ' | b'-' | b'/')
            && char_at(pos - 2) != b':'
            && char_at(pos - 2) != b'-'
            && (char_at(idx) != b'-' || char_at(pos - 1) == b'-');
        if keep_small {
            out.push_str(&lower);
        } else {
            out.push_str(&first_upper(word));
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The text before the next word, the word (`[\p{N}\p{L}]+[^\s-/]*`), and the rest.
fn next_word(s: &str) -> Option<(&str, &str, &str)> {
    let start = s.find(char::is_alphanumeric)?;
    let word = &s[start..];
    let mut end = word.len();
    let mut letters = true;
    for (i, c) in word.char_indices() {
        if letters && c.is_alphanumeric() {
            continue;
        }
        letters = false;
        if c.is_whitespace() || c == '-' || c == '/' {
            end = i;
            break;
        }
    }
    Some((&s[..start], &word[..end], &word[end..]))
}

#[cfg(test)]
mod tests {
    use super::title;

    #[test]
    fn ap_style_as_hugo_0_168_titles_terms() {
        // Each seen in Hugo 0.168.0's URLs with `disablePathToLower`.
        for (term, want) in [
            ("the end of a tale", "The End of a Tale"),
            ("comma,x", "Comma,x"),
            ("hello-world", "Hello-World"),
            ("iPhone case", "IPhone Case"),
            ("x_y", "X_y"),
            ("war and peace", "War and Peace"),
            ("a tale of two", "A Tale of Two"),
            ("über alles", "Über Alles"),
            ("in the mood for", "In the Mood For"),
            ("Über-cool", "Über-Cool"),
        ] {
            assert_eq!(title(term, "ap"), want, "{term}");
            assert_eq!(title(term, ""), want, "{term}");
        }
    }

    #[test]
    fn the_other_styles() {
        assert_eq!(
            title("war and peace with x", "Chicago"),
            "War and Peace with X"
        );
        assert_eq!(title("war and peace with x", "ap"), "War and Peace With X");
        assert_eq!(title("war and peace", "none"), "war and peace");
        assert_eq!(title("war and peace", "firstupper"), "War and peace");
        assert_eq!(
            title("war and peace's x_y-z", "go"),
            "War And Peace'S X_y-Z"
        );
        assert_eq!(title("", "ap"), "");
        assert_eq!(title("(paren) – x", "ap"), "(Paren) – X");
    }
}
