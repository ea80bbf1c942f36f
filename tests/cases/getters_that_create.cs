// rlc-case: infer
// Case family: property getters that create a new resource on every read. A property
// normally exposes state its object owns, so reading it gives no obligation; but a
// getter whose every return is a resource it just created hands each reader a new
// object. Inference proposes `[return: Owning]` for it (rule `owning-getter`), the
// getter is clean, and each reader must dispose what it read.
// cases: 11
using System;
using System.IO;

namespace Cases.GettersThatCreate;

public sealed class Files
{
    private readonly string _path;
    private Stream? _cached;
    private readonly Stream _kept;

    public Files(string path)
    {
        _path = path;
        _kept = File.OpenRead(path);
    }

    // CASE: an expression-bodied getter that opens a file on every read.
    public Stream Data => File.OpenRead(_path);

    // CASE: a block getter that creates on every path (or returns null).
    public Stream? MaybeData
    {
        get
        {
            if (_path.Length == 0)
            {
                return null;
            }
            return new FileStream(_path, FileMode.Open);
        }
    }

    // CASE: a static property that creates.
    public static Stream Temp => File.Create(Path.GetTempFileName());

    // CASE: a lazily created, cached value stays the object's.
    public Stream Cached => _cached ??= File.OpenRead(_path);

    // CASE: a getter returning a field stays not owning.
    public Stream Kept => _kept;

    public void Close()
    {
        _kept.Dispose();
        _cached?.Dispose();
    }
}

public static class Readers
{
    // CASE: reading the creating property and disposing the result.
    public static long ReadDisposed(Files f)
    {
        using var s = f.Data;
        return s.Length;
    }

    // CASE: reading it and dropping it: a leak at the read.
    public static long ReadDropped(Files f)
    {
        var s = f.Data; // expect: RLC0001
        return s.Length;
    }

    // CASE: using the new object once, in an expression, leaks it.
    public static long ReadInline(Files f)
    {
        return f.MaybeData?.Length ?? 0; // expect: RLC0001
    }

    // CASE: reading the cached and the kept properties borrows them.
    public static long ReadBorrowed(Files f)
    {
        return f.Cached.Length + f.Kept.Length + Files.Temp.Length; // expect: RLC0001
    }
}

// CASE: a getter that returns what a helper looks up (a registry's entry, or a field it
// falls back on) creates nothing: the helper returns a new object on no path of its own,
// so reading the property borrows.
public sealed class ScopedFiles
{
    private readonly Stream _main = File.OpenRead("main.bin"); // expect: RLC0003

    public Stream Current { get { return Lookup(); } }

    public Stream Created => Open();

    private Stream Lookup()
    {
        var s = Registry.Find("current");
        if (s == null)
        {
            s = _main;
        }
        return s;
    }

    private static Stream Open() => File.OpenRead("created.bin");

    public static long Read(ScopedFiles f) => f.Current.Length;

    // CASE: a getter returning what a helper creates on every path gives a new object.
    public static long ReadCreated(ScopedFiles f) => f.Created.Length; // expect: RLC0001
}

public static class Registry
{
    private static readonly System.Collections.Generic.Dictionary<string, Stream> Entries = new();

    public static Stream? Find(string key) => Entries.TryGetValue(key, out var s) ? s : null;
}
