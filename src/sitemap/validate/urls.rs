//! `<loc>` syntax (an absolute http(s) URL in RFC 3986 characters) and the site a URL is on.

use crate::vocab::loc;
use crate::vocab::protocol::MAX_LOC_CHARS;
use std::sync::OnceLock;
use url::Url;

/// Scheme, host and port of a URL, plus its folder when it names a sitemap's location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Site {
    pub(super) https: bool,
    pub(super) host: String,
    pub(super) port: u16,
    /// The folder (ending in `/`) of the sitemap's location, for a `--base-url`.
    pub(super) folder: Option<String>,
}

impl Site {
    /// The site of `u`, with `u`'s path as its folder.
    pub(super) fn from_url(u: &Url) -> Site {
        let https = u.scheme().eq_ignore_ascii_case("https");
        let mut folder = u.path().to_string();
        if !folder.ends_with('/') {
            folder.push('/');
        }
        Site {
            https,
            host: u.host_str().unwrap_or("").to_ascii_lowercase(),
            port: u
                .port_or_known_default()
                .unwrap_or(if https { 443 } else { 80 }),
            folder: Some(folder),
        }
    }

    /// `scheme://host[:port]`, the port only when it is not the default.
    pub(super) fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        let default = if self.https { 443 } else { 80 };
        if self.port == default {
            format!("{scheme}://{}", self.host)
        } else {
            format!("{scheme}://{}:{}", self.host, self.port)
        }
    }
}

/// A `<loc>` that passed the syntax checks, split into its parts.
#[derive(Debug)]
pub(super) struct ParsedUrl<'a> {
    pub(super) https: bool,
    /// As written; compare with `eq_ignore_ascii_case`.
    pub(super) host: &'a str,
    pub(super) port: u16,
    pub(super) path: &'a str,
    pub(super) fragment: bool,
    /// The first `"`, `<` or `>`: RFC 3986 wants them percent-encoded, but the protocol's
    /// escaping table shows them in URLs as `&quot;`, `&lt;` and `&gt;`, so they are only
    /// worth a warning.
    pub(super) unencoded: Option<u8>,
}

impl ParsedUrl<'_> {
    /// The site this URL is on (no folder).
    pub(super) fn site(&self) -> Site {
        Site {
            https: self.https,
            host: self.host.to_ascii_lowercase(),
            port: self.port,
            folder: None,
        }
    }

    /// True when scheme, host and port match `other`'s.
    pub(super) fn same_origin(&self, other: &Site) -> bool {
        self.https == other.https
            && self.port == other.port
            && self.host.eq_ignore_ascii_case(&other.host)
    }
}

/// Any RFC 3986 character outside `%` escapes: a path character, or `?`, `#`, `[`, `]`.
fn is_unreserved_or_delim(b: u8) -> bool {
    // Asked for every byte of every <loc>: the answers are tabled once.
    static TABLE: OnceLock<[bool; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let b = i as u8;
            loc::is_path_safe(b) || matches!(b, b'?' | b'#' | b'[' | b']')
        })
    })[usize::from(b)]
}

