//! The files a site's config was merged from (Hugo merges several), to name the file and
//! line that set a key.

use std::path::{Path, PathBuf};

/// Where a file's values sit in the merged config, to find a key's file and line again.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The file.
    pub file: PathBuf,
    /// The keys its top level sits under (`["languages", "fr"]`; none for `hugo.toml`).
    pub at: Vec<String>,
    /// The key the file repeats around its values (`[params]` in `params.toml`), if it does.
    pub wrapped: Option<String>,
}

/// The file, and line when found, that set the value at `keys` last: the latest layer that
/// holds it, else `fallback`.
pub fn locate(layers: &[Layer], fallback: &Path, keys: &[&str]) -> (PathBuf, Option<usize>) {
    for layer in layers.iter().rev() {
        let inside = layer.at.len() <= keys.len()
            && layer
                .at
                .iter()
                .zip(keys)
                .all(|(a, k)| a.eq_ignore_ascii_case(k));
        if !inside {
            continue;
        }
        let mut in_file: Vec<&str> = layer.wrapped.iter().map(String::as_str).collect();
        in_file.extend_from_slice(&keys[layer.at.len()..]);
        if in_file.is_empty() {
            return (layer.file.clone(), None);
        }
        if let Some(line) = crate::vocab::config_text::value_line(&layer.file, &in_file) {
            return (layer.file.clone(), Some(line));
        }
    }
    (
        fallback.to_path_buf(),
        crate::vocab::config_text::value_line(fallback, keys),
    )
}
