//! The state file: what this site last submitted successfully (each URL and its lastmod as
//! search engines last heard of it), so the next `submit` sends only what changed since.
//! Written whole to a temporary file and renamed into place, like the sitemaps.

use crate::sitemap::set_read::UrlMap;
use crate::vocab::error::{Error, Result};
use crate::vocab::fsread::ReadError;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The state file's format version.
const VERSION: u32 = 1;

/// The most of a state file read: 2,000,000 URLs (the most a sitemap set read holds) at
/// some 100 bytes each, with room to spare. Past it, a file is not one this tool wrote.
pub const MAX_STATE: u64 = 256 << 20;

/// The state file as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The format version (1).
    pub version: u32,
    /// The hosts it is for, as requests name them (`example.com`).
    pub hosts: Vec<String>,
    /// When it was written (RFC 3339, UTC).
    pub saved: String,
    /// Every URL of the site as search engines last heard of it, with its lastmod.
    pub urls: UrlMap,
}

impl State {
    /// A state of `urls` for `hosts`, saved now.
    pub fn new(hosts: Vec<String>, urls: UrlMap) -> State {
        State {
            version: VERSION,
            hosts,
            saved: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            urls,
        }
    }
}

/// Where the state of the site at `host` is kept when `--state` names no file: the user's
/// cache folder (`$XDG_CACHE_HOME`, else `~/.cache`; `%LOCALAPPDATA%` on Windows).
pub fn default_path(host: &str) -> Option<PathBuf> {
    let cache = crate::vocab::fswrite::cache_dir()?;
    // A host name is a file name once the port's colon is gone.
    let name: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Some(cache.join("indexnow").join(format!("{name}.json")))
}

/// The state at `path`; `None` when there is no file. Only a regular file of at most
/// [`MAX_STATE`] bytes is read: a FIFO (whose open would wait for a writer) or a device
/// (`/dev/zero` never ends) there is refused at once, naming it.
pub fn load(path: &Path) -> Result<Option<State>> {
    load_at_most(path, MAX_STATE)
}

/// [`load`] with a limit of `limit` bytes.
fn load_at_most(path: &Path, limit: u64) -> Result<Option<State>> {
    let bytes = match crate::vocab::fsread::read(path, limit) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e @ ReadError::NotAFile(_)) => {
            return Err(Error::input(
                path,
                None,
                format!(
                    "{e}: a state file is a regular file sitemapgen writes; remove what is there, or pass --state with another path"
                ),
            ));
        }
        Err(e @ ReadError::TooLarge(_)) => {
            return Err(Error::input(
                path,
                None,
                format!(
                    "{e}: not a sitemapgen state file; delete it, or pass --since with the live sitemap"
                ),
            ));
        }
        Err(e) => return Err(Error::io(path, e.into())),
    };
    let state: State = serde_json::from_slice(&bytes).map_err(|e| {
        Error::input(
            path,
            Some(e.line()),
            format!("not a sitemapgen state file ({e}): delete it, or pass --since with the live sitemap"),
        )
    })?;
    if state.version != VERSION {
        return Err(Error::input(
            path,
            None,
            format!(
                "a state file of version {} (this sitemapgen writes {VERSION}): delete it, or pass --since",
                state.version
            ),
        ));
    }
    Ok(Some(state))
}

/// Writes `state` to `path` (its folder made when missing), replacing the old one whole.
/// The temporary file is created new at a random name ([`crate::vocab::fswrite::create_temp`]): a
/// link planted in a shared folder at a name we would use cannot redirect the write.
pub fn save(path: &Path, state: &State) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let name = path
        .file_name()
        .map_or("state".into(), |n| n.to_string_lossy());
    let (file, tmp) =
        crate::vocab::fswrite::create_temp(dir, &name).map_err(|e| Error::io(dir, e))?;
    let written = (|| {
        let mut f = std::io::BufWriter::new(file);
        serde_json::to_writer(&mut f, state).map_err(std::io::Error::other)?;
        f.write_all(b"\n")?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_then_loaded_whole() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("deep/er/state.json");
        assert_eq!(load(&path).unwrap(), None);
        let urls: UrlMap = [("https://e.com/".to_string(), Some("2024-01-01".to_string()))].into();
        let state = State::new(vec!["e.com".into()], urls);
        save(&path, &state).unwrap();
        assert_eq!(load(&path).unwrap(), Some(state));
        std::fs::write(&path, "{\"version\": 1,\n\"hosts\": 3}").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(
            err.contains("state.json:2: not a sitemapgen state file"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_device_is_refused_at_once_and_a_large_file_is_not_read() {
        use std::os::unix::ffi::OsStrExt;
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("state.json");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let zero = d.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let started = std::time::Instant::now();
        for (path, kind) in [(&fifo, "a FIFO"), (&zero, "a character device")] {
            let err = load(path).unwrap_err().to_string();
            let want = format!("{}: not a regular file ({kind})", path.display());
            assert!(err.starts_with(&want), "{err}");
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        let big = d.path().join("big.json");
        std::fs::write(&big, "{}").unwrap();
        let err = load_at_most(&big, 1).unwrap_err().to_string();
        assert!(
            err.contains("big.json: larger than 1 bytes (the most read)"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn saving_never_writes_through_a_link_in_the_folder() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let path = d.path().join("shared/state.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // The name the old code used: `.NAME.tmp-PID`.
        let planted = path
            .parent()
            .unwrap()
            .join(format!(".state.json.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let state = State::new(vec!["e.com".into()], UrlMap::new());
        save(&path, &state).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
        assert_eq!(load(&path).unwrap(), Some(state.clone()));
        // A failed rename (a folder where the file goes) leaves no temporary file behind.
        let dir = d.path().join("taken");
        std::fs::create_dir_all(dir.join("state.json/inner")).unwrap();
        assert!(save(&dir.join("state.json"), &state).is_err());
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }

    #[test]
    fn the_default_place_is_named_for_the_host() {
        let p = default_path("127.0.0.1:8080").unwrap();
        assert!(
            p.ends_with("sitemapgen/indexnow/127.0.0.1_8080.json"),
            "{}",
            p.display()
        );
    }
}
