//! Hugo's config files merged as Hugo merges them: the root `hugo.*` (else `config.*`), then
//! every file below `config/_default/`, then below `config/<environment>/`, each later value
//! winning key by key. In a config folder a file holds the key it is named after
//! (`params.toml` is `params`), and `<key>.<lang>` belongs to that language:
//! `languages.fr.toml` is `languages.fr`, `menus.fr.toml` `languages.fr.menus`,
//! `params.fr.toml` `languages.fr.params`.

use crate::frontmatter::yaml::KeyTwice;
use crate::siteconfig::{Layer, merge, read_value};
use crate::vocab::error::{Error, Result};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The merged config and the files it came from, in merge order.
pub(super) struct Merged {
    /// Every key, lower-cased as Hugo lower-cases them.
    pub value: Value,
    /// The files, first to last.
    pub layers: Vec<Layer>,
    /// The first key a YAML file gives twice, and that file.
    pub twice: Option<(PathBuf, KeyTwice)>,
}

/// Hugo's environment: `--environment`, else `HUGO_ENVIRONMENT`, else `HUGO_ENV`, else
/// `production` (what `hugo` builds with; only `hugo server` defaults to `development`).
pub fn environment(flag: Option<&str>) -> String {
    let var = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    flag.map(str::to_string)
        .or_else(|| var("HUGO_ENVIRONMENT"))
        .or_else(|| var("HUGO_ENV"))
        .unwrap_or_else(|| "production".to_string())
}

/// Reads `root_file` (when there is one), then `config_dir/_default` and
/// `config_dir/<environment>`, merged.
pub(super) fn load(
    root_file: Option<&Path>,
    config_dir: &Path,
    environment: &str,
) -> Result<Merged> {
    let mut merged = Merged {
        value: Value::Object(Map::new()),
        layers: Vec::new(),
        twice: None,
    };
    if let Some(p) = root_file {
        let (value, twice) = read_value(p)?;
        merged.note_twice(p, twice);
        merged.add(p, Vec::new(), None, value);
    }
    let mut dirs = vec![config_dir.join("_default")];
    if !environment.is_empty() && environment != "_default" {
        dirs.push(config_dir.join(environment));
    }
    for dir in dirs {
        for p in config_files(&dir)? {
            let (at, wrap) = key_path(&p);
            let (value, twice) = read_value(&p)?;
            merged.note_twice(&p, twice);
            merged.add(&p, at, wrap, value);
        }
    }
    merged.apply_env(
        std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))),
    );
    Ok(merged)
}

/// The keys whose value from the environment Hugo splits into a list (its
/// `envStringToVal`): `[a, b]` as YAML, else on commas, else on white space.
const ENV_LIST_KEYS: [&str; 4] = [
    "disablekinds",
    "disablelanguages",
    "ignorefiles",
    "ignorelogs",
];

/// The true-or-false keys sitemapgen reads, which Hugo casts from the environment's string.
const ENV_BOOL_KEYS: [&str; 8] = [
    "builddrafts",
    "buildfuture",
    "buildexpired",
    "disablepathtolower",
    "removepathaccents",
    "defaultcontentlanguageinsubdir",
    "enablegitinfo",
    "uglyurls",
];

impl Merged {
    /// Keeps the first key a file gives twice (`file`'s, when it gives one).
    fn note_twice(&mut self, file: &Path, twice: Option<KeyTwice>) {
        if self.twice.is_none() {
            self.twice = twice.map(|t| (file.to_path_buf(), t));
        }
    }
    /// Merges one file's `value`, placed at `at` (and taken out of its repeated key `wrap`
    /// when it holds that key alone, as Hugo 0.162+ allows).
    fn add(&mut self, file: &Path, at: Vec<String>, wrap: Option<String>, value: Value) {
        let mut value = lower_keys(value);
        let mut wrapped = None;
        if let (Some(w), Value::Object(m)) = (&wrap, &mut value)
            && m.len() == 1
            && m.contains_key(w.as_str())
        {
            wrapped = m.remove(w.as_str()).map(|inner| (w.clone(), inner));
        }
        let wrapped_key = wrapped.as_ref().map(|(k, _)| k.clone());
        let mut placed = wrapped.map_or(value, |(_, inner)| inner);
        for key in at.iter().rev() {
            let mut m = Map::new();
            m.insert(key.clone(), placed);
            placed = Value::Object(m);
        }
        merge(&mut self.value, placed);
        self.layers.push(Layer {
            file: file.to_path_buf(),
            at,
            wrapped: wrapped_key,
        });
    }
}

