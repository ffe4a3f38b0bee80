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
/// ([`Reader`], which the config stage takes on its own), reading front matter, and
/// routing.
pub trait Generator: Reader + Sync {
    /// How this generator's pages' front matter is read on the site of `settings`: its
    /// dialect ([`frontmatter::Dialect`]) and the options that go with it.
    fn front_matter(&self, settings: &Settings) -> frontmatter::Options;

    /// The router that maps the scanned `files` to the URLs this generator publishes.
    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a>;
}