/// Checks `s` is an absolute http(s) URL written with RFC 3986 characters only.
pub(super) fn parse_loc(s: &str) -> std::result::Result<ParsedUrl<'_>, String> {
    if s.is_empty() {
        return Err("empty <loc>: write the page's absolute URL".into());
    }
    let chars = s.chars().count();
    if chars > MAX_LOC_CHARS {
        return Err(format!(
            "URL is {chars} characters long; at most {MAX_LOC_CHARS} are allowed"
        ));
    }
    let bytes = s.as_bytes();
    // Positions the later steps need, gathered in this one pass.
    let (mut first_hash, mut hashes, mut first_query, mut last_bracket) = (None, 0, None, None);
    let mut unencoded = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'#' => {
                hashes += 1;
                first_hash = first_hash.or(Some(i));
            }
            b'?' => first_query = first_query.or(Some(i)),
            b'[' | b']' => last_bracket = Some(i),
            _ => {}
        }
        if b == b'%' {
            let ok = bytes.len() > i + 2
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit();
            if !ok {
                let bad: String = s[i..].chars().take(3).collect();
                return Err(format!(
                    "invalid percent-escape \"{bad}\" in {s:?}: a '%' must start %XX (write a literal '%' as %25)"
                ));
            }
            i += 3;
            continue;
        }
        if b >= 0x80 {
            let c = s[i..].chars().next().unwrap_or('\u{fffd}');
            let enc = loc::encode_path(c.encode_utf8(&mut [0u8; 4]));
            return Err(format!(
                "non-ASCII character '{c}' in {s:?}: percent-encode its UTF-8 bytes as {enc}"
            ));
        }
        if b == b' ' {
            return Err(format!("raw space in {s:?}: percent-encode it as %20"));
        }
        if matches!(b, b'"' | b'<' | b'>') {
            unencoded = unencoded.or(Some(b));
            i += 1;
            continue;
        }
        if !is_unreserved_or_delim(b) {
            let shown = if b.is_ascii_graphic() {
                format!("'{}'", b as char)
            } else {
                format!("byte 0x{b:02X}")
            };
            return Err(format!(
                "character {shown} is not allowed in a URL ({s:?}): percent-encode it as %{b:02X}"
            ));
        }
        i += 1;
    }
    let colon = bytes.iter().position(|&b| b == b':');
    let Some(colon) = colon.filter(|&c| s[c..].starts_with("://")) else {
        return Err(if s.starts_with('/') {
            format!("relative URL {s:?}: <loc> must be absolute, like https://example.com{s}")
        } else {
            format!("{s:?} is not an absolute http(s) URL")
        });
    };
    let scheme = &s[..colon];
    let https = if scheme.eq_ignore_ascii_case("https") {
        true
    } else if scheme.eq_ignore_ascii_case("http") {
        false
    } else {
        return Err(format!(
            "scheme '{scheme}' in {s:?}: only http and https URLs are allowed"
        ));
    };
    let rest = &s[colon + 3..];
    let auth_end = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = &rest[..auth_end];
    let after_start = colon + 3 + auth_end;
    if authority.contains('@') {
        return Err(format!(
            "{s:?} carries user credentials ('user@host'): list the public URL only"
        ));
    }
    let (host, port_str) = if let Some(v6) = authority.strip_prefix('[') {
        let Some(close) = v6.find(']') else {
            return Err(format!("unclosed IPv6 address in {s:?}"));
        };
        let tail = &v6[close + 1..];
        let port = match tail.strip_prefix(':') {
            Some(p) => Some(p),
            None if tail.is_empty() => None,
            None => return Err(format!("bad host in {s:?}")),
        };
        (&authority[..close + 2], port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() || host.contains(['[', ']']) && !host.starts_with('[') {
        return Err(format!("{s:?} has no host"));
    }
    let default = if https { 443 } else { 80 };
    let port = match port_str {
        None | Some("") => default,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if p.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Err(format!("bad port '{p}' in {s:?}")),
        },
    };
    if last_bracket.is_some_and(|b| b >= after_start) {
        return Err(format!(
            "'[' or ']' outside an IPv6 host in {s:?}: percent-encode them as %5B and %5D"
        ));
    }
    if hashes > 1 {
        return Err(format!(
            "second '#' in {s:?}: percent-encode a literal '#' as %23"
        ));
    }
    let path_end = match (first_query, first_hash) {
        (Some(q), Some(h)) => q.min(h),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => s.len(),
    };
    Ok(ParsedUrl {
        https,
        host,
        port,
        path: &s[after_start..path_end],
        fragment: first_hash.is_some(),
        unencoded,
    })
}

pub(super) fn strip_www(host: &str) -> &str {
    host.strip_prefix("www.").unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loc_syntax_follows_rfc_3986() {
        assert!(parse_loc("https://example.com/a%20b/?q=1&r=(2)#x").is_ok());
        assert!(parse_loc("http://[::1]:8080/x").is_ok());
        for bad in [
            "",
            "/relative",
            "example.com/x",
            "ftp://example.com/",
            "https://example.com/a b",
            "https://example.com/café",
            "https://example.com/%zz",
            "https://example.com/%4",
            "https://example.com/{x}",
            "https://user:pw@example.com/",
            "https:///path",
            "https://example.com:99999/",
            "https://example.com/a#b#c",
            "https://example.com/[x]",
        ] {
            assert!(parse_loc(bad).is_err(), "{bad:?} should be rejected");
        }
        let long = format!("https://example.com/{}", "a".repeat(MAX_LOC_CHARS));
        assert!(parse_loc(&long).is_err());
        let exact = format!(
            "https://example.com/{}",
            "a".repeat(MAX_LOC_CHARS - "https://example.com/".len())
        );
        assert!(parse_loc(&exact).is_ok());
        // The protocol's escaping table writes these in URLs: accepted, and flagged.
        for (s, b) in [
            ("https://example.com/a\"b", b'"'),
            ("https://example.com/<a>", b'<'),
            ("https://example.com/", 0),
        ] {
            assert_eq!(parse_loc(s).unwrap().unencoded.unwrap_or(0), b, "{s}");
        }
    }

    #[test]
    fn non_ascii_message_gives_the_encoding() {
        let err = parse_loc("https://example.com/ü").unwrap_err();
        assert!(err.contains("%C3%BC"), "{err}");
    }
}
