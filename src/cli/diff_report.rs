//! `diff`'s output: lines for a terminal or a script, Markdown for a pull-request comment or
//! `$GITHUB_STEP_SUMMARY` (capped), JSON (whole).

use serde::Serialize;
use sitemapgen::diff::Diff;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The two sides, as named for people.
pub struct Sides<'a> {
    /// The old set: a file or URL.
    pub old: &'a str,
    /// The new set: a file, a URL, or (`new_is_build`) what build would write.
    pub new: &'a str,
    /// True when the new set is what build would write, not a file or URL.
    pub new_is_build: bool,
    /// URLs in the old set.
    pub old_urls: usize,
    /// URLs in the new set.
    pub new_urls: usize,
}

/// `+ url`, `- url`, `~ url old -> new`, one a line, every one.
pub fn text(out: &mut dyn Write, d: &Diff) -> io::Result<()> {
    for u in &d.added {
        writeln!(out, "+ {u}")?;
    }
    for u in &d.removed {
        writeln!(out, "- {u}")?;
    }
    for m in &d.moved {
        writeln!(out, "~ {} {} -> {}", m.url, m.old, m.new)?;
    }
    Ok(())
}

/// The one-line summary (stderr in text mode): `2 added, 1 removed, 3 lastmod moved`.
pub fn summary(d: &Diff, sides: &Sides<'_>) -> String {
    if d.is_empty() {
        return format!(
            "no change: {} and {} list the same {} with the same dates",
            sides.old,
            sides.new,
            super::out::count(sides.new_urls, "URL", "URLs")
        );
    }
    format!(
        "{} added, {} removed, {} lastmod moved ({} -> {})",
        d.added.len(),
        d.removed.len(),
        d.moved.len(),
        sides.old,
        sides.new
    )
}

/// `diff --format json`.
#[derive(Serialize)]
struct DiffReport<'a> {
    /// URLs only the new set lists.
    added: &'a [String],
    /// Each moved URL's old and new lastmod.
    lastmods: BTreeMap<&'a str, Dates<'a>>,
    /// URLs whose lastmod moved.
    moved: Vec<&'a str>,
    /// The new set as named.
    new: &'a str,
    /// URLs in the new set.
    new_urls: usize,
    /// The old set as named.
    old: &'a str,
    /// URLs in the old set.
    old_urls: usize,
    /// URLs only the old set lists.
    removed: &'a [String],
}

/// A moved URL's two dates.
#[derive(Serialize)]
struct Dates<'a> {
    new: &'a str,
    old: &'a str,
}

/// The whole diff as one JSON object.
pub fn json(out: &mut dyn Write, d: &Diff, sides: &Sides<'_>) -> io::Result<()> {
    let report = DiffReport {
        added: &d.added,
        lastmods: d
            .moved
            .iter()
            .map(|m| {
                (
                    m.url.as_str(),
                    Dates {
                        new: &m.new,
                        old: &m.old,
                    },
                )
            })
            .collect(),
        moved: d.moved.iter().map(|m| m.url.as_str()).collect(),
        new: sides.new,
        new_urls: sides.new_urls,
        old: sides.old,
        old_urls: sides.old_urls,
        removed: &d.removed,
    };
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)
}

/// Most characters of Markdown: a pull-request comment holds 65,536.
const MARKDOWN_BUDGET: usize = 60_000;

/// The diff in Markdown: a heading, the counts, then each kind with at most `max` URLs (and
/// within [`MARKDOWN_BUDGET`] in all), the rest counted.
pub fn markdown(out: &mut dyn Write, d: &Diff, sides: &Sides<'_>, max: usize) -> io::Result<()> {
    let mut md = String::from("### Sitemap changes\n\n");
    let old = code(sides.old);
    let new = if sides.new_is_build {
        sides.new.to_string()
    } else {
        code(sides.new)
    };
    if d.is_empty() {
        md += &format!(
            "No change: {new} lists the same {} as {old}, with the same dates.\n",
            super::out::count(sides.new_urls, "URL", "URLs")
        );
        return out.write_all(md.as_bytes());
    }
    md += &format!(
        "{old} → {new}: **{} added**, **{} removed**, **{} lastmod moved** ({} URLs before, {} now).\n",
        d.added.len(),
        d.removed.len(),
        d.moved.len(),
        super::print::thousands(sides.old_urls),
        super::print::thousands(sides.new_urls),
    );
    // Three headings, the table's head and three "…and N more" lines fit in what is kept back.
    let mut budget = MARKDOWN_BUDGET.saturating_sub(md.len() + 1_000);
    let mut list = |md: &mut String, title: &str, rows: Vec<String>, head: &str| {
        if rows.is_empty() {
            return;
        }
        *md += &format!("\n#### {title} ({})\n\n{head}", rows.len());
        let mut shown = 0;
        for row in &rows {
            if shown == max || row.len() > budget {
                break;
            }
            budget -= row.len();
            md.push_str(row);
            shown += 1;
        }
        if shown < rows.len() {
            *md += &format!(
                "\n…and {} more.\n",
                super::print::thousands(rows.len() - shown)
            );
        }
    };
    let item = |u: &String| format!("- {}\n", link(u));
    list(&mut md, "Added", d.added.iter().map(item).collect(), "");
    list(&mut md, "Removed", d.removed.iter().map(item).collect(), "");
    let rows = d
        .moved
        .iter()
        .map(|m| {
            format!(
                "| {} | {} | {} |\n",
                link(&m.url),
                cell(&m.old),
                cell(&m.new)
            )
        })
        .collect();
    list(
        &mut md,
        "lastmod moved",
        rows,
        "| URL | was | now |\n|---|---|---|\n",
    );
    out.write_all(md.as_bytes())
}

