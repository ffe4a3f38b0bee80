//! A sitemap set read back whole: one sitemap, or an index and every sitemap it lists, from a
//! file on disk (plain or gzip) or an `http(s)://` URL, as one map of URL -> lastmod. What
//! `diff` compares and `submit` starts from. Each file goes through the one reader
//! ([`super::read`]), which stops a little past the protocol's 50 MB; the set as a whole is
//! bounded in files, URLs and time ([`Limits`]), so a broken or hostile index costs bounded work.

use super::read::{Gzip, Sitemap, SitemapKind};
use crate::vocab::error::{Error, Result};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use url::Url;

/// Each URL and its `<lastmod>` text (`None` when it has none), sorted by URL.
pub type UrlMap = BTreeMap<String, Option<String>>;

/// How much reading one set may cost.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most files: the first one, the parts, nested indexes.
    pub max_files: usize,
    /// Most distinct URLs in all.
    pub max_urls: usize,
    /// Most time for the whole set, checked before each file (each download has its own
    /// timeout besides, in the client).
    pub time: Duration,
}

impl Default for Limits {
    /// 1,000 files (a 28-language Hugo site has 29), 2,000,000 URLs (40 full parts, about
    /// 300 MB of memory), 5 minutes.
    fn default() -> Self {
        Limits {
            max_files: 1_000,
            max_urls: 2_000_000,
            time: Duration::from_secs(300),
        }
    }
}

/// Where a sitemap is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Location {
    /// A file on disk.
    File(PathBuf),
    /// An `http://` or `https://` URL.
    Url(Url),
}

impl Location {
    /// A command-line argument: a URL when it starts with `http://` or `https://` (any case),
    /// else a file.
    pub fn parse(arg: &str) -> Result<Location> {
        let lower = arg.get(..8).unwrap_or(arg).to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Url::parse(arg)
                .map(Location::Url)
                .map_err(|e| Error::remote(arg, format!("not a valid URL: {e}")));
        }
        Ok(Location::File(PathBuf::from(arg)))
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Url(u) => f.write_str(u.as_str()),
        }
    }
}

/// What a command that needs the network says in a build without the cargo feature `net`
/// (off by default: its TLS stack costs a third of the install), and how to get it.
pub const WITHOUT_NET: &str = "this sitemapgen was built without network support: reinstall it with the cargo feature `net` (`cargo install --locked --features net ...`), or use a release binary, which has it";

/// Opens URLs: the HTTP client (feature `net`) does it; tests can stand in for it.
pub trait Fetch {
    /// The body of a successful (2xx) answer for `url`, after redirects; any other answer is
    /// an error that says what the server answered.
    fn open(&self, url: &Url) -> Result<Box<dyn Read + Send>>;
}

#[cfg(feature = "net")]
impl Fetch for crate::net::Client {
    fn open(&self, url: &Url) -> Result<Box<dyn Read + Send>> {
        self.open_sitemap(url)
    }
}

/// A set as read.
#[derive(Clone, Debug, Default)]
pub struct SitemapSet {
    /// Every URL the set lists, with its lastmod.
    pub urls: UrlMap,
    /// Every file read, the first one first.
    pub files: Vec<Location>,
    /// URLs listed more than once (kept once, with the first lastmod read).
    pub repeated: usize,
}

