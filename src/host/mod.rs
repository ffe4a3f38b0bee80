//! The host: what the platform that serves the built site does with its files, which no
//! generator's sitemap looks at. A listed URL that a host rule redirects, that is served in
//! another form, or that the site's robots.txt keeps crawlers from is not a URL to submit.
//!
//! - [`detect()`]: which host (`netlify`, `cloudflare-pages`, `vercel`, `github-pages`,
//!   `plain`) from the files a site ships, and why;
//! - [`rules`]: the redirect rules of `_redirects` (Netlify's and Cloudflare's dialects),
//!   `netlify.toml` and `vercel.json`, one matcher for all;
//! - [`served`] (from [`crate::platform`]): the form of a URL the host answers with 200
//!   (`.html` dropped, a folder's trailing slash);
//! - [`robots`]: robots.txt as RFC 9309 reads it.
//!
//! Plain data in (file texts, paths), plain data out; nothing here prints.

pub mod detect;
pub mod judge;
mod netlify;
pub mod robots;
pub mod rules;
mod vercel;

pub use crate::platform::{FileKind, Forms, HostSetting, Platform, served};
pub use detect::{Detected, HostFiles, detect};
pub use rules::{Judged, Origin, Request, Rule, RuleSet, Target};

use crate::vocab::fsread;
use rules::Dialect;
use std::path::{Path, PathBuf};

/// The largest rule file read (`_redirects`, `netlify.toml`, `vercel.json`): far above what
/// the hosts accept (Cloudflare takes 2,100 rules of at most 1,000 characters).
pub const MAX_RULE_FILE_BYTES: u64 = 16 << 20;

/// What the host does with a site's URLs: its redirect rules and the forms it serves them in.
#[derive(Clone, Debug)]
pub struct HostRules {
    /// The platform.
    pub platform: Platform,
    /// Its redirect rules, in the order it tries them.
    pub rules: RuleSet,
    /// The forms it serves URLs in.
    pub forms: Forms,
    /// Rule lines the host ignores, files that could not be read.
    pub warnings: Vec<String>,
    /// For `--verbose`: which host and why, which files were read.
    pub notes: Vec<String>,
    /// Which host, and the rule files found that it does not read: one line said by default,
    /// as it changes what is listed (none for a plain host with no rule file).
    pub decision: Option<String>,
}

/// The texts of a host's rule files, each with where it was read.
#[derive(Clone, Debug, Default)]
pub struct RuleTexts {
    /// `_redirects`.
    pub redirects: Option<(PathBuf, String)>,
    /// `netlify.toml`.
    pub netlify_toml: Option<(PathBuf, String)>,
    /// `vercel.json`.
    pub vercel_json: Option<(PathBuf, String)>,
}

impl HostRules {
    /// The host `setting` names (or the detected one) for a site, with its rules read from
    /// the files found. `origin` is the site's `scheme://host[:port]`.
    pub fn load(
        setting: HostSetting,
        site_dir: &Path,
        output_dir: &Path,
        origin: &str,
    ) -> HostRules {
        let found = detect(site_dir, output_dir);
        let (platform, why, reason) = match setting {
            HostSetting::Auto => (found.platform, found.why.clone(), found.reason.clone()),
            HostSetting::Fixed(p) => {
                let set = "set by `host` in sitemap.toml or `--host`".to_string();
                (p, set.clone(), set)
            }
        };
        let mut warnings = Vec::new();
        let output = fsread::Folder::new(output_dir).ok();
        let mut read = |path: &Option<PathBuf>| {
            let path = path.as_ref()?;
            let inside = output.as_ref().filter(|_| path.starts_with(output_dir));
            match read_rule_file(path, inside) {
                Ok(text) => Some((path.clone(), text)),
                Err(e) => {
                    warnings.push(format!("{}: {e}; its rules are not read", path.display()));
                    None
                }
            }
        };
        let texts = match platform {
            Platform::Netlify => RuleTexts {
                redirects: read(&found.files.redirects),
                netlify_toml: read(&found.files.netlify_toml),
                ..Default::default()
            },
            Platform::CloudflarePages => RuleTexts {
                redirects: read(&found.files.redirects),
                ..Default::default()
            },
            Platform::Vercel => RuleTexts {
                vercel_json: read(&found.files.vercel_json),
                ..Default::default()
            },
            Platform::GithubPages | Platform::Plain => RuleTexts::default(),
        };
        let mut host = HostRules::from_texts(platform, &texts, origin);
        host.notes.insert(0, format!("host: {platform} ({why})"));
        host.decision = decision(platform, &reason, &found.files);
        warnings.append(&mut host.warnings);
        host.warnings = warnings;
        host
    }

