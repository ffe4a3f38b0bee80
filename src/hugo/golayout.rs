//! Go's time layouts (`2006-01-02`, `Jan`, `15:04`), tokenized as Go's `nextStdChunk` does,
//! for the two places Hugo uses them: the date forms it reads in front matter (cast's list
//! of layouts, front matter) and the permalink tokens that format a page's date
//! (`:06`, `:Jan`, `:2006`, routing).
//!
//! Permalinks read only the elements a word can hold (`Elements::Word`): zone offsets
//! (`-07:00`, `Z07:00`) and fractions (`.000`) are literal text to them, as they always were
//! here. (Hugo's Go formats a token's whole text, a bracketed cut included, so it would
//! read them inside a cut; that difference is kept as it stood.)

use chrono::{DateTime, Datelike, FixedOffset, TimeZone, Timelike, Utc};

/// One layout element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Std {
    LongMonth,
    Month,
    NumMonth,
    ZeroMonth,
    LongWeekDay,
    WeekDay,
    Day,
    UnderDay,
    ZeroDay,
    UnderYearDay,
    ZeroYearDay,
    Hour,
    Hour12,
    ZeroHour12,
    Minute,
    ZeroMinute,
    Second,
    ZeroSecond,
    LongYear,
    Year,
    Pm,
    PmLower,
    Tz,
    /// `Z070000`.
    Iso8601Seconds,
    /// `Z0700`.
    Iso8601,
    /// `Z07`.
    Iso8601Short,
    /// `Z07:00`.
    Iso8601Colon,
    /// `Z07:00:00`.
    Iso8601ColonSeconds,
    /// `-0700`.
    NumTz,
    /// `-07:00`.
    NumColonTz,
    /// `-07`.
    NumShortTz,
    /// `-070000`.
    NumSecondsTz,
    /// `-07:00:00`.
    NumColonSecondsTz,
    /// `.000` or `,000` (`nines` false: exactly `digits` digits), `.999` or `,999` (`nines`:
    /// at most `digits`, trailing zeros cut).
    Frac {
        digits: usize,
        nines: bool,
        comma: bool,
    },
}

/// Which layout elements a tokenizer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elements {
    /// Go's whole set (front matter dates).
    All,
    /// Only those a `\w+` permalink token can hold: no zone offset with `-` or `:`, no
    /// fraction (they are literal text).
    Word,
}

/// One piece of a tokenized layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    /// Text matched (or written) as it is.
    Lit(&'a str),
    /// A layout element.
    Std(Std),
}

/// `layout` as its pieces, in order (no empty text between two elements).
pub(crate) fn tokens(layout: &str, elements: Elements) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut rest = layout;
    while let Some((before, std, after)) = next_std(rest, elements) {
        if !before.is_empty() {
            out.push(Tok::Lit(before));
        }
        out.push(Tok::Std(std));
        rest = after;
    }
    if !rest.is_empty() {
        out.push(Tok::Lit(rest));
    }
    out
}

/// Whether `s` starts with a lower-case ASCII letter (`Janet` is no month).
fn starts_lower(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
}

