//! `--lang-for PATTERN=NAME`: a language or profile for the students a pattern matches, so
//! that one student's POJ-era code is compiled as it was judged (`--lang-for 'alice=poj'`)
//! without forcing the profile on the whole class. Everyone else goes by extension.
//!
//! A pattern is a glob on the student's name (`section-a/alice`) or on its last part
//! (`alice`), so `alice`, `alice*` and `section-a/*` all mean what a teacher would expect;
//! `*` does not cross a `/`. When several rules match a student, the last one given wins
//! (`--lang-for '*=poj' --lang-for 'bob=cpp'`).

use glob::{MatchOptions, Pattern};

use super::students::Student;
use crate::cli::exit::Fault;
use crate::submission::languages::Languages;

/// One `--lang-for` rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LangFor {
    /// Which students.
    pattern: Pattern,
    /// The language or profile they are compiled as.
    language: String,
}

/// Parses `PATTERN=NAME` (clap's value parser: a fault is the call's, exit 2).
pub(crate) fn parse(value: &str) -> Result<LangFor, String> {
    let (pattern, language) = value
        .rsplit_once('=')
        .filter(|(p, l)| !p.is_empty() && !l.is_empty())
        .ok_or_else(|| format!("`{value}`: expected PATTERN=NAME, such as `alice=poj`"))?;
    let pattern = Pattern::new(pattern).map_err(|e| format!("`{value}`: {e}"))?;
    Ok(LangFor {
        pattern,
        language: language.to_owned(),
    })
}

/// The rules of one batch, checked against the language table.
#[derive(Debug, Clone, Default)]
pub(crate) struct LangChoices {
    rules: Vec<LangFor>,
}

impl LangChoices {
    /// The rules, each naming a language or profile of `languages`.
    pub(crate) fn new(rules: Vec<LangFor>, languages: &Languages) -> Result<LangChoices, Fault> {
        for rule in &rules {
            if !languages.names().contains(&rule.language.as_str()) {
                return Err(Fault::call(format!(
                    "--lang-for '{}={}': unknown language (known: {})",
                    rule.pattern,
                    rule.language,
                    languages.names().join(", ")
                )));
            }
        }
        Ok(LangChoices { rules })
    }

    /// The language chosen for the student named `name`, if a rule matches it.
    pub(crate) fn of(&self, name: &str) -> Option<&str> {
        self.rules
            .iter()
            .rev()
            .find(|rule| matches(&rule.pattern, name))
            .map(|rule| rule.language.as_str())
    }

    /// What the teacher should hear about: each pattern that matches no student of
    /// `students` (a typo would otherwise grade that student by extension, silently).
    pub(crate) fn warnings(&self, students: &[Student]) -> Vec<String> {
        self.rules
            .iter()
            .filter(|rule| !students.iter().any(|s| matches(&rule.pattern, &s.name)))
            .map(|rule| {
                format!(
                    "--lang-for '{}={}' matches no student",
                    rule.pattern, rule.language
                )
            })
            .collect()
    }
}

/// Whether `pattern` matches the student's name or its last part.
fn matches(pattern: &Pattern, name: &str) -> bool {
    let options = MatchOptions {
        require_literal_separator: true,
        ..MatchOptions::new()
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    pattern.matches_with(name, options) || pattern.matches_with(last, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(rules: &[&str]) -> LangChoices {
        let languages = Languages::load(None).unwrap();
        LangChoices::new(
            rules.iter().map(|r| parse(r).unwrap()).collect(),
            &languages,
        )
        .unwrap()
    }

    #[test]
    fn a_pattern_matches_the_name_or_its_last_part_and_the_last_rule_wins() {
        let c = choices(&["alice*=poj", "section-a/*=cpp98", "*/bob=c99"]);
        assert_eq!(c.of("alice"), Some("poj"));
        assert_eq!(c.of("section-b/alice-2"), Some("poj"));
        assert_eq!(c.of("section-a/alice"), Some("cpp98"));
        assert_eq!(c.of("section-a/deep/carol"), None);
        assert_eq!(c.of("x/bob"), Some("c99"));
        assert_eq!(c.of("bob"), None);
        assert_eq!(c.of("carol"), None);
        // The rule a CE's advice gives for a name with glob characters: that student only.
        let c = choices(&["o'hara[[]2[]]=poj"]);
        assert_eq!((c.of("o'hara[2]"), c.of("o'hara2")), (Some("poj"), None));
        let c = choices(&["*=poj", "bob=cpp"]);
        assert_eq!((c.of("alice"), c.of("bob")), (Some("poj"), Some("cpp")));
    }

    #[test]
    fn malformed_rules_and_unknown_languages_are_refused() {
        for bad in ["alice", "=poj", "alice=", "[a=poj"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let languages = Languages::load(None).unwrap();
        let refused = LangChoices::new(vec![parse("alice=intercal").unwrap()], &languages);
        let refused = refused.unwrap_err();
        assert_eq!(refused.cause(), crate::cli::exit::Cause::Call);
        assert!(
            refused
                .message()
                .starts_with("--lang-for 'alice=intercal': unknown language (known: c, "),
            "{refused}"
        );
    }

    #[test]
    fn a_rule_that_matches_no_student_is_a_warning() {
        let c = choices(&["alice=poj", "zed=poj"]);
        let students = [Student {
            name: "sec/alice".to_owned(),
            entry: "sec/alice.cpp".into(),
            not_graded: None,
        }];
        assert_eq!(
            c.warnings(&students),
            ["--lang-for 'zed=poj' matches no student"]
        );
    }
}
