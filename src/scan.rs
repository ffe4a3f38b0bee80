//! Scan: the content files of a site, in a stable order, with exclusions applied.

use crate::settings::{Settings, Style};
use crate::vocab::config_text::glob_set;
use crate::vocab::error::{Error, Result};
use globset::GlobSet;
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

mod mount_filter;

use mount_filter::MountFilter;

/// The content files found by the scan, in scan order.
///
/// A large site keeps this for the whole run, so each folder's path is stored once and each
/// file only its name, all in two shared buffers (about 4 bytes a file beside its name).
/// Files map to folders by runs of consecutive files in one folder, not by an index per
/// file: the sorted walk interleaves a folder's files with its subfolders', but a folder
/// holding tens of files still comes in a few runs (about 2 a folder on a generated site),
/// so a run's 8 bytes cost well under a byte a file where an index costs 4. Only a tree of
/// one page per folder (every page a bundle) pays more: 8 bytes a file rather than 4.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// Every file's name, one after another.
    names: String,
    /// Where each file's name ends in `names`.
    name_ends: Vec<u32>,
    /// Every folder's path, one after another.
    dirs: String,
    /// Where each folder's path ends in `dirs`.
    dir_ends: Vec<u32>,
    /// Each run of consecutive files in one folder: its first file and its folder.
    runs: Vec<(u32, u32)>,
    /// For every [`HINT`]-th file, the run it is in: [`Files::get`] searches only the runs
    /// between two hints, not all of them (routing gets each file many times).
    hints: Vec<u32>,
    /// Each content root with the index of its first file, in file order.
    roots: Vec<(usize, ContentRoot)>,
    /// While pushing: the last file's folder and the folders above it that hold files, so a
    /// folder the walk comes back to after a subfolder is found again, not stored twice.
    open: Vec<u32>,
    /// For `--verbose`: entries named like pages that are not files and were skipped.
    notes: Vec<String>,
    /// Warnings: files whose pages the scan cannot see (Hugo's content adapters).
    warnings: Vec<String>,
}

/// Files per entry of `Files::hints`.
const HINT: usize = 1024;

/// The most a buffer or the file count may reach: offsets are `u32`.
const LIMIT: usize = u32::MAX as usize;

/// The error for a scan whose paths pass 4 GiB in all, at `rel` below `root`.
fn too_long(root: &ContentRoot, rel: &str) -> Error {
    Error::input(
        root.dir.join(rel),
        None,
        "the content files' paths add up to more than 4 GiB: scan fewer files",
    )
}

/// `n` as an offset, when it is within `limit`.
fn offset(n: usize, limit: usize) -> Option<u32> {
    u32::try_from(n).ok().filter(|_| n <= limit)
}

/// Whether folder `a` is above folder `b` (the root, "", is above every other folder).
fn is_above(a: &str, b: &str) -> bool {
    (a.is_empty() && !b.is_empty()) || b.strip_prefix(a).is_some_and(|r| r.starts_with('/'))
}

/// One content file: its folder and name relative to its content root, and the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceFile<'a> {
    /// The folder relative to the content root, `/`-separated, no trailing `/` ("" at the
    /// root): shared by every file of the folder.
    pub dir: &'a str,
    /// The file's name (`post.md`).
    pub name: &'a str,
    /// The content root it was found in.
    pub root: &'a ContentRoot,
}

impl<'a> SourceFile<'a> {
    /// Path relative to its content root, `/`-separated (`blog/post.md`): made on each call
    /// for a file below the root, as the folder and the name are stored apart.
    pub fn rel(&self) -> Cow<'a, str> {
        if self.dir.is_empty() {
            Cow::Borrowed(self.name)
        } else {
            Cow::Owned(format!("{}/{}", self.dir, self.name))
        }
    }

    /// Path on disk (the content root joined with the relative path, less the root's
    /// mount target).
    pub fn path(&self) -> PathBuf {
        if self.root.single {
            return self.root.dir.clone();
        }
        let dir = self.root.source_dir(self.dir);
        let root = self.root.dir.as_os_str().len();
        let mut p = PathBuf::with_capacity(root + dir.len() + self.name.len() + 2);
        p.push(&self.root.dir);
        if !dir.is_empty() {
            p.push(dir);
        }
        p.push(self.name);
        p
    }

    /// The folder on disk that holds it ([`SourceFile::path`] less the name).
    pub fn dir_path(&self) -> PathBuf {
        let mut p = self.path();
        p.pop();
        p
    }

    /// The language of the content root it was found in (Hugo per-language `contentDir`).
    pub fn root_lang(&self) -> Option<&'a str> {
        self.root.lang.as_deref()
    }
}

/// Files are equal when they hold the same files in the same order, however they were built.
impl PartialEq for Files {
    fn eq(&self, other: &Files) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Files {}

impl Files {
    /// No files.
    pub fn new() -> Files {
        Files::default()
    }

    /// How many files.
    pub fn len(&self) -> usize {
        self.name_ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.name_ends.is_empty()
    }

    /// Folder `d` of the table.
    fn dir(&self, d: u32) -> &str {
        let d = d as usize;
        let start = if d == 0 {
            0
        } else {
            self.dir_ends[d - 1] as usize
        };
        &self.dirs[start..self.dir_ends[d] as usize]
    }

    /// The folder of the last file, if any.
    fn last_dir(&self) -> Option<&str> {
        self.runs.last().map(|&(_, d)| self.dir(d))
    }

    /// File `i`; panics past the end, as slice indexing does.
    pub fn get(&self, i: usize) -> SourceFile<'_> {
        let start = if i == 0 {
            0
        } else {
            self.name_ends[i - 1] as usize
        };
        let name = &self.names[start..self.name_ends[i] as usize];
        // Runs and roots are in file order: the last one starting at or before `i`. The first
        // run starts at file 0; file `i`'s run lies from its hint to the next one.
        let b = i / HINT;
        let lo = self.hints.get(b).map_or(0, |&h| h as usize);
        let hi = self
            .hints
            .get(b + 1)
            .map_or(self.runs.len(), |&h| h as usize + 1);
        let run = lo + self.runs[lo..hi].partition_point(|&(first, _)| first as usize <= i);
        let r = self.roots.partition_point(|(first, _)| *first <= i);
        SourceFile {
            dir: self.dir(self.runs[run.saturating_sub(1)].1),
            name,
            root: &self.roots[r.saturating_sub(1)].1,
        }
    }

