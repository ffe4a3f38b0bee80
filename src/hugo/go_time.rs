//! Dates as Hugo reads them: Go's `time.Parse` over the layouts `spf13/cast` tries, in its
//! order, with its zone rules (a layout without a numeric offset is read in the site's zone;
//! a time of day alone is a time on day one of year 0).
//!
//! Hugo reads exactly these forms: `2023-01-02T03:04` (no seconds) or `2023-1-2` (one
//! digit) are no dates to it, while `02 Jan 2023` and `Mon, 02 Jan 2023 15:04:05 MST` are.

use std::sync::LazyLock;

use chrono::{FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

use crate::hugo::golayout::{self, Elements, Std, Tok};
use crate::vocab::date::{SiteTz, W3cDate};

/// How a layout's zone is taken (cast's `timeFormatType`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Zone {
    /// No zone: the site's.
    None,
    /// A zone name only: the site's (Go cannot tell a name's offset).
    Named,
    /// A numeric offset (with or without a name).
    Numeric,
    /// A time of day only: year 0, UTC.
    TimeOnly,
}

/// cast's `TimeFormats`, in the order it tries them (the same in cast 1.5 and 1.10 but for
/// `2006-01-02` first in 1.10, which changes no result: no other layout reads that text).
const CAST_LAYOUTS: [(&str, Zone); 24] = [
    ("2006-01-02", Zone::None),
    // RFC 3339, and without its offset
    ("2006-01-02T15:04:05Z07:00", Zone::Numeric),
    ("2006-01-02T15:04:05", Zone::None),
    // RFC 1123Z, RFC 1123
    ("Mon, 02 Jan 2006 15:04:05 -0700", Zone::Numeric),
    ("Mon, 02 Jan 2006 15:04:05 MST", Zone::Named),
    // RFC 822Z, RFC 822
    ("02 Jan 06 15:04 -0700", Zone::Numeric),
    ("02 Jan 06 15:04 MST", Zone::Named),
    // RFC 850
    ("Monday, 02-Jan-06 15:04:05 MST", Zone::Named),
    // What Go's Time.String writes.
    ("2006-01-02 15:04:05.999999999 -0700 MST", Zone::Numeric),
    ("2006-01-02T15:04:05-0700", Zone::Numeric),
    ("2006-01-02 15:04:05Z0700", Zone::Numeric),
    ("2006-01-02 15:04:05", Zone::None),
    // ANSIC, Unix date, Ruby date
    ("Mon Jan _2 15:04:05 2006", Zone::None),
    ("Mon Jan _2 15:04:05 MST 2006", Zone::Named),
    ("Mon Jan 02 15:04:05 -0700 2006", Zone::Numeric),
    ("2006-01-02 15:04:05Z07:00", Zone::Numeric),
    ("02 Jan 2006", Zone::None),
    ("2006-01-02 15:04:05 -07:00", Zone::Numeric),
    ("2006-01-02 15:04:05 -0700", Zone::Numeric),
    // Kitchen and the stamps: a time of day.
    ("3:04PM", Zone::TimeOnly),
    ("Jan _2 15:04:05", Zone::TimeOnly),
    ("Jan _2 15:04:05.000", Zone::TimeOnly),
    ("Jan _2 15:04:05.000000", Zone::TimeOnly),
    ("Jan _2 15:04:05.000000000", Zone::TimeOnly),
];

/// [`CAST_LAYOUTS`] tokenized (once, on first use), each with its zone rule.
fn layouts() -> &'static [(Vec<Tok<'static>>, Zone)] {
    static LAYOUTS: LazyLock<Vec<(Vec<Tok<'static>>, Zone)>> = LazyLock::new(|| {
        CAST_LAYOUTS
            .iter()
            .map(|&(layout, zone)| (golayout::tokens(layout, Elements::All), zone))
            .collect()
    });
    &LAYOUTS
}

/// A date as Hugo reads the text `s`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum GoDate {
    /// A date-only layout (`2023-01-02`, `02 Jan 2023`): midnight in the site's zone.
    Day(NaiveDate),
    /// A date and time, with its offset.
    At(chrono::DateTime<FixedOffset>),
    /// Go's zero time (`0001-01-01T00:00:00Z`): Hugo's "no date".
    Zero,
    /// A date the protocol cannot carry (year 0 from a time of day alone, a year past 9999):
    /// Hugo takes it; we cannot write it. With it, as Hugo reads it, and the nearest date we
    /// can hold, for comparing with now (year 0 is past, year 10000 future).
    Unwritable(String, W3cDate),
}

