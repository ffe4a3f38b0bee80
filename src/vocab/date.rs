//! Dates as the sitemap protocol wants them (W3C Datetime), parsed from the many forms that
//! front matter, file names and git hand us.

use super::zoneinfo::Zone;
use chrono::{
    DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone, Utc,
};
use std::cmp::Ordering;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// A `<lastmod>` value: a bare date, or a date-time that always carries an offset.
///
/// Packed into 12 bytes with no tag to spare for `Option` (a page holds two, an entry one,
/// and a large site a million of each); [`W3cDate::kind`] unpacks it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct W3cDate {
    /// The low 32 bits of the instant's seconds since 1970 (UTC) plus [`SECS_BIAS`].
    lo: u32,
    /// Bits 0–11: the high bits of those seconds (44 in all); bits 12–29: the UTC offset in
    /// seconds plus [`OFFSET_BIAS`]; bit 30: date-only; bit 31: always set.
    hi: NonZeroU32,
    /// The fraction of the second, in nanoseconds (past 10⁹ in a leap second).
    nanos: u32,
}

/// What a [`W3cDate`] is, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum W3cKind {
    /// `YYYY-MM-DD`: kept date-only, as the author wrote it.
    Date(NaiveDate),
    /// `YYYY-MM-DDThh:mm:ss[.f]±hh:mm`, with the author's offset.
    DateTime(DateTime<FixedOffset>),
}

/// Makes every second chrono can hold (about ±2⁴³) a non-negative 44-bit number.
const SECS_BIAS: i64 = 1 << 43;
/// Makes every offset chrono allows (under a day either way) a non-negative 18-bit number.
const OFFSET_BIAS: i32 = 1 << 17;
const DATE_ONLY: u32 = 1 << 30;
/// The largest UTC offset xs:dateTime accepts: 14 hours.
const MAX_OFFSET_SECS: i32 = 14 * 3600;
const SET: u32 = 1 << 31;

impl W3cDate {
    /// A bare date.
    pub fn from_date(d: NaiveDate) -> W3cDate {
        Self::pack(
            d.and_time(NaiveTime::MIN).and_utc().timestamp(),
            0,
            0,
            DATE_ONLY,
        )
    }

    /// A date-time with its offset.
    pub fn from_datetime(dt: DateTime<FixedOffset>) -> W3cDate {
        Self::pack(
            dt.timestamp(),
            dt.timestamp_subsec_nanos(),
            dt.offset().local_minus_utc(),
            0,
        )
    }

    fn pack(secs: i64, nanos: u32, offset: i32, flags: u32) -> W3cDate {
        // chrono's range and offsets fit the biased widths, so neither addition overflows
        // its field.
        let secs = (secs + SECS_BIAS) as u64;
        let offset = (offset + OFFSET_BIAS) as u32;
        let hi = ((secs >> 32) as u32 & 0xfff) | (offset << 12) | flags | SET;
        W3cDate {
            lo: secs as u32,
            hi: NonZeroU32::new(hi).unwrap_or(NonZeroU32::MIN),
            nanos,
        }
    }

    fn secs(&self) -> i64 {
        ((((self.hi.get() & 0xfff) as i64) << 32) | self.lo as i64) - SECS_BIAS
    }

    fn offset_secs(&self) -> i32 {
        ((self.hi.get() >> 12) & 0x3ffff) as i32 - OFFSET_BIAS
    }

    fn is_date_only(&self) -> bool {
        self.hi.get() & DATE_ONLY != 0
    }

    /// The date or date-time it holds.
    pub fn kind(&self) -> W3cKind {
        let utc = DateTime::from_timestamp(self.secs(), self.nanos).unwrap_or_default();
        if self.is_date_only() {
            return W3cKind::Date(utc.date_naive());
        }
        let offset = FixedOffset::east_opt(self.offset_secs()).unwrap_or_else(|| Utc.fix());
        W3cKind::DateTime(utc.with_timezone(&offset))
    }

