//! The report as one self-contained HTML page: inline style, an inline SVG histogram, no
//! request to anywhere. Everything is readable without JavaScript; the small script at the
//! end only filters and sorts the URL tables.

use super::{Bar, LeftOutGroup, MARK, Report, Row};
use rayon::prelude::*;
use std::fmt::Write;

/// The page's style: plain, readable, printable; dark where the reader's system is.
const STYLE: &str = r#"
:root{color-scheme:light dark;--fg:#1b1f24;--mute:#57606a;--line:#d0d7de;--bar:#2f6fba;--warn:#9a6700;--bg2:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--mute:#9198a1;--line:#3d444d;--bar:#58a6ff;--warn:#d29922;--bg2:#151b23}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);margin:0 auto;max-width:1200px;padding:0 1.2em 3em}
header{border-bottom:1px solid var(--line);margin-bottom:1em}
h1{margin:.6em 0 0}h2{margin-top:1.8em;border-bottom:1px solid var(--line)}
.sub,.mute,figcaption{color:var(--mute)}
nav a{margin-right:1em}
.cards{display:flex;flex-wrap:wrap;gap:.8em}
.card{border:1px solid var(--line);border-radius:6px;padding:.6em 1em;min-width:9em;background:var(--bg2)}
.card .n{display:block;font-size:1.8em;font-weight:600}
table{border-collapse:collapse;width:100%;margin:.4em 0 1em;font-size:.92em}
th,td{text-align:left;padding:.25em .5em;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
th{background:var(--bg2)}th[data-col]{cursor:pointer}
td.n,th.n{text-align:right;white-space:nowrap}
td.d{white-space:nowrap}
details{margin:.5em 0}summary{cursor:pointer;padding:.2em 0}
.fix{border-left:3px solid var(--warn);padding-left:.7em}
svg .bar{fill:var(--bar)}svg text{fill:var(--mute);font-size:11px}svg line{stroke:var(--line)}
code{font-size:.9em}
#filter{font:inherit;padding:.3em .5em;width:24em;max-width:100%}
table.urls{table-layout:fixed}table.urls th:nth-child(1){width:38%}table.urls th:nth-child(2){width:13%}
"#;

/// Filters every URL table by the text typed, and sorts a table by the column clicked.
const SCRIPT: &str = r#"
(function(){
var input=document.getElementById('filter'),shown=document.getElementById('shown');
var rows=Array.prototype.slice.call(document.querySelectorAll('table.urls tbody tr'));
var text=rows.map(function(r){return r.textContent.toLowerCase();});
function filter(){var q=input.value.trim().toLowerCase(),n=0;
for(var i=0;i<rows.length;i++){var on=!q||text[i].indexOf(q)>=0;rows[i].hidden=!on;if(on){n++;if(q)rows[i].closest('details').open=true;}}
shown.textContent=q?n+' of '+rows.length+' URLs match':'';}
if(input){input.addEventListener('input',filter);}
document.querySelectorAll('th[data-col]').forEach(function(th){th.addEventListener('click',function(){
var table=th.closest('table'),body=table.tBodies[0],col=+th.dataset.col,up=th.dataset.dir!=='up';
th.dataset.dir=up?'up':'down';
var list=Array.prototype.slice.call(body.rows);
list.sort(function(a,b){var x=a.cells[col].textContent,y=b.cells[col].textContent;return up?x.localeCompare(y):y.localeCompare(x);});
list.forEach(function(r){body.appendChild(r);});});});
})();
"#;

/// Sites of up to this many URLs show every section open.
const OPEN_SECTIONS_UP_TO: usize = 2000;

/// The histogram's size in SVG units.
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 160.0;
const LEFT: f64 = 44.0;
const BOTTOM: f64 = 22.0;

/// The report as an HTML page.
pub fn html(r: &Report) -> String {
    let rows: usize = r.sections.iter().map(|s| s.rows.len()).sum();
    let mut o = String::with_capacity(8192 + rows * 260);
    o.push_str(MARK);
    o.push_str("<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        o,
        "<meta name=\"generator\" content=\"sitemapgen {}\">\n<title>Sitemap report: {}</title>\n<style>{STYLE}</style></head><body>",
        env!("CARGO_PKG_VERSION"),
        esc(&r.base_url)
    );
    header(&mut o, r);
    o.push_str("<main>\n");
    totals(&mut o, r);
    health(&mut o, r);
    left_out(&mut o, r);
    decisions(&mut o, r);
    changes(&mut o, r);
    urls(&mut o, r);
    o.push_str("</main>\n<script>");
    o.push_str(SCRIPT);
    o.push_str("</script>\n</body></html>\n");
    o
}

fn header(o: &mut String, r: &Report) {
    let made = r
        .today
        .map(|d| format!(" · made {}", d.format("%Y-%m-%d")))
        .unwrap_or_default();
    let _ = writeln!(
        o,
        "<header><h1>Sitemap report</h1><p class=\"sub\"><a href=\"{0}\">{0}</a> · {1}{made}</p>",
        esc(&r.base_url),
        esc(&r.generator)
    );
    o.push_str("<nav><a href=\"#totals\">Totals</a><a href=\"#health\">Dates</a><a href=\"#left-out\">Left out</a><a href=\"#decisions\">Host and audit</a>");
    if r.changes.is_some() {
        o.push_str("<a href=\"#changes\">Changes</a>");
    }
    o.push_str("<a href=\"#urls\">URLs</a></nav></header>\n");
}

fn totals(o: &mut String, r: &Report) {
    let t = &r.totals;
    o.push_str("<section id=\"totals\"><h2>Totals</h2><div class=\"cards\">\n");
    card(o, "n-urls", t.urls, "URL listed", "URLs listed");
    card(
        o,
        "n-files",
        t.files,
        "content file read",
        "content files read",
    );
    let _ = writeln!(
        o,
        "<div class=\"card\"><span class=\"n\" id=\"n-languages\">{}</span>{}: {}</div>",
        t.languages.len(),
        if t.languages.len() == 1 {
            "language"
        } else {
            "languages"
        },
        esc(&t.languages.join(", "))
    );
    card(
        o,
        "n-left-out",
        t.left_out,
        "page left out",
        "pages left out",
    );
    o.push_str("</div>\n");
    if !t.sitemaps.is_empty() {
        o.push_str("<p>Written to ");
        for (i, s) in t.sitemaps.iter().enumerate() {
            if i > 0 {
                o.push_str(", ");
            }
            let _ = write!(o, "<code>{}</code>", esc(s));
        }
        o.push_str(".</p>\n");
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(
            o,
            "<details id=\"warnings\"{}><summary><b>Warnings: {}</b></summary><ul>",
            if r.warnings.len() <= 10 { " open" } else { "" },
            r.warning_count
        );
        for w in &r.warnings {
            let _ = writeln!(o, "<li>{}</li>", esc(w));
        }
        o.push_str("</ul></details>\n");
    }
    o.push_str("</section>\n");
}

fn card(o: &mut String, id: &str, n: usize, one: &str, many: &str) {
    let _ = writeln!(
        o,
        "<div class=\"card\"><span class=\"n\" id=\"{id}\">{n}</span>{}</div>",
        if n == 1 { one } else { many }
    );
}

fn health(o: &mut String, r: &Report) {
    let h = &r.health;
    o.push_str("<section id=\"health\"><h2>Lastmod health</h2>\n");
    let dated: usize = h.histogram.iter().map(|b| b.count).sum();
    if h.histogram.is_empty() {
        let _ = writeln!(o, "<p>No URL has a lastmod ({} undated).</p>", h.undated);
    } else {
        o.push_str("<figure>");
        histogram(o, &h.histogram);
        let _ = writeln!(
            o,
            "<figcaption>{dated} dated URLs by {} of their lastmod, {} to {}; {} undated.</figcaption></figure>",
            if h.by_day { "day" } else { "month" },
            h.histogram[0].label,
            h.histogram[h.histogram.len() - 1].label,
            h.undated
        );
    }
    o.push_str("<h3>The days the most URLs share</h3>\n");
    if h.groups.is_empty() {
        o.push_str("<p>No two URLs share a day.</p>\n");
    } else {
        o.push_str("<table id=\"date-groups\"><thead><tr><th>Day</th><th class=\"n\">URLs</th><th>What dated them</th></tr></thead><tbody>\n");
        for g in &h.groups {
            let _ = write!(
                o,
                "<tr><td class=\"d\">{}</td><td class=\"n\">{}</td><td>",
                g.day, g.count
            );
            for (i, (cause, n)) in g.causes.iter().enumerate() {
                if i > 0 {
                    o.push_str("<br>");
                }
                let _ = write!(o, "{n} × {}", esc(cause));
            }
            o.push_str("</td></tr>\n");
        }
        o.push_str("</tbody></table>\n");
    }
    dated_list(
        o,
        "future",
        "Dates in the future",
        &h.future,
        "None: no lastmod lies after today.",
    );
    if let Some(first) = h.first_commit {
        let title = format!(
            "Dates before the repository's first commit ({})",
            first.format("%Y-%m-%d")
        );
        dated_list(
            o,
            "before-history",
            &title,
            &h.before_history,
            "None: every lastmod is on or after it.",
        );
    }
    o.push_str("</section>\n");
}

fn dated_list(o: &mut String, id: &str, title: &str, list: &[(String, String)], none: &str) {
    let _ = writeln!(o, "<h3>{} ({})</h3>", esc(title), list.len());
    if list.is_empty() {
        let _ = writeln!(o, "<p class=\"mute\">{none}</p>");
        return;
    }
    let _ = writeln!(o, "<ul id=\"{id}\">");
    for (loc, date) in list {
        let _ = writeln!(
            o,
            "<li><a href=\"{0}\">{0}</a>: {1}</li>",
            esc(loc),
            esc(date)
        );
    }
    o.push_str("</ul>\n");
}

/// Bars in an SVG, each with its label and count as a tooltip; the tallest bar's count on
/// the axis, the first and last labels below.
fn histogram(o: &mut String, bars: &[Bar]) {
    let max = bars.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
    let plot = HEIGHT - BOTTOM;
    let step = (WIDTH - LEFT) / bars.len() as f64;
    let gap = if step > 3.0 { 1.0 } else { 0.0 };
    let _ = writeln!(
        o,
        "<svg id=\"histogram\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"100%\" role=\"img\" aria-label=\"URLs by date of their lastmod\">"
    );
    let _ = writeln!(
        o,
        "<line x1=\"{LEFT}\" y1=\"{plot}\" x2=\"{WIDTH}\" y2=\"{plot}\"/><text x=\"{}\" y=\"12\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"{plot}\" text-anchor=\"end\">0</text>",
        LEFT - 6.0,
        max as usize,
        LEFT - 6.0
    );
    for (i, b) in bars.iter().enumerate() {
        if b.count == 0 {
            continue;
        }
        let h = (b.count as f64 / max * (plot - 4.0)).max(1.0);
        let _ = writeln!(
            o,
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\"><title>{}: {} URL{}</title></rect>",
            LEFT + i as f64 * step,
            plot - h,
            (step - gap).max(0.5),
            b.label,
            b.count,
            if b.count == 1 { "" } else { "s" }
        );
    }
    let last = &bars[bars.len() - 1];
    let _ = writeln!(
        o,
        "<text x=\"{LEFT}\" y=\"{}\">{}</text><text x=\"{WIDTH}\" y=\"{}\" text-anchor=\"end\">{}</text></svg>",
        HEIGHT - 6.0,
        bars[0].label,
        HEIGHT - 6.0,
        last.label
    );
}

fn left_out(o: &mut String, r: &Report) {
    let _ = writeln!(
        o,
        "<section id=\"left-out\"><h2>Left out: {} page{}</h2>",
        r.totals.left_out,
        if r.totals.left_out == 1 { "" } else { "s" }
    );
    if r.left_out.is_empty() {
        o.push_str("<p>Every page the site publishes is listed.</p>\n");
    }
    for g in &r.left_out {
        group(o, g);
    }
    if !r.exclude_globs.is_empty() {
        o.push_str("<p id=\"exclude-globs\">Not read at all, so not counted above: the files these <code>exclude</code> globs match. To list such a file, narrow or remove its glob.</p><ul>\n");
        for g in &r.exclude_globs {
            let _ = writeln!(o, "<li><code>{}</code></li>", esc(g));
        }
        o.push_str("</ul>\n");
    }
    o.push_str("</section>\n");
}

fn group(o: &mut String, g: &LeftOutGroup) {
    let n = g.pages.len();
    let _ = writeln!(
        o,
        "<details class=\"reason\" id=\"reason-{0}\" open><summary><b>{0}</b>: {n} page{1}. {2}</summary>\n<p class=\"fix\">To list: {3}</p>",
        g.reason,
        if n == 1 { "" } else { "s" },
        esc(g.meaning),
        code_spans(g.fix)
    );
    o.push_str("<table><thead><tr><th>File</th><th>Where it is decided</th><th>URL</th><th>What was found</th></tr></thead><tbody>\n");
    for p in &g.pages {
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td><td>",
            p.file
                .as_deref()
                .map_or_else(|| "a generated page".into(), esc),
            p.place.as_deref().map_or_else(String::new, esc),
        );
        if let Some(u) = &p.url {
            let _ = write!(o, "<a href=\"{0}\">{0}</a>", esc(u));
        }
        let _ = writeln!(
            o,
            "</td><td>{}</td></tr>",
            p.detail.as_deref().map_or_else(String::new, esc)
        );
    }
    o.push_str("</tbody></table></details>\n");
}

fn decisions(o: &mut String, r: &Report) {
    o.push_str("<section id=\"decisions\"><h2>Host, robots.txt and the audit</h2>\n");
    if r.decisions.is_empty() {
        o.push_str("<p>The site's files decided nothing that changes the sitemap.</p>\n");
    } else {
        o.push_str("<ul>\n");
        for d in &r.decisions {
            let _ = writeln!(o, "<li>{}</li>", esc(d));
        }
        o.push_str("</ul>\n");
    }
    let a = &r.audit;
    if !a.ran {
        o.push_str("<p id=\"audit\">The audit of the built output did not run (no built output, or it is off), so the sitemap follows the content files alone.</p>\n");
    } else {
        let left: usize = a.left_out.iter().map(|(_, n)| n).sum();
        let _ = write!(
            o,
            "<p id=\"audit\">The audit read the built output and left out {left} URL{}",
            if left == 1 { "" } else { "s" }
        );
        if left > 0 {
            let by: Vec<String> = a
                .left_out
                .iter()
                .map(|(reason, n)| format!("{n} {reason}"))
                .collect();
            let _ = write!(o, " ({})", by.join(", "));
        }
        o.push('.');
        if a.kept > 0 {
            let _ = write!(
                o,
                " It kept {} page{} listed that it would have left out, because the output was older than their sources.",
                a.kept,
                if a.kept == 1 { "" } else { "s" }
            );
        }
        o.push_str("</p>\n");
    }
    o.push_str("</section>\n");
}

fn changes(o: &mut String, r: &Report) {
    let Some(c) = &r.changes else {
        return;
    };
    let _ = writeln!(
        o,
        "<section id=\"changes\"><h2>Changes since {}</h2><p>{} added, {} removed, {} re-dated.</p>",
        esc(&c.against),
        c.added.len(),
        c.removed.len(),
        c.redated.len()
    );
    for (title, list) in [("Added", &c.added), ("Removed", &c.removed)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(
            o,
            "<details open><summary>{title} ({})</summary><ul>",
            list.len()
        );
        for u in list {
            let _ = writeln!(o, "<li><a href=\"{0}\">{0}</a></li>", esc(u));
        }
        o.push_str("</ul></details>\n");
    }
    if !c.redated.is_empty() {
        let _ = writeln!(
            o,
            "<details open><summary>Re-dated ({})</summary><table><thead><tr><th>URL</th><th>Was</th><th>Now</th></tr></thead><tbody>",
            c.redated.len()
        );
        for m in &c.redated {
            let _ = writeln!(
                o,
                "<tr><td><a href=\"{0}\">{0}</a></td><td class=\"d\">{1}</td><td class=\"d\">{2}</td></tr>",
                esc(&m.url),
                esc(&m.old),
                esc(&m.new)
            );
        }
        o.push_str("</tbody></table></details>\n");
    }
    o.push_str("</section>\n");
}

fn urls(o: &mut String, r: &Report) {
    o.push_str("<section id=\"urls\"><h2>URLs by section</h2>\n<p><input type=\"search\" id=\"filter\" placeholder=\"Filter by URL, date, source or file\" aria-label=\"Filter URLs\"> <span id=\"shown\" class=\"mute\"></span></p>\n");
    let multilingual = r.totals.languages.len() > 1;
    let base = r.base_url.trim_end_matches('/');
    // A large site's sections start closed: a browser lays out only what is opened (or
    // matches the filter), and the page opens at once.
    let open = if r.totals.urls <= OPEN_SECTIONS_UP_TO {
        " open"
    } else {
        o.push_str(
            "<p class=\"mute\">Open a section to see its URLs, or type in the filter.</p>\n",
        );
        ""
    };
    // Each section's table is written on its own (on every core), then joined in order.
    let tables: Vec<String> = r
        .sections
        .par_iter()
        .map(|s| {
            let n = s.rows.len();
            let mut t = String::with_capacity(512 + n * 300);
            let _ = writeln!(
                t,
                "<details{open}><summary><code>{}</code>: {n} URL{}</summary>",
                esc(&s.path),
                if n == 1 { "" } else { "s" }
            );
            t.push_str("<table class=\"urls\"><thead><tr><th data-col=\"0\">URL</th><th data-col=\"1\">lastmod</th><th data-col=\"2\">Date from</th><th data-col=\"3\">File</th>");
            if multilingual {
                t.push_str("<th>Other languages</th>");
            }
            t.push_str("</tr></thead><tbody>\n");
            for row in &s.rows {
                url_row(&mut t, row, base, multilingual);
            }
            t.push_str("</tbody></table></details>\n");
            t
        })
        .collect();
    for t in tables {
        o.push_str(&t);
    }
    o.push_str("</section>\n");
}

/// One URL's row; the URL shown as its path when it lies below the base URL, decoded.
fn url_row(o: &mut String, row: &Row, base: &str, multilingual: bool) {
    o.push_str("<tr><td><a href=\"");
    esc_into(o, &row.loc);
    o.push_str("\">");
    let shown = row
        .loc
        .strip_prefix(base)
        .filter(|p| p.starts_with('/'))
        .unwrap_or(&row.loc);
    // Shown as a person reads it (`/über-uns/`), linked as written.
    esc_into(
        o,
        &percent_encoding::percent_decode_str(shown).decode_utf8_lossy(),
    );
    o.push_str("</a></td><td class=\"d\">");
    if let Some(d) = row.lastmod {
        let _ = write!(o, "{d}");
    }
    o.push_str("</td><td>");
    esc_into(o, &row.source);
    o.push_str("</td><td>");
    if let Some(f) = &row.file {
        esc_into(o, f);
    }
    o.push_str("</td>");
    if multilingual {
        o.push_str("<td>");
        for (i, (lang, href)) in row.alternates.iter().enumerate() {
            if i > 0 {
                o.push(' ');
            }
            o.push_str("<a href=\"");
            esc_into(o, href);
            o.push_str("\">");
            esc_into(o, lang);
            o.push_str("</a>");
        }
        o.push_str("</td>");
    }
    o.push_str("</tr>\n");
}

/// Text with `` `code` `` spans as `<code>`, the rest escaped.
fn code_spans(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            esc_into(&mut out, part);
            out.push_str("</code>");
        } else {
            esc_into(&mut out, part);
        }
    }
    out
}

/// `text` escaped for HTML text and quoted attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    esc_into(&mut out, text);
    out
}

fn esc_into(out: &mut String, text: &str) {
    // Most text (URLs, dates, paths) has nothing to escape: copied whole.
    if !text
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\''))
    {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_keeps_code_spans() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(
            code_spans("Remove `draft = <x>` here"),
            "Remove <code>draft = &lt;x&gt;</code> here"
        );
    }

    #[test]
    fn the_histogram_draws_a_bar_per_dated_bucket() {
        let bars = [
            Bar {
                label: "2024-01".into(),
                count: 2,
            },
            Bar {
                label: "2024-02".into(),
                count: 0,
            },
            Bar {
                label: "2024-03".into(),
                count: 4,
            },
        ];
        let mut o = String::new();
        histogram(&mut o, &bars);
        assert_eq!(o.matches("<rect class=\"bar\"").count(), 2);
        assert!(o.contains("<title>2024-03: 4 URLs</title>"), "{o}");
        assert!(o.contains(">2024-01</text>") && o.contains(">2024-03</text>"));
    }
}