    /// Every file, in order: each file's run and root are found by stepping on from the
    /// last file's, not searched for.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = SourceFile<'_>> + '_ {
        let (mut run, mut root) = (0, 0);
        (0..self.len()).map(move |i| {
            // The last run and root starting at or before `i`, as `get` finds them.
            while self
                .runs
                .get(run + 1)
                .is_some_and(|&(first, _)| first as usize <= i)
            {
                run += 1;
            }
            while self
                .roots
                .get(root + 1)
                .is_some_and(|(first, _)| *first <= i)
            {
                root += 1;
            }
            let start = match i {
                0 => 0,
                _ => self.name_ends[i - 1] as usize,
            };
            SourceFile {
                dir: self.dir(self.runs[run].1),
                name: &self.names[start..self.name_ends[i] as usize],
                root: &self.roots[root].1,
            }
        })
    }

    /// Adds a file at `rel` (relative, `/`-separated) below `root`; an error once the names,
    /// the folders or the files' count pass 4 GiB (`u32`) in all.
    pub fn push(&mut self, root: &ContentRoot, rel: &str) -> Result<()> {
        self.push_within(root, rel, LIMIT)
    }

    /// [`Files::push`] with the 4 GiB bound as `limit` (smaller in tests).
    fn push_within(&mut self, root: &ContentRoot, rel: &str, limit: usize) -> Result<()> {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        // Everything is checked before anything changes: an error leaves the files as they were.
        let (Some(first), Some(end)) = (
            offset(self.len(), limit),
            offset(self.names.len() + name.len(), limit),
        ) else {
            return Err(too_long(root, rel));
        };
        if self.last_dir() != Some(dir) {
            let d = self.folder(dir, limit).ok_or_else(|| too_long(root, rel))?;
            self.runs.push((first, d));
        }
        if self.roots.last().is_none_or(|(_, r)| !r.same(root)) {
            self.roots.push((self.len(), root.clone()));
        }
        self.names.push_str(name);
        self.name_ends.push(end);
        if (self.len() - 1).is_multiple_of(HINT) {
            // The run just extended or started holds this file.
            self.hints.push((self.runs.len() - 1) as u32);
        }
        Ok(())
    }

    /// The table's index of folder `dir`, added unless it is open; `None` past `limit`.
    fn folder(&mut self, dir: &str, limit: usize) -> Option<u32> {
        // The walk is depth first: a folder it comes back to is one of the open ones, and a
        // folder that is neither `dir` nor above it is done with.
        while let Some(&d) = self.open.last() {
            let open = self.dir(d);
            if open == dir {
                return Some(d);
            }
            if is_above(open, dir) {
                break;
            }
            self.open.pop();
        }
        let d = offset(self.dir_ends.len(), limit)?;
        let end = offset(self.dirs.len() + dir.len(), limit)?;
        self.dirs.push_str(dir);
        self.dir_ends.push(end);
        self.open.push(d);
        Some(d)
    }

    /// Adds every file of `other` after these: its names and folders copied as blocks, its
    /// ends, runs and roots shifted. A run or a root that goes on from this one's last is not
    /// repeated; a folder in both (the root's, "", when both hold top-level files) is in the
    /// table twice, which costs a few bytes.
    pub fn append(&mut self, other: &Files) -> Result<()> {
        self.append_within(other, LIMIT)
    }

    /// [`Files::append`] with the 4 GiB bound as `limit` (smaller in tests).
    fn append_within(&mut self, other: &Files, limit: usize) -> Result<()> {
        self.notes.extend(other.notes.iter().cloned());
        self.warnings.extend(other.warnings.iter().cloned());
        if other.is_empty() {
            return Ok(());
        }
        let first = self.len();
        let (names, dirs, table) = (self.names.len(), self.dirs.len(), self.dir_ends.len());
        let fits = [
            first + other.len(),
            names + other.names.len(),
            dirs + other.dirs.len(),
            table + other.dir_ends.len(),
        ];
        if fits.iter().any(|&n| offset(n, limit).is_none()) {
            let first = other.get(0);
            return Err(too_long(first.root, &first.rel()));
        }
        // Every shifted offset is at most a new length, which fits (checked above).
        let (first32, names32, dirs32, table32) =
            (first as u32, names as u32, dirs as u32, table as u32);
        for (start, root) in &other.roots {
            if *start == 0 && self.roots.last().is_some_and(|(_, r)| r.same(root)) {
                continue;
            }
            self.roots.push((first + start, root.clone()));
        }
        let same_dir = match (other.runs.first(), self.last_dir()) {
            (Some(&(_, d)), Some(last)) => other.dir(d) == last,
            _ => false,
        };
        let runs = other.runs.iter().skip(usize::from(same_dir));
        self.runs
            .extend(runs.map(|&(f, d)| (f + first32, d + table32)));
        self.names.push_str(&other.names);
        self.name_ends
            .extend(other.name_ends.iter().map(|e| e + names32));
        self.dirs.push_str(&other.dirs);
        self.dir_ends
            .extend(other.dir_ends.iter().map(|e| e + dirs32));
        if !other.open.is_empty() {
            self.open.clear();
            self.open.extend(other.open.iter().map(|d| d + table32));
        }
        // Few appends make a scan: the hints are simply made again.
        self.hints = (0..self.len())
            .step_by(HINT)
            .map(|i| {
                let run = self.runs.partition_point(|&(f, _)| f as usize <= i);
                run.saturating_sub(1) as u32
            })
            .collect();
        Ok(())
    }

    /// The notes of the scan (entries named like pages that are not files), taken out.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The warnings of the scan (content adapters whose pages it cannot list), taken out.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// Reserves room for `files` more files whose names take `names` bytes.
    fn reserve(&mut self, files: usize, names: usize) {
        self.names.reserve(names);
        self.name_ends.reserve(files);
    }

    /// Gives back the spare capacity of buffers filled by pushing.
    pub fn shrink_to_fit(&mut self) {
        self.hints.shrink_to_fit();
        self.names.shrink_to_fit();
        self.name_ends.shrink_to_fit();
        self.dirs.shrink_to_fit();
        self.dir_ends.shrink_to_fit();
        self.runs.shrink_to_fit();
        self.roots.shrink_to_fit();
    }

    /// The bytes the files take on the heap, spare capacity included (the roots' own paths
    /// left out: a few per site): what the per-file cost is measured by.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.names.capacity()
            + self.dirs.capacity()
            + (self.name_ends.capacity() + self.dir_ends.capacity() + self.open.capacity())
                * size_of::<u32>()
            + self.runs.capacity() * size_of::<(u32, u32)>()
            + self.hints.capacity() * size_of::<u32>()
            + self.roots.capacity() * size_of::<(usize, ContentRoot)>()
    }
}

