//! Helpers shared by the integration tests: run the binary, read sitemaps, validate them.
#![allow(dead_code)]

pub mod gitrepo;
pub mod history;
pub mod http;
pub mod parity;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Sets, before any test starts (so before any thread can read the environment), the
/// environment of this test run, for the library calls in this process and for every program
/// it starts:
/// - a cache folder: the records of the files sitemapgen wrote (src/sitemap/owned.rs) for the
///   hundreds of temporary sites the tests build go there, not into the user's
///   `~/.cache/sitemapgen`, where they stayed after their sites were gone and every later
///   build listed them all (in memory with the temporary folder when that is there: each
///   record is written with an fsync);
/// - the temporary folder (`TMPDIR`), in memory where the machine has a tmpfs at `/dev/shm`
///   and no `TMPDIR` was set: the suite makes and deletes tens of thousands of files (sites,
///   git repositories, sitemaps), and on a disk file system that is a fifth of its CPU time;
/// - for git, no template copied into each new repository and no housekeeping process started
///   after each commit (thousands of commits make the tests' histories);
/// - two tests a core at once (`RUST_TEST_THREADS`, when neither it nor `--test-threads` is
///   given): a third of the tests' time is spent waiting on the programs they start and on
///   timers, and one test a core left the cores a tenth idle (see docs/performance.md).
///
/// Each folder is one per run; a new run removes those of runs that have ended.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static TEST_ENVIRONMENT: extern "C" fn() = test_environment;

#[cfg(target_os = "linux")]
extern "C" fn test_environment() {
    // SAFETY (each set_var): this runs before `main`, when no other thread exists.
    if std::env::var_os("RUST_TEST_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        unsafe { std::env::set_var("RUST_TEST_THREADS", (2 * cores).to_string()) };
    }
    let memory = Path::new("/dev/shm");
    let in_memory = (std::env::var_os("TMPDIR").is_none() && memory.is_dir())
        .then(|| folder_of_this_run(&memory.join("sitemapgen-tests")))
        .flatten();
    let cache = match &in_memory {
        Some(run) => Some(run.join("cache-home")),
        None => folder_of_this_run(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache-home")),
    };
    if let Some(dir) = cache {
        unsafe { std::env::set_var("XDG_CACHE_HOME", dir) };
    }
    if let Some(dir) = in_memory {
        unsafe { std::env::set_var("TMPDIR", dir) };
    }
    if std::env::var_os("GIT_CONFIG_COUNT").is_none() {
        let config = [("init.templateDir", ""), ("maintenance.auto", "false")];
        unsafe { std::env::set_var("GIT_CONFIG_COUNT", config.len().to_string()) };
        for (i, (key, value)) in config.iter().enumerate() {
            unsafe { std::env::set_var(format!("GIT_CONFIG_KEY_{i}"), key) };
            unsafe { std::env::set_var(format!("GIT_CONFIG_VALUE_{i}"), value) };
        }
    }
}

/// `root/<this process id>`, made anew, after removing the folders in `root` of processes
/// that have ended.
#[cfg(target_os = "linux")]
fn folder_of_this_run(root: &Path) -> Option<PathBuf> {
    let mine = std::process::id().to_string();
    for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let ended = name
            .to_str()
            .is_none_or(|pid| pid == mine || !Path::new("/proc").join(pid).exists());
        if ended {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = root.join(mine);
    std::fs::create_dir_all(&dir).ok().map(|()| dir)
}

/// Runs the sitemapgen binary with `args` in `cwd`.
pub fn run(cwd: &Path, args: &[&str]) -> Output {
    run_bin(Path::new(env!("CARGO_BIN_EXE_sitemapgen")), cwd, args)
}

/// Runs the sitemapgen binary at `bin` (e.g. a release build) with `args` in `cwd`.
pub fn run_bin(bin: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env_remove("SOURCE_DATE_EPOCH")
        // CI turns on git_fetch = "auto": a test that wants it sets CI itself.
        .env_remove("CI")
        // Hugo's rules depend on its version, which sitemapgen otherwise asks a `hugo` on
        // PATH for: tests follow the current Hugo unless they name another.
        .env("HUGO_VERSION", CURRENT_HUGO)
        .output()
        .expect("the binary runs")
}

/// The Hugo version tests follow unless they name one (sitemapgen's default).
pub const CURRENT_HUGO: &str = "0.168.0";

/// Runs the sitemapgen binary in the site folder `site` with `args` and `--site SITE`.
pub fn run_site(site: &Path, args: &[&str]) -> Output {
    let mut all = args.to_vec();
    all.extend(["--site", site.to_str().expect("a UTF-8 temporary path")]);
    run(site, &all)
}

/// Output's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Output's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Output's stdout and stderr as text, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The mtime every test file gets, so mtime-derived dates are fixed: 2020-01-01T00:00:00Z.
pub const TEST_MTIME_SECS: u64 = 1_577_836_800;

/// Writes `files` (path, contents) below `root`, each with the mtime [`TEST_MTIME_SECS`].
pub fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (path, body) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, body).unwrap();
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(TEST_MTIME_SECS);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
}

