//! Entries: the `<url>` records the writer serialises, built from routed pages.

use crate::date::W3cDate;
use crate::fields::{ChangeFreq, Priority};

/// One `<url>` of the sitemap: everything the writer needs and nothing more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Absolute URL, already percent-encoded (RFC 3986) but not XML-escaped.
    pub loc: String,
    /// `<lastmod>`.
    pub lastmod: Option<W3cDate>,
    /// `<changefreq>`.
    pub changefreq: Option<ChangeFreq>,
    /// `<priority>`.
    pub priority: Option<Priority>,
    /// Rarely used parts, boxed so a plain entry stays small (a million of them is common).
    pub extras: Option<Box<Extras>>,
}

/// The parts of an entry most pages do not have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// `image:image` locations: absolute, percent-encoded; at most 1,000.
    pub images: Vec<String>,
    /// `xhtml:link rel="alternate"` versions, this page's own included.
    pub alternates: Vec<Alternate>,
}

/// One language version of a page.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Alternate {
    /// `hreflang`: a language code, or `x-default`.
    pub hreflang: String,
    /// Absolute, percent-encoded URL.
    pub href: String,
}

impl Entry {
    /// An entry with just a location.
    pub fn new(loc: impl Into<String>) -> Entry {
        Entry {
            loc: loc.into(),
            lastmod: None,
            changefreq: None,
            priority: None,
            extras: None,
        }
    }

    /// The entry's images (empty when it has none).
    pub fn images(&self) -> &[String] {
        self.extras.as_deref().map_or(&[], |e| &e.images)
    }

    /// The entry's language alternates (empty when it has none).
    pub fn alternates(&self) -> &[Alternate] {
        self.extras.as_deref().map_or(&[], |e| &e.alternates)
    }
}
