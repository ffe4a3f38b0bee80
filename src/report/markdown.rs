//! The report as Markdown, for a GitHub job summary: the same sections as the HTML page,
//! each list cut at [`MAX_ROWS`] (a job summary holds at most 1 MiB), the URL tree as one
//! line per section.

use super::Report;
use std::fmt::Write;

/// Most rows of any one list.
const MAX_ROWS: usize = 25;

/// The report as Markdown.
pub fn markdown(r: &Report) -> String {
    let mut o = String::new();
    let t = &r.totals;
    let made = r
        .today
        .map(|d| format!(" · made {}", d.format("%Y-%m-%d")))
        .unwrap_or_default();
    let _ = writeln!(o, "## Sitemap report: {}\n", cell(&r.base_url));
    let _ = writeln!(o, "{}{made}\n", cell(&r.generator));
    o.push_str(
        "| URLs listed | content files read | languages | pages left out |\n|---:|---:|---|---:|\n",
    );
    let _ = writeln!(
        o,
        "| {} | {} | {} | {} |\n",
        t.urls,
        t.files,
        cell(&t.languages.join(", ")),
        t.left_out
    );
    for w in &r.warnings {
        let _ = writeln!(o, "- :warning: {}", line(w));
    }
    if !r.warnings.is_empty() {
        o.push('\n');
    }

    let h = &r.health;
    o.push_str("### Lastmod health\n\n");
    let dated: usize = h.histogram.iter().map(|b| b.count).sum();
    match (h.histogram.first(), h.histogram.last()) {
        (Some(first), Some(last)) => {
            let _ = writeln!(
                o,
                "{dated} dated URLs from {} to {}; {} undated.\n",
                first.label, last.label, h.undated
            );
        }
        _ => {
            let _ = writeln!(o, "No URL has a lastmod ({} undated).\n", h.undated);
        }
    }
    if !h.groups.is_empty() {
        o.push_str("| day | URLs | what dated them |\n|---|---:|---|\n");
        for g in &h.groups {
            let causes: Vec<String> = g
                .causes
                .iter()
                .map(|(c, n)| format!("{n} × {}", cell(c)))
                .collect();
            let _ = writeln!(o, "| {} | {} | {} |", g.day, g.count, causes.join("<br>"));
        }
        o.push('\n');
    }
    let _ = writeln!(o, "Dates in the future: {}.", h.future.len());
    list(&mut o, h.future.iter().map(|(u, d)| format!("{u}: {d}")));
    if let Some(first) = h.first_commit {
        let _ = writeln!(
            o,
            "Dates before the first commit ({}): {}.",
            first.format("%Y-%m-%d"),
            h.before_history.len()
        );
        list(
            &mut o,
            h.before_history.iter().map(|(u, d)| format!("{u}: {d}")),
        );
    }
    o.push('\n');

    let _ = writeln!(o, "### Left out: {}\n", t.left_out);
    for g in &r.left_out {
        let n = g.pages.len();
        let _ = writeln!(
            o,
            "**{}** ({n}): {} To list: {}\n",
            g.reason, g.meaning, g.fix
        );
        o.push_str("| file | where it is decided | URL |\n|---|---|---|\n");
        for p in g.pages.iter().take(MAX_ROWS) {
            let _ = writeln!(
                o,
                "| {} | {} | {} |",
                cell(p.file.as_deref().unwrap_or("a generated page")),
                cell(p.place.as_deref().unwrap_or("")),
                cell(p.url.as_deref().unwrap_or(""))
            );
        }
        more(&mut o, n);
        o.push('\n');
    }

    if !r.exclude_globs.is_empty() {
        o.push_str(
            "Not read at all, so not counted above: the files these `exclude` globs match.\n",
        );
        list(&mut o, r.exclude_globs.iter().cloned());
        o.push('\n');
    }
    o.push_str("### Host, robots.txt and the audit\n\n");
    for d in &r.decisions {
        let _ = writeln!(o, "- {}", line(d));
    }
    let a = &r.audit;
    if a.ran {
        let left: usize = a.left_out.iter().map(|(_, n)| n).sum();
        let _ = writeln!(
            o,
            "- The audit of the built output left out {left} URLs; it kept {} listed whose output was older than their source.",
            a.kept
        );
    } else {
        o.push_str("- The audit of the built output did not run.\n");
    }
    o.push('\n');

    if let Some(c) = &r.changes {
        let _ = writeln!(
            o,
            "### Changes since {}\n\n{} added, {} removed, {} re-dated.\n",
            cell(&c.against),
            c.added.len(),
            c.removed.len(),
            c.redated.len()
        );
        for (title, urls) in [("Added", &c.added), ("Removed", &c.removed)] {
            if !urls.is_empty() {
                let _ = writeln!(o, "{title}:");
                list(&mut o, urls.iter().cloned());
            }
        }
        if !c.redated.is_empty() {
            o.push_str("Re-dated:\n");
            list(
                &mut o,
                c.redated
                    .iter()
                    .map(|m| format!("{}: {} → {}", m.url, m.old, m.new)),
            );
        }
        o.push('\n');
    }

    o.push_str("### URLs by section\n\n| section | URLs | newest lastmod |\n|---|---:|---|\n");
    for s in &r.sections {
        let newest = s.rows.iter().filter_map(|r| r.lastmod).max();
        let _ = writeln!(
            o,
            "| `{}` | {} | {} |",
            s.path.replace('`', "'"),
            s.rows.len(),
            newest.map(|d| d.to_string()).unwrap_or_default()
        );
    }
    o
}

/// A bulleted list of at most [`MAX_ROWS`] items, and a line for the rest.
fn list(o: &mut String, items: impl ExactSizeIterator<Item = String>) {
    let n = items.len();
    for item in items.take(MAX_ROWS) {
        let _ = writeln!(o, "- {}", line(&item));
    }
    more(o, n);
}

/// `… and 12 more (see the HTML report)` when a list was cut.
fn more(o: &mut String, n: usize) {
    if n > MAX_ROWS {
        let _ = writeln!(
            o,
            "\n… and {} more: the HTML report (`sitemapgen report`) lists them all.",
            n - MAX_ROWS
        );
    }
}

/// Text for a table cell: no line breaks, `|` escaped, HTML kept as text.
fn cell(text: &str) -> String {
    line(text).replace('|', "\\|")
}

/// Text on one Markdown line, with `<` and `&` written so nothing reads as HTML.
fn line(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_on_one_line_and_in_their_column() {
        assert_eq!(cell("a|b\nc<d>"), "a\\|b c&lt;d>");
    }
}
