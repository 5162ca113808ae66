//! The class a Java source runs as (the `{class}` placeholder): its public top-level class,
//! whatever the file is called. Contestants name their files `sol.java` or `1753.java`
//! while the class inside is `Main`; javac insists that a public class lives in a file of
//! its own name, so the grader reads the name from the source and names the copy it
//! compiles after it.
//!
//! A source without a public top-level class runs as its first top-level type that
//! declares a `main` method, else its first top-level type; in a package, by its full
//! name (`contest.Main`), its source still named for the class alone (`Main.java`). Comments, string and character
//! literals and text blocks are skipped, so a `class` in a comment or a string is no
//! declaration.

/// The words that declare a type.
const TYPE_KEYWORDS: [&str; 4] = ["class", "interface", "enum", "record"];

/// The class `source` runs as, by its full name (`Main`, or `contest.Main` in a package
/// `contest`); `None` when it declares no top-level type.
pub(crate) fn main_class(source: &str) -> Option<String> {
    let tokens = tokens(source);
    let types = top_level_types(&tokens);
    let class = types
        .iter()
        .find(|t| t.public)
        .or_else(|| types.iter().find(|t| t.has_main))
        .or_else(|| types.first())?;
    Some(match package(&tokens) {
        Some(package) => format!("{package}.{}", class.name),
        None => class.name.to_owned(),
    })
}

/// Whether `source` declares a top-level type with a `main` method (of a folder's Java
/// sources, the ones that may be its main file).
pub(crate) fn declares_main(source: &str) -> bool {
    top_level_types(&tokens(source)).iter().any(|t| t.has_main)
}

/// The class's own name, without its package: the name of its source file.
pub(crate) fn simple_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

/// The package the source declares (`package a.b;`), when it declares one: an IDE's
/// project often leaves one in.
fn package(tokens: &[Token<'_>]) -> Option<String> {
    let at = tokens
        .iter()
        .position(|t| t.depth == 0 && t.text == "package")?;
    let name: String = tokens[at + 1..]
        .iter()
        .take_while(|t| t.text != ";")
        .map(|t| t.text)
        .collect();
    let valid = !name.is_empty() && name.split('.').all(is_identifier);
    valid.then_some(name)
}

/// One top-level type declaration.
#[derive(Debug)]
struct Declared<'a> {
    name: &'a str,
    public: bool,
    has_main: bool,
}

/// A word of the source with the brace depth it is at; braces are tokens of their own.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    text: &'a str,
    depth: usize,
}

/// The top-level types of `tokens`, in source order.
fn top_level_types<'a>(tokens: &[Token<'a>]) -> Vec<Declared<'a>> {
    let mut types: Vec<Declared<'a>> = Vec::new();
    let mut public = false;
    for (i, token) in tokens.iter().enumerate() {
        if token.depth == 0 {
            match token.text {
                "public" => public = true,
                // A statement or a body ends what the modifiers seen so far applied to.
                ";" | "{" | "}" => public = false,
                word if TYPE_KEYWORDS.contains(&word) => {
                    if let Some(name) = tokens.get(i + 1).filter(|t| is_identifier(t.text)) {
                        types.push(Declared {
                            name: name.text,
                            public,
                            has_main: false,
                        });
                    }
                    public = false;
                }
                _ => {}
            }
        } else if token.depth == 1
            && token.text == "main"
            && tokens.get(i + 1).is_some_and(|t| t.text == "(")
            && let Some(last) = types.last_mut()
        {
            last.has_main = true;
        }
    }
    types
}

fn is_identifier(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The words and punctuation of `source` outside comments and literals, with their brace
/// depth (a brace itself is at the depth outside it).
fn tokens(source: &str) -> Vec<Token<'_>> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &source[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if let Some(comment) = rest.strip_prefix("/*") {
            i += comment.find("*/").map_or(rest.len(), |end| end + 4);
        } else if let Some(block) = rest.strip_prefix("\"\"\"") {
            i += block.find("\"\"\"").map_or(rest.len(), |end| end + 6);
        } else if c == '"' || c == '\'' {
            i += literal_length(rest, c);
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let len = rest
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
                .unwrap_or(rest.len());
            tokens.push(Token {
                text: &rest[..len],
                depth,
            });
            i += len;
        } else {
            let len = c.len_utf8();
            if c == '}' {
                depth = depth.saturating_sub(1);
            }
            if !c.is_whitespace() {
                tokens.push(Token {
                    text: &rest[..len],
                    depth,
                });
            }
            if c == '{' {
                depth += 1;
            }
            i += len;
        }
    }
    tokens
}

/// The length of the string or character literal `rest` starts with (quoted by `quote`),
/// escapes included; an unterminated one ends at the line's end.
fn literal_length(rest: &str, quote: char) -> usize {
    let mut escaped = false;
    for (at, c) in rest.char_indices().skip(1) {
        match c {
            '\n' => return at,
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if c == quote => return at + 1,
            _ => {}
        }
    }
    rest.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_class_whatever_comes_before_it() {
        let source = r#"
            import java.util.*;
            // public class Commented {}
            /* public class Blocked { } */
            class Helper { static void main(String[] a) {} }
            @SuppressWarnings("unchecked")
            public final class FlipGame {
                public static class Inner {}
                static String s = "public class Quoted {";
                static char c = '{';
                static String block = """
                    public class InABlock {
                    """;
                public static void main(String[] args) {}
            }
        "#;
        assert_eq!(main_class(source).as_deref(), Some("FlipGame"));
    }

    #[test]
    fn without_a_public_class_the_one_with_main_then_the_first() {
        assert_eq!(
            main_class("class A {}\nclass B { public static void main(String[] x) {} }").as_deref(),
            Some("B")
        );
        assert_eq!(
            main_class("interface I {}\nclass C {}").as_deref(),
            Some("I")
        );
        assert_eq!(
            main_class("public record Point(int x, int y) {}").as_deref(),
            Some("Point")
        );
        assert_eq!(main_class("int x = 3;"), None);
        assert_eq!(main_class(""), None);
        assert_eq!(main_class("/* never closed public class X"), None);
        assert_eq!(
            main_class("String s = \"never closed\npublic class Y {}").as_deref(),
            Some("Y")
        );
    }

    #[test]
    fn a_package_makes_the_full_name() {
        let source = "package contest.flip;\nimport java.util.*;\npublic class Main {}";
        let class = main_class(source).unwrap();
        assert_eq!(class, "contest.flip.Main");
        assert_eq!(simple_name(&class), "Main");
        assert_eq!(simple_name("Main"), "Main");
        // `package` as a word in a string or a comment is no declaration.
        assert_eq!(
            main_class("// package x;\nclass A { String s = \"package y;\"; }").as_deref(),
            Some("A")
        );
    }

    #[test]
    fn a_public_modifier_applies_only_to_its_own_declaration() {
        // `public` on a field of an unbraced statement does not leak to the next type.
        assert_eq!(
            main_class("class A { public int x; }\nclass B {}\npublic class C {}").as_deref(),
            Some("C")
        );
        assert_eq!(
            main_class(
                "public enum Colour { B, W }\nclass Main { public static void main(String[] a) {} }"
            )
            .as_deref(),
            Some("Colour")
        );
        assert_eq!(
            main_class("class Ünicode$1 { }").as_deref(),
            Some("Ünicode$1")
        );
    }
}
