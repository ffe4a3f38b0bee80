//! What the pipeline asks of a generator. Each generator's wing ([`crate::hugo`],
//! [`crate::zola`], [`crate::plain`]) implements [`Generator`]; the pipeline picks one for
//! the site's style ([`crate::pipeline::generator`]) and drives it, so no stage names a
//! generator to call it.

use crate::frontmatter;
use crate::route::{RouteContext, Router};
use crate::scan::Files;
use crate::settings::Settings;
use crate::siteconfig::Reader;

/// One generator's rules, as the pipeline drives them: finding and reading its config
/// ([`Reader`], which the config stage takes on its own), reading front matter, routing,
/// and the sitemap files it writes of its own.
pub trait Generator: Reader + Sync {
    /// How this generator's pages' front matter is read on the site of `settings`: its
    /// dialect ([`frontmatter::Dialect`]) and the options that go with it.
    fn front_matter(&self, settings: &Settings) -> frontmatter::Options;

    /// The router that maps the scanned `files` to the URLs this generator publishes.
    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a>;

    /// The sitemap this generator writes of its own on the site of `settings` (`hosts`: the
    /// languages of a multihost site's hosts, each its folder), which `layout = "generator"`
    /// follows; none for a generator that writes none.
    fn own_sitemap(&self, settings: &Settings, hosts: &[&str]) -> Option<OwnSitemap>;
}

/// The sitemap a generator writes of its own.
#[derive(Clone, Debug)]
pub struct OwnSitemap {
    /// The generator's name, as messages give it (`Hugo`).
    pub name: &'static str,
    /// What writes it (`each \`hugo\` build`).
    pub command: &'static str,
    /// The site config line that turns it off.
    pub off: &'static str,
    /// Its files on this site, below the output folder.
    pub files: Vec<String>,
    /// How its files share out the URLs.
    pub layout: OwnLayout,
}

/// How a generator's own sitemap shares out the URLs.
#[derive(Clone, Copy, Debug)]
pub enum OwnLayout {
    /// One sitemap; from `split_at` URLs on, when the generator has such a rule (Zola's
    /// 30,000), an index over numbered parts of that many. Past the protocol's limits it is
    /// split in any case.
    One {
        /// Where the generator's own split starts, if it has one.
        split_at: Option<usize>,
    },
    /// An index at the root over one sitemap per language, in the language's folder, named
    /// by `file_name(settings, code)` (Hugo's layout for several languages).
    PerLanguage {
        /// The name of a language's sitemap file.
        file_name: fn(&Settings, &str) -> String,
    },
}
