//! The walk back through `git log --raw`, newest commit first, that dates each file by the
//! last commit that changed what a reader sees of it.
//!
//! Each commit that touches a file still waiting for its date becomes a step in that file's
//! queue: one that dates it for sure (an add, an arrival from outside the content dir, any
//! edit under `any-commit`), one passed over (a pure move, an ignored revision), or one to
//! compare (an edit: the versions before and after are read from git's object store by
//! [`Blobs`] and dated only when what a reader sees differs). The walk does not wait for the
//! comparisons: it goes on as if the edit were a reformat (following a rename to the old
//! name), and a file is dated once the first step of its queue that counts is known. Git is
//! stopped as soon as no file needs an older commit.
//!
//! In a shallow clone the walk stops at the clone's boundary: the boundary commit shows every
//! file as added, and past it a full clone's log may hold commits this one lacks. A file still
//! looking for its last change there is *unreached*: it gets no date rather than a wrong one.

use super::FileHistory;
use super::blobs::{Blobs, Oid, Version};
use super::recall::Recall;
use super::visible::{Compare, Scale};
use crate::vocab::date::W3cDate;
use chrono::DateTime;
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, BufRead};

/// A path as git writes it, relative to the repository's top folder.
pub type GitPath = Box<[u8]>;

/// Marks the start of a commit in the log; git never writes it at the start of a record.
pub const COMMIT_MARK: u8 = 0x01;

/// Why commits that changed a file were passed over (bits, a file's union).
pub mod passed {
    /// A move or rename that changed nothing else.
    pub const MOVED: u8 = 1;
    /// A change no reader sees: whitespace, the front matter's layout, other keys.
    pub const UNSEEN: u8 = 2;
    /// A commit listed in the ignore-revs file.
    pub const IGNORED: u8 = 4;
    /// A mass edit that changed only a few words, or a sweep that changed only the sites its
    /// links lead to.
    pub const MASS: u8 = 8;
}

/// The date a commit gave a file, and which commit (an index into [`Walk::commits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The commit's date, in its own offset.
    pub date: W3cDate,
    /// Index into [`Walk::commits`].
    pub commit: u32,
}

/// One commit that touched a file, as the walk met it.
#[derive(Debug)]
enum Step {
    /// Dates the file.
    Dates(Stamp),
    /// Dates the file unless a reader sees the same before and after (for an edit of this
    /// `scale`).
    Compare {
        stamp: Stamp,
        old: Oid,
        new: Oid,
        scale: Scale,
    },
    /// Passed over, for this reason ([`passed`]).
    Pass(u8),
    /// Where the history at hand ends for it (a shallow clone's boundary), or an edit whose
    /// versions could not be read: no date can be given.
    Unreached,
    /// Where the log's range begins: what the walk from there found for the name the file
    /// had (`None`: it found no date, as when the log runs out), with why it passed commits
    /// over on the way.
    Recalled { stamp: Option<Stamp>, passed: u8 },
}

/// Where a file is in the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Older commits may still date it.
    Wanting,
    /// No older commit matters; steps in its queue are still to be decided.
    Deciding,
    /// Dated, or known to get no date.
    Done,
}

/// How many steps past the first a file may have versions asked for at once: enough to keep
/// `git cat-file` streaming through a long run of edits no reader sees.
const MAX_AHEAD: usize = 1024;

/// A file with steps still to decide.
#[derive(Debug)]
struct Track {
    steps: VecDeque<Step>,
    /// The oldest edit found to change nothing a reader sees.
    oldest: Option<Stamp>,
    /// The log ended before the commit that added it (a merge added it): the oldest commit
    /// seen stands in for that one.
    ran_out: bool,
    /// Its first step waits for a version (listed once in [`Walk::blocked`]).
    blocked: bool,
    /// How many steps from the front have had their versions asked for.
    asked: usize,
    /// How many steps from the front may have them asked for: one at first (most edits are
    /// seen, and the first decides), doubled each time an edit turns out unseen.
    ahead: usize,
}

impl Default for Track {
    fn default() -> Track {
        Track {
            steps: VecDeque::new(),
            oldest: None,
            ran_out: false,
            blocked: false,
            asked: 0,
            ahead: 1,
        }
    }
}

/// What [`Walk::advance`] does next with a file.
enum Next {
    Finish(Option<Stamp>),
    Recalled(Option<Stamp>, u8),
    Unreached,
    Pass(u8),
    Compare(Stamp, Oid, Oid, Scale),
}

