#![warn(clippy::print_stdout, clippy::print_stderr)]
//! sitemapgen: writes `sitemap.xml` for Zola- and Hugo-style static sites.
//!
//! Load [`Settings`] with [`config::load`], then [`generate`] (every stage but the writing:
//! plain data out) or [`build`] (and write); [`check()`] compares what is on disk. The stages,
//! in the order the data flows, are driven by [`pipeline`]: [`config`] -> `scan` ->
//! `frontmatter` -> `route` -> `lastmod` -> `entries` -> `audit` (the built output) -> `sitemap` (write).

pub mod check;
pub mod config;
pub mod diff;
pub mod error;
#[cfg(feature = "net")]
pub mod net;
pub mod pipeline;

// The stages. Public for the binary, the tests and the examples, not part of the API.
#[doc(hidden)]
pub mod audit;
#[doc(hidden)]
pub mod compact;
#[doc(hidden)]
pub mod config_file;
#[doc(hidden)]
pub mod date;
#[doc(hidden)]
pub mod entries;
#[doc(hidden)]
pub mod frontmatter;
#[doc(hidden)]
pub mod fsread;
#[doc(hidden)]
pub mod host;
#[doc(hidden)]
pub mod hugo_version;
#[doc(hidden)]
pub mod images;
#[doc(hidden)]
pub mod indexnow;
#[doc(hidden)]
pub mod init;
#[doc(hidden)]
pub mod langtag;
#[doc(hidden)]
pub mod lastmod;
#[doc(hidden)]
pub mod route;
#[doc(hidden)]
pub mod scan;
#[doc(hidden)]
pub mod siteconfig;
#[doc(hidden)]
pub mod sitemap;
#[doc(hidden)]
pub mod slugify;
#[doc(hidden)]
pub mod suggest;
#[doc(hidden)]
pub mod summary;

pub use check::{check, CheckDiff};
pub use config::{Overrides, Settings};
pub use error::{Error, Result};
pub use pipeline::{
    build, generate, sitemap_set, write_options, Listed, Outcome, Progress, RunOptions, Skipped,
};
