//! Front matter values as Hugo reads them: the Go value its decoder makes of each (which
//! depends on the format and, for YAML, on the release: yaml.v2 before 0.152, go-yaml
//! after), then the conversions Hugo applies to it: `spf13/cast` for the page's own fields
//! (`draft`, `slug`, `weight`, …; errors read as the zero value) and `mapstructure`'s weak
//! decoding for the `sitemap` and `build` tables (errors stop the build).

use super::go_time::{self, GoDate};
use crate::frontmatter::{Format, Node, NodeValue};
use crate::hugo::version::HugoRules;
use crate::vocab::date::SiteTz;

/// The Go value Hugo's decoder makes of a front matter value.
#[derive(Debug)]
pub(crate) enum Go<'n, 'a> {
    Nil,
    Bool(bool),
    /// Go's `int` (yaml.v2 integers).
    Int(i64),
    /// `int64`/`uint64` (TOML, go-yaml integers).
    Int64(i64),
    /// `float64` (every JSON number, YAML and TOML floats).
    Float(f64),
    Str(&'n str),
    /// A TOML date or time literal.
    Toml(&'n toml::value::Datetime),
    List(&'n [Node<'a>]),
    Map,
}

/// Reads values the way one Hugo release reads one page.
#[derive(Clone, Copy)]
pub(crate) struct Hugo<'o> {
    pub(crate) format: Format,
    pub(crate) rules: &'o HugoRules,
    pub(crate) tz: &'o SiteTz,
}

/// Go's `strconv.ParseBool`.
pub(crate) fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Go's `strconv.FormatFloat(f, 'f', -1, 64)`: the shortest digits that read back, never
/// with an exponent.
fn format_float(f: f64) -> String {
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if f.is_nan() {
        return "NaN".into();
    }
    format!("{f}")
}

impl<'o> Hugo<'o> {
    /// The Go value of `n`.
    pub(crate) fn go<'n, 'a>(&self, n: &'n Node<'a>) -> Go<'n, 'a> {
        match &n.v {
            NodeValue::Null => Go::Nil,
            NodeValue::Bool(b) => Go::Bool(*b),
            NodeValue::Int(i) => match self.format {
                // encoding/json makes every number a float64.
                Format::Json => Go::Float(*i as f64),
                Format::Yaml if self.rules.yaml_v2 => Go::Int(*i),
                _ => Go::Int64(*i),
            },
            NodeValue::Float(f) => Go::Float(*f),
            NodeValue::Str(s) => Go::Str(s),
            NodeValue::Date(d) => Go::Toml(d),
            NodeValue::List(items) => Go::List(items),
            NodeValue::Map(_) => Go::Map,
        }
    }

    /// `cast.ToBoolE`: `None` where cast fails (cast 1.5.0, Hugo before 0.112, reads no
    /// number but a Go `int` as a boolean).
    pub(crate) fn bool_e(&self, n: &Node) -> Option<bool> {
        match self.go(n) {
            Go::Bool(b) => Some(b),
            Go::Nil => Some(false),
            Go::Int(i) => Some(i != 0),
            Go::Int64(i) if self.rules.cast_bool_numbers => Some(i != 0),
            Go::Float(f) if self.rules.cast_bool_numbers => Some(f != 0.0),
            Go::Str(s) => parse_bool(s),
            _ => None,
        }
    }

    /// `cast.ToBool`: a value cast cannot read is false.
    pub(crate) fn bool(&self, n: &Node) -> bool {
        self.bool_e(n).unwrap_or(false)
    }

    /// `cast.ToStringE`: `None` for a list or a table.
    pub(crate) fn string_e(&self, n: &Node) -> Option<String> {
        Some(match self.go(n) {
            Go::Nil => String::new(),
            Go::Bool(b) => b.to_string(),
            Go::Int(i) | Go::Int64(i) => i.to_string(),
            Go::Float(f) => format_float(f),
            Go::Str(s) => s.to_string(),
            Go::Toml(d) => toml_string(d),
            Go::List(_) | Go::Map => return None,
        })
    }

    /// `cast.ToString`: a value cast cannot read is "".
    pub(crate) fn string(&self, n: &Node) -> String {
        self.string_e(n).unwrap_or_default()
    }

    /// `cast.ToStringSliceE`: a list's items as strings (an item cast cannot read is ""), a
    /// string split on white space, any other scalar as one item.
    pub(crate) fn string_slice_e(&self, n: &Node) -> Option<Vec<String>> {
        match self.go(n) {
            Go::List(items) => Some(items.iter().map(|i| self.string(i)).collect()),
            Go::Str(s) => Some(s.split_whitespace().map(str::to_string).collect()),
            Go::Nil | Go::Map => None,
            _ => self.string_e(n).map(|s| vec![s]),
        }
    }

    /// `cast.ToFloat64E`.
    pub(crate) fn float_e(&self, n: &Node) -> Option<f64> {
        match self.go(n) {
            Go::Int(i) | Go::Int64(i) => Some(i as f64),
            Go::Float(f) => Some(f),
            Go::Str(s) => s.parse::<f64>().ok(),
            Go::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
            Go::Nil => Some(0.0),
            _ => None,
        }
    }