/// What the walk is told.
pub struct Rules<'r> {
    /// `Some` to compare versions (`lastmod_significance = "content"`), `None` when any edit
    /// counts.
    pub compare: Option<Compare>,
    /// Commits that never date a file (hex names).
    pub ignored: &'r HashSet<Box<[u8]>>,
    /// Which files are compared (pages); others are dated by any edit.
    pub comparable: fn(&[u8]) -> bool,
    /// In a shallow clone, the committer time (seconds) of the newest boundary commit `HEAD`
    /// reaches: the walk stops at the first commit no newer than it.
    pub boundary: Option<i64>,
    /// A commit that changes at least this many pages is a mass edit: it dates a page only
    /// where it changed the page's words (`None`: no commit is).
    pub mass_edit: Option<usize>,
    /// The log is the range from an earlier walk's commit (`git log C..HEAD`, ordinary commits
    /// only): a file still waiting where it ends takes what that walk found for its name.
    pub recall: Option<&'r Recall>,
}

/// The walk over one log.
pub struct Walk<'r> {
    /// Every file: its path now and its state.
    pub files: Vec<(GitPath, FileHistory)>,
    /// Parallel to `files`: the commit that dated it (index into `commits`).
    pub dated_by: Vec<u32>,
    /// Parallel to `files`: why commits were passed over ([`passed`] bits).
    pub passed: Vec<u8>,
    /// Parallel to `files`: its last change lies where the history at hand does not reach.
    pub unreached: Vec<bool>,
    /// The hex names of the commits that date files.
    pub commits: Vec<Box<[u8]>>,
    /// Parallel to `commits`: each one's place in the log, the newest commit 1 (merges
    /// counted), i.e. the depth of the shallowest clone that still holds it.
    pub places: Vec<u32>,
    /// The walk stopped at a shallow clone's boundary.
    pub cut: bool,
    /// How many times a file was listed as waiting for a version: once per version a step
    /// needs at most, so the walk's work stays linear in the commits that touch each file.
    pub waits: usize,
    /// How many commits of the log were read.
    pub read: usize,
    /// A file still waiting where the range ended had a name the recalled walk did not date:
    /// the walk is incomplete and the whole history must be read instead.
    pub missed: bool,
    /// Recalled commits already in `commits`: their index there.
    recalled: HashMap<u32, u32>,
    phase: Vec<Phase>,
    /// The name a file has at this point of the walk -> the file.
    waiting: HashMap<GitPath, u32>,
    wanting: usize,
    deciding: usize,
    tracks: HashMap<u32, Track>,
    /// Versions being read -> the files whose first step waits for them (each file listed
    /// once, under one version, so an answer moves it on once).
    blocked: HashMap<Oid, Vec<u32>>,
    rules: Rules<'r>,
    commit: Commit,
    /// Renames met in this commit, applied when it ends (a swap renames both at once).
    moved: Vec<(GitPath, u32)>,
}

/// The commit being read.
#[derive(Default)]
struct Commit {
    /// How many pages it changes (added, edited, moved or removed).
    pages: usize,
    /// Its records for files still waiting, judged when the commit ends and its size is known.
    held: Vec<Held>,
    hash: Vec<u8>,
    /// The committer time in seconds, as git writes it (`%ct`).
    time_raw: Vec<u8>,
    date_raw: Vec<u8>,
    stamp: Option<Stamp>,
    ignored: bool,
}

/// A record of `git log --raw -z`, kept until its commit ends.
struct Held {
    status: Box<[u8]>,
    old_oid: Box<[u8]>,
    new_oid: Box<[u8]>,
    /// The path before a rename or copy, when there is one.
    from: Option<Box<[u8]>>,
    path: Box<[u8]>,
}

/// A record of `git log --raw -z`.
struct Change<'a> {
    status: &'a [u8],
    old_oid: &'a [u8],
    new_oid: &'a [u8],
    /// The path before a rename or copy.
    from: &'a [u8],
    path: &'a [u8],
}

/// Why reading the log failed.
#[derive(Debug)]
pub enum WalkError {
    /// Reading the log or talking to `git cat-file`.
    Io(io::Error),
    /// A commit date git should not have written.
    BadDate(String),
    /// `git cat-file` failed.
    Blobs(crate::vocab::error::Error),
}

