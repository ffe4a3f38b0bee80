//! The form of a URL a host answers with 200: the others it redirects to that one.
//!
//! Measured behaviour of each host for a site of `file.html` and `folder/index.html`
//! (<https://github.com/slorber/trailing-slash-guide>, and the hosts' documentation):
//!
//! | host                         | `file.html` served at | `folder/index.html` served at |
//! |------------------------------|-----------------------|-------------------------------|
//! | plain                        | as listed             | as listed                     |
//! | GitHub Pages, Netlify        | as listed             | `/folder/`                    |
//! | Netlify, `pretty_urls = false` | as listed           | as listed                     |
//! | Cloudflare Pages             | `/file`               | `/folder/`                    |
//! | Vercel (default)             | `/file.html`          | as listed                     |
//! | Vercel `trailingSlash: true` | `/file.html`          | `/folder/` or `…/index.html`  |
//! | Vercel `trailingSlash: false`| `/file.html`          | `/folder` or `…/index.html`   |
//! | Vercel `cleanUrls`           | `/file`               | `/folder`, `/folder/`         |
//! | `cleanUrls`, `trailingSlash: true` | `/file/`        | `/folder/`                    |
//! | `cleanUrls`, `trailingSlash: false`| `/file`         | `/folder`                     |
//!
//! "As listed" keeps whichever of the forms the host answers with 200 the generator chose.

use super::Platform;
use std::borrow::Cow;

/// What kind of file serves a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A folder's `index.html`.
    FolderIndex,
    /// Another `.html` (or `.htm`) file: a Hugo `uglyURLs` page.
    HtmlFile,
    /// Any other file (a feed, an image): served as it is named.
    Other,
}

impl FileKind {
    /// The kind a URL path names by its shape, where no built file says: a path ending in
    /// `/`, `index.html` or without an extension is a folder's (the generators write
    /// `path/index.html` for those), one ending in `.html` a file.
    pub fn of_path(path: &str) -> FileKind {
        let last = path.rsplit('/').next().unwrap_or_default();
        if last.is_empty() || last == "index.html" || !last.contains('.') {
            FileKind::FolderIndex
        } else if is_html(last) {
            FileKind::HtmlFile
        } else {
            FileKind::Other
        }
    }
}

fn is_html(name: &str) -> bool {
    let ext = name.rsplit('.').next().unwrap_or_default();
    ext.eq_ignore_ascii_case("html") || ext.eq_ignore_ascii_case("htm")
}

/// How one host serves URLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forms {
    /// The host.
    pub platform: Platform,
    /// Vercel's `cleanUrls`.
    pub clean_urls: bool,
    /// Vercel's `trailingSlash`, when set.
    pub trailing_slash: Option<bool>,
    /// Netlify's "pretty URLs" (on unless `netlify.toml` turns them off): a folder's URL
    /// without its slash redirects to the one with it.
    pub pretty_urls: bool,
}

impl Forms {
    /// A host's forms with Vercel's options off.
    pub fn of(platform: Platform) -> Forms {
        Forms {
            platform,
            clean_urls: false,
            trailing_slash: None,
            pretty_urls: true,
        }
    }

    /// Whether this host serves a URL the generators write in another form (by its shape:
    /// Vercel without `cleanUrls` or `trailingSlash` serves every one as written).
    pub fn changes_urls(&self) -> bool {
        match self.platform {
            Platform::Plain => false,
            Platform::Vercel => self.clean_urls || self.trailing_slash.is_some(),
            Platform::Netlify => self.pretty_urls,
            _ => true,
        }
    }