    /// The instant used to compare dates; a bare date counts as its midnight in UTC.
    pub fn instant(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.secs(), self.nanos).unwrap_or_default()
    }

    /// The calendar date as written (the offset's local date for a date-time).
    pub fn date(&self) -> NaiveDate {
        match self.kind() {
            W3cKind::Date(d) => d,
            W3cKind::DateTime(dt) => dt.date_naive(),
        }
    }

    /// True when this date lies after `now` (a bare date: when its day starts after `now`'s day).
    pub fn is_after(&self, now: DateTime<Utc>) -> bool {
        match self.kind() {
            W3cKind::Date(d) => d > now.date_naive(),
            W3cKind::DateTime(_) => self.instant() > now,
        }
    }

    /// This date, or today's date when this one lies in the future.
    ///
    /// Today rather than the instant: the build time is no page's last change, and a date
    /// keeps the output byte-stable across the runs of one day.
    pub fn clamp_to(self, now: DateTime<Utc>) -> W3cDate {
        if self.is_after(now) {
            W3cDate::from_date(now.date_naive())
        } else {
            self
        }
    }

    /// Parses a date the way front matter writes it, placing offset-less values in `tz`.
    ///
    /// Accepts RFC 3339 (`T`, `t` or space; `Z`, `z`, `±hh:mm` or `±hhmm`; fractions), dates
    /// with one-digit month/day/hour (`2021-4-5 6:07:08`), date-only values, RFC 2822 and
    /// Go's RFC 1123 form with a zone name (the name cannot be resolved: the site zone applies).
    pub fn parse(s: &str, tz: &SiteTz) -> Option<W3cDate> {
        let s = s.trim();
        // Nearly every front matter date takes one of two forms: read those directly rather
        // than after every other form has been tried (a few percent of a whole run).
        common_form(s)
            .or_else(|| Self::parse_any(s, tz))
            .filter(W3cDate::is_writable)
    }

    /// True when the sitemap schemas accept this date as we write it: a year from 0001 to
    /// 9999 (xs:date and W3C Datetime have four digits and no year 0) and, for a date-time,
    /// an offset within ±14:00 (xs:dateTime's bound).
    ///
    /// [`W3cDate::parse`] refuses every other date, so a page's bad date is reported where
    /// it was read; dates made from git or file times should pass through this too.
    pub fn is_writable(&self) -> bool {
        (1..=9999).contains(&self.date().year())
            && (self.is_date_only() || self.offset_secs().abs() <= MAX_OFFSET_SECS)
    }

    /// Every form `parse` accepts, tried in turn.
    fn parse_any(s: &str, tz: &SiteTz) -> Option<W3cDate> {
        if s.is_empty() {
            return None;
        }
        if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
            return Some(W3cDate::from_date(d));
        }
        if let Ok(dt) = DateTime::parse_from_rfc2822(s) {
            return Some(W3cDate::from_datetime(dt));
        }
        // RFC 1123 with a zone abbreviation ("Mon, 02 Jan 2006 15:04:05 MST").
        if let Some((head, zone)) = s.rsplit_once(' ')
            && zone.chars().all(|c| c.is_ascii_alphabetic())
            && let Ok(naive) = NaiveDateTime::parse_from_str(head, "%a, %d %b %Y %H:%M:%S")
        {
            return tz.localize(naive).map(W3cDate::from_datetime);
        }
        let (date_part, rest) = split_date(s)?;
        let date = parse_loose_date(date_part)?;
        let rest = rest.trim_start_matches(['T', 't', ' ']);
        if rest.is_empty() {
            return Some(W3cDate::from_date(date));
        }
        let (time_part, offset) = split_offset(rest)?;
        let time = parse_loose_time(time_part)?;
        let naive = date.and_time(time);
        match offset {
            Some(off) => off
                .from_local_datetime(&naive)
                .single()
                .map(W3cDate::from_datetime),
            None => tz.localize(naive).map(W3cDate::from_datetime),
        }
    }

    /// Places a date-time that has no offset in the site zone.
    pub fn from_naive(naive: NaiveDateTime, tz: &SiteTz) -> Option<W3cDate> {
        tz.localize(naive)
            .map(W3cDate::from_datetime)
            .filter(W3cDate::is_writable)
    }
}

impl Ord for W3cDate {
    fn cmp(&self, other: &Self) -> Ordering {
        // Equal instants fall back to a fixed order (date-only first, then by offset) so
        // sorting and "newest" stay deterministic.
        let rank = |d: &W3cDate| (!d.is_date_only(), d.offset_secs());
        self.instant()
            .cmp(&other.instant())
            .then_with(|| rank(self).cmp(&rank(other)))
    }
}

impl fmt::Debug for W3cDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "W3cDate({self})")
    }
}

impl PartialOrd for W3cDate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for W3cDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            W3cKind::Date(d) => write!(f, "{}", d.format("%Y-%m-%d")),
            W3cKind::DateTime(dt) => {
                // `%.f` keeps a fraction only when there is one, so the instant stays exact.
                write!(f, "{}", dt.format("%Y-%m-%dT%H:%M:%S%.f%:z"))
            }
        }
    }
}

