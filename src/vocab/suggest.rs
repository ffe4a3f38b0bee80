//! "Did you mean": the known name closest to one a user misspelled. Used for sitemap.toml's
//! keys and values and for front matter's sitemap tables; the lists come from where the keys
//! are defined, so a new key is suggested with no change here.

/// The known name closest to `given` (case, `-` and `_` aside), when it is close enough to be
/// a slip of the keyboard: an edit distance (a swap of two neighbours counting one) of at
/// most a third of its length, at least one. Ties go to the first name in `known`.
pub fn closest<'a>(given: &str, known: &[&'a str]) -> Option<&'a str> {
    let norm = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| match c {
                '-' => '_',
                c => c.to_ascii_lowercase(),
            })
            .collect()
    };
    let g = norm(given);
    let limit = (g.len() / 3).max(1);
    known
        .iter()
        .map(|&k| (distance(&g, &norm(k)), k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each cost one.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// ` (did you mean `x`?)`, or nothing when no known name is close.
pub fn did_you_mean(given: &str, known: &[&str]) -> String {
    closest(given, known)
        .map(|k| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&str] = &[
        "base_url",
        "images",
        "include_drafts",
        "include_future",
        "gzip",
    ];

    #[test]
    fn slips_find_their_key_and_strangers_find_none() {
        assert_eq!(closest("imagess", KEYS), Some("images"));
        assert_eq!(closest("imgaes", KEYS), Some("images"));
        assert_eq!(closest("base-url", KEYS), Some("base_url"));
        assert_eq!(closest("BaseURL", KEYS), Some("base_url"));
        assert_eq!(closest("include_draft", KEYS), Some("include_drafts"));
        assert_eq!(closest("gz", KEYS), None);
        assert_eq!(closest("colour", KEYS), None);
        assert_eq!(closest("", KEYS), None);
    }

    #[test]
    fn distance_counts_a_swap_once() {
        let d = |a: &str, b: &str| {
            distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("abcd", "abdc"), 1);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("same", "same"), 0);
    }

    #[test]
    fn did_you_mean_is_a_phrase_or_nothing() {
        assert_eq!(did_you_mean("gzp", KEYS), " (did you mean `gzip`?)");
        assert_eq!(did_you_mean("zzzzzz", KEYS), "");
    }
}
