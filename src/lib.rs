//! sitemapgen: writes `sitemap.xml` for Zola- and Hugo-style static sites.
//!
//! The pipeline, in the order the data flows:
//! config -> scan -> front matter -> route -> lastmod -> entries -> write.

pub mod date;
pub mod entries;
pub mod error;
pub mod fields;
pub mod frontmatter;
pub mod validate;

pub use error::{Error, Result};