impl<'r> Walk<'r> {
    /// A walk for `files`, each waiting under the name in `starts` (`None`: not in any commit
    /// yet, so not waiting).
    pub fn new(
        files: Vec<(GitPath, FileHistory)>,
        starts: Vec<Option<GitPath>>,
        rules: Rules<'r>,
    ) -> Walk<'r> {
        let n = files.len();
        let mut phase = vec![Phase::Done; n];
        let mut waiting = HashMap::with_capacity(n);
        for (i, name) in starts.into_iter().enumerate() {
            if let Some(name) = name
                && waiting.insert(name, i as u32).is_none()
            {
                phase[i] = Phase::Wanting;
            }
        }
        Walk {
            files,
            dated_by: vec![u32::MAX; n],
            passed: vec![0; n],
            unreached: vec![false; n],
            commits: Vec::new(),
            places: Vec::new(),
            cut: false,
            waits: 0,
            read: 0,
            missed: false,
            recalled: HashMap::new(),
            wanting: waiting.len(),
            phase,
            waiting,
            deciding: 0,
            tracks: HashMap::new(),
            blocked: HashMap::new(),
            rules,
            commit: Commit::default(),
            moved: Vec::new(),
        }
    }

    /// Streams the log (`-z --raw --no-abbrev --format=%x01%H %ct %cI`), reading versions with
    /// `blobs` where an edit must be compared. Returns true when the log was read to its end,
    /// false when it stopped early because no file needed an older commit.
    pub fn run(
        &mut self,
        mut input: impl BufRead,
        mut blobs: Option<&mut Blobs>,
    ) -> Result<bool, WalkError> {
        let mut token = Vec::with_capacity(256);
        let mut from = Vec::with_capacity(256);
        let mut path = Vec::with_capacity(256);
        let complete = loop {
            if self.wanting == 0 {
                break false;
            }
            if !next_token(&mut input, &mut token)? {
                break true;
            }
            if token.first() == Some(&COMMIT_MARK) {
                self.end_commit(blobs.as_deref_mut())?;
                self.read += 1;
                self.start_commit(&token[1..]);
                if self.past_boundary() {
                    self.cut(blobs.as_deref_mut())?;
                    continue;
                }
                if let Some(b) = blobs.as_deref_mut() {
                    self.take_answers(b, false)?;
                }
                continue;
            }
            // The first record of a commit follows the header's newline.
            let head = token.strip_prefix(b"\n").unwrap_or(&token);
            let Some(rec) = parse_raw(head) else {
                continue;
            };
            let two = matches!(rec.2.first(), Some(b'R' | b'C'));
            if two && !next_token(&mut input, &mut from)? {
                break true;
            }
            if !next_token(&mut input, &mut path)? {
                break true;
            }
            if (self.rules.comparable)(&path) {
                self.commit.pages += 1;
            }
            // Only a file still waiting can take a step from it.
            if self.waiting.contains_key(&path[..]) {
                self.commit.held.push(Held {
                    status: rec.2.into(),
                    old_oid: rec.0.into(),
                    new_oid: rec.1.into(),
                    from: two.then(|| from.as_slice().into()),
                    path: path.as_slice().into(),
                });
            }
        };
        self.end_commit(blobs.as_deref_mut())?;
        if complete {
            match self.rules.recall {
                Some(recall) => {
                    self.recall(recall, blobs.as_deref_mut())?;
                    if self.missed {
                        return Ok(true);
                    }
                }
                None => self.ran_out(blobs.as_deref_mut())?,
            }
        }
        if let Some(b) = blobs {
            while self.deciding > 0 && b.pending() > 0 {
                self.take_answers(b, true)?;
            }
        }
        // Nothing is left to read: what is still undecided has no date.
        for i in 0..self.files.len() {
            if self.phase[i] != Phase::Done {
                self.finish(i as u32, None);
            }
        }
        Ok(complete)
    }

    /// The files still looking for an older commit.
    fn still_wanting(&self) -> Vec<u32> {
        self.waiting
            .values()
            .copied()
            .filter(|&i| self.phase[i as usize] == Phase::Wanting)
            .collect()
    }

    /// The range ends at the recalled walk's commit: every file still waiting takes what that
    /// walk found for the name it has here, as if the walk went on (its steps so far come
    /// first). A name it did not keep sets [`Walk::missed`].
    fn recall(&mut self, recall: &Recall, mut blobs: Option<&mut Blobs>) -> Result<(), WalkError> {
        // Nothing looks a name up past here: the names are taken, not copied.
        let mut left: Vec<(GitPath, u32)> = std::mem::take(&mut self.waiting)
            .into_iter()
            .filter(|&(_, i)| self.phase[i as usize] == Phase::Wanting)
            .collect();
        left.sort_unstable_by_key(|(_, i)| *i);
        for (name, i) in left {
            let Some(outcome) = recall.get(&name) else {
                self.missed = true;
                return Ok(());
            };
            let stamp = match outcome.commit {
                Some(c) => {
                    let Some(dater) = recall.commits.get(c as usize) else {
                        self.missed = true;
                        return Ok(());
                    };
                    let next = self.commits.len() as u32;
                    let commit = *self.recalled.entry(c).or_insert(next);
                    if commit == next {
                        self.commits.push(dater.name.clone());
                        self.places.push(dater.place + self.read as u32);
                    }
                    Some(Stamp {
                        date: dater.date,
                        commit,
                    })
                }
                None => None,
            };
            let track = self.tracks.entry(i).or_default();
            track.steps.push_back(Step::Recalled {
                stamp,
                passed: outcome.passed,
            });
            let blocked = track.blocked;
            self.stop_wanting(i);
            if !blocked {
                self.advance(i, blobs.as_deref_mut())?;
            }
        }
        Ok(())
    }

    /// The files still waiting when the log ends were added where the walk cannot see (a
    /// merge): their oldest commit seen stands in.
    fn ran_out(&mut self, mut blobs: Option<&mut Blobs>) -> Result<(), WalkError> {
        let left = self.still_wanting();
        for i in left {
            self.stop_wanting(i);
            self.tracks.entry(i).or_default().ran_out = true;
            self.advance(i, blobs.as_deref_mut())?;
        }
        Ok(())
    }

    fn start_commit(&mut self, header: &[u8]) {
        let mut parts = header.splitn(3, |b| *b == b' ');
        let c = &mut self.commit;
        c.hash.clear();
        c.hash.extend_from_slice(parts.next().unwrap_or_default());
        c.time_raw.clear();
        c.time_raw
            .extend_from_slice(parts.next().unwrap_or_default());
        c.date_raw.clear();
        c.date_raw
            .extend_from_slice(parts.next().unwrap_or_default());
        c.stamp = None;
        c.pages = 0;
        c.held.clear();
        c.ignored = !self.rules.ignored.is_empty() && self.rules.ignored.contains(&c.hash[..]);
    }

    /// Whether the commit just begun lies at or past a shallow clone's boundary: no newer than
    /// the newest boundary commit (a commit whose time git wrote oddly counts as past it).
    fn past_boundary(&self) -> bool {
        let Some(newest) = self.rules.boundary else {
            return false;
        };
        let time = std::str::from_utf8(&self.commit.time_raw)
            .ok()
            .and_then(|t| t.trim().parse::<i64>().ok());
        time.is_none_or(|t| t <= newest)
    }

    /// The history at hand ends here: every file still looking for its last change is
    /// unreached (its steps so far may still date it).
    fn cut(&mut self, mut blobs: Option<&mut Blobs>) -> Result<(), WalkError> {
        self.cut = true;
        let left = self.still_wanting();
        for i in left {
            self.tracks
                .entry(i)
                .or_default()
                .steps
                .push_back(Step::Unreached);
            self.stop_wanting(i);
            if !self.tracks.get(&i).is_some_and(|t| t.blocked) {
                self.advance(i, blobs.as_deref_mut())?;
            }
        }
        Ok(())
    }

    /// Judges the commit's records, now that its size is known, then applies its renames:
    /// from here back, those files go by their old names.
    fn end_commit(&mut self, mut blobs: Option<&mut Blobs>) -> Result<(), WalkError> {
        let scale = Scale::of(self.commit.pages, self.rules.mass_edit);
        for h in std::mem::take(&mut self.commit.held) {
            let change = Change {
                status: &h.status,
                old_oid: &h.old_oid,
                new_oid: &h.new_oid,
                from: h.from.as_deref().unwrap_or(&h.path),
                path: &h.path,
            };
            self.change(&change, scale, blobs.as_deref_mut())?;
        }
        for (old, i) in std::mem::take(&mut self.moved) {
            if self.phase[i as usize] != Phase::Wanting {
                continue;
            }
            let live = |w: &Walk, j: u32| w.phase[j as usize] == Phase::Wanting;
            match self.waiting.get(&old).copied() {
                // Two files claiming one old name cannot both be right: the first keeps it,
                // the other's history ends here.
                Some(j) if j != i && live(self, j) => {
                    self.stop_wanting(i);
                    self.tracks.entry(i).or_default().ran_out = true;
                }
                _ => {
                    self.waiting.insert(old, i);
                }
            }
        }
        Ok(())
    }

    /// This commit's stamp (the date parsed, the commit listed, on first need).
    fn stamp(&mut self) -> Result<Stamp, WalkError> {
        if let Some(s) = self.commit.stamp {
            return Ok(s);
        }
        let date = parse_git_date(&self.commit.date_raw)?;
        self.commits.push(self.commit.hash.as_slice().into());
        self.places.push(self.read as u32);
        let s = Stamp {
            date,
            commit: (self.commits.len() - 1) as u32,
        };
        self.commit.stamp = Some(s);
        Ok(s)
    }

    /// One record: a step for the file it touches, when that file is still waiting.
    fn change(
        &mut self,
        c: &Change<'_>,
        scale: Scale,
        blobs: Option<&mut Blobs>,
    ) -> Result<(), WalkError> {
        let kind = c.status.first().copied().unwrap_or(b'?');
        if kind == b'D' {
            return Ok(());
        }
        let Some(&i) = self.waiting.get(c.path) else {
            return Ok(());
        };
        if self.phase[i as usize] != Phase::Wanting {
            return Ok(());
        }
        // Where the file was before this commit (a move into the content dir from elsewhere
        // included: the walk reads the whole repository's log).
        let before = match kind {
            b'M' | b'T' => Some(c.path),
            b'R' => Some(c.from),
            _ => None,
        };
        let step = if self.commit.ignored {
            Step::Pass(passed::IGNORED)
        } else if kind == b'R' && &c.status[1..] == b"100" && before.is_some() {
            Step::Pass(passed::MOVED)
        } else if kind == b'M' && c.old_oid == c.new_oid {
            // The mode alone (an executable bit).
            Step::Pass(passed::UNSEEN)
        } else if before.is_some()
            && self.rules.compare.is_some()
            && (self.rules.comparable)(c.path)
        {
            Step::Compare {
                stamp: self.stamp()?,
                old: c.old_oid.into(),
                new: c.new_oid.into(),
                scale,
            }
        } else {
            Step::Dates(self.stamp()?)
        };
        let goes_on = !matches!(step, Step::Dates(_)) && before.is_some();
        let track = self.tracks.entry(i).or_default();
        track.steps.push_back(step);
        let blocked = track.blocked;
        if !goes_on {
            self.stop_wanting(i);
        } else if before != Some(c.path) {
            self.waiting.remove(c.path);
            self.moved.push((before.unwrap_or_default().into(), i));
        }
        match blobs {
            // Its first step still waits: the answer moves it on; until then only ask ahead.
            Some(b) if blocked => self.ask_ahead(i, b),
            _ => self.advance(i, blobs),
        }
    }

    fn stop_wanting(&mut self, i: u32) {
        if self.phase[i as usize] == Phase::Wanting {
            self.phase[i as usize] = Phase::Deciding;
            self.wanting -= 1;
            self.deciding += 1;
        }
    }

    /// Decides file `i`'s steps in order, as far as the versions read allow.
    fn advance(&mut self, i: u32, mut blobs: Option<&mut Blobs>) -> Result<(), WalkError> {
        loop {
            let deciding = self.phase[i as usize] == Phase::Deciding;
            let next = match self.tracks.get(&i) {
                None => return Ok(()),
                Some(t) if t.blocked => return Ok(()),
                Some(t) => match t.steps.front() {
                    None if deciding => Next::Finish(t.oldest.filter(|_| t.ran_out)),
                    None => return Ok(()),
                    Some(Step::Dates(s)) => Next::Finish(Some(*s)),
                    Some(Step::Unreached) => Next::Unreached,
                    Some(Step::Recalled { stamp, passed }) => Next::Recalled(*stamp, *passed),
                    Some(Step::Pass(why)) => Next::Pass(*why),
                    Some(Step::Compare {
                        stamp,
                        old,
                        new,
                        scale,
                    }) => Next::Compare(*stamp, old.clone(), new.clone(), *scale),
                },
            };
            let (stamp, old, new, scale) = match next {
                Next::Finish(s) => {
                    self.finish(i, s);
                    return Ok(());
                }
                Next::Unreached => {
                    self.unreached[i as usize] = true;
                    self.finish(i, None);
                    return Ok(());
                }
                Next::Recalled(stamp, why) => {
                    self.passed[i as usize] |= why;
                    // No date found past here: as when the log runs out, the oldest edit no
                    // reader sees stands in.
                    let stamp = stamp.or_else(|| self.tracks.get(&i).and_then(|t| t.oldest));
                    self.finish(i, stamp);
                    return Ok(());
                }
                Next::Pass(why) => {
                    self.passed[i as usize] |= why;
                    self.pop(i, None);
                    continue;
                }
                Next::Compare(stamp, old, new, scale) => (stamp, old, new, scale),
            };
            let Some(b) = blobs.as_deref_mut() else {
                self.finish(i, Some(stamp));
                return Ok(());
            };
            let before = b.get(&old).map_err(WalkError::Blobs)?;
            let after = b.get(&new).map_err(WalkError::Blobs)?;
            match (before, after) {
                (Version::Read(x), Version::Read(y)) if x.reads_as(y, scale) => {
                    self.passed[i as usize] |= if x == y { passed::UNSEEN } else { passed::MASS };
                    self.pop(i, Some(stamp));
                    if let Some(t) = self.tracks.get_mut(&i) {
                        t.ahead = (t.ahead * 2).min(MAX_AHEAD);
                    }
                }
                // A version the object store lacks (a partial clone whose remote could not
                // give it): whether a reader sees the edit cannot be known.
                (Version::Missing, _) | (_, Version::Missing) => {
                    self.unreached[i as usize] = true;
                    self.finish(i, None);
                    return Ok(());
                }
                (Version::Pending, _) | (_, Version::Pending) => {
                    // Listed under the first version missing; its answer looks again.
                    let oid = if before == Version::Pending { old } else { new };
                    self.blocked.entry(oid).or_default().push(i);
                    self.waits += 1;
                    if let Some(t) = self.tracks.get_mut(&i) {
                        t.blocked = true;
                    }
                    return self.ask_ahead(i, b);
                }
                _ => {
                    self.finish(i, Some(stamp));
                    return Ok(());
                }
            }
        }
    }

    /// Asks for the versions of file `i`'s next steps, as far as its window reaches, so that
    /// `git cat-file` reads them while the first is judged.
    fn ask_ahead(&mut self, i: u32, blobs: &mut Blobs) -> Result<(), WalkError> {
        let Some(t) = self.tracks.get_mut(&i) else {
            return Ok(());
        };
        while t.asked < t.ahead.min(t.steps.len()) {
            if let Step::Compare { old, new, .. } = &t.steps[t.asked] {
                blobs.get(old).map_err(WalkError::Blobs)?;
                blobs.get(new).map_err(WalkError::Blobs)?;
            }
            t.asked += 1;
        }
        Ok(())
    }

    /// Drops file `i`'s first step, decided not to date it (`unseen`: an edit no reader sees).
    fn pop(&mut self, i: u32, unseen: Option<Stamp>) {
        if let Some(t) = self.tracks.get_mut(&i) {
            t.steps.pop_front();
            t.asked = t.asked.saturating_sub(1);
            if unseen.is_some() {
                t.oldest = unseen;
            }
        }
    }

    /// File `i` is dated by `stamp` (or gets no date).
    fn finish(&mut self, i: u32, stamp: Option<Stamp>) {
        let k = i as usize;
        match self.phase[k] {
            Phase::Wanting => self.wanting -= 1,
            Phase::Deciding => self.deciding -= 1,
            Phase::Done => return,
        }
        self.phase[k] = Phase::Done;
        self.tracks.remove(&i);
        if let Some(s) = stamp {
            self.files[k].1 = FileHistory::Committed(s.date);
            self.dated_by[k] = s.commit;
        }
    }

    /// Takes the versions read so far (waiting for one when `block`) and moves on the files
    /// that needed them; then sends the requests that made.
    fn take_answers(&mut self, blobs: &mut Blobs, block: bool) -> Result<(), WalkError> {
        let got = if block {
            blobs.wait()
        } else {
            blobs.answered()
        }
        .map_err(WalkError::Blobs)?;
        for oid in got {
            for i in self.blocked.remove(&oid).unwrap_or_default() {
                if let Some(t) = self.tracks.get_mut(&i) {
                    t.blocked = false;
                }
                if self.phase[i as usize] != Phase::Done {
                    self.advance(i, Some(blobs))?;
                }
            }
        }
        blobs.flush().map_err(WalkError::Blobs)
    }
}

