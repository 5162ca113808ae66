//! The limits every run of a result had, and its sandbox tier, as one record: written in
//! every report, compared by `grader merge`, and hashed into the journal's keys, so a
//! result is reused or merged only under the same limits in the same tier.

use std::time::Duration;

use sandbox::Limits;
use sandbox::tiers::Tier;
use serde::{Deserialize, Serialize};

/// Milliseconds, rounded to the microsecond: the one rounding of every figure a report
/// gives in ms.
pub(crate) fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// The limits of a result's runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LimitsRecord {
    /// CPU time, ms.
    pub(crate) cpu_ms: f64,
    /// Wall time, ms.
    pub(crate) wall_ms: f64,
    /// Memory, KiB.
    pub(crate) memory_kib: u64,
    /// Output, KiB.
    pub(crate) output_kib: u64,
    /// Processes and threads alive at once. (Absent from gradebooks written before it
    /// was recorded: such a gradebook merges only with another of its kind.)
    #[serde(default)]
    pub(crate) processes: Option<u64>,
    /// The isolation tier. (Absent as `processes` is.)
    #[serde(default)]
    pub(crate) sandbox: Option<Tier>,
}

impl LimitsRecord {
    /// The record of `limits`.
    pub(crate) fn of(limits: &Limits) -> LimitsRecord {
        LimitsRecord {
            cpu_ms: ms(limits.cpu),
            wall_ms: ms(limits.wall),
            memory_kib: limits.memory / 1024,
            output_kib: limits.output / 1024,
            processes: Some(limits.processes),
            sandbox: Some(limits.sandbox),
        }
    }

    /// CPU time.
    pub(crate) fn cpu(&self) -> Duration {
        Duration::from_secs_f64(self.cpu_ms / 1e3)
    }

    /// Wall time.
    pub(crate) fn wall(&self) -> Duration {
        Duration::from_secs_f64(self.wall_ms / 1e3)
    }

    /// Memory, bytes.
    pub(crate) fn memory(&self) -> u64 {
        self.memory_kib * 1024
    }

    /// Output, bytes.
    pub(crate) fn output(&self) -> u64 {
        self.output_kib * 1024
    }

    /// The tier's name (`?` for a gradebook written before it was recorded).
    pub(crate) fn tier(&self) -> String {
        self.sandbox
            .map_or_else(|| "?".to_owned(), |t| t.to_string())
    }

    /// A hash of the serialised record: the journal's part of a run's key. Two records
    /// hash alike exactly when they serialise alike, field by field.
    pub(crate) fn key(&self) -> String {
        let text = serde_json::to_vec(self).expect("limit records serialise");
        let mut key = crate::keys::Key::new("limits");
        key.part(text);
        key.hex()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_millis(2500),
        memory: 256 << 20,
        output: 64 << 20,
        processes: 64,
        sandbox: Tier::Basic,
    };

    #[test]
    fn the_record_round_trips_and_its_key_changes_with_every_field() {
        let record = LimitsRecord::of(&LIMITS);
        let text = serde_json::to_string(&record).unwrap();
        assert_eq!(
            text,
            r#"{"cpu_ms":1000.0,"wall_ms":2500.0,"memory_kib":262144,"output_kib":65536,"processes":64,"sandbox":"basic"}"#
        );
        assert_eq!(serde_json::from_str::<LimitsRecord>(&text).unwrap(), record);
        let changed = [
            Limits {
                cpu: Duration::from_millis(1001),
                ..LIMITS
            },
            Limits {
                wall: Duration::from_secs(3),
                ..LIMITS
            },
            Limits {
                memory: 128 << 20,
                ..LIMITS
            },
            Limits {
                output: 1 << 20,
                ..LIMITS
            },
            Limits {
                processes: 8,
                ..LIMITS
            },
            Limits {
                sandbox: Tier::Strict,
                ..LIMITS
            },
        ];
        for other in changed {
            assert_ne!(LimitsRecord::of(&other).key(), record.key(), "{other:?}");
        }
        assert_eq!(LimitsRecord::of(&LIMITS).key(), record.key());
    }

    #[test]
    fn milliseconds_keep_microseconds() {
        assert_eq!(ms(Duration::from_nanos(1_234_567)).to_string(), "1.235");
    }
}
