//! Hugo's own config (`hugo.*`/`config.*` and `config/_default/`, merged by
//! [`super::config_files`]) read into a [`SiteConfig`], as the site's Hugo release reads it.

use super::config_files;
use super::mounts;
use super::permalink_rules;
use super::version::HugoRules;
use crate::siteconfig::Style;
use crate::siteconfig::{
    Language, SiteConfig, Taxonomy, check_languages, get, get_bool, get_str, locate, no_html_kinds,
    not_text, strings,
};
use crate::vocab::crawl_hints::{ChangeFreq, Priority};
use crate::vocab::error::{Error, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Reads again, as the site's Hugo release reads them, the config values whose reading
/// changed between releases: booleans (`"true"`, `1`), `disableKinds`, the default
/// language's case, `timeZone`, language weights and `[permalinks]` tables. A value the
/// release refuses is an error naming the file and line.
pub fn apply_rules(site: &mut SiteConfig, rules: &HugoRules) -> Result<()> {
    if site.style != Style::Hugo {
        return Ok(());
    }
    // yaml.v2 (before 0.152) takes a key given twice with its last value, as it was read;
    // go-yaml stops at it.
    if let Some((file, twice)) = &site.yaml_key_twice
        && !rules.yaml_v2
    {
        let m = format!(
            "{}: Hugo {} stops at a key given twice (before 0.152 Hugo took its last value); remove one",
            twice.message, rules.version
        );
        return Err(Error::config(file, Some(twice.line), m));
    }
    let v = std::mem::take(&mut site.raw);
    let strict = rules.config_decoded_strictly;
    let (layers, main) = (
        site.layers.clone(),
        site.config_file.clone().unwrap_or_default(),
    );
    let error_at = |keys: &[&str], m: String| -> Error {
        let (file, line) = locate(&layers, &main, keys);
        Error::config(file, line, m)
    };
    let bool_of = |key: &str, x: &Value| -> Result<bool> {
        hugo_config_bool(x, rules).ok_or_else(|| {
            error_at(
                &[key],
                format!("`{key}` = {x} is not true or false, and Hugo {} stops at it: write true or false", rules.version),
            )
        })
    };
    for (key, field) in [
        ("buildDrafts", 0),
        ("buildFuture", 1),
        ("buildExpired", 2),
        ("disablePathToLower", 3),
        ("removePathAccents", 4),
        ("defaultContentLanguageInSubdir", 5),
        ("enableGitInfo", 6),
    ] {
        let Some(x) = get(&v, key) else { continue };
        let b = bool_of(key, x)?;
        match field {
            0 => site.build_drafts = b,
            1 => site.build_future = b,
            2 => site.build_expired = b,
            3 => site.disable_path_to_lower = b,
            4 => site.remove_path_accents = b,
            5 => site.default_language_in_subdir = b,
            _ => site.enable_git_info = b,
        }
    }
    // `uglyURLs` is read as it always was (`true`, `"true"`, or a table): see ugly_urls.
    // A `[sitemap]` priority that is no number: 0.111 casts it (left out here, warned),
    // 0.112 and later stop.
    if let Some(p) = get(&v, "sitemap").and_then(|sm| get(sm, "priority")) {
        let number = match p {
            Value::Number(_) | Value::Null | Value::Bool(_) => true,
            Value::String(s) => s.is_empty() || s.trim().parse::<f64>().is_ok(),
            _ => false,
        };
        if strict && !number {
            return Err(error_at(
                &["sitemap", "priority"],
                format!(
                    "`[sitemap] priority` = {p} is not a number: Hugo {} stops at it",
                    rules.version
                ),
            ));
        }
    }
    // `ignoreFiles`: Hugo stops at a pattern Go cannot compile.
    site.ignore_files = strings(get(&v, "ignoreFiles"));
    if let Some((p, e)) = site
        .ignore_files
        .iter()
        .find_map(|p| regex_automata::meta::Regex::new(p).err().map(|e| (p, e)))
    {
        return Err(error_at(
            &["ignoreFiles"],
            format!(
                "the `ignoreFiles` pattern '{p}' is no regular expression ({e}), and Hugo stops at it"
            ),
        ));
    }
    if rules.content_policy {
        let given = get(&v, "security")
            .and_then(|s| get(s, "allowContent"))
            .map(|p| strings(Some(p)));
        let default = match rules.org_content_refused {
            true => super::content_policy::DEFAULT_0_166,
            false => super::content_policy::DEFAULT,
        };
        site.content_denied = super::content_policy::denied(given, default)
            .map_err(|m| error_at(&["security", "allowContent"], m))?;
    }
    // A mount's `lang` became `sites.matrix` in 0.153, and is a build error from 0.168.
    if rules.mount_lang_refused
        && let Some(Value::Array(mounts)) = get(&v, "module").and_then(|m| get(m, "mounts"))
        && let Some(i) = mounts
            .iter()
            .position(|m| get_str(m, "lang").is_some_and(|l| !l.is_empty()))
    {
        let i = i.to_string();
        return Err(error_at(
            &["module", "mounts", &i, "lang"],
            format!(
                "a mount's `lang` was removed in Hugo 0.168 (deprecated in 0.153), and Hugo {} stops at it: write `sites.matrix.languages = [\"...\"]` in the mount instead",
                rules.version
            ),
        ));
    }
    // disableKinds: before 0.112 kinds are matched as written (`Taxonomy` is none), and
    // `taxonomy` without `term` stops the build (Hugo's ambiguity since 0.73) unless
    // `ignoreErrors` names it. The old `taxonomyTerm` is the taxonomy list.
    let kinds: Vec<String> = strings(get(&v, "disableKinds"));
    site.disable_kinds = kinds
        .iter()
        .filter(|k| {
            strict
                || k.chars().all(|c| c.is_ascii_lowercase())
                || matches!(k.as_str(), "RSS" | "taxonomyTerm")
        })
        .map(|k| match k.to_ascii_lowercase().as_str() {
            "taxonomyterm" => "taxonomy".to_string(),
            k => k.to_string(),
        })
        .collect();
    site.generate_sitemap = !site.disable_kinds.iter().any(|k| k == "sitemap");
    let ignored = strings(get(&v, "ignoreErrors"));
    if !strict {
        let has = |k: &str| kinds.iter().any(|x| x == k);
        // With the old `taxonomyTerm` beside it, `taxonomy` keeps its old meaning, the term
        // pages: Hugo 0.111 turns off both and builds (its site.go, seen in 0.111.3).
        if has("taxonomyTerm") {
            if has("taxonomy") && !has("term") {
                site.disable_kinds.push("term".into());
            }
        } else if has("taxonomy")
            && !has("term")
            && !ignored.iter().any(|e| e == "error-disable-taxonomy")
        {
            return Err(error_at(
                &["disableKinds"],
                format!(
                    "`disableKinds` has `taxonomy` without `term`: Hugo {} stops here (its 0.73 change of meaning); add \"term\" too, or ignoreErrors = [\"error-disable-taxonomy\"]",
                    rules.version
                ),
            ));
        }
        if let Some(Value::Object(o)) = get(&v, "outputs") {
            let has = |k: &str| o.keys().any(|x| x.eq_ignore_ascii_case(k));
            if has("taxonomy")
                && !has("term")
                && !has("taxonomyterm")
                && !ignored.iter().any(|e| e == "error-output-taxonomy")
            {
                return Err(error_at(
                    &["outputs", "taxonomy"],
                    format!(
                        "`outputs` has `taxonomy` without `term`: Hugo {} stops here (its 0.73 change of meaning); add `term` too, or ignoreErrors = [\"error-output-taxonomy\"]",
                        rules.version
                    ),
                ));
            }
        }
        // A `[permalinks]` table by kind (`[permalinks.page]`) is 0.112's; 0.111 crashes.
        if let Some(Value::Object(p)) = get(&v, "permalinks")
            && let Some((k, _)) = p.iter().find(|(_, x)| x.is_object())
        {
            return Err(error_at(
                &["permalinks", k],
                format!(
                    "`[permalinks.{k}]` is a table by page kind, which Hugo {} does not read (it stops): write `[permalinks]` `section = \"pattern\"`",
                    rules.version
                ),
            ));
        }
        // Before 0.112 the default language is matched as written.
        let given = get_str(&v, "defaultContentLanguage").unwrap_or_default();
        site.default_language_unmatched = !given.is_empty()
            && site.languages.len() > 1
            && !site.languages.iter().any(|l| l.code == given);
    } else if let Some(Value::Object(langs)) = get(&v, "languages") {
        for (code, l) in langs {
            if let Some(w) = get(l, "weight") {
                let ok = match w {
                    Value::Number(_) | Value::Null => true,
                    Value::String(s) => s.trim().is_empty() || s.trim().parse::<i64>().is_ok(),
                    Value::Bool(_) => true,
                    _ => false,
                };
                if !ok {
                    return Err(error_at(
                        &["languages", code, "weight"],
                        format!(
                            "`languages.{code}.weight` = {w} is not a number: Hugo {} stops at it",
                            rules.version
                        ),
                    ));
                }
            }
        }
    }
    if rules.permalink_segments_checked
        && let Some(Value::Object(p)) = get(&v, "permalinks")
    {
        let mut patterns: Vec<(Vec<&str>, &str)> = Vec::new();
        for (k, x) in p {
            match x {
                Value::String(s) => patterns.push((vec![k], s)),
                Value::Object(inner) => patterns.extend(
                    inner
                        .iter()
                        .filter_map(|(sec, s)| Some((vec![k.as_str(), sec], s.as_str()?))),
                ),
                _ => {}
            }
        }
        for (keys, pattern) in patterns {
            if !crate::hugo::permalink_tokens::well_formed_before_0_137(pattern, rules) {
                let mut at = vec!["permalinks"];
                at.extend(keys);
                // Hugo says "ill-formed" for an unknown token too: name the real cause.
                let unknown =
                    crate::hugo::permalink_tokens::unknown_permalink_token(pattern, rules);
                let m = match unknown {
                    Some(t) => format!(
                        "the permalink pattern '{pattern}' has an unknown token :{t} (Hugo {} stops: \"permalink ill-formed\")",
                        rules.version
                    ),
                    None => format!(
                        "the permalink pattern '{pattern}' is ill-formed for Hugo {} (an empty segment before the last, or an empty pattern), and it stops: start the pattern with `/`",
                        rules.version
                    ),
                };
                return Err(error_at(&at, m));
            }
        }
    }
    // `permalinks` as a list of rules is read from 0.161; before, Hugo read it as a table and
    // a list as none, so every page kept its usual URL.
    if let Some(Value::Array(entries)) = get(&v, "permalinks") {
        if rules.permalink_rules {
            let langs: Vec<&str> = site.languages.iter().map(|l| l.code.as_str()).collect();
            site.permalink_rules = permalink_rules::read(entries, &site.environment, &langs)
                .map_err(|e| {
                    let mut keys = vec!["permalinks"];
                    keys.extend(e.keys.iter().map(String::as_str));
                    let m = format!("{}: Hugo {} stops at it", e.message, rules.version);
                    error_at(&keys, m)
                })?;
        } else if !entries.is_empty() {
            let (file, line) = locate(&layers, &main, &["permalinks"]);
            let at = line.map_or(String::new(), |l| format!(":{l}"));
            site.warnings.push(format!(
                "{}{at}: Hugo {} does not read `[[permalinks]]` rules (0.161 added them), so its pages keep their usual URLs; to stop seeing this, build with Hugo 0.161 or later, or remove the rules",
                file.display(),
                rules.version
            ));
        }
    }
    // Go's time.LoadLocation: an IANA name (or UTC, Local); an offset or a number is none.
    if let Some(tz) = get(&v, "timeZone") {
        let ok = match tz {
            Value::String(s) => !s.starts_with(['+', '-']),
            _ => false,
        };
        if !ok {
            return Err(error_at(
                &["timeZone"],
                format!(
                    "`timeZone` = {tz} is no time zone Hugo reads (it stops the build): write an IANA name like \"Europe/Berlin\""
                ),
            ));
        }
    }
    site.raw = v;
    Ok(())
}

pub(super) fn read_hugo(
    root_file: Option<&Path>,
    config_dir: &Path,
    env: &str,
) -> Result<SiteConfig> {
    let merged = config_files::load(root_file, config_dir, env)?;
    let v = merged.value;
    let raw = v.clone();
    // The file messages name: the root file, else config/_default's hugo.* or config.*.
    let config_file = root_file.map(Path::to_path_buf).or_else(|| {
        let main = merged.layers.iter().find(|l| l.at.is_empty());
        main.or(merged.layers.first()).map(|l| l.file.clone())
    });
    let path = config_file
        .clone()
        .unwrap_or_else(|| config_dir.join("_default"));
    let bad = |m: String| Error::config(&path, None, m);
    let mut c = SiteConfig {
        style: Style::Hugo,
        config_file,
        base_url: get_str(&v, "baseURL"),
        base_url_kind: not_text(get(&v, "baseURL")),
        default_language: get_str(&v, "defaultContentLanguage")
            .unwrap_or_else(|| "en".into())
            .to_ascii_lowercase(),
        default_language_in_subdir: get_bool(&v, "defaultContentLanguageInSubdir").unwrap_or(false),
        disable_path_to_lower: get_bool(&v, "disablePathToLower").unwrap_or(false),
        list_titles: crate::siteconfig::ListTitles {
            style: get_str(&v, "titleCaseStyle").unwrap_or_default(),
            capitalize: get_bool(&v, "capitalizeListTitles").unwrap_or(true),
            pluralize: get_bool(&v, "pluralizeListTitles").unwrap_or(true),
        },
        remove_path_accents: get_bool(&v, "removePathAccents").unwrap_or(false),
        disable_kinds: strings(get(&v, "disableKinds"))
            .into_iter()
            .map(|k| k.to_ascii_lowercase())
            .collect(),
        timezone: get_str(&v, "timeZone"),
        content_dir: get_str(&v, "contentDir").map(PathBuf::from),
        publish_dir: get_str(&v, "publishDir").map(PathBuf::from),
        build_drafts: get_bool(&v, "buildDrafts").unwrap_or(false),
        build_future: get_bool(&v, "buildFuture").unwrap_or(false),
        build_expired: get_bool(&v, "buildExpired").unwrap_or(false),
        enable_git_info: get_bool(&v, "enableGitInfo").unwrap_or(false),
        environment: env.to_string(),
        title: get_str(&v, "title"),
        ..Default::default()
    };
    c.raw = raw;
    c.yaml_key_twice = merged.twice;
    c.generate_sitemap = !c.disable_kinds.iter().any(|k| k == "sitemap");
    c.no_html_kinds = no_html_kinds(get(&v, "outputs"));
    (c.ugly_urls, c.ugly_sections) = ugly_urls(get(&v, "uglyURLs"));
    c.content_mounts = mounts::content_mounts(&v);
    c.layers = merged.layers;
    c.notes = hugo_notes(&c, env);
    let mut warnings = Vec::new();
    if let Some(fm) = get(&v, "frontmatter") {
        let lower = |l| -> Vec<String> {
            strings(Some(l))
                .into_iter()
                .map(|s| s.to_ascii_lowercase())
                .collect()
        };
        c.frontmatter_lastmod = get(fm, "lastmod").map(lower);
        c.frontmatter_date = get(fm, "date").map(lower);
        c.hugo_dates = std::sync::Arc::new(crate::hugo::dates::HugoDates::new(
            c.frontmatter_date.clone(),
            c.frontmatter_lastmod.clone(),
            get(fm, "publishdate").map(lower),
            get(fm, "expirydate").map(lower),
        ));
    }
    if let Some(sm) = get(&v, "sitemap") {
        c.sitemap_filename = get_str(sm, "filename");
        let (cf, pr) = hugo_sitemap_fields(sm, &mut warnings).map_err(bad)?;
        c.default_changefreq = cf;
        c.default_priority = pr;
    }
    if let Some(Value::Object(p)) = get(&v, "permalinks") {
        // Hugo refuses a pattern with a token it does not know when it reads its config:
        // the error names the file and line that set the pattern, not a page using it.
        let checked = |c: &SiteConfig, keys: &[&str], pattern: &str| {
            crate::hugo::permalink_tokens::check_page_permalink(pattern)
                .map_err(|m| c.error_at(keys, m))
        };
        for (k, pat) in p {
            match pat {
                // A pattern by name is for the section's pages and the taxonomy's terms.
                Value::String(s) => {
                    checked(&c, &["permalinks", k], s)?;
                    c.permalinks.push((k.to_ascii_lowercase(), s.clone()));
                    c.term_permalinks.push((k.to_ascii_lowercase(), s.clone()));
                }
                // Hugo 0.112+ nests by kind (`[permalinks.page]`, `[permalinks.term]`), each
                // for that kind alone.
                Value::Object(inner)
                    if matches!(k.as_str(), "page" | "term" | "section" | "taxonomy") =>
                {
                    for (sec, s) in inner {
                        if let Some(s) = s.as_str() {
                            checked(&c, &["permalinks", k, sec], s)?;
                            let entry = (sec.to_ascii_lowercase(), s.to_string());
                            match k.as_str() {
                                "term" => c.term_permalinks.push(entry),
                                "page" => c.permalinks.push(entry),
                                // Hugo matches these keys against content paths: lower
                                // case, no slash at either end (`/` alone: top sections).
                                "section" => c.section_permalinks.push(list_key(sec, s)),
                                _ => c.taxonomy_permalinks.push(list_key(sec, s)),
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        c.permalinks.sort();
        c.term_permalinks.sort();
        c.section_permalinks.sort();
        c.taxonomy_permalinks.sort();
    }
    c.taxonomies = match get(&v, "taxonomies") {
        Some(Value::Object(t)) => {
            let mut names: Vec<String> = t
                .values()
                .filter_map(|x| x.as_str().map(str::to_ascii_lowercase))
                .collect();
            names.sort();
            names.into_iter().map(hugo_taxonomy).collect()
        }
        _ => vec![
            hugo_taxonomy("categories".into()),
            hugo_taxonomy("tags".into()),
        ],
    };
    let disabled_langs: Vec<String> = strings(get(&v, "disableLanguages"))
        .into_iter()
        .map(|l| l.to_ascii_lowercase())
        .collect();
    if let Some(Value::Object(langs)) = get(&v, "languages") {
        for (code, l) in langs {
            let code = code.to_ascii_lowercase();
            if disabled_langs.contains(&code) || get_bool(l, "disabled").unwrap_or(false) {
                c.disabled_languages.push(code);
                continue;
            }
            let (changefreq, priority) = match get(l, "sitemap") {
                Some(sm) => hugo_sitemap_fields(sm, &mut warnings).map_err(bad)?,
                None => (None, None),
            };
            c.languages.push(Language {
                weight: get(l, "weight").and_then(Value::as_i64).unwrap_or(0),
                base_url: get_str(l, "baseURL"),
                content_dir: get_str(l, "contentDir").map(PathBuf::from),
                hreflang: get_str(l, "languageCode")
                    .or_else(|| get(l, "params").and_then(|p| get_str(p, "languageCode"))),
                locale: get_str(l, "locale"),
                changefreq,
                sitemap_table_filename: get(l, "sitemap")
                    .map(|sm| get_str(sm, "filename").unwrap_or_else(|| "sitemap.xml".into())),
                priority,
                title: get_str(l, "title"),
                taxonomies: None,
                code,
            });
        }
    }
    // Hugo orders languages by weight, then name; a weight of 0 sorts last.
    c.languages.sort_by(|a, b| {
        let w = |l: &Language| if l.weight == 0 { i64::MAX } else { l.weight };
        w(a).cmp(&w(b)).then_with(|| a.code.cmp(&b.code))
    });
    // An empty `defaultContentLanguage` is unset, to Hugo.
    let explicit_default = get_str(&v, "defaultContentLanguage").is_some_and(|d| !d.is_empty());
    if !explicit_default {
        c.default_language = "en".into();
    }
    hugo_default_language(&mut c, explicit_default)?;
    // The top-level `languageCode` and `locale` belong to the default language.
    if let Some(l) = c
        .languages
        .iter_mut()
        .find(|l| l.code == c.default_language)
    {
        if l.hreflang.is_none() {
            l.hreflang = get_str(&v, "languageCode");
        }
        if l.locale.is_none() {
            l.locale = get_str(&v, "locale");
        }
    }
    // Multihost: every language on a host of its own, each with its own sitemap. Hugo refuses
    // a config that gives some languages a baseURL and not others.
    let hosted = c.languages.iter().filter(|l| l.base_url.is_some()).count();
    if hosted > 0 && hosted < c.languages.len() && c.languages.len() > 1 {
        let missing: Vec<&str> = c
            .languages
            .iter()
            .filter(|l| l.base_url.is_none())
            .map(|l| l.code.as_str())
            .collect();
        return Err(bad(format!(
            "baseURL must be set on all or none of the languages (Hugo refuses to build); missing on {}",
            missing.join(", ")
        )));
    }
    if c.is_multihost() && c.base_url.is_none() {
        // Hugo needs no top-level baseURL then: the default language's stands for the site.
        c.base_url = c
            .language(&c.default_language)
            .and_then(|l| l.base_url.clone());
    }
    check_languages(&mut c, &path, &mut warnings)?;
    c.warnings = warnings
        .into_iter()
        .map(|w| format!("{}: {w}", path.display()))
        .collect();
    Ok(c)
}

/// The default language as Hugo resolves it: the one `defaultContentLanguage` names (Hugo
/// refuses to build when that is no language, or a turned-off one); unset, `en` when it is
/// one of the languages, else the first in Hugo's order. With no languages, it is the only one.
fn hugo_default_language(c: &mut SiteConfig, explicit: bool) -> Result<()> {
    if c.languages.iter().any(|l| l.code == c.default_language) {
        return Ok(());
    }
    if c.languages.is_empty() {
        c.languages
            .push(Language::named(c.default_language.clone()));
        return Ok(());
    }
    if explicit {
        let why = match c.disabled_languages.contains(&c.default_language) {
            true => "is turned off",
            false => "is not one of the languages configured",
        };
        let message = format!(
            "defaultContentLanguage \"{}\" {why} (Hugo refuses to build)",
            c.default_language
        );
        return Err(c.error_at(&["defaultContentLanguage"], message));
    }
    let first = c
        .languages
        .iter()
        .find(|l| l.code == "en")
        .or(c.languages.first());
    c.default_language = first.map(|l| l.code.clone()).unwrap_or_default();
    Ok(())
}

/// What `--verbose` says about a Hugo config: its files and environment, and its mounts.
fn hugo_notes(c: &SiteConfig, env: &str) -> Vec<String> {
    let files: Vec<String> = c
        .layers
        .iter()
        .map(|l| l.file.display().to_string())
        .collect();
    let mut notes = vec![format!(
        "Hugo config (environment {env}): {}",
        files.join(", ")
    )];
    for m in &c.content_mounts {
        let target = match m.target.as_str() {
            "" => "content".to_string(),
            t => format!("content/{t}"),
        };
        // (`sites.matrix` languages are read from Hugo 0.153, which the run may not follow.)
        let mut all = m.langs.clone();
        all.extend(m.sites_langs.iter().cloned());
        all.sort();
        all.dedup();
        let langs = match all.is_empty() {
            true => String::new(),
            false => format!(" ({})", all.join(", ")),
        };
        notes.push(format!(
            "content mount: {} -> {target}{langs}",
            m.source.display()
        ));
    }
    notes
}

/// A Hugo config boolean as the release reads it: before 0.112 cast's (a string Go's
/// `ParseBool` cannot read, or a TOML number, is false); from 0.112 decoded (any number,
/// not zero, is true; a string Go cannot read is refused: `None`).
pub(super) fn hugo_config_bool(x: &Value, rules: &crate::hugo::version::HugoRules) -> Option<bool> {
    let parse = |s: &str| match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    };
    let strict = rules.config_decoded_strictly;
    match x {
        Value::Bool(b) => Some(*b),
        Value::Null => Some(false),
        Value::String(s) if s.is_empty() => Some(false),
        Value::String(s) => match (parse(s), strict) {
            (Some(b), _) => Some(b),
            (None, true) => None,
            (None, false) => Some(false),
        },
        Value::Number(n) => Some(strict && n.as_f64().is_some_and(|f| f != 0.0)),
        _ if strict => None,
        _ => Some(false),
    }
}

/// Hugo `uglyURLs`: a boolean (or `"true"`), or a map of sections to booleans.
fn ugly_urls(v: Option<&Value>) -> (bool, Vec<String>) {
    let truthy = |v: &Value| v.as_bool().unwrap_or(false) || v.as_str() == Some("true");
    match v {
        Some(Value::Object(m)) => {
            let mut sections: Vec<String> = m
                .iter()
                .filter(|(_, on)| truthy(on))
                .map(|(s, _)| s.to_lowercase())
                .collect();
            sections.sort();
            (false, sections)
        }
        Some(other) => (truthy(other), Vec::new()),
        None => (false, Vec::new()),
    }
}

/// A `[permalinks.section]` or `[permalinks.taxonomy]` entry: the key as Hugo matches it
/// against a content path (lower case, no `/` or space at either end), and the pattern.
fn list_key(key: &str, pattern: &str) -> (String, String) {
    let key = key.trim_matches([' ', '/']).to_lowercase();
    (key, pattern.to_string())
}

fn hugo_taxonomy(name: String) -> Taxonomy {
    Taxonomy {
        name,
        paginate_by: None,
        paginate_path: "page".into(),
        render: true,
    }
}

type SitemapFields = (Option<ChangeFreq>, Option<Priority>);

/// A Hugo `[sitemap]` table. Hugo writes whatever it is given, so a changefreq the protocol
/// does not know, or a priority above 1, is left out with a warning in `warnings` rather than
/// stopping the run; a negative priority is Hugo's "none".
fn hugo_sitemap_fields(
    sm: &Value,
    warnings: &mut Vec<String>,
) -> std::result::Result<SitemapFields, String> {
    let cf = match get_str(sm, "changefreq") {
        Some(s) if !s.is_empty() => match s.parse::<ChangeFreq>() {
            Ok(c) => Some(c),
            Err(m) => {
                warnings.push(format!("[sitemap] changefreq: {m}; left out"));
                None
            }
        },
        _ => None,
    };
    let pr = match get(sm, "priority") {
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f < 0.0 => None,
            Some(f) => match Priority::from_f64(f) {
                Some(p) => Some(p),
                None => {
                    warnings.push(format!(
                        "[sitemap] priority {f} is above 1.0, the protocol's maximum; left out"
                    ));
                    None
                }
            },
            None => None,
        },
        // Hugo casts it (a word is 0 to 0.111) or ignores it: never a stop.
        Some(Value::String(s)) => match s.parse::<Priority>() {
            Ok(p) => Some(p),
            Err(_) => {
                warnings.push(format!(
                    "[sitemap] priority '{s}' is not a number from 0.0 to 1.0; left out"
                ));
                None
            }
        },
        _ => None,
    };
    Ok((cf, pr))
}