/// The layout's next element: the text before it, the element, the rest.
fn next_std(layout: &str, elements: Elements) -> Option<(&str, Std, &str)> {
    let all = elements == Elements::All;
    let b = layout.as_bytes();
    for i in 0..b.len() {
        // Every element starts with an ASCII byte: inside a multi-byte character (`é`,
        // which a permalink token's cut may hold) there is none to find.
        if !layout.is_char_boundary(i) {
            continue;
        }
        let rest = &layout[i..];
        let hit = |std: Std, len: usize| Some((&layout[..i], std, &layout[i + len..]));
        match b[i] {
            b'J' if rest.starts_with("January") => return hit(Std::LongMonth, 7),
            b'J' if rest.starts_with("Jan") && !starts_lower(&rest[3..]) => {
                return hit(Std::Month, 3);
            }
            b'M' if rest.starts_with("Monday") => return hit(Std::LongWeekDay, 6),
            b'M' if rest.starts_with("Mon") && !starts_lower(&rest[3..]) => {
                return hit(Std::WeekDay, 3);
            }
            b'M' if rest.starts_with("MST") => return hit(Std::Tz, 3),
            b'0' if matches!(b.get(i + 1), Some(b'1'..=b'6')) => {
                let std = [
                    Std::ZeroMonth,
                    Std::ZeroDay,
                    Std::ZeroHour12,
                    Std::ZeroMinute,
                    Std::ZeroSecond,
                    Std::Year,
                ][usize::from(b[i + 1] - b'1')];
                return hit(std, 2);
            }
            b'0' if rest.starts_with("002") => return hit(Std::ZeroYearDay, 3),
            b'1' if rest.starts_with("15") => return hit(Std::Hour, 2),
            b'1' => return hit(Std::NumMonth, 1),
            b'2' if rest.starts_with("2006") => return hit(Std::LongYear, 4),
            b'2' => return hit(Std::Day, 1),
            // `_2006` is a literal `_` and the year.
            b'_' if rest.starts_with("_2006") => {
                return Some((&layout[..=i], Std::LongYear, &layout[i + 5..]));
            }
            b'_' if rest.starts_with("_2") => return hit(Std::UnderDay, 2),
            b'_' if rest.starts_with("__2") => return hit(Std::UnderYearDay, 3),
            b'3' => return hit(Std::Hour12, 1),
            b'4' => return hit(Std::Minute, 1),
            b'5' => return hit(Std::Second, 1),
            b'P' if rest.starts_with("PM") => return hit(Std::Pm, 2),
            b'p' if rest.starts_with("pm") => return hit(Std::PmLower, 2),
            b'Z' if rest.starts_with("Z070000") => return hit(Std::Iso8601Seconds, 7),
            b'Z' if all && rest.starts_with("Z07:00:00") => {
                return hit(Std::Iso8601ColonSeconds, 9);
            }
            b'Z' if rest.starts_with("Z0700") => return hit(Std::Iso8601, 5),
            b'Z' if all && rest.starts_with("Z07:00") => return hit(Std::Iso8601Colon, 6),
            b'Z' if rest.starts_with("Z07") => return hit(Std::Iso8601Short, 3),
            b'-' if all && rest.starts_with("-070000") => return hit(Std::NumSecondsTz, 7),
            b'-' if all && rest.starts_with("-07:00:00") => return hit(Std::NumColonSecondsTz, 9),
            b'-' if all && rest.starts_with("-0700") => return hit(Std::NumTz, 5),
            b'-' if all && rest.starts_with("-07:00") => return hit(Std::NumColonTz, 6),
            b'-' if all && rest.starts_with("-07") => return hit(Std::NumShortTz, 3),
            // A run of one digit, `0` or `9`, after `.` or `,`, with no other digit after it.
            b'.' | b',' if all && matches!(b.get(i + 1), Some(b'0' | b'9')) => {
                let d = b[i + 1];
                let digits = b[i + 1..].iter().take_while(|&&c| c == d).count();
                let end = i + 1 + digits;
                if !b.get(end).is_some_and(u8::is_ascii_digit) {
                    let std = Std::Frac {
                        digits,
                        nines: d == b'9',
                        comma: b[i] == b',',
                    };
                    return Some((&layout[..i], std, &layout[end..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// `t` formatted with Go's `layout`, read as a permalink token ([`Elements::Word`]).
pub(crate) fn format(layout: &str, t: &DateTime<FixedOffset>) -> String {
    format_as(layout, Elements::Word, t)
}

/// `t` formatted with Go's `layout`, tokenized with `elements`.
fn format_as(layout: &str, elements: Elements, t: &DateTime<FixedOffset>) -> String {
    let mut out = String::new();
    let mut rest = layout;
    while let Some((before, std, after)) = next_std(rest, elements) {
        out.push_str(before);
        let hour12 = match t.hour() % 12 {
            0 => 12,
            h => h,
        };
        let offset = t.offset().local_minus_utc();
        match std {
            Std::LongMonth => out.push_str(&t.format("%B").to_string()),
            Std::Month => out.push_str(&t.format("%b").to_string()),
            Std::NumMonth => out.push_str(&t.month().to_string()),
            Std::ZeroMonth => out.push_str(&format!("{:02}", t.month())),
            Std::LongWeekDay => out.push_str(&t.format("%A").to_string()),
            Std::WeekDay => out.push_str(&t.format("%a").to_string()),
            Std::Day => out.push_str(&t.day().to_string()),
            Std::UnderDay => out.push_str(&format!("{:>2}", t.day())),
            Std::ZeroDay => out.push_str(&format!("{:02}", t.day())),
            Std::UnderYearDay => out.push_str(&format!("{:>3}", t.ordinal())),
            Std::ZeroYearDay => out.push_str(&format!("{:03}", t.ordinal())),
            Std::Hour => out.push_str(&format!("{:02}", t.hour())),
            Std::Hour12 => out.push_str(&hour12.to_string()),
            Std::ZeroHour12 => out.push_str(&format!("{hour12:02}")),
            Std::Minute => out.push_str(&t.minute().to_string()),
            Std::ZeroMinute => out.push_str(&format!("{:02}", t.minute())),
            Std::Second => out.push_str(&t.second().to_string()),
            Std::ZeroSecond => out.push_str(&format!("{:02}", t.second())),
            // Go writes the year as four digits at least, and its last two for `06`.
            Std::LongYear => out.push_str(&format!("{:04}", t.year())),
            Std::Year => out.push_str(&format!("{:02}", t.year().rem_euclid(100))),
            Std::Pm => out.push_str(if t.hour() >= 12 { "PM" } else { "AM" }),
            Std::PmLower => out.push_str(if t.hour() >= 12 { "pm" } else { "am" }),
            // A zone without a name (an offset from the front matter) is written as its
            // offset, as Go writes it.
            Std::Tz if offset == 0 => out.push_str("UTC"),
            Std::Tz => out.push_str(&offset_text(offset, false, false, false)),
            Std::Iso8601Seconds
            | Std::Iso8601
            | Std::Iso8601Short
            | Std::Iso8601Colon
            | Std::Iso8601ColonSeconds
                if offset == 0 =>
            {
                out.push('Z')
            }
            Std::Iso8601Seconds | Std::NumSecondsTz => {
                out.push_str(&offset_text(offset, true, true, false))
            }
            Std::Iso8601 | Std::NumTz => out.push_str(&offset_text(offset, false, false, false)),
            Std::Iso8601Short | Std::NumShortTz => {
                out.push_str(&offset_text(offset, true, false, false))
            }
            Std::Iso8601Colon | Std::NumColonTz => {
                out.push_str(&offset_text(offset, false, false, true))
            }
            Std::Iso8601ColonSeconds | Std::NumColonSecondsTz => {
                out.push_str(&offset_text(offset, true, true, true))
            }
            Std::Frac {
                digits,
                nines,
                comma,
            } => {
                // Go's `appendNano`: nine digits cut to `digits`; `.999` drops trailing
                // zeros, and the separator too when nothing is left.
                let mut f = format!("{:09}", t.nanosecond() % 1_000_000_000);
                f.truncate(digits.min(9));
                if nines {
                    f.truncate(f.trim_end_matches('0').len());
                }
                if !f.is_empty() {
                    out.push(if comma { ',' } else { '.' });
                    out.push_str(&f);
                }
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `+0200`, or `+020000` with `seconds`, or `+02` when `short`; `+02:00` and `+02:00:00`
/// with `colon`.
fn offset_text(offset: i32, short: bool, seconds: bool, colon: bool) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.unsigned_abs();
    let (h, m, s) = (a / 3600, a / 60 % 60, a % 60);
    let sep = if colon { ":" } else { "" };
    if seconds {
        format!("{sign}{h:02}{sep}{m:02}{sep}{s:02}")
    } else if short {
        format!("{sign}{h:02}")
    } else {
        format!("{sign}{h:02}{sep}{m:02}")
    }
}

/// Whether a permalink token is a Go layout: what Hugo asks (does the reference time it
/// picked, 2019-11-09 23:01:42 UTC, format to something else?). So `:PM` is no layout.
pub(crate) fn is_layout(token: &str) -> bool {
    let reference = Utc
        .with_ymd_and_hms(2019, 11, 9, 23, 1, 42)
        .single()
        .map(|t| t.fixed_offset());
    reference.is_some_and(|r| format(token, &r) != token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_beyond_ascii_is_text_not_a_panic() {
        assert_eq!(
            next_std("é-2006", Elements::All).map(|(a, _, c)| (a, c)),
            Some(("é-", ""))
        );
        assert_eq!(next_std("aéb", Elements::All), None);
    }

    fn at(s: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(s).unwrap()
    }

    /// Go's own answers (`time.Format`) for these layouts.
    #[test]
    fn formats_as_go_does() {
        let t = at("2024-03-05T07:08:09+02:00");
        for (layout, want) in [
            ("2006", "2024"),
            ("06", "24"),
            ("Jan", "Mar"),
            ("January", "March"),
            ("01", "03"),
            ("1", "3"),
            ("02", "05"),
            ("2", "5"),
            ("_2", " 5"),
            ("002", "065"),
            ("__2", " 65"),
            ("Mon", "Tue"),
            ("Monday", "Tuesday"),
            ("15", "07"),
            ("3", "7"),
            ("03", "07"),
            ("04", "08"),
            ("4", "8"),
            ("05", "09"),
            ("5", "9"),
            ("PM", "AM"),
            ("pm", "am"),
            ("MST", "+0200"),
            ("Z0700", "+0200"),
            ("Z07", "+02"),
            ("x_2006", "x_2024"),
            ("Janet", "Janet"),
            ("Month", "Month"),
            ("slug", "slug"),
            ("20060102", "20240305"),
        ] {
            assert_eq!(format(layout, &t), want, "{layout}");
        }
        assert_eq!(format("MST", &at("2024-03-05T19:00:00Z")), "UTC");
        assert_eq!(format("3PM", &at("2024-03-05T19:00:00Z")), "7PM");
    }

    /// Go's answers for the zone offsets and fractions, which only front matter layouts
    /// read; a permalink token keeps them as text.
    #[test]
    fn formats_offsets_and_fractions_as_go_does() {
        let t = at("2024-03-05T07:08:09.123456789+02:00");
        for (layout, want) in [
            ("-0700", "+0200"),
            ("-07:00", "+02:00"),
            ("-07", "+02"),
            ("-070000", "+020000"),
            ("-07:00:00", "+02:00:00"),
            ("Z07:00", "+02:00"),
            ("Z07:00:00", "+02:00:00"),
            ("05.000", "09.123"),
            ("05,000000", "09,123456"),
            ("05.999999999999", "09.123456789"),
            ("05.00x", "09.12x"),
        ] {
            assert_eq!(format_as(layout, Elements::All, &t), want, "{layout}");
        }
        // As permalink tokens: `Z07` then the text `:00`.
        for (layout, want) in [
            ("-0700", "-0700"),
            ("-07:00", "-07:00"),
            ("Z07:00", "+02:00"),
            ("05.000", "09.000"),
            ("05,999", "09,999"),
        ] {
            assert_eq!(format(layout, &t), want, "{layout} as a permalink token");
        }
        let utc = at("2024-03-05T07:08:09.5Z");
        for (layout, want) in [
            ("Z07:00", "Z"),
            ("-07:00", "+00:00"),
            ("05.999", "09.5"),
            ("05.000", "09.500"),
        ] {
            assert_eq!(format_as(layout, Elements::All, &utc), want, "{layout}");
        }
        assert_eq!(
            format_as("05.999", Elements::All, &at("2024-03-05T07:08:09Z")),
            "09"
        );
    }

    #[test]
    fn a_token_is_a_layout_when_the_reference_time_changes_it() {
        for t in ["06", "Jan", "2006", "01", "slug2", "MST"] {
            assert!(is_layout(t), "{t}");
        }
        for t in ["PM", "pm", "slug", "title", "Janet", "yr"] {
            assert!(!is_layout(t), "{t}");
        }
    }
}
