//! A sitemap set: every file one run writes into one output folder. That is one or more
//! sitemaps ([`Member`]s: one for the site, one per language, section or host), each a
//! `<urlset>` or, past the limits, an index of numbered parts, in a folder of its own or
//! not; the indexes over several of them ([`SetIndex`], e.g. Hugo's root `sitemap.xml` over
//! `en/sitemap.xml` and `fr/sitemap.xml`); `sitemap.txt` and the `Sitemap:` line of
//! `robots.txt`; and any other file the run registers ([`SetOptions::extra_files`]).
//!
//! The set is written as a whole: every file to a temporary file first, then the sitemaps
//! renamed into place (each one's parts before its own index), then the indexes over them,
//! then the rest, so an index never names a file that is not there. What the run wrote is
//! recorded in the output folder (see [`super::owned`]); the files of ours it no longer
//! writes are removed once the new ones are in place, and nothing else is.

use super::disk::{self, DiskSink, Interim, MemSink, OldOutput, Sink};
use super::owned::{Lock, Ownership, Record, Stamp, removable};
use super::text::{self, TXT_NAME};
use super::urlset::{
    Emitted, INDEX_END, OutputFile, Plan, ROBOTS_NAME, WriteOptions, WriteReport, emit, index_body,
    push_index_body,
};
use crate::entries::View;
use crate::vocab::date::W3cDate;
use crate::vocab::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Everything one run writes into one output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOptions {
    /// The output folder: every file of the set lies in it or below it, and the record of
    /// ours is kept in it.
    pub output_dir: PathBuf,
    /// The sitemaps, in the order they are written.
    pub members: Vec<Member>,
    /// Indexes over several members.
    pub indexes: Vec<SetIndex>,
    /// Other files this run owns, each named by its path below the output folder
    /// (`key.txt`, `.well-known/x.txt` is refused: no hidden parts), written with the
    /// sitemaps (temporary file and rename), recorded as ours, and removed by a later run
    /// that no longer writes them (see [`super::owned`]).
    pub extra_files: Vec<OutputFile>,
}

/// One sitemap of a set: a `<urlset>`, or an index and its numbered parts past the limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its folder below the output folder: empty, or ending in `/` (`en/`).
    pub folder: String,
    /// Its entries, a range of the run's.
    pub entries: Range<usize>,
    /// How it is named and split; `output_dir` is the set's joined with `folder`, and
    /// `base_url` the URL that folder is served at.
    pub opts: WriteOptions,
}

/// An index over several members' `<urlset>` files (flat: a member split into parts is
/// listed by its parts, never by its own index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetIndex {
    /// Its folder below the output folder: empty, or ending in `/`; every member it lists
    /// lies in it or below it.
    pub folder: String,
    /// Its name (`file_name`), the URL of its folder (`base_url`), compression, stylesheet,
    /// and whether it writes `robots.txt`'s line and `sitemap.txt` (of all its members'
    /// entries) in its folder.
    pub opts: WriteOptions,
    /// The members it lists, in order; their entries follow one another.
    pub members: Vec<usize>,
}

impl SetOptions {
    /// The set of one sitemap of `len` entries, as `opts` says, and nothing else.
    pub fn single(len: usize, opts: &WriteOptions) -> SetOptions {
        SetOptions {
            output_dir: opts.output_dir.clone(),
            members: vec![Member {
                folder: String::new(),
                entries: 0..len,
                opts: opts.clone(),
            }],
            indexes: Vec::new(),
            extra_files: Vec::new(),
        }
    }

