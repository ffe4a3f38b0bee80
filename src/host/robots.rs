//! robots.txt as RFC 9309 reads it: groups of user-agent lines and the `allow`/`disallow`
//! rules that follow them; the rules of every group that names a crawler (or, when none
//! does, of the `*` groups) combined; the longest matching pattern decides, `allow` when an
//! `allow` and a `disallow` pattern are as long; `*` matches any run of characters and a final
//! `$` the end of the path.

use std::borrow::Cow;
use std::ops::Range;

/// The most of a robots.txt read: RFC 9309 asks crawlers to read at least 500 KiB, and
/// Google reads no more.
pub const MAX_ROBOTS_BYTES: usize = 500 * 1024;

/// One `allow` or `disallow` rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobotsRule {
    /// `allow` (true) or `disallow`.
    pub allow: bool,
    /// The path pattern, normalised for matching.
    pub pattern: String,
    /// 1-based line in the file.
    pub line: usize,
    /// The pattern cut at its `*`s, once, when the file is read.
    pieces: Pieces,
}

/// A pattern cut at its `*`s: byte ranges of the text before the first `*`, of the pieces
/// between (empty ones dropped: a run of `*` is one `*`), and of the text after the last
/// `*`, without a final `$`. A 400 KB run of `*` is then one piece, not 400,000 cut anew for
/// every URL.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pieces {
    first: Range<usize>,
    middle: Vec<Range<usize>>,
    /// `None` when the pattern has no `*`.
    last: Option<Range<usize>>,
    /// A final `$`: the path must end where the pattern does.
    anchored: bool,
}

impl Pieces {
    fn of(pattern: &str) -> Pieces {
        let anchored = pattern.ends_with('$');
        let end = pattern.len() - usize::from(anchored);
        let mut stars = pattern[..end].match_indices('*').map(|(at, _)| at);
        let Some(first_star) = stars.next() else {
            return Pieces {
                first: 0..end,
                middle: Vec::new(),
                last: None,
                anchored,
            };
        };
        let mut middle = Vec::new();
        let mut from = first_star + 1;
        for at in stars {
            if at > from {
                middle.push(from..at);
            }
            from = at + 1;
        }
        Pieces {
            first: 0..first_star,
            middle,
            last: Some(from..end),
            anchored,
        }
    }
}

impl RobotsRule {
    /// A rule of `pattern` (normalised), read on `line`.
    pub fn new(allow: bool, pattern: String, line: usize) -> RobotsRule {
        let pieces = Pieces::of(&pattern);
        RobotsRule {
            allow,
            pattern,
            line,
            pieces,
        }
    }

    /// The rule as written in a robots.txt, for messages.
    pub fn summary(&self) -> String {
        format!(
            "{}: {}",
            if self.allow { "Allow" } else { "Disallow" },
            self.pattern
        )
    }

    /// Whether this rule keeps a crawler from every path (`Disallow: /`, or `/*`).
    pub fn is_wholesale(&self) -> bool {
        !self.allow && matches!(self.pattern.as_str(), "/" | "/*" | "*" | "/$*")
    }
}

/// One group: the crawlers it names (product tokens, lowercased; `*` for all) and its rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Group {
    agents: Vec<String>,
    rules: Vec<RobotsRule>,
}

/// A parsed robots.txt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Robots {
    groups: Vec<Group>,
    /// Whether the file was longer than [`MAX_ROBOTS_BYTES`] (the rest is not read).
    pub truncated: bool,
}

impl Robots {
    /// Parses robots.txt bytes (not necessarily UTF-8; at most [`MAX_ROBOTS_BYTES`] read).
    pub fn parse(bytes: &[u8]) -> Robots {
        let truncated = bytes.len() > MAX_ROBOTS_BYTES;
        let bytes = &bytes[..bytes.len().min(MAX_ROBOTS_BYTES)];
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let mut groups: Vec<Group> = Vec::new();
        // Whether the last group has seen a rule: a user-agent line after one starts a new
        // group, before one it joins the group (blank lines and comments in between).
        let mut ruled = true;
        // Lines are numbered by `\n`; a lone `\r` ends a line too (old Mac files).
        let lines = text
            .split('\n')
            .enumerate()
            .flat_map(|(n, physical)| physical.split('\r').map(move |l| (n + 1, l)));
        for (line_no, raw) in lines {
            let line = raw.split('#').next().unwrap_or_default().trim();
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let key = key.trim().to_ascii_lowercase();
            let value = value.trim();
            match key.as_str() {
                "user-agent" => {
                    if ruled {
                        groups.push(Group::default());
                        ruled = false;
                    }
                    if let Some(g) = groups.last_mut() {
                        g.agents.push(product_token(value));
                    }
                }
                "allow" | "disallow" => {
                    ruled = true;
                    // A rule before any user-agent line belongs to no group.
                    let Some(g) = groups.last_mut() else { continue };
                    if value.is_empty() {
                        continue;
                    }
                    g.rules.push(RobotsRule::new(
                        key == "allow",
                        normalize(value, true).into_owned(),
                        line_no,
                    ));
                }
                _ => {}
            }
        }
        Robots { groups, truncated }
    }