/// Reads the sitemap at `from` and, when it is an index, every sitemap it lists (nested
/// indexes too, each file once), within `limits`. URLs need `fetch`.
///
/// The parts of an index on disk are looked for on disk: the part
/// `https://example.com/en/sitemap.xml` listed by `public/sitemap.xml` is
/// `public/en/sitemap.xml`, else `public/sitemap.xml`'s folder with fewer leading segments of
/// the part's path (an index in a subfolder), the longest that exists.
///
/// Indexes that lead only back to one another (an index listing itself, two listing each
/// other) with no sitemap of URLs anywhere are an error naming the cycle: read as a set they
/// would list no URL, and "every page was removed" would be a false verdict.
pub fn read_set(from: &Location, fetch: Option<&dyn Fetch>, limits: &Limits) -> Result<SitemapSet> {
    let start = Instant::now();
    let mut set = SitemapSet::default();
    // Each file queued, by its place in the queue (which is its place in `set.files` once
    // read); which index lists which file, by those places; how many sitemaps of URLs were read.
    let mut queued: BTreeMap<Location, usize> = BTreeMap::from([(from.clone(), 0)]);
    let mut queue = VecDeque::from([from.clone()]);
    let mut listed: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut url_sets = 0usize;
    while let Some(at) = queue.pop_front() {
        if set.files.len() >= limits.max_files {
            return Err(Error::remote(
                from.to_string(),
                format!(
                    "the set has more than {} sitemap files; reading stopped there",
                    limits.max_files
                ),
            ));
        }
        if start.elapsed() > limits.time {
            return Err(Error::remote(
                from.to_string(),
                format!(
                    "reading the set took longer than {} s ({} files read); stopped there",
                    limits.time.as_secs(),
                    set.files.len()
                ),
            ));
        }
        let sitemap = open(&at, fetch)?;
        let kind = sitemap.root().kind;
        let here = set.files.len();
        set.files.push(at.clone());
        url_sets += usize::from(kind == SitemapKind::UrlSet);
        for entry in sitemap {
            let entry = entry.map_err(|e| Error::remote(at.to_string(), e.to_string()))?;
            if entry.loc.is_empty() {
                continue;
            }
            match kind {
                SitemapKind::UrlSet => {
                    if set.urls.contains_key(&entry.loc) {
                        set.repeated += 1;
                        continue;
                    }
                    if set.urls.len() >= limits.max_urls {
                        return Err(Error::remote(
                            from.to_string(),
                            format!(
                                "the set lists more than {} URLs; reading stopped there",
                                limits.max_urls
                            ),
                        ));
                    }
                    set.urls.insert(entry.loc, entry.lastmod);
                }
                SitemapKind::SitemapIndex => {
                    let part = part_location(&at, &entry.loc).map_err(|m| {
                        Error::remote(at.to_string(), format!("line {}: {m}", entry.line))
                    })?;
                    let next = queued.len();
                    let id = *queued.entry(part).or_insert_with_key(|part| {
                        queue.push_back(part.clone());
                        next
                    });
                    listed.insert((here, id));
                }
            }
        }
    }
    if url_sets == 0
        && let Some(files) = cycle(&listed, set.files.len())
    {
        let names: Vec<&Location> = files.iter().map(|&i| &set.files[i]).collect();
        return Err(Error::remote(from.to_string(), cycle_message(&names)));
    }
    Ok(set)
}

/// A cycle among the files of a set reached from the first one, following `listed` (index ->
/// part, by place in the set's files, `files` of them): the places along it, its first one
/// again at the end.
fn cycle(listed: &BTreeSet<(usize, usize)>, files: usize) -> Option<Vec<usize>> {
    let mut parts: Vec<Vec<usize>> = vec![Vec::new(); files];
    for &(index, part) in listed {
        if index < files && part < files {
            parts[index].push(part);
        }
    }
    // Depth first, without recursion: the path from the first file, and for each file on it
    // the next of its parts to look at. A part already on the path closes a cycle.
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; files];
    let mut path: Vec<(usize, usize)> = Vec::new();
    if files > 0 {
        state[0] = ON_PATH;
        path.push((0, 0));
    }
    while let Some((file, next)) = path.last_mut() {
        let file = *file;
        let Some(&part) = parts[file].get(*next) else {
            state[file] = DONE;
            path.pop();
            continue;
        };
        *next += 1;
        match state[part] {
            NEW => {
                state[part] = ON_PATH;
                path.push((part, 0));
            }
            ON_PATH => {
                let from = path.iter().position(|&(f, _)| f == part)?;
                let mut found: Vec<usize> = path[from..].iter().map(|&(f, _)| f).collect();
                found.push(part);
                return Some(found);
            }
            _ => {}
        }
    }
    None
}

/// What to say of indexes that lead only back to themselves along `files` (a cycle, its
/// first file again at the end).
fn cycle_message(files: &[&Location]) -> String {
    let what = match files {
        [one, _] => format!("{one} lists itself"),
        [first, rest @ ..] => {
            let mut s = format!("{first} lists {}", rest[0]);
            for f in &rest[1..] {
                s.push_str(&format!(", which lists {f}"));
            }
            s
        }
        [] => String::new(),
    };
    format!(
        "{what}: indexes that lead only back to themselves, with no sitemap of URLs, are not a sitemap set; make each index list the sitemaps of the site's URLs"
    )
}