impl Merged {
    /// Hugo's `HUGO<d><KEY>` environment overrides, applied over the merged files as Hugo's
    /// config loader applies them (0.111 and 0.168 alike): the character after `HUGO` is the
    /// delimiter between nested keys (`HUGO_DISABLELANGUAGES=en`, `HUGOxPARAMSxFOO=bar`). A
    /// value takes the type of the one it replaces (a bool, a number, a list), the list keys
    /// Hugo names are split, and anything else is a string. Each one is a layer named for its
    /// variable, so an error about its value names the variable.
    fn apply_env(&mut self, vars: impl Iterator<Item = (String, String)>) {
        let mut vars: Vec<(String, String)> = vars
            .filter(|(k, _)| k.starts_with("HUGO") && k.len() > "HUGO".len() + 1)
            .collect();
        vars.sort();
        for (name, raw) in vars {
            let rest = &name["HUGO".len()..];
            let Some(delim) = rest.chars().next() else {
                continue;
            };
            let path: Vec<String> = rest[delim.len_utf8()..]
                .split(delim)
                .map(str::to_ascii_lowercase)
                .collect();
            if path.iter().any(String::is_empty) {
                continue;
            }
            let Value::Object(mut map) = std::mem::take(&mut self.value) else {
                continue;
            };
            set_env_value(&mut map, &path, &raw);
            self.value = Value::Object(map);
            self.layers.push(Layer {
                file: PathBuf::from(&name),
                at: path,
                wrapped: None,
            });
        }
    }
}

/// Sets `path` in `map` to the environment's `raw` value, typed as Hugo types it.
fn set_env_value(map: &mut Map<String, Value>, path: &[String], raw: &str) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = map;
    for key in parents {
        let next = at
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !next.is_object() {
            *next = Value::Object(Map::new());
        }
        let Value::Object(inner) = next else { return };
        at = inner;
    }
    let typed = match at.get(last.as_str()) {
        Some(Value::Bool(_)) => go_bool(raw).map(Value::Bool),
        Some(Value::Number(_)) => raw
            .trim()
            .parse::<serde_json::Number>()
            .ok()
            .map(Value::Number),
        Some(Value::Array(_)) => Some(env_list(raw)),
        _ => None,
    };
    let top = path.len() == 1;
    let value = typed.unwrap_or_else(|| {
        if top && ENV_LIST_KEYS.contains(&last.as_str()) {
            env_list(raw)
        } else if top && ENV_BOOL_KEYS.contains(&last.as_str()) {
            // Hugo casts the string: a word Go cannot read is false, and the build goes on
            // (`HUGO_BUILDDRAFTS=maybe` builds with 0.111.3 and 0.168.0 alike).
            Value::Bool(go_bool(raw).unwrap_or(false))
        } else {
            Value::String(raw.to_string())
        }
    });
    at.insert(last.clone(), value);
}

/// Go's `strconv.ParseBool`.
fn go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// A list from the environment: `[a, b]` read as YAML's flow list, else split on commas,
/// else on white space.
fn env_list(raw: &str) -> Value {
    let v = raw.trim();
    let items: Vec<&str> =
        if let Some(inner) = v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            inner
                .split(',')
                .map(|s| s.trim().trim_matches(['"', '\'']))
                .filter(|s| !s.is_empty())
                .collect()
        } else if v.contains(',') {
            v.split(',').collect()
        } else {
            v.split_whitespace().collect()
        };
    Value::Array(
        items
            .into_iter()
            .map(|s| Value::String(s.to_string()))
            .collect(),
    )
}

/// Config files below `dir` (subfolders too), in Hugo's walk order; none when it is missing.
fn config_files(dir: &Path) -> Result<Vec<PathBuf>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_path_buf();
            Error::io(path, std::io::Error::other(e.to_string()))
        })?;
        let ext = entry
            .path()
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        let known = ["toml", "yaml", "yml", "json"]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(ext));
        if entry.file_type().is_file() && known {
            out.push(entry.into_path());
        }
    }
    Ok(out)
}

