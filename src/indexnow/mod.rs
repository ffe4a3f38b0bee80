//! IndexNow: telling search engines (Bing, Yandex, Naver, Seznam, …) which URLs changed.
//!
//! A site proves it owns its host by serving a key file (`<key>.txt` holding the key, or a
//! `keyLocation` of its choice); a submission is a POST of at most 10,000 URLs of one host
//! with that key. sitemapgen sends only what changed since search engines last heard from
//! us: URLs added, URLs whose lastmod moved, and URLs removed (that is how IndexNow learns
//! of a deletion), never the unchanged rest, and never a URL the audit left out.
//!
//! This module holds what needs no network: the key and its file, the plan of what to send
//! to whom, the request body, and the state file of what was last sent. The `send` submodule
//! (cargo feature `net`) does the exchanges.

#[cfg(feature = "net")]
pub mod send;
pub mod state;

pub use crate::settings::indexnow::{
    DEFAULT_ENDPOINT, IndexNowSettings, KEY_ENV, check_endpoint, check_key,
};
use crate::sitemap::diff::Diff;
use crate::sitemap::set_read::UrlMap;
use std::collections::BTreeSet;
use url::Url;

/// The protocol's cap on URLs in one request.
pub const MAX_URLS_PER_REQUEST: usize = 10_000;

/// One host of the site, as IndexNow sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubmitHost {
    /// The base URL of the host's share of the site (ending in `/`).
    pub base: Url,
    /// Where its key file is served.
    pub key_file: Url,
}

impl SubmitHost {
    /// A host of the site at `base` (a multihost site has one per language) with its key file
    /// where `build` writes it: `<key>.txt` or the key location, below the base URL.
    pub fn new(base: &Url, settings: &IndexNowSettings) -> Option<SubmitHost> {
        let name = settings.key_file_name()?;
        let key_file = base.join(&name).ok()?;
        Some(SubmitHost {
            base: base.clone(),
            key_file,
        })
    }

    /// `host` as the request names it: the host name, with the port when it is not the
    /// scheme's own.
    pub fn name(&self) -> String {
        let host = self.base.host_str().unwrap_or_default();
        match self.base.port() {
            Some(p) => format!("{host}:{p}"),
            None => host.to_string(),
        }
    }

    /// The URLs this key may vouch for: those in the key file's folder or below (the
    /// protocol's rule for a `keyLocation`), on the same scheme, host and port.
    pub fn scope(&self) -> &str {
        let s = self.key_file.as_str();
        &s[..s.rfind('/').map_or(s.len(), |i| i + 1)]
    }

    /// True when the key file is not `<key>.txt` at the host's root, so requests must name it.
    pub fn needs_key_location(&self, key: &str) -> bool {
        self.key_file.path() != format!("/{key}.txt")
    }

    /// True when `url` is this host's to submit.
    fn covers(&self, url: &str) -> bool {
        let Ok(u) = Url::parse(url) else {
            return false;
        };
        // http and https URLs of one host may be mixed (the protocol allows it); a port
        // other than the scheme's own makes another site.
        u.host_str() == self.base.host_str()
            && u.port() == self.base.port()
            && u.path()
                .starts_with(&self.key_file.path()[..self.scope_path_len()])
    }

    fn scope_path_len(&self) -> usize {
        let p = self.key_file.path();
        p.rfind('/').map_or(0, |i| i + 1)
    }
}

/// One request: up to [`MAX_URLS_PER_REQUEST`] URLs of one host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The host, as the request names it.
    pub host: String,
    /// The key file's URL, when the request must name it (`keyLocation`).
    pub key_location: Option<String>,
    /// The key file's URL, checked before sending.
    pub key_file: Url,
    /// The URLs, sorted.
    pub urls: Vec<String>,
}

/// What a submission sends, and what it leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submission {
    /// The requests, host by host.
    pub batches: Vec<Batch>,
    /// Changed URLs on no host of the site (a baseline from another site or an old domain):
    /// never sent.
    pub foreign: Vec<String>,
    /// Removed URLs the audit left out (noindex, a canonical elsewhere, a redirect, not
    /// built): never sent.
    pub audited: Vec<String>,
}

impl Submission {
    /// Every URL to send, in all.
    pub fn urls(&self) -> usize {
        self.batches.iter().map(|b| b.urls.len()).sum()
    }
}