/// Opens one file of the set, read up to its root element.
fn open(at: &Location, fetch: Option<&dyn Fetch>) -> Result<Sitemap<Box<dyn Read + Send>>> {
    let sitemap = match at {
        Location::File(path) => {
            if path.is_dir() {
                return Err(Error::remote(
                    at.to_string(),
                    "is a folder: name the sitemap file in it (sitemap.xml)",
                ));
            }
            Sitemap::open(path, Gzip::ByNameOrMagic)
        }
        Location::Url(url) => {
            let Some(fetch) = fetch else {
                return Err(Error::remote(
                    url.as_str(),
                    format!("{WITHOUT_NET}; or download the file and name it instead"),
                ));
            };
            Sitemap::from_stream(fetch.open(url)?)
        }
    };
    sitemap.map_err(|e| match e {
        super::read::ReadError::Io(io) if matches!(at, Location::File(_)) => {
            Error::io(at.to_string(), io)
        }
        e => Error::remote(at.to_string(), e.to_string()),
    })
}

/// Where the part `loc` listed by the index at `index` is.
fn part_location(index: &Location, loc: &str) -> Result<Location, String> {
    match index {
        Location::Url(base) => {
            let url = base
                .join(loc)
                .map_err(|e| format!("the index lists '{loc}', which is not a URL: {e}"))?;
            match url.scheme() {
                "http" | "https" => Ok(Location::Url(url)),
                s => Err(format!("the index lists '{loc}': a {s}: URL, not http(s)")),
            }
        }
        Location::File(path) => local_part(path, loc).map(Location::File),
    }
}

