//! Shallow and partial clones: where the history at hand ends, and fetching what it lacks.
//!
//! A shallow clone's log ends at boundary commits that show every file as added. The walk
//! stops at the first commit no newer than the newest boundary `HEAD` reaches ([`boundary`]):
//! up to there the log is the full clone's own, past it a full clone may list commits this one
//! lacks. With `git_fetch = "auto"` the history is fetched first ([`fetch_history`]): one
//! `git fetch --filter=blob:none --unshallow` of `HEAD`'s commit, bounded in time. Blobless,
//! because the walk reads a file's old versions only where an edit must be judged, and those
//! few are fetched in batches afterwards ([`fetch_objects`]), as git itself fetches what a
//! partial clone lacks. `--unshallow` rather than `--deepen`/`--shallow-since`: the depth that
//! dates every page is only known once the history is at hand, and each deepening would be
//! another round trip to the remote.

use super::git::git;
use std::collections::HashSet;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long fetching a shallow clone's history may take; and, apart, fetching the file
/// versions a partial clone lacks.
pub const FETCH_LIMIT: Duration = Duration::from_secs(60);

/// The most of a `shallow` file read: a million boundary commits.
const MAX_SHALLOW_FILE: u64 = 64 << 20;

/// The most of a bounded command's standard error kept, to say why it failed.
const MAX_SAID: usize = 64 << 10;

/// How long the threads feeding and reading a bounded command get to end once it has ended
/// or been stopped. Its own output is in the pipe by then; a process it left behind in a
/// session of its own (out of reach of the kill) may keep the pipe open for ever, and the
/// run does not wait for that.
const PIPE_GRACE: Duration = Duration::from_secs(1);

/// How the fetch of a shallow clone's history went.
#[derive(Clone, Debug, PartialEq)]
pub struct Fetched {
    /// The remote asked (`None`: the clone has none).
    pub remote: Option<String>,
    /// How long it took, fallbacks included.
    pub seconds: f64,
    /// Why it did not complete the history (`None`: it did).
    pub failed: Option<String>,
}

