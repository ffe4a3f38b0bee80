//! Reading the pages: every file's front matter on every core, a chunk at a time, handed to
//! the router in the order it asks for, so a million pages are never all in memory as read.

use super::{Progress, RunOptions};
use crate::frontmatter::{self, PageMeta};
use crate::images;
use crate::route::{RouteSink, Router};
use crate::scan::{Files, SourceFile};
use crate::settings::Settings;
use crate::vocab::error::{Error, Result};
use crate::vocab::fsread;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many pages are read on every core before they are routed in turn: enough to keep
/// both cores busy, few enough that a chunk's records are a small share of the peak.
const CHUNK: usize = 1 << 14;

/// One page as the parallel read leaves it, until its turn to be routed.
struct ReadPage {
    fm: PageMeta,
    /// Its packed taxonomy terms ([`frontmatter::Terms::pack`]), `None` when it has none.
    terms: Option<Box<str>>,
    /// What few pages have; `None` for the rest (8 bytes rather than two vectors' 48).
    rest: Option<Box<ReadRest>>,
}

/// The rarer part of a [`ReadPage`].
#[derive(Default)]
struct ReadRest {
    /// Image sources from its body (read only when images are on).
    images: Vec<String>,
    /// Values left out in lenient (Hugo) mode.
    warnings: Vec<String>,
}

/// What reading leaves besides what the router took: the rarer parts of the pages.
#[derive(Default)]
pub struct Kept {
    /// Each file's image sources, by file index, when images are on (entries use them).
    pub images: Vec<Vec<String>>,
    /// Values left out in lenient (Hugo) mode, by file index.
    warnings: Vec<(usize, Vec<String>)>,
}

impl Kept {
    /// The values left out, in file order.
    pub fn warnings(&mut self) -> impl Iterator<Item = String> + use<> {
        self.warnings.sort_by_key(|(i, _)| *i);
        std::mem::take(&mut self.warnings)
            .into_iter()
            .flat_map(|(_, w)| w)
    }
}

/// Reads pages' front matter for a run, from any thread.
pub struct Reader<'a> {
    settings: &'a Settings,
    progress: Option<&'a Progress>,
    total: usize,
    done: AtomicUsize,
    /// Bodies are read too (for their images).
    want_body: bool,
    /// How front matter is read: the same for every page, so made once (its date orders
    /// are shared, and sharing them anew for each page would make both cores count).
    opts: frontmatter::Options,
    /// Pages read at once ([`CHUNK`]; tests take fewer).
    chunk: usize,
}

