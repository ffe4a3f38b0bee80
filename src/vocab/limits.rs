//! Every limit on what one page or site config may make the parsers do, in one place, so
//! time and memory stay in proportion to the input whatever a file holds.
//!
//! JSON needs none of its own: serde_json stops nesting at 128 levels ("recursion limit")
//! and builds nothing larger than its input. TOML's parser recurses once per unclosed `[` or
//! `{` while it recovers from an error, past its own limit: [`toml_too_deep`] is checked first.

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

/// The largest built page read for the images it shows (`images = true`, a fresh build);
/// past it the page keeps the images its source names, with a warning.
pub const MAX_BUILT_PAGE: u64 = 16 << 20;

/// The largest config file read: sitemap.toml, `--config`, a site's config files (Zola's
/// `config.toml`, Hugo's `hugo.*`, `config/_default/*`, a theme's). Real ones are a few KiB;
/// parsed, a config takes some 40 times its text in memory.
pub const MAX_CONFIG: u64 = 16 << 20;

/// TOML nested deeper than this (arrays and inline tables) is refused before it is parsed:
/// the toml crate recurses once per unclosed level and overflows a worker thread's stack on
/// a few hundred. Real configs and front matter nest a handful of levels.
pub const TOML_MAX_DEPTH: usize = 64;

/// The 1-based line where `text` opens its [`TOML_MAX_DEPTH`]+1st nested `[` or `{`, when it
/// does; brackets in strings and comments do not count. One pass, no allocation.
pub fn toml_too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    // Only a bracket opens a level: fewer than the limit cannot pass it, and counting them
    // is a fraction of the walk below (run for every TOML front matter).
    if b.iter().filter(|&&c| c == b'[' || c == b'{').count() <= TOML_MAX_DEPTH {
        return None;
    }
    let (mut depth, mut line, mut i) = (0usize, 1usize, 0usize);
    // Which bracket opened each level (bit set: `{`): a closer of the other kind closes
    // nothing, as the parser, reading on past the error, does not unwind there either.
    let mut braces: u128 = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            q @ (b'"' | b'\'') => {
                // Skip the string: `"""`/`\'\'\'` run to the same three quotes, others to the
                // quote or the line's end; a backslash escapes in basic strings only.
                let multi = b[i..].starts_with(&[q, q, q]);
                i += if multi { 3 } else { 1 };
                while i < b.len() {
                    let c = b[i];
                    if c == b'\\' && q == b'"' {
                        i += 2;
                        continue;
                    }
                    if c == b'\n' {
                        line += 1;
                        if !multi {
                            break;
                        }
                    }
                    if c == q && (!multi || b[i..].starts_with(&[q, q, q])) {
                        i += if multi { 3 } else { 1 };
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            c @ (b'[' | b'{') => {
                depth += 1;
                if depth > TOML_MAX_DEPTH {
                    return Some(line);
                }
                let bit = 1u128 << (depth - 1);
                braces = if c == b'{' {
                    braces | bit
                } else {
                    braces & !bit
                };
            }
            c @ (b']' | b'}') if depth > 0 => {
                let opened_brace = braces & (1u128 << (depth - 1)) != 0;
                if opened_brace == (c == b'}') {
                    depth -= 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_nesting_is_counted_outside_strings_and_comments() {
        let deep = format!("a = {}1{}\n", "[".repeat(65), "]".repeat(65));
        assert_eq!(toml_too_deep(&deep), Some(1));
        let ok = format!("a = {}1{}\n", "[".repeat(64), "]".repeat(64));
        assert_eq!(toml_too_deep(&ok), None);
        // Unclosed inline tables on many lines: the line of the one too many.
        let open: String = (0..70).map(|_| "y = {a\n").collect();
        assert_eq!(toml_too_deep(&open), Some(65));
        let quoted = format!(
            "s = \"{0}\"\nt = '{0}'\nu = \"\"\"\n{0}\n\"\"\"\n# {0}\n[table]\n[[arr]]\n",
            "[".repeat(100)
        );
        assert_eq!(toml_too_deep(&quoted), None);
        assert_eq!(toml_too_deep("e = \"\\\"[[[\"\n"), None);
        // A `]` does not close a `{`: lines that leave two inline tables open each, whatever
        // they close after (a fuzz case that overflowed the parser's stack in a debug build).
        let mismatched: String = (0..40).map(|_| "y = {a={b=[[1]]]]\n").collect();
        assert_eq!(toml_too_deep(&mismatched), Some(32));
    }
}
