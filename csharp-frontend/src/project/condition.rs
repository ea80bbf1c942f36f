//! MSBuild conditions: `==`, `!=`, `<`, `>`, `<=`, `>=`, `and`, `or`, `!`,
//! parentheses, quoted strings with `$(...)`, `Exists('path')`,
//! `HasTrailingSlash('path')`. Comparisons are case-insensitive, as in MSBuild.

use std::sync::Arc;

use super::expand::{self, Issue, Scope, TOOLSET, Taint, Value};

/// The value of a condition and, if it depends on something we could not
/// evaluate, why. A condition we cannot evaluate at all is false.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub value: bool,
    pub taint: Taint,
}

pub(crate) fn evaluate(condition: &str, scope: &Scope<'_>, toolset_files: &[&str]) -> Outcome {
    if condition.trim().is_empty() {
        return Outcome {
            value: true,
            taint: None,
        };
    }
    if expand::paren_depth(condition) > expand::MAX_NESTING {
        let message = format!(
            "condition nests parentheses more than {} levels deep",
            expand::MAX_NESTING
        );
        return Outcome {
            value: false,
            taint: Some(scope.issue(message)),
        };
    }
    let parsed = Parser {
        text: condition,
        at: 0,
    }
    .parse();
    let evaluator = Evaluator {
        scope,
        toolset_files,
    };
    match parsed.and_then(|node| evaluator.eval(&node).map_err(|e| e.message.clone())) {
        Ok((value, taint)) => Outcome { value, taint },
        Err(message) => Outcome {
            value: false,
            taint: Some(scope.issue(format!(
                "condition `{}` could not be evaluated: {message}",
                condition.trim()
            ))),
        },
    }
}

