// rlc-case: infer
// Case family: C# 12 primary constructors. A parameter that a member body uses (not
// only a field or property initializer, or the base call) is captured: the compiler
// keeps it in a private field of the parameter's name, assigned at construction, and so
// does the checker. The field then follows the rules of `fields_owning.cs` and
// `inference.cs`: a class that disposes it owns it, so the constructor's parameter takes
// the argument and the creator has nothing left to dispose; a class whose must-call
// method forgets it is reported at the parameter (the captured field has no declaration
// of its own). A parameter used only by initializers is not captured: it is an ordinary
// constructor parameter. Records turn their parameters into properties instead.
// cases: 10
using System;
using System.IO;

namespace Cases.PrimaryConstructors;

// CASE: a class that captures the parameter and disposes it takes the caller's stream.
public sealed class Holder(IDisposable inner) : IDisposable
{
    public void Dispose() => inner.Dispose();
}

// CASE: a readonly struct capturing one parameter and exposing another through a
// property initializer: it owns the captured one, so each argument goes where it is kept.
public readonly struct Handle(Stream body, IDisposable owner) : IDisposable
{
    public Stream Body { get; } = body;

    public void Dispose() => owner.Dispose();
}

// CASE: a class whose `Close` disposes its captured parameter but whose `Dispose`
// forgets it: the field is owning, and the must-call method that misses it is reported
// at the parameter.
public sealed class ClosesOnly(Stream data) : IDisposable // expect: RLC0003
{
    public int Next() => data.ReadByte();

    public void Close() => data.Dispose();

    public void Dispose()
    {
    }
}

// CASE: a class that captures a stream but is not disposable and never disposes it does
// not own it: the creator keeps the obligation.
public sealed class Counter(Stream source)
{
    public int Next() => source.ReadByte();
}

// CASE: a parameter read only by a property initializer is not captured: the object
// keeps only the length, and the stream stays the creator's.
public sealed class Sized(Stream body)
{
    public long Length { get; } = body.Length;
}

// CASE: a parameter stored by a field initializer into a field the class disposes: the
// field is an ordinary owning field.
public sealed class Initialized(Stream body) : IDisposable
{
    private readonly Stream _body = body;

    public void Dispose() => _body.Dispose();
}

// CASE: a positional record: its parameter is a property, not a captured field.
public sealed record Envelope(Stream Payload) : IDisposable
{
    public void Dispose() => Payload.Dispose();
}

public static class Creators
{
    // CASE: ownership moves into the holder and the struct (each argument where it is
    // kept); the record, the initialized field and `ClosesOnly` (whose own fault is
    // reported at its parameter) take theirs as well.
    public static IDisposable Open(string path) => new Holder(File.OpenRead(path));

    public static Handle OpenHandle(string path, Stream body) => new Handle(body, File.OpenRead(path));

    public static Envelope Wrap(string path) => new Envelope(File.OpenRead(path));

    public static Initialized Init(string path) => new Initialized(File.OpenRead(path));

    public static ClosesOnly Closing(string path) => new ClosesOnly(File.OpenRead(path));

    // CASE: a counter that never disposes what it captured leaves the stream to the
    // creator, which forgets it.
    public static int FirstByte(string path)
    {
        var counter = new Counter(File.OpenRead(path)); // expect: RLC0001
        return counter.Next();
    }

    // CASE: the sized object does not keep the stream, so returning it loses the stream.
    public static Sized Measure(string path) => new Sized(File.OpenRead(path)); // expect: RLC0001
}
