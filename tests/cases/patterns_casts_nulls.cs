// Case family: null tests (`!= null`, `?.`, `is not null`, `is null`, `is { }`, early
// returns), `is` type patterns, `as`, and casts. A cast or `as` creates an alias; on the
// branch where a value is known to be null it holds no obligation (paper, Fig. 1).
// cases: 21
using System;
using System.IO;
using System.Reflection;
using RlcSharp.Annotations;

namespace Cases.PatternsCastsNulls;

public static class PatternsCastsNulls
{
    static Stream MaybeOpen(string path) => File.Exists(path) ? File.OpenRead(path) : null;

    // CASE: `if (x != null) x.Dispose();`
    public static void NotEqualNull(string path)
    {
        var s = MaybeOpen(path);
        if (s != null)
        {
            s.Dispose();
        }
    }

    // CASE: `x?.Dispose();`
    public static void ConditionalAccess(string path)
    {
        var s = MaybeOpen(path);
        s?.Dispose();
    }

    // CASE: `if (x is not null) x.Dispose();`
    public static void IsNotNull(string path)
    {
        var s = MaybeOpen(path);
        if (s is not null)
        {
            s.Dispose();
        }
    }

    // CASE: an early return when null, then `using`.
    public static int IsNullEarlyReturn(string path)
    {
        var s = MaybeOpen(path);
        if (s is null)
        {
            return -1;
        }
        using (s)
        {
            return s.ReadByte();
        }
    }

    // CASE: `== null` early return, then Dispose().
    public static int EqualsNullEarlyReturn(string path)
    {
        var s = MaybeOpen(path);
        if (s == null)
        {
            return -1;
        }
        var b = s.ReadByte();
        s.Dispose();
        return b;
    }

    // CASE: an empty property pattern `is { } x` is a non-null test binding an alias.
    public static void EmptyPropertyPattern(string path)
    {
        if (MaybeOpen(path) is { } s)
        {
            s.Dispose();
        }
    }

    // CASE: a null test combined with an unrelated condition: the other condition can
    // skip the disposal of a non-null value.
    public static void NullTestAndOtherCondition(string path, int retries)
    {
        var s = MaybeOpen(path); // expect: RLC0001
        if (s != null && retries > 0)
        {
            s.Dispose();
        }
    }

    // CASE: an early return taken for a non-null value too.
    public static int EarlyReturnOnEmpty(string path)
    {
        var s = MaybeOpen(path); // expect: RLC0001
        if (s == null || s.Length == 0)
        {
            return 0;
        }
        var b = s.ReadByte();
        s.Dispose();
        return b;
    }

    // CASE: assigning null to the only reference loses the resource (paper, Fig. 3).
    public static void OverwrittenWithNull(string path)
    {
        var s = File.OpenRead(path); // expect: RLC0001
        s.ReadByte();
        s = null;
        Console.WriteLine(s == null);
    }

    // CASE: assigning null after disposing is fine.
    public static void NullAfterDispose(string path)
    {
        var s = File.OpenRead(path);
        s.Dispose();
        s = null;
        Console.WriteLine(s == null);
    }

    // CASE: `is IDisposable d` on a value whose static type is already IDisposable is a
    // null test binding an alias.
    public static void TypePatternDisposes(string path)
    {
        var s = MaybeOpen(path);
        if (s is IDisposable d)
        {
            d.Dispose();
        }
    }

    // CASE: `as` to a supertype then `?.Dispose()`: the alias is null only if the value is.
    public static void AsThenConditionalDispose(string path)
    {
        var s = MaybeOpen(path);
        var d = s as IDisposable;
        d?.Dispose();
    }

    // CASE: a downcast creates an alias; disposing it discharges the original.
    public static void CastAlias(string path)
    {
        Stream s = File.OpenRead(path);
        var fs = (FileStream)s;
        fs.ReadByte();
        fs.Dispose();
    }

    // CASE: a cast of a call result that is never disposed.
    public static long CastOfAllocationLeaked(string path)
    {
        var fs = (FileStream)MaybeOpen(path); // expect: RLC0001
        return fs.Length;
    }

    // CASE: a `using` over a cast expression.
    public static long UsingOverCast(string path)
    {
        using var fs = (FileStream)MaybeOpen(path);
        return fs.Length;
    }

    // CASE: a resource kept in an `object` variable still has its obligation.
    public static string UpcastToObjectLeaked(string path)
    {
        object o = File.OpenRead(path); // expect: RLC0001
        return o.ToString();
    }

    // CASE: a resource kept in an `object` variable, disposed through a cast.
    public static string UpcastToObjectDisposed(string path)
    {
        object o = File.OpenRead(path);
        var text = o.ToString();
        ((IDisposable)o).Dispose();
        return text;
    }

    // CASE: a null-forgiving `!` is an alias like a cast.
    public static int NullForgiving(string path)
    {
        using var s = MaybeOpen(path)!;
        return s.ReadByte();
    }

    // CASE: reflection creates an object typed `object`; cast to a stream it owes the
    // stream's disposal.
    public static int CreatedByReflection()
    {
        var s = (FileHolder)Activator.CreateInstance(typeof(FileHolder))!; // expect: RLC0001
        return s.GetHashCode();
    }

    // CASE: a constructor invoked through reflection, taken over with `as` and disposed.
    public static int InvokedConstructorDisposed(ConstructorInfo constructor)
    {
        using var s = constructor.Invoke(null) as FileHolder;
        return s?.GetHashCode() ?? 0;
    }

    // CASE: kept as `object`, the created value has no type to owe anything by.
    public static string CreatedAsObject(Type type) => Activator.CreateInstance(type)?.ToString() ?? "";
}

public sealed class FileHolder : IDisposable
{
    [Owning] private readonly FileStream _file = File.OpenRead("data.bin");
    public void Dispose() => _file.Dispose();
}
