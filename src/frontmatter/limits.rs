//! Every limit on what one page or site config may make the parsers do, in one place, so
//! time and memory stay in proportion to the input whatever a file holds.
//!
//! TOML and JSON need none of their own: their parsers already stop nesting (TOML at 80
//! levels, JSON at 128, "recursion limit") and build nothing larger than their input.

/// YAML nesting (block or flow, maps and lists) deeper than this is refused: the YAML parser
/// and everything that walks the tree recurse once per level, and a worker thread's stack is
/// small. Flow nesting alone already stops at 255 levels in the parser.
pub const YAML_MAX_DEPTH: usize = 256;

/// What every YAML value is counted as when aliases copy it, in bytes (a node's size in
/// memory, roughly, besides its text).
pub const YAML_NODE_COST: usize = 64;

/// The copies aliases (and anchors) may make in any YAML file, in bytes as counted with
/// [`YAML_NODE_COST`]: small "billion laughs" files stop here.
pub const YAML_COPY_BASE: usize = 16 << 20;

/// And this much more for each byte of YAML, so a large file with many aliases still loads.
pub const YAML_COPY_PER_BYTE: usize = 16;

/// Mending what go-yaml accepts and yaml-rust2 does not parses the YAML again: at most this
/// many times its length in all, plus [`YAML_REPARSE_BASE`] bytes, before the error stands.
pub const YAML_REPARSES: usize = 8;

/// What every YAML text may be parsed again besides [`YAML_REPARSES`] times its length.
pub const YAML_REPARSE_BASE: usize = 1 << 20;

/// The largest front matter block read, in any format: past it the page is refused (parsed
/// values take some 40 times their text in memory).
pub const MAX_FRONT_MATTER: usize = 4 << 20;

/// The most of a page body read for its images; past it the page's images are left out
/// with a warning (the Markdown parser needs several times the body in memory).
pub const MAX_IMAGE_BODY: usize = 16 << 20;
