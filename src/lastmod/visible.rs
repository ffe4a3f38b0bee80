//! What a reader sees of a page, boiled down to a number: two versions of a file with the
//! same fingerprint differ only in ways no reader notices (whitespace, the front matter's
//! format, key order or quoting, keys other than the title and description).

use crate::frontmatter::reader_view;
use std::hash::Hasher;

/// A version of a file as a reader sees it (64 bits: a collision is not worth a thought).
pub type Fingerprint = u64;

/// How two versions of a file are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// By what a reader sees (`lastmod_significance = "content"`).
    Reader,
    /// Byte for byte (`"any-commit"`): any edit counts, a pure move does not.
    Bytes,
}

/// Field separator: a byte UTF-8 text never holds, so fields cannot run into each other.
const SEP: u8 = 0xff;

/// The fingerprint of one version of a file.
pub fn fingerprint(bytes: &[u8], how: Compare) -> Fingerprint {
    let mut h = std::hash::DefaultHasher::new();
    let view = match how {
        Compare::Reader => std::str::from_utf8(bytes).ok().and_then(reader_view),
        Compare::Bytes => None,
    };
    match (view, how) {
        (Some(v), _) => {
            h.write_u8(1);
            for field in [v.title.as_deref(), v.description.as_deref()] {
                if let Some(f) = field {
                    words(&mut h, f);
                }
                h.write_u8(SEP);
            }
            words(&mut h, v.body);
        }
        // Not text, or a front matter that does not parse: every byte counts but the blanks.
        (None, Compare::Reader) => {
            h.write_u8(2);
            words(&mut h, &String::from_utf8_lossy(bytes));
        }
        (None, Compare::Bytes) => {
            h.write_u8(3);
            h.write(bytes);
        }
    }
    h.finish()
}

/// Feeds the words of `text` to `h`, one space between them: any run of whitespace (line
/// breaks, indentation, trailing blanks, `\r`) reads as one space, and none at either end.
fn words(h: &mut impl Hasher, text: &str) {
    for (i, w) in text.split_whitespace().enumerate() {
        if i > 0 {
            h.write_u8(b' ');
        }
        h.write(w.as_bytes());
    }
}

/// The fingerprint of a file too large to hold whole, fed in pieces: every byte counts.
pub struct Streamed(std::hash::DefaultHasher);

impl Streamed {
    /// No bytes yet.
    pub fn new() -> Streamed {
        let mut h = std::hash::DefaultHasher::new();
        h.write_u8(4);
        Streamed(h)
    }

    /// The next piece.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    /// The fingerprint.
    pub fn finish(&self) -> Fingerprint {
        self.0.finish()
    }
}

impl Default for Streamed {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        fingerprint(a.as_bytes(), Compare::Reader) == fingerprint(b.as_bytes(), Compare::Reader)
    }

    #[test]
    fn reformatted_front_matter_and_other_keys_are_the_same_page() {
        let toml = "+++\ntitle = \"Hello\"\ndate = 2024-01-01\n+++\nSome text.\n";
        let yaml = "---\ndate: 2024-01-01\ntitle: 'Hello'\ntags: [a]\n---\nSome text.\n";
        let json = "{\n  \"title\": \"Hello\"\n}\nSome text.\n";
        assert!(same(toml, yaml));
        assert!(same(toml, json));
        assert!(!same(toml, &toml.replace("Hello", "Hello!")));
        let described = toml.replace("+++\nSome", "description = \"d\"\n+++\nSome");
        assert!(!same(toml, &described));
    }

    #[test]
    fn whitespace_is_one_space_and_words_still_count() {
        let a = "+++\n+++\nOne two\nthree.\n";
        assert!(same(a, "+++\n+++\r\n\r\n  One   two three.  \r\n\n"));
        assert!(!same(a, "+++\n+++\nOnetwo three.\n"));
        assert!(!same(a, "+++\n+++\nOne two three!\n"));
        // The body is not the title: moving text between them is a change.
        assert!(!same("+++\ntitle = \"a\"\n+++\n", "+++\n+++\na\n"));
    }

    #[test]
    fn unreadable_front_matter_counts_every_word() {
        let bad = "+++\ntitle = \n+++\nx\n";
        assert!(same(bad, "+++\ntitle =   \n+++\nx"));
        assert!(!same(bad, "+++\ntitle = \n+++\ny\n"));
        assert!(!same(bad, "+++\ntitle = 1\n+++\nx\n"));
    }

    #[test]
    fn bytes_mode_counts_every_byte() {
        let f = |s: &str| fingerprint(s.as_bytes(), Compare::Bytes);
        assert_ne!(f("a b"), f("a  b"));
        assert_eq!(f("a b"), f("a b"));
        let mut s = Streamed::new();
        s.feed(b"ab");
        let mut t = Streamed::new();
        t.feed(b"a");
        t.feed(b"b");
        assert_eq!(s.finish(), t.finish());
    }
}
