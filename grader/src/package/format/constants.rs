//! A package's `constants` (`problem.yaml`, 2023-07 and 2025-09): named values that the
//! format replaces, as `{{name}}` or `{{name.variant}}`, in the package's validators, its
//! example submissions and its `test_group.yaml` files (not in the test data, nor in
//! `problem.yaml` itself). A sequence that names no constant is left as it is written.

use serde_yaml_ng::Value;

/// The sequences a package's constants replace, each with its text.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Constants {
    /// `({{name}}, value)`, `({{name.value}}, value)` and `({{name.variant}}, text)`.
    pairs: Vec<(String, String)>,
}

impl Constants {
    /// The constants of `problem.yaml`'s `constants` value, or why it is not what the
    /// format allows (a name outside `[a-zA-Z_][a-zA-Z0-9_]*`, a value that is no number
    /// or string, a map without `value`).
    pub(crate) fn read(value: &Value) -> Result<Constants, String> {
        let Some(map) = value.as_mapping() else {
            return Err("constants: not a map of names to values".to_owned());
        };
        let mut pairs = Vec::new();
        for (name, value) in map {
            let name = name
                .as_str()
                .filter(|n| is_name(n))
                .ok_or_else(|| format!("constants: `{}` is not a name", text_of(name)))?;
            match value {
                Value::Mapping(variants) => {
                    let main = variants
                        .get("value")
                        .ok_or_else(|| format!("constants: `{name}` is a map without `value`"))?;
                    let main = scalar(main)
                        .ok_or_else(|| format!("constants: `{name}.value` is no scalar"))?;
                    pairs.push((format!("{{{{{name}}}}}"), main));
                    for (variant, text) in variants {
                        let variant = variant.as_str().filter(|v| is_name(v)).ok_or_else(|| {
                            format!("constants: `{name}`: `{}` is not a name", text_of(variant))
                        })?;
                        let text = scalar(text)
                            .ok_or_else(|| format!("constants: `{name}.{variant}` is no scalar"))?;
                        pairs.push((format!("{{{{{name}.{variant}}}}}"), text));
                    }
                }
                other => {
                    let text = scalar(other).ok_or_else(|| {
                        format!("constants: `{name}` is neither a number, a string nor a map")
                    })?;
                    pairs.push((format!("{{{{{name}.value}}}}"), text.clone()));
                    pairs.push((format!("{{{{{name}}}}}"), text));
                }
            }
        }
        Ok(Constants { pairs })
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The sequences and their texts, as a build carries them
    /// (`submission::Options::replaced`).
    pub(crate) fn pairs(&self) -> Vec<(String, String)> {
        self.pairs.clone()
    }

    /// The constants of `pairs` (what [`Constants::pairs`] gave).
    pub(crate) fn of(pairs: &[(String, String)]) -> Constants {
        Constants {
            pairs: pairs.to_vec(),
        }
    }

    /// `bytes` with every constant's sequence replaced, or `None` when none is in it.
    pub(crate) fn apply(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(bytes.len());
        let mut rest = bytes;
        let mut changed = false;
        while let Some(at) = find(rest, b"{{") {
            out.extend_from_slice(&rest[..at]);
            rest = &rest[at..];
            let found = self
                .pairs
                .iter()
                .find(|(sequence, _)| rest.starts_with(sequence.as_bytes()));
            if let Some((sequence, text)) = found {
                out.extend_from_slice(text.as_bytes());
                rest = &rest[sequence.len()..];
                changed = true;
            } else {
                out.extend_from_slice(b"{");
                rest = &rest[1..];
            }
        }
        out.extend_from_slice(rest);
        changed.then_some(out)
    }

    /// `text` with every constant's sequence replaced.
    pub(crate) fn apply_text(&self, text: &str) -> String {
        match self.apply(text.as_bytes()) {
            Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            None => text.to_owned(),
        }
    }
}

/// Whether `name` is a constant's or a variant's name as the format spells one.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A number's or a string's text; `None` for anything else.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A YAML key as a message shows it.
fn text_of(value: &Value) -> String {
    serde_yaml_ng::to_string(value)
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// Where `needle` first is in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Constants, String> {
        Constants::read(&serde_yaml_ng::from_str(text).unwrap())
    }

    #[test]
    fn sequences_are_replaced_by_their_values_and_others_left_as_written() {
        let constants =
            read("max_n: 1000\nname: Alice\nk:\n  value: 5000000\n  tex: 5{,}000{,}000\n").unwrap();
        let applied = constants
            .apply(b"n <= {{max_n}}; {{name}} {{k}} {{k.value}} {{k.tex}} {{other}} {{ {x}}")
            .unwrap();
        assert_eq!(
            String::from_utf8(applied).unwrap(),
            "n <= 1000; Alice 5000000 5000000 5{,}000{,}000 {{other}} {{ {x}}"
        );
        assert_eq!(constants.apply(b"no sequence {{here}}"), None);
        assert_eq!(
            constants.apply_text("[--max, \"{{max_n}}\"]"),
            "[--max, \"1000\"]"
        );
        assert!(read("{}").unwrap().is_empty());
    }

    #[test]
    fn what_the_format_does_not_allow_is_said() {
        for (text, said) in [
            ("1x: 3\n", "`1x` is not a name"),
            ("k: [1, 2]\n", "`k` is neither a number, a string nor a map"),
            ("k:\n  tex: 5\n", "`k` is a map without `value`"),
            ("- 3\n", "not a map of names to values"),
        ] {
            let why = read(text).unwrap_err();
            assert!(why.contains(said), "{text}: {why}");
        }
    }
}
