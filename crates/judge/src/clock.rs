//! Calendar arithmetic on unix seconds, without a clock: deadlines are shown in UTC as
//! "Tue 18:00 UTC" (subjects) or "Tue 14 Jan 2025 18:00 UTC" (bodies), and in a reader's
//! time zone (`SET TIMEZONE Europe/Paris`, the IANA database compiled in by chrono-tz)
//! with UTC beside it: "Tue 14 Jan 2025 19:00 CET (18:00 UTC)".

use castellan_engine::Lang;

const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// (year, month 1..=12, day 1..=31) of a day count since 1970-01-01
/// (Howard Hinnant's civil_from_days).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

struct Parts {
    weekday: &'static str,
    year: i64,
    month: &'static str,
    day: u32,
    hour: i64,
    minute: i64,
}

fn parts(t: i64) -> Parts {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // 1970-01-01 was a Thursday (index 3 from Monday).
    let weekday = DAYS[(days + 3).rem_euclid(7) as usize];
    let (year, m, day) = civil_from_days(days);
    Parts {
        weekday,
        year,
        month: MONTHS[(m - 1) as usize],
        day,
        hour: secs / 3600,
        minute: (secs % 3600) / 60,
    }
}

/// "Tue 18:00 UTC".
pub fn format_short(t: i64) -> String {
    let p = parts(t);
    format!("{} {:02}:{:02} UTC", p.weekday, p.hour, p.minute)
}

/// "Tue 14 Jan 2025 18:00 UTC".
pub fn format_long(t: i64) -> String {
    let p = parts(t);
    format!(
        "{} {} {} {} {:02}:{:02} UTC",
        p.weekday, p.day, p.month, p.year, p.hour, p.minute
    )
}

const JOURS: [&str; 7] = [
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
];
const MOIS: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

fn french(t: i64) -> (&'static str, u32, &'static str, i64, i64, i64) {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let (year, m, day) = civil_from_days(days);
    (
        JOURS[(days + 3).rem_euclid(7) as usize],
        day,
        MOIS[(m - 1) as usize],
        year,
        secs / 3600,
        (secs % 3600) / 60,
    )
}

/// "Tue 18:00 UTC" / "mardi 18:00 UTC".
pub fn format_short_in(t: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format_short(t),
        Lang::Fr => {
            let (wd, _, _, _, h, m) = french(t);
            format!("{wd} {h:02}:{m:02} UTC")
        }
    }
}

/// "Tue 14 Jan 2025 18:00 UTC" / "mardi 14 janvier 2025 à 18:00 UTC" (1er for the first).
pub fn format_long_in(t: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format_long(t),
        Lang::Fr => {
            let (wd, d, mo, y, h, m) = french(t);
            let d = if d == 1 {
                "1er".to_string()
            } else {
                d.to_string()
            };
            format!("{wd} {d} {mo} {y} à {h:02}:{m:02} UTC")
        }
    }
}

/// An IANA time zone name ("Europe/Paris", any case), checked: its canonical spelling.
pub fn time_zone(name: &str) -> Option<String> {
    name.parse::<chrono_tz::Tz>()
        .ok()
        .or_else(|| {
            chrono_tz::TZ_VARIANTS
                .iter()
                .find(|tz| tz.name().eq_ignore_ascii_case(name))
                .copied()
        })
        .map(|tz| tz.name().to_string())
}

/// Seconds to add to UTC for `zone` at `t`, and the zone's abbreviation then ("CET").
fn offset(t: i64, zone: &str) -> Option<(i64, String)> {
    use chrono::{Offset, TimeZone};
    let tz: chrono_tz::Tz = zone.parse().ok()?;
    let utc = chrono::DateTime::from_timestamp(t, 0)?.naive_utc();
    let off = tz.offset_from_utc_datetime(&utc);
    let secs = i64::from(off.fix().local_minus_utc());
    let abbr = chrono_tz::OffsetName::abbreviation(&off)
        .map(str::to_string)
        .unwrap_or_else(|| zone.to_string());
    Some((secs, abbr))
}

