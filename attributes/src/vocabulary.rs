//! Attributes are matched by simple name, in any namespace, with or without the
//! `Attribute` suffix, so users may declare their own.

/// The conventional disposal methods of .NET, most preferred first: the
/// method a message names, the methods assumed for a value of unknown type,
/// and the methods a class's disposal consists of (`DisposeAsyncCore` is the
/// async dispose pattern's hook).
pub const DISPOSAL_METHODS: [&str; 4] = [DISPOSE, DISPOSE_ASYNC, "Close", "DisposeAsyncCore"];

/// The method of `System.IDisposable`.
pub const DISPOSE: &str = "Dispose";
/// The try pattern's prefix: `bool TryTake(out T item)` leaves `item` unset when
/// it returns `false`.
pub const TRY_PREFIX: &str = "Try";

/// The method of `System.IAsyncDisposable`.
pub const DISPOSE_ASYNC: &str = "DisposeAsync";

/// The flag of the dispose pattern, `protected virtual void Dispose(bool disposing)`.
pub const DISPOSE_FLAG: &str = "disposing";

/// Whether a type (by full name) is a handle to an unmanaged resource:
/// `IntPtr`/`UIntPtr`, `SafeHandle` and its kin.
pub fn is_native_handle_type(full_name: &str) -> bool {
    matches!(full_name, "System.IntPtr" | "System.UIntPtr") || full_name.contains("Handle")
}

/// A spec attribute rlc-sharp understands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpecAttr {
    /// `[MustCall("Dispose")]` on a type or return; `[MustCall]` means no obligation.
    MustCall,
    /// `[Owning]` on a parameter, return (`[return: Owning]`), field or property.
    Owning,
    /// `[NotOwning]` on a parameter, return, field or property.
    NotOwning,
    /// `[MustCallAlias]` on a parameter and on the return or constructor.
    MustCallAlias,
    /// `[Calls("target", "Method", ...)]` on a method (AllowMultiple).
    Calls,
    /// `[CreatesMustCallFor("this")]` on a method.
    CreatesMustCallFor,
    /// JetBrains.Annotations `[MustDisposeResource]` (type: obligation; method or
    /// constructor: owning return; `false` argument: not owning).
    MustDisposeResource,
    /// JetBrains.Annotations `[HandlesResourceDisposal]` (parameter: owning;
    /// field or property: owning; method: a disposal method of its type).
    HandlesResourceDisposal,
    /// Library model only: on a `bool` parameter, `[OwnsIf(false)] bool leaveOpen`
    /// says the call's ownership transfer or resource alias holds only when the
    /// argument has that value; on a constructor that takes nothing over, that
    /// the object owns its own resource only then (`ownsHandle`).
    OwnsIf,
    /// Library model only: the parameter is stored as an element of the receiver
    /// collection (`List<T>.Add(item)`).
    CollectionElement,
    /// Library model only: `[StoredAs("Item1")]`, the result keeps the argument
    /// as its member of that name without owning it (`Tuple.Create`).
    StoredAs,
    /// Library model only: on the `ref` parameter of `Interlocked.Exchange`: the
    /// call returns the value the argument held and stores the other argument
    /// into it (nothing, when there is none: `Volatile.Read`).
    Exchanged,
    /// Library model only: on the `ref` parameter of `Interlocked.Increment`:
    /// the call adds one to the argument and returns the sum.
    Incremented,
    /// `System.Diagnostics.CodeAnalysis.DoesNotReturnAttribute` on a method:
    /// a call to it ends its path as a `throw` does.
    DoesNotReturn,
    /// `System.Diagnostics.CodeAnalysis.DoesNotReturnIfAttribute` on a `bool`
    /// parameter (`Debug.Assert([DoesNotReturnIf(false)] bool condition)`): the
    /// call does not return when the argument has that value.
    DoesNotReturnIf,
    /// `System.Diagnostics.CodeAnalysis.MaybeNullWhenAttribute` on an `out`
    /// parameter of a `bool` method (`bool Remove(TKey key,
    /// [MaybeNullWhen(false)] out TValue value)`): with `false`, the try
    /// pattern whatever the method's name: the value is unset when it
    /// returns `false`.
    MaybeNullWhen,
    /// `System.Diagnostics.CodeAnalysis.NotNullWhenAttribute`: with `true` on
    /// an `out` parameter of a `bool` method, the try pattern as
    /// [`SpecAttr::MaybeNullWhen`] with `false`.
    NotNullWhen,
    /// Library model only: on a `bool` property, `[ReleasedIf(false)] bool
    /// IsAllocated { get; }` says its object holds no resource when the
    /// property has that value (`if (h.IsAllocated) h.Free();`).
    ReleasedIf,
    /// Library model only: on a method or constructor that cannot throw in a
    /// correct program (`ConfigureAwait`, `new CancellationTokenSource()`): no
    /// exception model takes an exceptional edge from its calls.
    DoesNotThrow,
    /// Library model only: on a framework callback that runs once per object,
    /// after its constructor and before anything else touches it
    /// (`IHostedService.StartAsync`, `ServiceBase.OnStart`): the owning
    /// fields an implementation assigns hold nothing yet unless a constructor
    /// assigned them.
    LifecycleStart,
    /// Library model only: on a method that acquires its object's resource
    /// again after a close (`DbConnection.Open`): a method that opens a
    /// parameter and closes it leaves it as it found it, so the close is no
    /// sign that it owns the parameter.
    Reopens,
    /// Library model only: on a method whose purpose is to throw when a check
    /// fails (`EnsureSuccessStatusCode`, `ThrowIfCancellationRequested`): the
    /// code expects that exception, so the `explicit` exception model follows
    /// its calls' exceptional edges, as it does a `throw`'s.
    ThrowsOnFailure,
}

