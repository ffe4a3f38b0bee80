//! `<loc>` values: a route path made absolute on the base URL and percent-encoded (RFC 3986),
//! and the decoding back, for the writer and the validator alike.

use percent_encoding::{AsciiSet, percent_decode_str, percent_encode, utf8_percent_encode};
use url::Url;

/// What a path segment cannot hold: everything but RFC 3986 `pchar` and `/` (unreserved,
/// sub-delims, `:` and `@`). Non-ASCII bytes are always encoded.
const PATH: &AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@')
    .remove(b'/');

/// The shortest `<loc>` the sitemap schema allows (its `tLoc` has `minLength` 12).
pub const MIN_LOC_LEN: usize = 12;

/// Percent-encodes a decoded URL path: non-ASCII as UTF-8 bytes, and every byte that may not
/// stand in a path segment (`%` included: a route path is always decoded text).
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    encode_path_into(&mut out, path);
    out
}

/// [`encode_path`], appended to `out`.
fn encode_path_into(out: &mut String, path: &str) {
    out.extend(utf8_percent_encode(path, PATH));
}

/// True for a byte a path may hold as is (see [`PATH`]).
pub(crate) fn is_path_safe(b: u8) -> bool {
    // The crate keeps its set lookup private: a byte it leaves alone comes back as itself.
    percent_encode(std::slice::from_ref(&b), PATH)
        .next()
        .is_some_and(|s| s.len() == 1)
}

/// Decodes `%XX` escapes; a `%` not followed by two hex digits stays as it is, and bytes
/// that do not form UTF-8 become U+FFFD.
pub fn decode(s: &str) -> String {
    decoded(s).into_owned()
}

/// [`decode`], borrowing `s` when it has nothing to decode.
pub fn decoded(s: &str) -> std::borrow::Cow<'_, str> {
    percent_decode_str(s).decode_utf8_lossy()
}

/// The absolute `<loc>` for a decoded path below `base` (`/blog/post/` on
/// `https://example.com/docs/` gives `https://example.com/docs/blog/post/`).
pub fn absolute(base: &Url, path: &str) -> String {
    let mut out = String::new();
    absolute_into(&mut out, base, path);
    out
}

/// [`absolute`], appended to `out`: the entries stage makes a million locs in one buffer.
pub fn absolute_into(out: &mut String, base: &Url, path: &str) {
    let base = base.as_str();
    let base = base.strip_suffix('/').unwrap_or(base);
    let path = path.strip_prefix('/').unwrap_or(path);
    out.reserve(base.len() + 1 + path.len());
    out.push_str(base);
    out.push('/');
    encode_path_into(out, path);
}

/// The length [`absolute`] gives, without making the string.
pub fn absolute_len(base: &str, path: &str) -> usize {
    let base = base.strip_suffix('/').unwrap_or(base);
    let path = path.strip_prefix('/').unwrap_or(path);
    base.len() + 1 + utf8_percent_encode(path, PATH).map(str::len).sum::<usize>()
}

/// Why a path cannot be published below the base URL, if it cannot.
///
/// Route paths are decoded and relative to the base, so leaving the base means a `..`
/// segment that climbs above the root, or a scheme (`https://other.host/…`).
pub fn check_path(path: &str) -> Result<(), String> {
    if path.contains("://") || path.starts_with("//") {
        return Err(format!(
            "'{path}' points to another site: a page's URL must stay below base_url"
        ));
    }
    // Without `..` no segment climbs: the common case needs no walk.
    if !path.contains("..") {
        return Ok(());
    }
    let mut depth: i64 = 0;
    for seg in path.split('/') {
        match seg {
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!(
                        "'{path}' climbs above the site root: a page's URL must stay below base_url"
                    ));
                }
            }
            "" | "." => {}
            _ => depth += 1,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn encodes_what_a_path_cannot_hold() {
        assert_eq!(encode_path("/über uns/"), "/%C3%BCber%20uns/");
        assert_eq!(encode_path("/a&b'c/"), "/a&b'c/");
        assert_eq!(encode_path("/q?x#y%z\"<>/"), "/q%3Fx%23y%25z%22%3C%3E/");
        assert_eq!(encode_path("/日本/"), "/%E6%97%A5%E6%9C%AC/");
    }

    #[test]
    fn joins_on_the_base_path() {
        let base = Url::parse("https://example.com/docs/").unwrap();
        assert_eq!(
            absolute(&base, "/blog/post/"),
            "https://example.com/docs/blog/post/"
        );
        let bare = Url::parse("https://example.com").unwrap();
        assert_eq!(absolute(&bare, "/"), "https://example.com/");
        assert_eq!(absolute(&bare, "/a b/"), "https://example.com/a%20b/");
    }

    #[test]
    fn refuses_paths_that_leave_the_site() {
        assert!(check_path("/../../x/").is_err());
        assert!(check_path("/a/../../x/").is_err());
        assert!(check_path("https://evil.example/x").is_err());
        assert!(check_path("//evil.example/x").is_err());
        assert!(check_path("/a/../b/").is_ok());
        assert!(check_path("/a..b/").is_ok());
    }

    /// The hand-written encoder this module had before it used the `percent-encoding` crate:
    /// the crate must give its bytes exactly.
    fn encode_by_hand(path: &str) -> String {
        let mut out = String::new();
        for &b in path.as_bytes() {
            let safe = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b);
            if safe {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }

    #[test]
    fn every_byte_is_encoded_as_before() {
        for b in 0u8..=0x7f {
            let s = (b as char).to_string();
            assert_eq!(encode_path(&s), encode_by_hand(&s), "byte {b:#x}");
            assert_eq!(is_path_safe(b), encode_by_hand(&s) == s, "byte {b:#x}");
        }
        for b in 0x80u8..=0xff {
            assert!(!is_path_safe(b));
        }
    }

    #[test]
    fn decoding_never_splits_a_character() {
        assert_eq!(decode("/a%20b/"), "/a b/");
        assert_eq!(decode("/%C3%BC/"), "/ü/");
        assert_eq!(decode("/%é%/x%4"), "/%é%/x%4");
        assert_eq!(decode("/x%41"), "/xA");
        assert_eq!(decode("/%FF/"), "/\u{fffd}/");
    }

    proptest! {
        #[test]
        fn encodes_any_text_as_before(path in "\\PC{0,40}") {
            prop_assert_eq!(encode_path(&path), encode_by_hand(&path));
            prop_assert_eq!(decode(&encode_path(&path)), path);
        }

        #[test]
        fn any_path_gives_a_valid_url_on_the_base_host(path in "/[^\u{0}]{0,40}") {
            // Routes are normalized before they get here: no `.` or `..` segments, no `//`.
            prop_assume!(!path.contains("//") && !path.split('/').any(|s| s == "." || s == ".."));
            let base = Url::parse("https://example.com/root/").unwrap();
            let loc = absolute(&base, &path);
            let parsed = Url::parse(&loc).unwrap();
            prop_assert_eq!(parsed.host_str(), Some("example.com"));
            prop_assert!(parsed.path().starts_with("/root/"));
            // The url crate would change nothing: we already encoded everything it would.
            prop_assert_eq!(parsed.as_str(), loc.as_str());
        }
    }
}
