//! Calendar arithmetic on unix seconds, without a clock: deadlines are shown in UTC as
//! "Tue 18:00 UTC" (subjects) or "Tue 14 Jan 2025 18:00 UTC" (bodies).

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 3 (Outbound): subjects carry "deadline Tue 18:00 UTC"; checked against
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