    /// The rules that apply to a crawler whose product token is `agent` (`*` for one the
    /// file does not name): those of every group naming it, else those of every `*` group.
    pub fn rules_for(&self, agent: &str) -> Vec<&RobotsRule> {
        let agent = agent.to_ascii_lowercase();
        let named = agent != "*" && self.groups.iter().any(|g| g.agents.contains(&agent));
        let want = if named { agent.as_str() } else { "*" };
        self.groups
            .iter()
            .filter(|g| g.agents.iter().any(|a| a == want))
            .flat_map(|g| &g.rules)
            .collect()
    }

    /// Whether the file names this crawler in a group of its own.
    pub fn names(&self, agent: &str) -> bool {
        self.groups
            .iter()
            .any(|g| g.agents.iter().any(|a| a.eq_ignore_ascii_case(agent)))
    }
}

/// The rule of `rules` that decides for `path` (path and query, as in a URL): the longest
/// match, `allow` on a tie. `None` when none matches: the path is allowed.
pub fn deciding<'r>(rules: &[&'r RobotsRule], path: &str) -> Option<&'r RobotsRule> {
    // /robots.txt is always allowed (RFC 9309, section 2.2.2).
    if path == "/robots.txt" {
        return None;
    }
    let path = normalize(path, false);
    let mut best: Option<&RobotsRule> = None;
    for rule in rules {
        if !rule.matches(&path) {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) => {
                rule.pattern.len() > b.pattern.len()
                    || (rule.pattern.len() == b.pattern.len() && rule.allow && !b.allow)
            }
        };
        if better {
            best = Some(rule);
        }
    }
    best
}

