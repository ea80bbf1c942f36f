// rlc-case: infer
// Case family: fields that hold a resource the class created itself (rule
// `owning-field-created`). The object holds it and nobody else has it, so the field is
// owning: a class that never disposes it is reported once at the field (RLC0003), not
// at every allocation; a lazily created value (`??=`, `if (f == null)`) fills the
// object's own slot and needs no `[CreatesMustCallFor]`.
// cases: 9
using System;
using System.IO;

namespace Cases.FieldsCreated;

// CASE: a class that is not disposable keeps a stream it opened.
public sealed class NotDisposable
{
    private readonly Stream _log = File.OpenRead("log.txt"); // expect: RLC0003

    public int Next() => _log.ReadByte();
}

// CASE: a disposable class whose `Dispose` forgets the field created in its constructor.
public sealed class Forgets : IDisposable
{
    private readonly Stream _data; // expect: RLC0003

    public Forgets(string path)
    {
        _data = File.OpenRead(path);
    }

    public void Dispose()
    {
    }
}

// CASE: a disposable class that disposes what it created: nothing to report.
public sealed class Disposes : IDisposable
{
    private readonly Stream _data;

    public Disposes(string path)
    {
        _data = File.OpenRead(path);
    }

    public void Dispose() => _data.Dispose();
}

// CASE: an idempotent disposal (`if (_disposed) return; ... _disposed = true;`) disposes
// the field on its first call, which is what it promises: nothing to report.
public sealed class Idempotent : IDisposable
{
    private readonly Stream _data;
    private bool _disposed;

    public Idempotent(string path)
    {
        _data = File.OpenRead(path);
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }
        _data.Dispose();
        _disposed = true;
    }
}

// CASE: a field given by the caller stays the caller's (not owning): nothing to report.
public sealed class Borrows
{
    private readonly Stream _data;

    public Borrows(Stream data)
    {
        _data = data;
    }

    public int Next() => _data.ReadByte();
}

public sealed class Lazy : IDisposable
{
    private readonly string _path;
    private Stream? _cached;
    private Stream? _other;

    public Lazy(string path)
    {
        _path = path;
    }

    // CASE: a lazily created value in a getter (`??=`) needs no `[CreatesMustCallFor]`.
    public Stream Cached => _cached ??= File.OpenRead(_path);

    // CASE: the same with an explicit null check.
    public Stream Other
    {
        get
        {
            if (_other == null)
            {
                _other = File.OpenRead(_path);
            }
            return _other;
        }
    }

    // CASE: replacing the value unconditionally does give the object a new obligation:
    // inference proposes `[CreatesMustCallFor("this")]`, so a caller that reopens a
    // disposed object must dispose it again.
    public void Reopen()
    {
        _cached?.Dispose();
        _cached = File.OpenRead(_path);
    }

    public void Dispose()
    {
        _cached?.Dispose();
        _other?.Dispose();
    }
}

public static class Discards
{
    public static void ReopenAfterDispose(string path)
    {
        var lazy = new Lazy(path);
        lazy.Dispose();
        lazy.Reopen(); // expect: RLC0001
    }

    // CASE: a resource received through a discarded `out` argument is lost at once.
    public static bool Probe(string path) => TryOpen(path, out _); // expect: RLC0001

    private static bool TryOpen(string path, out Stream stream)
    {
        stream = File.OpenRead(path);
        return true;
    }
}