    /// The path the host answers with 200 for the page at `path` (below the site root,
    /// starting with `/`, percent-encoded, no query) served from a file of `kind`.
    pub fn served<'a>(&self, path: &'a str, kind: FileKind) -> Cow<'a, str> {
        let (dir, html) = match kind {
            FileKind::Other => return Cow::Borrowed(path),
            FileKind::FolderIndex => {
                let dir = path.strip_suffix("index.html").unwrap_or(path);
                (dir.strip_suffix('/').unwrap_or(dir), false)
            }
            FileKind::HtmlFile => {
                let stem = path
                    .rsplit_once('.')
                    .filter(|(_, ext)| !ext.contains('/'))
                    .map_or(path, |(stem, _)| stem);
                (stem, true)
            }
        };
        let slash = || Cow::Owned(format!("{dir}/"));
        let bare = || {
            if dir.is_empty() {
                Cow::Borrowed("/")
            } else {
                Cow::Borrowed(dir)
            }
        };
        // The three forms of a folder's page: `dir`, `dir/`, `dir/index.html`.
        let named_index = !html && path.ends_with("index.html");
        let without_slash = !html && !named_index && !path.ends_with('/');
        match self.platform {
            Platform::Plain => Cow::Borrowed(path),
            Platform::Netlify if without_slash && self.pretty_urls => slash(),
            Platform::GithubPages if without_slash => slash(),
            Platform::GithubPages | Platform::Netlify => Cow::Borrowed(path),
            Platform::CloudflarePages if html => bare(),
            Platform::CloudflarePages => slash(),
            Platform::Vercel => match (html, self.clean_urls, self.trailing_slash) {
                // Without cleanUrls an HTML file is served by its name only.
                (true, false, _) => Cow::Owned(format!("{dir}.html")),
                (true, true, Some(true)) => slash(),
                (true, true, _) => bare(),
                (false, false, None) => Cow::Borrowed(path),
                (false, false, Some(true)) if without_slash => slash(),
                (false, false, Some(false)) if !without_slash && !named_index => bare(),
                (false, false, Some(_)) => Cow::Borrowed(path),
                (false, true, None) if named_index => bare(),
                (false, true, None) => Cow::Borrowed(path),
                (false, true, Some(true)) => slash(),
                (false, true, Some(false)) => bare(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FileKind::*;

    fn vercel(clean_urls: bool, trailing_slash: Option<bool>) -> Forms {
        Forms {
            platform: Platform::Vercel,
            clean_urls,
            trailing_slash,
            pretty_urls: true,
        }
    }

    /// The forms of trailing-slash-guide's table for one host: `/file.html` and `/file`
    /// served by `file.html`; `/folder`, `/folder/`, `/folder/index.html` by its index.
    fn row(forms: Forms) -> [String; 5] {
        [
            forms.served("/file.html", HtmlFile).into_owned(),
            forms.served("/file", HtmlFile).into_owned(),
            forms.served("/folder", FolderIndex).into_owned(),
            forms.served("/folder/", FolderIndex).into_owned(),
            forms.served("/folder/index.html", FolderIndex).into_owned(),
        ]
    }

    #[test]
    fn each_host_serves_the_forms_its_table_row_says() {
        let cases: [(Forms, [&str; 5]); 10] = [
            (
                Forms::of(Platform::Plain),
                [
                    "/file.html",
                    "/file",
                    "/folder",
                    "/folder/",
                    "/folder/index.html",
                ],
            ),
            (
                Forms::of(Platform::GithubPages),
                [
                    "/file.html",
                    "/file",
                    "/folder/",
                    "/folder/",
                    "/folder/index.html",
                ],
            ),
            (
                Forms::of(Platform::Netlify),
                [
                    "/file.html",
                    "/file",
                    "/folder/",
                    "/folder/",
                    "/folder/index.html",
                ],
            ),
            (
                Forms::of(Platform::CloudflarePages),
                ["/file", "/file", "/folder/", "/folder/", "/folder/"],
            ),
            (
                vercel(false, None),
                [
                    "/file.html",
                    "/file.html",
                    "/folder",
                    "/folder/",
                    "/folder/index.html",
                ],
            ),
            (
                vercel(false, Some(false)),
                [
                    "/file.html",
                    "/file.html",
                    "/folder",
                    "/folder",
                    "/folder/index.html",
                ],
            ),
            (
                vercel(false, Some(true)),
                [
                    "/file.html",
                    "/file.html",
                    "/folder/",
                    "/folder/",
                    "/folder/index.html",
                ],
            ),
            (
                vercel(true, None),
                ["/file", "/file", "/folder", "/folder/", "/folder"],
            ),
            (
                vercel(true, Some(false)),
                ["/file", "/file", "/folder", "/folder", "/folder"],
            ),
            (
                vercel(true, Some(true)),
                ["/file/", "/file/", "/folder/", "/folder/", "/folder/"],
            ),
        ];
        for (forms, want) in cases {
            assert_eq!(row(forms), want.map(String::from), "{forms:?}");
        }
    }

    #[test]
    fn netlify_without_pretty_urls_serves_as_listed() {
        let forms = Forms {
            pretty_urls: false,
            ..Forms::of(Platform::Netlify)
        };
        assert_eq!(row(forms), row(Forms::of(Platform::Plain)));
        assert!(!forms.changes_urls());
    }

    #[test]
    fn the_root_and_other_files() {
        for forms in [
            Forms::of(Platform::CloudflarePages),
            vercel(true, Some(false)),
            vercel(true, None),
        ] {
            assert_eq!(forms.served("/", FolderIndex), "/", "{forms:?}");
            assert_eq!(forms.served("/index.html", FolderIndex), "/", "{forms:?}");
            assert_eq!(forms.served("/feed.xml", Other), "/feed.xml");
        }
        assert_eq!(vercel(true, Some(true)).served("/", FolderIndex), "/");
        assert_eq!(
            Forms::of(Platform::CloudflarePages).served("/blog/my%20post.html", HtmlFile),
            "/blog/my%20post"
        );
    }

    #[test]
    fn kinds_by_the_shape_of_a_path() {
        assert_eq!(FileKind::of_path("/"), FolderIndex);
        assert_eq!(FileKind::of_path("/a/b"), FolderIndex);
        assert_eq!(FileKind::of_path("/a/index.html"), FolderIndex);
        assert_eq!(FileKind::of_path("/a/b.html"), HtmlFile);
        assert_eq!(FileKind::of_path("/a.v2/b.HTM"), HtmlFile);
        assert_eq!(FileKind::of_path("/feed.xml"), Other);
    }
}
