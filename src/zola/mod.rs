//! Zola's wing: what Zola means, whatever the stage that asks. So far its routing
//! ([`route`]): sections, pages, slugs, languages, taxonomies and pagers as Zola 0.22 makes
//! them.

pub mod route;

use crate::config::Style;
use crate::generator::Generator;
use crate::route::{RouteContext, Router};
use crate::scan::Files;

/// Zola, as the pipeline drives it.
pub struct Zola;

impl Generator for Zola {
    fn style(&self) -> Style {
        Style::Zola
    }

    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        Box::new(route::ZolaRouter::new(files, ctx))
    }
}
