//! `sitemap.txt`: the plain-text sitemap, one URL per line. It is never split or gzipped: a
//! site too big for one file gets an error instead.

use super::urlset::WriteOptions;
use crate::entries::View;
use crate::vocab::error::{Error, Result};
use crate::vocab::protocol::{MAX_BYTES, MAX_URLS};

/// The name of the plain-text sitemap.
pub const TXT_NAME: &str = "sitemap.txt";

/// Errors out early when `sitemap.txt` is asked for but cannot hold the entries.
pub(super) fn check(entries: View<'_>, opts: &WriteOptions) -> Result<()> {
    if !opts.sitemap_txt {
        return Ok(());
    }
    let bytes: usize = entries.iter().map(|(loc, _)| loc.len() + 1).sum();
    if entries.len() > MAX_URLS || bytes > MAX_BYTES {
        return Err(Error::config(
            "sitemap_txt",
            None,
            format!(
                "sitemap.txt cannot hold {} URLs ({bytes} bytes): one text sitemap holds at most \
                 {MAX_URLS} URLs and {MAX_BYTES} bytes; turn sitemap_txt off",
                entries.len()
            ),
        ));
    }
    Ok(())
}

/// The file's bytes: every loc, as is (a text sitemap escapes nothing), one per line.
pub(super) fn render(entries: View<'_>, buf: &mut Vec<u8>) {
    for (loc, _) in entries.iter() {
        buf.extend_from_slice(loc.origin().as_bytes());
        buf.extend_from_slice(loc.rest().as_bytes());
        buf.push(b'\n');
    }
}