impl SpecAttr {
    pub const ALL: [SpecAttr; 22] = [
        SpecAttr::MustCall,
        SpecAttr::Owning,
        SpecAttr::NotOwning,
        SpecAttr::MustCallAlias,
        SpecAttr::Calls,
        SpecAttr::CreatesMustCallFor,
        SpecAttr::MustDisposeResource,
        SpecAttr::HandlesResourceDisposal,
        SpecAttr::OwnsIf,
        SpecAttr::CollectionElement,
        SpecAttr::StoredAs,
        SpecAttr::Exchanged,
        SpecAttr::Incremented,
        SpecAttr::DoesNotReturn,
        SpecAttr::DoesNotReturnIf,
        SpecAttr::MaybeNullWhen,
        SpecAttr::NotNullWhen,
        SpecAttr::ReleasedIf,
        SpecAttr::DoesNotThrow,
        SpecAttr::LifecycleStart,
        SpecAttr::Reopens,
        SpecAttr::ThrowsOnFailure,
    ];

    /// The attribute's simple name, without the `Attribute` suffix.
    pub fn name(self) -> &'static str {
        match self {
            SpecAttr::MustCall => "MustCall",
            SpecAttr::Owning => "Owning",
            SpecAttr::NotOwning => "NotOwning",
            SpecAttr::MustCallAlias => "MustCallAlias",
            SpecAttr::Calls => "Calls",
            SpecAttr::CreatesMustCallFor => "CreatesMustCallFor",
            SpecAttr::MustDisposeResource => "MustDisposeResource",
            SpecAttr::HandlesResourceDisposal => "HandlesResourceDisposal",
            SpecAttr::OwnsIf => "OwnsIf",
            SpecAttr::CollectionElement => "CollectionElement",
            SpecAttr::StoredAs => "StoredAs",
            SpecAttr::Exchanged => "Exchanged",
            SpecAttr::Incremented => "Incremented",
            SpecAttr::DoesNotReturn => "DoesNotReturn",
            SpecAttr::DoesNotReturnIf => "DoesNotReturnIf",
            SpecAttr::MaybeNullWhen => "MaybeNullWhen",
            SpecAttr::NotNullWhen => "NotNullWhen",
            SpecAttr::ReleasedIf => "ReleasedIf",
            SpecAttr::DoesNotThrow => "DoesNotThrow",
            SpecAttr::LifecycleStart => "LifecycleStart",
            SpecAttr::Reopens => "Reopens",
            SpecAttr::ThrowsOnFailure => "ThrowsOnFailure",
        }
    }

    /// Classifies an attribute by the last segment of its name
    /// (`RlcSharp.Annotations.OwningAttribute` -> `Owning`).
    pub fn from_name(name: &str) -> Option<SpecAttr> {
        let last = name.rsplit(['.', ':']).next().unwrap_or(name);
        let simple = last.strip_suffix("Attribute").unwrap_or(last);
        SpecAttr::ALL.into_iter().find(|a| a.name() == simple)
    }

    /// Attributes that only the library model may use.
    pub fn is_model_only(self) -> bool {
        matches!(
            self,
            SpecAttr::OwnsIf
                | SpecAttr::CollectionElement
                | SpecAttr::StoredAs
                | SpecAttr::Exchanged
                | SpecAttr::Incremented
                | SpecAttr::ReleasedIf
                | SpecAttr::DoesNotThrow
                | SpecAttr::LifecycleStart
                | SpecAttr::Reopens
                | SpecAttr::ThrowsOnFailure
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_by_simple_name_with_or_without_suffix() {
        assert_eq!(SpecAttr::from_name("Owning"), Some(SpecAttr::Owning));
        assert_eq!(
            SpecAttr::from_name("OwningAttribute"),
            Some(SpecAttr::Owning)
        );
        assert_eq!(
            SpecAttr::from_name("RlcSharp.Annotations.MustCallAlias"),
            Some(SpecAttr::MustCallAlias)
        );
        assert_eq!(
            SpecAttr::from_name("global::JetBrains.Annotations.MustDisposeResourceAttribute"),
            Some(SpecAttr::MustDisposeResource)
        );
        assert_eq!(SpecAttr::from_name("Obsolete"), None);
        assert_eq!(SpecAttr::from_name("Owningx"), None);
    }
}