/// The committer time (seconds) of the newest boundary commit of a shallow clone that `HEAD`
/// reaches; `None` when `HEAD`'s history is whole (no boundary, only other branches', or only
/// root commits: a clone as deep as the history lists its first commit too).
/// `shallow_file` is `.git/shallow` (git's `--git-path shallow`).
pub fn boundary(root: &Path, shallow_file: &Path) -> io::Result<Option<i64>> {
    let names = match crate::vocab::fsread::read(shallow_file, MAX_SHALLOW_FILE) {
        Ok(bytes) => bytes,
        // Gone: a fetch made the clone whole.
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let names: HashSet<&[u8]> = names
        .split(|b| *b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Ok(None);
    }
    // `<time> <name>` for each commit `HEAD` reaches: no diffs, so quick even when long.
    let mut child = git(root)
        .args(["rev-list", "--timestamp", "HEAD"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut reached: Vec<(i64, Vec<u8>)> = Vec::new();
    if let Some(out) = child.stdout.take() {
        let mut line = Vec::with_capacity(64);
        let mut out = BufReader::new(out);
        while reached.len() < names.len() {
            line.clear();
            if out.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            let mut f = line.trim_ascii().splitn(2, |b| *b == b' ');
            let (Some(time), Some(name)) = (f.next(), f.next()) else {
                continue;
            };
            if names.contains(name) {
                let t = std::str::from_utf8(time)
                    .ok()
                    .and_then(|t| t.parse::<i64>().ok())
                    .unwrap_or(i64::MAX);
                reached.push((t, name.to_vec()));
            }
        }
    }
    // Every boundary found: the rest of the list cannot change the answer.
    let _ = child.kill();
    let status = child.wait()?;
    if reached.len() < names.len() && !status.success() {
        return Err(io::Error::other(format!(
            "`git rev-list HEAD` failed: {status}"
        )));
    }
    // Newest first; a boundary that is the history's own first commit hides nothing.
    reached.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
    for (time, name) in reached {
        if has_parents(root, &name)? {
            return Ok(Some(time));
        }
    }
    Ok(None)
}

/// Whether the commit `name` has parents in its own object (a shallow clone's boundary keeps
/// them there, though git walks no further).
fn has_parents(root: &Path, name: &[u8]) -> io::Result<bool> {
    let name = String::from_utf8_lossy(name);
    let out = git(root)
        .args(["cat-file", "commit", name.as_ref()])
        .stderr(Stdio::null())
        .output()?;
    if !out.status.success() {
        return Err(io::Error::other(format!(
            "`git cat-file commit {name}` failed: {}",
            out.status
        )));
    }
    // The header ends at the first blank line; `parent` lines come right after `tree`.
    Ok(out
        .stdout
        .split(|b| *b == b'\n')
        .take_while(|l| !l.is_empty())
        .any(|l| l.starts_with(b"parent ")))
}

/// Fetches the whole history of `head` (a commit name) without file contents, from the
/// remote `HEAD`'s branch follows (else `origin`, else the first), within `limit`. By name
/// first: only `HEAD`'s history, whatever branches the remote has; a server that refuses to
/// send a commit by name gets the remote's default refspec instead.
pub fn fetch_history(root: &Path, head: &str, limit: Duration) -> Fetched {
    let start = Instant::now();
    let deadline = start + limit;
    let Some(remote) = remote_of_head(root) else {
        return Fetched {
            remote: None,
            seconds: 0.0,
            failed: Some("the clone has no remote to fetch from".into()),
        };
    };
    let fetch = |target: Option<&str>| {
        let mut cmd = fetch_command(root, false);
        cmd.args(["--unshallow", &remote]).args(target);
        run_until(cmd, None, deadline)
    };
    let mut result = fetch(Some(head));
    if matches!(result, Err(Stopped::Failed(_))) {
        result = fetch(None);
    }
    Fetched {
        remote: Some(remote.clone()),
        seconds: start.elapsed().as_secs_f64(),
        failed: result.err().map(|e| e.describe(&remote, limit)),
    }
}

/// The remote of a partial clone (the one it fetches missing objects from), if it is one:
/// `extensions.partialClone` (set by `git clone --filter`), else a remote marked as a
/// promisor (as `git fetch --filter` marks it).
pub fn promisor_remote(root: &Path) -> Option<String> {
    let ask = |args: &[&str]| {
        let out = git(root).args(args).stderr(Stdio::null()).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    if let Some(name) = ask(&["config", "--get", "extensions.partialClone"]) {
        let name = name.trim();
        if !name.is_empty() {
            return Some(name.to_string());
        }
    }
    // `remote.<name>.promisor true`, a line each.
    let marked = ask(&[
        "config",
        "--bool",
        "--get-regexp",
        r"^remote\..*\.promisor$",
    ])?;
    marked.lines().find_map(|l| {
        let (key, value) = l.rsplit_once(' ')?;
        let name = key.strip_prefix("remote.")?.strip_suffix(".promisor")?;
        (value == "true" && !name.is_empty()).then(|| name.to_string())
    })
}

/// Fetches the objects `oids` (hex names, a partial clone lacks them) from `remote` in one
/// request, by the deadline, as git's own lazy fetch asks for them.
pub fn fetch_objects(
    root: &Path,
    remote: &str,
    oids: &[Box<[u8]>],
    deadline: Instant,
) -> Result<(), String> {
    let mut list = Vec::with_capacity(oids.len() * 41);
    for oid in oids {
        list.extend_from_slice(oid);
        list.push(b'\n');
    }
    let mut cmd = fetch_command(root, true);
    cmd.args(["--stdin", remote]);
    let limit = deadline.saturating_duration_since(Instant::now());
    run_until(cmd, Some(list), deadline).map_err(|e| e.describe(remote, limit))
}

/// The remote the branch `HEAD` is on follows, else `origin`, else the first one.
fn remote_of_head(root: &Path) -> Option<String> {
    let out = git(root).args(["remote"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let remotes: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    let upstream = git(root)
        .args([
            "rev-parse",
            "--abbrev-ref",
            "--symbolic-full-name",
            "@{upstream}",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let followed = upstream.and_then(|u| {
        remotes
            .iter()
            .find(|r| {
                u.strip_prefix(**r)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
            .map(|r| r.to_string())
    });
    followed
        .or_else(|| {
            remotes
                .iter()
                .find(|r| **r == "origin")
                .map(|r| r.to_string())
        })
        .or_else(|| remotes.first().map(|r| r.to_string()))
}

/// `git fetch` without file contents, of history or (`objects`) of old versions of files as
/// git's own lazy fetch asks for them (no negotiation: they are known to be missing), never
/// waiting for a password or a question on a terminal.
fn fetch_command(root: &Path, objects: bool) -> Command {
    let mut cmd = git(root);
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .env("GCM_INTERACTIVE", "never")
        .env("GIT_ASKPASS", "")
        .env("SSH_ASKPASS", "");
    if objects {
        cmd.args(["-c", "fetch.negotiationAlgorithm=noop"]);
    }
    cmd.args([
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--recurse-submodules=no",
        "--filter=blob:none",
    ]);
    cmd
}

/// Why a bounded git command did not succeed.
#[derive(Debug)]
enum Stopped {
    /// It failed, saying this.
    Failed(String),
    /// It was still running at the deadline, and was stopped.
    TimedOut,
}

impl Stopped {
    fn describe(self, remote: &str, limit: Duration) -> String {
        match self {
            Stopped::Failed(why) => format!("`git fetch {remote}` failed: {why}"),
            Stopped::TimedOut => format!(
                "`git fetch {remote}` took longer than {} s and was stopped",
                limit.as_secs()
            ),
        }
    }
}

/// Runs `cmd` (with `input` on its standard input) until it ends or `deadline` passes; then
/// it is stopped, with every process it started (its own process group). What it wrote to
/// its standard error by then, and within [`PIPE_GRACE`] after, says why it failed.
fn run_until(mut cmd: Command, input: Option<Vec<u8>>, deadline: Instant) -> Result<(), Stopped> {
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().map_err(|e| Stopped::Failed(e.to_string()))?;
    let writer = match (input, child.stdin.take()) {
        (Some(bytes), Some(mut stdin)) => Some(std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })),
        _ => None,
    };
    // Read into a shared buffer, so that what was read is at hand even when the pipe stays
    // open and the thread is left behind.
    let said = Arc::new(Mutex::new(Vec::new()));
    let reader = child.stderr.take().map(|mut e| {
        let said = Arc::clone(&said);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                let n = match e.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let mut said = said.lock().unwrap_or_else(|p| p.into_inner());
                let keep = n.min(MAX_SAID.saturating_sub(said.len()));
                said.extend_from_slice(&chunk[..keep]);
                if said.len() >= MAX_SAID {
                    break;
                }
            }
        })
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if Instant::now() >= deadline => {
                stop(&mut child);
                break Err(Stopped::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                stop(&mut child);
                break Err(Stopped::Failed(e.to_string()));
            }
        }
    };
    let by = Instant::now() + PIPE_GRACE;
    for thread in [writer, reader].into_iter().flatten() {
        join_by(thread, by);
    }
    let said = {
        let said = said.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&said).trim().to_string()
    };
    match status? {
        s if s.success() => Ok(()),
        s => Err(Stopped::Failed(if said.is_empty() {
            s.to_string()
        } else {
            said
        })),
    }
}

/// Waits for `thread` to end, until `by`; past that it is left to end on its own (a pipe it
/// waits on may never close).
fn join_by(thread: JoinHandle<()>, by: Instant) {
    while !thread.is_finished() && Instant::now() < by {
        std::thread::sleep(Duration::from_millis(5));
    }
    if thread.is_finished() {
        let _ = thread.join();
    }
}

/// Kills `child` and what it started, and reaps it.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: a signal to the process group this function's caller made for the child.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_past_its_deadline_is_stopped_with_what_it_started() {
        let started = Instant::now();
        let mut cmd = Command::new("sh");
        // The child's own child would outlive a kill of the shell alone.
        cmd.args(["-c", "sleep 30 & wait"]);
        let got = run_until(cmd, None, Instant::now() + Duration::from_millis(300));
        assert!(matches!(got, Err(Stopped::TimedOut)), "{got:?}");
        assert!(started.elapsed() < Duration::from_secs(10));
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "cat >/dev/null; echo no >&2; exit 3"]);
        let got = run_until(
            cmd,
            Some(b"x\n".to_vec()),
            Instant::now() + Duration::from_secs(20),
        );
        assert!(
            matches!(&got, Err(Stopped::Failed(s)) if s == "no"),
            "{got:?}"
        );
    }

    #[test]
    fn a_process_left_behind_holding_the_pipe_does_not_hold_up_the_run() {
        if !Command::new("setsid")
            .arg("true")
            .status()
            .is_ok_and(|s| s.success())
        {
            // No `setsid` here: nothing to leave behind with it.
            return;
        }
        // The helper is in a session of its own: the kill of the group misses it, and it keeps
        // the command's standard error open for 15 s.
        let started = Instant::now();
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "setsid sleep 15 & sleep 30"]);
        let got = run_until(cmd, None, Instant::now() + Duration::from_millis(300));
        assert!(matches!(got, Err(Stopped::TimedOut)), "{got:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // Ended on its own, what it said before is kept.
        let started = Instant::now();
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo no >&2; setsid sleep 15 & exit 3"]);
        let got = run_until(cmd, None, Instant::now() + Duration::from_secs(20));
        assert!(
            matches!(&got, Err(Stopped::Failed(s)) if s == "no"),
            "{got:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