impl GoDate {
    /// The date as we keep it; `None` for the zero date and an unwritable one.
    pub(crate) fn w3c(self) -> Option<W3cDate> {
        match self {
            GoDate::Day(d) => Some(W3cDate::from_date(d)),
            GoDate::At(t) => Some(W3cDate::from_datetime(t)),
            GoDate::Zero | GoDate::Unwritable(..) => None,
        }
    }
}

/// Reads `s` as Hugo (cast's `StringToDateInDefaultLocation`) does; `None` when no layout
/// reads it.
pub(crate) fn parse(s: &str, tz: &SiteTz) -> Option<GoDate> {
    layouts()
        .iter()
        .find_map(|(layout, zone)| read(layout, s).map(|p| (p, *zone)))
        .and_then(|(p, zone)| place(p, zone, tz))
}

/// A date-time from Unix seconds (Hugo reads an integer as one), in UTC.
pub(crate) fn from_unix(secs: i64) -> Option<GoDate> {
    let t = chrono::DateTime::from_timestamp(secs, 0)?.fixed_offset();
    Some(classify(t, false))
}

/// A time Hugo has as a Go `time.Time` with a known offset (a TOML offset date-time): Hugo
/// formats it as RFC 3339 (dropping the fraction) and reads that back.
pub(crate) fn from_offset_datetime(t: chrono::DateTime<FixedOffset>) -> GoDate {
    let whole = t.with_timezone(t.offset());
    let whole = chrono::Timelike::with_nanosecond(&whole, 0).unwrap_or(whole);
    classify(whole, false)
}

/// A local date-time placed in the site's zone (TOML local dates and date-times, which Hugo
/// places with `AsTime`).
pub(crate) fn from_local(naive: NaiveDateTime, date_only: bool, tz: &SiteTz) -> Option<GoDate> {
    let t = tz.localize(naive)?;
    Some(classify(t, date_only))
}

fn classify(t: chrono::DateTime<FixedOffset>, date_only: bool) -> GoDate {
    use chrono::Datelike;
    let zero = NaiveDate::from_ymd_opt(1, 1, 1)
        .map(|d| d.and_time(NaiveTime::MIN).and_utc())
        .is_some_and(|z| z == t.to_utc());
    if zero {
        return GoDate::Zero;
    }
    let year = t.year();
    if !(1..=9999).contains(&year) || t.offset().local_minus_utc().abs() > 14 * 3600 {
        let shown = t.format("%Y-%m-%dT%H:%M:%S%:z").to_string();
        let near = NaiveDate::from_ymd_opt(year.clamp(1, 9999), 1, 1)
            .map(W3cDate::from_date)
            .unwrap_or_else(|| W3cDate::from_date(NaiveDate::MIN));
        return GoDate::Unwritable(shown, near);
    }
    if date_only {
        GoDate::Day(t.date_naive())
    } else {
        GoDate::At(t)
    }
}

/// What a layout read: the fields, and the offset if the text gave one.
#[derive(Default, Debug)]
struct Parts {
    year: i32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    nanos: u32,
    pm: Option<bool>,
    offset: Option<i32>,
    date_only: bool,
}

fn place(p: Parts, zone: Zone, tz: &SiteTz) -> Option<GoDate> {
    let mut hour = p.hour;
    match p.pm {
        Some(true) if hour < 12 => hour += 12,
        Some(false) if hour == 12 => hour = 0,
        _ => {}
    }
    // Go's year 0 is a real year; chrono's proleptic calendar has it too.
    let date = NaiveDate::from_ymd_opt(p.year, p.month, p.day)?;
    let naive = date.and_time(NaiveTime::from_hms_nano_opt(
        hour, p.minute, p.second, p.nanos,
    )?);
    match zone {
        Zone::Numeric => {
            let off = FixedOffset::east_opt(p.offset.unwrap_or(0))?;
            let t = off.from_local_datetime(&naive).single()?;
            Some(classify(t, false))
        }
        Zone::TimeOnly => Some(classify(naive.and_utc().fixed_offset(), false)),
        Zone::None | Zone::Named => from_local(naive, p.date_only, tz),
    }
}