/// Where a config folder file's values go, from its name, and the key it may repeat.
fn key_path(file: &Path) -> (Vec<String>, Option<String>) {
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if stem == "hugo" || stem == "config" {
        return (Vec::new(), None);
    }
    // `languages.fr` -> (`languages`, `fr`): the last dot splits, as Hugo's does.
    match stem.rsplit_once('.') {
        Some((name, lang)) if !lang.is_empty() => {
            let mut at = vec!["languages".to_string(), lang.to_string()];
            match name {
                "menu" | "menus" => at.push("menus".into()),
                "params" => at.push("params".into()),
                _ => {}
            }
            (at, Some(name.to_string()))
        }
        _ => (vec![stem.clone()], Some(stem)),
    }
}

/// Every map key lower-cased, at any depth (Hugo's keys are case-insensitive), but the
/// own keys of a `[[permalinks]]` rule, which Hugo reads as written (`Pattern` is none).
///
/// Where one map spells a key twice (`uglyURLs` and `uglyurls`), Hugo's lower-casing moves
/// each spelling that is not lower case onto the lower-case key, so the lower-case one loses
/// in either order (0.111.3 and 0.168.0 alike); between two other spellings Go's map order
/// decides, at random from run to run, and we keep the one that sorts last.
///
/// `_merge` (how a theme's table merges into the site's) is a directive, no setting: it is
/// left out, so `_merge = "shallow"` in `[taxonomies]` makes no taxonomy.
fn lower_keys(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = Map::new();
            let mut respelled = std::collections::HashSet::new();
            for (k, v) in m {
                let lower = k.to_lowercase();
                if (lower == k && respelled.contains(&lower)) || lower == "_merge" {
                    continue;
                }
                let v = match lower.as_str() {
                    "permalinks" => lower_rule_keys(v),
                    _ => lower_keys(v),
                };
                if lower != k {
                    respelled.insert(lower.clone());
                }
                out.insert(lower, v);
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.into_iter().map(lower_keys).collect()),
        other => other,
    }
}

/// The value of `permalinks`: in a list of rules, each rule's own keys as written.
fn lower_rule_keys(v: Value) -> Value {
    let Value::Array(rules) = v else {
        return lower_keys(v);
    };
    let rule = |r: Value| match r {
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, lower_keys(v))).collect()),
        other => lower_keys(other),
    };
    Value::Array(rules.into_iter().map(rule).collect())
}

#[cfg(test)]
mod tests {

