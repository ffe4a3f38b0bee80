//! Where a file lands: its folder, name and language, whether it is a bundle, and the
//! bundles around it (leaf bundles own the files below them; branch bundles cascade).

use super::Names;
use crate::hugo::version::HugoRules;
use crate::route::Kind;
use crate::scan::{Files, SourceFile};
use std::collections::{HashMap, HashSet};

/// Where a file sits: slices of its path and the site's names, made again wherever needed
/// rather than kept for every file (64 bytes a file through routing, the run's peak).
#[derive(Clone, Copy)]
pub(super) struct Placed<'a> {
    /// Its folder relative to its content root.
    pub(super) dirs: Dirs<'a>,
    /// File stem without the language suffix.
    pub(super) stem: &'a str,
    /// The site's code for a language suffix, else the content root's, the front matter's or
    /// the default language: borrowed, never allocated.
    pub(super) lang: &'a str,
    /// `_index` (branch bundle / section / home).
    pub(super) is_branch: bool,
    /// `index` (leaf bundle).
    pub(super) is_leaf: bool,
    /// Its language is the default one only because nothing else names one.
    pub(super) defaulted: bool,
}

impl Placed<'_> {
    /// What the file's page is: `_index` is the home at the root and a section below it.
    pub(super) fn kind(&self) -> Kind {
        match (self.is_branch, self.dirs.is_empty()) {
            (true, true) => Kind::Home,
            (true, false) => Kind::Section,
            _ => Kind::Page,
        }
    }

    /// The key translations share: the path without language (`translationKey` aside), so
    /// a leaf bundle `about/index.md` and a page `about.fr.md` are versions of one page.
    pub(super) fn translation_path(&self) -> String {
        format!("path:{}", normalize_path(&self.path_body()))
    }

    /// Hugo's logical path of the file's page (`.Path`, what a permalink rule's `path` glob
    /// is matched against): `/` and its folders and name (a bundle's folder), without
    /// extension or language, each space `-` (the glob lower-cases it): `/blog/my-post`,
    /// `/` for the home.
    pub(super) fn logical_path(&self) -> String {
        format!("/{}", self.path_body().replace(' ', "-"))
    }

    /// The folders and name of the file's page, `/`-joined, as written.
    fn path_body(&self) -> String {
        let mut k = self.dirs.joined().to_string();
        if !self.is_branch && !self.is_leaf {
            if !k.is_empty() {
                k.push('/');
            }
            k.push_str(self.stem);
        }
        k
    }

    /// The key Hugo before 0.123 gave a page without `translationKey`: its kind, folder and
    /// base name (`page/blog/post`, `page/blog/post/index`, `section/blog`, `home`), the same
    /// space as a `translationKey`'s `page/<key>`.
    pub(super) fn kind_path_key(&self) -> String {
        match self.kind() {
            Kind::Page => {
                let joined = [self.dirs.joined(), self.stem];
                let path: Vec<&str> = joined.into_iter().filter(|s| !s.is_empty()).collect();
                format!("page/{}", path.join("/"))
            }
            kind => node_key(kind, self.dirs.joined(), true),
        }
    }
}

/// The translation key of a home or section at folder `dirs` without a `translationKey`:
/// Hugo 0.123+ matches by path; before, by kind and path (`shared`).
pub(super) fn node_key(kind: Kind, dirs: &str, shared: bool) -> String {
    match (shared, kind) {
        (false, _) => format!("path:{}", normalize_path(dirs)),
        (true, Kind::Home) => "home".to_string(),
        (true, _) => format!("section/{dirs}"),
    }
}

/// Hugo's `NormalizePathStringBasic` (0.123 on): the identity of a path, which pages in
/// different languages share to be translations, is lower-cased with each space a hyphen,
/// so `Cloud native apps.md` and `cloud-native-apps.fr.md` are one page.
fn normalize_path(p: &str) -> String {
    crate::slugify::go_to_lower(p).replace(' ', "-")
}

/// A file's folder relative to its content root, `/`-joined ("" at the root): a slice of its
/// path, so placing a file allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dirs<'a>(pub(super) &'a str);

impl<'a> Dirs<'a> {
    /// At the content root.
    pub(super) fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// How many folders deep.
    pub(super) fn len(self) -> usize {
        self.iter().count()
    }

