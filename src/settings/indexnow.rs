//! The IndexNow settings as sitemap.toml and the environment give them, checked against the
//! protocol's forms; [`crate::indexnow`] does the rest.

use url::Url;

/// The shared IndexNow endpoint: it passes every submission on to all the engines that take
/// part.
pub const DEFAULT_ENDPOINT: &str = "https://api.indexnow.org/indexnow";

/// The environment variable that holds the key (it wins over sitemap.toml).
pub const KEY_ENV: &str = "INDEXNOW_KEY";

/// The IndexNow settings (`indexnow_key`, `indexnow_key_location`, `indexnow_endpoint` in
/// sitemap.toml; the key also from `INDEXNOW_KEY`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexNowSettings {
    /// The key, checked against the protocol's form; `None` when none is set.
    pub key: Option<String>,
    /// Where the key file goes below the output folder (and so below the base URL), when
    /// not `<key>.txt`.
    pub key_location: Option<String>,
    /// Where submissions go.
    pub endpoint: Option<Url>,
}

impl IndexNowSettings {
    /// Checks the values read: `key` from `INDEXNOW_KEY` (when set and not empty) or the file,
    /// the others from the file. Errors name the key to fix.
    pub fn resolve(
        file_key: Option<String>,
        env_key: Option<String>,
        key_location: Option<String>,
        endpoint: Option<String>,
    ) -> Result<IndexNowSettings, (&'static str, String)> {
        let key = match env_key.filter(|k| !k.trim().is_empty()) {
            Some(k) => Some(check_key(k.trim()).map_err(|m| (KEY_ENV, m))?),
            None => match file_key {
                Some(k) => Some(check_key(&k).map_err(|m| ("indexnow_key", m))?),
                None => None,
            },
        };
        let key_location = key_location
            .map(|l| check_key_location(&l).map(|()| l))
            .transpose()
            .map_err(|m| ("indexnow_key_location", m))?;
        let endpoint = endpoint
            .map(|e| check_endpoint(&e))
            .transpose()
            .map_err(|m| ("indexnow_endpoint", m))?;
        Ok(IndexNowSettings {
            key,
            key_location,
            endpoint,
        })
    }

    /// The key file's path below the output folder: `<key>.txt`, or `indexnow_key_location`.
    pub fn key_file_name(&self) -> Option<String> {
        let key = self.key.as_ref()?;
        Some(match &self.key_location {
            Some(l) => l.trim_start_matches('/').to_string(),
            None => format!("{key}.txt"),
        })
    }
}

/// A key as the protocol allows it: 8 to 128 characters, each `a-z`, `A-Z`, `0-9` or `-`.
pub fn check_key(key: &str) -> Result<String, String> {
    let bad = key
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-'));
    if let Some(c) = bad {
        return Err(format!(
            "an IndexNow key holds only a-z, A-Z, 0-9 and '-', not {c:?}; make one with `openssl rand -hex 16`"
        ));
    }
    if !(8..=128).contains(&key.len()) {
        return Err(format!(
            "an IndexNow key is 8 to 128 characters long, not {}; make one with `openssl rand -hex 16`",
            key.len()
        ));
    }
    Ok(key.to_string())
}

/// `indexnow_key_location`: a `.txt` file below the output folder, written as a path
/// (`keys/indexnow.txt`); it then serves below the base URL.
fn check_key_location(location: &str) -> Result<(), String> {
    let rel = location.trim_start_matches('/');
    let parts: Vec<&str> = rel.split('/').collect();
    let ok = !rel.is_empty()
        && rel.ends_with(".txt")
        && parts.iter().all(|p| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && p.bytes().all(crate::vocab::protocol::is_file_name_byte)
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "indexnow_key_location '{location}' is not a .txt file below the output folder (like \"indexnow/key.txt\"): plain file names, no '..'"
        ))
    }
}

/// `indexnow_endpoint` or `--endpoint`: an http(s) URL.
pub fn check_endpoint(endpoint: &str) -> Result<Url, String> {
    match Url::parse(endpoint) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(u),
        _ => Err(format!(
            "the IndexNow endpoint '{endpoint}' is not an http(s) URL (the default is {DEFAULT_ENDPOINT})"
        )),
    }
}