#[derive(Debug)]
enum Node {
    Or(Box<Node>, Box<Node>),
    And(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Compare(Op, Operand, Operand),
    Bool(Operand),
}

#[derive(Debug)]
enum Operand {
    /// A quoted string or bare word, expanded on evaluation.
    Text(String),
    Call(Function, Box<Operand>),
}

#[derive(Copy, Clone, Debug)]
enum Function {
    Exists,
    HasTrailingSlash,
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

const ITEMS_UNSUPPORTED: &str =
    "item lists and metadata (`@(...)`, `%(...)`) are not supported in conditions";

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn parse(mut self) -> Result<Node, String> {
        let node = self.or()?;
        self.skip_ws();
        if self.at < self.text.len() {
            return Err(format!("unexpected `{}`", &self.text[self.at..]));
        }
        Ok(node)
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn keyword(&mut self, word: &str) -> bool {
        self.skip_ws();
        let rest = self.rest();
        // Compared as bytes: the text may go on with a character that the
        // word's length cuts in two (a byte order mark, found by the fuzzer).
        let matches = rest
            .as_bytes()
            .get(..word.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(word.as_bytes()))
            && !rest[word.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if matches {
            self.at += word.len();
        }
        matches
    }

    fn or(&mut self) -> Result<Node, String> {
        let mut left = self.and()?;
        while self.keyword("or") {
            left = Node::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Node, String> {
        let mut left = self.not()?;
        while self.keyword("and") {
            left = Node::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Node, String> {
        self.skip_ws();
        if self.rest().starts_with('!') && !self.rest().starts_with("!=") {
            self.at += 1;
            return Ok(Node::Not(Box::new(self.not()?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Node, String> {
        self.skip_ws();
        if self.rest().starts_with('(') {
            self.at += 1;
            let inner = self.or()?;
            self.skip_ws();
            if !self.rest().starts_with(')') {
                return Err("missing `)`".into());
            }
            self.at += 1;
            return Ok(inner);
        }
        let left = self.operand()?;
        self.skip_ws();
        let ops = [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("<", Op::Lt),
            (">", Op::Gt),
        ];
        for (token, op) in ops {
            if self.rest().starts_with(token) {
                self.at += token.len();
                let right = self.operand()?;
                return Ok(Node::Compare(op, left, right));
            }
        }
        Ok(Node::Bool(left))
    }

    fn operand(&mut self) -> Result<Operand, String> {
        self.skip_ws();
        let rest = self.rest();
        let first = rest.chars().next().ok_or("expected an operand")?;
        if first == '\'' {
            let close = rest[1..].find('\'').ok_or("unterminated string")?;
            let text = &rest[1..close + 1];
            if text.contains("@(") || text.contains("%(") {
                return Err(ITEMS_UNSUPPORTED.into());
            }
            self.at += close + 2;
            return Ok(Operand::Text(text.to_owned()));
        }
        if rest.starts_with("@(") || rest.starts_with("%(") {
            return Err(ITEMS_UNSUPPORTED.into());
        }
        if let Some(after) = rest.strip_prefix("$(") {
            let len = expand::matching_paren(after).ok_or("unbalanced `$(`")?;
            self.at += len + 3;
            return Ok(Operand::Text(rest[..len + 3].to_owned()));
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(format!("unexpected `{rest}`"));
        }
        let word = &rest[..end];
        self.at += end;
        self.skip_ws();
        if !self.rest().starts_with('(') {
            return Ok(Operand::Text(word.to_owned()));
        }
        let function = match word.to_ascii_lowercase().as_str() {
            "exists" => Function::Exists,
            "hastrailingslash" => Function::HasTrailingSlash,
            _ => return Err(format!("the function `{word}` is not supported")),
        };
        self.at += 1;
        let argument = self.operand()?;
        self.skip_ws();
        if !self.rest().starts_with(')') {
            return Err(format!("`{word}` takes one argument"));
        }
        self.at += 1;
        Ok(Operand::Call(function, Box::new(argument)))
    }
}

struct Evaluator<'a> {
    scope: &'a Scope<'a>,
    toolset_files: &'a [&'a str],
}

type Evaluated = Result<(bool, Taint), Arc<Issue>>;

impl Evaluator<'_> {
    fn eval(&self, node: &Node) -> Evaluated {
        match node {
            Node::Or(a, b) => {
                let (left, taint) = self.eval(a)?;
                if left {
                    return Ok((true, taint));
                }
                let (right, right_taint) = self.eval(b)?;
                Ok((right, taint.or(right_taint)))
            }
            Node::And(a, b) => {
                let (left, taint) = self.eval(a)?;
                if !left {
                    return Ok((false, taint));
                }
                let (right, right_taint) = self.eval(b)?;
                Ok((right, taint.or(right_taint)))
            }
            Node::Not(inner) => self.eval(inner).map(|(v, t)| (!v, t)),
            Node::Bool(operand) => {
                let value = self.operand(operand);
                match parse_bool(&value.text) {
                    Some(b) => Ok((b, value.taint)),
                    None => Err(value.taint.unwrap_or_else(|| {
                        self.scope
                            .issue(format!("`{}` is not a boolean", value.text))
                    })),
                }
            }
            Node::Compare(op, a, b) => {
                let (a, b) = (self.operand(a), self.operand(b));
                let taint = a.taint.clone().or(b.taint.clone());
                match compare(*op, a.text.trim(), b.text.trim()) {
                    Some(result) => Ok((result, taint)),
                    None => Err(taint.unwrap_or_else(|| {
                        self.scope.issue(format!(
                            "cannot compare `{}` and `{}` as numbers or versions",
                            a.text, b.text
                        ))
                    })),
                }
            }
        }
    }

    fn operand(&self, operand: &Operand) -> Value {
        match operand {
            Operand::Text(text) => self.scope.expand(text),
            Operand::Call(function, argument) => {
                let argument = self.operand(argument);
                let path = argument.text.trim();
                let result = match function {
                    Function::HasTrailingSlash => path.ends_with(['/', '\\']),
                    Function::Exists => self.exists(path),
                };
                Value {
                    text: expand::bool_text(result),
                    taint: argument.taint,
                }
            }
        }
    }

    fn exists(&self, path: &str) -> bool {
        if path.is_empty() || path.contains(['*', '?']) {
            return false;
        }
        if let Some(rest) = path.strip_prefix(TOOLSET) {
            let name = rest.rsplit(['/', '\\']).next().unwrap_or("");
            return self
                .toolset_files
                .iter()
                .any(|f| f.eq_ignore_ascii_case(name));
        }
        self.scope.resolve(path).exists()
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "!false" | "!off" | "!no" => Some(true),
        "false" | "off" | "no" | "!true" | "!on" | "!yes" => Some(false),
        _ => None,
    }
}

/// `==` and `!=` compare as numbers when both sides are numbers, else as
/// case-insensitive strings; ordering compares numbers, then versions.
fn compare(op: Op, a: &str, b: &str) -> Option<bool> {
    if matches!(op, Op::Eq | Op::Ne) {
        let equal = match (expand::parse_number(a), expand::parse_number(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a.to_lowercase() == b.to_lowercase(),
        };
        return Some(equal == (op == Op::Eq));
    }
    let ordering = match (expand::parse_number(a), expand::parse_number(b)) {
        (Some(x), Some(y)) => x.partial_cmp(&y)?,
        _ => expand::compare_versions(&expand::parse_version(a)?, &expand::parse_version(b)?),
    };
    Some(match op {
        Op::Lt => ordering.is_lt(),
        Op::Gt => ordering.is_gt(),
        Op::Le => ordering.is_le(),
        _ => ordering.is_ge(),
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::expand::{Loc, Props};
    use super::super::xml::Pos;
    use super::*;

    fn eval(props: &[(&str, &str)], condition: &str) -> Outcome {
        let mut table = Props::default();
        for (name, value) in props {
            table.set(name, Value::known(*value), None);
        }
        let loc = Loc {
            file: Arc::from(Path::new("/p/x.csproj")),
            pos: Pos::default(),
        };
        let scope = Scope {
            props: &table,
            listings: None,
            dir: Path::new("/nonexistent-dir"),
            loc: &loc,
        };
        evaluate(condition, &scope, &["Microsoft.Common.props"])
    }

    #[test]
    fn comparisons_and_logic() {
        let p = [("Configuration", "Debug"), ("TF", "net8.0"), ("Empty", "")];
        assert!(eval(&p, " '$(Configuration)' == 'debug' ").value);
        assert!(eval(&p, "'$(Configuration)|$(Platform)' == 'Debug|'").value);
        assert!(
            eval(
                &p,
                "'$(Empty)' == '' and ('$(TF)' == 'net462' or '$(TF)' == 'net8.0')"
            )
            .value
        );
        assert!(!eval(&p, "!('$(TF)' != 'net8.0') and false").value);
        assert!(eval(&p, "$(TF.StartsWith('net8')) Or $(TF.StartsWith('net9'))").value);
        assert!(eval(&p, "'8.0' >= '5.0' and '4.6.2' < '4.7'").value);
        assert!(eval(&p, "HasTrailingSlash('a/') and !Exists('nope.props')").value);
        assert!(
            !eval(
                &p,
                "Exists('$(MSBuildExtensionsPath)/Microsoft.Common.props')"
            )
            .value
        );
    }

    #[test]
    fn short_circuit_avoids_unsupported_parts() {
        let outcome = eval(
            &[],
            "'$(BuildingInsideVisualStudio)' == 'true' And $([MSBuild]::IsOSPlatform('Windows'))",
        );
        assert!(!outcome.value);
        assert!(outcome.taint.is_none());
    }

    #[test]
    fn a_character_cut_by_a_keywords_length_is_an_error_not_a_panic() {
        for condition in ["true\u{feff}", "'a' == 'a' \u{feff}('b') ", "true xé"] {
            let outcome = eval(&[], condition);
            assert!(!outcome.value, "{condition}");
            assert!(
                outcome.taint.unwrap().message.contains("unexpected"),
                "{condition}"
            );
        }
        assert!(eval(&[], "true Or\u{feff}").taint.is_some());
    }

    #[test]
    fn unsupported_is_false_with_a_reason() {
        let outcome = eval(&[], "'@(Compile->Count())' > 0");
        assert!(!outcome.value);
        assert!(outcome.taint.unwrap().message.contains("not supported"));
        let outcome = eval(&[], "'$(OS)' == 'Windows_NT'");
        assert!(!outcome.value);
        assert!(outcome.taint.is_some());
    }
}