    /// The host `platform` with the rules of `texts`.
    pub fn from_texts(platform: Platform, texts: &RuleTexts, origin: &str) -> HostRules {
        let mut rules = Vec::new();
        let mut warnings = Vec::new();
        let mut notes = Vec::new();
        let mut forms = Forms::of(platform);
        let mut take = |read: netlify::Read, notes: &mut Vec<String>, file: &Path| {
            notes.push(format!(
                "{}: {} read",
                file.display(),
                count_rules(read.rules.len())
            ));
            rules.extend(read.rules);
            warnings.extend(read.warnings);
        };
        let dialect = match platform {
            Platform::Netlify => {
                if let Some((file, text)) = &texts.redirects {
                    take(netlify::netlify_redirects(text, file), &mut notes, file);
                }
                if let Some((file, text)) = &texts.netlify_toml {
                    let read = netlify::netlify_toml(text, file);
                    if read.pretty_urls == Some(false) {
                        forms.pretty_urls = false;
                        notes.push(format!(
                            "{}: pretty_urls = false: Netlify serves a folder's URL without its slash too",
                            file.display()
                        ));
                    }
                    take(read, &mut notes, file);
                }
                Dialect::Netlify
            }
            Platform::CloudflarePages => {
                if let Some((file, text)) = &texts.redirects {
                    take(netlify::cloudflare_redirects(text, file), &mut notes, file);
                }
                Dialect::Cloudflare
            }
            Platform::Vercel => {
                if let Some((file, text)) = &texts.vercel_json {
                    let cfg = vercel::vercel_json(text, file, origin);
                    forms.clean_urls = cfg.clean_urls;
                    forms.trailing_slash = cfg.trailing_slash;
                    notes.extend(cfg.notes);
                    take(cfg.read, &mut notes, file);
                }
                Dialect::Vercel
            }
            Platform::GithubPages | Platform::Plain => Dialect::Cloudflare,
        };
        HostRules {
            platform,
            rules: RuleSet::new(dialect, rules),
            forms,
            warnings,
            notes,
            decision: None,
        }
    }
}

/// The host's line for the default output: which host and why, and the rule files found
/// that it does not read (whose rules therefore leave nothing out).
fn decision(platform: Platform, reason: &str, files: &HostFiles) -> Option<String> {
    let reads = |kind: &str| match platform {
        Platform::Netlify => kind != "vercel.json",
        Platform::CloudflarePages => kind == "_redirects",
        Platform::Vercel => kind == "vercel.json",
        Platform::GithubPages | Platform::Plain => false,
    };
    let passed: Vec<String> = [
        ("_redirects", &files.redirects),
        ("netlify.toml", &files.netlify_toml),
        ("vercel.json", &files.vercel_json),
    ]
    .into_iter()
    .filter(|(kind, _)| !reads(kind))
    .filter_map(|(_, path)| Some(path.as_ref()?.display().to_string()))
    .collect();
    if platform == Platform::Plain && passed.is_empty() {
        return None;
    }
    let mut line = format!("host: {platform}, as {reason}");
    if !passed.is_empty() {
        let them = if passed.len() == 1 { "it" } else { "them" };
        line.push_str(&format!(
            "; {} passed over, as {platform} does not read {them} (`host` in sitemap.toml names the host that serves the site)",
            passed.join(" and ")
        ));
    }
    Some(line)
}

/// "1 rule", "3 rules".
fn count_rules(n: usize) -> String {
    if n == 1 {
        "1 rule".to_string()
    } else {
        format!("{n} rules")
    }
}

