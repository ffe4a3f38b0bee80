//! Creating files safely: every temporary file is a new file at a name nobody can guess.
//!
//! A temporary file at a predictable name (`.state.json.tmp-PID`) lets whoever can write in
//! the folder plant a link there and have our write go through it into a file of the user's.
//! So a temporary file is always created new (`O_CREAT|O_EXCL`, which never follows a link
//! and fails on anything already there, and `O_NOFOLLOW` besides), at a name with a random
//! tail. The name keeps the shape `.NAME.tmp-PID.N` so that a later run can tell a file a
//! killed run left behind (see `sitemap::files::sweep`).

use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::path::{Path, PathBuf};

/// Marks a hidden temporary file: `.NAME` + this + the writer's PID + `.` + a random number.
pub const TEMP_TAG: &str = ".tmp-";

/// How many random names are tried before giving up (each clash means a file is there).
const TRIES: usize = 16;

/// A random number nobody outside this process can predict: the standard library seeds its
/// hash keys from the operating system's random source.
fn random() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// The user's cache folder, where sitemapgen keeps what must outlive a run but not be
/// deployed: `$XDG_CACHE_HOME`, else `~/.cache` (`%LOCALAPPDATA%` on Windows), joined with
/// `sitemapgen`; `None` when the environment names none.
pub fn cache_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let cache = if cfg!(windows) {
        env("LOCALAPPDATA")
    } else {
        env("XDG_CACHE_HOME").or_else(|| env("HOME").map(|h| h.join(".cache")))
    }?;
    Some(cache.join("sitemapgen"))
}

/// Creates a new file at `path`, failing when anything (a file, a link, a FIFO) is there.
pub fn create_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW).mode(0o644);
    }
    options.open(path)
}

/// A hidden temporary path for `name` in `dir` (`.NAME.tmp-PID.RANDOM`), for [`create_new`].
pub fn temp_name(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(
        ".{name}{TEMP_TAG}{}.{}",
        std::process::id(),
        random()
    ))
}

/// Creates a new hidden temporary file for `name` in `dir` (`.NAME.tmp-PID.RANDOM`) and
/// returns it with its path.
pub fn create_temp(dir: &Path, name: &str) -> io::Result<(File, PathBuf)> {
    let mut last = io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name");
    for _ in 0..TRIES {
        let path = temp_name(dir, name);
        match create_new(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_differ_and_never_go_through_a_link() {
        let d = tempfile::tempdir().unwrap();
        let (_, a) = create_temp(d.path(), "x.json").unwrap();
        let (_, b) = create_temp(d.path(), "x.json").unwrap();
        assert_ne!(a, b);
        let name = a.file_name().unwrap().to_str().unwrap();
        let prefix = format!(".x.json{TEMP_TAG}{}.", std::process::id());
        assert!(name.starts_with(&prefix), "{name}");
        assert!(name[prefix.len()..].bytes().all(|c| c.is_ascii_digit()));

        // A link planted at the name is not followed: the open fails, the target is kept.
        let target = d.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        #[cfg(unix)]
        {
            let link = d.path().join("link");
            std::os::unix::fs::symlink(&target, &link).unwrap();
            assert_eq!(
                create_new(&link).unwrap_err().kind(),
                io::ErrorKind::AlreadyExists
            );
        }
        assert!(create_new(&target).is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
    }
}
