//! The `Sitemap:` line of `robots.txt`: added, or updated in place, every other line kept.

use super::urlset::{Plan, WriteOptions};
use crate::vocab::error::{Error, Result};
use crate::vocab::fsread::ReadError;
use std::path::Path;

/// The name of the robots file.
pub const ROBOTS_NAME: &str = "robots.txt";

/// The largest robots.txt read to update it (search engines read the first 500 KiB; every
/// line is kept, so a larger file is refused rather than cut).
pub const MAX_ROBOTS: u64 = 16 << 20;

/// The robots.txt at `path`, `None` when there is none. A FIFO, device or folder there, or a
/// file past [`MAX_ROBOTS`], is an error naming it: `robots_txt = true` asks for a file
/// sitemapgen can rewrite.
pub fn read_robots(path: &Path) -> Result<Option<Vec<u8>>> {
    match crate::vocab::fsread::read(path, MAX_ROBOTS) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e @ (ReadError::NotAFile(_) | ReadError::TooLarge(_))) => Err(Error::input(
            path,
            None,
            format!("{e}: make it a regular file, or set robots_txt = false in sitemap.toml"),
        )),
        Err(e) => Err(Error::io(path, e.into())),
    }
}

/// The robots.txt `write` would store, given the current one (`None` when there is none).
///
/// Adds `Sitemap: <base_url><file_name>[.gz]`, or replaces the first line that names a sitemap
/// called `file_name` or `file_name.gz` in `base_url`'s folder (on any host, so a domain change
/// updates it) and drops further such lines; every other line is kept byte for byte.
pub fn robots_txt(existing: Option<&[u8]>, opts: &WriteOptions) -> Result<Vec<u8>> {
    Ok(Plan::new(opts)?.robots(existing))
}

impl Plan<'_> {
    /// robots.txt with our `Sitemap:` line added or updated (see [`robots_txt`]).
    pub(super) fn robots(&self, existing: Option<&[u8]>) -> Vec<u8> {
        let mut line = b"Sitemap: ".to_vec();
        line.extend_from_slice(self.opts.base_url.as_bytes());
        line.extend_from_slice(self.main_name().as_bytes());
        let Some(existing) = existing.filter(|b| !b.is_empty()) else {
            line.push(b'\n');
            return line;
        };
        let eol: &[u8] = if existing.windows(2).any(|w| w == b"\r\n") {
            b"\r\n"
        } else {
            b"\n"
        };
        let mut out = Vec::with_capacity(existing.len() + line.len() + 2);
        let mut placed = false;
        for raw in existing.split_inclusive(|&b| b == b'\n') {
            let content = raw.strip_suffix(b"\n").unwrap_or(raw);
            let content = content.strip_suffix(b"\r").unwrap_or(content);
            if !self.is_our_robots_line(content) {
                out.extend_from_slice(raw);
            } else if !placed {
                out.extend_from_slice(&line);
                out.extend_from_slice(&raw[content.len()..]);
                placed = true;
            }
        }
        if !placed {
            if !out.is_empty() && !out.ends_with(b"\n") {
                out.extend_from_slice(eol);
            }
            out.extend_from_slice(&line);
            out.extend_from_slice(eol);
        }
        out
    }

    fn is_our_robots_line(&self, line: &[u8]) -> bool {
        let Ok(line) = std::str::from_utf8(line) else {
            return false;
        };
        let line = line.trim_start_matches('\u{feff}').trim_start();
        let Some(key) = line.get(..8) else {
            return false;
        };
        if !key.eq_ignore_ascii_case("sitemap:") {
            return false;
        }
        let value = line[8..].split('#').next().unwrap_or("").trim();
        self.our_name(value)
            .is_some_and(|name| name.strip_suffix(".gz").unwrap_or(name) == self.opts.file_name)
    }
}

#[cfg(test)]
mod tests {
    use super::super::urlset::tests::opts;
    use super::*;

    fn robots(existing: Option<&str>, o: &WriteOptions) -> String {
        String::from_utf8(robots_txt(existing.map(str::as_bytes), o).unwrap()).unwrap()
    }

    #[test]
    fn robots_txt_is_created_with_one_line() {
        assert_eq!(
            robots(None, &opts()),
            "Sitemap: https://example.com/sitemap.xml\n"
        );
        assert_eq!(
            robots(Some(""), &opts()),
            "Sitemap: https://example.com/sitemap.xml\n"
        );
        let gz = WriteOptions {
            gzip: true,
            ..opts()
        };
        assert_eq!(
            robots(None, &gz),
            "Sitemap: https://example.com/sitemap.xml.gz\n"
        );
    }

    #[test]
    fn robots_txt_updates_our_line_in_place_and_keeps_the_rest() {
        let existing = "User-agent: *\nDisallow: /private\n\nsitemap: http://old.example.org/sitemap.xml.gz # old\nSitemap: https://example.com/blog/sitemap.xml\nSitemap: https://example.com/news-sitemap.xml\nSitemap: https://example.com/sitemap.xml\n# end";
        let got = robots(Some(existing), &opts());
        assert_eq!(
            got,
            "User-agent: *\nDisallow: /private\n\nSitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/blog/sitemap.xml\nSitemap: https://example.com/news-sitemap.xml\n# end"
        );
        assert_eq!(robots(Some(&got), &opts()), got, "idempotent");
    }

    #[test]
    fn robots_txt_appends_with_the_files_line_ending() {
        let crlf = "User-agent: *\r\nAllow: /";
        let got = robots(Some(crlf), &opts());
        assert_eq!(
            got,
            "User-agent: *\r\nAllow: /\r\nSitemap: https://example.com/sitemap.xml\r\n"
        );
        assert_eq!(robots(Some(&got), &opts()), got);
        let lf = "User-agent: *\n";
        assert_eq!(
            robots(Some(lf), &opts()),
            "User-agent: *\nSitemap: https://example.com/sitemap.xml\n"
        );
    }
}
