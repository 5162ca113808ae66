//! Command-line spellings of limits and counts: durations (`1`, `1.5s`, `500ms`), sizes
//! (`256`, `256M`, `256MiB`, `1G`) and whole numbers (`--jobs`, `--seed`, `--count`, ...),
//! strictly: zero, negative or malformed values are refused with what was expected. Each
//! flag takes values that start with `-` (`allow_hyphen_values`), so that `--jobs -1` is
//! told what a job count is, rather than clap's "unexpected argument '-1'".

use std::time::Duration;

/// Parses a positive duration; a bare number is seconds.
pub(crate) fn duration(text: &str) -> Result<Duration, String> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("expected a duration such as `1`, `1.5s` or `500ms`, got `{text}`"))?;
    let seconds = value * scale;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(format!("expected a positive duration, got `{text}`"));
    }
    if seconds > 3600.0 {
        return Err(format!("expected at most an hour, got `{text}`"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Parses a positive size in bytes; a bare number is MiB.
pub(crate) fn size(text: &str) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    let split = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(lower.len());
    let (number, unit) = lower.split_at(split);
    let scale: u64 = match unit.trim() {
        "" | "m" | "mb" | "mib" => 1 << 20,
        "k" | "kb" | "kib" => 1 << 10,
        "g" | "gb" | "gib" => 1 << 30,
        "b" => 1,
        _ => {
            return Err(format!(
                "expected a size such as `256`, `256MiB` or `1G`, got `{text}`"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("expected a size such as `256`, `256MiB` or `1G`, got `{text}`"))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(format!("expected a positive size, got `{text}`"));
    }
    if bytes > (1u64 << 40) as f64 {
        return Err(format!("expected at most 1 TiB, got `{text}`"));
    }
    Ok(bytes as u64)
}

/// Parses a whole number from `min` to `max`: the one rule of every whole-number flag.
pub(crate) fn whole<T: TryFrom<u64>>(text: &str, min: u64, max: u64) -> Result<T, String> {
    let expected = || format!("expected a whole number from {min} to {max}, got `{text}`");
    // Digits only: no sign, no space, no fraction; `u64::from_str` takes a `+`.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(expected());
    }
    let value: u64 = text.parse().map_err(|_| expected())?;
    if !(min..=max).contains(&value) {
        return Err(expected());
    }
    T::try_from(value).map_err(|_| expected())
}

/// `--jobs`: 1 to 256.
pub(crate) fn jobs(text: &str) -> Result<u32, String> {
    whole(text, 1, 256)
}

/// `--max-processes`: 1 to 100,000.
pub(crate) fn processes(text: &str) -> Result<u64, String> {
    whole(text, 1, 100_000)
}

/// `--seed`: any unsigned 64-bit number.
pub(crate) fn seed(text: &str) -> Result<u64, String> {
    whole(text, 0, u64::MAX)
}

/// `gen --count`: 1 to 100,000.
pub(crate) fn count(text: &str) -> Result<u32, String> {
    whole(text, 1, 100_000)
}

/// `fuzz --runs`: 1 or more.
pub(crate) fn runs(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX)
}

/// `fuzz --shrink-steps`: 0 (do not shrink) or more.
pub(crate) fn shrink_steps(text: &str) -> Result<u32, String> {
    whole(text, 0, u64::from(u32::MAX))
}

/// `batch --stop-after-wall-tles`: 0 (never stop) or more.
pub(crate) fn wall_tles(text: &str) -> Result<usize, String> {
    whole(text, 0, u64::from(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("1"), Ok(Duration::from_secs(1)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        for bad in ["-3s", "0", "0ms", "abc", "", "1h", "nan"] {
            assert!(duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(jobs("1"), Ok(1));
        assert_eq!(jobs("256"), Ok(256));
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(shrink_steps("0"), Ok(0));
        assert_eq!(
            jobs("-1"),
            Err("expected a whole number from 1 to 256, got `-1`".to_owned())
        );
        for bad in [
            "0",
            "257",
            "+3",
            "1.5",
            " 2",
            "",
            "x",
            "99999999999999999999999",
        ] {
            assert!(jobs(bad).is_err(), "{bad}");
        }
        assert!(seed("-3").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(size("256"), Ok(256 << 20));
        assert_eq!(size("256MiB"), Ok(256 << 20));
        assert_eq!(size("1G"), Ok(1 << 30));
        assert_eq!(size("512k"), Ok(512 << 10));
        for bad in ["0", "0 MiB", "-1", "12 parsecs", "", "MiB"] {
            assert!(size(bad).is_err(), "{bad}");
        }
    }
}
