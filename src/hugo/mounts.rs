//! Hugo `module.mounts` into `content`: folders mounted into the content tree, each with its
//! languages and file filters. When the site mounts anything into `content`, its mounts
//! replace the default content folders (`contentDir` and the languages' own), as in Hugo.

use crate::siteconfig::{ContentMount, get, get_str};
use serde_json::Value;
use std::path::PathBuf;

/// The site's mounts into `content`, in order.
pub(super) fn content_mounts(config: &Value) -> Vec<ContentMount> {
    let Some(Value::Array(mounts)) = get(config, "module").and_then(|m| get(m, "mounts")) else {
        return Vec::new();
    };
    mounts.iter().filter_map(content_mount).collect()
}

/// A mount, when it mounts into `content`.
fn content_mount(m: &Value) -> Option<ContentMount> {
    let source = get_str(m, "source")?;
    let target = clean(&get_str(m, "target")?);
    let sub = match target.split_once('/') {
        None if target == "content" => String::new(),
        Some(("content", rest)) => rest.to_string(),
        _ => return None,
    };
    let mut langs: Vec<String> = get_str(m, "lang").into_iter().collect();
    let mut sites_langs = Vec::new();
    if let Some(l) = get(m, "sites")
        .and_then(|s| get(s, "matrix"))
        .and_then(|s| get(s, "languages"))
    {
        sites_langs = list(Some(l));
    }
    for l in [&mut langs, &mut sites_langs] {
        l.iter_mut().for_each(|l| *l = l.to_ascii_lowercase());
        l.sort();
        l.dedup();
    }
    let files_key = list(get(m, "files"));
    let mut files = list(get(m, "includeFiles"));
    files.extend(
        list(get(m, "excludeFiles"))
            .into_iter()
            .map(|p| format!("! {p}")),
    );
    Some(ContentMount {
        source: PathBuf::from(clean(&source)),
        target: sub,
        langs,
        sites_langs,
        files,
        files_key,
    })
}

/// A string or a list of strings.
fn list(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// A path as Go's `filepath.Clean` leaves it: `/`-separated, no `.` or empty segments, no
/// trailing `/`.
fn clean(p: &str) -> String {
    let p = p.replace('\\', "/");
    let absolute = p.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mounts_into_content_are_read_and_others_skipped() {
        let config = json!({"module": {"mounts": [
            {"source": "content/en", "target": "content", "lang": "EN"},
            {"source": "./docs/", "target": "content/docs/./", "excludeFiles": ["drafts/**"],
             "includeFiles": "**.md", "sites": {"matrix": {"languages": ["de", "en"]}}},
            {"source": "assets", "target": "assets"},
            {"source": "x", "target": "contentish"},
            {"source": "y", "target": "content", "files": ["! **/private.md"]},
        ]}});
        let got = content_mounts(&config);
        assert_eq!(
            got,
            [
                ContentMount {
                    source: "content/en".into(),
                    target: String::new(),
                    langs: vec!["en".into()],
                    sites_langs: vec![],
                    files: vec![],
                    files_key: vec![],
                },
                ContentMount {
                    source: "docs".into(),
                    target: "docs".into(),
                    langs: vec![],
                    sites_langs: vec!["de".into(), "en".into()],
                    files: vec!["**.md".into(), "! drafts/**".into()],
                    files_key: vec![],
                },
                ContentMount {
                    source: "y".into(),
                    target: String::new(),
                    langs: vec![],
                    sites_langs: vec![],
                    files: vec![],
                    files_key: vec!["! **/private.md".into()],
                },
            ]
        );
        // Hugo before 0.153 knew neither `sites` nor `files`.
        assert_eq!(got[1].langs(false), Vec::<String>::new());
        assert_eq!(got[1].langs(true), ["de", "en"]);
        assert_eq!(got[2].filters(false), Vec::<String>::new());
        assert!(content_mounts(&json!({"module": {}})).is_empty());
    }

    #[test]
    fn paths_are_cleaned_as_go_cleans_them() {
        for (raw, want) in [
            ("content/", "content"),
            ("./content//blog/.", "content/blog"),
            ("a/../b", "b"),
            ("../shared/content", "../shared/content"),
            ("/abs/dir/", "/abs/dir"),
        ] {
            assert_eq!(clean(raw), want, "{raw}");
        }
    }
}
