// rlc-case: infer
// Case family: `out` parameters that lend. A method that fills its `out` parameter only
// with values it does not own (a field, an element of a collection, the out value of a
// not-owning call such as TryGetValue, a not-owning result, null) is inferred
// [NotOwning] on that parameter, as the library's TryGetValue is: the caller borrows
// what it receives. A type parameter or `object` qualifies when the value is forwarded
// from elsewhere (`value = (T)o`); a recursive lookup (`parent.TryGet(key, out value)`)
// lends what the method lends. One fresh resource on some path keeps the parameter
// owning, and an interface's lends only when every implementation's does.
// cases: 10
using System;
using System.Collections.Generic;
using System.IO;

namespace Cases.BorrowedOuts;

// CASE: a bag whose TryGet passes the dictionary's not-owning out on: the caller borrows.
public sealed class StreamBag : IDisposable
{
    private readonly Dictionary<string, Stream> _items = new();

    public void Add(string key, Stream stream) => _items.Add(key, stream);

    public bool TryGet(string key, out Stream stream) => _items.TryGetValue(key, out stream);

    public int Peek(string key) => TryGet(key, out var s) ? s.ReadByte() : -1;

    public void Dispose()
    {
        foreach (var s in _items.Values)
        {
            s.Dispose();
        }
    }
}

// CASE: a registry's Get fills its out from an indexer read or a field: the caller borrows.
public sealed class ReaderRegistry : IDisposable
{
    private readonly Dictionary<int, TextReader> _readers = new();
    private readonly TextReader _fallback = new StreamReader("fallback.txt");

    public void Get(int id, out TextReader reader)
    {
        if (_readers.ContainsKey(id))
        {
            reader = _readers[id];
            return;
        }
        reader = _fallback;
    }

    public static string FirstLine(ReaderRegistry registry, int id)
    {
        registry.Get(id, out var reader);
        return reader.ReadLine();
    }

    public void Dispose()
    {
        _fallback.Dispose();
        foreach (var r in _readers.Values)
        {
            r.Dispose();
        }
    }
}

// CASE: a generic TryGet<T> casts an element of an `object` dictionary: a type parameter
// says nothing, but the value is forwarded from the container, so `out T` lends.
public sealed class ContextBag
{
    private readonly Dictionary<Type, object> _entries = new();

    public void Set<T>(T value) where T : class => _entries[typeof(T)] = value;

    public bool TryGet<T>(out T value) where T : class
    {
        if (_entries.TryGetValue(typeof(T), out var entry))
        {
            value = (T)entry;
            return true;
        }
        value = null!;
        return false;
    }

    public static long Length(ContextBag bag) => bag.TryGet<Stream>(out var s) ? s.Length : -1;
}

// CASE: a bag that asks its parent for what it lacks (a recursive lookup) lends too:
// the recursive call's out lends what the method lends.
public sealed class ScopedBag
{
    private readonly Dictionary<string, object> _items = new();
    private readonly ScopedBag _parent;

    public ScopedBag(ScopedBag parent) => _parent = parent;

    public void Set(string key, object value) => _items[key] = value;

    public bool TryGet<T>(string key, out T value)
    {
        if (_items.TryGetValue(key, out var item))
        {
            value = (T)item;
            return true;
        }
        if (_parent != null)
        {
            return _parent.TryGet(key, out value);
        }
        value = default;
        return false;
    }

    public static int Peek(ScopedBag bag) => bag.TryGet<Stream>("in", out var s) ? s.ReadByte() : -1;
}

// CASE: an out filled from a not-owning result (the cache's getter) lends too.
public sealed class CurrentLog : IDisposable
{
    private readonly Stream _log = File.OpenWrite("current.log");

    private Stream Current() => _log;

    public bool TryCurrent(out Stream log)
    {
        log = Current();
        return log.CanWrite;
    }

    public void Touch()
    {
        if (TryCurrent(out var log))
        {
            log.WriteByte(0);
        }
    }

    public void Dispose() => _log.Dispose();
}

// CASE: an out that is a cached stream on one path and a fresh one on another stays
// owning: the caller that drops it leaks.
public sealed class OpenOrCached : IDisposable
{
    private readonly Dictionary<string, Stream> _cache = new();

    public bool TryOpen(string path, out Stream stream)
    {
        if (_cache.TryGetValue(path, out stream))
        {
            return true;
        }
        stream = File.OpenRead(path);
        return false;
    }

    public int First(string path)
    {
        TryOpen(path, out var s); // expect: RLC0001
        return s.ReadByte();
    }

    public void Dispose()
    {
        foreach (var s in _cache.Values)
        {
            s.Dispose();
        }
    }
}

public interface IStreamSource
{
    bool TryGet(string key, out Stream stream);
}

public sealed class MapSource : IStreamSource, IDisposable
{
    private readonly Dictionary<string, Stream> _map = new();

    public bool TryGet(string key, out Stream stream) => _map.TryGetValue(key, out stream);

    public void Dispose()
    {
        foreach (var s in _map.Values)
        {
            s.Dispose();
        }
    }
}

public sealed class SingleSource : IStreamSource, IDisposable
{
    private readonly Stream _only = File.OpenRead("only.bin");

    public bool TryGet(string key, out Stream stream)
    {
        stream = key == "only" ? _only : null;
        return stream != null;
    }

    public void Dispose() => _only.Dispose();
}

public static class Sources
{
    // CASE: an interface TryGet whose two implementations both lend: a call through the
    // interface borrows.
    public static int Peek(IStreamSource source, string key) =>
        source.TryGet(key, out var s) ? s.ReadByte() : -1;

    // CASE: a caller of a method that hands out a fresh stream through `out` owns it
    // and leaks it.
    public static int Leak(string path)
    {
        Opener.Open(path, out var reader); // expect: RLC0001
        return reader.Read();
    }

    // CASE: the same caller disposing it is fine.
    public static int NoLeak(string path)
    {
        Opener.Open(path, out var reader);
        using (reader)
        {
            return reader.Read();
        }
    }
}

public static class Opener
{
    public static void Open(string path, out StreamReader reader)
    {
        reader = new StreamReader(path);
    }
}

public interface IOpener
{
    bool TryGet(string key, out Stream stream);
}

public sealed class CachedOpener : IOpener, IDisposable
{
    private readonly Stream _cached = File.OpenRead("cached.bin");

    public bool TryGet(string key, out Stream stream)
    {
        stream = _cached;
        return true;
    }

    public void Dispose() => _cached.Dispose();
}

public sealed class FreshOpener : IOpener
{
    public bool TryGet(string key, out Stream stream)
    {
        stream = File.OpenRead(key);
        return true;
    }
}

public static class Openers
{
    // CASE: an interface TryGet with one implementation that opens a fresh stream stays
    // owning: a call through the interface that drops the stream leaks.
    public static int Peek(IOpener opener, string key) =>
        opener.TryGet(key, out var s) ? s.ReadByte() : -1; // expect: RLC0001
}
