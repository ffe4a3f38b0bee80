//! The plain wing, for sites that follow neither generator: a file's path is its URL
//! ([`route`]), and there is no site config to read.

pub mod route;

use crate::config::Style;
use crate::generator::Generator;
use crate::route::{RouteContext, Router};
use crate::scan::Files;

/// Neither generator: a file's path is its URL.
pub struct Plain;

impl Generator for Plain {
    fn style(&self) -> Style {
        Style::Plain
    }

    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        Box::new(route::PlainRouter::new(files, ctx))
    }
}
