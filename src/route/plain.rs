//! The plain mapper, for sites that follow neither generator: a file's path is its URL
//! (`blog/post.md` -> `/blog/post/`, `blog/index.md` -> `/blog/`, `a.html` -> `/a.html`).

use super::{join_path, Excluded, Kind, Pages, Reason, Route, RouteContext, Router, Routing};
use crate::error::Result;

/// The plain mapper.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainRouter;

impl Router for PlainRouter {
    fn route(&self, pages: &Pages, ctx: &RouteContext) -> Result<Routing> {
        let s = ctx.settings;
        let lang = s.site.default_language.as_str();
        let mut out = Routing::default();
        let mut has_home = false;
        for (i, page) in pages.iter().enumerate() {
            let fm = &page.fm;
            if fm.draft() == Some(true) && !s.include_drafts {
                out.excluded.push(Excluded {
                    page: i,
                    reason: Reason::Draft,
                });
                continue;
            }
            let (dir, file) = (page.file.dir, page.file.name);
            let (stem, ext) = file.rsplit_once('.').unwrap_or((file, ""));
            let is_index = matches!(stem, "index" | "_index");
            let explicit = fm
                .more()
                .url
                .as_deref()
                .or(fm.path())
                .map(str::trim)
                .filter(|p| !p.is_empty());
            let path = match explicit {
                Some(p) => format!("/{}", p.trim_start_matches('/')),
                // An HTML file is published under its own name.
                None if ext == "html" && !is_index => {
                    join_path(dir.split('/').chain([file]), false)
                }
                None => {
                    let name = fm.slug().unwrap_or(stem);
                    let last = if is_index && fm.slug().is_none() {
                        ""
                    } else {
                        name
                    };
                    join_path(dir.split('/').chain([last]), true)
                }
            };
            let kind = if path == "/" {
                Kind::Home
            } else if is_index {
                Kind::Section
            } else {
                Kind::Page
            };
            has_home |= kind == Kind::Home;
            let mut r = Route::for_page(i, &page, kind, path, lang, page.file.rel().into_owned());
            if fm.sitemap_exclude() {
                out.excluded.push(Excluded {
                    page: i,
                    reason: Reason::SitemapOff,
                });
                r.listed = false;
            }
            out.push(r);
        }
        // Every page rolls up into the home page, which a plain site may not have as a file.
        if !has_home {
            out.push(Route::generated(
                Kind::Home,
                "/".into(),
                lang,
                "home".into(),
            ));
        }
        let home = out
            .routes
            .iter()
            .position(|r| r.kind == Kind::Home)
            .unwrap_or(0);
        let members: Vec<usize> = (0..out.routes.len()).filter(|&r| r != home).collect();
        out.routes[home].add_rollup(members);
        Ok(out)
    }
}