    /// The files that name the whole set, as paths: each index, and each member no index
    /// lists (what robots.txt names and what a user submits).
    pub fn entry_points(&self) -> Vec<PathBuf> {
        let listed: HashSet<usize> = self
            .indexes
            .iter()
            .flat_map(|i| i.members.clone())
            .collect();
        let ext = |o: &WriteOptions| if o.gzip { ".gz" } else { "" };
        let mut out: Vec<PathBuf> = (self.members.iter().enumerate())
            .filter(|(k, _)| !listed.contains(k))
            .map(|(_, m)| {
                dir_of(&self.output_dir, &m.folder).join(format!(
                    "{}{}",
                    m.opts.file_name,
                    ext(&m.opts)
                ))
            })
            .collect();
        out.extend(self.indexes.iter().map(|i| {
            dir_of(&self.output_dir, &i.folder).join(format!(
                "{}{}",
                i.opts.file_name,
                ext(&i.opts)
            ))
        }));
        out
    }

    /// The main file of every member and index (each member's one file, or its index when it
    /// is split), as paths.
    pub fn main_files(&self) -> Vec<PathBuf> {
        let ext = |o: &WriteOptions| if o.gzip { ".gz" } else { "" };
        (self.members.iter().map(|m| (&m.folder, &m.opts)))
            .chain(self.indexes.iter().map(|i| (&i.folder, &i.opts)))
            .map(|(folder, o)| {
                dir_of(&self.output_dir, folder).join(format!("{}{}", o.file_name, ext(o)))
            })
            .collect()
    }

    /// The entries of index `i`: its members' ranges, which follow one another.
    fn index_entries(&self, i: &SetIndex) -> Range<usize> {
        let ranges = i.members.iter().map(|&k| self.members[k].entries.clone());
        let start = ranges.clone().map(|r| r.start).min().unwrap_or(0);
        let end = ranges.map(|r| r.end).max().unwrap_or(0);
        start..end
    }
}

/// `path` below the output folder `root`, `/`-separated (`en/sitemap.xml`).
pub fn rel_below(root: &Path, path: &Path) -> Option<String> {
    disk::rel_path(root, path)
}

/// The folder `folder` (empty, or ending in `/`) below `output_dir`.
pub fn dir_of(output_dir: &Path, folder: &str) -> PathBuf {
    match folder.trim_end_matches('/') {
        "" => output_dir.to_path_buf(),
        f => output_dir.join(f),
    }
}

/// What serialising a set gave, before anything is committed.
struct Emission<S> {
    /// One sink per member, then one per index, then one for the registered files.
    sinks: Vec<S>,
    /// What each member wrote.
    members: Vec<Emitted>,
}