    /// A date as Hugo's date handlers read it: `Ok(None)` where Hugo finds no date (a null,
    /// an empty string), `Err(())` where it cannot read one (0.111 passes over such a value,
    /// 0.135 and later stop the build).
    pub(crate) fn date(&self, n: &Node) -> Result<Option<GoDate>, ()> {
        match self.go(n) {
            Go::Nil => Ok(None),
            Go::Str("") => Ok(None),
            Go::Str(s) => go_time::parse(s, self.tz).map(Some).ok_or(()),
            Go::Int(i) | Go::Int64(i) => go_time::from_unix(i).map(Some).ok_or(()),
            Go::Toml(d) => toml_date(d, self.tz).map(Some).ok_or(()),
            Go::Bool(_) | Go::Float(_) | Go::List(_) | Go::Map => Err(()),
        }
    }

    /// A string field of a table mapstructure decodes weakly (`sitemap`, `build`):
    /// `Ok(None)` for null (left as it was), `Err(())` for what it cannot decode.
    pub(crate) fn weak_string(&self, n: &Node) -> Result<Option<String>, ()> {
        Ok(Some(match self.go(n) {
            Go::Nil => return Ok(None),
            Go::Str(s) => s.to_string(),
            Go::Bool(b) => if b { "1" } else { "0" }.to_string(),
            Go::Int(i) | Go::Int64(i) => i.to_string(),
            Go::Float(f) => format_float(f),
            // go-toml's date types are structs, a time.Time too.
            Go::Toml(_) | Go::List(_) | Go::Map => return Err(()),
        }))
    }

    /// A boolean field of such a table.
    pub(crate) fn weak_bool(&self, n: &Node) -> Result<Option<bool>, ()> {
        Ok(Some(match self.go(n) {
            Go::Nil => return Ok(None),
            Go::Bool(b) => b,
            Go::Int(i) | Go::Int64(i) => i != 0,
            Go::Float(f) => f != 0.0,
            Go::Str(s) => match parse_bool(s) {
                Some(b) => b,
                None if s.is_empty() => false,
                None => return Err(()),
            },
            Go::Toml(_) | Go::List(_) | Go::Map => return Err(()),
        }))
    }

    /// A float field of such a table.
    pub(crate) fn weak_float(&self, n: &Node) -> Result<Option<f64>, ()> {
        Ok(Some(match self.go(n) {
            Go::Nil => return Ok(None),
            Go::Int(i) | Go::Int64(i) => i as f64,
            Go::Float(f) => f,
            Go::Bool(b) => f64::from(u8::from(b)),
            Go::Str("") => 0.0,
            Go::Str(s) => s.parse::<f64>().map_err(|_| ())?,
            Go::Toml(_) | Go::List(_) | Go::Map => return Err(()),
        }))
    }
}

/// What Go's `String()` gives for a TOML date value: go-toml's local types print as TOML
/// writes them; an offset date-time is a `time.Time` (`2023-01-02 03:04:05 +0000 UTC`).
fn toml_string(d: &toml::value::Datetime) -> String {
    match (&d.date, &d.time, &d.offset) {
        (Some(_), Some(_), Some(_)) => match toml_offset_datetime(d) {
            Some(t) => {
                let zone = match d.offset {
                    Some(toml::value::Offset::Z) => "UTC".to_string(),
                    _ => t.format("%z").to_string(),
                };
                let frac = if t.timestamp_subsec_nanos() == 0 {
                    String::new()
                } else {
                    t.format("%.9f")
                        .to_string()
                        .trim_end_matches('0')
                        .to_string()
                };
                format!(
                    "{}{frac} {} {zone}",
                    t.format("%Y-%m-%d %H:%M:%S"),
                    t.format("%z")
                )
            }
            None => d.to_string(),
        },
        _ => d.to_string(),
    }
}

fn toml_offset_datetime(
    d: &toml::value::Datetime,
) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    chrono::DateTime::parse_from_rfc3339(&d.to_string()).ok()
}

/// A TOML date value as Hugo reads it as a date: a local date or date-time in the site's
/// zone, an offset date-time through its RFC 3339 text (no fraction); a time alone is no
/// date.
fn toml_date(d: &toml::value::Datetime, tz: &SiteTz) -> Option<GoDate> {
    match (&d.date, &d.time, &d.offset) {
        (Some(_), Some(_), Some(_)) => toml_offset_datetime(d).map(go_time::from_offset_datetime),
        (Some(date), time, None) => {
            let day = chrono::NaiveDate::from_ymd_opt(
                i32::from(date.year),
                u32::from(date.month),
                u32::from(date.day),
            )?;
            let t = match time {
                Some(t) => chrono::NaiveTime::from_hms_nano_opt(
                    u32::from(t.hour),
                    u32::from(t.minute),
                    // TOML 1.1 lets a time leave out its seconds.
                    u32::from(t.second.unwrap_or(0)),
                    t.nanosecond.unwrap_or(0),
                )?,
                None => chrono::NaiveTime::MIN,
            };
            go_time::from_local(day.and_time(t), time.is_none(), tz)
        }
        _ => None,
    }
}
