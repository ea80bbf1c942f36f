// Case family: generics: type parameters constrained to IDisposable carry the
// obligation of their bound; generic owners and factories; a [MustCallAlias] generic
// pass-through.
// cases: 12
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.Generics;

public sealed class Session : IDisposable
{
    public void Dispose()
    {
    }
}

// CASE: a generic owner of a T : IDisposable, with a verified Dispose.
public sealed class Owner<T> : IDisposable where T : IDisposable
{
    [Owning] private readonly T _value;

    public Owner([Owning] T value)
    {
        _value = value;
    }

    public T Value => _value;

    [Calls("_value", "Dispose")]
    public void Dispose() => _value.Dispose();
}

// CASE: a generic owner that forgets to declare the disposal of its field.
public sealed class ForgetfulOwner<T> : IDisposable where T : IDisposable
{
    [Owning] private readonly T _value; // expect: RLC0003

    public ForgetfulOwner([Owning] T value)
    {
        _value = value;
    }

    public void Dispose()
    {
    }
}

public static class Generic
{
    // CASE: `new T()` for T : IDisposable has an obligation; it is returned.
    public static T Create<T>() where T : IDisposable, new()
    {
        return new T();
    }

    // CASE: `new T()` disposed locally.
    public static void CreateAndDispose<T>() where T : IDisposable, new()
    {
        var t = new T();
        t.Dispose();
    }

    // CASE: `new T()` never disposed.
    public static string CreateAndLeak<T>() where T : IDisposable, new()
    {
        var t = new T(); // expect: RLC0001
        return t.ToString();
    }

    // CASE: a generic factory instantiated with a disposable type: the caller owns it.
    public static void CallerOfGenericFactory()
    {
        using var s = Create<Session>();
    }

    // CASE: a generic factory result dropped.
    public static void GenericFactoryResultDropped()
    {
        Create<Session>(); // expect: RLC0001
    }

    // CASE: a borrowed T disposed by `using` in a method that does not own it is
    // allowed (disposing is never a leak).
    public static void UseBorrowed<T>(T resource) where T : IDisposable
    {
        using (resource)
        {
            Console.WriteLine(resource);
        }
    }

    // CASE: the generic owner used with a file stream, disposed.
    public static void OwnerOfStream(string path)
    {
        using var owner = new Owner<FileStream>(File.OpenRead(path));
        owner.Value.ReadByte();
    }

    // CASE: the generic owner itself never disposed.
    public static void OwnerLeaked(string path)
    {
        var owner = new Owner<FileStream>(File.OpenRead(path)); // expect: RLC0001
        owner.Value.ReadByte();
    }

    // CASE: a [MustCallAlias] generic pass-through keeps the alias.
    [MustCallAlias]
    public static T Track<T>([MustCallAlias] T value) where T : IDisposable => value;

    // CASE: a tracked stream disposed through the pass-through's result.
    public static void UseTrack(string path)
    {
        var s = Track(File.OpenRead(path));
        s.Dispose();
    }
}