    /// The folder names, outermost first.
    pub(super) fn iter(self) -> impl Iterator<Item = &'a str> {
        self.0.split('/').filter(|d| !d.is_empty())
    }

    /// The outermost folder.
    pub(super) fn first(self) -> Option<&'a str> {
        self.iter().next()
    }

    /// The innermost folder.
    pub(super) fn last(self) -> Option<&'a str> {
        self.0.rsplit('/').next().filter(|d| !d.is_empty())
    }

    /// The `k`th folder from the outside.
    pub(super) fn get(self, k: usize) -> Option<&'a str> {
        self.iter().nth(k)
    }

    /// The outermost `depth` folders, `/`-joined.
    pub(super) fn prefix(self, depth: usize) -> Dirs<'a> {
        if depth == 0 {
            return Dirs("");
        }
        match self.0.match_indices('/').nth(depth - 1) {
            Some((i, _)) => Dirs(&self.0[..i]),
            None => self,
        }
    }

    /// All of it, `/`-joined.
    pub(super) fn joined(self) -> &'a str {
        self.0
    }
}

/// Places a file by its path alone: its folder, its stem without a language suffix (one of
/// `langs`) and its language. A front matter `lang` places nothing: Hugo (0.111.3 and 0.168.0
/// alike) keeps `a.md` with `lang: fr` in the default language, and it picks the file that is
/// a page before it reads any front matter.
pub(super) fn place<'a>(
    file: SourceFile<'a>,
    langs: &[&'a str],
    default_lang: &'a str,
) -> Placed<'a> {
    let (dirs, name) = (file.dir, file.name);
    let stem = rsplit_dot(name).map_or(name, |(s, _)| s);
    let (stem, suffix) = split_lang_id(stem, langs);
    let mut defaulted = false;
    let lang: &'a str = match suffix {
        // The suffix matched one of the site's codes, whatever its case: name it the site's way.
        Some(s) => langs
            .iter()
            .copied()
            .find(|l| l.eq_ignore_ascii_case(s))
            .unwrap_or(s),
        None => file.root_lang().unwrap_or_else(|| {
            defaulted = true;
            default_lang
        }),
    };
    Placed {
        dirs: Dirs(dirs),
        stem,
        lang,
        is_branch: stem == "_index",
        is_leaf: stem == "index",
        defaulted,
    }
}

/// `s.rsplit_once('.')`, by bytes: names are short, and a general search is a call a name
/// (placing every file, several times a run).
fn rsplit_dot(s: &str) -> Option<(&str, &str)> {
    let at = s.bytes().rposition(|b| b == b'.')?;
    // `.` is one byte: both sides are whole characters.
    Some((&s[..at], &s[at + 1..]))
}

/// Splits a file stem as Hugo (0.123 on) reads its dot-separated identifiers: the rightmost
/// one that names a language is the language, and the name ends before it (`post.en.md` is
/// `post` in `en`, `_index.en.md` a section file, `q.fr.en` is `q.fr` in `en`); with none,
/// the whole stem is the name (`_index.md` is a page called `_index.md`).
fn split_lang_id<'a>(stem: &'a str, langs: &[&str]) -> (&'a str, Option<&'a str>) {
    let mut rest = stem;
    while let Some((head, id)) = rsplit_dot(rest) {
        if langs.iter().any(|l| l.eq_ignore_ascii_case(id)) {
            return (head, Some(id));
        }
        rest = head;
    }
    (stem, None)
}