/// The zone that offset-less dates are read in: a fixed offset or an IANA name.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum SiteTz {
    /// UTC, the default when the site names no zone.
    #[default]
    Utc,
    /// A fixed offset such as `+02:00`.
    Fixed(FixedOffset),
    /// An IANA zone such as `Europe/Berlin` (offsets follow daylight saving).
    Named(Zone),
}

impl SiteTz {
    /// Gives `naive` the zone's offset; a time skipped by a DST change has none.
    pub fn localize(&self, naive: NaiveDateTime) -> Option<DateTime<FixedOffset>> {
        match self {
            SiteTz::Utc => Some(naive.and_utc().fixed_offset()),
            SiteTz::Fixed(off) => off.from_local_datetime(&naive).single(),
            // Ambiguous (clocks went back): the earlier reading, as Go takes.
            SiteTz::Named(zone) => FixedOffset::east_opt(zone.offset_of_local(naive)?)?
                .from_local_datetime(&naive)
                .single(),
        }
    }
}

impl FromStr for SiteTz {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty()
            || s.eq_ignore_ascii_case("utc")
            || s == "Z"
            || s.eq_ignore_ascii_case("gmt")
        {
            return Ok(SiteTz::Utc);
        }
        if let Some(off) = parse_offset(s) {
            // Every offset-less date would take this offset, and none could be written.
            if off.local_minus_utc().abs() > MAX_OFFSET_SECS {
                return Err(format!(
                    "time zone offset '{s}' is beyond ±14:00, which sitemap dates cannot carry"
                ));
            }
            return Ok(SiteTz::Fixed(off));
        }
        Zone::load(s).map(SiteTz::Named).map_err(|e| {
            format!("{e}: use an IANA name like 'Europe/Berlin' or an offset like '+02:00'")
        })
    }
}

/// Splits `YYYY-M-D` from whatever follows it.
/// `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ss±hh:mm`, exactly, when the values are valid; any
/// other text is `None` and left to the general parser, which reads these two the same way.
fn common_form(s: &str) -> Option<W3cDate> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b.get(r)?.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)?;
    if b.len() == 10 {
        return Some(W3cDate::from_date(date));
    }
    if b.len() != 25
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || !matches!(b[19], b'+' | b'-')
        || b[22] != b':'
    {
        return None;
    }
    let time = NaiveTime::from_hms_opt(num(11..13)?, num(14..16)?, num(17..19)?)?;
    let (oh, om) = (num(20..22)?, num(23..25)?);
    if oh > 23 || om > 59 {
        return None;
    }
    let secs = (oh * 3600 + om * 60) as i32;
    let offset = FixedOffset::east_opt(if b[19] == b'-' { -secs } else { secs })?;
    offset
        .from_local_datetime(&date.and_time(time))
        .single()
        .map(W3cDate::from_datetime)
}

fn split_date(s: &str) -> Option<(&str, &str)> {
    let mut dashes = 0;
    for (i, c) in s.char_indices() {
        match c {
            '0'..='9' => {}
            '-' if dashes < 2 => dashes += 1,
            _ => return (dashes == 2).then(|| (&s[..i], &s[i..])),
        }
    }
    (dashes == 2).then_some((s, ""))
}

fn parse_loose_date(s: &str) -> Option<NaiveDate> {
    let mut it = s.split('-');
    let (y, m, d) = (it.next()?, it.next()?, it.next()?);
    if y.len() != 4 || m.is_empty() || m.len() > 2 || d.is_empty() || d.len() > 2 {
        return None;
    }
    NaiveDate::from_ymd_opt(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
}

/// Splits `hh:mm[:ss[.f]]` from a trailing `Z` or `±hh[:]mm`.
fn split_offset(s: &str) -> Option<(&str, Option<FixedOffset>)> {
    let s = s.trim();
    if let Some(t) = s.strip_suffix(['Z', 'z']) {
        return Some((t.trim_end(), FixedOffset::east_opt(0)));
    }
    if let Some(pos) = s.rfind(['+', '-']) {
        let off = parse_offset(s[pos..].trim())?;
        return Some((s[..pos].trim_end(), Some(off)));
    }
    Some((s, None))
}

fn parse_offset(s: &str) -> Option<FixedOffset> {
    let (sign, body) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let digits: String = body.chars().filter(|c| *c != ':').collect();
    if digits.len() != 4 && digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i32 = digits[..2].parse().ok()?;
    let m: i32 = if digits.len() == 4 {
        digits[2..].parse().ok()?
    } else {
        0
    };
    if h > 23 || m > 59 {
        return None;
    }
    FixedOffset::east_opt(sign * (h * 3600 + m * 60))
}

fn parse_loose_time(s: &str) -> Option<NaiveTime> {
    let (main, frac) = match s.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (s, None),
    };
    let mut it = main.split(':');
    let h: u32 = num(it.next()?)?;
    let m: u32 = num(it.next()?)?;
    let sec: u32 = match it.next() {
        Some(x) => num(x)?,
        None => 0,
    };
    if it.next().is_some() {
        return None;
    }
    let nanos = match frac {
        Some(f) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
            let mut digits = f.chars().take(9).collect::<String>();
            while digits.len() < 9 {
                digits.push('0');
            }
            digits.parse().ok()?
        }
        Some(_) => return None,
        None => 0,
    };
    NaiveTime::from_hms_nano_opt(h, m, sec, nanos)
}

