//! `rlc-sharp explain`: a rule's page, or the list of all rules. Also the
//! "did you mean" suggestions shared with the config's error messages.

use std::fmt;

use rlc_core::rules::{RULES, Rule, rule};

/// The text `rlc-sharp explain [RULE]` prints.
pub fn explain(query: Option<&str>) -> Result<String, UnknownRule> {
    match query {
        None => Ok(rule_list()),
        Some(q) => {
            let page = find(q)?.explanation;
            Ok(if page.ends_with('\n') {
                page.to_string()
            } else {
                format!("{page}\n")
            })
        }
    }
}

/// A rule by id or name, in any case.
pub fn find(query: &str) -> Result<&'static Rule, UnknownRule> {
    let query = query.trim();
    rule(query).ok_or_else(|| UnknownRule {
        query: query.to_string(),
        suggestions: closest(query, RULES.iter().flat_map(|r| [r.code, r.name]))
            .into_iter()
            .filter_map(rule)
            .fold(Vec::new(), |mut acc, r| {
                if !acc.iter().any(|a: &&Rule| a.id == r.id) {
                    acc.push(r);
                }
                acc
            }),
    })
}

/// Every rule: id, name, default level and summary, one per line.
pub fn rule_list() -> String {
    let width = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for r in RULES {
        out.push_str(&format!(
            "{}  {:width$}  {:7}  {}\n",
            r.id,
            r.name,
            r.default_severity.as_str(),
            r.summary
        ));
    }
    out.push_str("\nRun `rlc-sharp explain <RULE>` with an id or a name for the rule's page.\n");
    out
}

/// An id or name that is no rule, with the rules it may have meant.
#[derive(Debug)]
pub struct UnknownRule {
    pub query: String,
    pub suggestions: Vec<&'static Rule>,
}

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no rule is called `{}`", self.query)?;
        let names: Vec<String> = self
            .suggestions
            .iter()
            .map(|r| format!("`{}` ({})", r.id, r.name))
            .collect();
        match names.as_slice() {
            [] => {}
            [one] => write!(f, "\nhelp: did you mean {one}?")?,
            [init @ .., last] => write!(f, "\nhelp: did you mean {} or {last}?", init.join(", "))?,
        }
        write!(f, "\nhelp: `rlc-sharp explain` lists every rule")
    }
}

impl std::error::Error for UnknownRule {}

/// Up to three candidates close to `input`, closest first: a small edit
/// distance (ignoring case) or containing it.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let input = input.to_ascii_lowercase();
    if input.is_empty() {
        return Vec::new();
    }
    let limit = (input.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let lower = c.to_ascii_lowercase();
            let d = edit_distance(&input, &lower);
            if d <= limit {
                Some((d, c))
            } else if lower.contains(&input) {
                Some((limit + 1 + lower.len() - input.len(), c))
            } else {
                None
            }
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != *cb);
            cur.push(substitute.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_by_id_or_name_in_any_case() {
        for q in [
            "RLC0001",
            "rlc0001",
            "resource-leak",
            "Resource-Leak",
            " RLC0001 ",
        ] {
            let page = explain(Some(q)).expect("found");
            assert!(page.starts_with("# RLC0001"), "{q}: {page}");
            assert!(page.ends_with('\n'));
        }
        assert!(
            explain(Some("owning-field-not-disposed"))
                .expect("found")
                .contains("RLC0003")
        );
    }

    #[test]
    fn the_list_has_every_rule_with_its_level() {
        let list = explain(None).expect("list");
        for r in RULES {
            let line = list
                .lines()
                .find(|l| l.starts_with(r.code))
                .expect("listed");
            assert!(
                line.contains(r.name)
                    && line.contains(r.default_severity.as_str())
                    && line.contains(r.summary)
            );
        }
    }

    #[test]
    fn unknown_rules_suggest_close_ones() {
        let err = find("RLC0071").expect_err("unknown");
        assert!(err.suggestions.iter().any(|r| r.code == "RLC0001"), "{err}");
        let err = find("resource-leek").expect_err("unknown");
        assert_eq!(err.suggestions.first().map(|r| r.code), Some("RLC0001"));
        let text = find("leak").expect_err("unknown").to_string();
        assert!(
            text.contains("resource-leak") && text.contains("did you mean"),
            "{text}"
        );
        let err = find("zzz").expect_err("unknown");
        assert!(err.suggestions.is_empty());
        assert!(err.to_string().starts_with("no rule is called `zzz`"));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("exclude", "exclude"), 0);
        assert_eq!(
            closest("exlude", ["exclude", "infer", "exception-model"]),
            ["exclude"]
        );
    }
}