/// The site's bundles in languages that are on, and which file is each page where several
/// are one: all found from the files' paths, before any file is decided (and, for
/// [`super::unread`], before any is read).
pub(super) struct Bundles<'a> {
    /// Leaf bundle folders by content root language (`None` for all of them where the
    /// bundle owns its folder in every language, [`HugoRules::leaf_owns_every_language`]):
    /// each owns every file below it (those files are resources).
    leaf_dirs: HashSet<(Option<&'a str>, &'a str)>,
    /// Leaf bundles own their folders in every language's content folder.
    leaf_shared: bool,
    /// Leaf bundles by (language, parent folder, folder name): each shadows a page of its
    /// language and name there (kept apart so a page is looked up without joining them).
    leaf_langs: HashSet<(&'a str, &'a str, &'a str)>,
    /// Branch bundles (`_index`) by (language, folder), as page indices.
    pub(super) branch_dirs: HashMap<(String, String), usize>,
    /// Files whose name says their language, by (language, folder, stem): each shadows a
    /// file of that language only by default (`about.fr.md` wins over `about.md` where `fr`
    /// is the default language), as Hugo keeps the one its name places.
    named: HashSet<(&'a str, &'a str, &'a str)>,
    /// The file that is each page where several files are one page (`a.md` and `a.html`,
    /// `index.md` and `index.html`, `_index.md` and `_index.markdown`). Of a regular page's,
    /// the last in name order (0.111.3 and 0.168.0 alike); of a bundle's, the last from
    /// 0.123 (`content_map_page_assembler.go`: a later file of equal weight replaces the one
    /// before), the first before (seen in 0.111.3).
    chosen: HashMap<SamePage<'a>, usize>,
    /// The rules: a bundle's last file is its page ([`HugoRules::last_file_wins`]).
    last_wins: bool,
    /// A page beside a leaf bundle of its name is read ([`HugoRules::shadowed_page_read`]).
    shadowed_read: bool,
}

/// What makes two files one page: language, folder, name without extension, whether the
/// name gave the language, and bundle kind (leaf, branch).
type SamePage<'a> = (&'a str, &'a str, &'a str, bool, bool, bool);

/// The key under which files are one page.
fn same_page<'a>(pl: &Placed<'a>) -> SamePage<'a> {
    (
        pl.lang,
        pl.dirs.joined(),
        pl.stem,
        pl.defaulted,
        pl.is_leaf,
        pl.is_branch,
    )
}