/// One folder to scan.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentRoot {
    /// The folder.
    pub dir: PathBuf,
    /// Its language, when the site keeps one content folder per language.
    pub lang: Option<String>,
    /// Where its files land in the content tree, for a Hugo mount (`docs` for a mount into
    /// `content/docs`; "" for the content folder itself).
    pub target: String,
    /// Hugo mount file filters (see [`crate::siteconfig::ContentMount::files`]).
    pub files: Vec<String>,
    /// A mount: a missing folder is no error, as in Hugo.
    pub mounted: bool,
    /// A mount of one file (`dir` is the file, `target` its path in the content tree).
    pub single: bool,
    /// The generator's own default folder: Zola and Hugo build a site without it (home page
    /// only), so a missing one is no error.
    pub optional: bool,
}

impl ContentRoot {
    /// The same root as `other`, its folder compared as written: `==` compares paths a
    /// component at a time, a cost paid for every file the scan lists.
    fn same(&self, other: &ContentRoot) -> bool {
        let ContentRoot {
            dir,
            lang,
            target,
            files,
            mounted,
            single,
            optional,
        } = self;
        dir.as_os_str() == other.dir.as_os_str()
            && *lang == other.lang
            && *target == other.target
            && *files == other.files
            && (*mounted, *single, *optional) == (other.mounted, other.single, other.optional)
    }

    /// A plain folder of `lang` (or of no language of its own).
    pub fn new(dir: PathBuf, lang: Option<String>) -> ContentRoot {
        ContentRoot {
            dir,
            lang,
            ..Default::default()
        }
    }

    /// A content tree folder as it lies in the root's own folder: the target taken off.
    fn source_dir<'d>(&self, dir: &'d str) -> &'d str {
        if self.target.is_empty() {
            return dir;
        }
        match dir.strip_prefix(self.target.as_str()) {
            Some("") => "",
            Some(rest) => rest.strip_prefix('/').unwrap_or(dir),
            None => dir,
        }
    }

    /// A path relative to the root's folder as it lands in the content tree.
    fn content_rel<'r>(&self, rel: &'r str) -> Cow<'r, str> {
        if self.target.is_empty() {
            Cow::Borrowed(rel)
        } else {
            Cow::Owned(format!("{}/{rel}", self.target))
        }
    }
}

/// What counts as a page and what is skipped.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Page file extensions, without the dot (compared exactly: Zola ignores `.MD`).
    pub extensions: Vec<String>,
    /// Skip folders whose name starts with `.` (Zola publishes them; Hugo does not).
    pub skip_hidden_dirs: bool,
    /// Globs over the content-relative path; a match drops the file.
    pub exclude: Vec<String>,
    /// Globs over the file's absolute path, as Zola matches its `ignored_content` (the
    /// content folder canonicalized, then the file's relative path): `*.tmp.md` and
    /// `**/drafts/**` match, `drafts/**` matches nothing.
    pub ignored_absolute: Vec<String>,
    /// Regular expressions over the absolute path of each file and folder, as Hugo matches
    /// its `ignoreFiles`: a match is skipped, a folder with all below it.
    pub ignore_files: Vec<String>,
    /// Hugo before 0.123: a mount's folders below another mount's target inside its own
    /// are not read ([`crate::hugo::version::HugoRules::nested_mount_folders_read`]).
    pub nested_mounts_hide_folders: bool,
    /// Hugo 0.126+ without `include_unsourced`: a content adapter (`_content.gotmpl`) is
    /// warned about, as the pages it makes have no file to scan.
    pub warn_content_adapters: bool,
}

/// Scans the content of a run's settings: [`roots`] with [`options`], globs named after the
/// config file they came from.
pub fn scan_site(settings: &Settings) -> Result<Files> {
    let origin = settings
        .config_file
        .clone()
        .unwrap_or_else(|| PathBuf::from("command line"));
    scan(&roots(settings), &options(settings), &origin)
}

/// The content folders: one, or one per language where the site keeps them apart (Hugo), or
/// a Hugo site's mounts into `content`.
pub fn roots(settings: &Settings) -> Vec<ContentRoot> {
    let langs = &settings.site.languages;
    if settings.style == Style::Hugo && !settings.site.content_mounts.is_empty() {
        return mount_roots(settings);
    }
    // Hugo reads the default content folder only for languages without a `contentDir` of
    // their own: hugoDocs keeps everything in content/en and nothing else in content/.
    let shared = settings.style != Style::Hugo
        || langs.is_empty()
        || langs.iter().any(|l| l.content_dir.is_none());
    let mut roots = Vec::new();
    if shared {
        // A folder set in sitemap.toml or on the command line must exist; the generator's
        // default (or its config's contentDir) may not.
        let default = settings
            .site_dir
            .join((settings.site.content_dir.as_deref()).unwrap_or(Path::new("content")));
        roots.push(ContentRoot {
            dir: settings.content_dir.clone(),
            lang: None,
            optional: settings.style != Style::Plain && settings.content_dir == default,
            ..Default::default()
        });
    }
    if settings.style == Style::Hugo {
        for l in langs {
            if let Some(d) = &l.content_dir {
                let dir = settings.site_dir.join(d);
                match roots.iter_mut().find(|r| r.dir == dir) {
                    Some(r) => r.lang = r.lang.take().or_else(|| Some(l.code.clone())),
                    None => roots.push(ContentRoot::new(dir, Some(l.code.clone()))),
                }
            }
        }
    }
    roots
}

