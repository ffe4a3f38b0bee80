#![warn(clippy::print_stdout, clippy::print_stderr)]
//! sitemapgen writes `sitemap.xml` for static sites built with Zola or Hugo, or for any
//! folder of Markdown pages: every URL the generator publishes, with a `<lastmod>` search
//! engines can trust, exact to the sitemaps.org protocol.
//!
//! The library is what the `sitemapgen` command runs, without the terminal: it returns
//! values and never prints. Load [`Settings`] with [`load`] (a site's folder and
//! its `sitemap.toml`, as the command reads them), then [`generate`] an [`Outcome`] (every
//! URL, what was left out and why, warnings), and [`write()`] it, or do both with [`build`];
//! [`check()`] compares an outcome with the files on disk.
//!
//! ```
//! # let site = tempfile::tempdir()?;
//! # let root = site.path();
//! # std::fs::write(root.join("config.toml"), "base_url = \"https://example.com\"\n")?;
//! # std::fs::create_dir(root.join("content"))?;
//! # std::fs::write(root.join("content/_index.md"), "+++\n+++\n")?;
//! # std::fs::write(root.join("content/about.md"), "+++\ntitle = \"About\"\n+++\n")?;
//! # std::fs::write(root.join("content/draft.md"), "+++\ndraft = true\n+++\n")?;
//! use sitemapgen::{Overrides, Reason, RunOptions};
//!
//! // A Zola site (its config.toml and content/) in `root`.
//! let settings = sitemapgen::load(&Overrides {
//!     site: Some(root.to_path_buf()),
//!     ..Default::default()
//! })?;
//! let mut outcome = sitemapgen::generate(&settings, &RunOptions::default())?;
//! for (loc, entry) in outcome.entries.iter() {
//!     println!("{loc} {:?}", entry.lastmod);
//! }
//! assert_eq!(outcome.entries.len(), 2);
//! assert_eq!(outcome.skipped[0].reason, Reason::Draft);
//!
//! let report = sitemapgen::write(&settings, &mut outcome)?;
//! assert_eq!(report.urls, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! sitemapgen is not on crates.io: depend on a clone of its repository by path, or on the
//! repository by git, without the command line's dependencies (clap, indicatif, anstream):
//! `sitemapgen = { path = "../sitemapgen", default-features = false }`, or
//! `sitemapgen = { git = "https://github.com/YOUR-ORG/sitemapgen", tag = "v0.1.0",
//! default-features = false }` (`YOUR-ORG/sitemapgen`: the GitHub copy you use). The HTTP
//! client of `diff` and `submit` is the feature `net`, off by default.
//!
//! The stages, in the order the data flows, are driven by [`pipeline`]: [`settings`] ->
//! `scan` -> `frontmatter` -> `route` -> `lastmod` -> `entries` -> `audit` (the built
//! output) -> `sitemap` (write).

pub mod check;
pub mod settings;
/// The error type (the vocabulary's, at the bottom of the house).
pub use vocab::error;
#[cfg(feature = "net")]
pub mod net;
pub mod pipeline;
pub mod report;

// The stages. Public for the binary, the tests and the examples, not part of the API.
#[doc(hidden)]
pub mod audit;
#[doc(hidden)]
pub mod compact;
#[doc(hidden)]
pub mod entries;
#[doc(hidden)]
pub mod frontmatter;
#[doc(hidden)]
pub mod generator;
#[doc(hidden)]
pub mod host;
#[doc(hidden)]
pub mod hugo;
#[doc(hidden)]
pub mod images;
#[doc(hidden)]
pub mod indexnow;
#[doc(hidden)]
pub mod init;
#[doc(hidden)]
pub mod lastmod;
#[doc(hidden)]
pub mod layout;
#[doc(hidden)]
pub mod plain;
#[doc(hidden)]
pub mod platform;
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
pub mod summary;
#[doc(hidden)]
pub mod vocab;
#[doc(hidden)]
pub mod zola;

#[cfg(test)]
mod test_threads;

pub use check::{Changed, CheckDiff, check};
pub use error::{Error, Result};
pub use pipeline::{Listed, Outcome, Progress, RunOptions, Skipped, build, generate, load, write};
pub use settings::{Overrides, Settings};
/// What changed between two sitemap sets (what `diff` prints and `submit` sends).
pub use sitemap::diff;

// The types the API above hands out, from the stage modules that define them.
pub use audit::Unsourced;
pub use entries::{Alternate, Entries, Entry, Host, Loc};
pub use lastmod::shallow::Fetched as HistoryFetched;
pub use lastmod::{Fetches as VersionsFetched, GitReport, Lastmod, Origin as LastmodOrigin};
pub use layout::{IndexFile, Layout, SitemapFile};
pub use route::Reason;
pub use sitemap::set_read::UrlMap;
pub use sitemap::urlset::WriteReport;
pub use vocab::crawl_hints::{ChangeFreq, Priority};
pub use vocab::date::{SiteTz, W3cDate, W3cKind};

// Plumbing the binary shares with the library.
#[doc(hidden)]
pub use pipeline::{sitemap_set, write_options};

// The README's Rust example, compiled as a doctest so it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
