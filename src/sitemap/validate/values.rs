//! The values of `<lastmod>` (W3C Datetime, strictly), `<changefreq>` and `<priority>`.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, Utc};

/// The values `<changefreq>` may take.
pub(super) const CHANGEFREQS: [&str; 7] = [
    "always", "hourly", "daily", "weekly", "monthly", "yearly", "never",
];

/// A W3C Datetime, parsed strictly.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct W3c {
    /// The earliest instant the value can stand for (offset-less times read as UTC).
    pub(super) instant: DateTime<Utc>,
    /// A time of day was given.
    pub(super) has_time: bool,
    /// An offset (or `Z`) was given.
    pub(super) has_offset: bool,
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Parses `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mm[:ss[.s+]][TZD]`.
pub(super) fn parse_w3c(s: &str) -> std::result::Result<W3c, String> {
    const FORMS: &str = "use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm (or Z)";
    let bad = || format!("\"{s}\" is not a W3C Datetime: {FORMS}");
    let (date_s, time_s) = match s.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let mut parts = date_s.split('-');
    let year = parts.next().and_then(|y| digits(y, 4)).ok_or_else(bad)?;
    let month = match parts.next() {
        Some(m) => Some(digits(m, 2).ok_or_else(bad)?),
        None => None,
    };
    let day_part = parts.next();
    if parts.next().is_some() {
        return Err(bad());
    }
    let day = match day_part {
        // `2024-05-01Z` / `2024-05-01+02:00`: xsd:date allows a zone; W3C Datetime does not.
        // Bytes, not string slices: `d` may hold a multi-byte character anywhere.
        Some(d) if d.len() > 2 && d.as_bytes()[..2].iter().all(u8::is_ascii_digit) => {
            if matches!(d.as_bytes()[2], b'Z' | b'+') {
                // Only ASCII digits and '-' precede the zone here, so 10 bytes are 10 chars.
                let date = s.get(..10).unwrap_or(s);
                return Err(format!(
                    "\"{s}\" puts a time zone on a bare date, which W3C Datetime does not allow: write {date} or add a time, {FORMS}"
                ));
            }
            return Err(bad());
        }
        Some(d) => Some(digits(d, 2).ok_or_else(bad)?),
        None => None,
    };
    let date = NaiveDate::from_ymd_opt(year as i32, month.unwrap_or(1), day.unwrap_or(1))
        .ok_or_else(|| format!("\"{s}\" is not a real calendar date"))?;
    let Some(t) = time_s else {
        return Ok(W3c {
            instant: date.and_time(NaiveTime::MIN).and_utc(),
            has_time: false,
            has_offset: false,
        });
    };
    if day.is_none() {
        return Err(bad());
    }
    let (clock, offset) = if let Some(c) = t.strip_suffix('Z') {
        (c, Some(FixedOffset::east_opt(0).ok_or_else(bad)?))
    } else if let Some(pos) = t.rfind(['+', '-']) {
        let (c, o) = t.split_at(pos);
        let sign = if o.starts_with('-') { -1 } else { 1 };
        let (h, m) = o[1..].split_once(':').ok_or_else(bad)?;
        let (h, m) = (digits(h, 2).ok_or_else(bad)?, digits(m, 2).ok_or_else(bad)?);
        if m > 59 || h * 60 + m > 14 * 60 {
            return Err(format!("\"{s}\" has an offset outside -14:00..+14:00"));
        }
        let secs = sign * (h * 3600 + m * 60) as i32;
        (c, Some(FixedOffset::east_opt(secs).ok_or_else(bad)?))
    } else {
        (t, None)
    };
    let (hms, frac) = match clock.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (clock, None),
    };
    if let Some(f) = frac
        && (f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad());
    }
    let mut hp = hms.split(':');
    let h = hp.next().and_then(|x| digits(x, 2)).ok_or_else(bad)?;
    let mi = hp.next().and_then(|x| digits(x, 2)).ok_or_else(bad)?;
    let sec = match hp.next() {
        Some(x) => digits(x, 2).ok_or_else(bad)?,
        None if frac.is_some() => return Err(bad()),
        None => 0,
    };
    if hp.next().is_some() {
        return Err(bad());
    }
    let time = NaiveTime::from_hms_opt(h, mi, sec)
        .ok_or_else(|| format!("\"{s}\" is not a real time of day"))?;
    let naive = date.and_time(time);
    let instant = match offset {
        Some(off) => naive
            .and_local_timezone(off)
            .single()
            .ok_or_else(bad)?
            .with_timezone(&Utc),
        None => naive.and_utc(),
    };
    Ok(W3c {
        instant,
        has_time: true,
        has_offset: offset.is_some(),
    })
}

/// True for an `xsd:decimal` from 0.0 to 1.0.
pub(super) fn valid_priority(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return false;
    }
    s.parse::<f64>().is_ok_and(|v| (0.0..=1.0).contains(&v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn w3c_dates_strict() {
        for ok in [
            "2024",
            "2024-05",
            "2024-05-01",
            "2024-05-01T10:00Z",
            "2024-05-01T10:00:30+02:00",
            "2024-05-01T10:00:30.123-07:00",
            "2024-02-29",
        ] {
            let d = parse_w3c(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert!(!d.has_time || d.has_offset, "{ok}");
        }
        let naive = parse_w3c("2024-05-01T10:00:00").unwrap();
        assert!(naive.has_time && !naive.has_offset);
        for bad in [
            "",
            "yesterday",
            "2024-5-1",
            "2023-02-29",
            "2024-13-01",
            "2024-05-01T24:00:00Z",
            "2024-05-01T10:00:60Z",
            "2024-05-01T10Z",
            "2024-05-01T10:00:00+0200",
            "2024-05-01T10:00:00+15:00",
            "2024-05-01T10:00:00z",
            "2024-05-01Z",
            "2024-05-01+02:00",
            "2024-05T10:00Z",
            "2024-05-01T10:00.5Z",
            "2024-05-01 10:00:00Z",
            "20240501",
            // A multi-byte character where a byte index would cut it (was a panic).
            "2024-05-0é",
            "2024-05-€1T10:00:00Z",
            "2024-05-0ßT10:00:00Z",
            "2024-05-01T10:00:00+0é:00",
            "é",
            "2024-é",
        ] {
            assert!(parse_w3c(bad).is_err(), "{bad:?} should be rejected");
        }
        let d = parse_w3c("2024-05-01T02:00:00+02:00").unwrap();
        assert_eq!(
            d.instant,
            Utc.with_ymd_and_hms(2024, 5, 1, 0, 0, 0).unwrap()
        );
    }

    #[test]
    fn priority_is_a_decimal_in_range() {
        for ok in ["0", "0.0", "1", "1.0", ".5", "0.50", "+0.3"] {
            assert!(valid_priority(ok), "{ok}");
        }
        for bad in ["", ".", "1.5", "-0.1", "high", "1e-1", "0,5", "NaN"] {
            assert!(!valid_priority(bad), "{bad}");
        }
    }
}