/// `text` as an inline code span, fenced with more backticks than it holds in a row.
fn code(text: &str) -> String {
    let (_, run) = text.chars().fold((0, 0), |(cur, max), c| {
        if c == '`' {
            (cur + 1, max.max(cur + 1))
        } else {
            (0, max)
        }
    });
    let fence = "`".repeat(run + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!(
        "{fence}{pad}{}{pad}{fence}",
        text.replace(['\n', '\r'], " ")
    )
}

/// A URL as a Markdown autolink, safe in a list and a table: the characters an autolink or a
/// table cell cannot hold are percent-encoded (the same URL to a browser).
fn link(url: &str) -> String {
    // An autolink needs a scheme: a relative loc (Hugo with an empty baseURL) is code.
    if !url.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    }) {
        return code(&url.replace('|', "%7C"));
    }
    let mut s = String::with_capacity(url.len() + 2);
    s.push('<');
    for c in url.chars() {
        match c {
            '<' => s.push_str("%3C"),
            '>' => s.push_str("%3E"),
            '|' => s.push_str("%7C"),
            '\\' => s.push_str("%5C"),
            c if c.is_whitespace() || c.is_control() => {
                let mut b = [0; 4];
                for byte in c.encode_utf8(&mut b).bytes() {
                    s.push_str(&format!("%{byte:02X}"));
                }
            }
            c => s.push(c),
        }
    }
    s.push('>');
    s
}

/// A date in a table cell: backslash before Markdown's punctuation, `|` escaped.
fn cell(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_punctuation() && !matches!(c, '-' | ':' | '.' | '+') {
            s.push('\\');
        }
        s.push(if c.is_control() { ' ' } else { c });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use sitemapgen::diff::Moved;

    fn sample(n: usize) -> Diff {
        Diff {
            added: (0..n).map(|i| format!("https://e.com/a{i}/")).collect(),
            removed: vec!["https://e.com/x|y z".into()],
            moved: vec![Moved {
                url: "https://e.com/m/".into(),
                old: "2024-01-01".into(),
                new: "2024-02-01".into(),
            }],
        }
    }

    fn md(d: &Diff, max: usize) -> String {
        let mut out = Vec::new();
        let sides = Sides {
            old: "https://e.com/sitemap.xml",
            new: "public/sitemap.xml",
            new_is_build: false,
            old_urls: 10,
            new_urls: 12,
        };
        markdown(&mut out, d, &sides, max).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn markdown_lists_each_kind_capped_with_a_count_of_the_rest() {
        assert_eq!(
            md(&sample(3), 2),
            "### Sitemap changes\n\n\
             `https://e.com/sitemap.xml` → `public/sitemap.xml`: **3 added**, **1 removed**, **1 lastmod moved** (10 URLs before, 12 now).\n\
             \n#### Added (3)\n\n- <https://e.com/a0/>\n- <https://e.com/a1/>\n\n…and 1 more.\n\
             \n#### Removed (1)\n\n- <https://e.com/x%7Cy%20z>\n\
             \n#### lastmod moved (1)\n\n| URL | was | now |\n|---|---|---|\n| <https://e.com/m/> | 2024-01-01 | 2024-02-01 |\n"
        );
    }

    #[test]
    fn markdown_stays_within_a_comments_size() {
        let text = md(&sample(5_000), usize::MAX);
        assert!(text.len() <= MARKDOWN_BUDGET, "{}", text.len());
        assert!(text.contains("more.\n"), "the rest is counted");
        let none = md(&Diff::default(), 50);
        assert_eq!(
            none,
            "### Sitemap changes\n\nNo change: `public/sitemap.xml` lists the same 12 URLs as `https://e.com/sitemap.xml`, with the same dates.\n"
        );
    }

    #[test]
    fn code_spans_hold_backticks() {
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
        assert_eq!(cell("2024|01"), "2024\\|01");
        assert_eq!(link("/a|b/"), "`/a%7Cb/`");
        assert_eq!(link("https://e.com/a b"), "<https://e.com/a%20b>");
    }
}