fn num(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_date_is_twelve_bytes_and_so_is_an_optional_one() {
        assert_eq!(std::mem::size_of::<W3cDate>(), 12);
        assert_eq!(std::mem::size_of::<Option<W3cDate>>(), 12);
    }

    proptest! {
        /// The shortcut for the two common forms agrees with the general parser, valid
        /// values or not.
        #[test]
        fn the_common_forms_read_as_the_general_parser_reads_them(
            y in 1900u32..2100, mo in 0u32..14, d in 0u32..33,
            h in 0u32..26, mi in 0u32..62, sec in 0u32..62,
            sign in prop::sample::select(vec!['+', '-']), oh in 0u32..26, om in 0u32..62,
            with_time in any::<bool>(),
        ) {
            let s = if with_time {
                format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{sec:02}{sign}{oh:02}:{om:02}")
            } else {
                format!("{y:04}-{mo:02}-{d:02}")
            };
            if let Some(fast) = common_form(&s) {
                prop_assert_eq!(Some(fast), W3cDate::parse_any(&s, &SiteTz::Utc), "{}", s);
            } else {
                // Refused here: the general parser decides, and refuses too when the values
                // are out of range.
                let date_ok = NaiveDate::from_ymd_opt(y as i32, mo, d).is_some();
                let time_ok = h < 24 && mi < 60 && sec < 60 && oh < 24 && om < 60;
                let valid = date_ok && (!with_time || time_ok);
                prop_assert!(!valid, "{} is valid but was refused", s);
            }
        }

        /// Packing keeps every date-time chrono can hold exactly: instant, fraction (a leap
        /// second's too) and offset; and orders as the instants do, date-only first on a tie.
        #[test]
        fn a_packed_date_gives_back_what_went_in(
            secs in DateTime::<Utc>::MIN_UTC.timestamp()..=DateTime::<Utc>::MAX_UTC.timestamp(),
            nanos in 0u32..2_000_000_000, offset in -86_399i32..=86_399,
            other_secs in -1i64..=1, day_only in any::<bool>(),
        ) {
            let fixed = FixedOffset::east_opt(offset).unwrap();
            let Some(dt) = DateTime::from_timestamp(secs, nanos).map(|d| d.with_timezone(&fixed)) else {
                return Ok(());
            };
            let w = W3cDate::from_datetime(dt);
            prop_assert_eq!(w.kind(), W3cKind::DateTime(dt));
            prop_assert_eq!(w.instant(), dt.with_timezone(&Utc));
            let d = dt.date_naive();
            prop_assert_eq!(W3cDate::from_date(d).kind(), W3cKind::Date(d));
            // Order against a neighbour a second away, or a bare date at the same instant.
            let b = if day_only {
                W3cDate::from_date(d)
            } else {
                match DateTime::from_timestamp(secs + other_secs, nanos) {
                    Some(o) => W3cDate::from_datetime(o.with_timezone(&fixed)),
                    None => return Ok(()),
                }
            };
            let tie = if day_only { Ordering::Greater } else { Ordering::Equal };
            prop_assert_eq!(w.cmp(&b), w.instant().cmp(&b.instant()).then(tie));
        }
    }

    fn p(s: &str) -> Option<String> {
        W3cDate::parse(s, &SiteTz::Utc).map(|d| d.to_string())
    }

    #[test]
    fn parses_the_forms_front_matter_uses() {
        assert_eq!(p("2021-06-07").as_deref(), Some("2021-06-07"));
        assert_eq!(
            p("2021-04-05T06:07:08+02:00").as_deref(),
            Some("2021-04-05T06:07:08+02:00")
        );
        assert_eq!(
            p("2021-04-05T06:07:08Z").as_deref(),
            Some("2021-04-05T06:07:08+00:00")
        );
        assert_eq!(
            p("2021-04-05t06:07:08z").as_deref(),
            Some("2021-04-05T06:07:08+00:00")
        );
        assert_eq!(
            p("2021-04-05 06:07:08Z").as_deref(),
            Some("2021-04-05T06:07:08+00:00")
        );
        assert_eq!(
            p("2021-4-5 6:07:08").as_deref(),
            Some("2021-04-05T06:07:08+00:00")
        );
        assert_eq!(
            p("2021-04-05T06:07:08.123456Z").as_deref(),
            Some("2021-04-05T06:07:08.123456+00:00")
        );
        assert_eq!(
            p("2023-01-22T10:20:30-0700").as_deref(),
            Some("2023-01-22T10:20:30-07:00")
        );
        assert_eq!(
            p("Mon, 02 Jan 2006 15:04:05 -0700").as_deref(),
            Some("2006-01-02T15:04:05-07:00")
        );
        assert_eq!(
            p("Mon, 02 Jan 2006 15:04:05 CET").as_deref(),
            Some("2006-01-02T15:04:05+00:00")
        );
    }

    #[test]
    fn rejects_what_is_not_a_date() {
        for bad in [
            "",
            "yesterday",
            "2023-13-01",
            "2023-02-30",
            "2023-01-01T25:00:00",
            "20230101",
            "2023-01-01T10:00:00+25:00",
        ] {
            assert_eq!(p(bad), None, "{bad}");
        }
    }

    #[test]
    fn refuses_dates_the_schemas_cannot_carry() {
        for bad in [
            "0000-01-01",
            "0000-12-31T23:00:00Z",
            "2024-01-01T10:00:00-23:59",
            "2024-01-01T10:00:00+14:01",
            "2024-01-01 10:00:00 +1500",
            "Mon, 01 Jan 0000 10:00:00 +0000",
        ] {
            assert_eq!(p(bad), None, "{bad}");
        }
        for good in [
            "0001-01-01",
            "9999-12-31",
            "2024-01-01T10:00:00-14:00",
            "2024-01-01T10:00:00+14:00",
            "0001-01-01T00:30:00+01:00",
        ] {
            assert!(p(good).is_some(), "{good}");
        }
        // An offset-less time in a zone that would push it past the range has no date.
        let late: SiteTz = "+14:00".parse().unwrap();
        assert!(W3cDate::parse("9999-12-31T23:00:00", &late).is_some());
        assert!("+14:30".parse::<SiteTz>().is_err());
        assert!("-23:59".parse::<SiteTz>().is_err());
    }

    #[test]
    fn naive_times_take_the_site_zone() {
        let berlin: SiteTz = "Europe/Berlin".parse().unwrap();
        let summer = W3cDate::parse("2023-07-01T12:00:00", &berlin).unwrap();
        let winter = W3cDate::parse("2023-01-01T12:00:00", &berlin).unwrap();
        assert_eq!(summer.to_string(), "2023-07-01T12:00:00+02:00");
        assert_eq!(winter.to_string(), "2023-01-01T12:00:00+01:00");
        let fixed: SiteTz = "-05:00".parse().unwrap();
        assert_eq!(
            W3cDate::parse("2023-01-01 08:00", &fixed)
                .unwrap()
                .to_string(),
            "2023-01-01T08:00:00-05:00"
        );
        assert!("Mars/Olympus".parse::<SiteTz>().is_err());
    }

    #[test]
    fn future_dates_clamp_to_today() {
        let now = Utc.with_ymd_and_hms(2024, 5, 6, 7, 8, 9).unwrap()
            + chrono::Duration::nanoseconds(123_456);
        let d = W3cDate::parse("2099-01-01", &SiteTz::Utc).unwrap();
        assert_eq!(d.clamp_to(now).to_string(), "2024-05-06");
        let dt = W3cDate::parse("2099-01-01T00:00:00Z", &SiteTz::Utc).unwrap();
        assert_eq!(dt.clamp_to(now).to_string(), "2024-05-06");
        let past = W3cDate::parse("2001-01-01", &SiteTz::Utc).unwrap();
        assert_eq!(past.clamp_to(now), past);
    }

    #[test]
    fn orders_by_instant() {
        let a = W3cDate::parse("2021-01-01T10:00:00+02:00", &SiteTz::Utc).unwrap();
        let b = W3cDate::parse("2021-01-01T09:00:00Z", &SiteTz::Utc).unwrap();
        assert!(a < b);
    }
}
