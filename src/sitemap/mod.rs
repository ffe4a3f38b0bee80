//! Everything about the sitemap files themselves: the protocol's limits and namespaces,
//! `<loc>` values, writing the files, reading them back, and validating any sitemap.

pub mod diff;
mod disk;
pub mod foreign;
mod format;
pub mod on_disk;
pub mod owned;
pub mod read;
pub mod robots_line;
pub mod set_read;
pub mod set_write;
pub mod text;
pub mod urlset;
pub mod validate;