impl<'a> Bundles<'a> {
    /// Finds the bundles among `files`, placed by `names`; `is_static(i)`: file `i` is a raw
    /// HTML copy (Hugo before 0.123), no page.
    pub(super) fn new(
        names: &Names<'a>,
        files: &'a Files,
        rules: &HugoRules,
        is_static: impl Fn(usize) -> bool,
    ) -> Bundles<'a> {
        // One look at each file (placing a file means finding its folder, a search).
        let mut branch_dirs: HashMap<(String, String), usize> = HashMap::new();
        // Branch files, with the key under which a file naming its language shadows them.
        let mut branches = Vec::new();
        let mut leaves: Vec<(Option<&'a str>, Placed<'a>)> = Vec::new();
        let mut named = HashSet::new();
        let mut chosen = HashMap::new();
        let last_wins = rules.last_file_wins;
        for i in 0..files.len() {
            let file = files.get(i);
            let pl = names.place(file);
            if names.off(&pl) {
                continue;
            }
            let bundle = pl.is_branch || pl.is_leaf;
            if last_wins || !bundle {
                chosen.insert(same_page(&pl), i);
            } else if !is_static(i) {
                chosen.entry(same_page(&pl)).or_insert(i);
            }
            if !pl.defaulted {
                named.insert((pl.lang, pl.dirs.joined(), pl.stem));
            }
            if bundle && !is_static(i) {
                if pl.is_branch {
                    let shadow = pl.defaulted.then_some((pl.lang, pl.dirs.joined(), pl.stem));
                    branches.push((pl.lang, pl.dirs.joined(), i, shadow));
                } else {
                    leaves.push((file.root_lang(), pl));
                }
            }
        }
        // `_index.md` beside `_index.en.md` (`en` the default language) is never read: the
        // branch is the other file, whose cascades reach the pages below.
        for (lang, dirs, i, shadow) in branches {
            if shadow.is_some_and(|k| named.contains(&k)) {
                continue;
            }
            let key = (lang.to_string(), dirs.to_string());
            if last_wins || !branch_dirs.contains_key(&key) {
                branch_dirs.insert(key, i);
            }
        }
        // Before Hugo 0.123 an `_index` beside an `index` makes the folder a branch.
        if rules.branch_beside_leaf_wins {
            leaves.retain(|(_, pl)| {
                let key = (pl.lang.to_string(), pl.dirs.joined().to_string());
                !branch_dirs.contains_key(&key)
            });
        }
        let leaf_shared = rules.leaf_owns_every_language;
        let leaf_dirs = leaves
            .iter()
            .map(|(root, pl)| (root.filter(|_| !leaf_shared), pl.dirs.joined()))
            .collect();
        let leaf_langs = leaves
            .iter()
            .map(|(_, pl)| {
                let (parent, name) = pl.dirs.joined().rsplit_once('/').unwrap_or(("", pl.dirs.0));
                (pl.lang, parent, name)
            })
            .collect();
        Bundles {
            leaf_dirs,
            leaf_shared,
            leaf_langs,
            branch_dirs,
            named,
            chosen,
            last_wins,
            shadowed_read: rules.shadowed_page_read,
        }
    }

    /// File `i` is one page with another file, which Hugo takes instead.
    pub(super) fn superseded(&self, i: usize, pl: &Placed<'a>) -> bool {
        self.chosen
            .get(&same_page(pl))
            .is_some_and(|&page| page != i)
    }

    /// File `i` is one Hugo never reads, its front matter unseen (tried with a front matter
    /// Hugo refuses, in 0.111.3 and 0.168.0): a file without a language in its name where
    /// one with it is the page; a regular page's file other than the last by name (a bundle's
    /// too from 0.123; before, Hugo reads each); and before 0.123 a page beside a leaf
    /// bundle of its name.
    pub(super) fn unread(&self, i: usize, pl: &Placed<'a>) -> bool {
        let bundle = pl.is_leaf || pl.is_branch;
        self.shadowed_by_name(pl)
            || (self.superseded(i, pl) && (self.last_wins || !bundle))
            || (!self.shadowed_read && self.shadowed_by_leaf(pl))
    }

    /// Some folder above `dirs` (in content root `root`) is a leaf bundle.
    fn leaf_ancestor(&self, root: Option<&str>, dirs: Dirs) -> bool {
        (0..dirs.len()).any(|d| self.leaf_dirs.contains(&(root, dirs.prefix(d).joined())))
    }

    /// `post.md` beside a leaf bundle `post/index.md` in its language, or `about.md` beside
    /// `about.en.md` where `en` is the default language: Hugo keeps the other file only.
    pub(super) fn shadows(&self, pl: &Placed) -> bool {
        self.shadowed_by_name(pl) || self.shadowed_by_leaf(pl)
    }

    /// `post.md` beside a leaf bundle `post/index.md`, which Hugo reads from 0.123 (its
    /// front matter and content type are checked) though the bundle is the page.
    pub(super) fn read_beside_leaf(&self, i: usize, pl: &Placed<'a>) -> bool {
        self.shadowed_read
            && self.shadowed_by_leaf(pl)
            && !self.shadowed_by_name(pl)
            && !self.superseded(i, pl)
    }

    /// `about.md` beside `about.en.md` where `en` is the default language.
    fn shadowed_by_name(&self, pl: &Placed) -> bool {
        pl.defaulted && self.named.contains(&(pl.lang, pl.dirs.joined(), pl.stem))
    }

    /// `post.md` beside a leaf bundle `post/index.md` in its language.
    fn shadowed_by_leaf(&self, pl: &Placed) -> bool {
        if pl.is_leaf || pl.is_branch || self.leaf_langs.is_empty() {
            return false;
        }
        self.leaf_langs
            .contains(&(pl.lang, pl.dirs.joined(), pl.stem))
    }

    /// The branch bundles at and above a page's folder in its language, nearest first.
    fn branch_chain(&self, pl: &Placed) -> Vec<usize> {
        (0..=pl.dirs.len())
            .rev()
            .filter_map(|depth| {
                self.branch_dirs
                    .get(&(
                        pl.lang.to_string(),
                        pl.dirs.prefix(depth).joined().to_string(),
                    ))
                    .copied()
            })
            .collect()
    }
}

/// The folder facts one task last looked up (files of one folder come together).
#[derive(Default)]
pub(super) struct Memo<'a> {
    /// (content root language, folder, folder is a leaf bundle, folder is below one).
    leaf: Option<(Option<&'a str>, Dirs<'a>, bool, bool)>,
    /// (language, folder, branch bundles at and above it).
    chain: Option<(&'a str, Dirs<'a>, Vec<usize>)>,
    /// That folder's names as its sections' slugs rename them, once worked out.
    slugged: Option<Option<Vec<String>>>,
    /// That folder's sections as `:sectionslugs` names them, once worked out.
    section_names: Option<SectionNames>,
}

/// Each folder of a page's, from the top, as `:sectionslugs` names it: the section's slug,
/// else its title; `None` for a folder that is no section.
pub(super) type SectionNames = Vec<Option<String>>;

