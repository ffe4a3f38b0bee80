//! Times the pipeline's stages one by one on a site (for performance work):
//! `cargo run --release --example stage-times -- SITE_DIR [ROUNDS]`.

use rayon::prelude::*;
use sitemapgen::frontmatter::{self, Terms};
use sitemapgen::route::{self, Pages, RouteContext};
use sitemapgen::settings::Overrides;

use std::path::PathBuf;
use std::time::Instant;

fn main() -> sitemapgen::Result<()> {
    let mut args = std::env::args().skip(1);
    let site = PathBuf::from(args.next().unwrap_or_else(|| ".".into()));
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(3);
    let settings = sitemapgen::load(&Overrides {
        site: Some(site),
        ..Default::default()
    })?;
    let t = Instant::now();
    let files = sitemapgen::scan::scan_site(&settings)?;
    println!(
        "scan         {:>8.3} s  {} files, {:.1} bytes a file kept",
        t.elapsed().as_secs_f64(),
        files.len(),
        files.heap_bytes() as f64 / files.len().max(1) as f64
    );
    let t = Instant::now();
    let generator = sitemapgen::pipeline::generator(settings.style);
    let opts = generator.front_matter(&settings);
    let read = (0..files.len())
        .into_par_iter()
        .map(|i| {
            let (fm, _) = frontmatter::read(&files.get(i).path(), &opts, false)?;
            let terms = Terms::pack(&fm.taxonomies, &fm.taxonomy_table);
            Ok((fm.meta, terms))
        })
        .collect::<sitemapgen::Result<Vec<_>>>()?;
    let mut pages = Pages::new(&files);
    for (meta, terms) in read {
        pages.push(meta, &terms)?;
    }
    println!("front matter {:>8.3} s", t.elapsed().as_secs_f64());
    let ctx = RouteContext {
        settings: &settings,
        now: chrono::Utc::now(),
        served: sitemapgen::host::Forms::of(sitemapgen::host::Platform::Plain),
    };
    for _ in 0..rounds {
        let t = Instant::now();
        let router = generator.router(&files, &ctx);
        let routing = route::route_all(&pages, router, &ctx)?;
        println!(
            "route        {:>8.3} s  {} routes",
            t.elapsed().as_secs_f64(),
            routing.routes.len()
        );
    }
    Ok(())
}
