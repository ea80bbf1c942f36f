// Case family: owning and non-owning fields (paper section 3.2): [Owning] fields need a
// must-call method whose [Calls] covers them; storing into a non-owning field does not
// discharge; field initializers; static fields (never owning).
// cases: 22
using System;
using System.IO;
using System.Net.Http;
using RlcSharp.Annotations;

namespace Cases.FieldsOwning;

// CASE: readonly owning field assigned in the constructor, disposed by a verified Dispose.
public sealed class OwnsReadonlyField : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public OwnsReadonlyField(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose() => _fs.Dispose();
}

// CASE: owning field whose Dispose disposes it but does not declare [Calls]: the class
// check verifies the must-call method's body itself, so no [Calls] is needed.
public sealed class DisposeWithoutCalls : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public DisposeWithoutCalls(string path)
    {
        _fs = File.OpenRead(path);
    }

    public void Dispose() => _fs.Dispose();
}

// CASE: owning field in a class that has no must-call method at all.
public sealed class NoDisposeMethod
{
    [Owning] private readonly FileStream _fs; // expect: RLC0003

    public NoDisposeMethod(string path)
    {
        _fs = File.OpenRead(path);
    }

    public int Peek() => _fs.ReadByte();
}

// CASE: a Close() with [Calls] is not a must-call method unless the class says so.
public sealed class CloseWithoutMustCall
{
    [Owning] private readonly FileStream _fs; // expect: RLC0003

    public CloseWithoutMustCall(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Close() => _fs.Dispose();
}

// CASE: [MustCall("Close")] makes Close() the class's must-call method.
[MustCall("Close")]
public sealed class CloseWithMustCall
{
    [Owning] private readonly FileStream _fs;

    public CloseWithMustCall(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Close() => _fs.Dispose();
}

// CASE: two owning fields; Dispose declares [Calls] for only one of them, but its body
// disposes both, which the class check verifies.
public sealed class TwoFieldsOneCovered : IDisposable
{
    [Owning] private readonly FileStream _input;
    [Owning] private readonly FileStream _output;

    public TwoFieldsOneCovered(string from, string to)
    {
        _input = File.OpenRead(from);
        _output = File.Create(to);
    }

    [Calls("_input", "Dispose")]
    public void Dispose()
    {
        _input.Dispose();
        _output.Dispose();
    }
}

// CASE: two owning fields, both covered.
public sealed class TwoFieldsCovered : IDisposable
{
    [Owning] private readonly FileStream _input;
    [Owning] private readonly FileStream _output;

    public TwoFieldsCovered(string from, string to)
    {
        _input = File.OpenRead(from);
        _output = File.Create(to);
    }

    [Calls("_input", "Dispose")]
    [Calls("_output", "Dispose")]
    public void Dispose()
    {
        _input.Dispose();
        _output.Dispose();
    }
}

// CASE: storing a fresh resource into a non-owning field does not discharge it, even
// though Dispose() disposes the field.
public sealed class NonOwningFieldStore : IDisposable
{
    private readonly FileStream _fs;

    public NonOwningFieldStore(string path)
    {
        _fs = File.OpenRead(path); // expect: RLC0001
    }

    public void Dispose() => _fs.Dispose();
}

// CASE: a non-owning field that borrows a parameter: nothing to dispose here.
public sealed class BorrowsStream
{
    private readonly Stream _stream;

    public BorrowsStream(Stream stream)
    {
        _stream = stream;
    }

    public int Next() => _stream.ReadByte();
}

// CASE: an owning field initializer, disposed by a verified Dispose.
public sealed class OwningFieldInitializer : IDisposable
{
    [Owning] private readonly FileStream _log = new FileStream("app.log", FileMode.Append);

    public void Write(byte b) => _log.WriteByte(b);

    [Calls("_log", "Dispose")]
    public void Dispose() => _log.Dispose();
}

// CASE: a non-owning field initializer leaks its resource.
public sealed class NonOwningFieldInitializer
{
    private readonly FileStream _log = new FileStream("app.log", FileMode.Append); // expect: RLC0001

