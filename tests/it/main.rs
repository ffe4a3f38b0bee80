//! The integration tests, in one binary: each module runs the sitemapgen binary (or the
//! library) on small sites in temporary folders and compares whole outputs. Helpers shared
//! by all of them live once, in `common`. One binary links once: a change to the library
//! relinks one test program, not one per file.

mod common;

mod alternates_hugo;
mod audit;
mod build;
mod cli;
mod config_blame;
mod control_chars;
mod crash_write;
mod diff;
mod files_read;
mod fresh;
mod fuzz_audit;
mod fuzz_frontmatter;
mod fuzz_git;
mod fuzz_validate;
mod git;
mod git_hardening;
mod git_recall;
mod hardening;
mod hardening_parsers;
mod host;
mod host_rules;
mod hostile_values;
mod hugo_config;
mod hugo_matrix;
mod hugo_routes;
mod hugo_rules38;
mod hugo_versions;
mod images;
mod lastmod;
mod layout;
mod messages;
mod output;
mod ownership;
mod parity_hugo;
mod parity_zola;
mod plain;
mod precommit;
mod properties;
mod readme;
mod report;
mod robust;
mod shallow;
mod significance;
mod submit;
mod validate;
mod validate_hardened;
mod write;
mod zola_rules38;
