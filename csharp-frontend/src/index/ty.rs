//! Semantic types: what a resolved type name or an expression's static type is.

use rlc_core::program::TypeId;

use super::MemberId;

/// Who declares a type parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamOwner {
    Type(TypeId),
    Method(MemberId),
    /// A local function or lambda: its type parameters are opaque to us.
    Local,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// Not resolved (an unknown library type, an error, an anonymous type).
    Unknown,
    Void,
    /// The type of the `null` literal.
    Null,
    Dynamic,
    /// A class, struct, interface, enum or delegate with its type arguments.
    Named {
        def: TypeId,
        args: Box<[Ty]>,
    },
    /// A type parameter.
    Param {
        owner: ParamOwner,
        index: u32,
    },
    Array {
        elem: Box<Ty>,
        rank: u8,
    },
    /// A value tuple: its element types, and the names they were declared with.
    Tuple(Box<[Ty]>, TupleNames),
    Pointer(Box<Ty>),
    /// A lambda or method group whose delegate type is not known yet.
    Function,
}

impl Ty {
    pub fn named(def: TypeId) -> Ty {
        Ty::Named {
            def,
            args: Box::new([]),
        }
    }

    pub fn def(&self) -> Option<TypeId> {
        match self {
            Ty::Named { def, .. } => Some(*def),
            _ => None,
        }
    }

    pub fn args(&self) -> &[Ty] {
        match self {
            Ty::Named { args, .. } => args,
            _ => &[],
        }
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, Ty::Unknown)
    }

    /// `self` unless it is unknown, then `other`.
    pub fn or(self, other: impl FnOnce() -> Ty) -> Ty {
        if self.is_unknown() { other() } else { self }
    }

    /// Replaces type parameters by the arguments `subst` gives for them.
    pub fn subst(&self, subst: &Subst) -> Ty {
        if subst.is_empty() {
            return self.clone();
        }
        match self {
            Ty::Param { owner, index } => subst
                .get(*owner, *index)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            Ty::Named { def, args } if !args.is_empty() => Ty::Named {
                def: *def,
                args: args.iter().map(|a| a.subst(subst)).collect(),
            },
            Ty::Array { elem, rank } => Ty::Array {
                elem: Box::new(elem.subst(subst)),
                rank: *rank,
            },
            Ty::Tuple(items, names) => Ty::Tuple(
                items.iter().map(|a| a.subst(subst)).collect(),
                names.clone(),
            ),
            Ty::Pointer(t) => Ty::Pointer(Box::new(t.subst(subst))),
            _ => self.clone(),
        }
    }

    /// Whether any type parameter of `owner` occurs in the type.
    pub fn mentions(&self, owner: ParamOwner) -> bool {
        match self {
            Ty::Param { owner: o, .. } => *o == owner,
            Ty::Named { args, .. } | Ty::Tuple(args, _) => args.iter().any(|a| a.mentions(owner)),
            Ty::Array { elem, .. } | Ty::Pointer(elem) => elem.mentions(owner),
            _ => false,
        }
    }
}

/// The element names of a tuple type (`(Stream Body, int Length)`), where
/// given. They do not make two tuple types differ: C# converts between
/// tuples element by element, whatever their names.
#[derive(Clone, Debug, Default)]
pub struct TupleNames(pub Option<Box<[Option<smol_str::SmolStr>]>>);

impl TupleNames {
    /// The names of a tuple's elements, in order; none when no element has one.
    pub fn new(names: impl IntoIterator<Item = Option<smol_str::SmolStr>>) -> TupleNames {
        let names: Box<[_]> = names.into_iter().collect();
        TupleNames(names.iter().any(Option::is_some).then_some(names))
    }

    /// The index of the element named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.0
            .as_ref()?
            .iter()
            .position(|n| n.as_deref() == Some(name))
    }
}

impl PartialEq for TupleNames {
    fn eq(&self, _: &TupleNames) -> bool {
        true
    }
}

impl Eq for TupleNames {}

impl std::hash::Hash for TupleNames {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A substitution of type parameters by types.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Subst {
    entries: Vec<(ParamOwner, u32, Ty)>,
}

impl Subst {
    pub fn new() -> Subst {
        Subst::default()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Binds the parameters of `owner` to `args` in order.
    pub fn bind_all(&mut self, owner: ParamOwner, args: &[Ty]) {
        for (i, a) in args.iter().enumerate() {
            self.bind(owner, i as u32, a.clone());
        }
    }

    pub fn bind(&mut self, owner: ParamOwner, index: u32, ty: Ty) {
        if let Some(e) = self
            .entries
            .iter_mut()
            .find(|(o, i, _)| *o == owner && *i == index)
        {
            e.2 = ty;
        } else {
            self.entries.push((owner, index, ty));
        }
    }

    pub fn get(&self, owner: ParamOwner, index: u32) -> Option<&Ty> {
        self.entries
            .iter()
            .find(|(o, i, _)| *o == owner && *i == index)
            .map(|(_, _, t)| t)
    }

    /// Applies `self`, then `outer` to the result's remaining parameters.
    pub fn then(mut self, outer: &Subst) -> Subst {
        for e in &mut self.entries {
            e.2 = e.2.subst(outer);
        }
        for (o, i, t) in &outer.entries {
            if self.get(*o, *i).is_none() {
                self.entries.push((*o, *i, t.clone()));
            }
        }
        self
    }
}
