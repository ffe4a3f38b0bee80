//! Which host serves the site, from the files it ships: `netlify.toml`, `vercel.json`,
//! `wrangler.toml`, a deploy step in a GitHub workflow, a `CNAME` or `.nojekyll`, a
//! `_redirects` file. The strongest signal wins (a host's own config file over a file
//! several hosts read), and the reason is kept for `--verbose`.

use super::Platform;
use std::path::{Path, PathBuf};

/// Where the files a host reads were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostFiles {
    /// `netlify.toml`.
    pub netlify_toml: Option<PathBuf>,
    /// `vercel.json`.
    pub vercel_json: Option<PathBuf>,
    /// `wrangler.toml`, `wrangler.json` or `wrangler.jsonc`.
    pub wrangler: Option<PathBuf>,
    /// `_redirects`: the output folder's, else the one in `static/` the build copies.
    pub redirects: Option<PathBuf>,
    /// `CNAME` or `.nojekyll` (GitHub Pages).
    pub github_pages: Option<PathBuf>,
    /// A GitHub workflow that deploys to a host, and which.
    pub workflow: Option<(PathBuf, Platform)>,
}

/// The detected host and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    /// The host.
    pub platform: Platform,
    /// Why, for `--verbose`: the file that decided, and the others found.
    pub why: String,
    /// The file that decided, in a few words (`netlify.toml is there`).
    pub reason: String,
    /// The files found.
    pub files: HostFiles,
}

/// The largest file read to detect a host (a workflow).
const MAX_DETECT_BYTES: u64 = 256 * 1024;

/// Finds the host's files for a site (`site_dir`, its `output_dir` and `static/`), looking
/// in the site folder and the folders above it up to the repository's root (a monorepo
/// keeps `netlify.toml` at the top), and names the host they point to.
pub fn detect(site_dir: &Path, output_dir: &Path) -> Detected {
    let files = find_files(site_dir, output_dir);
    let (platform, reason, why) = decide(&files);
    Detected {
        platform,
        why,
        reason,
        files,
    }
}

/// The folders a host's config may lie in: the site folder, then each folder above it up to
/// the one holding `.git` (none above the site when there is no repository).
fn config_dirs(site_dir: &Path) -> Vec<PathBuf> {
    let abs = std::path::absolute(site_dir).unwrap_or_else(|_| site_dir.to_path_buf());
    let mut dirs = Vec::new();
    for dir in abs.ancestors() {
        dirs.push(dir.to_path_buf());
        if dir.join(".git").exists() {
            return dirs;
        }
    }
    dirs.truncate(1);
    dirs
}

fn find_files(site_dir: &Path, output_dir: &Path) -> HostFiles {
    let dirs = config_dirs(site_dir);
    let first = |names: &[&str]| {
        dirs.iter()
            .flat_map(|d| names.iter().map(move |n| d.join(n)))
            .find(|p| present(p))
    };
    let static_dir = site_dir.join("static");
    let in_site = |name: &str| deployed(output_dir.join(name), static_dir.join(name));
    let workflow = dirs.last().and_then(|root| deploy_workflow(root));
    HostFiles {
        netlify_toml: first(&["netlify.toml"]),
        vercel_json: first(&["vercel.json"]),
        wrangler: first(&["wrangler.toml", "wrangler.json", "wrangler.jsonc"]),
        redirects: in_site("_redirects"),
        github_pages: in_site("CNAME").or_else(|| in_site(".nojekyll")),
        workflow,
    }
}

/// Which of a file's two copies the next deploy serves: the built one (`public/_redirects`),
/// unless the source the build copies it from (`static/_redirects`) changed after it was
/// copied, or the build has none. A built copy with no source is one the generator wrote (a
/// template's) and is taken as it is.
pub fn deployed(built: PathBuf, source: PathBuf) -> Option<PathBuf> {
    let mtime = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (present(&built), present(&source)) {
        (true, true) if mtime(&source) > mtime(&built) => Some(source),
        (true, _) => Some(built),
        (false, true) => Some(source),
        (false, false) => None,
    }
}

/// Whether something that is not a folder is at `path` (a FIFO or a dangling link too: the
/// reader then says what is wrong with it).
fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir())
}

/// The host a GitHub workflow of the repository at `root` deploys to, by the deploy steps
/// each host documents.
fn deploy_workflow(root: &Path) -> Option<(PathBuf, Platform)> {
    const STEPS: [(&str, Platform); 12] = [
        ("cloudflare/pages-action", Platform::CloudflarePages),
        ("cloudflare/wrangler-action", Platform::CloudflarePages),
        ("wrangler pages deploy", Platform::CloudflarePages),
        ("nwtgck/actions-netlify", Platform::Netlify),
        ("netlify deploy", Platform::Netlify),
        ("netlify/actions", Platform::Netlify),
        ("amondnet/vercel-action", Platform::Vercel),
        ("vercel deploy", Platform::Vercel),
        ("actions/deploy-pages", Platform::GithubPages),
        ("peaceiris/actions-gh-pages", Platform::GithubPages),
        (
            "jamesives/github-pages-deploy-action",
            Platform::GithubPages,
        ),
        ("actions/upload-pages-artifact", Platform::GithubPages),
    ];
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(".github/workflows"))
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    files.into_iter().find_map(|path| {
        let text = read_small(&path)?.to_ascii_lowercase();
        STEPS
            .iter()
            .find(|(step, _)| text.contains(step))
            .map(|(_, platform)| (path, *platform))
    })
}