/// Plans the requests for the changes in `diff`: added, moved and removed URLs, each on the
/// host that covers it, in batches of at most `per_request` URLs (at most the protocol's
/// 10,000). `audited` are the URLs the audit left out, never sent.
pub fn plan(
    diff: &Diff,
    hosts: &[SubmitHost],
    key: &str,
    audited: &BTreeSet<String>,
    per_request: usize,
) -> Submission {
    let per_request = per_request.clamp(1, MAX_URLS_PER_REQUEST);
    let mut out = Submission::default();
    let mut by_host: Vec<Vec<String>> = vec![Vec::new(); hosts.len()];
    let changed: BTreeSet<&String> = diff
        .added
        .iter()
        .chain(diff.moved.iter().map(|m| &m.url))
        .chain(&diff.removed)
        .collect();
    for url in changed {
        if audited.contains(url) {
            out.audited.push(url.clone());
            continue;
        }
        match hosts.iter().position(|h| h.covers(url)) {
            Some(h) => by_host[h].push(url.clone()),
            None => out.foreign.push(url.clone()),
        }
    }
    for (host, urls) in hosts.iter().zip(by_host) {
        for chunk in urls.chunks(per_request) {
            out.batches.push(Batch {
                host: host.name(),
                key_location: host
                    .needs_key_location(key)
                    .then(|| host.key_file.to_string()),
                key_file: host.key_file.clone(),
                urls: chunk.to_vec(),
            });
        }
    }
    out
}

/// The JSON body of a request.
pub fn body(batch: &Batch, key: &str) -> Vec<u8> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Body<'a> {
        host: &'a str,
        key: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        key_location: Option<&'a str>,
        url_list: &'a [String],
    }
    serde_json::to_vec(&Body {
        host: &batch.host,
        key,
        key_location: batch.key_location.as_deref(),
        url_list: &batch.urls,
    })
    .unwrap_or_default()
}

/// The baseline after `sent` batches went through: each URL sent now has its lastmod in
/// `new` (or is gone, when `new` no longer lists it); the rest stay as in `old`.
pub fn after_sending(old: &UrlMap, new: &UrlMap, sent: &[&Batch]) -> UrlMap {
    let mut state = old.clone();
    for url in sent.iter().flat_map(|b| &b.urls) {
        match new.get(url) {
            Some(lastmod) => state.insert(url.clone(), lastmod.clone()),
            None => state.remove(url),
        };
    }
    state
}