impl<'a> Reader<'a> {
    /// A reader for a run over `total` files.
    pub fn new(settings: &'a Settings, opts: &'a RunOptions, total: usize) -> Reader<'a> {
        Reader {
            settings,
            progress: opts.progress.as_ref(),
            total,
            done: AtomicUsize::new(0),
            want_body: settings.images,
            opts: super::generator(settings.style).front_matter(settings),
            chunk: CHUNK,
        }
    }

    /// Reads every file, the router's [`Router::first`] ones first, and hands each page to the
    /// router in turn. Every bad file is reported (in file order), not just the first.
    pub fn read_into(
        &self,
        files: &Files,
        router: &mut dyn Router,
        sink: &mut dyn RouteSink,
    ) -> Result<Kept> {
        let mut kept = Kept::default();
        if self.want_body {
            kept.images.resize_with(files.len(), Vec::new);
        }
        let mut errors = Vec::new();
        let first = router.first();
        let mut take = |router: &mut dyn Router, i: usize, page: ReadPage| {
            if let Some(rest) = page.rest {
                let ReadRest { images, warnings } = *rest;
                if let Some(slot) = kept.images.get_mut(i) {
                    *slot = images;
                }
                if !warnings.is_empty() {
                    kept.warnings.push((i, warnings));
                }
            }
            router.add(i, page.fm, page.terms.as_deref().unwrap_or(""), sink)
        };
        let unread = router.unread();
        let which = |i: usize| (i, unread.binary_search(&i).is_err());
        self.read_each(
            files,
            first.iter().copied().map(which),
            &mut errors,
            &mut |i, page| take(&mut *router, i, page),
        );
        // The first files may leave more unread (below a draft Zola section).
        let unread = router.unread();
        let which = |i: usize| (i, unread.binary_search(&i).is_err());
        let rest = (0..files.len()).filter(|i| first.binary_search(i).is_err());
        self.read_each(files, rest.map(which), &mut errors, &mut |i, page| {
            take(&mut *router, i, page)
        });
        // A file the router turns out never to read cannot stop the run (a section below a
        // draft Zola section, read before the router knew).
        let unread = router.unread();
        errors.retain(|(i, _)| unread.binary_search(i).is_err());
        errors.sort_by_key(|(i, _)| *i);
        match Error::from_many(errors.into_iter().map(|(_, e)| e).collect()) {
            Some(e) => Err(e),
            None => Ok(kept),
        }
    }

    /// Reads file `i` down to what routing needs, opening it by name in its folder when
    /// `dir` holds that folder open (or can be made to); a file the router never reads
    /// (`open` false) is not opened: its page is empty.
    fn read(&self, files: &Files, i: usize, open: bool, held: &mut Held) -> Result<ReadPage> {
        if !open {
            if let Some(p) = self.progress {
                let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                (p.0)(n, self.total);
            }
            return Ok(ReadPage {
                fm: PageMeta::default(),
                terms: None,
                rest: None,
            });
        }
        let Held { dir, buf } = held;
        let file = files.get(i);
        let path = file.path();
        let read = match dir.open_in(&file) {
            Some(folder) => fsread::open_listed_at(folder, file.name, &path),
            None => fsread::open_listed(&path),
        }
        .map_err(|e| Error::io(&path, e.into()))
        .and_then(|opened| {
            frontmatter::read_opened(opened, &path, &self.opts, self.want_body, buf)
        });
        if let Some(p) = self.progress {
            let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
            (p.0)(n, self.total);
        }
        let (mut fm, body) = read?;
        let images = match body {
            Some(body) => self.page_images(&file, std::mem::take(&mut fm.images), body),
            None => Vec::new(),
        };
        // A page far larger than most leaves its buffer: the thread's memory stays small.
        if buf.capacity() > HELD_BUFFER {
            *buf = Vec::new();
        }
        let warnings = std::mem::take(&mut fm.warnings);
        self.add_string_terms(&mut fm);
        let terms = frontmatter::Terms::pack(&fm.taxonomies, &fm.taxonomy_table);
        // Only the compact record outlives this call.
        Ok(ReadPage {
            fm: fm.meta,
            terms: (!terms.is_empty()).then(|| terms.into_boxed_str()),
            rest: (!images.is_empty() || !warnings.is_empty())
                .then(|| Box::new(ReadRest { images, warnings })),
        })
    }

    /// A page's image sources as its source names them: its front matter's first, then its
    /// shortcodes' and Markdown's in document order; without repeats, at most
    /// [`images::MAX_IMAGES`]. A relative front matter value names a file of the page's
    /// bundle (or Zola page folder) when one is there, else a path from the site root, as
    /// themes' `absURL` and `get_url` read it.
    fn page_images(&self, file: &SourceFile<'_>, front: Vec<String>, body: &str) -> Vec<String> {
        let shortcodes = self.opts.images.as_ref().and_then(|r| r.shortcodes);
        let in_body = images::body_sources(body, shortcodes);
        if front.is_empty() {
            return in_body;
        }
        let stem = file.name.split('.').next().unwrap_or_default();
        let bundle = matches!(stem, "index" | "_index").then(|| file.dir_path());
        let mut all: Vec<String> = Vec::with_capacity(front.len() + in_body.len());
        for src in front {
            let relative = !src.starts_with('/')
                && matches!(
                    url::Url::parse(&src),
                    Err(url::ParseError::RelativeUrlWithoutBase)
                );
            let in_bundle = || {
                let name = src.split(['?', '#']).next().unwrap_or_default();
                bundle.as_ref().is_some_and(|dir| dir.join(name).is_file())
            };
            all.push(if relative && !in_bundle() {
                format!("/{}", src.trim_start_matches("./"))
            } else {
                src
            });
        }
        all.extend(in_body);
        let mut seen = std::collections::HashSet::new();
        all.retain(|src| seen.insert(src.clone()));
        all.truncate(images::MAX_IMAGES);
        all
    }

    /// Hugo reads a taxonomy given as one string as a list of that one term: the page's
    /// string values of declared taxonomies join its lists.
    fn add_string_terms(&self, fm: &mut frontmatter::Parsed) {
        if fm.taxonomy_strings.is_empty() {
            return;
        }
        let declared = &self.settings.site.taxonomies;
        for (name, term) in std::mem::take(&mut fm.taxonomy_strings) {
            if declared.iter().any(|t| t.name.eq_ignore_ascii_case(&name)) {
                fm.taxonomies.push((name, vec![term]));
            }
        }
        fm.taxonomies.sort_by(|a, b| a.0.cmp(&b.0));
    }

    /// Reads the files `which` (in file order, each with whether to open it) a chunk at a
    /// time on every core, and hands each page to `sink` in order. A bad file's error (or the
    /// sink's) is kept in `errors` with its index and the rest are still read, so every bad
    /// file is reported.
    fn read_each(
        &self,
        files: &Files,
        which: impl Iterator<Item = Which>,
        errors: &mut Vec<(usize, Error)>,
        mut sink: impl FnMut(usize, ReadPage) -> Result<()>,
    ) {
        let mut which = which.peekable();
        let read = |chunk: &[Which]| -> Vec<Result<ReadPage>> {
            chunk
                .par_iter()
                .map_init(Held::default, |held, &(i, open)| {
                    self.read(files, i, open, held)
                })
                .collect()
        };
        let mut hand = |chunk: &[Which], pages: Vec<Result<ReadPage>>| {
            for (&(i, _), page) in chunk.iter().zip(pages) {
                if let Err(e) = page.and_then(|page| sink(i, page)) {
                    errors.push((i, e));
                }
            }
        };
        // The chunk read last, not yet handed on.
        let mut ready: Option<(Vec<Which>, Vec<Result<ReadPage>>)> = None;
        while which.peek().is_some() {
            let chunk: Vec<Which> = which.by_ref().take(self.chunk.max(1)).collect();
            let pages = match ready.take() {
                None => read(&chunk),
                // The cores read this chunk while this thread hands the last one on, so
                // neither waits for the other.
                Some((last, last_pages)) => std::thread::scope(|s| {
                    let reading = std::thread::Builder::new().spawn_scoped(s, || read(&chunk));
                    hand(&last, last_pages);
                    match reading {
                        Ok(reading) => reading
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                        // No thread to spare (a process limit): one after the other.
                        Err(_) => read(&chunk),
                    }
                }),
            };
            ready = Some((chunk, pages));
        }
        if let Some((last, last_pages)) = ready {
            hand(&last, last_pages);
        }
    }
}