/// Serialises the whole set, one sink per member and index, made by `sink_for(folder)`.
fn emit_set<S: Sink>(
    entries: View<'_>,
    set: &SetOptions,
    plans: &[Plan<'_>],
    index_plans: &[Plan<'_>],
    mut sink_for: impl FnMut(&str) -> S,
    mut robots: impl FnMut(&Plan<'_>, &str, &mut S) -> Result<()>,
) -> Result<Emission<S>> {
    let mut out = Emission {
        sinks: Vec::new(),
        members: Vec::new(),
    };
    let mut body = Vec::new();
    for (m, plan) in set.members.iter().zip(plans) {
        let mut sink = sink_for(&m.folder);
        let view = entries.slice(m.entries.clone());
        out.members.push(emit(view, plan, &mut sink)?);
        text_file(view, &m.opts, &mut sink, &mut body)?;
        if m.opts.robots_txt {
            robots(plan, &m.folder, &mut sink)?;
        }
        out.sinks.push(sink);
    }
    for (i, plan) in set.indexes.iter().zip(index_plans) {
        let mut sink = sink_for(&i.folder);
        let mut listed: Vec<(String, Option<W3cDate>)> = Vec::new();
        for &k in &i.members {
            let (m, emitted) = (&set.members[k], &out.members[k]);
            let below = m.folder.strip_prefix(i.folder.as_str()).ok_or_else(|| {
                Error::config(
                    "layout",
                    None,
                    format!(
                        "the index {}{} cannot list the sitemap in {}: it is not below it",
                        i.folder, i.opts.file_name, m.folder
                    ),
                )
            })?;
            for (name, lastmod) in emitted.urlsets(&plans[k]) {
                listed.push((format!("{below}{name}"), lastmod));
            }
        }
        body.clear();
        index_body(&mut body, plan, &listed)?;
        let head = plan.index_head.clone();
        sink.file(&plan.main_name(), i.opts.gzip, &[&head, &body, INDEX_END])?;
        text_file(
            entries.slice(set.index_entries(i)),
            &i.opts,
            &mut sink,
            &mut body,
        )?;
        if i.opts.robots_txt {
            robots(plan, &i.folder, &mut sink)?;
        }
        out.sinks.push(sink);
    }
    for (folder, files) in extra_folders(set) {
        let mut sink = sink_for(folder);
        for f in files {
            sink.file(&f.name[folder.len()..], false, &[&f.bytes])?;
        }
        out.sinks.push(sink);
    }
    Ok(out)
}

/// The registered files by folder (empty, or ending in `/`), in the order each folder first
/// comes.
fn extra_folders(set: &SetOptions) -> Vec<(&str, Vec<&OutputFile>)> {
    let mut out: Vec<(&str, Vec<&OutputFile>)> = Vec::new();
    for f in &set.extra_files {
        let folder = f.name.rfind('/').map_or("", |k| &f.name[..=k]);
        match out.iter_mut().find(|(d, _)| *d == folder) {
            Some((_, files)) => files.push(f),
            None => out.push((folder, vec![f])),
        }
    }
    out
}

/// `sitemap.txt` of `entries` into `sink`, when `opts` asks for it.
fn text_file<S: Sink>(
    entries: View<'_>,
    opts: &WriteOptions,
    sink: &mut S,
    body: &mut Vec<u8>,
) -> Result<()> {
    if opts.sitemap_txt {
        body.clear();
        text::render(entries, body);
        sink.file(TXT_NAME, false, &[body])?;
    }
    Ok(())
}

/// Checks the options of every file of the set and derives their plans.
fn plans(set: &SetOptions) -> Result<(Vec<Plan<'_>>, Vec<Plan<'_>>)> {
    let plans = set
        .members
        .iter()
        .map(|m| Plan::new(&m.opts))
        .collect::<Result<Vec<_>>>()?;
    let index_plans = set
        .indexes
        .iter()
        .map(|i| Plan::new(&i.opts))
        .collect::<Result<Vec<_>>>()?;
    for f in &set.extra_files {
        let plain = f.name.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part.bytes().all(crate::vocab::protocol::is_file_name_byte)
        });
        if !plain || f.name == ROBOTS_NAME {
            return Err(Error::config(
                f.name.as_str(),
                None,
                "a file registered with the sitemap set needs a path below the output folder, of letters, digits, '-', '.', '_' and '~', no part hidden",
            ));
        }
    }
    Ok((plans, index_plans))
}

/// Checks that no two files of the set share a path (`names` below the output folder).
fn distinct(names: &[String]) -> Result<()> {
    let mut seen = HashSet::new();
    for n in names {
        if !seen.insert(n.as_str()) {
            return Err(Error::config(
                "layout",
                None,
                format!(
                    "two files of the sitemap set would be written to {n}: choose another file_name or layout"
                ),
            ));
        }
    }
    Ok(())
}

/// Serialises the set into the files [`write_set`] would store, in the same order, in
/// memory; each name is the path below the output folder (`en/sitemap.xml`). robots.txt is
/// not included: it depends on the file already on disk.
pub fn render_set(entries: View<'_>, set: &SetOptions) -> Result<Vec<OutputFile>> {
    let (plans, index_plans) = plans(set)?;
    check_texts(entries, set)?;
    let folders: Vec<&str> = (set.members.iter().map(|m| m.folder.as_str()))
        .chain(set.indexes.iter().map(|i| i.folder.as_str()))
        .chain(extra_folders(set).into_iter().map(|(d, _)| d))
        .collect();
    let emission = emit_set(
        entries,
        set,
        &plans,
        &index_plans,
        |_| MemSink(Vec::new()),
        |_, _, _| Ok(()),
    )?;
    let files: Vec<OutputFile> = emission
        .sinks
        .into_iter()
        .zip(folders)
        .flat_map(|(sink, folder)| {
            sink.0.into_iter().map(move |f| OutputFile {
                name: format!("{folder}{}", f.name),
                bytes: f.bytes,
            })
        })
        .collect();
    distinct(&files.iter().map(|f| f.name.clone()).collect::<Vec<_>>())?;
    Ok(files)
}

/// `sitemap.txt` can hold what each member or index that writes one would put in it.
fn check_texts(entries: View<'_>, set: &SetOptions) -> Result<()> {
    for m in &set.members {
        text::check(entries.slice(m.entries.clone()), &m.opts)?;
    }
    for i in &set.indexes {
        text::check(entries.slice(set.index_entries(i)), &i.opts)?;
    }
    Ok(())
}

/// Writes the set into its output folder (see the module doc), records it, and removes the
/// files of ours it no longer writes.
///
/// Without a record of ours in the folder (one an older sitemapgen wrote), each member's old
/// main file is read instead and the parts it lists that the new run does not write are
/// removed, as long as they are `<urlset>`s named like our parts (see [`super::urlset::write`]).
pub fn write_set(entries: View<'_>, set: &SetOptions) -> Result<WriteReport> {
    let (plans, index_plans) = plans(set)?;
    check_texts(entries, set)?;
    let root = set.output_dir.as_path();
    let member_dirs: Vec<PathBuf> = set
        .members
        .iter()
        .map(|m| dir_of(root, &m.folder))
        .collect();
    let index_dirs: Vec<PathBuf> = set
        .indexes
        .iter()
        .map(|i| dir_of(root, &i.folder))
        .collect();
    for dir in [root]
        .into_iter()
        .chain(member_dirs.iter().chain(&index_dirs).map(PathBuf::as_path))
    {
        create_dir(dir)?;
    }
    // One writer at a time in this folder, from reading the record to writing the new one.
    let _lock = Lock::take(root)?;
    let root_real = root.canonicalize().map_err(|e| Error::io(root, e))?;
    for dir in member_dirs.iter().chain(&index_dirs) {
        inside(&root_real, dir)?;
    }
    let record = Record::read(root);
    // Read before writing: the new index overwrites the old one.
    let olds: Vec<OldOutput> = (member_dirs.iter().zip(&plans))
        .map(|(dir, plan)| OldOutput::read(dir, plan))
        .collect();
    // Before this run writes anything, so no file of its own PID is taken for its own.
    for ((dir, plan), old) in member_dirs.iter().zip(&plans).zip(&olds) {
        disk::sweep(dir, plan, &old.listed);
    }
    for (dir, plan) in index_dirs.iter().zip(&index_plans) {
        disk::sweep(dir, plan, &[]);
    }

    let extra_dirs: Vec<PathBuf> = extra_folders(set)
        .into_iter()
        .map(|(d, _)| dir_of(root, d))
        .collect();
    for dir in &extra_dirs {
        create_dir(dir)?;
        inside(&root_real, dir)?;
    }
    let dirs: Vec<&Path> = (member_dirs.iter().chain(&index_dirs).chain(&extra_dirs))
        .map(PathBuf::as_path)
        .collect();
    let mut next = dirs.iter();
    let mut robots_updated = false;
    let Emission {
        mut sinks,
        members: emitted,
    } = emit_set(
        entries,
        set,
        &plans,
        &index_plans,
        |_| DiskSink::new(next.next().copied().unwrap_or(root)),
        |plan, folder, sink| {
            let path = dir_of(root, folder).join(ROBOTS_NAME);
            let existing = super::robots_line::read_robots(&path)?;
            let new = plan.robots(existing.as_deref());
            if existing.as_deref() != Some(new.as_slice()) {
                sink.file(ROBOTS_NAME, false, &[&new])?;
                robots_updated = true;
            }
            Ok(())
        },
    )?;
    for sink in &mut sinks {
        sink.finish()?;
    }
    // What this run writes, below the output folder; robots.txt is not ours, only a line in it.
    let written: Vec<(String, Stamp)> = sinks
        .iter()
        .flat_map(|s| s.stamps.iter())
        .filter(|(path, _)| path.file_name().is_none_or(|n| n != ROBOTS_NAME))
        .filter_map(|(path, stamp)| Some((disk::rel_path(root, path)?, *stamp)))
        .collect();
    distinct(&written.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>())?;
    // Nothing is in place yet: a refusal here leaves the folder as it was.
    let theirs = gate(set, record.as_ref(), &written)?;
    let ours = || written.iter().filter(|(rel, _)| !theirs.contains(rel));
    // Until the stale files are gone, the record names the old files and the new ones.
    let mut during = record.clone().unwrap_or_default();
    for (rel, stamp) in ours() {
        during.insert(rel, *stamp);
    }
    // Bookkeeping that cannot be kept (a read-only home folder) costs only later removals.
    let mut warnings = Vec::new();
    let mut keep = |record: &Record| {
        if let Err(e) = record.write(root)
            && warnings.is_empty()
        {
            warnings.push(format!(
                    "{e}: the record of the files sitemapgen wrote could not be kept, so a later build will not remove the ones it no longer writes; make that folder writable, or set XDG_CACHE_HOME to one that is"
                ));
        }
    };
    keep(&during);

    // Each member's parts, then its index (through interim names when the old index names
    // parts this run replaces); then the indexes over them; then the rest.
    for (k, sink) in sinks.iter_mut().enumerate() {
        let interim = match (set.members.get(k), emitted.get(k)) {
            (Some(m), Some(e)) => interim(&plans[k], &olds[k], e, m.opts.gzip),
            _ => None,
        };
        sink.commit(interim)?;
    }

    let names: HashSet<&str> = written.iter().map(|(n, _)| n.as_str()).collect();
    let mut removed = Vec::new();
    let mut remove = |path: PathBuf| -> Result<()> {
        // Only a name of a kind we write, inside the folder, never through a link.
        if !disk::rel_path(root, &path).is_some_and(|rel| removable(root, &rel)) {
            return Ok(());
        }
        match fs::remove_file(&path) {
            Ok(()) => removed.push(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
        Ok(())
    };
    if let Some(old) = &record {
        for rel in old.paths().filter(|p| !names.contains(p)) {
            // A file another tool wrote over since is not ours any more: it stays.
            if old.ownership(root, rel) == Ownership::Ours {
                remove(root.join(rel))?;
            }
        }
    }
    // The parts the old index lists that this run does not write: without a record, all of
    // them that are ours by name and kind; with one, the interim parts a killed run left live
    // (never recorded, ours by their name).
    for ((m, plan), (old, e)) in set
        .members
        .iter()
        .zip(&plans)
        .zip(olds.iter().zip(&emitted))
    {
        let mine: HashSet<&str> = e.names.iter().map(String::as_str).collect();
        for name in old.stale(plan, &mine) {
            if record.is_none() || plan.interim_pid(&name).is_some() {
                remove(dir_of(root, &m.folder).join(name))?;
            }
        }
    }
    let mut after = Record::default();
    for (rel, stamp) in ours() {
        after.insert(rel, *stamp);
    }
    keep(&after);
    Ok(WriteReport {
        files: sinks
            .iter()
            .flat_map(|s| s.stamps.iter().map(|(p, _)| p.clone()))
            .filter(|p| p.file_name().is_none_or(|n| n != ROBOTS_NAME))
            .collect(),
        urls: set.members.iter().map(|m| m.entries.len()).sum(),
        removed,
        robots_updated,
        warnings,
    })
}

/// Refuses a folder of the set that leads out of the output folder (a link to a folder
/// elsewhere): nothing is written or removed through it.
fn inside(root_real: &Path, dir: &Path) -> Result<()> {
    match dir.canonicalize() {
        Ok(real) if real.starts_with(root_real) => Ok(()),
        _ => Err(Error::input(
            dir,
            None,
            format!(
                "leads out of the output folder {} (a link to a folder elsewhere): sitemapgen writes only inside it; make it a plain folder, or pick a layout that writes no file there",
                root_real.display()
            ),
        )),
    }
}

/// Decides, before anything is in place, whether this run may write each of its files
/// (`written`, below the output folder) where it goes. It may when no file is there, when
/// the file there is ours (see [`super::owned`]), or when it is the sitemap this run exists
/// to replace: a sitemap at an entry point of the set (the generator's own `sitemap.xml`, or
/// ours from a checkout without a record), what such an index lists, and a `sitemap.txt` of
/// this site's URLs. A file already holding exactly the bytes this run writes is left as
/// it is and not taken for ours (the site's own IndexNow key file, say): returned.
/// Anything else is someone else's: an error naming each such file and the setting that
/// chose its name, and nothing is written.
fn gate(
    set: &SetOptions,
    record: Option<&Record>,
    written: &[(String, Stamp)],
) -> Result<HashSet<String>> {
    let root = set.output_dir.as_path();
    // Whose each file is now (a file the record names is read once, for its stamp).
    let owners: HashMap<&str, Ownership> = written
        .iter()
        .map(|(rel, _)| {
            let o = match record {
                Some(r) => r.ownership(root, rel),
                None if fs::symlink_metadata(root.join(rel)).is_ok() => Ownership::Unrecorded,
                None => Ownership::Missing,
            };
            (rel.as_str(), o)
        })
        .collect();
    let owner = |rel: &str| owners.get(rel).copied().unwrap_or(Ownership::Missing);
    let names: HashSet<&str> = written.iter().map(|(n, _)| n.as_str()).collect();
    let folders: Vec<(&str, &str)> = (set
        .members
        .iter()
        .map(|m| (m.folder.as_str(), m.opts.base_url.as_str())))
    .chain(
        set.indexes
            .iter()
            .map(|i| (i.folder.as_str(), i.opts.base_url.as_str())),
    )
    .collect();
    let base_of = |rel: &str| {
        let folder = rel.rfind('/').map_or("", |k| &rel[..=k]);
        folders
            .iter()
            .find(|(f, _)| *f == folder)
            .map(|(f, b)| (*f, *b))
    };
    // The sitemaps this run replaces: the entry points on disk, ours, and what they list.
    let mut replaceable: HashSet<String> = HashSet::new();
    let mut queue: Vec<String> = set
        .entry_points()
        .iter()
        .filter_map(|p| disk::rel_path(root, p))
        .filter(|rel| names.contains(rel.as_str()) && removable(root, rel))
        .collect();
    queue.extend(
        names
            .iter()
            .filter(|rel| owner(rel) == Ownership::Ours)
            .map(|rel| rel.to_string()),
    );
    while let Some(rel) = queue.pop() {
        if replaceable.contains(&rel) {
            continue;
        }
        let Some(listed) = disk::sitemap_listing(&root.join(&rel)) else {
            continue;
        };
        replaceable.insert(rel.clone());
        let Some((folder, base)) = base_of(&rel) else {
            continue;
        };
        for loc in listed {
            if let Some(name) = loc.strip_prefix(base) {
                let listed_rel = format!("{folder}{name}");
                if names.contains(listed_rel.as_str()) && removable(root, &listed_rel) {
                    queue.push(listed_rel);
                }
            }
        }
    }
    let mut theirs = HashSet::new();
    let mut refused = Vec::new();
    for (rel, stamp) in written {
        match owner(rel) {
            Ownership::Missing | Ownership::Ours => continue,
            Ownership::Changed | Ownership::Unrecorded => {}
        }
        let path = root.join(rel);
        if replaceable.contains(rel) {
            continue;
        }
        let is_txt = rel.rsplit('/').next() == Some(TXT_NAME)
            && !set.extra_files.iter().any(|f| f.name == *rel);
        if is_txt
            && removable(root, rel)
            && base_of(rel).is_some_and(|(_, b)| disk::is_url_list(&path, b))
        {
            continue;
        }
        if removable(root, rel) && Stamp::of_file(&path).is_ok_and(|s| s == *stamp) {
            theirs.insert(rel.clone());
            continue;
        }
        let (what, fix) = if set.extra_files.iter().any(|f| f.name == *rel) {
            (
                "the IndexNow key file",
                "set indexnow_key_location to a free name",
            )
        } else if is_txt {
            ("sitemap.txt (sitemap_txt = true)", "turn sitemap_txt off")
        } else {
            (
                "a sitemap file of its layout",
                "pick another layout or file_name",
            )
        };
        let thing = match fs::symlink_metadata(&path).map(|m| m.file_type()) {
            Ok(t) if t.is_symlink() => "a link",
            Ok(t) if t.is_dir() => "a folder",
            Ok(t) if t.is_file() => "a file",
            _ => "a FIFO, socket or device",
        };
        refused.push(Error::input(
            &path,
            None,
            format!(
                "{thing} sitemapgen did not write stands where it would write {what}, and it never writes over such a file: move it away, or {fix}"
            ),
        ));
    }
    match Error::from_many(refused) {
        Some(e) => Err(e),
        None => Ok(theirs),
    }
}

/// Creates `dir` (and the folders above it).
fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| match dir.ancestors().find(|a| a.is_file()) {
        // A file stands where the output folder (or a folder above it) should be.
        Some(file) => Error::input(
            file,
            None,
            "is a file, not a folder: the sitemap goes into the output folder (--output or output_dir names a folder)",
        ),
        None => Error::io(dir, e),
    })
}

/// The interim set a split sitemap goes live as first, when the old index names parts this
/// run replaces (see [`super::disk`]).
fn interim(plan: &Plan<'_>, old: &OldOutput, emitted: &Emitted, gzip: bool) -> Option<Interim> {
    let replaces_listed = emitted
        .parts
        .iter()
        .any(|(name, _)| old.listed.iter().any(|l| l == name));
    replaces_listed.then(|| {
        let renamed: Vec<(String, Option<W3cDate>)> = emitted
            .parts
            .iter()
            .map(|(name, lastmod)| (plan.interim_name(name), *lastmod))
            .collect();
        let mut index = plan.index_head.clone();
        push_index_body(&mut index, plan, &renamed);
        index.extend_from_slice(INDEX_END);
        Interim {
            parts: renamed.into_iter().map(|(name, _)| name).collect(),
            index,
            compress: gzip,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entries::Entries;

    fn entries(locs: &[&str]) -> Entries {
        let mut list = Entries::new();
        for l in locs {
            list.push(l).unwrap();
        }
        list
    }

    fn opts(dir: &Path, base: &str) -> WriteOptions {
        WriteOptions {
            output_dir: dir.to_path_buf(),
            base_url: base.into(),
            ..WriteOptions::default()
        }
    }

    #[test]
    fn a_registered_file_is_written_recorded_and_removed_once_dropped() {
        let d = tempfile::tempdir().unwrap();
        let list = entries(&["https://e.org/"]);
        let mut set = SetOptions::single(1, &opts(d.path(), "https://e.org/"));
        set.extra_files = vec![
            OutputFile {
                name: "0123abcd.txt".into(),
                bytes: b"0123abcd".to_vec(),
            },
            OutputFile {
                name: "keys/k.txt".into(),
                bytes: b"k".to_vec(),
            },
        ];
        write_set(list.view(), &set).unwrap();
        assert_eq!(
            fs::read(d.path().join("0123abcd.txt")).unwrap(),
            b"0123abcd"
        );
        assert_eq!(fs::read(d.path().join("keys/k.txt")).unwrap(), b"k");
        let record = Record::read(d.path()).unwrap();
        assert!(record.owns("0123abcd.txt", Stamp::of(b"0123abcd")));
        assert!(record.owns("keys/k.txt", Stamp::of(b"k")));
        // In memory too, for check.
        let names: Vec<String> = render_set(list.view(), &set)
            .unwrap()
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["sitemap.xml", "0123abcd.txt", "keys/k.txt"]);

        set.extra_files.truncate(1);
        set.extra_files[0].name = "fedc.txt".into();
        let report = write_set(list.view(), &set).unwrap();
        let mut removed = report.removed.clone();
        removed.sort();
        assert_eq!(
            removed,
            [d.path().join("0123abcd.txt"), d.path().join("keys/k.txt")]
        );
        assert!(d.path().join("fedc.txt").is_file());

        for bad in [
            ".hidden.txt",
            "a/.b/c.txt",
            "../up.txt",
            "robots.txt",
            "a b.txt",
        ] {
            set.extra_files[0].name = bad.into();
            assert!(
                matches!(write_set(list.view(), &set), Err(Error::Config { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_index_over_members_in_folders_lists_each_members_urlsets() {
        let d = tempfile::tempdir().unwrap();
        let list = entries(&[
            "https://e.org/",
            "https://e.org/a/",
            "https://e.org/b/",
            "https://e.org/fr/",
        ]);
        let root = "https://e.org/";
        let mut en = opts(&d.path().join("en"), "https://e.org/en/");
        en.max_urls = 2;
        let set = SetOptions {
            output_dir: d.path().to_path_buf(),
            members: vec![
                Member {
                    folder: "en/".into(),
                    entries: 0..3,
                    opts: en,
                },
                Member {
                    folder: "fr/".into(),
                    entries: 3..4,
                    opts: opts(&d.path().join("fr"), "https://e.org/fr/"),
                },
            ],
            indexes: vec![SetIndex {
                folder: String::new(),
                opts: WriteOptions {
                    robots_txt: true,
                    ..opts(d.path(), root)
                },
                members: vec![0, 1],
            }],
            extra_files: Vec::new(),
        };
        let report = write_set(list.view(), &set).unwrap();
        let index = fs::read_to_string(d.path().join("sitemap.xml")).unwrap();
        let locs: Vec<&str> = index
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<loc>")?.strip_suffix("</loc>"))
            .collect();
        // en split in two: its parts are listed, never its own index.
        assert_eq!(
            locs,
            [
                "https://e.org/en/sitemap1.xml",
                "https://e.org/en/sitemap2.xml",
                "https://e.org/fr/sitemap.xml"
            ]
        );
        assert!(
            fs::read_to_string(d.path().join("en/sitemap.xml"))
                .unwrap()
                .contains("<loc>https://e.org/en/sitemap2.xml</loc>")
        );
        assert_eq!(
            fs::read_to_string(d.path().join("robots.txt")).unwrap(),
            "Sitemap: https://e.org/sitemap.xml\n"
        );
        assert_eq!(
            set.entry_points(),
            [d.path().join("sitemap.xml")],
            "what robots.txt names"
        );
        let mut named: Vec<&str> = Vec::new();
        let record = Record::read(d.path()).unwrap();
        named.extend(record.paths());
        assert_eq!(
            named,
            [
                "en/sitemap.xml",
                "en/sitemap1.xml",
                "en/sitemap2.xml",
                "fr/sitemap.xml",
                "sitemap.xml"
            ]
        );
        assert_eq!(report.files.len(), 5);
    }
}