/// What an IndexNow endpoint's refusal means, in plain words.
pub fn explain(status: u16) -> &'static str {
    match status {
        400 => {
            "the request is malformed (bad request): a URL or the key is not in the form the protocol wants"
        }
        403 => {
            "the key is not valid for this host (forbidden): the engine did not find the key file, or it holds another key; check that the deployed key file matches INDEXNOW_KEY or indexnow_key"
        }
        422 => {
            "the URLs do not belong to the host, or the key does not match the protocol's form (unprocessable entity)"
        }
        429 => "too many requests: the engine is throttling this host; submit less often",
        500..=599 => "the endpoint failed on its side",
        _ => "an answer IndexNow does not define",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sitemap::diff::Moved;

    fn settings(key: &str, location: Option<&str>) -> IndexNowSettings {
        IndexNowSettings::resolve(Some(key.into()), None, location.map(Into::into), None).unwrap()
    }

    #[test]
    fn keys_hold_8_to_128_of_the_protocols_characters() {
        assert!(check_key("0123abcd-EF").is_ok());
        assert!(check_key("short").unwrap_err().contains("8 to 128"));
        assert!(check_key(&"a".repeat(129)).is_err());
        assert!(check_key("has space1").unwrap_err().contains("' '"));
        // The environment wins over the file, and is checked as strictly.
        let s = IndexNowSettings::resolve(
            Some("file-key-1".into()),
            Some("env-key-12".into()),
            None,
            None,
        );
        assert_eq!(s.unwrap().key.as_deref(), Some("env-key-12"));
        let s =
            IndexNowSettings::resolve(Some("file-key-1".into()), Some("bad".into()), None, None);
        assert_eq!(s.unwrap_err().0, "INDEXNOW_KEY");
        let s = IndexNowSettings::resolve(Some("file-key-1".into()), Some(" ".into()), None, None);
        assert_eq!(s.unwrap().key.as_deref(), Some("file-key-1"));
        for bad in ["../k.txt", "k.html", "a//k.txt", ""] {
            let s = IndexNowSettings::resolve(None, None, Some(bad.into()), None);
            assert_eq!(s.unwrap_err().0, "indexnow_key_location", "{bad}");
        }
        let s = IndexNowSettings::resolve(None, None, None, Some("ftp://x".into()));
        assert_eq!(s.unwrap_err().0, "indexnow_endpoint");
    }

    #[test]
    fn the_key_file_is_below_the_base_url_and_scopes_what_it_vouches_for() {
        let root = Url::parse("https://e.com/").unwrap();
        let h = SubmitHost::new(&root, &settings("abcdefgh", None)).unwrap();
        assert_eq!(h.key_file.as_str(), "https://e.com/abcdefgh.txt");
        assert!(!h.needs_key_location("abcdefgh"));
        assert!(h.covers("https://e.com/a/b/"));
        assert!(h.covers("http://e.com/x"), "http and https mix");
        assert!(!h.covers("https://e.com:8443/x"));
        assert!(!h.covers("https://www.e.com/x"));
        let blog = Url::parse("https://e.com:8443/blog/").unwrap();
        let h = SubmitHost::new(&blog, &settings("abcdefgh", Some("/keys/k.txt"))).unwrap();
        assert_eq!(h.key_file.as_str(), "https://e.com:8443/blog/keys/k.txt");
        assert!(h.needs_key_location("abcdefgh"));
        assert_eq!(h.name(), "e.com:8443");
        assert_eq!(h.scope(), "https://e.com:8443/blog/keys/");
        assert!(h.covers("https://e.com:8443/blog/keys/page/"));
        assert!(!h.covers("https://e.com:8443/blog/other/"));
    }

    #[test]
    fn plans_only_changes_on_the_hosts_in_batches() {
        let s = settings("abcdefgh", None);
        let hosts = [
            SubmitHost::new(&Url::parse("https://e.com/").unwrap(), &s).unwrap(),
            SubmitHost::new(&Url::parse("https://fr.e.com/").unwrap(), &s).unwrap(),
        ];
        let d = Diff {
            added: vec![
                "https://e.com/a".into(),
                "https://e.com/b".into(),
                "https://e.com/c".into(),
            ],
            removed: vec![
                "https://old.org/x".into(),
                "https://e.com/noindex".into(),
                "https://fr.e.com/z".into(),
            ],
            moved: vec![Moved {
                url: "https://e.com/m".into(),
                old: "2024-01-01".into(),
                new: "2024-02-01".into(),
            }],
        };
        let audited = BTreeSet::from(["https://e.com/noindex".to_string()]);
        let p = plan(&d, &hosts, "abcdefgh", &audited, 3);
        let got: Vec<(&str, Vec<&str>)> = p
            .batches
            .iter()
            .map(|b| (b.host.as_str(), b.urls.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "e.com",
                    vec!["https://e.com/a", "https://e.com/b", "https://e.com/c"]
                ),
                ("e.com", vec!["https://e.com/m"]),
                ("fr.e.com", vec!["https://fr.e.com/z"]),
            ]
        );
        assert_eq!(p.foreign, ["https://old.org/x"]);
        assert_eq!(p.audited, ["https://e.com/noindex"]);
        assert_eq!(p.urls(), 5);
        let big = Diff {
            added: (0..25_001).map(|i| format!("https://e.com/{i}")).collect(),
            ..Diff::default()
        };
        let p = plan(&big, &hosts[..1], "abcdefgh", &BTreeSet::new(), usize::MAX);
        let sizes: Vec<usize> = p.batches.iter().map(|b| b.urls.len()).collect();
        assert_eq!(sizes, [10_000, 10_000, 5_001]);
    }

    #[test]
    fn the_body_is_the_protocols_json() {
        let b = Batch {
            host: "e.com".into(),
            key_location: Some("https://e.com/k/key.txt".into()),
            key_file: Url::parse("https://e.com/k/key.txt").unwrap(),
            urls: vec!["https://e.com/k/a".into()],
        };
        assert_eq!(
            String::from_utf8(body(&b, "abcdefgh")).unwrap(),
            r#"{"host":"e.com","key":"abcdefgh","keyLocation":"https://e.com/k/key.txt","urlList":["https://e.com/k/a"]}"#
        );
    }

    #[test]
    fn the_state_after_sending_takes_only_what_went_through() {
        let m = |pairs: &[(&str, &str)]| -> UrlMap {
            pairs
                .iter()
                .map(|(u, l)| (u.to_string(), Some(l.to_string())))
                .collect()
        };
        let old = m(&[("a", "1"), ("b", "1"), ("gone", "1")]);
        let new = m(&[("a", "2"), ("b", "2"), ("new", "1")]);
        let sent = Batch {
            host: "h".into(),
            key_location: None,
            key_file: Url::parse("https://h/k.txt").unwrap(),
            urls: vec!["a".into(), "gone".into(), "new".into()],
        };
        assert_eq!(
            after_sending(&old, &new, &[&sent]),
            m(&[("a", "2"), ("b", "1"), ("new", "1")])
        );
    }
}
