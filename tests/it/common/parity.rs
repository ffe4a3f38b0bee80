//! Parity harness: run sitemapgen on a reference case and compare its URL set with the
//! generator's own sitemap (see ../shared/parity/README.md for what "same" means).

use super::{run, text, url_locs};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/parity")
        .join(case)
}

/// The URLs the generator listed: expected-sitemap.xml, or every expected-<lang>-sitemap.xml.
pub fn generator_urls(dir: &Path, drafts: bool) -> BTreeSet<String> {
    let name = if drafts {
        "expected-sitemap-drafts.xml"
    } else {
        "expected-sitemap.xml"
    };
    let main = std::fs::read_to_string(dir.join(name)).unwrap();
    let mut urls = url_locs(&main);
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        let f = p.file_name().unwrap().to_string_lossy().into_owned();
        if f.starts_with("expected-")
            && f.ends_with("-sitemap.xml")
            && f != name
            && !f.contains("drafts")
            && !f.contains("nogitinfo")
        {
            urls.extend(url_locs(&std::fs::read_to_string(&p).unwrap()));
        }
    }
    urls
}

/// Runs sitemapgen on a copy of the case and returns the URLs it listed.
pub fn our_urls(dir: &Path, extra_args: &[&str]) -> BTreeSet<String> {
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().to_str().unwrap();
    let site = dir.to_str().unwrap();
    let mut args = vec!["build", "--site", site, "--output", out, "--quiet"];
    args.extend_from_slice(extra_args);
    let o = run(dir, &args);
    assert!(o.status.success(), "{}", text(&o));
    // A split sitemap, or a multilingual Hugo site's, is an index over its files.
    url_locs(&super::set_text(out_dir.path(), "sitemap.xml"))
}

/// Asserts parity, allowing only the listed deliberate differences (URL, reason).
pub fn assert_parity(case: &str, args: &[&str], drafts: bool, we_leave_out: &[(&str, &str)]) {
    let dir = fixture(case);
    let theirs = generator_urls(&dir, drafts);
    let ours = our_urls(&dir, args);
    let allowed: BTreeSet<String> = we_leave_out.iter().map(|(u, _)| u.to_string()).collect();
    for u in &allowed {
        assert!(
            theirs.contains(u),
            "{case}: the table names {u}, which the generator did not list"
        );
    }
    let missing: Vec<&String> = theirs
        .iter()
        .filter(|u| !ours.contains(*u) && !allowed.contains(*u))
        .collect();
    let extra: Vec<&String> = ours.iter().filter(|u| !theirs.contains(*u)).collect();
    let wrongly_listed: Vec<&String> = ours.iter().filter(|u| allowed.contains(*u)).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && wrongly_listed.is_empty(),
        "{case}: missing {missing:#?}\nextra {extra:#?}\nlisted though deliberately left out {wrongly_listed:#?}"
    );
}