/// The product token of a user-agent line's value: its leading letters, `-` and `_`
/// (`Googlebot/2.1` is `googlebot`), or `*`.
fn product_token(value: &str) -> String {
    if value.starts_with('*') {
        return "*".to_string();
    }
    value
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '-' || *c == '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// A path or pattern in the one form both are compared in: non-ASCII and control bytes
/// percent-encoded, escapes of unreserved characters decoded, other escapes in upper case.
/// In a URL (not a `pattern`), `*` and `$` are encoded: a pattern matches them only when it
/// writes them encoded (RFC 9309, section 2.2.3).
fn normalize(s: &str, pattern: bool) -> Cow<'_, str> {
    let plain = s
        .bytes()
        .all(|b| b.is_ascii_graphic() && b != b'%' && (pattern || (b != b'*' && b != b'$')));
    if plain {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let escape = match (
            c,
            b.get(i + 1).and_then(|&h| hex(h)),
            b.get(i + 2).and_then(|&l| hex(l)),
        ) {
            (b'%', Some(h), Some(l)) => Some(h * 16 + l),
            _ => None,
        };
        if let Some(v) = escape {
            if v.is_ascii_alphanumeric() || matches!(v, b'-' | b'.' | b'_' | b'~') {
                out.push(v as char);
            } else {
                out.push('%');
                out.push(b[i + 1].to_ascii_uppercase() as char);
                out.push(b[i + 2].to_ascii_uppercase() as char);
            }
            i += 3;
            continue;
        }
        let special = !pattern && (c == b'*' || c == b'$');
        if c.is_ascii_graphic() && !special {
            out.push(c as char);
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
        i += 1;
    }
    Cow::Owned(out)
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

impl RobotsRule {
    /// Whether the pattern matches `path` from its first character: `*` any run, a final `$`
    /// the end. Linear in the path for each piece between `*`s (no backtracking blow-up).
    fn matches(&self, path: &str) -> bool {
        let p = &self.pieces;
        let text = |r: &Range<usize>| self.pattern.get(r.clone()).unwrap_or_default();
        let Some(mut rest) = path.strip_prefix(text(&p.first)) else {
            return false;
        };
        let Some(last) = &p.last else {
            return !p.anchored || rest.is_empty();
        };
        for piece in &p.middle {
            let piece = text(piece);
            match rest.find(piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
        if p.anchored {
            rest.ends_with(text(last))
        } else {
            rest.contains(text(last))
        }
    }
}

/// Whether `pattern` matches `path` (tests: a rule cut once, matched once).
#[cfg(test)]
fn matches(pattern: &str, path: &str) -> bool {
    RobotsRule::new(false, pattern.to_string(), 1).matches(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(robots: &Robots, agent: &str, path: &str) -> bool {
        deciding(&robots.rules_for(agent), path).is_none_or(|r| r.allow)
    }

    /// RFC 9309, section 5.1.
    const SIMPLE: &str = "User-Agent: *\n\
Disallow: *.gif$\n\
Disallow: /example/\n\
Allow: /publications/\n\
\n\
User-Agent: foobot\n\
Disallow:/\n\
Allow:/example/page.html\n\
Allow:/example/allowed.gif\n\
\n\
User-Agent: barbot\n\
User-Agent: bazbot\n\
Disallow: /example/page.html\n\
\n\
User-Agent: quxbot\n\
\n\
EOF\n";

    #[test]
    fn rfc_9309_simple_example() {
        let r = Robots::parse(SIMPLE.as_bytes());
        // foobot: only the two allowed paths.
        assert!(allowed(&r, "foobot", "/example/page.html"));
        assert!(allowed(&r, "foobot", "/example/allowed.gif"));
        assert!(!allowed(&r, "foobot", "/"));
        assert!(!allowed(&r, "foobot", "/publications/"));
        assert!(!allowed(&r, "FooBot", "/example/other.html"));
        // barbot and bazbot share a group.
        for bot in ["barbot", "bazbot"] {
            assert!(!allowed(&r, bot, "/example/page.html"), "{bot}");
            assert!(allowed(&r, bot, "/example/other.html"), "{bot}");
            assert!(allowed(&r, bot, "/image.gif"), "{bot}");
        }
        // quxbot: an empty group, everything allowed.
        assert!(allowed(&r, "quxbot", "/example/page.html"));
        // Everyone else: the `*` group.
        assert!(!allowed(&r, "otherbot", "/example/page.html"));
        assert!(!allowed(&r, "otherbot", "/image.gif"));
        assert!(allowed(&r, "otherbot", "/image.gif?size=2"));
        assert!(allowed(&r, "otherbot", "/publications/index.html"));
        assert!(
            allowed(&r, "otherbot", "/publications/chart.gif"),
            "the longer allow"
        );
        assert!(allowed(&r, "otherbot", "/"));
        assert!(allowed(&r, "otherbot", "/robots.txt"));
        assert!(r.names("foobot") && !r.names("otherbot"));
    }

    #[test]
    fn rfc_9309_longest_match_example() {
        // Section 5.2, in both orders: the longest match wins wherever it stands.
        for text in [
            "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n",
            "User-Agent: foobot\nDisallow: /example/page/disallowed.gif\nAllow: /example/page/\n",
        ] {
            let r = Robots::parse(text.as_bytes());
            assert!(allowed(&r, "foobot", "/example/page/"));
            assert!(allowed(&r, "foobot", "/example/page/allowed.gif"));
            assert!(!allowed(&r, "foobot", "/example/page/disallowed.gif"));
        }
    }

    #[test]
    fn rfc_9309_an_allow_as_long_as_a_disallow_wins() {
        let r = Robots::parse(b"User-agent: *\nDisallow: /folder\nAllow: /folder\n");
        assert!(allowed(&r, "any", "/folder/page"));
    }

    #[test]
    fn rfc_9309_special_characters() {
        // Section 2.2.3: `#` comments, `$` ends the pattern, `*` any run.
        let r = Robots::parse(
            b"User-agent: *\nDisallow: /this/path/exactly$ # a comment\nDisallow: /this/*/deep\n",
        );
        assert!(!allowed(&r, "any", "/this/path/exactly"));
        assert!(allowed(&r, "any", "/this/path/exactly/not"));
        assert!(!allowed(&r, "any", "/this/a/b/deep"));
        assert!(!allowed(&r, "any", "/this/x/deeper"));
        assert!(allowed(&r, "any", "/this/deep"));
        // A `*` or `$` in a URL is matched by an encoded one in a pattern.
        let r = Robots::parse(
            b"User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n",
        );
        assert!(!allowed(&r, "any", "/path/file-with-a-*.html"));
        assert!(!allowed(&r, "any", "/path/foo-$"));
        assert!(allowed(&r, "any", "/path/file-with-a-x.html"));
    }

    #[test]
    fn rfc_9309_percent_encoding() {
        // Section 2.2.2's table: paths are compared percent-encoded, unreserved escapes
        // decoded.
        let r = Robots::parse("User-agent: *\nDisallow: /foo/bar/ツ\nDisallow: /foo/bar/%62%61%7A\nDisallow: /q?baz=https%3a%2f%2ffoo.bar\n".as_bytes());
        assert!(!allowed(&r, "any", "/foo/bar/%E3%83%84"));
        assert!(!allowed(&r, "any", "/foo/bar/baz"));
        assert!(!allowed(&r, "any", "/foo/bar/%62az"));
        assert!(!allowed(&r, "any", "/q?baz=https%3A%2F%2Ffoo.bar"));
        assert!(allowed(&r, "any", "/q?baz=https://foo.bar"));
    }

    #[test]
    fn groups_lines_and_odd_files() {
        let text = "Disallow: /before-any-group\r\n\
                    User-agent: Googlebot/2.1\r\n\
                    \r\n\
                    User-agent: bingbot\r\n\
                    Disallow: /private/\r\n\
                    Sitemap: https://e.org/sitemap.xml\r\n\
                    user-agent: *\r\n\
                    disallow: /tmp/\r\n\
                    allow:\r\n\
                    User-agent: googlebot\r\n\
                    Disallow: /g/\r\n";
        let r = Robots::parse(text.as_bytes());
        // Googlebot's groups combine (the first joined bingbot's across the blank line).
        let g = r.rules_for("googlebot");
        assert_eq!(
            g.iter()
                .map(|x| (x.pattern.as_str(), x.line))
                .collect::<Vec<_>>(),
            vec![("/private/", 5), ("/g/", 11)]
        );
        assert!(allowed(&r, "googlebot", "/tmp/x"), "its own groups only");
        assert!(!allowed(&r, "other", "/tmp/x"));
        assert!(allowed(&r, "other", "/before-any-group"));
        assert_eq!(r.rules_for("other")[0].line, 8);
        assert!(Robots::parse(b"").rules_for("googlebot").is_empty());
        let big = vec![b'#'; MAX_ROBOTS_BYTES + 1];
        assert!(Robots::parse(&big).truncated);
    }

    #[test]
    fn wildcards_match_without_blowing_up() {
        assert!(matches("/a*b*c", "/axxbyyc"));
        assert!(matches("/a*b*c$", "/abcc"));
        assert!(!matches("/a*b*c$", "/abcd"));
        assert!(matches("*.gif$", "/x/y.gif"));
        assert!(matches("/*", "/"));
        assert!(matches("/", "/anything"));
        let long = format!("/{}", "a".repeat(50_000));
        assert!(!matches("/*a*a*a*a*a*a*b", &long));
    }

    #[test]
    fn a_run_of_stars_is_cut_once_into_one_piece() {
        let pattern = format!("/blog/{}x{}$", "*".repeat(400_000), "*".repeat(3));
        let p = Pieces::of(&pattern);
        assert_eq!((p.first, p.middle.len(), p.anchored), (0..6, 1, true));
        assert_eq!(p.last.map(|r| r.len()), Some(0));
        assert!(matches(&pattern, "/blog/a/x/b"));
        assert!(!matches(&pattern, "/blog/a/b"));
        assert!(matches("/a$", "/a") && !matches("/a$", "/ab") && matches("/a", "/ab"));
        assert!(matches("/a*$", "/ab") && matches("$", "") && !matches("$", "/"));
    }

    #[test]
    fn wholesale_disallows() {
        for p in ["/", "/*", "*"] {
            let r = RobotsRule::new(false, p.into(), 1);
            assert!(r.is_wholesale(), "{p}");
        }
        let r = RobotsRule::new(false, "/a".into(), 1);
        assert!(!r.is_wholesale());
    }
}
