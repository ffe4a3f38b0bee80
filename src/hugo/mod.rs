//! Hugo's wing: what Hugo means, whatever the stage that asks: its rules by release
//! ([`version`]), Go's time layouts as Hugo uses them for front-matter dates and permalink
//! tokens ([`golayout`]), the grammar of a `[permalinks]` pattern ([`permalink_tokens`]),
//! and its routing ([`route`]).

pub mod golayout;
pub mod permalink_tokens;
pub mod route;
pub mod version;

use crate::config::Style;
use crate::generator::Generator;
use crate::route::{Buffered, RouteContext, Router};
use crate::scan::Files;

/// Hugo, as the pipeline drives it.
pub struct Hugo;

impl Generator for Hugo {
    fn style(&self) -> Style {
        Style::Hugo
    }

    /// Hugo's rules look across pages (cascades, bundles, translations): its router holds
    /// every page until all are read.
    fn router<'a>(&self, files: &'a Files, ctx: &RouteContext<'a>) -> Box<dyn Router + 'a> {
        Box::new(Buffered::new(files, ctx, route::route))
    }
}
