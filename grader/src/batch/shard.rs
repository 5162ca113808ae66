//! `--shard K/N`: a deterministic split of the students over N machines. A student's shard
//! depends only on its own name (a hash), so adding or removing other students never moves
//! it; every shard lists the same skipped files, which merging keeps once.

use sha2::{Digest, Sha256};

/// Shard `k` (from 1) of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    k: u64,
    n: u64,
}

impl Shard {
    /// As the gradebook records it.
    pub(crate) fn record(self) -> crate::results::gradebook::ShardOf {
        crate::results::gradebook::ShardOf {
            index: self.k,
            of: self.n,
        }
    }

    /// Whether the student `name` belongs to this shard.
    pub(crate) fn holds(self, name: &str) -> bool {
        let digest = Sha256::digest(name.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first) % self.n == self.k - 1
    }
}

/// Parses `K/N` with `1 <= K <= N`.
pub(crate) fn parse(text: &str) -> Result<Shard, String> {
    let expected = || format!("expected K/N with 1 <= K <= N, such as `1/4`, got `{text}`");
    let (k, n) = text.split_once('/').ok_or_else(expected)?;
    let k: u64 = k.trim().parse().map_err(|_| expected())?;
    let n: u64 = n.trim().parse().map_err(|_| expected())?;
    if k == 0 || n == 0 || k > n {
        return Err(expected());
    }
    Ok(Shard { k, n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_students_and_refuse_nonsense() {
        let names: Vec<String> = (0..300).map(|i| format!("student-{i}")).collect();
        let shards: Vec<Shard> = (1..=3).map(|k| parse(&format!("{k}/3")).unwrap()).collect();
        let mut sizes = [0; 3];
        for name in &names {
            let owners: Vec<usize> = (0..3).filter(|&i| shards[i].holds(name)).collect();
            assert_eq!(owners.len(), 1, "{name}");
            sizes[owners[0]] += 1;
        }
        assert!(sizes.iter().all(|&n| n > 70), "{sizes:?}");
        for bad in ["3/2", "0/2", "1/0", "a/b", "2", "-1/3"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
