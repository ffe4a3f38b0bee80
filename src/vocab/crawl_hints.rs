//! The optional sitemap fields a site may set: `<changefreq>` and `<priority>`.

use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

/// A `<changefreq>` value, one of the seven the protocol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeFreq {
    /// `always`
    Always,
    /// `hourly`
    Hourly,
    /// `daily`
    Daily,
    /// `weekly`
    Weekly,
    /// `monthly`
    Monthly,
    /// `yearly`
    Yearly,
    /// `never`
    Never,
}

impl ChangeFreq {
    /// The protocol's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeFreq::Always => "always",
            ChangeFreq::Hourly => "hourly",
            ChangeFreq::Daily => "daily",
            ChangeFreq::Weekly => "weekly",
            ChangeFreq::Monthly => "monthly",
            ChangeFreq::Yearly => "yearly",
            ChangeFreq::Never => "never",
        }
    }
}

impl FromStr for ChangeFreq {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "always" => ChangeFreq::Always,
            "hourly" => ChangeFreq::Hourly,
            "daily" => ChangeFreq::Daily,
            "weekly" => ChangeFreq::Weekly,
            "monthly" => ChangeFreq::Monthly,
            "yearly" => ChangeFreq::Yearly,
            "never" => ChangeFreq::Never,
            _ => {
                return Err(format!(
                    "unknown changefreq '{s}': use always, hourly, daily, weekly, monthly, yearly or never"
                ));
            }
        })
    }
}

impl fmt::Display for ChangeFreq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `<priority>` between 0.0 and 1.0, kept in thousandths so it compares and prints exactly.
///
/// Stored one up, so zero is free for `Option<Priority>`'s `None` (two bytes, not four: a
/// route and an entry each hold one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Priority(NonZeroU16);

impl Priority {
    /// A priority from a number; `None` outside 0.0–1.0 or for NaN.
    pub fn from_f64(v: f64) -> Option<Priority> {
        if !(0.0..=1.0).contains(&v) {
            return None;
        }
        NonZeroU16::new((v * 1000.0).round() as u16 + 1).map(Priority)
    }

    /// The value in thousandths.
    fn thousandths(self) -> u16 {
        self.0.get() - 1
    }

    /// The value as a number.
    pub fn as_f64(self) -> f64 {
        f64::from(self.thousandths()) / 1000.0
    }
}

impl FromStr for Priority {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse::<f64>()
            .ok()
            .and_then(Priority::from_f64)
            .ok_or_else(|| format!("priority '{s}' is not a number from 0.0 to 1.0"))
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, frac) = (self.thousandths() / 1000, self.thousandths() % 1000);
        if frac == 0 {
            return write!(f, "{whole}.0");
        }
        let digits = format!("{frac:03}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_orders_by_value_and_takes_two_bytes_optional() {
        let p = |s: &str| s.parse::<Priority>().unwrap();
        assert!(p("0") < p("0.001") && p("0.5") < p("1.0"));
        assert_eq!(p("0.25").as_f64(), 0.25);
        assert_eq!(std::mem::size_of::<Option<Priority>>(), 2);
    }

    #[test]
    fn priority_prints_shortest_decimal() {
        let show = |s: &str| s.parse::<Priority>().map(|p| p.to_string());
        assert_eq!(show("0.5").unwrap(), "0.5");
        assert_eq!(show("1").unwrap(), "1.0");
        assert_eq!(show("0").unwrap(), "0.0");
        assert_eq!(show("0.85").unwrap(), "0.85");
        assert_eq!(show("0.125").unwrap(), "0.125");
        assert!(show("1.5").is_err());
        assert!(show("-0.1").is_err());
        assert!(show("NaN").is_err());
        assert!(show("high").is_err());
    }

    #[test]
    fn changefreq_round_trips_and_rejects_others() {
        for s in [
            "always", "hourly", "daily", "weekly", "monthly", "yearly", "never",
        ] {
            assert_eq!(s.parse::<ChangeFreq>().unwrap().as_str(), s);
        }
        assert_eq!("Weekly".parse::<ChangeFreq>().unwrap(), ChangeFreq::Weekly);
        assert!("fortnightly".parse::<ChangeFreq>().is_err());
    }
}
