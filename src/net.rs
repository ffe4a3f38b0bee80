//! The HTTP client of the commands that reach a server (cargo feature `net`): `diff` of a
//! deployed sitemap, and `submit`'s key-file check and IndexNow requests. Blocking (ureq),
//! TLS by rustls with Mozilla's roots built in; every request has a timeout and every body
//! read a size cap, so no server can hold a run or its memory.

use crate::vocab::error::{Error, Result};
use std::io::Read;
use std::time::Duration;
use url::Url;

/// How long one request may take, connecting to the last byte of the answer.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Most bytes of a sitemap download: a little past the protocol's 50 MB (gzip is smaller).
const MAX_SITEMAP_BYTES: u64 = crate::vocab::protocol::MAX_BYTES as u64 + (1 << 20);

/// A server's answer, its body read (up to the cap the request gave).
#[derive(Clone, Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Vec<u8>,
    /// `Retry-After`, when the server sent one (seconds or an HTTP date).
    pub retry_after: Option<Duration>,
    /// `Location`, on a redirect that was not followed.
    pub location: Option<String>,
}

/// The client: one connection pool for a run.
pub struct Client {
    follow: ureq::Agent,
    stay: ureq::Agent,
}

impl Default for Client {
    fn default() -> Self {
        Client::new(TIMEOUT)
    }
}

impl Client {
    /// A client whose requests each take at most `timeout`.
    pub fn new(timeout: Duration) -> Client {
        let agent = |redirects: u32| {
            ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .max_redirects(redirects)
                .max_redirects_will_error(false)
                .user_agent(concat!("sitemapgen/", env!("CARGO_PKG_VERSION")))
                .build()
                .new_agent()
        };
        Client {
            follow: agent(5),
            stay: agent(0),
        }
    }

    /// GETs `url`, following redirects when `follow` (at most 5), and reads at most `max`
    /// bytes of the body (a longer body is an error).
    pub fn get(&self, url: &Url, max: u64, follow: bool) -> Result<Reply> {
        let agent = if follow { &self.follow } else { &self.stay };
        let answer = agent.get(url.as_str()).call();
        reply(url, answer, max)
    }

    /// POSTs `body` as JSON (UTF-8) to `url`, redirects not followed; reads at most 64 KiB of
    /// the answer (servers explain a refusal in a line or two).
    pub fn post_json(&self, url: &Url, body: &[u8]) -> Result<Reply> {
        let answer = self
            .stay
            .post(url.as_str())
            .header("Content-Type", "application/json; charset=utf-8")
            .send(body);
        reply(url, answer, 64 * 1024)
    }
}

impl Client {
    /// The body of a successful (2xx) answer for `url`, after redirects, read up to a
    /// sitemap's size and a margin; any other answer is an error saying what the server
    /// answered.
    pub fn open_sitemap(&self, url: &Url) -> Result<Box<dyn Read + Send>> {
        let answer = self
            .follow
            .get(url.as_str())
            .call()
            .map_err(|e| transport(url, &e))?;
        let status = answer.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(Error::remote(url.as_str(), status_text(status)));
        }
        let body = answer
            .into_body()
            .into_with_config()
            .limit(MAX_SITEMAP_BYTES)
            .reader();
        Ok(Box::new(Worded(body)))
    }
}

/// A body read as a stream, its failures in words (see [`body_error`]).
struct Worded<R>(R);

impl<R: Read> Read for Worded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0
            .read(buf)
            .map_err(|e| std::io::Error::new(e.kind(), body_error(&e)))
    }
}

/// An answer as a [`Reply`], or the transport failure as an error naming the URL.
fn reply(
    url: &Url,
    answer: std::result::Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    max: u64,
) -> Result<Reply> {
    let mut answer = answer.map_err(|e| transport(url, &e))?;
    let header = |name: &str| {
        answer
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let retry_after = header("retry-after").and_then(|v| retry_after(&v));
    let location = header("location");
    let status = answer.status().as_u16();
    let mut body = Vec::new();
    answer
        .body_mut()
        .with_config()
        .limit(max)
        .reader()
        .read_to_end(&mut body)
        .map_err(|e| Error::remote(url.as_str(), body_error(&e)))?;
    Ok(Reply {
        status,
        body,
        retry_after,
        location,
    })
}

/// `Retry-After`: seconds, or an HTTP date (the wait until then, none when it has passed).
pub fn retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = when.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

/// A transport failure in words, naming the URL.
fn transport(url: &Url, e: &ureq::Error) -> Error {
    let message = match e {
        ureq::Error::Timeout(_) => format!("no answer within {} s", TIMEOUT.as_secs()),
        ureq::Error::HostNotFound => "the host name does not resolve".to_string(),
        ureq::Error::ConnectionFailed => "the connection failed".to_string(),
        ureq::Error::Io(io) => format!("the connection failed: {io}"),
        e => e.to_string(),
    };
    Error::remote(url.as_str(), message)
}

/// A failure reading a body in words (ureq wraps its own errors, the size cap among them,
/// in the I/O error its reader returns).
fn body_error(e: &std::io::Error) -> String {
    match e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ureq::Error>())
    {
        Some(ureq::Error::BodyExceedsLimit(n)) => {
            format!("the answer is larger than {n} bytes; reading stopped there")
        }
        Some(ureq::Error::Timeout(_)) => {
            format!("no complete answer within {} s", TIMEOUT.as_secs())
        }
        _ => format!("reading the answer failed: {e}"),
    }
}

/// `HTTP 404 (Not Found)`.
pub fn status_text(status: u16) -> String {
    match ureq::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
    {
        Some(reason) => format!("HTTP {status} ({reason})"),
        None => format!("HTTP {status}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(retry_after(" 7 "), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon"), None);
        assert_eq!(status_text(429), "HTTP 429 (Too Many Requests)");
        assert_eq!(status_text(599), "HTTP 599");
    }
}
