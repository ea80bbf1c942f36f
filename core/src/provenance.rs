//! Where a spec fact came from, so that a finding can say why it relied on it;
//! and the inference rules, by name, for facts inference added.

use serde::Serialize;

use crate::span::Span;

/// Where a spec fact came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Provenance {
    /// The paper's defaults (returns owning, parameters and fields not).
    Default,
    /// Written in the source as an attribute at this place.
    Source(Span),
    /// The embedded .NET library model.
    Library,
    /// An attribute compiled into a referenced assembly: this place of the
    /// C# declarations generated from its metadata (whose file name is the
    /// assembly's).
    Metadata(Span),
    /// The user's `rlc-sharp.toml`.
    Config,
    /// Inferred by the rule `rule`; `evidence` is the code that made it fire.
    Inferred { rule: InferRule, evidence: Span },
}

impl Provenance {
    pub fn is_inferred(&self) -> bool {
        matches!(self, Provenance::Inferred { .. })
    }
    /// Facts a person or the model stated, which inference must never contradict.
    pub fn is_stated(&self) -> bool {
        matches!(
            self,
            Provenance::Source(_)
                | Provenance::Library
                | Provenance::Metadata(_)
                | Provenance::Config
        )
    }
    /// Specs about the program's own code, which the checker verifies against
    /// its bodies: written ones and inferred ones alike, so that `check` with
    /// inference reports what `check --no-infer` reports after the patch.
    /// The library model, referenced assemblies and the defaults are trusted.
    pub fn is_verified(&self) -> bool {
        matches!(
            self,
            Provenance::Source(_) | Provenance::Config | Provenance::Inferred { .. }
        )
    }
}

macro_rules! infer_rules {
    ($($variant:ident, $name:literal, $reason:literal;)*) => {
        /// An inference rule (`crate::infer`): its name in reports and patches,
        /// and why it fires, in words.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum InferRule {
            $($variant,)*
        }

        impl InferRule {
            pub const ALL: &[InferRule] = &[$(InferRule::$variant,)*];

            /// `owning-param-disposed`.
            pub fn name(self) -> &'static str {
                match self {
                    $(InferRule::$variant => $name,)*
                }
            }

            /// Why the rule fires: "the method disposes the parameter (on some path)".
            pub fn reason(self) -> &'static str {
                match self {
                    $(InferRule::$variant => $reason,)*
                }
            }
        }
    };
}

infer_rules! {
    OwningParamDisposed, "owning-param-disposed",
        "the method disposes the parameter (on some path)";
    OwningParamPassed, "owning-param-passed",
        "the method hands the parameter to an [Owning] parameter";
    OwningParamImplementations, "owning-param-implementations",
        "every implementation of this abstract or interface method takes the parameter ([Owning])";
    CallsFieldDisposed, "calls-field-disposed",
        "the method disposes this field and does not reassign it afterwards";
    OwningField, "owning-field",
        "a method of the class disposes the field ([Calls])";
    OwningFieldCreated, "owning-field-created",
        "the class stores a resource it created in the field, so the object holds it";
    MustCallClass, "must-call-class",
        "this method disposes all the class's owning fields";
    MustCallAliasConstructor, "must-call-alias-constructor",
        "the constructor always stores the parameter into the class's single owning field";
    MustCallAliasChained, "must-call-alias-chained",
        "the constructor passes the parameter to a [MustCallAlias] constructor";
    MustCallAliasMethod, "must-call-alias-method",
        "the method always returns (a wrapper of) the parameter";
    MustCallAliasImplementations, "must-call-alias-implementations",
        "every implementation of this abstract or interface method returns (a wrapper of) the parameter";
    MustCallAliasSameType, "must-call-alias-same-type",
        "the abstract method takes and returns the same resource type through one parameter, and no implementation in the program returns anything else";
    MustCallAliasReceiver, "must-call-alias-receiver",
        "the method always returns `this`, so its result is the receiver itself";
    OwningConstructorParam, "owning-constructor-param",
        "the constructor stores the parameter into an owning field";
    OwningParamStored, "owning-param-stored",
        "the method stores the parameter into an owning field of its object, or adds it to a collection field whose elements its class disposes";
    OwningParamElements, "owning-param-elements",
        "the method takes over the elements of the collection on every path: it disposes them, hands each to an owner, or hands the collection on";
    NotOwningGetter, "not-owning-getter",
        "the method returns an owning field of its class";
    OwningGetter, "owning-getter",
        "the getter returns a new resource on every path, so each read gives the caller a new object";
    BorrowedReturn, "borrowed-return",
        "the method only returns values it does not own (fields, elements, not-owning results)";
    NoObligation, "no-obligation",
        "Dispose releases nothing: no owned resources, no finalizer, no overriding subclass";
    CreatesMustCallFor, "creates-must-call-for",
        "the method stores a new resource into a non-readonly owning field of `this`";
    CreatesMustCallForCallee, "creates-must-call-for-callee",
        "the method calls a [CreatesMustCallFor(\"this\")] method on `this`";
    Registration, "registration",
        "the method keeps an argument in its object and returns a handle whose disposal removes it";
}

impl std::fmt::Display for InferRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for InferRule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
