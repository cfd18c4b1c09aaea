//! The date as PDN writes it in the `Date` tag, for every program that writes game records
//! (`damka play`, the match tool).

/// Today's date (UTC) as PDN writes it, `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = crate::core::host::since_epoch().as_secs();
    date_of_day((secs / 86_400) as i64)
}

/// The PDN date (`YYYY.MM.DD`) of a day counted from 1970-01-01.
pub fn date_of_day(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_of_day(0), "1970.01.01");
        assert_eq!(date_of_day(19_782), "2024.02.29");
        assert_eq!(date_of_day(11_016), "2000.02.29");
        assert_eq!(date_of_day(-1), "1969.12.31");
        let t = today();
        assert_eq!(t.len(), 10);
        assert!(t.starts_with("20"), "{t}");
    }
}