/// A file to read: its index, and whether to open it (false for one the router never reads).
type Which = (usize, bool);

/// The most a reading thread's buffer keeps between pages.
const HELD_BUFFER: usize = 1 << 20;

/// What a reading thread keeps from page to page: the folder it last opened a file in, and
/// the buffer pages are read into (not allocated again for every page).
#[derive(Default)]
struct Held {
    dir: HeldDir,
    buf: Vec<u8>,
}

/// The folder of the last file a reading thread opened, held open: files come in folder
/// order, so most are opened by name in it.
#[derive(Default)]
struct HeldDir {
    /// Which folder (its content root and the folder's name, by address and length: the
    /// scan keeps one copy of each) and the folder, when it could be opened.
    held: Option<((usize, usize, usize), Option<fsread::OpenDir>)>,
}

impl HeldDir {
    /// The open folder of `file`, opened when it is another than the last one's; `None` for
    /// a file that is its own root (a mounted single file) or a folder that cannot be opened
    /// (the file is then opened by its path, with that path's error).
    fn open_in(&mut self, file: &SourceFile<'_>) -> Option<&fsread::OpenDir> {
        if file.root.single {
            return None;
        }
        let id = (
            std::ptr::from_ref(file.root) as usize,
            file.dir.as_ptr() as usize,
            file.dir.len(),
        );
        if self.held.as_ref().is_none_or(|(held, _)| *held != id) {
            let opened = fsread::OpenDir::open(&file.dir_path()).ok();
            self.held = Some((id, opened));
        }
        self.held.as_ref().and_then(|(_, d)| d.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lastmod::{Dating, history};
    use crate::pipeline::tests::zola_site;
    use crate::route::RouteContext;

    #[test]
    fn pages_are_handed_on_in_file_order_across_chunks_and_every_bad_one_is_kept() {
        let mut files: Vec<(String, String)> = (0..10)
            .map(|k| (format!("p{k}.md"), "+++\ntitle = \"t\"\n+++\n".to_string()))
            .collect();
        files[3].1 = "+++\ntitle = \n+++\n".into();
        files[8].1 = "+++\ndate = 1\n+++\n".into();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let (_d, settings) = zola_site(&refs, "");
        let scan = crate::scan::scan_site(&settings).unwrap();
        let opts = RunOptions::default();
        let mut reader = Reader::new(&settings, &opts, scan.len());
        reader.chunk = 3;
        let mut seen = Vec::new();
        let mut errors = Vec::new();
        reader.read_each(
            &scan,
            (0..scan.len()).map(|i| (i, true)),
            &mut errors,
            |i, _| {
                seen.push(i);
                // The sink's own refusal is kept like a read error.
                if i == 5 {
                    return Err(Error::input("p5.md", None, "refused"));
                }
                Ok(())
            },
        );
        assert_eq!(seen, vec![0, 1, 2, 4, 5, 6, 7, 9]);
        let bad: Vec<usize> = errors.iter().map(|(i, _)| *i).collect();
        assert_eq!(bad, vec![3, 5, 8]);
        assert_eq!(scan.get(3).rel(), "p3.md");
    }

    #[test]
    fn zola_sections_take_their_turn_in_file_order() {
        // Routes are made in file order whether a file is a section (read first) or a page:
        // the members a section rolls up and the route indices depend on it.
        let (_d, settings) = zola_site(
            &[
                ("_index.md", "+++\n+++\n"),
                ("a.md", "+++\ndate = 2024-01-01\n+++\n"),
                ("b/_index.md", "+++\n+++\n"),
                ("b/c.md", "+++\ndate = 2024-03-01\n+++\n"),
                ("d.md", "+++\ndate = 2024-02-01\n+++\n"),
            ],
            "lastmod = [\"front_matter\", \"published\"]\n",
        );
        let files = crate::scan::scan_site(&settings).unwrap();
        let opts = RunOptions::default();
        let mut reader = Reader::new(&settings, &opts, files.len());
        reader.chunk = 1;
        let ctx = RouteContext {
            settings: &settings,
            now: opts.now,
            served: crate::platform::Forms::of(crate::platform::Platform::Plain),
        };
        let mut router = crate::pipeline::generator(settings.style).router(&files, &ctx);
        let cwd = std::env::current_dir().unwrap();
        let mut dating = Dating::new(&files, &ctx, history::start(&settings), cwd, false);
        reader
            .read_into(&files, router.as_mut(), &mut dating)
            .unwrap();
        let routing = router.finish(&mut dating).unwrap();
        let rels: Vec<String> = routing
            .routes
            .iter()
            .filter_map(|r| r.page().map(|p| files.get(p).rel().to_string()))
            .collect();
        let in_order: Vec<String> = files.iter().map(|f| f.rel().to_string()).collect();
        assert_eq!(rels, in_order);
        // The home rolls up the newest date below it, through section b.
        let (assigned, _, _) = dating.finish(&routing.routes);
        let home = rels.iter().position(|r| r == "_index.md").unwrap();
        assert_eq!(
            assigned.lastmods[home].map(|l| l.date.to_string()),
            Some("2024-03-01".to_string())
        );
    }
}
