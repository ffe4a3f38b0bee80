//! A folder mounted into the content tree (Hugo `module.mounts` into `content`), with its
//! languages and file filters; [`crate::hugo`] reads them from the config.

use std::path::PathBuf;

/// One folder mounted into the content tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentMount {
    /// The folder, relative to the site.
    pub source: PathBuf,
    /// Where it lands below `content/` ("" for `content` itself, `docs` for `content/docs`).
    pub target: String,
    /// The languages its files belong to (`lang`); none: the file name's language, else
    /// the default one.
    pub langs: Vec<String>,
    /// The languages `sites.matrix.languages` names (read from Hugo 0.153, which added it).
    pub sites_langs: Vec<String>,
    /// Hugo's file filters in order (`includeFiles`, then `excludeFiles` as `! pattern`):
    /// the first that matches decides; with no inclusion, all are in.
    pub files: Vec<String>,
    /// The `files` filters (read from Hugo 0.153, which added them), tried before the others.
    pub files_key: Vec<String>,
}

impl ContentMount {
    /// The languages its files belong to under Hugo's rules: from 0.153 `sites.matrix`
    /// adds to `lang` (before, Hugo knew no such key).
    pub fn langs(&self, mount_sites: bool) -> Vec<String> {
        let mut langs = self.langs.clone();
        if mount_sites {
            langs.extend(self.sites_langs.iter().cloned());
            langs.sort();
            langs.dedup();
        }
        langs
    }

    /// Its file filters under Hugo's rules: from 0.153 `files` comes first.
    pub fn filters(&self, mount_sites: bool) -> Vec<String> {
        let mut out = if mount_sites {
            self.files_key.clone()
        } else {
            Vec::new()
        };
        out.extend(self.files.iter().cloned());
        out
    }
}