/// One root per mount and language (a mount for several languages is read for each).
fn mount_roots(settings: &Settings) -> Vec<ContentRoot> {
    let mut roots = Vec::new();
    let sites = settings.hugo.mount_sites;
    for m in &settings.site.content_mounts {
        let langs = m.langs(sites);
        let langs: Vec<Option<String>> = match langs.is_empty() {
            true => vec![None],
            false => langs.into_iter().map(Some).collect(),
        };
        for lang in langs {
            roots.push(ContentRoot {
                dir: settings.site_dir.join(&m.source),
                lang,
                target: m.target.clone(),
                files: m.filters(sites),
                mounted: true,
                single: false,
                optional: false,
            });
        }
    }
    roots
}

/// Every extension some style reads pages from.
pub const PAGE_EXTENSIONS: &[&str] = &["md", "markdown", "mdown", "html", "htm", "org"];

/// What the style counts as a page.
pub fn options(settings: &Settings) -> ScanOptions {
    let (extensions, skip_hidden_dirs): (&[&str], bool) = match settings.style {
        Style::Zola => (&["md"], false),
        Style::Hugo => (PAGE_EXTENSIONS, true),
        Style::Plain | Style::Auto => (&["md", "markdown", "html"], true),
    };
    ScanOptions {
        extensions: extensions.iter().map(|s| s.to_string()).collect(),
        skip_hidden_dirs,
        exclude: settings.exclude.clone(),
        ignored_absolute: settings.site.ignored_content.clone(),
        ignore_files: match settings.style {
            Style::Hugo => settings.site.ignore_files.clone(),
            _ => Vec::new(),
        },
        nested_mounts_hide_folders: settings.style == Style::Hugo
            && !settings.hugo.nested_mount_folders_read,
        warn_content_adapters: settings.style == Style::Hugo
            && settings.hugo.content_adapters
            && !settings.include_unsourced,
    }
}

