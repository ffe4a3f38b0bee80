//! `<loc>` values: a route path made absolute on the base URL and percent-encoded (RFC 3986).

use url::Url;

/// The longest `<loc>` the protocol allows.
pub const MAX_LOC_LEN: usize = 2047;

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
    for &b in path.as_bytes() {
        if is_path_safe(b) {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        }
    }
}

/// RFC 3986 `pchar` plus `/`: unreserved, sub-delims, `:` and `@`.
pub(crate) fn is_path_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'/'
        )
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

    proptest! {
        #[test]
        fn any_path_gives_a_valid_url_on_the_base_host(path in "/[^\u{0}]{0,40}") {
            // Routes are normalized before they get here: no `.` or `..` segments.
            let path = crate::route::normalize(&path);
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
