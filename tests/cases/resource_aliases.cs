// Case family: resource aliases the user declares with [MustCallAlias] (paper section 4):
// wrapper classes and pass-through methods, verified (section 4.3) and not verified, and
// their callers.
// cases: 17
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Cases.ResourceAliases;

// CASE: a wrapper whose constructor stores its [MustCallAlias] parameter in its owning
// field: verified.
public sealed class LineReader : IDisposable
{
    [Owning] private readonly Stream _inner;

    [MustCallAlias]
    public LineReader([MustCallAlias] Stream inner)
    {
        _inner = inner;
    }

    public int Next() => _inner.ReadByte();

    [Calls("_inner", "Dispose")]
    public void Dispose() => _inner.Dispose();
}

// CASE: a [MustCallAlias] constructor that chains to another one with this(..).
public sealed class BufferedLineReader : IDisposable
{
    [Owning] private readonly Stream _inner;
    private readonly int _size;

    [MustCallAlias]
    public BufferedLineReader([MustCallAlias] Stream inner) : this(inner, 4096)
    {
    }

    [MustCallAlias]
    public BufferedLineReader([MustCallAlias] Stream inner, int size)
    {
        _inner = inner;
        _size = size;
    }

    public int Size => _size;

    [Calls("_inner", "Dispose")]
    public void Dispose() => _inner.Dispose();
}

// CASE: a [MustCallAlias] constructor that passes its parameter to base(..) in a
// [MustCallAlias] position.
public sealed class CountingReader : StreamReader
{
    private int _lines;

    [MustCallAlias]
    public CountingReader([MustCallAlias] Stream inner) : base(inner)
    {
    }

    public override string ReadLine()
    {
        _lines++;
        return base.ReadLine();
    }

    public int Lines => _lines;
}

// CASE: a [MustCallAlias] constructor that keeps its parameter in a non-owning field:
// not verified.
public sealed class KeepsInNonOwningField
{
    private readonly Stream _inner;

    [MustCallAlias]
    public KeepsInNonOwningField([MustCallAlias] Stream inner) // expect: RLC0007
    {
        _inner = inner;
    }

    public int Next() => _inner.ReadByte();
}

// CASE: a [MustCallAlias] constructor that does not keep its parameter at all.
public sealed class DropsParameter : IDisposable
{
    [Owning] private readonly Stream _inner;

    [MustCallAlias]
    public DropsParameter([MustCallAlias] Stream inner) // expect: RLC0007
    {
        _inner = new MemoryStream();
        inner.Flush();
    }

    [Calls("_inner", "Dispose")]
    public void Dispose() => _inner.Dispose();
}

// CASE: a [MustCallAlias] constructor that keeps its parameter on one path only.
public sealed class KeepsSometimes : IDisposable
{
    [Owning] private readonly Stream _inner;

    [MustCallAlias]
    public KeepsSometimes([MustCallAlias] Stream inner, bool buffered) // expect: RLC0007
    {
        _inner = buffered ? new MemoryStream() : inner;
    }

    [Calls("_inner", "Dispose")]
    public void Dispose() => _inner.Dispose();
}

public static class AliasMethods
{
    // CASE: a [MustCallAlias] method that passes its parameter to a BCL wrapper
    // constructor and returns the wrapper: verified.
    [MustCallAlias]
    public static Stream Buffer([MustCallAlias] Stream inner)
    {
        return new BufferedStream(inner);
    }

    // CASE: a [MustCallAlias] method that returns its parameter unchanged: verified.
    [MustCallAlias]
    public static Stream Identity([MustCallAlias] Stream inner) => inner;

    // CASE: a [MustCallAlias] method that returns something else: not verified.
    [MustCallAlias]
    public static Stream NotAnAlias([MustCallAlias] Stream inner) // expect: RLC0007
    {
        inner.Flush();
        return new MemoryStream();
    }
}

public static class Callers
{
    // CASE: the wrapper over a fresh file stream, disposed.
    public static int WrapperDisposed(string path)
    {
        using var reader = new LineReader(File.OpenRead(path));
        return reader.Next();
    }

    // CASE: the wrapper over a fresh file stream, never disposed: one report.
    public static int WrapperLeaked(string path)
    {
        var reader = new LineReader(File.OpenRead(path)); // expect: RLC0001
        return reader.Next();
    }

    // CASE: the wrapper over a MemoryStream has no obligation.
    public static int WrapperOverMemory(byte[] data)
    {
        var reader = new LineReader(new MemoryStream(data));
        return reader.Next();
    }

    // CASE: disposing the wrapped stream discharges the wrapper too.
    public static int DisposeWrappedStream(string path)
    {
        var fs = File.OpenRead(path);
        var reader = new LineReader(fs);
        var b = reader.Next();
        fs.Dispose();
        return b;
    }

    // CASE: the this(..)-chained wrapper, disposed.
    public static int ChainedConstructorDisposed(string path)
    {
        using var reader = new BufferedLineReader(File.OpenRead(path));
        return reader.Size;
    }

    // CASE: the base(..)-chained wrapper, disposed through the wrapped stream.
    public static string BaseChainedDisposedThroughInner(string path)
    {
        var fs = File.OpenRead(path);
        var reader = new CountingReader(fs);
        var line = reader.ReadLine();
        fs.Dispose();
        return line;
    }

    // CASE: pass-through methods keep the alias: disposing the result disposes the file.
    public static void PassThroughDisposed(string path)
    {
        var fs = File.OpenRead(path);
        var buffered = AliasMethods.Buffer(AliasMethods.Identity(fs));
        buffered.ReadByte();
        buffered.Dispose();
    }

    // CASE: a pass-through over a MemoryStream has no obligation.
    public static int PassThroughOverMemory(byte[] data)
    {
        var s = AliasMethods.Buffer(new MemoryStream(data));
        return s.ReadByte();
    }
}