    public void Write(byte b) => _log.WriteByte(b);
}

// CASE: an owning field whose type holds no resource (MemoryStream) needs no disposal.
public sealed class OwningResourceFreeField
{
    [Owning] private readonly MemoryStream _buffer = new MemoryStream();

    public void Append(byte b) => _buffer.WriteByte(b);
}

// CASE: an owning field typed as an interface, filled from an [Owning] constructor parameter.
public sealed class OwningInterfaceField : IDisposable
{
    [Owning] private readonly IDisposable _inner;

    public OwningInterfaceField([Owning] IDisposable inner)
    {
        _inner = inner;
    }

    [Calls("_inner", "Dispose")]
    public void Dispose() => _inner.Dispose();
}

// CASE: Dispose declares [Calls] for the owning field but does not call it.
public sealed class CallsNotKept : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public CallsNotKept(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose() // expect: RLC0006
    {
        _fs.Flush();
    }
}

// CASE: a static readonly field initialised with a resource: static fields are never
// owning, but a value stored in one lives as long as the program (the shared
// `static readonly HttpClient` idiom), so it is not reported.
public static class StaticSharedClient
{
    private static readonly HttpClient Client = new HttpClient();

    public static HttpClient Instance => Client;
}

// CASE: a static field filled lazily in a method: kept for the program's lifetime too.
public static class StaticLazyLog
{
    private static Stream s_log;

    public static void Write(byte b)
    {
        if (s_log == null)
        {
            s_log = File.OpenWrite("static.log");
        }
        s_log.WriteByte(b);
    }
}

// CASE: a static field holding a value with no obligation is fine.
public static class StaticBuffer
{
    private static readonly MemoryStream Buffer = new MemoryStream();

    public static long Size => Buffer.Length;
}

// CASE: an owning field that is disposed through a local alias of the field.
public sealed class DisposeThroughLocalAlias : IDisposable
{
    [Owning] private readonly FileStream _fs;

    public DisposeThroughLocalAlias(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "Dispose")]
    public void Dispose()
    {
        var f = _fs;
        f.Dispose();
    }
}

// CASE: a field created only in one mode, and disposed under the same mode flag.
public sealed class CreatedOnlyInOneMode : IDisposable
{
    [Owning] private Stream _log;
    private readonly bool _manual;

    public CreatedOnlyInOneMode(bool manual, string path)
    {
        _manual = manual;
        if (!manual)
            _log = File.OpenRead(path);
    }

    public void Dispose()
    {
        if (!_manual)
            _log.Dispose();
    }
}

// CASE: the mode flag does not say the field is empty when the other mode creates it too.
public sealed class CreatedInBothModes : IDisposable
{
    [Owning] private Stream _log; // expect: RLC0003
    private readonly bool _manual;

    public CreatedInBothModes(bool manual, string path)
    {
        _manual = manual;
        _log = manual ? File.OpenRead(path + ".m") : File.OpenRead(path);
    }

    public void Dispose()
    {
        if (!_manual)
            _log.Dispose();
    }
}

// CASE: a field filled only together with another, so a disposal that returns
// early when the other is null owes nothing there.
public sealed class ReturnsEarlyOnEmptyGuard : IDisposable
{
    [Owning] private readonly Stream _primary;
    [Owning] private readonly Stream _secondary;

    public ReturnsEarlyOnEmptyGuard() { }

    public ReturnsEarlyOnEmptyGuard(string path)
    {
        _primary = File.OpenRead(path);
        _secondary = File.OpenRead(path + ".idx");
    }

    public void Dispose()
    {
        if (_primary == null)
            return;
        _secondary.Dispose();
        _primary.Dispose();
    }
}

// CASE: an early return on a field that does not guard the other: the other may leak.
public sealed class ReturnsEarlyOnUnrelatedField : IDisposable
{
    [Owning] private readonly Stream _primary;
    [Owning] private readonly Stream _secondary; // expect: RLC0003

    public ReturnsEarlyOnUnrelatedField(string path, bool withPrimary)
    {
        if (withPrimary)
            _primary = File.OpenRead(path);
        _secondary = File.OpenRead(path + ".idx");
    }

    public void Dispose()
    {
        if (_primary == null)
            return;
        _secondary.Dispose();
        _primary.Dispose();
    }
}