/// Reads `s` with one layout, as Go's `time.Parse` does; `None` when it does not fit.
fn read(layout: &[Tok<'_>], s: &str) -> Option<Parts> {
    let mut v = s.as_bytes();
    let has = |std: Std| layout.contains(&Tok::Std(std));
    let mut p = Parts {
        month: 1,
        day: 1,
        date_only: !has(Std::Hour) && !has(Std::Hour12),
        ..Parts::default()
    };
    for (k, tok) in layout.iter().enumerate() {
        let std = match *tok {
            Tok::Lit(text) => {
                v = skip(v, text.as_bytes())?;
                continue;
            }
            Tok::Std(std) => std,
        };
        match std {
            Std::LongYear => {
                let (n, rest) = fixed_digits(v, 4)?;
                p.year = n as i32;
                v = rest;
            }
            Std::Year => {
                let (n, rest) = fixed_digits(v, 2)?;
                p.year = if n >= 69 { 1900 + n } else { 2000 + n } as i32;
                v = rest;
            }
            Std::ZeroMonth => {
                let (n, rest) = num(v, true)?;
                (1..=12).contains(&n).then_some(())?;
                p.month = n;
                v = rest;
            }
            Std::Month => {
                let (m, rest) = lookup(v, &MONTHS)?;
                p.month = m as u32 + 1;
                v = rest;
            }
            Std::ZeroDay | Std::UnderDay => {
                if std == Std::UnderDay && v.first() == Some(&b' ') {
                    v = &v[1..];
                }
                let (n, rest) = num(v, std == Std::ZeroDay)?;
                (1..=31).contains(&n).then_some(())?;
                p.day = n;
                v = rest;
            }
            Std::WeekDay => v = lookup(v, &DAYS)?.1,
            Std::LongWeekDay => v = lookup(v, &LONG_DAYS)?.1,
            Std::Hour => {
                let (n, rest) = num(v, false)?;
                (n < 24).then_some(())?;
                p.hour = n;
                v = rest;
            }
            Std::Hour12 => {
                let (n, rest) = num(v, false)?;
                (n <= 12).then_some(())?;
                p.hour = n;
                v = rest;
            }
            Std::ZeroMinute => {
                let (n, rest) = num(v, true)?;
                (n < 60).then_some(())?;
                p.minute = n;
                v = rest;
            }
            Std::ZeroSecond => {
                let (n, rest) = num(v, true)?;
                (n < 60).then_some(())?;
                p.second = n;
                v = rest;
                // A fraction may follow the seconds though the layout has none, unless the
                // layout's next element reads it.
                let next_is_frac = matches!(layout.get(k + 1), Some(Tok::Std(Std::Frac { .. })));
                if !next_is_frac
                    && v.len() >= 2
                    && matches!(v[0], b'.' | b',')
                    && v[1].is_ascii_digit()
                {
                    let end = 1 + v[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    p.nanos = nanos(&v[1..end]);
                    v = &v[end..];
                }
            }
            // `.999…`: an optional fraction, of any length.
            Std::Frac { nines: true, .. } => {
                if v.len() >= 2 && matches!(v[0], b'.' | b',') && v[1].is_ascii_digit() {
                    let end = 1 + v[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    p.nanos = nanos(&v[1..end]);
                    v = &v[end..];
                }
            }
            // `.000…`: exactly so many digits.
            Std::Frac {
                digits: n,
                nines: false,
                ..
            } => {
                if v.len() < n + 1 || v[0] != b'.' || !v[1..=n].iter().all(u8::is_ascii_digit) {
                    return None;
                }
                p.nanos = nanos(&v[1..=n]);
                v = &v[n + 1..];
            }
            Std::Pm => {
                let two = v.get(..2)?;
                p.pm = match two {
                    b"PM" => Some(true),
                    b"AM" => Some(false),
                    _ => return None,
                };
                v = &v[2..];
            }
            Std::Tz => {
                let n = zone_name_len(v)?;
                // Only the length matters: the name's offset is not known.
                v = &v[n..];
            }
            Std::Iso8601Colon | Std::Iso8601 | Std::NumColonTz | Std::NumTz => {
                if matches!(std, Std::Iso8601Colon | Std::Iso8601) && v.first() == Some(&b'Z') {
                    p.offset = Some(0);
                    v = &v[1..];
                    continue;
                }
                let colon = matches!(std, Std::Iso8601Colon | Std::NumColonTz);
                let (off, rest) = offset(v, colon)?;
                p.offset = Some(off);
                v = rest;
            }
            // Elements none of cast's layouts holds are not read.
            Std::LongMonth
            | Std::NumMonth
            | Std::Day
            | Std::UnderYearDay
            | Std::ZeroYearDay
            | Std::ZeroHour12
            | Std::Minute
            | Std::Second
            | Std::PmLower
            | Std::Iso8601Seconds
            | Std::Iso8601Short
            | Std::Iso8601ColonSeconds
            | Std::NumShortTz
            | Std::NumSecondsTz
            | Std::NumColonSecondsTz => return None,
        }
    }
    v.is_empty().then_some(p)
}

/// Go's `skip`: the literal, where a space matches any run of spaces (and none at the end).
fn skip<'v>(mut v: &'v [u8], mut lit: &[u8]) -> Option<&'v [u8]> {
    while let Some(&c) = lit.first() {
        if c == b' ' {
            if v.first().is_some_and(|&x| x != b' ') {
                return None;
            }
            lit = trim_spaces(lit);
            v = trim_spaces(v);
            continue;
        }
        if v.first() != Some(&c) {
            return None;
        }
        lit = &lit[1..];
        v = &v[1..];
    }
    Some(v)
}

fn trim_spaces(v: &[u8]) -> &[u8] {
    let n = v.iter().take_while(|&&c| c == b' ').count();
    &v[n..]
}

/// Exactly `n` digits.
fn fixed_digits(v: &[u8], n: usize) -> Option<(u32, &[u8])> {
    let d = v.get(..n)?;
    d.iter().all(u8::is_ascii_digit).then_some(())?;
    let value = d.iter().fold(0u32, |a, &c| a * 10 + u32::from(c - b'0'));
    Some((value, &v[n..]))
}

/// Go's `getnum`: one or two digits, two when `fixed`.
fn num(v: &[u8], fixed: bool) -> Option<(u32, &[u8])> {
    let first = *v.first().filter(|c| c.is_ascii_digit())?;
    match v.get(1).filter(|c| c.is_ascii_digit()) {
        Some(&second) => Some((
            u32::from(first - b'0') * 10 + u32::from(second - b'0'),
            &v[2..],
        )),
        None if fixed => None,
        None => Some((u32::from(first - b'0'), &v[1..])),
    }
}

/// Nanoseconds from the digits of a fraction (more than nine are cut).
fn nanos(digits: &[u8]) -> u32 {
    let mut n = 0u32;
    for k in 0..9 {
        n = n * 10 + digits.get(k).map_or(0, |&c| u32::from(c - b'0'));
    }
    n
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Go's `lookup`: the first name the text starts with, ignoring ASCII case.
fn lookup<'v>(v: &'v [u8], names: &[&str]) -> Option<(usize, &'v [u8])> {
    names.iter().enumerate().find_map(|(i, name)| {
        let n = name.len();
        (v.len() >= n && v[..n].eq_ignore_ascii_case(name.as_bytes())).then(|| (i, &v[n..]))
    })
}

/// Go's `parseTimeZone` for the names cast's layouts meet: the length of the name.
fn zone_name_len(v: &[u8]) -> Option<usize> {
    if v.len() < 3 {
        return None;
    }
    if v.starts_with(b"ChST") || v.starts_with(b"MeST") {
        return Some(4);
    }
    if v.starts_with(b"GMT") {
        // `GMT`, or `GMT+3`/`GMT-10`: a sign and up to two digits.
        let rest = &v[3..];
        if let Some(&sign) = rest.first().filter(|c| matches!(c, b'+' | b'-')) {
            let _ = sign;
            let digits = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if (1..=2).contains(&digits) {
                return Some(4 + digits);
            }
        }
        return Some(3);
    }
    let upper = v
        .iter()
        .take(6)
        .take_while(|c| c.is_ascii_uppercase())
        .count();
    match upper {
        5 if v[4] == b'T' => Some(5),
        4 if v[3] == b'T' || &v[..4] == b"WITA" => Some(4),
        3 => Some(3),
        _ => None,
    }
}

/// A numeric offset: `±hh:mm` when `colon`, else `±hhmm`; in seconds east.
fn offset(v: &[u8], colon: bool) -> Option<(i32, &[u8])> {
    let sign = match v.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, rest) = fixed_digits(&v[1..], 2)?;
    let rest = if colon {
        rest.strip_prefix(b":")?
    } else {
        rest
    };
    let (m, rest) = fixed_digits(rest, 2)?;
    (h <= 24 && m <= 60).then_some(())?;
    Some((sign * (h as i32 * 3600 + m as i32 * 60), rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(s: &str) -> String {
        match parse(s, &SiteTz::Utc) {
            None => "-".into(),
            Some(GoDate::Day(d)) => d.to_string(),
            Some(GoDate::At(t)) => t.format("%Y-%m-%dT%H:%M:%S%.f%:z").to_string(),
            Some(GoDate::Zero) => "zero".into(),
            Some(GoDate::Unwritable(s, _)) => format!("unwritable {s}"),
        }
    }

    /// Each form as Hugo 0.111.3 and 0.168.0 wrote it in their sitemaps (the matrix's
    /// `dates` cases), or refused it.
    #[test]
    fn the_forms_hugo_reads() {
        let cases = [
            ("2023-01-02", "2023-01-02"),
            ("2023-01-02T03:04:05Z", "2023-01-02T03:04:05+00:00"),
            ("2023-01-02T03:04:05+02:00", "2023-01-02T03:04:05+02:00"),
            ("2023-01-02T03:04:05", "2023-01-02T03:04:05+00:00"),
            ("2023-01-02 03:04:05", "2023-01-02T03:04:05+00:00"),
            ("2023-01-02T03:04", "-"),
            ("2023-01-02 03:04", "-"),
            ("2023-01-02T03:04:05.123Z", "2023-01-02T03:04:05.123+00:00"),
            ("2023-01-02T03:04:05+0200", "2023-01-02T03:04:05+02:00"),
            ("2023-01-02 03:04:05 +0200", "2023-01-02T03:04:05+02:00"),
            ("2023-01-02 03:04:05 -07:00", "2023-01-02T03:04:05-07:00"),
            ("2023-01-02 03:04:05Z", "2023-01-02T03:04:05+00:00"),
            (
                "2023-01-02 03:04:05.5 +0000 UTC",
                "2023-01-02T03:04:05.500+00:00",
            ),
            ("02 Jan 2023", "2023-01-02"),
            ("2 Jan 2023", "-"),
            ("02 Jan 23 10:00 MST", "2023-01-02T10:00:00+00:00"),
            ("January 2, 2023", "-"),
            ("Mon, 02 Jan 2023 15:04:05 MST", "2023-01-02T15:04:05+00:00"),
            (
                "Mon, 02 Jan 2023 15:04:05 +0100",
                "2023-01-02T15:04:05+01:00",
            ),
            (
                "Monday, 02-Jan-23 15:04:05 MST",
                "2023-01-02T15:04:05+00:00",
            ),
            ("Mon Jan  2 15:04:05 2023", "2023-01-02T15:04:05+00:00"),
            ("2023/01/02", "-"),
            ("20230102", "-"),
            ("2023-1-2", "-"),
            ("2023-13-45", "-"),
            ("2023-02-30", "-"),
            ("0001-01-01", "zero"),
            ("3:04PM", "unwritable 0000-01-01T15:04:00+00:00"),
            ("Jan  2 15:04:05", "unwritable 0000-01-02T15:04:05+00:00"),
            ("2023", "-"),
            ("2023-01-02T03:04:05z", "-"),
            ("2023-01-02t03:04:05Z", "-"),
            (" 2023-01-02", "-"),
            ("2023-01-02 ", "-"),
        ];
        for (text, want) in cases {
            assert_eq!(show(text), want, "{text:?}");
        }
    }

    #[test]
    fn offset_less_forms_take_the_site_zone() {
        let paris: SiteTz = "Europe/Paris".parse().unwrap();
        let got = parse("2023-07-02 03:04:05", &paris).unwrap();
        assert_eq!(got.w3c().unwrap().to_string(), "2023-07-02T03:04:05+02:00");
        // A zone name is no offset to Go: the site's zone applies.
        let got = parse("Mon, 02 Jan 2023 15:04:05 PST", &paris).unwrap();
        assert_eq!(got.w3c().unwrap().to_string(), "2023-01-02T15:04:05+01:00");
        assert_eq!(
            from_unix(0).unwrap().w3c().unwrap().to_string(),
            "1970-01-01T00:00:00+00:00"
        );
    }
}