/// A regular file's text, when it is no larger than [`MAX_DETECT_BYTES`].
fn read_small(path: &Path) -> Option<String> {
    let bytes = crate::vocab::fsread::read(path, MAX_DETECT_BYTES).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The host the files point to, the signal that decided, and why in full (with the other
/// signals found), strongest signal first.
fn decide(files: &HostFiles) -> (Platform, String, String) {
    let signals: Vec<(Platform, String)> = [
        files
            .netlify_toml
            .as_ref()
            .map(|p| (Platform::Netlify, format!("{} is there", p.display()))),
        files
            .vercel_json
            .as_ref()
            .map(|p| (Platform::Vercel, format!("{} is there", p.display()))),
        files
            .wrangler
            .as_ref()
            .map(|p| (Platform::CloudflarePages, format!("{} is there", p.display()))),
        files.workflow.as_ref().map(|(p, platform)| {
            (*platform, format!("the workflow {} deploys to it", p.display()))
        }),
        files
            .github_pages
            .as_ref()
            .map(|p| (Platform::GithubPages, format!("{} is there", p.display()))),
        files.redirects.as_ref().map(|p| {
            (
                Platform::Netlify,
                format!(
                    "{} is there (Cloudflare Pages reads it too: set host = \"cloudflare-pages\" if it serves the site)",
                    p.display()
                ),
            )
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    let Some((platform, why)) = signals.first().cloned() else {
        let none = "no host's file is there (netlify.toml, vercel.json, wrangler.toml, _redirects, CNAME, a deploy workflow)";
        return (Platform::Plain, none.to_string(), none.to_string());
    };
    let reason = why.clone();
    let others: Vec<String> = signals[1..]
        .iter()
        .filter(|(p, _)| *p != platform)
        .map(|(p, why)| format!("{why} ({p})"))
        .collect();
    let why = if others.is_empty() {
        why
    } else {
        format!("{why}; also found, and passed over: {}", others.join("; "))
    };
    (platform, reason, why)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository with a site in `site/`: `files` are `path=text` below the site, or below
    /// the repository's root when they start with `/`.
    fn platform(files: &[&str]) -> (Platform, String) {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join(".git")).unwrap();
        let s = d.path().join("site");
        std::fs::create_dir_all(&s).unwrap();
        for f in files {
            let (name, text) = f.split_once('=').unwrap_or((f, ""));
            let p = match name.strip_prefix('/') {
                Some(top) => d.path().join(top),
                None => s.join(name),
            };
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let found = detect(&s, &s.join("public"));
        (found.platform, found.why)
    }

    #[test]
    fn each_hosts_files() {
        assert_eq!(platform(&[]).0, Platform::Plain);
        assert_eq!(platform(&["netlify.toml"]).0, Platform::Netlify);
        assert_eq!(
            platform(&["/netlify.toml"]).0,
            Platform::Netlify,
            "a monorepo's"
        );
        assert_eq!(platform(&["vercel.json"]).0, Platform::Vercel);
        assert_eq!(platform(&["wrangler.toml"]).0, Platform::CloudflarePages);
        assert_eq!(platform(&["static/CNAME"]).0, Platform::GithubPages);
        assert_eq!(platform(&["public/.nojekyll"]).0, Platform::GithubPages);
        let (p, why) = platform(&["static/_redirects"]);
        assert_eq!(p, Platform::Netlify);
        assert!(why.contains("cloudflare-pages"), "{why}");
    }

    #[test]
    fn a_deploy_workflow_says_which_host_reads_redirects() {
        let (p, why) = platform(&[
            "/.github/workflows/deploy.yml=steps:\n  - uses: cloudflare/wrangler-action@v3\n",
            "static/_redirects",
        ]);
        assert_eq!(p, Platform::CloudflarePages);
        assert!(why.contains("deploy.yml deploys to it"), "{why}");
        assert!(why.contains("passed over"), "{why}");
        let (p, _) = platform(&[
            "/.github/workflows/pages.yaml=- uses: actions/deploy-pages@v4\n",
            "netlify.toml",
        ]);
        assert_eq!(p, Platform::Netlify, "a host's own config file first");
    }

    #[test]
    fn the_built_copy_unless_its_source_changed_since() {
        let d = tempfile::tempdir().unwrap();
        let built = d.path().join("public/_redirects");
        let source = d.path().join("static/_redirects");
        assert_eq!(deployed(built.clone(), source.clone()), None);
        std::fs::create_dir_all(source.parent().unwrap()).unwrap();
        std::fs::write(&source, "/a /b\n").unwrap();
        assert_eq!(
            deployed(built.clone(), source.clone()),
            Some(source.clone())
        );
        std::fs::create_dir_all(built.parent().unwrap()).unwrap();
        std::fs::write(&built, "/a /b\n").unwrap();
        let at = |p: &Path, secs: u64| {
            let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs);
            std::fs::File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(t)
                .unwrap();
        };
        at(&source, 1_000);
        at(&built, 2_000);
        assert_eq!(deployed(built.clone(), source.clone()), Some(built.clone()));
        // Edited after the last build: the next build deploys the edited one.
        at(&source, 3_000);
        assert_eq!(
            deployed(built.clone(), source.clone()),
            Some(source.clone())
        );
        // A generator's own (no source).
        std::fs::remove_file(&source).unwrap();
        assert_eq!(deployed(built.clone(), source), Some(built));
    }

    #[test]
    fn nothing_above_the_site_without_a_repository() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("netlify.toml"), "").unwrap();
        let s = d.path().join("site");
        std::fs::create_dir_all(&s).unwrap();
        assert_eq!(detect(&s, &s.join("public")).platform, Platform::Plain);
    }
}
