//! The sitemaps.org protocol's limits and the namespaces sitemaps use, defined once.

/// Most `<url>` entries in one sitemap, and most `<sitemap>` entries in one index.
pub const MAX_URLS: usize = 50_000;
/// Most bytes in one sitemap or index file, uncompressed.
pub const MAX_BYTES: usize = 52_428_800;
/// Most characters in a `<loc>` (the XSD allows 2,048; Google counts "fewer than 2,048").
pub const MAX_LOC_CHARS: usize = 2_047;

/// The sitemaps.org 0.9 namespace every sitemap and index must use.
pub const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
/// Google's image extension (`image:image`).
pub const IMAGE_NS: &str = "http://www.google.com/schemas/sitemap-image/1.1";
/// Google's video extension (`video:video`).
pub const VIDEO_NS: &str = "http://www.google.com/schemas/sitemap-video/1.1";
/// Google's news extension (`news:news`).
pub const NEWS_NS: &str = "http://www.google.com/schemas/sitemap-news/0.9";
/// XHTML, for `xhtml:link` alternates.
pub const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// True for a character XML 1.0 allows in a document (its `Char` production): what we write
/// must hold only these, and `validate` refuses any other.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// True for a byte a sitemap file name may hold: letters, digits and `- . _ ~` (RFC 3986's
/// unreserved characters, so the name needs no escaping in a `<loc>` or a `Sitemap:` line).
pub fn is_file_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}