impl From<io::Error> for WalkError {
    fn from(e: io::Error) -> Self {
        WalkError::Io(e)
    }
}

/// `:<mode> <mode> <old> <new> <status>`: the two object names and the status.
fn parse_raw(head: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let rest = head.strip_prefix(b":")?;
    let mut f = rest.split(|b| *b == b' ');
    let (_, _, old, new, status) = (f.next()?, f.next()?, f.next()?, f.next()?, f.next()?);
    Some((old, new, status))
}

/// Reads the next NUL-terminated token into `buf` (without the NUL); false at end of input.
pub fn next_token(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    if input.read_until(0, buf)? == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&0) {
        buf.pop();
    }
    Ok(true)
}

/// `%cI`/`%aI`: strict ISO 8601 with the commit's own offset (`Z` for UTC in newer git).
pub fn parse_git_date(raw: &[u8]) -> Result<W3cDate, WalkError> {
    let text = std::str::from_utf8(raw)
        .map_err(|_| WalkError::BadDate(String::from_utf8_lossy(raw).into_owned()))?
        .trim();
    DateTime::parse_from_rfc3339(text)
        .map(W3cDate::from_datetime)
        .map_err(|_| WalkError::BadDate(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const O1: &str = "1111111111111111111111111111111111111111";
    const O2: &str = "2222222222222222222222222222222222222222";

    /// A commit: its name, its date and its changes (status, paths).
    type TestCommit<'a> = (&'a str, &'a str, &'a [(&'a str, &'a [&'a str])]);

    /// A log in `git log -z --raw --no-abbrev --format=%x01%H %ct %cI` form.
    fn log(commits: &[TestCommit<'_>]) -> Vec<u8> {
        let mut out = Vec::new();
        for (n, (hash, date, changes)) in commits.iter().enumerate() {
            // Commit times only matter past a shallow boundary: one a day from 2024 on.
            let time = 1_704_067_200 + 86_400 * (commits.len() - n) as i64;
            out.extend_from_slice(format!("\x01{hash} {time} {date}\0\n").as_bytes());
            for (status, paths) in *changes {
                let oids = if *status == "R100" {
                    format!("{O1} {O1}")
                } else {
                    format!("{O1} {O2}")
                };
                out.extend_from_slice(format!(":100644 100644 {oids} {status}\0").as_bytes());
                for p in *paths {
                    out.extend_from_slice(p.as_bytes());
                    out.push(0);
                }
            }
        }
        out
    }

    fn never(_: &[u8]) -> bool {
        false
    }

    /// Walks `input` for `names` (waiting under their own names) and gives each file's date
    /// and the commit that gave it.
    fn walk(input: &[u8], names: &[&str], ignored: &[&str]) -> Vec<Option<String>> {
        let ignored: HashSet<Box<[u8]>> = ignored.iter().map(|s| s.as_bytes().into()).collect();
        let files = names
            .iter()
            .map(|n| (GitPath::from(n.as_bytes()), FileHistory::Unknown))
            .collect();
        let starts = names.iter().map(|n| Some(n.as_bytes().into())).collect();
        let mut w = Walk::new(
            files,
            starts,
            Rules {
                compare: None,
                ignored: &ignored,
                comparable: never,
                boundary: None,
                mass_edit: None,
                recall: None,
            },
        );
        w.run(input, None).unwrap();
        (0..names.len())
            .map(|i| match w.files[i].1 {
                FileHistory::Committed(d) => Some(format!(
                    "{} {}",
                    d,
                    String::from_utf8_lossy(&w.commits[w.dated_by[i] as usize])
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn first_change_going_back_dates_the_file() {
        let l = log(&[
            ("c3", "2024-03-01T10:00:00+01:00", &[("M", &["a.md"])]),
            (
                "c2",
                "2024-02-01T10:00:00Z",
                &[("M", &["a.md"]), ("M", &["b.md"]), ("D", &["gone.md"])],
            ),
            (
                "c1",
                "2024-01-01T00:00:00-05:00",
                &[("A", &["a.md"]), ("A", &["b.md"]), ("A", &["gone.md"])],
            ),
        ]);
        // never.md (say, added by a merge) keeps the walk going to the end.
        let got = walk(&l, &["a.md", "b.md", "never.md"], &[]);
        assert_eq!(
            got,
            vec![
                Some("2024-03-01T10:00:00+01:00 c3".into()),
                Some("2024-02-01T10:00:00+00:00 c2".into()),
                None
            ]
        );
    }

    #[test]
    fn pure_renames_keep_history_and_edited_renames_count() {
        let l = log(&[
            (
                "c4",
                "2024-04-01T00:00:00Z",
                &[("R100", &["b.md", "c.md"]), ("R087", &["x.md", "y.md"])],
            ),
            ("c3", "2024-03-01T00:00:00Z", &[("R100", &["a.md", "b.md"])]),
            (
                "c2",
                "2024-02-01T00:00:00Z",
                &[("M", &["a.md"]), ("M", &["x.md"])],
            ),
            (
                "c1",
                "2024-01-01T00:00:00Z",
                &[("A", &["a.md"]), ("A", &["x.md"])],
            ),
        ]);
        let got = walk(&l, &["c.md", "y.md"], &[]);
        assert_eq!(got[0].as_deref(), Some("2024-02-01T00:00:00+00:00 c2"));
        assert_eq!(got[1].as_deref(), Some("2024-04-01T00:00:00+00:00 c4"));
    }

    #[test]
    fn a_swap_of_two_names_in_one_commit_follows_each_file() {
        let l = log(&[
            (
                "c3",
                "2024-03-01T00:00:00Z",
                &[("R100", &["a", "b"]), ("R100", &["b", "a"])],
            ),
            ("c2", "2024-02-01T00:00:00Z", &[("M", &["a"])]),
            (
                "c1",
                "2024-01-01T00:00:00Z",
                &[("A", &["a"]), ("A", &["b"])],
            ),
        ]);
        // Today's b was a, last edited in February; today's a was b, untouched since January.
        let got = walk(&l, &["b", "a"], &[]);
        assert_eq!(got[0].as_deref(), Some("2024-02-01T00:00:00+00:00 c2"));
        assert_eq!(got[1].as_deref(), Some("2024-01-01T00:00:00+00:00 c1"));
    }

    #[test]
    fn a_name_freed_by_a_rename_does_not_inherit_an_older_files_history() {
        let l = log(&[
            (
                "c4",
                "2024-03-01T00:00:00Z",
                &[("R100", &["old.md", "new.md"])],
            ),
            ("c3", "2024-02-01T00:00:00Z", &[("D", &["new.md"])]),
            ("c2", "2024-01-15T00:00:00Z", &[("M", &["new.md"])]),
            (
                "c1",
                "2024-01-01T00:00:00Z",
                &[("A", &["old.md"]), ("A", &["new.md"])],
            ),
        ]);
        let got = walk(&l, &["new.md"], &[]);
        assert_eq!(got[0].as_deref(), Some("2024-01-01T00:00:00+00:00 c1"));
    }

    #[test]
    fn a_file_moved_in_from_outside_the_content_dir_keeps_its_history() {
        let l = log(&[
            (
                "c2",
                "2024-03-01T00:00:00Z",
                &[
                    ("R100", &["drafts/a.md", "content/a.md"]),
                    ("R100", &["content/old/b.md", "content/b.md"]),
                ],
            ),
            (
                "c1",
                "2024-01-01T00:00:00Z",
                &[("A", &["drafts/a.md"]), ("A", &["content/old/b.md"])],
            ),
        ]);
        let got = walk(&l, &["content/a.md", "content/b.md"], &[]);
        assert_eq!(got[0].as_deref(), Some("2024-01-01T00:00:00+00:00 c1"));
        assert_eq!(got[1].as_deref(), Some("2024-01-01T00:00:00+00:00 c1"));
    }

    #[test]
    fn ignored_commits_never_date_a_file_nor_lose_its_trail() {
        let l = log(&[
            (
                "c3",
                "2024-03-01T00:00:00Z",
                &[
                    ("M", &["a.md"]),
                    ("R087", &["old.md", "b.md"]),
                    ("A", &["c.md"]),
                ],
            ),
            ("c2", "2024-02-01T00:00:00Z", &[("M", &["old.md"])]),
            (
                "c1",
                "2024-01-01T00:00:00Z",
                &[("A", &["a.md"]), ("A", &["old.md"])],
            ),
        ]);
        let got = walk(&l, &["a.md", "b.md", "c.md"], &["c3"]);
        assert_eq!(got[0].as_deref(), Some("2024-01-01T00:00:00+00:00 c1"));
        assert_eq!(got[1].as_deref(), Some("2024-02-01T00:00:00+00:00 c2"));
        // Added by an ignored commit and never changed since: git has no date for it.
        assert_eq!(got[2], None);
    }

    #[test]
    fn stops_once_every_file_is_dated() {
        let l = log(&[
            ("c2", "2024-02-01T00:00:00Z", &[("M", &["a"])]),
            ("c1", "not a date", &[("A", &["a"])]),
        ]);
        // The second commit's bad date is never read.
        assert_eq!(
            walk(&l, &["a"], &[])[0].as_deref(),
            Some("2024-02-01T00:00:00+00:00 c2")
        );
    }

    #[test]
    fn names_may_hold_newlines_and_the_mark_byte() {
        let l = log(&[
            ("c2", "2024-02-01T00:00:00Z", &[("M", &["\x01odd\nname"])]),
            ("c1", "2024-01-01T00:00:00Z", &[("A", &["x"])]),
        ]);
        let got = walk(&l, &["\x01odd\nname", "x"], &[]);
        assert_eq!(got[0].as_deref(), Some("2024-02-01T00:00:00+00:00 c2"));
        assert_eq!(got[1].as_deref(), Some("2024-01-01T00:00:00+00:00 c1"));
    }

    #[test]
    fn a_bad_date_is_an_error() {
        let l = log(&[("c1", "yesterday", &[("M", &["a"])])]);
        let files = vec![(GitPath::from(&b"a"[..]), FileHistory::Unknown)];
        let none = HashSet::new();
        let mut w = Walk::new(
            files,
            vec![Some(b"a".as_slice().into())],
            Rules {
                compare: None,
                ignored: &none,
                comparable: never,
                boundary: None,
                mass_edit: None,
                recall: None,
            },
        );
        assert!(matches!(w.run(&l[..], None), Err(WalkError::BadDate(d)) if d == "yesterday"));
    }

    /// A repository made with `git fast-import`: `a.md` added, then `edits` commits that
    /// each change only its `weight` (no reader sees them), one a minute.
    fn unseen_edits_repo(edits: usize) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .current_dir(tmp.path())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .args(args)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        assert!(git(&["init", "-q", "-b", "main"]).wait().unwrap().success());
        let mut stream = String::new();
        for i in 0..=edits {
            let page = format!("+++\ntitle = \"A\"\nweight = {i}\n+++\nThe same text.\n");
            stream.push_str(&format!(
                "commit refs/heads/main\ncommitter T <t@e> {} +0000\ndata 1\nc\nM 100644 inline a.md\ndata {}\n{page}\n",
                1_600_000_000 + 60 * i,
                page.len()
            ));
        }
        let mut child = git(&["fast-import", "--quiet"]);
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stream.as_bytes())
            .unwrap();
        assert!(child.wait().unwrap().success());
        tmp
    }

    #[test]
    fn a_long_run_of_unseen_edits_costs_work_linear_in_its_commits() {
        // Each edit waited once for every later commit, and an answer moved the file on once
        // for every time it waited: 1,500 edits listed it about a million times.
        let edits = 1500;
        let repo = unseen_edits_repo(edits);
        let opts = super::super::git::GitOptions::default();
        let mut log = super::super::git::log_command(repo.path(), &opts)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut blobs = Blobs::start(repo.path(), Compare::Reader).unwrap();
        let none = HashSet::new();
        let mut w = Walk::new(
            vec![(GitPath::from(&b"a.md"[..]), FileHistory::Unknown)],
            vec![Some(b"a.md".as_slice().into())],
            Rules {
                compare: Some(Compare::Reader),
                ignored: &none,
                comparable: |_| true,
                boundary: None,
                mass_edit: None,
                recall: None,
            },
        );
        let out = std::io::BufReader::new(log.stdout.take().unwrap());
        w.run(out, Some(&mut blobs)).unwrap();
        let _ = log.kill();
        log.wait().unwrap();
        // Dated by the commit that added it: no edit since changed what a reader sees.
        assert_eq!(
            w.files[0].1,
            FileHistory::Committed(parse_git_date(b"2020-09-13T12:26:40Z").unwrap())
        );
        assert_eq!(w.passed[0], passed::UNSEEN);
        assert!(w.waits <= 2 * edits, "{} waits for {edits} edits", w.waits);
    }
}