/// A deadline in the reader's zone with UTC beside it ("Tue 14 Jan 2025 19:00 CET (18:00
/// UTC)"); UTC alone without a zone or for UTC itself.
pub fn format_long_zoned(t: i64, lang: Lang, zone: Option<&str>) -> String {
    let utc = format_long_in(t, lang);
    let Some((secs, abbr)) = zone.and_then(|z| offset(t, z)) else {
        return utc;
    };
    if zone == Some("UTC") {
        return utc;
    }
    let local = format_long_in(t + secs, lang);
    let local = local.trim_end_matches(" UTC");
    let p = parts(t);
    format!("{local} {abbr} ({:02}:{:02} UTC)", p.hour, p.minute)
}

/// The short form in the reader's zone ("Tue 19:00 CET"); UTC without a zone.
pub fn format_short_zoned(t: i64, lang: Lang, zone: Option<&str>) -> String {
    match zone.and_then(|z| offset(t, z)) {
        Some((secs, abbr)) if zone != Some("UTC") => {
            let local = format_short_in(t + secs, lang);
            format!("{} {abbr}", local.trim_end_matches(" UTC"))
        }
        _ => format_short_in(t, lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "The deadline, in the reader's time zone (`SET TIMEZONE Europe/Paris`)
    /// and in UTC". 2025-01-14 18:00 UTC is 19:00 in Paris (CET, winter); 2025-07-14
    /// 18:00 UTC is 20:00 (CEST, summer); New York is behind, and a date can change.
    #[test]
    fn a_deadline_in_the_readers_zone_and_in_utc() {
        let winter = 1_736_877_600;
        assert_eq!(
            format_long_zoned(winter, Lang::En, Some("Europe/Paris")),
            "Tue 14 Jan 2025 19:00 CET (18:00 UTC)"
        );
        assert_eq!(
            format_long_zoned(winter, Lang::Fr, Some("Europe/Paris")),
            "mardi 14 janvier 2025 à 19:00 CET (18:00 UTC)"
        );
        let summer = 1_752_516_000;
        assert_eq!(
            format_short_zoned(summer, Lang::En, Some("Europe/Paris")),
            "Mon 20:00 CEST"
        );
        // 2025-01-15 02:00 UTC is still the 14th in New York.
        assert_eq!(
            format_long_zoned(1_736_906_400, Lang::En, Some("America/New_York")),
            "Tue 14 Jan 2025 21:00 EST (02:00 UTC)"
        );
        assert_eq!(
            format_long_zoned(winter, Lang::En, None),
            "Tue 14 Jan 2025 18:00 UTC"
        );
        assert_eq!(time_zone("europe/paris").as_deref(), Some("Europe/Paris"));
        assert_eq!(time_zone("Mars/Olympus"), None);
    }

    /// Subjects carry "deadline Tue 18:00 UTC"; checked against
    /// known dates (computed independently: `date -u -d @...`).
    #[test]
    fn known_dates() {
        assert_eq!(format_long(0), "Thu 1 Jan 1970 00:00 UTC");
        // 2025-01-14 18:00:00 UTC was a Tuesday.
        assert_eq!(format_long(1_736_877_600), "Tue 14 Jan 2025 18:00 UTC");
        assert_eq!(format_short(1_736_877_600), "Tue 18:00 UTC");
        // 2024-02-29 (leap day) 23:59 UTC, a Thursday.
        assert_eq!(format_long(1_709_251_140), "Thu 29 Feb 2024 23:59 UTC");
        // 2000-03-01 00:00 UTC, a Wednesday.
        assert_eq!(format_long(951_868_800), "Wed 1 Mar 2000 00:00 UTC");
        assert_eq!(
            format_long_in(1_736_877_600, Lang::Fr),
            "mardi 14 janvier 2025 à 18:00 UTC"
        );
        assert_eq!(format_short_in(1_736_877_600, Lang::Fr), "mardi 18:00 UTC");
        assert_eq!(
            format_long_in(951_868_800, Lang::Fr),
            "mercredi 1er mars 2000 à 00:00 UTC"
        );
    }
}
