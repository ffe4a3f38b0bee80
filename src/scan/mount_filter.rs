//! A Hugo mount's file filters (`files`, `includeFiles`, `excludeFiles`), matched as Hugo
//! matches them: Go's gobwas globs over the path below the mount with a leading `/`, case
//! ignored. `*` and `?` stay within a folder, `**` crosses folders (so `/**/*.md` needs a
//! folder and `**.md` does not), `[a-z]` and `{a,b}` as usual. The first pattern that matches
//! decides, `! pattern` leaving out; with some inclusion, what none matches is out, and that
//! applies to the folders on the way as well: an inclusion admits only the folders its own
//! folder part names.

use crate::vocab::error::{Error, Result};
use std::path::Path;

/// One compiled filter entry.
#[derive(Debug)]
enum Entry {
    /// `! pattern`: a file or folder it matches is out.
    Exclude(Glob),
    /// A pattern: a file or folder it matches is in.
    Include(Glob),
    /// A folder on the way to an inclusion's files (`/docs` for `docs/*.md`).
    IncludeDir(Glob),
}

/// A mount's filters.
#[derive(Debug, Default)]
pub(super) struct MountFilter {
    entries: Vec<Entry>,
}

impl MountFilter {
    /// Compiles `patterns`; a bad one is an error naming `origin`.
    pub(super) fn new(patterns: &[String], origin: &Path) -> Result<MountFilter> {
        let mut entries = Vec::new();
        for p in patterns {
            let bad =
                |m: String| Error::config(origin, None, format!("module.mounts: glob '{p}': {m}"));
            let (exclude, raw) = match p.strip_prefix("! ") {
                Some(rest) => (true, rest),
                None => (false, p.as_str()),
            };
            let rooted = rooted(raw);
            let glob = Glob::new(&rooted).map_err(bad)?;
            if exclude {
                entries.push(Entry::Exclude(glob));
                continue;
            }
            entries.push(Entry::Include(glob));
            // Hugo admits the folders of the inclusion's own folder part, each as a glob.
            let dir = rooted.rsplit_once('/').map_or("", |(d, _)| d);
            let mut prefix = String::new();
            entries.push(Entry::IncludeDir(Glob::new("/").map_err(bad)?));
            for seg in dir.split('/').filter(|s| !s.is_empty()) {
                prefix.push('/');
                prefix.push_str(seg);
                entries.push(Entry::IncludeDir(Glob::new(&prefix).map_err(bad)?));
            }
        }
        Ok(MountFilter { entries })
    }

    /// Whether the file at `rel` (below the mount, `/`-separated) is in: it and every folder
    /// above it.
    pub(super) fn admits(&self, rel: &str) -> bool {
        if self.entries.is_empty() {
            return true;
        }
        let path = format!("/{}", rel.to_lowercase());
        let dirs = path.match_indices('/').skip(1).map(|(i, _)| &path[..i]);
        dirs.into_iter().all(|d| self.matches(d, true)) && self.matches(&path, false)
    }

    /// Hugo's decision for one path.
    fn matches(&self, path: &str, is_dir: bool) -> bool {
        let mut has_include = false;
        for e in &self.entries {
            match e {
                Entry::Exclude(g) if g.is_match(path) => return false,
                Entry::Include(g) if g.is_match(path) => return true,
                Entry::Include(_) => has_include = true,
                Entry::IncludeDir(g) if is_dir && g.is_match(path) => return true,
                _ => {}
            }
        }
        !has_include
    }
}

/// A pattern with `/` separators and a leading `/`, lower-cased as Hugo compiles it.
fn rooted(p: &str) -> String {
    let p = p.replace('\\', "/").to_lowercase();
    if p.starts_with('/') {
        p
    } else {
        format!("/{p}")
    }
}

/// One piece of a glob.
#[derive(Clone, Debug)]
enum Tok {
    /// A character.
    Lit(char),
    /// `?`: one character other than `/`.
    One,
    /// `*`: any characters other than `/`.
    Star,
    /// `**`: any characters.
    Stars,
    /// `[...]`: one character in (or, negated, not in) the ranges.
    Class(bool, Vec<(char, char)>),
    /// `{a,b}`: one of the alternatives.
    Alt(Vec<Vec<Tok>>),
}

/// A compiled glob.
#[derive(Debug)]
struct Glob(Vec<Tok>);

impl Glob {
    fn new(p: &str) -> std::result::Result<Glob, String> {
        let chars: Vec<char> = p.chars().collect();
        let (toks, end) = parse(&chars, 0, false)?;
        if end != chars.len() {
            return Err("unbalanced '}'".into());
        }
        Ok(Glob(toks))
    }

    fn is_match(&self, s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        matches(&self.0, &chars)
    }
}