    #[test]
    fn environment_overrides_take_the_type_they_replace() {
        let mut m = Merged {
            value: serde_json::json!({"builddrafts": true, "languages": {"en": {"weight": 2}}}),
            layers: Vec::new(),
            twice: None,
        };
        let vars = [
            ("HUGO_BUILDDRAFTS", "false"),
            ("HUGO_DISABLELANGUAGES", "en fr"),
            ("HUGO_DISABLEKINDS", "[rss, 'sitemap']"),
            ("HUGOxLANGUAGESxENxWEIGHT", "7"),
            ("HUGOxPARAMSxFOO", "bar"),
            ("HUGO_UGLYURLS", "maybe"),
            ("HUGO_", "too short"),
            ("HUGOX", "no key"),
        ];
        m.apply_env(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(
            m.value,
            serde_json::json!({
                "builddrafts": false,
                "disablelanguages": ["en", "fr"],
                "disablekinds": ["rss", "sitemap"],
                "languages": {"en": {"weight": 7}},
                "params": {"foo": "bar"},
                "uglyurls": false,
            })
        );
        // Each is a layer named for its variable, so errors name it.
        let (file, line) = locate(&m.layers, Path::new("x"), &["languages", "en", "weight"]);
        assert_eq!(
            (file, line),
            (PathBuf::from("HUGOxLANGUAGESxENxWEIGHT"), None)
        );
    }

    use super::*;
    use crate::siteconfig::locate;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let p = d.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    #[test]
    fn file_names_place_their_values_as_hugo_does() {
        let cases = [
            ("hugo.toml", vec![], None),
            ("config.yaml", vec![], None),
            ("params.toml", vec!["params"], Some("params")),
            (
                "languages.fr.toml",
                vec!["languages", "fr"],
                Some("languages"),
            ),
            (
                "menus.en.yaml",
                vec!["languages", "en", "menus"],
                Some("menus"),
            ),
            (
                "menu.de.toml",
                vec!["languages", "de", "menus"],
                Some("menu"),
            ),
            (
                "params.pt-br.json",
                vec!["languages", "pt-br", "params"],
                Some("params"),
            ),
            ("Permalinks.TOML", vec!["permalinks"], Some("permalinks")),
        ];
        for (name, at, wrap) in cases {
            let (got_at, got_wrap) = key_path(Path::new(name));
            assert_eq!(got_at, at, "{name}");
            assert_eq!(got_wrap.as_deref(), wrap, "{name}");
        }
    }

    #[test]
    fn merge_directives_are_no_settings() {
        // Seen on a real site (Lruihao/hugo-blog): Hugo 0.168 makes no taxonomy `shallow`.
        let text = "_merge = \"deep\"\n[taxonomies]\n_merge = \"shallow\"\ntag = \"tags\"\n";
        let parsed = crate::siteconfig::parse_value(text, "toml", Path::new("hugo.toml"));
        let v = lower_keys(parsed.unwrap().0);
        assert_eq!(v, serde_json::json!({"taxonomies": {"tag": "tags"}}));
    }

    #[test]
    fn a_key_spelled_in_lower_case_loses_to_another_spelling_of_it() {
        // Checked with the real 0.111.3 and 0.168.0: `uglyURLs = true` beside
        // `uglyurls = false` makes ugly URLs in either order, at the top and in a table.
        for text in [
            "uglyURLs = true\nuglyurls = false\n[params]\nx = 1\nX = 2\n",
            "uglyurls = false\nuglyURLs = true\n[params]\nX = 2\nx = 1\n",
        ] {
            let v = lower_keys(
                crate::siteconfig::parse_value(text, "toml", Path::new("hugo.toml"))
                    .unwrap()
                    .0,
            );
            assert_eq!(
                v,
                serde_json::json!({"uglyurls": true, "params": {"x": 2}}),
                "{text}"
            );
        }
    }

    #[test]
    fn later_files_win_key_by_key_and_the_environment_comes_last() {
        let d = tree(&[
            (
                "hugo.toml",
                "baseURL = \"https://root.example/\"\ntitle = \"T\"\n[params]\na = 1\nb = 1\n",
            ),
            (
                "config/_default/hugo.toml",
                "baseurl = \"https://default.example/\"\n",
            ),
            ("config/_default/params.toml", "b = 2\n"),
            (
                "config/_default/languages.fr.toml",
                "weight = 2\n[params]\nx = 1\n",
            ),
            ("config/_default/params.fr.yaml", "y: 2\n"),
            (
                "config/_default/taxonomies.toml",
                "[taxonomies]\nauthor = \"authors\"\n",
            ),
            (
                "config/_default/sub/menus.en.toml",
                "[[main]]\nname = \"Blog\"\n",
            ),
            (
                "config/staging/hugo.toml",
                "baseURL = \"https://staging.example/\"\n",
            ),
            ("config/production/params.toml", "c = 3\n"),
        ]);
        let m = load(
            Some(&d.path().join("hugo.toml")),
            &d.path().join("config"),
            "staging",
        )
        .unwrap();
        let v = &m.value;
        assert_eq!(v["baseurl"], "https://staging.example/");
        assert_eq!(v["title"], "T");
        assert_eq!(v["params"], serde_json::json!({"a": 1, "b": 2}));
        assert_eq!(v["languages"]["fr"]["weight"], 2);
        assert_eq!(
            v["languages"]["fr"]["params"],
            serde_json::json!({"x": 1, "y": 2})
        );
        assert_eq!(v["languages"]["en"]["menus"]["main"][0]["name"], "Blog");
        assert_eq!(v["taxonomies"], serde_json::json!({"author": "authors"}));
        let m = load(None, &d.path().join("config"), "production").unwrap();
        assert_eq!(m.value["baseurl"], "https://default.example/");
        assert_eq!(m.value["params"]["c"], 3);
        // A key is found again in the file that set it last, at its line.
        let (file, line) = locate(&m.layers, Path::new("x"), &["languages", "fr", "weight"]);
        assert!(
            file.ends_with("languages.fr.toml") && line == Some(1),
            "{file:?} {line:?}"
        );
        let (file, line) = locate(&m.layers, Path::new("x"), &["taxonomies", "author"]);
        assert!(
            file.ends_with("taxonomies.toml") && line == Some(2),
            "{file:?} {line:?}"
        );
    }

    #[test]
    fn the_environment_variables_name_the_environment_after_the_flag() {
        assert_eq!(environment(Some("staging")), "staging");
    }
}
