//! The process's two streams. Results go to stdout, buffered; a reader that has gone away
//! (`sitemapgen list | head -1`) ends them quietly, as it ends `cat`. Messages go to stderr,
//! where a failed write has nowhere left to be reported.

use sitemapgen::{Error, Result};
use std::borrow::Cow;
use std::fmt::{Arguments, Write as _};
use std::io::{self, BufWriter, Write};

/// Runs `f` with stdout, then flushes it; a closed pipe is not an error, any other failure
/// (a full disk behind `>`) is.
pub fn results(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    closed_pipe_is_fine(f(&mut out).and_then(|()| out.flush()))
}

/// [`results`]' rule for what a write returned.
fn closed_pipe_is_fine(r: io::Result<()>) -> Result<()> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::io("standard output", e)),
        Ok(()) => Ok(()),
    }
}

/// Writes a line to stderr (`eprintln!` without its panic when stderr is closed), its control
/// characters escaped (see [`shown`]).
pub fn say(line: Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{}", shown(&line.to_string()));
}

/// `text` with its control characters escaped as Rust writes them (`\t`, `\n`, `\r`,
/// `\u{1b}`): a file name holding an escape sequence cannot act on the terminal, and one
/// holding a tab or newline cannot break a line-per-record, tab-separated output.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `n` and the noun, singular for one: `1 URL`, `2 URLs`, `1,234 URLs`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        super::print::thousands(n),
        if n == 1 { one } else { many }
    )
}

/// A writer for a report of many lines written elsewhere: each piece's control characters
/// are escaped as [`shown`] escapes them, except the newlines that end its lines.
pub struct ShownLines<W>(pub W);

impl<W: Write> Write for ShownLines<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // `write!` hands over whole `str` pieces, so a character never straddles two calls.
        match std::str::from_utf8(buf) {
            Ok(text) => {
                for (i, line) in text.split('\n').enumerate() {
                    if i > 0 {
                        self.0.write_all(b"\n")?;
                    }
                    self.0.write_all(shown(line).as_bytes())?;
                }
            }
            Err(_) => self.0.write_all(String::from_utf8_lossy(buf).as_bytes())?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_ends_output_quietly_other_errors_do_not() {
        assert!(closed_pipe_is_fine(Ok(())).is_ok());
        assert!(closed_pipe_is_fine(Err(io::ErrorKind::BrokenPipe.into())).is_ok());
        let e = closed_pipe_is_fine(Err(io::Error::other("disk full"))).unwrap_err();
        assert_eq!(e.to_string(), "standard output: disk full");
    }

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert!(matches!(shown("content/é a\\b.md"), Cow::Borrowed(_)));
        assert_eq!(
            shown("esc\u{1b}]0;X\u{7}\u{1b}[2J tab\there new\nline\r\u{7f}\u{85}.md"),
            "esc\\u{1b}]0;X\\u{7}\\u{1b}[2J tab\\there new\\nline\\r\\u{7f}\\u{85}.md"
        );
    }

    #[test]
    fn a_report_keeps_its_lines_and_loses_its_escapes() {
        let mut w = ShownLines(Vec::new());
        write!(w, "a\u{1b}[2J.xml:3: error\nb\t.xml: ok\n").unwrap();
        assert_eq!(w.0, b"a\\u{1b}[2J.xml:3: error\nb\\t.xml: ok\n");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(0, "URL", "URLs"), "0 URLs");
        assert_eq!(count(1, "URL", "URLs"), "1 URL");
        assert_eq!(count(1234, "entry", "entries"), "1,234 entries");
    }
}