/// Percent-decodes a URL (for comparing URL sets as the parity README asks).
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// XML-unescapes the five predefined entities and numeric references.
pub fn xml_unescape(s: &str) -> String {
    quick_xml::escape::unescape(s)
        .map(|c| c.into_owned())
        .unwrap_or_else(|_| s.to_string())
}

/// Every `<loc>` of `<url>` entries in a sitemap file, decoded.
pub fn url_locs(xml: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<url>") {
        rest = &rest[start..];
        let end = rest.find("</url>").unwrap_or(rest.len());
        let block = &rest[..end];
        if let (Some(a), Some(b)) = (block.find("<loc>"), block.find("</loc>")) {
            out.insert(percent_decode(&xml_unescape(block[a + 5..b].trim())));
        }
        rest = &rest[end..];
    }
    out
}

/// The shared schemas folder, when this checkout sits beside it (CI and developers' machines).
pub fn shared_dir() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    p.join("schemas/validate.sh").is_file().then_some(p)
}

/// Whether xmllint runs here: asked once per test run, not once per validation (a process
/// each time, for hundreds of sitemaps).
pub fn xmllint_installed() -> bool {
    static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *INSTALLED.get_or_init(|| Command::new("xmllint").arg("--version").output().is_ok())
}

/// Validates sitemap files with ../shared/schemas/validate.sh when it and xmllint are there.
/// A file whose bytes (and `.gz` name or not) validate.sh already accepted in this run is not
/// given to it again: many tests write the same sitemap, and each check costs two xmllint runs
/// that load the XSDs anew.
pub fn validate_with_xsd(files: &[PathBuf]) {
    use std::hash::{Hash, Hasher};
    static ACCEPTED: std::sync::Mutex<BTreeSet<u64>> = std::sync::Mutex::new(BTreeSet::new());
    let Some(shared) = shared_dir() else {
        eprintln!("note: ../shared/schemas not found: XSD validation skipped");
        return;
    };
    if !xmllint_installed() {
        eprintln!("note: xmllint not installed: XSD validation skipped");
        return;
    }
    let key = |file: &PathBuf| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        file.to_string_lossy().ends_with(".gz").hash(&mut h);
        std::fs::read(file).ok().hash(&mut h);
        h.finish()
    };
    let keys: Vec<u64> = files.iter().map(key).collect();
    let fresh: Vec<&PathBuf> = {
        let accepted = ACCEPTED.lock().unwrap();
        files
            .iter()
            .zip(&keys)
            .filter(|(_, k)| !accepted.contains(k))
            .map(|(f, _)| f)
            .collect()
    };
    if fresh.is_empty() {
        return;
    }
    let out = Command::new(shared.join("schemas/validate.sh"))
        .args(&fresh)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "validate.sh rejected {fresh:?}:\n{}",
        text(&out)
    );
    ACCEPTED.lock().unwrap().extend(keys);
}

/// `FUZZ_SEED` when set (to replay a run), else one from the clock.
pub fn seed_from_env() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
}

/// xorshift64*: enough randomness for the fuzz harnesses, no dependency, repeatable from a
/// seed (the one generator both use, so a printed seed repeats a run).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// One of `xs`, which must not be empty.
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// The `<urlset>` files a sitemap set reaches from `dir/name`: the file itself, or, when it
/// is an index, the files its `<loc>`s name, followed on disk below `dir` (each loc's path
/// matched by its longest tail that is a file there, so a base path such as `/docs/` needs no
/// telling). Panics when an index names a file that is not there.
pub fn set_files(dir: &Path, name: &str) -> Vec<PathBuf> {
    let path = dir.join(name);
    let xml = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if !xml.contains("<sitemapindex") {
        return vec![path];
    }
    let mut out = Vec::new();
    for block in xml.split("<sitemap>").skip(1) {
        let (a, b) = (block.find("<loc>").unwrap(), block.find("</loc>").unwrap());
        let loc = percent_decode(&xml_unescape(block[a + 5..b].trim()));
        let url_path = loc.splitn(4, '/').nth(3).unwrap_or_default();
        let segments: Vec<&str> = url_path.split('/').collect();
        let tail = (0..segments.len())
            .map(|k| segments[k..].join("/"))
            .find(|t| dir.join(t).is_file())
            .unwrap_or_else(|| panic!("{}: {loc} is not below {}", path.display(), dir.display()));
        out.extend(set_files(dir, &tail));
    }
    out
}

/// The text of every `<urlset>` file of the set `dir/name` reaches (see [`set_files`]),
/// one after another; the index and each file are validated against the schema.
pub fn set_text(dir: &Path, name: &str) -> String {
    let files = set_files(dir, name);
    let mut all = files.clone();
    if files != [dir.join(name)] {
        all.push(dir.join(name));
    }
    validate_with_xsd(&all);
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}
