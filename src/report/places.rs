//! Where a page's front matter says what left it out: the line of `draft`, of the future
//! publication date, of `sitemap = false`, so the report can point at `file:line`.
//!
//! A plain look at the lines of the front matter block (TOML, YAML or JSON), not a parse:
//! the file was parsed already, and all that is wanted here is the first line that sets one
//! of the reason's keys. When the key is not in the file (a cascade from a section, a rule
//! elsewhere) there is no place, and the report says what to change all the same.

use crate::route::Reason;
use crate::vocab::limits::MAX_FRONT_MATTER;
use std::io::Read;
use std::path::Path;

/// The front matter keys that can leave a page out for `reason`, most telling first
/// (compared without case: Hugo's keys have none).
fn keys(reason: Reason) -> &'static [&'static str] {
    match reason {
        Reason::Draft => &["draft"],
        Reason::Future => &["publishdate", "pubdate", "published", "date"],
        Reason::Expired => &["expirydate", "unpublishdate", "expires", "expiry_date"],
        Reason::SitemapOff => &["sitemap", "disable"],
        Reason::Noindex => &["noindex"],
        Reason::NotRendered => &["render", "_build", "build", "headless", "list"],
        Reason::Redirect => &["redirect_to"],
        Reason::NoHtmlOutput => &["outputs"],
        _ => &[],
    }
}

/// `file:line` of the front matter key behind `reason`, when the file has one.
pub(super) fn place(file: &Path, reason: Reason) -> Option<String> {
    let keys = keys(reason);
    if keys.is_empty() {
        return None;
    }
    let line = key_line(&front_matter_text(file)?, keys)?;
    Some(format!("{}:{line}", file.display()))
}

/// The start of the file, as far as front matter may reach.
fn front_matter_text(file: &Path) -> Option<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .ok()?
        .take(MAX_FRONT_MATTER as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The 1-based line, inside the front matter block, of the first of `keys` (in their order)
/// that a line sets: `key = …`, `key: …`, `"key": …` or a `[key]` table.
fn key_line(text: &str, keys: &[&str]) -> Option<usize> {
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next()?;
    let close = match first.trim_end() {
        "+++" => "+++",
        "---" => "---",
        "{" => "}",
        _ => return None,
    };
    let mut found: Vec<(usize, usize)> = Vec::new();
    for (i, line) in lines {
        if line.trim_end() == close {
            break;
        }
        if let Some(k) = key_of(line)
            && let Some(rank) = keys.iter().position(|want| want.eq_ignore_ascii_case(k))
        {
            found.push((rank, i + 1));
        }
    }
    found.into_iter().min().map(|(_, line)| line)
}

/// The key a line sets or the table it opens, without quotes or brackets.
fn key_of(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let t = t.trim_start_matches('[').trim_start();
    let end = t.find(['=', ':', ']', ' ', '\t', '.'])?;
    let key = t[..end].trim_matches(['"', '\'']);
    (!key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_key_in_each_format() {
        let toml = "+++\ntitle = \"A\"\ndraft = true\n+++\ndraft = true\n";
        assert_eq!(key_line(toml, &["draft"]), Some(3));
        let yaml = "---\ntitle: A\nDraft: yes\n---\n";
        assert_eq!(key_line(yaml, &["draft"]), Some(3));
        let json = "{\n  \"title\": \"A\",\n  \"draft\": true\n}\n";
        assert_eq!(key_line(json, &["draft"]), Some(3));
        let table = "+++\ntitle = \"A\"\n[_build]\nrender = \"never\"\n+++\n";
        assert_eq!(key_line(table, &["render", "_build"]), Some(4));
    }

    #[test]
    fn prefers_the_more_telling_key_and_stays_in_the_block() {
        let fm = "---\ndate: 2099-01-01\npublishDate: 2099-02-01\n---\n";
        assert_eq!(
            key_line(fm, &["publishdate", "pubdate", "published", "date"]),
            Some(3)
        );
        // Past the block, a body line is no key; without a block there is none.
        assert_eq!(
            key_line("---\ntitle: A\n---\ndraft: true\n", &["draft"]),
            None
        );
        assert_eq!(key_line("draft = true\n", &["draft"]), None);
        // `drafts` is another key.
        assert_eq!(key_line("+++\ndrafts = 1\n+++\n", &["draft"]), None);
    }
}
