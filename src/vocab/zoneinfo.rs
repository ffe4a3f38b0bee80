//! Named time zones (`Europe/Berlin`) from the machine's time-zone database, found as Go's
//! `time.LoadLocation` finds them, so that Hugo and we read a site's `timeZone` from the same
//! tables: the folder in `ZONEINFO`, then `/usr/share/zoneinfo`, `/usr/share/lib/zoneinfo`,
//! `/usr/lib/locale/TZ` and `/etc/zoneinfo`. Hugo carries tables of its own only on Windows;
//! builds with the `tzdata` feature (and every Windows build) fall back to bundled ones.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tz::TimeZone;

/// Where Go looks after `ZONEINFO` (`platformZoneSources` in Go's `time` package).
const SYSTEM_DIRS: [&str; 4] = [
    "/usr/share/zoneinfo",
    "/usr/share/lib/zoneinfo",
    "/usr/lib/locale/TZ",
    "/etc/zoneinfo",
];

/// A named zone, its rules read once.
#[derive(Clone)]
pub struct Zone {
    name: Arc<str>,
    rules: Rules,
}

#[derive(Clone)]
enum Rules {
    /// A TZif file from the machine's database.
    System(Arc<TimeZone>),
    /// The IANA tables built into the binary.
    #[cfg(any(windows, feature = "tzdata"))]
    Bundled(chrono_tz::Tz),
}

impl Zone {
    /// Finds `name` where Go would; the error says where it looked.
    pub fn load(name: &str) -> Result<Zone, String> {
        let env = std::env::var_os("ZONEINFO").filter(|v| !v.is_empty());
        let dirs: Vec<PathBuf> = env
            .into_iter()
            .map(PathBuf::from)
            .chain(SYSTEM_DIRS.iter().map(PathBuf::from))
            .collect();
        Zone::load_from(name, &dirs)
    }

    /// Finds `name` in the first of `dirs` that has it as a file.
    fn load_from(name: &str, dirs: &[PathBuf]) -> Result<Zone, String> {
        // Go refuses these before it looks anywhere.
        if name.is_empty() || name.contains("..") || name.starts_with(['/', '\\']) {
            return Err(format!("'{name}' is not a time zone name"));
        }
        let mut bad = None;
        for dir in dirs {
            let path = dir.join(name);
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            match TimeZone::from_tz_data(&bytes) {
                Ok(tz) => {
                    return Ok(Zone {
                        name: name.into(),
                        rules: Rules::System(Arc::new(tz)),
                    });
                }
                // Go looks on, and names the first such file if no folder has the zone.
                Err(e) => {
                    bad.get_or_insert_with(|| {
                        format!("{}: not a time zone file ({e})", path.display())
                    });
                }
            }
        }
        #[cfg(any(windows, feature = "tzdata"))]
        if let Ok(tz) = name.parse::<chrono_tz::Tz>() {
            return Ok(Zone {
                name: name.into(),
                rules: Rules::Bundled(tz),
            });
        }
        Err(bad.unwrap_or_else(|| {
            let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            let present: Vec<&str> = dirs
                .iter()
                .filter(|d| Path::new(d).is_dir())
                .map(|d| d.as_str())
                .collect();
            if present.is_empty() {
                format!(
                    "unknown time zone '{name}': this machine has no time-zone database \
                     (looked in {}){NO_DATABASE}",
                    dirs.join(", ")
                )
            } else {
                format!("unknown time zone '{name}' (not in {})", present.join(", "))
            }
        }))
    }

    /// The name it was loaded by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The offset from UTC, in seconds, of the local time `naive` in this zone: `None` for a
    /// time that clocks skipped, the earlier of two readings for one they passed twice.
    pub fn offset_of_local(&self, naive: chrono::NaiveDateTime) -> Option<i32> {
        match &self.rules {
            Rules::System(tz) => {
                const DAY: i64 = 86_400;
                let local = naive.and_utc().timestamp();
                let offset = |t: i64| {
                    let t = tz.find_local_time_type(t).ok()?;
                    Some(i64::from(t.ut_offset()))
                };
                // Clocks change at most once in two days, so the offsets in force a day
                // either side are the only ones `local` can have been read under; each that
                // is in force at its own instant gives a reading.
                let mut earliest: Option<i64> = None;
                for o in [offset(local - DAY)?, offset(local + DAY)?] {
                    let utc = local - o;
                    if offset(utc) == Some(o) {
                        earliest = Some(earliest.map_or(utc, |e| e.min(utc)));
                    }
                }
                i32::try_from(local - earliest?).ok()
            }
            #[cfg(any(windows, feature = "tzdata"))]
            Rules::Bundled(tz) => {
                use chrono::{LocalResult, Offset, TimeZone as _};
                match tz.from_local_datetime(&naive) {
                    LocalResult::Single(dt) | LocalResult::Ambiguous(dt, _) => {
                        Some(dt.offset().fix().local_minus_utc())
                    }
                    LocalResult::None => None,
                }
            }
        }
    }
}

/// What the error says when the machine has no database at all.
#[cfg(any(windows, feature = "tzdata"))]
const NO_DATABASE: &str = " and the bundled tables have no such zone";
#[cfg(not(any(windows, feature = "tzdata")))]
const NO_DATABASE: &str = ": install its tzdata package, or sitemapgen with `--features tzdata`, which carries tables of its own";

impl PartialEq for Zone {
    fn eq(&self, other: &Zone) -> bool {
        self.name == other.name
    }
}

