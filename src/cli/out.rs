//! The process's two streams. Results go to stdout, buffered; a reader that has gone away
//! (`sitemapgen list | head -1`) ends them quietly, as it ends `cat`. Messages go to stderr,
//! where a failed write has nowhere left to be reported.

use sitemapgen::{Error, Result};
use std::fmt::Arguments;
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

/// Writes a line to stderr (`eprintln!` without its panic when stderr is closed).
pub fn say(line: Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// `n` and the noun, singular for one: `1 URL`, `2 URLs`, `1,234 URLs`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        super::print::thousands(n),
        if n == 1 { one } else { many }
    )
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
    fn counts_agree_with_their_noun() {
        assert_eq!(count(0, "URL", "URLs"), "0 URLs");
        assert_eq!(count(1, "URL", "URLs"), "1 URL");
        assert_eq!(count(1234, "entry", "entries"), "1,234 entries");
    }
}