/// A rule file's text, read through [`fsread`](crate::vocab::fsread) (a regular file only, never
/// blocking, at most [`MAX_RULE_FILE_BYTES`]; inside `folder` when it lies in the output
/// folder); bytes that are not UTF-8 replaced.
fn read_rule_file(
    path: &Path,
    folder: Option<&fsread::Folder>,
) -> Result<String, fsread::ReadError> {
    let bytes = match folder {
        Some(folder) => fsread::read_in(path, folder, MAX_RULE_FILE_BYTES)?,
        None => fsread::read(path, MAX_RULE_FILE_BYTES)?,
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_settings_parse() {
        assert_eq!("auto".parse(), Ok(HostSetting::Auto));
        assert_eq!(
            "Cloudflare-Pages".parse(),
            Ok(HostSetting::Fixed(Platform::CloudflarePages))
        );
        for p in [
            Platform::Netlify,
            Platform::CloudflarePages,
            Platform::Vercel,
            Platform::GithubPages,
            Platform::Plain,
        ] {
            assert_eq!(p.as_str().parse(), Ok(HostSetting::Fixed(p)));
        }
        assert!(
            "heroku"
                .parse::<HostSetting>()
                .unwrap_err()
                .contains("heroku")
        );
    }

    fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join(".git")).unwrap();
        for (name, text) in files {
            let p = d.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    fn load(d: &Path, setting: HostSetting) -> HostRules {
        HostRules::load(setting, d, &d.join("public"), "https://e.org")
    }

    #[test]
    fn the_built_redirects_file_wins_over_the_one_in_static() {
        let d = site(&[
            (
                "netlify.toml",
                "[[redirects]]\nfrom = \"/t\"\nto = \"/u\"\n",
            ),
            ("static/_redirects", "/s /x 301!\n"),
            ("public/_redirects", "/p /x 301!\n"),
        ]);
        let host = load(d.path(), HostSetting::Auto);
        assert_eq!(host.platform, Platform::Netlify);
        let froms: Vec<&str> = host.rules.rules().iter().map(|r| r.from.as_str()).collect();
        assert_eq!(froms, ["/p", "/t"], "_redirects first, then netlify.toml");
        assert!(
            host.notes[0].starts_with("host: netlify ("),
            "{:?}",
            host.notes
        );
        // Told which host, the files of another are not read.
        let host = load(d.path(), HostSetting::Fixed(Platform::Vercel));
        assert!(host.rules.is_empty());
        assert!(host.notes[0].contains("set by `host`"));
    }

    #[test]
    fn netlify_toml_may_turn_pretty_urls_off() {
        let toml = "[build.processing.html]\npretty_urls = false\n";
        let texts = RuleTexts {
            netlify_toml: Some((PathBuf::from("netlify.toml"), toml.to_string())),
            ..Default::default()
        };
        let host = HostRules::from_texts(Platform::Netlify, &texts, "https://e.org");
        assert!(!host.forms.pretty_urls);
        assert_eq!(host.forms.served("/a", FileKind::FolderIndex), "/a");
        let host = HostRules::from_texts(Platform::Netlify, &RuleTexts::default(), "https://e.org");
        assert_eq!(host.forms.served("/a", FileKind::FolderIndex), "/a/");
    }

    #[test]
    fn the_cloudflare_dialect_reads_the_same_file_otherwise() {
        let d = site(&[("static/_redirects", "/a /b\n/c /d 301!\n")]);
        let host = load(d.path(), HostSetting::Fixed(Platform::CloudflarePages));
        assert_eq!(host.rules.rules().len(), 1);
        assert_eq!(host.rules.rules()[0].status, 302);
        assert_eq!(host.warnings.len(), 1, "{:?}", host.warnings);
        assert!(host.warnings[0].contains("_redirects:2:"));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_link_out_of_the_output_is_not_read() {
        let d = site(&[("netlify.toml", "")]);
        std::fs::create_dir_all(d.path().join("public")).unwrap();
        let fifo = d.path().join("public/_redirects");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let host = load(d.path(), HostSetting::Auto);
            assert!(host.rules.is_empty());
            assert!(host.warnings[0].contains("FIFO"), "{:?}", host.warnings);
            std::fs::remove_file(&fifo).unwrap();
        }
        let outside = d.path().join("elsewhere");
        std::fs::write(&outside, "/a /b 301!\n").unwrap();
        std::os::unix::fs::symlink(&outside, &fifo).unwrap();
        let host = load(d.path(), HostSetting::Auto);
        assert!(host.rules.is_empty());
        assert!(host.warnings[0].contains("outside"), "{:?}", host.warnings);
    }
}