impl Eq for Zone {}

impl fmt::Debug for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Zone({})", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn local(y: i32, m: u32, d: u32, h: u32, min: u32) -> chrono::NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d)
            .and_then(|d| d.and_hms_opt(h, min, 0))
            .unwrap()
    }

    #[test]
    fn berlin_follows_daylight_saving_from_the_system_tables() {
        let z = Zone::load("Europe/Berlin").unwrap();
        assert!(matches!(z.rules, Rules::System(_)));
        assert_eq!(z.offset_of_local(local(2024, 1, 15, 12, 0)), Some(3600));
        assert_eq!(z.offset_of_local(local(2024, 7, 15, 12, 0)), Some(7200));
        // 02:30 on 31 March 2024 never happened; 02:30 on 27 October happened twice.
        assert_eq!(z.offset_of_local(local(2024, 3, 31, 2, 30)), None);
        assert_eq!(z.offset_of_local(local(2024, 10, 27, 2, 30)), Some(7200));
    }

    #[test]
    fn names_go_refuses_or_the_database_lacks_are_errors_that_say_where_it_looked() {
        for bad in ["", "../etc/passwd", "/etc/localtime", "Europe/../UTC"] {
            assert!(
                Zone::load(bad)
                    .unwrap_err()
                    .contains("not a time zone name")
            );
        }
        let e = Zone::load("Mars/Olympus_Mons").unwrap_err();
        assert!(
            e.starts_with("unknown time zone 'Mars/Olympus_Mons' (not in "),
            "{e}"
        );
        assert!(e.contains("/usr/share/zoneinfo"), "{e}");
        // A folder of zones is no zone.
        assert!(Zone::load("Europe").is_err());
    }

    #[test]
    fn the_first_folder_that_has_the_zone_gives_it_and_none_at_all_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(first.join("Test")).unwrap();
        std::fs::create_dir_all(second.join("Test")).unwrap();
        let tokyo = std::fs::read("/usr/share/zoneinfo/Asia/Tokyo").unwrap();
        std::fs::write(first.join("Test/Zone"), tokyo).unwrap();
        std::fs::write(second.join("Test/Zone"), b"not TZif").unwrap();
        let z = Zone::load_from("Test/Zone", &[first.clone(), second.clone()]).unwrap();
        assert_eq!(z.offset_of_local(local(2024, 7, 1, 12, 0)), Some(9 * 3600));
        // A file that is no zone is passed over, and named if no folder has the zone.
        let z = Zone::load_from("Test/Zone", &[second.clone(), first]).unwrap();
        assert_eq!(z.offset_of_local(local(2024, 7, 1, 12, 0)), Some(9 * 3600));
        let e = Zone::load_from("Test/Zone", &[second]).unwrap_err();
        assert!(e.contains("b/Test/Zone: not a time zone file"), "{e}");

        let e = Zone::load_from("Asia/Tokyo", &[dir.path().join("none")]).unwrap_err();
        assert!(e.contains("this machine has no time-zone database"), "{e}");
        assert!(e.contains("--features tzdata"), "{e}");
    }

    /// The system's tables and the bundled ones (chrono-tz, a test dependency here) read
    /// local times alike around every change of offset from 1990 to 2020 that both have: a
    /// minute and an hour before and after it, read under the offsets on either side.
    #[test]
    fn the_system_tables_agree_with_the_bundled_ones_at_every_change() {
        use chrono::{DateTime, LocalResult, Offset, TimeZone as _};
        let (from, to) = (631_152_000, 1_609_459_200); // 1990 to 2021, UTC
        let (mut zones, mut checked) = (0, 0);
        for tz in chrono_tz::TZ_VARIANTS {
            let Ok(z) = Zone::load(tz.name()) else {
                continue;
            };
            // Refutable in builds with the bundled tables.
            #[allow(irrefutable_let_patterns)]
            let Rules::System(rules) = &z.rules else {
                unreachable!("loaded from the system")
            };
            zones += 1;
            let rules = TimeZone::as_ref(rules);
            let types = rules.local_time_types();
            let mut before = None;
            for t in rules.transitions() {
                let after = i64::from(types[t.local_time_type_index()].ut_offset());
                let at = t.unix_leap_time();
                let utc_offset = |t: i64| {
                    let utc = DateTime::from_timestamp(t, 0).unwrap().naive_utc();
                    i64::from(tz.offset_from_utc_datetime(&utc).fix().local_minus_utc())
                };
                // Where the two releases of the tables differ (`WET` follows Lisbon in newer
                // ones) there is nothing to compare.
                if let Some(before) = before.replace(after)
                    && (from..to).contains(&at)
                    && utc_offset(at - 1) == before
                    && utc_offset(at) == after
                {
                    for shift in [-3600, -60, 0, 60, 3600] {
                        for o in [before, after] {
                            let naive = DateTime::from_timestamp(at + o + shift, 0)
                                .unwrap()
                                .naive_utc();
                            let want = match tz.from_local_datetime(&naive) {
                                LocalResult::Single(x) | LocalResult::Ambiguous(x, _) => {
                                    Some(x.offset().fix().local_minus_utc())
                                }
                                LocalResult::None => None,
                            };
                            assert_eq!(z.offset_of_local(naive), want, "{} {naive}", tz.name());
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(
            zones > 300 && checked > 100_000,
            "{zones} zones, {checked} readings"
        );
    }
}