/// Parses from `i` to the end, or (inside braces) to the `,` or `}` that ends an alternative.
fn parse(c: &[char], mut i: usize, in_alt: bool) -> std::result::Result<(Vec<Tok>, usize), String> {
    let mut out = Vec::new();
    while i < c.len() {
        match c[i] {
            ',' | '}' if in_alt => return Ok((out, i)),
            '*' if c.get(i + 1) == Some(&'*') => {
                out.push(Tok::Stars);
                i += 2;
            }
            '*' => {
                out.push(Tok::Star);
                i += 1;
            }
            '?' => {
                out.push(Tok::One);
                i += 1;
            }
            '\\' => {
                out.push(Tok::Lit(*c.get(i + 1).ok_or("ends in '\\'")?));
                i += 2;
            }
            '[' => {
                let (tok, next) = class(c, i + 1)?;
                out.push(tok);
                i = next;
            }
            '{' => {
                let mut alts = Vec::new();
                i += 1;
                loop {
                    let (alt, next) = parse(c, i, true)?;
                    alts.push(alt);
                    match c.get(next) {
                        Some(',') => i = next + 1,
                        Some('}') => {
                            i = next + 1;
                            break;
                        }
                        _ => return Err("unclosed '{'".into()),
                    }
                }
                out.push(Tok::Alt(alts));
            }
            ch => {
                out.push(Tok::Lit(ch));
                i += 1;
            }
        }
    }
    if in_alt {
        return Err("unclosed '{'".into());
    }
    Ok((out, i))
}

/// A `[...]` class starting after the `[`; returns it and the index after the `]`.
fn class(c: &[char], mut i: usize) -> std::result::Result<(Tok, usize), String> {
    let negated = c.get(i) == Some(&'!');
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    while let Some(&ch) = c.get(i) {
        if ch == ']' {
            return Ok((Tok::Class(negated, ranges), i + 1));
        }
        if c.get(i + 1) == Some(&'-') && c.get(i + 2).is_some_and(|&e| e != ']') {
            ranges.push((ch, c[i + 2]));
            i += 3;
        } else {
            ranges.push((ch, ch));
            i += 1;
        }
    }
    Err("unclosed '['".into())
}

/// Whether `toks` match all of `s` (backtracking; patterns and paths are short).
fn matches(toks: &[Tok], s: &[char]) -> bool {
    let Some((first, rest)) = toks.split_first() else {
        return s.is_empty();
    };
    match first {
        Tok::Lit(ch) => s.first() == Some(ch) && matches(rest, &s[1..]),
        Tok::One => s.first().is_some_and(|&ch| ch != '/') && matches(rest, &s[1..]),
        Tok::Class(neg, ranges) => {
            s.first().is_some_and(|&ch| {
                let inside = ranges.iter().any(|&(a, b)| a <= ch && ch <= b);
                inside != *neg && ch != '/'
            }) && matches(rest, &s[1..])
        }
        Tok::Star => {
            let run = s.iter().take_while(|&&ch| ch != '/').count();
            (0..=run).any(|k| matches(rest, &s[k..]))
        }
        Tok::Stars => (0..=s.len()).any(|k| matches(rest, &s[k..])),
        Tok::Alt(alts) => alts.iter().any(|alt| {
            let mut joined = alt.clone();
            joined.extend_from_slice(rest);
            matches(&joined, s)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(patterns: &[&str]) -> MountFilter {
        let p: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
        MountFilter::new(&p, Path::new("hugo.toml")).unwrap()
    }

    #[test]
    fn globs_match_as_gobwas_does() {
        let cases = [
            ("/**.md", "/a/b.md", true),
            ("/**.md", "/b.md", true),
            ("/**/*.md", "/b.md", false),
            ("/**/*.md", "/a/b.md", true),
            ("/*.md", "/a/b.md", false),
            ("/drafts/**", "/drafts/x/y.md", true),
            ("/drafts/**", "/drafts", false),
            ("/{docs,blog}/*.md", "/blog/x.md", true),
            ("/{docs,blog}/*.md", "/news/x.md", false),
            ("/p?st-[0-9].md", "/post-7.md", true),
            ("/p?st-[!0-9].md", "/post-7.md", false),
            ("/a\\*b.md", "/a*b.md", true),
        ];
        for (g, s, want) in cases {
            assert_eq!(Glob::new(g).unwrap().is_match(s), want, "{g} {s}");
        }
        assert!(Glob::new("/{a,b").is_err() && Glob::new("/[ab").is_err());
    }

    #[test]
    fn the_first_pattern_that_matches_decides_and_folders_need_admitting() {
        // Hugo's own results on a mount (tests/fixtures/hugo15/mounts): an inclusion before
        // an exclusion wins, and `**.md` admits no folder below the mount.
        let f = filter(&["**.md", "! private-*.md"]);
        assert!(f.admits("first-post.md") && f.admits("private-notes.md"));
        assert!(!f.admits("nested/deep.md"));
        let f = filter(&["! drafts/**", "! **/*.tmp.md"]);
        assert!(!f.admits("drafts/wip.md") && f.admits("scratch.tmp.md"));
        assert!(!f.admits("cli/x.tmp.md") && f.admits("cli/commands.md"));
        let f = filter(&["docs/*.md"]);
        assert!(f.admits("docs/a.md") && !f.admits("b.md") && !f.admits("docs/sub/c.md"));
        assert!(filter(&[]).admits("any/thing.md"));
        assert!(filter(&["**.MD"]).admits("README.md"));
    }
}
