//! The library's error type: every variant names the file (and line) the user has to fix.

use std::path::PathBuf;

/// Anything that stops a run; `main` maps every variant to exit code 2.
///
/// It prints as the command line prints it, `Debug` too (so a `main` that returns it shows
/// the message, not a dump of its fields): the file, the line when known, what is wrong and
/// what to do; [`Error::Many`] one such line per problem.
///
/// ```
/// let e = sitemapgen::Error::config("sitemap.toml", Some(3), "unknown key `imagess`: did you mean `images`?");
/// assert_eq!(e.to_string(), "sitemap.toml:3: unknown key `imagess`: did you mean `images`?");
/// assert_eq!(format!("{e:?}"), e.to_string());
/// ```
#[derive(thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// sitemap.toml, the site's own config, or a command-line value is wrong.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Config {
        /// The config file (or `command line`).
        path: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is wrong and what to do.
        message: String,
    },
    /// A content file is wrong: malformed front matter, a bad value, a URL that breaks a rule.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Input {
        /// The content file.
        path: PathBuf,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is wrong and what to do.
        message: String,
    },
    /// A sitemap or key file elsewhere (a URL, or a file named on the command line) could not
    /// be fetched or read, or a server refused what we sent: where, and what happened.
    #[error("{location}: {message}")]
    Remote {
        /// The URL or file.
        location: String,
        /// What happened and what to do.
        message: String,
    },
    /// No site where one was looked for: no sitemap.toml, no Zola or Hugo config and no
    /// content folder in `dir` (sitemapgen run outside a site).
    #[error("no site here: no content/ folder and no Hugo or Zola config in {}: run sitemapgen in the site's folder, or point --site at it", dir.display())]
    NoSite {
        /// The folder looked in.
        dir: PathBuf,
    },
    /// Several content files are wrong; all are reported at once so one run shows every fix.
    #[error("{}", join(.0))]
    Many(Vec<Error>),
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

fn join(errors: &[Error]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

impl Error {
    /// An I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// An input error about one content file.
    pub fn input(
        path: impl Into<PathBuf>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Error {
        Error::Input {
            path: path.into(),
            line,
            message: message.into(),
        }
    }

    /// A configuration error.
    pub fn config(
        path: impl Into<PathBuf>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Error {
        Error::Config {
            path: path.into(),
            line,
            message: message.into(),
        }
    }

    /// An error about a URL or a file named on the command line (see [`Error::Remote`]).
    pub fn remote(location: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Remote {
            location: location.into(),
            message: message.into(),
        }
    }

    /// One error for a list of them (the single one itself when there is just one).
    pub fn from_many(mut errors: Vec<Error>) -> Option<Error> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(Error::Many(errors)),
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