/// Walks every root in sorted order and returns the page files.
pub fn scan(roots: &[ContentRoot], opts: &ScanOptions, origin: &Path) -> Result<Files> {
    let exclude = glob_set(&opts.exclude, origin)?;
    let ignored = glob_set(&opts.ignored_absolute, origin)?;
    let ignore_files = opts
        .ignore_files
        .iter()
        .map(|p| {
            regex_automata::meta::Regex::new(p).map_err(|e| {
                Error::config(origin, None, format!("`ignoreFiles` pattern '{p}': {e}"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut out = Files::new();
    for root in roots {
        // A language's own `contentDir` may not exist yet (nothing translated): Hugo builds
        // that language with no pages, and so do we. The site's content folder must exist.
        if (root.lang.is_some() || root.mounted) && !root.dir.exists() {
            continue;
        }
        if root.optional && !root.dir.exists() {
            let dir = root.dir.display();
            out.notes.push(format!(
                "{dir}: no content folder: the site has no pages, as the generator builds it"
            ));
            continue;
        }
        if root.mounted && root.dir.is_file() {
            single_file(root, opts, &mut out)?;
            continue;
        }
        if !root.dir.is_dir() {
            return Err(Error::config(
                origin,
                None,
                format!(
                    "content folder {} does not exist: set content_dir or --content",
                    root.dir.display()
                ),
            ));
        }
        let canonical_root = root
            .dir
            .canonicalize()
            .map_err(|e| Error::io(&root.dir, e))?;
        // Each top-level entry is walked on its own core; concatenated in sorted order, the
        // result is exactly what one sorted walk would give.
        let mut top: Vec<PathBuf> = std::fs::read_dir(&root.dir)
            .map_err(|e| Error::io(&root.dir, e))?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map_err(|e| Error::io(&root.dir, e))?;
        top.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        let walk = Walk {
            root,
            canonical_root: &canonical_root,
            opts,
            exclude: &exclude,
            ignored: &ignored,
            ignore_files: &ignore_files,
            mount_files: MountFilter::new(&root.files, origin)?,
        };
        let parts = top
            .par_iter()
            .map(|p| walk.subtree(p))
            .collect::<Result<Vec<Files>>>()?;
        // Sized once: a million names would otherwise be copied as the buffer doubles.
        out.reserve(
            parts.iter().map(Files::len).sum(),
            parts.iter().map(|p| p.names.len()).sum(),
        );
        for part in parts {
            out.append(&part)?;
        }
    }
    if roots.iter().filter(|r| r.mounted).count() > 1 {
        out = unshadowed(&out)?;
        if opts.nested_mounts_hide_folders {
            out = beside_nested_mounts(&out, roots)?;
        }
    }
    out.shrink_to_fit();
    Ok(out)
}

/// A Hugo mount of one file (`README.md` mounted as `content/_index.md`): a page at its
/// target when that is named like one.
fn single_file(root: &ContentRoot, opts: &ScanOptions, out: &mut Files) -> Result<()> {
    let ext = root.target.rsplit_once('.').map_or("", |(_, e)| e);
    if opts.extensions.iter().any(|x| x == ext) {
        let single = ContentRoot {
            single: true,
            ..root.clone()
        };
        out.push(&single, &root.target)?;
    }
    Ok(())
}

/// The files of several Hugo mounts as Hugo sees them: where two mounts bring a file to one
/// path of the content tree (for one language), the first mount's file is the one there.
fn unshadowed(files: &Files) -> Result<Files> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Files::new();
    for f in files.iter() {
        if seen.insert((f.root_lang(), f.rel())) {
            out.push(f.root, &f.rel())?;
        }
    }
    out.notes = files.notes.clone();
    out.warnings = files.warnings.clone();
    Ok(out)
}

/// Hugo before 0.123 lays a mount whose target lies inside another mount's over it: the
/// outer mount's folders below that target are not read (Hugo warns `File "docs/v1" not
/// found, skipping`), its files directly in the target are.
fn beside_nested_mounts(files: &Files, roots: &[ContentRoot]) -> Result<Files> {
    let inner = |t: &str, outer: &str| {
        !t.is_empty()
            && (outer.is_empty() || t.strip_prefix(outer).is_some_and(|r| r.starts_with('/')))
    };
    let mut out = Files::new();
    for f in files.iter() {
        let outer = f.root.target.as_str();
        let hidden = roots.iter().any(|r| {
            r.mounted
                && !r.single
                && r.lang == f.root.lang
                && inner(&r.target, outer)
                && f.dir
                    .strip_prefix(r.target.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        });
        if !hidden {
            out.push(f.root, &f.rel())?;
        }
    }
    out.notes = files.notes.clone();
    out.warnings = files.warnings.clone();
    Ok(out)
}

/// `path` relative to `root`: by its bytes when it starts with the root's (as every path
/// the walk makes does), else component by component (`Path::strip_prefix`, a cost paid for
/// every file); `path` itself when it is not below `root`.
fn below<'p>(path: &'p Path, root: &Path) -> &'p Path {
    if let (Some(p), Some(r)) = (path.to_str(), root.to_str())
        && let Some(rest) = p.strip_prefix(r)
    {
        let rest = match rest.strip_prefix('/') {
            Some(rest) => Some(rest),
            None if rest.is_empty() || r.ends_with('/') => Some(rest),
            // `content2/x` is not below `content`.
            None => None,
        };
        // A rest that starts at a separator or a `.` is left to the full comparison,
        // which reads those as components.
        if let Some(rest) = rest.filter(|r| !r.starts_with(['/', '.'])) {
            return Path::new(rest);
        }
    }
    path.strip_prefix(root).unwrap_or(path)
}

/// One content root's walk, shared by the tasks that walk its top-level entries.
struct Walk<'a> {
    root: &'a ContentRoot,
    canonical_root: &'a Path,
    opts: &'a ScanOptions,
    exclude: &'a GlobSet,
    ignored: &'a GlobSet,
    /// Hugo `ignoreFiles`, compiled.
    ignore_files: &'a [regex_automata::meta::Regex],
    /// The root's mount filters.
    mount_files: MountFilter,
}

impl Walk<'_> {
    /// Whether Hugo's `ignoreFiles` match the entry at `path`: its absolute path, as Hugo
    /// matches it (the content folder's real path, then the entry's below it).
    fn ignores(&self, path: &Path) -> bool {
        if self.ignore_files.is_empty() {
            return false;
        }
        let abs = self.canonical_root.join(below(path, &self.root.dir));
        let abs = abs.to_string_lossy();
        self.ignore_files.iter().any(|r| r.is_match(&*abs))
    }

    /// The page files at or below `start` (a top-level file or folder of the root), sorted.
    fn subtree(&self, start: &Path) -> Result<Files> {
        let mut out = Files::new();
        let walker = WalkDir::new(start)
            .follow_links(false)
            // A link directly in the root is a link like any other: walkdir would follow it
            // out of the tree (`content/etc -> /etc`).
            .follow_root_links(false)
            // Siblings share their parent's path string, so comparing whole paths as bytes
            // orders them by file name, without parsing each path's components per compare.
            .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
            .into_iter()
            .filter_entry(|e| {
                let hidden = e.file_name().as_encoded_bytes().first() == Some(&b'.');
                // Hidden files are never pages; hidden folders depend on the generator.
                !(hidden && (!e.file_type().is_dir() || self.opts.skip_hidden_dirs))
                    && !self.ignores(e.path())
            });
        for entry in walker {
            let entry = entry.map_err(|e| {
                let path = e
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| start.to_path_buf());
                Error::io(
                    path,
                    e.into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("filesystem loop")),
                )
            })?;
            let ft = entry.file_type();
            let path = entry.path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !self.opts.extensions.iter().any(|x| x == ext) {
                if self.opts.warn_content_adapters
                    && ext == "gotmpl"
                    && entry.file_name() == "_content.gotmpl"
                {
                    out.warnings.push(format!(
                        "{}: a content adapter: the pages Hugo makes from it have no content file, so they are not in the sitemap; `include_unsourced = true` in sitemap.toml lists them from the built site (run sitemapgen after `hugo`), and stops this warning",
                        path.display()
                    ));
                }
                continue;
            }
            let not_a_page = if ft.is_symlink() {
                // A link is followed only when it stays inside the content tree.
                match path.canonicalize() {
                    Err(_) => Some("a link to nothing"),
                    Ok(t) if !t.starts_with(self.canonical_root) => {
                        Some("a link out of the content folder")
                    }
                    Ok(t) if !t.is_file() => Some("a link to something not a file"),
                    Ok(_) => None,
                }
            } else if ft.is_dir() {
                Some("a folder")
            } else if !ft.is_file() {
                Some("not a regular file (a FIFO, socket or device)")
            } else {
                None
            };
            if let Some(what) = not_a_page {
                out.notes
                    .push(format!("skipped {}: {what}", path.display()));
                continue;
            }
            let rel_path = below(path, &self.root.dir);
            let Some(rel) = rel_path.to_str() else {
                return Err(Error::input(
                    path,
                    None,
                    "the file name is not valid UTF-8: rename it",
                ));
            };
            // Windows separates with `\`; elsewhere it is a character of the name.
            let rel: Cow<str> = if std::path::MAIN_SEPARATOR == '\\' && rel.contains('\\') {
                rel.replace('\\', "/").into()
            } else {
                rel.into()
            };
            if !self.mount_files.admits(&rel) {
                continue;
            }
            let in_tree = self.root.content_rel(&rel);
            if self.exclude.is_match(&*in_tree)
                || (!self.ignored.is_empty()
                    && self.ignored.is_match(self.canonical_root.join(&*rel)))
            {
                continue;
            }
            out.push(self.root, &in_tree)?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in files {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        d
    }

    fn rels(d: &Path, opts: &ScanOptions) -> Vec<String> {
        let roots = [ContentRoot {
            dir: d.to_path_buf(),
            lang: None,
            ..Default::default()
        }];
        scan(&roots, opts, Path::new("t"))
            .unwrap()
            .iter()
            .map(|f| f.rel().into_owned())
            .collect()
    }

    #[test]
    fn many_files_in_many_runs_read_back_whole_and_appended() {
        // Folders of uneven sizes, each interrupted by a subfolder, over several hints' worth
        // of files: every file finds its own run, pushed one by one or appended in parts.
        let root = ContentRoot {
            dir: "content".into(),
            lang: None,
            ..Default::default()
        };
        let mut rels = Vec::new();
        for d in 0..90 {
            for f in 0..(d * 7 % 97) {
                rels.push(format!("s{d}/p{f}.md"));
            }
            rels.push(format!("s{d}/sub/x.md"));
            rels.push(format!("s{d}/z.md"));
        }
        rels.push("top.md".to_string());
        assert!(rels.len() > 3 * HINT);
        let mut whole = Files::new();
        for r in &rels {
            whole.push(&root, r).unwrap();
        }
        let mut parts = Files::new();
        for chunk in rels.chunks(700) {
            let mut part = Files::new();
            for r in chunk {
                part.push(&root, r).unwrap();
            }
            parts.append(&part).unwrap();
        }
        for files in [&whole, &parts] {
            let got: Vec<String> = files.iter().map(|f| f.rel().into_owned()).collect();
            assert_eq!(got, rels);
            // Stepping through the runs finds what searching for each file finds.
            assert!(files.iter().enumerate().all(|(i, f)| f == files.get(i)));
        }
        assert_eq!(whole.hints, parts.hints);
    }

    #[test]
    fn a_path_below_its_root_reads_as_strip_prefix_reads_it() {
        for (root, path) in [
            ("content", "content/blog/a.md"),
            ("content/", "content/blog/a.md"),
            ("./content", "./content/a.md"),
            ("content", "content"),
            ("content", "content2/a.md"),
            ("content", "content//a.md"),
            ("content", "content/./a.md"),
            ("content", "content/.well-known/a.md"),
            ("/abs/site/content", "/abs/site/content/x/y/z.md"),
            ("content", "elsewhere/a.md"),
            ("", "a.md"),
        ] {
            let (root, path) = (Path::new(root), Path::new(path));
            let want = path.strip_prefix(root).unwrap_or(path);
            // As written, not as components (which would read `a//b` as `a/b`).
            assert_eq!(
                below(path, root).as_os_str(),
                want.as_os_str(),
                "{path:?} below {root:?}"
            );
        }
    }

    #[test]
    fn files_keep_each_path_with_its_own_root() {
        let root = |d: &str, lang: Option<&str>| ContentRoot {
            dir: d.into(),
            lang: lang.map(String::from),
            ..Default::default()
        };
        let (en, fr) = (root("content", None), root("content.fr", Some("fr")));
        let mut part = Files::new();
        part.push(&fr, "b/c.md").unwrap();
        part.push(&fr, "é.md").unwrap();
        let mut files = Files::new();
        files.push(&en, "a.md").unwrap();
        files.push(&en, "").unwrap();
        files.append(&part).unwrap();
        files.push(&en, "z.md").unwrap();
        let got: Vec<(Cow<str>, Option<&str>, PathBuf)> = files
            .iter()
            .map(|f| (f.rel(), f.root_lang(), f.path()))
            .collect();
        assert_eq!(
            got,
            [
                ("a.md".into(), None, PathBuf::from("content/a.md")),
                ("".into(), None, PathBuf::from("content")),
                (
                    "b/c.md".into(),
                    Some("fr"),
                    PathBuf::from("content.fr/b/c.md")
                ),
                ("é.md".into(), Some("fr"), PathBuf::from("content.fr/é.md")),
                ("z.md".into(), None, PathBuf::from("content/z.md")),
            ]
        );
        assert_eq!(files.len(), 5);
        assert!(Files::new().is_empty());
        // A part that goes on in the last root adds no root of its own.
        let mut more = Files::new();
        more.push(&en, "zz.md").unwrap();
        files.append(&more).unwrap();
        files.append(&Files::new()).unwrap();
        assert_eq!(files.roots.len(), 3);
        assert_eq!(files.get(5).path(), PathBuf::from("content/zz.md"));
        assert!(files.iter().enumerate().all(|(i, f)| f == files.get(i)));
    }

    fn root(dir: &str) -> ContentRoot {
        ContentRoot {
            dir: dir.into(),
            lang: None,
            ..Default::default()
        }
    }

    /// The table's folders, in table order.
    fn table(files: &Files) -> Vec<&str> {
        (0..files.dir_ends.len() as u32)
            .map(|d| files.dir(d))
            .collect()
    }

    /// Relative paths of a made-up site, in walk order: files at the root, folders whose
    /// files are interleaved with their subfolders', deep folders, names beyond ASCII.
    fn site_paths() -> Vec<String> {
        let mut out = vec!["_index.md".to_string(), "about.md".to_string()];
        for s in ["blog", "docs", "ünïcode"] {
            out.push(format!("{s}/_index.md"));
            for j in 0..4 {
                out.push(format!("{s}/a-{j}.md"));
                out.push(format!("{s}/a-{j}/index.md"));
                out.push(format!("{s}/a-{j}/deep/er/still/日本語-{j}.md"));
            }
            out.push(format!("{s}/zz.md"));
        }
        out.push("zz.md".into());
        out
    }

    #[test]
    fn files_give_back_every_path_as_pushed() {
        let paths = site_paths();
        let r = root("content");
        let mut files = Files::new();
        for p in &paths {
            files.push(&r, p).unwrap();
        }
        assert_eq!(files.len(), paths.len());
        let got: Vec<Cow<str>> = files.iter().map(|f| f.rel()).collect();
        assert_eq!(got, paths);
        for (i, p) in paths.iter().enumerate() {
            let f = files.get(i);
            let (dir, name) = p.rsplit_once('/').unwrap_or(("", p));
            assert_eq!((f.dir, f.name), (dir, name), "{p}");
            assert_eq!(f.path(), Path::new("content").join(p));
            assert_eq!(f.path().to_str(), Some(&*format!("content/{p}")));
        }
        let f = files.get(files.len() - 1);
        assert_eq!(
            (f.dir, f.name, f.rel()),
            ("", "zz.md", Cow::Borrowed("zz.md"))
        );
    }

    #[test]
    fn each_folder_is_stored_once_though_its_files_are_split_by_subfolders() {
        let r = root("c");
        let mut files = Files::new();
        for p in [
            "a/x.md",
            "a/b/y.md",
            "a/b/c/z.md",
            "a/b/w.md",
            "a/z.md",
            "top.md",
        ] {
            files.push(&r, p).unwrap();
        }
        assert_eq!(table(&files), ["a", "a/b", "a/b/c", ""]);
        // One run for each change of folder.
        assert_eq!(files.runs.len(), 6);
        assert_eq!(files.dirs, "aa/ba/b/c");
        assert_eq!(files.names, "x.mdy.mdz.mdw.mdz.mdtop.md");
        // A folder seen before but no longer open (`a/b` after `a2`) is stored again: the
        // walk never comes back to it, and pushing out of walk order stays right.
        files.push(&r, "a2/q.md").unwrap();
        files.push(&r, "a/b/again.md").unwrap();
        assert_eq!(table(&files), ["a", "a/b", "a/b/c", "", "a2", "a/b"]);
        assert_eq!(files.get(7).rel(), "a/b/again.md");
    }

    #[test]
    fn folders_are_above_only_their_own_subfolders() {
        assert!(is_above("", "a"));
        assert!(is_above("a", "a/b/c"));
        assert!(!is_above("a", "a"));
        assert!(!is_above("", ""));
        assert!(!is_above("a", "ab/c"));
        assert!(!is_above("a/b", "a"));
    }

    #[test]
    fn appending_parts_gives_the_files_pushing_them_would() {
        let paths = site_paths();
        let (en, fr) = (root("content"), root("content.fr"));
        let mut whole = Files::new();
        // Parts as the scan makes them, one for each top-level entry.
        let mut parts: Vec<Files> = Vec::new();
        for (i, p) in paths.iter().enumerate() {
            let r = if i < 20 { &en } else { &fr };
            whole.push(r, p).unwrap();
            let top = p.split('/').next();
            let last = parts.last().and_then(|f| f.iter().last());
            let same = last.is_some_and(|l| l.rel().split('/').next() == top && l.root == r);
            if !(same && p.contains('/')) {
                parts.push(Files::new());
            }
            parts.last_mut().unwrap().push(r, p).unwrap();
        }
        let mut joined = Files::new();
        joined.append(&Files::new()).unwrap();
        for part in &parts {
            joined.append(part).unwrap();
            joined.append(&Files::new()).unwrap();
        }
        assert_eq!(joined, whole);
        let got: Vec<Cow<str>> = joined.iter().map(|f| f.rel()).collect();
        assert_eq!(got, paths);
        let langs: Vec<bool> = joined.iter().map(|f| f.root == &fr).collect();
        assert_eq!(langs, (0..paths.len()).map(|i| i >= 20).collect::<Vec<_>>());
        // The two top-level files are one run, though they came in two parts.
        assert_eq!(parts[0].len() + parts[1].len(), 2);
        assert_eq!(joined.runs[..2], [(0, 0), (2, 2)]);
        // Files equal only when their files are.
        whole.push(&en, "more.md").unwrap();
        assert_ne!(joined, whole);
    }

    #[test]
    fn files_past_the_bound_are_an_error_and_change_nothing() {
        let r = root("c");
        let mut files = Files::new();
        files.push_within(&r, "ab/cd.md", 10).unwrap();
        let before = files.clone();
        // Names: 5 bytes in, 6 more would make 11.
        let err = files.push_within(&r, "ab/efgh.md", 10).unwrap_err();
        assert!(err.to_string().contains("more than 4 GiB"), "{err}");
        assert!(err.to_string().contains("c/ab/efgh.md"), "{err}");
        // Folders: 2 bytes in, 9 more would make 11, though the name fits.
        assert!(files.push_within(&r, "ab/cd/efg/h/e.md", 10).is_err());
        assert_eq!((files.names.len(), files.dirs.len()), (5, 2));
        assert_eq!(files, before);
        // The count of files: empty names take no bytes, but each is a file.
        let mut empty = Files::new();
        for _ in 0..=3 {
            empty.push_within(&r, "", 3).unwrap();
        }
        assert!(empty.push_within(&r, "", 3).is_err());
        // Appending: the first file of the part is named.
        let mut part = Files::new();
        part.push(&r, "xyz/long-name.md").unwrap();
        let err = files.append_within(&part, 10).unwrap_err();
        assert!(err.to_string().contains("c/xyz/long-name.md"), "{err}");
        assert_eq!(files, before);
        files.append_within(&Files::new(), 0).unwrap();
        let mut small = Files::new();
        small.push(&r, "a/b").unwrap();
        files.append_within(&small, 10).unwrap();
        assert_eq!(files.len(), 2);
    }

    /// A generated site's layout, as `examples/gen-site.rs` makes it: sections of about a
    /// thousand pages, one page in a hundred a bundle in a folder of its own.
    #[test]
    fn a_file_costs_its_name_and_about_four_bytes() {
        let r = root("content");
        let mut files = Files::new();
        let mut names = 0;
        files.push(&r, "_index.md").unwrap();
        for s in 0..10 {
            let dir = format!("community/runtime-{s}");
            for n in 0..1000 {
                let n = s * 1000 + n;
                let stem = format!("beacon-release-{n:06}");
                let rel = if n % 100 == 7 {
                    format!("{dir}/{stem}/index.md")
                } else {
                    format!("{dir}/{stem}.md")
                };
                names += rel.rsplit('/').next().unwrap().len();
                files.push(&r, &rel).unwrap();
            }
        }
        files.shrink_to_fit();
        let n = files.len();
        let bytes = files.heap_bytes();
        // The path whole with a 4-byte end, as before: about 44 bytes a file here.
        let whole: usize = files.iter().map(|f| f.rel().len() + 4).sum();
        assert!(whole > 40 * n, "{whole}");
        // Now 4 bytes of end, under a byte of folder and run (an index a file would be 4
        // more), and the name.
        assert!(
            bytes - names < 6 * n,
            "{bytes} bytes, {names} of names, {n} files"
        );
        assert!(bytes < 30 * n, "{bytes} bytes for {n} files");
    }

    #[test]
    fn finds_pages_sorted_and_skips_the_rest() {
        let d = tree(&[
            "b.md",
            "a/_index.md",
            "a/x.md",
            ".hidden.md",
            ".dir/y.md",
            "UP.MD",
            "n.txt",
            "o.markdown",
            "wip.tmp.md",
        ]);
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: false,
            exclude: vec!["*.tmp.md".into()],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        assert_eq!(
            rels(d.path(), &opts),
            [".dir/y.md", "a/_index.md", "a/x.md", "b.md"]
        );
        let opts = ScanOptions {
            extensions: vec!["md".into(), "markdown".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        assert_eq!(
            rels(d.path(), &opts),
            ["a/_index.md", "a/x.md", "b.md", "o.markdown", "wip.tmp.md"]
        );
    }

    #[test]
    fn ignored_content_matches_the_absolute_path_as_zola_does() {
        let d = tree(&[
            "drafts/a.md",
            "blog/drafts/b.md",
            "blog/c.tmp.md",
            "blog/d.md",
        ]);
        let opts = |globs: &[&str]| ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: false,
            exclude: vec![],
            ignored_absolute: globs.iter().map(|g| g.to_string()).collect(),
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        // Anchored at the content folder: the absolute path never starts there.
        assert_eq!(
            rels(d.path(), &opts(&["drafts/**"])),
            [
                "blog/c.tmp.md",
                "blog/d.md",
                "blog/drafts/b.md",
                "drafts/a.md"
            ]
        );
        assert_eq!(
            rels(d.path(), &opts(&["**/drafts/**", "*.tmp.md"])),
            ["blog/d.md"]
        );
        // The same glob as an `exclude` of ours is relative to the content folder.
        let mut relative = opts(&[]);
        relative.exclude = vec!["drafts/**".into()];
        assert_eq!(
            rels(d.path(), &relative),
            ["blog/c.tmp.md", "blog/d.md", "blog/drafts/b.md"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_do_not_leave_the_tree() {
        let outside = tree(&["secret.md"]);
        let d = tree(&["real.md"]);
        std::os::unix::fs::symlink(outside.path().join("secret.md"), d.path().join("out.md"))
            .unwrap();
        std::os::unix::fs::symlink(d.path().join("real.md"), d.path().join("alias.md")).unwrap();
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        assert_eq!(rels(d.path(), &opts), ["alias.md", "real.md"]);
    }

    #[test]
    fn entries_named_like_pages_that_are_not_files_are_noted() {
        let d = tree(&["real.md", "sub/x.md/inner.md"]);
        std::os::unix::fs::symlink(d.path().join("gone.md"), d.path().join("dangling.md")).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(d.path().join("pipe.md"))
            .status()
            .is_ok_and(|s| s.success());
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        let roots = [ContentRoot {
            dir: d.path().to_path_buf(),
            lang: None,
            ..Default::default()
        }];
        let mut files = scan(&roots, &opts, Path::new("t")).unwrap();
        let rels: Vec<String> = files.iter().map(|f| f.rel().into_owned()).collect();
        assert_eq!(rels, ["real.md", "sub/x.md/inner.md"]);
        let notes = files.take_notes().join("\n");
        assert!(notes.contains("dangling.md: a link to nothing"), "{notes}");
        assert!(notes.contains("x.md: a folder"), "{notes}");
        assert_eq!(
            notes.contains("pipe.md: not a regular file"),
            fifo,
            "{notes}"
        );
    }

    #[test]
    fn links_directly_in_the_root_do_not_leave_the_tree_either() {
        let outside = tree(&["secret.md", "sub/deep.md"]);
        let d = tree(&["real.md"]);
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, d.path().join(name)).unwrap()
        };
        link(outside.path(), "outdir");
        link(d.path(), "loop");
        link(Path::new("/nonexistent/x"), "dangling");
        link(&outside.path().join("secret.md"), "file.md");
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        assert_eq!(rels(d.path(), &opts), ["real.md"]);
    }

    #[test]
    fn a_backslash_is_part_of_a_file_name_on_unix() {
        let d = tree(&["blog/a\\b.md"]);
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        let root = [ContentRoot {
            dir: d.path().to_path_buf(),
            lang: None,
            ..Default::default()
        }];
        let files = scan(&root, &opts, Path::new("sitemap.toml")).unwrap();
        assert_eq!(files.get(0).rel(), "blog/a\\b.md");
        // The path opened is the real file's.
        assert!(files.get(0).path().is_file());
    }

    #[test]
    fn a_missing_language_content_dir_is_empty() {
        let d = tree(&["en/a.md"]);
        let roots = [
            ContentRoot {
                dir: d.path().join("en"),
                lang: Some("en".into()),
                ..Default::default()
            },
            ContentRoot {
                dir: d.path().join("fr"),
                lang: Some("fr".into()),
                ..Default::default()
            },
        ];
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        let files = scan(&roots, &opts, Path::new("hugo.toml")).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(
            (files.get(0).rel(), files.get(0).root_lang()),
            ("a.md".into(), Some("en"))
        );
    }

    #[test]
    fn a_missing_content_dir_is_a_config_error() {
        let roots = [ContentRoot {
            dir: PathBuf::from("/nonexistent/content"),
            lang: None,
            ..Default::default()
        }];
        let opts = ScanOptions {
            extensions: vec!["md".into()],
            skip_hidden_dirs: true,
            exclude: vec![],
            ignored_absolute: vec![],
            ignore_files: vec![],
            nested_mounts_hide_folders: false,
            warn_content_adapters: false,
        };
        let err = scan(&roots, &opts, Path::new("sitemap.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent/content"), "{err}");
    }
}
