//! The plain mapper, for sites that follow neither generator: a file's path is its URL
//! (`blog/post.md` -> `/blog/post/`, `blog/index.md` -> `/blog/`, `a.html` -> `/a.html`).

use crate::frontmatter::{PageMeta, Terms};
use crate::route::{
    Excluded, Kind, Page, Reason, Route, RouteContext, RouteSink, Router, Routing, join_path,
};
use crate::scan::Files;
use crate::settings::Settings;
use crate::vocab::error::Result;

/// The plain mapper: each page is routed as it arrives.
pub struct PlainRouter<'a> {
    files: &'a Files,
    settings: &'a Settings,
    out: Routing,
    has_home: bool,
}

impl<'a> PlainRouter<'a> {
    /// A mapper for `files`.
    pub fn new(files: &'a Files, ctx: &RouteContext<'a>) -> PlainRouter<'a> {
        PlainRouter {
            files,
            settings: ctx.settings,
            out: Routing::default(),
            has_home: false,
        }
    }
}

impl Router for PlainRouter<'_> {
    fn add(&mut self, i: usize, fm: PageMeta, terms: &str, sink: &mut dyn RouteSink) -> Result<()> {
        let s = self.settings;
        let lang = s.site.default_language.as_str();
        if fm.draft() == Some(true) && !s.include_drafts {
            self.out.excluded.push(Excluded {
                page: i,
                reason: Reason::Draft,
            });
            return Ok(());
        }
        let page = Page {
            file: self.files.get(i),
            fm: &fm,
            terms: Terms::from_packed(terms),
        };
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
            None if ext == "html" && !is_index => join_path(dir.split('/').chain([file]), false),
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
        self.has_home |= kind == Kind::Home;
        let mut r = Route::for_page(i, &page, kind, path, lang, page.file.rel().into_owned());
        if fm.sitemap_exclude() {
            self.out.excluded.push(Excluded {
                page: i,
                reason: crate::route::off_reason(fm.more().noindex),
            });
            r.listed = false;
        }
        let k = self.out.push(r);
        sink.made(&self.out, k, i, &fm);
        Ok(())
    }

    fn finish(self: Box<Self>, _: &mut dyn RouteSink) -> Result<Routing> {
        let mut out = self.out;
        let lang = self.settings.site.default_language.as_str();
        // Every page rolls up into the home page, which a plain site may not have as a file.
        if !self.has_home {
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
