//! Go's time layouts (`2006-01-02`, `Jan`, `15:04`), as Hugo's permalink patterns use them: a
//! token that is no permalink attribute but a layout (`:06`, `:Jan`, `:2006`) formats the
//! page's date. Only the layout elements a `\w+` token can hold are elements here; anything
//! else is literal text, as Go's `nextStdChunk` reads it.

use chrono::{DateTime, Datelike, FixedOffset, TimeZone, Timelike, Utc};

/// One layout element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Std {
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
    Iso8601Seconds,
    Iso8601,
    Iso8601Short,
}

/// Whether `s` starts with a lower-case ASCII letter (`Janet` is no month).
fn starts_lower(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
}

/// The layout's next element: the text before it, the element, the rest.
fn next_std(layout: &str) -> Option<(&str, Std, &str)> {
    let b = layout.as_bytes();
    for i in 0..b.len() {
        let rest = &layout[i..];
        let hit = |std: Std, len: usize| Some((&layout[..i], std, &layout[i + len..]));
        match b[i] {
            b'J' if rest.starts_with("January") => return hit(Std::LongMonth, 7),
            b'J' if rest.starts_with("Jan") && !starts_lower(&rest[3..]) => {
                return hit(Std::Month, 3)
            }
            b'M' if rest.starts_with("Monday") => return hit(Std::LongWeekDay, 6),
            b'M' if rest.starts_with("Mon") && !starts_lower(&rest[3..]) => {
                return hit(Std::WeekDay, 3)
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
                return Some((&layout[..=i], Std::LongYear, &layout[i + 5..]))
            }
            b'_' if rest.starts_with("_2") => return hit(Std::UnderDay, 2),
            b'_' if rest.starts_with("__2") => return hit(Std::UnderYearDay, 3),
            b'3' => return hit(Std::Hour12, 1),
            b'4' => return hit(Std::Minute, 1),
            b'5' => return hit(Std::Second, 1),
            b'P' if rest.starts_with("PM") => return hit(Std::Pm, 2),
            b'p' if rest.starts_with("pm") => return hit(Std::PmLower, 2),
            b'Z' if rest.starts_with("Z070000") => return hit(Std::Iso8601Seconds, 7),
            b'Z' if rest.starts_with("Z0700") => return hit(Std::Iso8601, 5),
            b'Z' if rest.starts_with("Z07") => return hit(Std::Iso8601Short, 3),
            _ => {}
        }
    }
    None
}

/// `t` formatted with Go's `layout`.
pub(super) fn format(layout: &str, t: &DateTime<FixedOffset>) -> String {
    let mut out = String::new();
    let mut rest = layout;
    while let Some((before, std, after)) = next_std(rest) {
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
            Std::Tz => out.push_str(&offset_text(offset, false, false)),
            Std::Iso8601Seconds | Std::Iso8601 | Std::Iso8601Short if offset == 0 => out.push('Z'),
            Std::Iso8601Seconds => out.push_str(&offset_text(offset, true, true)),
            Std::Iso8601 => out.push_str(&offset_text(offset, false, false)),
            Std::Iso8601Short => out.push_str(&offset_text(offset, true, false)),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `+0200`, or `+020000` with `seconds`, or `+02` when `short`.
fn offset_text(offset: i32, short: bool, seconds: bool) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.unsigned_abs();
    let (h, m, s) = (a / 3600, a / 60 % 60, a % 60);
    if seconds {
        format!("{sign}{h:02}{m:02}{s:02}")
    } else if short {
        format!("{sign}{h:02}")
    } else {
        format!("{sign}{h:02}{m:02}")
    }
}

/// Whether a permalink token is a Go layout: what Hugo asks (does the reference time it
/// picked, 2019-11-09 23:01:42 UTC, format to something else?). So `:PM` is no layout.
pub(super) fn is_layout(token: &str) -> bool {
    let reference = Utc
        .with_ymd_and_hms(2019, 11, 9, 23, 1, 42)
        .single()
        .map(|t| t.fixed_offset());
    reference.is_some_and(|r| format(token, &r) != token)
}

#[cfg(test)]
mod tests {
    use super::*;

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
