//! The registry of diagnostic ids. Each id has its explanation page beside this
//! file (`rules/RLCxxxx.md`), shown by `rlc-sharp explain RLCxxxx`.
//! Ids are stable: never renumber, only add.

use super::Severity;

#[derive(Debug)]
pub struct Rule {
    pub id: &'static str,
    /// Kebab-case name, usable wherever the id is (config, suppressions).
    pub name: &'static str,
    pub default_severity: Severity,
    /// One line, for `tool.driver.rules[].shortDescription` and listings.
    pub summary: &'static str,
    /// The explanation page (Markdown).
    pub explanation: &'static str,
}

macro_rules! rules {
    ($($id:literal, $name:literal, $sev:ident, $summary:literal;)*) => {
        pub static RULES: &[Rule] = &[
            $(Rule {
                id: $id,
                name: $name,
                default_severity: Severity::$sev,
                summary: $summary,
                explanation: include_str!(concat!("rules/", $id, ".md")),
            },)*
        ];
    };
}

rules! {
    "RLC0001", "resource-leak", Error, "A disposable value can become unreachable without its must-call method being called";
    "RLC0002", "resource-leak-on-exception", Warning, "A disposable value leaks only when an exception is thrown";
    "RLC0003", "owning-field-not-disposed", Error, "A class owns a disposable field but no must-call method of the class disposes it";
    "RLC0004", "owning-field-overwritten", Error, "A non-readonly owning field is reassigned while it may still hold an undisposed value";
    "RLC0005", "stored-in-undisposed-collection", Warning, "A disposable value is stored in a collection whose elements nobody disposes";
    "RLC0006", "calls-not-verified", Error, "A method's [Calls] specification is not guaranteed by its body";
    "RLC0007", "must-call-alias-not-verified", Error, "A [MustCallAlias] specification is not guaranteed by the code";
    "RLC0008", "override-weakens-spec", Error, "An override or implementation weakens the resource specification of the member it overrides";
    "RLC0009", "missing-creates-must-call-for", Error, "A method reassigns an owning field without [CreatesMustCallFor]";
    "RLC9001", "syntax-error", Note, "The parser found a syntax error; the affected method is not analysed";
    "RLC9002", "project-note", Note, "Something in a project file could not be evaluated and was skipped";
    "RLC9003", "unreadable-source", Warning, "A source file could not be read or decoded and was skipped";
    "RLC9004", "internal-error", Warning, "rlc-sharp failed on a method; the rest of the run went on";
    "RLC9005", "method-skipped", Note, "A method was not analysed (too deeply nested or unsupported construct)";
}

/// The rule with this id or name, both matched ignoring ASCII case (users write
/// them in configs, pragmas and attributes).
pub fn rule(id_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.id.eq_ignore_ascii_case(id_or_name) || r.name.eq_ignore_ascii_case(id_or_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_page_that_names_it() {
        for r in RULES {
            assert!(
                r.explanation.contains(r.id),
                "the page of {} does not mention its id",
                r.id
            );
            assert!(r.explanation.len() > 200, "the page of {} is a stub", r.id);
        }
    }

    #[test]
    fn ids_and_names_are_unique() {
        for (i, a) in RULES.iter().enumerate() {
            for b in &RULES[i + 1..] {
                assert_ne!(a.id, b.id);
                assert_ne!(a.name, b.name);
            }
        }
    }
}
