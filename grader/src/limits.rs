//! Command-line spellings of limits: durations (`1`, `1.5s`, `500ms`) and sizes (`256`,
//! `256M`, `256MiB`, `1G`), strictly: zero, negative or malformed values are refused with
//! what was expected.

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