/// The file on disk for the part `loc` of the index at `index` (see [`read_set`]). A `loc`
/// that is no absolute URL (`fr/sitemap.xml`, as Hugo writes with an empty baseURL) is a
/// path, found the same way.
fn local_part(index: &Path, loc: &str) -> Result<PathBuf, String> {
    let path = match Url::parse(loc) {
        Ok(url) => url.path().to_string(),
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            loc.split(['?', '#']).next().unwrap_or_default().to_string()
        }
        Err(e) => return Err(format!("the index lists '{loc}', which is not a URL: {e}")),
    };
    let segments: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect();
    // A segment that could step out of the folder, or that no file name can be, matches nothing.
    let usable = !segments.is_empty()
        && segments
            .iter()
            .all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '\\']));
    let dir = index.parent().unwrap_or(Path::new(""));
    // Whether a shortened path led only to the index itself: that may be the index listing
    // itself (an index in a subfolder), or a part that is missing.
    let mut only_itself = false;
    if usable {
        for skip in 0..segments.len() {
            let candidate = segments[skip..]
                .iter()
                .fold(dir.to_path_buf(), |p, s| p.join(s));
            if candidate == index {
                // The whole path names the index: it lists itself (`read_set` judges that).
                if skip == 0 {
                    return Ok(candidate);
                }
                only_itself = true;
            } else if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(format!(
        "the index lists {loc}, which is not on disk below {} (looked for {}{}); diff the deployed index by its URL instead",
        if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }
        .display(),
        segments
            .last()
            .map_or("a file name".to_string(), |s| format!("…/{s}")),
        if only_itself {
            ", and found only this index itself"
        } else {
            ""
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

    fn urlset(urls: &[(&str, Option<&str>)]) -> String {
        let mut s =
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"{NS}\">\n");
        for (loc, lm) in urls {
            s.push_str(&format!("<url><loc>{loc}</loc>"));
            if let Some(lm) = lm {
                s.push_str(&format!("<lastmod>{lm}</lastmod>"));
            }
            s.push_str("</url>\n");
        }
        s + "</urlset>\n"
    }

    fn index(parts: &[&str]) -> String {
        let mut s =
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"{NS}\">\n");
        for p in parts {
            s.push_str(&format!("<sitemap><loc>{p}</loc></sitemap>\n"));
        }
        s + "</sitemapindex>\n"
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn gzip(text: &str) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn an_index_on_disk_is_followed_to_its_parts_below_its_folder() {
        let d = tempfile::tempdir().unwrap();
        let public = d.path().join("public");
        write(
            &public.join("sitemap.xml"),
            &index(&[
                "https://e.com/blog/en/sitemap.xml",
                "https://e.com/blog/fr/sitemap.xml",
                "https://e.com/blog/en/sitemap.xml",
            ]),
        );
        write(
            &public.join("en/sitemap.xml"),
            &urlset(&[("https://e.com/blog/en/a/", Some("2024-01-01"))]),
        );
        std::fs::create_dir_all(public.join("fr")).unwrap();
        let fr = urlset(&[
            ("https://e.com/blog/fr/a/", None),
            ("https://e.com/blog/en/a/", None),
        ]);
        std::fs::write(public.join("fr/sitemap.xml"), gzip(&fr)).unwrap();
        let set = read_set(
            &Location::File(public.join("sitemap.xml")),
            None,
            &Limits::default(),
        )
        .unwrap();
        let got: Vec<(&str, Option<&str>)> = set
            .urls
            .iter()
            .map(|(u, l)| (u.as_str(), l.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("https://e.com/blog/en/a/", Some("2024-01-01")),
                ("https://e.com/blog/fr/a/", None)
            ]
        );
        assert_eq!(set.files.len(), 3);
        assert_eq!(set.repeated, 1);
    }

    #[test]
    fn a_part_missing_on_disk_says_where_it_was_looked_for() {
        let d = tempfile::tempdir().unwrap();
        write(
            &d.path().join("sitemap.xml"),
            &index(&["https://e.com/sitemap1.xml"]),
        );
        let err = read_set(
            &Location::File(d.path().join("sitemap.xml")),
            None,
            &Limits::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(
                "line 3: the index lists https://e.com/sitemap1.xml, which is not on disk"
            ),
            "{err}"
        );
        // A relative part (Hugo with an empty baseURL) is found below the index's folder.
        write(
            &d.path().join("sitemap.xml"),
            &index(&["fr/sitemap.xml", "/en/sitemap.xml"]),
        );
        write(&d.path().join("fr/sitemap.xml"), &urlset(&[("/fr/", None)]));
        write(&d.path().join("en/sitemap.xml"), &urlset(&[("/", None)]));
        let from = Location::File(d.path().join("sitemap.xml"));
        let set = read_set(&from, None, &Limits::default()).unwrap();
        assert_eq!(set.urls.keys().collect::<Vec<_>>(), ["/", "/fr/"]);
        // An index listing itself besides its parts is read once.
        write(
            &d.path().join("sitemap.xml"),
            &index(&["https://e.com/sitemap.xml", "fr/sitemap.xml"]),
        );
        let set = read_set(&from, None, &Limits::default()).unwrap();
        assert_eq!(set.urls.keys().collect::<Vec<_>>(), ["/fr/"]);
        assert_eq!(set.files.len(), 2);
        // Listing only itself, it is no set, and the error says it lists itself.
        write(
            &d.path().join("sitemap.xml"),
            &index(&["https://e.com/sitemap.xml"]),
        );
        let err = read_set(&from, None, &Limits::default())
            .unwrap_err()
            .to_string();
        let me = d.path().join("sitemap.xml");
        assert!(
            err.starts_with(&format!("{0}: {0} lists itself: ", me.display())),
            "{err}"
        );
        // A part found only by shortening its path to the index itself is missing, or the
        // index itself: the error says both.
        write(
            &d.path().join("sitemap.xml"),
            &index(&["https://e.com/blog/sitemap.xml"]),
        );
        let err = read_set(&from, None, &Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not on disk below") && err.contains("found only this index itself"),
            "{err}"
        );
    }

    #[test]
    fn indexes_that_lead_only_back_to_themselves_are_an_error_naming_the_cycle() {
        let d = tempfile::tempdir().unwrap();
        let (i1, i2, i3) = (
            d.path().join("i1.xml"),
            d.path().join("i2.xml"),
            d.path().join("i3.xml"),
        );
        write(&i1, &index(&["https://e.com/i2.xml"]));
        write(
            &i2,
            &index(&["https://e.com/i3.xml", "https://e.com/i1.xml"]),
        );
        write(&i3, &index(&["https://e.com/i2.xml"]));
        let err = read_set(&Location::File(i1.clone()), None, &Limits::default())
            .unwrap_err()
            .to_string();
        let (i1, i2) = (i1.display(), i2.display());
        assert!(
            err.starts_with(&format!(
                "{i1}: {i1} lists {i2}, which lists {i1}: indexes that lead only back"
            )),
            "{err}"
        );
        // A longer cycle is named along its whole length.
        let k = |n: u8| d.path().join(format!("k{n}.xml"));
        write(&k(1), &index(&["https://e.com/k2.xml"]));
        write(&k(2), &index(&["https://e.com/k3.xml"]));
        write(&k(3), &index(&["https://e.com/k1.xml"]));
        let err = read_set(&Location::File(k(1)), None, &Limits::default())
            .unwrap_err()
            .to_string();
        let (k1, k2, k3) = (k(1), k(2), k(3));
        let (k1, k2, k3) = (k1.display(), k2.display(), k3.display());
        assert!(
            err.contains(&format!(
                "{k1} lists {k2}, which lists {k3}, which lists {k1}: "
            )),
            "{err}"
        );
        // Over HTTP, two indexes listing each other.
        let fake = Fake(
            BTreeMap::from([
                (
                    "https://e.com/a.xml".to_string(),
                    index(&["/b.xml"]).into_bytes(),
                ),
                (
                    "https://e.com/b.xml".to_string(),
                    index(&["https://e.com/a.xml"]).into_bytes(),
                ),
                (
                    "https://e.com/self.xml".to_string(),
                    index(&["https://e.com/self.xml"]).into_bytes(),
                ),
            ]),
            Default::default(),
        );
        let a = Location::parse("https://e.com/a.xml").unwrap();
        let err = read_set(&a, Some(&fake), &Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("https://e.com/a.xml: https://e.com/a.xml lists https://e.com/b.xml, which lists https://e.com/a.xml: "),
            "{err}"
        );
        let me = Location::parse("https://e.com/self.xml").unwrap();
        let err = read_set(&me, Some(&fake), &Limits::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("self.xml lists itself"), "{err}");
        // Indexes that share a part, or an index with no entry, are no cycle: an empty set.
        write(
            d.path().join("j1.xml").as_path(),
            &index(&["https://e.com/j2.xml", "https://e.com/j3.xml"]),
        );
        write(
            d.path().join("j2.xml").as_path(),
            &index(&["https://e.com/j3.xml"]),
        );
        write(d.path().join("j3.xml").as_path(), &index(&[]));
        let set = read_set(
            &Location::File(d.path().join("j1.xml")),
            None,
            &Limits::default(),
        )
        .unwrap();
        assert!(set.urls.is_empty());
        assert_eq!(set.files.len(), 3);
    }

    /// A stand-in for the network: URLs to bodies, and a count of what was opened.
    struct Fake(BTreeMap<String, Vec<u8>>, std::cell::Cell<usize>);

    impl Fetch for Fake {
        fn open(&self, url: &Url) -> Result<Box<dyn Read + Send>> {
            self.1.set(self.1.get() + 1);
            match self.0.get(url.as_str()) {
                Some(b) => Ok(Box::new(std::io::Cursor::new(b.clone()))),
                None => Err(Error::remote(url.as_str(), "HTTP 404")),
            }
        }
    }

    #[test]
    fn urls_are_fetched_nested_indexes_and_cycles_included_within_the_file_limit() {
        let fake = Fake(
            BTreeMap::from([
                (
                    "https://e.com/sitemap.xml".to_string(),
                    index(&["/a.xml.gz", "https://e.com/nested.xml"]).into_bytes(),
                ),
                (
                    "https://e.com/a.xml.gz".to_string(),
                    gzip(&urlset(&[("https://e.com/x", Some("2024-02-02"))])),
                ),
                (
                    "https://e.com/nested.xml".to_string(),
                    index(&["https://e.com/sitemap.xml", "https://e.com/b.xml"]).into_bytes(),
                ),
                (
                    "https://e.com/b.xml".to_string(),
                    urlset(&[("https://e.com/y", None)]).into_bytes(),
                ),
            ]),
            Default::default(),
        );
        let from = Location::parse("https://e.com/sitemap.xml").unwrap();
        let set = read_set(&from, Some(&fake), &Limits::default()).unwrap();
        assert_eq!(
            set.urls.keys().collect::<Vec<_>>(),
            ["https://e.com/x", "https://e.com/y"]
        );
        assert_eq!(fake.1.get(), 4);
        let few = Limits {
            max_files: 2,
            ..Limits::default()
        };
        let err = read_set(&from, Some(&fake), &few).unwrap_err().to_string();
        assert_eq!(
            err,
            "https://e.com/sitemap.xml: the set has more than 2 sitemap files; reading stopped there"
        );
        let few = Limits {
            max_urls: 1,
            ..Limits::default()
        };
        let err = read_set(&from, Some(&fake), &few).unwrap_err().to_string();
        assert!(err.contains("more than 1 URLs"), "{err}");
        let err = read_set(&from, None, &Limits::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("without network support"), "{err}");
        assert!(err.contains("--features net"), "{err}");
    }

    #[test]
    fn arguments_are_urls_only_with_an_http_scheme() {
        assert!(matches!(
            Location::parse("HTTPS://e.com/s.xml"),
            Ok(Location::Url(_))
        ));
        assert!(matches!(
            Location::parse("public/sitemap.xml"),
            Ok(Location::File(_))
        ));
        assert!(matches!(Location::parse("ftp.xml"), Ok(Location::File(_))));
        assert!(Location::parse("https://").is_err());
    }
}