impl<'a> Memo<'a> {
    /// Whether a file of folder `dirs` (content root language `root`) is in a leaf bundle's
    /// own folder, and whether it is below one: (own folder is a leaf, below a leaf).
    pub(super) fn leaf(
        &mut self,
        bundles: &Bundles<'a>,
        root: Option<&'a str>,
        dirs: Dirs<'a>,
    ) -> (bool, bool) {
        let root = root.filter(|_| !bundles.leaf_shared);
        match self.leaf {
            Some((r, d, own, under)) if r == root && d == dirs => (own, under),
            _ if bundles.leaf_dirs.is_empty() => (false, false),
            _ => {
                let own = bundles.leaf_dirs.contains(&(root, dirs.joined()));
                let under = bundles.leaf_ancestor(root, dirs);
                self.leaf = Some((root, dirs, own, under));
                (own, under)
            }
        }
    }

    /// The branch bundles at and above a file's folder in its language, nearest first.
    pub(super) fn chain(&mut self, bundles: &Bundles<'a>, pl: &Placed<'a>) -> &[usize] {
        let known = matches!(&self.chain, Some((l, d, _)) if *l == pl.lang && *d == pl.dirs);
        if !known {
            self.chain = Some((pl.lang, pl.dirs, bundles.branch_chain(pl)));
            self.slugged = None;
            self.section_names = None;
        }
        self.chain.as_ref().map_or(&[], |(_, _, chain)| chain)
    }

    /// The folder of the last [`Memo::chain`] with its sections' slugs applied: `work`
    /// (given that chain) once a folder, as every file of the folder gets the same.
    pub(super) fn slugged(
        &mut self,
        work: impl FnOnce(&[usize]) -> Option<Vec<String>>,
    ) -> Option<Vec<String>> {
        let chain = self.chain.as_ref().map_or(&[][..], |(_, _, chain)| chain);
        self.slugged.get_or_insert_with(|| work(chain)).clone()
    }

    /// The folder of the last [`Memo::chain`] as `:sectionslugs` names its sections: `work`
    /// (given that chain) once a folder.
    pub(super) fn section_names(
        &mut self,
        work: impl FnOnce(&[usize]) -> SectionNames,
    ) -> SectionNames {
        let chain = self.chain.as_ref().map_or(&[][..], |(_, _, chain)| chain);
        self.section_names
            .get_or_insert_with(|| work(chain))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::{Dirs, rsplit_dot, split_lang_id};

    #[test]
    fn a_name_splits_at_its_last_dot_as_rsplit_once_splits_it() {
        for name in [
            "a.b.c",
            ".x",
            "x.",
            "日本.md",
            "",
            "no-dot",
            "é.é.é",
            "..",
            "a..b",
        ] {
            assert_eq!(rsplit_dot(name), name.rsplit_once('.'), "{name:?}");
        }
    }

    #[test]
    fn file_names_split_as_hugo_reads_their_identifiers() {
        // As Hugo 0.168 published each (content/b/<name>.md, languages en and fr).
        let langs = ["en", "fr"];
        for (stem, want) in [
            ("_index.en.md", ("_index", Some("en"))),
            ("_index.md", ("_index.md", None)),
            ("post.en.md", ("post", Some("en"))),
            ("post.md", ("post.md", None)),
            ("q.fr.en", ("q.fr", Some("en"))),
            ("post.FR", ("post", Some("FR"))),
            ("_index.x", ("_index.x", None)),
            ("fr", ("fr", None)),
        ] {
            assert_eq!(split_lang_id(stem, &langs), want, "{stem}");
        }
    }

    #[test]
    fn dirs_read_like_the_list_of_folders() {
        let d = Dirs("blog/2024/trip");
        assert_eq!(
            (d.len(), d.first(), d.last(), d.get(1)),
            (3, Some("blog"), Some("trip"), Some("2024"))
        );
        assert_eq!(d.iter().collect::<Vec<_>>(), ["blog", "2024", "trip"]);
        let joined: Vec<&str> = (0..=4).map(|k| d.prefix(k).joined()).collect();
        assert_eq!(
            joined,
            ["", "blog", "blog/2024", "blog/2024/trip", "blog/2024/trip"]
        );
        let root = Dirs("");
        assert!(
            root.is_empty()
                && root.iter().count() == 0
                && root.first().is_none()
                && root.last().is_none()
        );
        assert_eq!(root.prefix(1), root);
    }
}
