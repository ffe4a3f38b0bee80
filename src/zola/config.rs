//! Zola's own config (`zola.toml`, or `config.toml` before Zola 0.19) read into a
//! [`SiteConfig`]: its base URL, languages, taxonomies and the keys that shape its URLs.

use crate::siteconfig::Style;
use crate::siteconfig::{
    Language, SiteConfig, Taxonomy, check_languages, get, get_bool, get_str, not_text, read_value,
    strings,
};
use crate::vocab::config_text::error_at;
use crate::vocab::error::{Error, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub(super) fn read_zola(path: &Path) -> Result<SiteConfig> {
    // config.toml: TOML refuses a key given twice, so none comes back.
    let (v, _) = read_value(path)?;
    let bad = |m: String| Error::config(path, None, m);
    let mut c = SiteConfig {
        style: Style::Zola,
        config_file: Some(path.to_path_buf()),
        base_url: get_str(&v, "base_url"),
        base_url_kind: not_text(get(&v, "base_url")),
        default_language: get_str(&v, "default_language").unwrap_or_else(|| "en".into()),
        generate_sitemap: get_bool(&v, "generate_sitemap").unwrap_or(true),
        ignored_content: strings(get(&v, "ignored_content")),
        publish_dir: get_str(&v, "output_dir").map(PathBuf::from),
        taxonomy_root: get_str(&v, "taxonomy_root").filter(|r| !r.trim_matches('/').is_empty()),
        ..Default::default()
    };
    if let Some(s) = get(&v, "slugify") {
        c.slugify_paths = get_str(s, "paths").unwrap_or_else(|| "on".into());
        c.slugify_taxonomies = get_str(s, "taxonomies").unwrap_or_else(|| "on".into());
        c.paths_keep_dates = get_bool(s, "paths_keep_dates").unwrap_or(false);
    }
    // Zola refuses a strategy it does not know; so do we, rather than guess the URLs.
    for (key, value) in [
        ("paths", &c.slugify_paths),
        ("taxonomies", &c.slugify_taxonomies),
    ] {
        value
            .parse::<crate::slugify::SlugStrategy>()
            .map_err(|m| error_at(path, &["slugify", key], format!("slugify.{key}: {m}")))?;
    }
    // Zola writes `/{root}/{taxonomy}/`: a root with slashes or none gives `//` there.
    if let Some(r) = get_str(&v, "taxonomy_root")
        && (r.is_empty() || r.contains('/'))
    {
        c.warnings.push(format!(
                "{}: taxonomy_root = \"{r}\": Zola's taxonomy URLs get '//' from it; written here without",
                path.display()
            ));
    }
    c.exclude_paginated_pages = match get(&v, "exclude_paginated_pages_in_sitemap") {
        None => false,
        Some(Value::String(s)) if s == "all" => true,
        Some(Value::String(s)) if s == "none" => false,
        Some(other) => {
            return Err(bad(format!(
                "exclude_paginated_pages_in_sitemap is {other}: Zola accepts \"all\" or \"none\""
            )));
        }
    };
    c.taxonomies = zola_taxonomies(get(&v, "taxonomies")).map_err(bad)?;
    c.languages.push(Language {
        taxonomies: Some(c.taxonomies.clone()),
        ..Language::named(c.default_language.clone())
    });
    if let Some(Value::Object(langs)) = get(&v, "languages") {
        for (code, l) in langs {
            if *code == c.default_language {
                continue;
            }
            let taxonomies = match get(l, "taxonomies") {
                Some(t) => Some(zola_taxonomies(Some(t)).map_err(bad)?),
                None => Some(Vec::new()),
            };
            c.languages.push(Language {
                weight: 1,
                taxonomies,
                ..Language::named(code.clone())
            });
        }
    }
    // Zola refuses a glob it cannot compile; checked here so the error names this file.
    crate::vocab::config_text::glob_set(&c.ignored_content, path).map_err(|e| match e {
        Error::Config { message, .. } => error_at(
            path,
            &["ignored_content"],
            format!("ignored_content: {message}"),
        ),
        other => other,
    })?;
    check_languages(&mut c, path, &mut Vec::new())?;
    Ok(c)
}

/// On a multilingual site every language becomes an `hreflang`: its code, or its Hugo
/// `languageCode` when set, must be a BCP 47 tag. A `languageCode` that is not one is left
/// out with a warning (the code stands in, as Hugo's own default); a code that is not one,
/// when it is what would be written, stops the run naming the config file.
fn zola_taxonomies(v: Option<&Value>) -> std::result::Result<Vec<Taxonomy>, String> {
    let Some(Value::Array(list)) = v else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|t| {
            let name = get_str(t, "name").ok_or("every [[taxonomies]] entry needs a name")?;
            Ok(Taxonomy {
                name,
                paginate_by: get(t, "paginate_by")
                    .and_then(Value::as_u64)
                    .map(|n| n as u32),
                paginate_path: get_str(t, "paginate_path").unwrap_or_else(|| "page".into()),
                render: get_bool(t, "render").unwrap_or(true),
            })
        })
        .collect()
}
