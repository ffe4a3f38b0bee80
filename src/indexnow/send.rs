//! The exchanges of a submission (cargo feature `net`): the live key file checked first (a
//! missing or wrong one means the deploy is not live yet), then each batch POSTed, with
//! bounded retries on 429 and 5xx.

use super::{Batch, body, explain};
use crate::net::{Client, status_text};
use crate::vocab::error::{Error, Result};
use std::time::{Duration, Instant};
use url::Url;

/// How a throttled or failing endpoint is retried.
#[derive(Clone, Debug)]
pub struct Retry {
    /// Most requests per batch, the first one included.
    pub attempts: u32,
    /// The wait before the first retry when the server names none; doubled each time.
    pub first_wait: Duration,
    /// The longest single wait (a longer `Retry-After` is cut to it).
    pub max_wait: Duration,
    /// The most time spent waiting for one batch; a wait past it is not taken.
    pub max_total_wait: Duration,
}

impl Default for Retry {
    /// 5 requests, waiting `Retry-After` or 2, 4, 8, 16 s, each wait at most 60 s and 2
    /// minutes of waiting in all.
    fn default() -> Self {
        Retry {
            attempts: 5,
            first_wait: Duration::from_secs(2),
            max_wait: Duration::from_secs(60),
            max_total_wait: Duration::from_secs(120),
        }
    }
}

/// Fetches the key file at `url` (no redirect followed: engines fetch it directly) and
/// checks it holds `key`. An error says what the live site serves instead.
pub fn check_key_file(client: &Client, url: &Url, key: &str) -> Result<()> {
    let reply = client.get(url, 4096, false)?;
    let not_live = "the deploy is not live yet, or the key file was not deployed (`sitemapgen build` writes it into the output folder when a key is set): nothing was submitted";
    match reply.status {
        200 => {
            let text = String::from_utf8_lossy(&reply.body);
            let found = text.trim_start_matches('\u{feff}').trim();
            if found == key {
                Ok(())
            } else {
                let shown: String = found.chars().take(16).collect();
                Err(Error::remote(
                    url.as_str(),
                    format!(
                        "the live key file holds '{shown}{}', not the key set in INDEXNOW_KEY or indexnow_key: {not_live}",
                        if found.chars().count() > 16 {
                            "…"
                        } else {
                            ""
                        }
                    ),
                ))
            }
        }
        300..=399 => Err(Error::remote(
            url.as_str(),
            format!(
                "the key file answers {} (to {}): search engines want it served directly, with 200",
                status_text(reply.status),
                reply.location.as_deref().unwrap_or("nowhere")
            ),
        )),
        s => Err(Error::remote(
            url.as_str(),
            format!("the key file answers {}: {not_live}", status_text(s)),
        )),
    }
}

/// What sending one batch took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// The final status (200 or 202).
    pub status: u16,
    /// Requests made.
    pub attempts: u32,
}

/// POSTs `batch` to `endpoint`: 200 or 202 is success; 429 and 5xx are retried as `retry`
/// says (`sleep` waits: tests pass one that does not); anything else is an error that says
/// what it means.
pub fn send_batch(
    client: &Client,
    endpoint: &Url,
    batch: &Batch,
    key: &str,
    retry: &Retry,
    sleep: &mut dyn FnMut(Duration),
) -> Result<Sent> {
    let payload = body(batch, key);
    let mut waited = Duration::ZERO;
    let mut next_wait = retry.first_wait;
    let start = Instant::now();
    for attempt in 1..=retry.attempts.max(1) {
        let reply = client.post_json(endpoint, &payload)?;
        let status = reply.status;
        if status == 200 || status == 202 {
            return Ok(Sent {
                status,
                attempts: attempt,
            });
        }
        let server_says = said(&reply.body);
        let retriable = status == 429 || (500..=599).contains(&status);
        if !retriable {
            return Err(Error::remote(
                endpoint.as_str(),
                format!(
                    "{} for {} URLs of {}: {}{server_says}",
                    status_text(status),
                    batch.urls.len(),
                    batch.host,
                    explain(status)
                ),
            ));
        }
        let wait = reply.retry_after.unwrap_or(next_wait).min(retry.max_wait);
        next_wait = next_wait.saturating_mul(2);
        if attempt == retry.attempts || waited + wait > retry.max_total_wait {
            return Err(Error::remote(
                endpoint.as_str(),
                format!(
                    "{} for {} URLs of {}, {attempt} times in {:.0} s: {}{server_says}; gave up (the next submit sends these again)",
                    status_text(status),
                    batch.urls.len(),
                    batch.host,
                    start.elapsed().as_secs_f64(),
                    explain(status)
                ),
            ));
        }
        sleep(wait);
        waited += wait;
    }
    // The loop returns on its last attempt.
    Err(Error::remote(endpoint.as_str(), "no request was made"))
}

/// `: "what the server said"` from a body, short and on one line; empty when it said nothing.
fn said(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let one: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    if one.is_empty() {
        String::new()
    } else {
        format!(" (the server said: {one})")
    }
}
