// Recovery suite: [CreatesMustCallFor("this")] (beyond the paper) on methods that store a
// new resource into a non-readonly owning field of `this`, and on methods that call such a
// method on `this`. Every RlcSharp attribute here must be inferred back from the stripped
// twin, and nothing else.
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Infer.CreatesMustCallFor;

public sealed class Connection : IDisposable
{
    // owning-field: Dispose and Close dispose it.
    [Owning]
    private Stream _stream;
    private readonly string _path;

    // Constructors are exempt: the first assignment is the object's own obligation.
    public Connection(string path)
    {
        _path = path;
        _stream = File.OpenRead(path);
    }

    public int Read() => _stream.ReadByte();

    // creates-must-call-for: reassigns the owning field.
    [CreatesMustCallFor("this")]
    public void Reopen()
    {
        _stream.Dispose();
        _stream = File.OpenRead(_path);
    }

    // creates-must-call-for-callee: calls Reopen on `this`.
    [CreatesMustCallFor("this")]
    public void Reset()
    {
        Reopen();
    }

    // ... and transitively.
    [CreatesMustCallFor("this")]
    public void ResetTwice(bool twice)
    {
        Reset();
        if (twice)
        {
            Reset();
        }
    }

    // Storing null creates nothing; disposing first makes it a [Calls].
    [Calls("this._stream", "Dispose")]
    public void Close()
    {
        _stream?.Dispose();
        _stream = null;
    }

    [Calls("this._stream", "Dispose")]
    public void Dispose()
    {
        _stream.Dispose();
    }
}

public static class Clients
{
    // Calling Reopen on another object is not a call on `this`: nothing to infer.
    public static void Refresh(Connection c)
    {
        c.Reopen();
    }
}

// An NUnit-style fixture: SetUp assigns what TearDown disposes, so the class's
// must-call method is TearDown (must-call-class) and SetUp re-creates it.
[MustCall("TearDown")]
public sealed class ReaderTests
{
    [Owning]
    private StreamReader _reader;

    [CreatesMustCallFor("this")]
    public void SetUp()
    {
        _reader = new StreamReader(new MemoryStream(new byte[] { 1, 2, 3 }));
    }

    [Calls("this._reader", "Dispose")]
    public void TearDown()
    {
        _reader.Dispose();
    }

    public void ReadsALine()
    {
        _reader.ReadLine();
    }
}

// A reset that assigns an owning field from its parameter.
public sealed class Tokenizer : IDisposable
{
    [Owning]
    private TextReader _input;

    // must-call-alias-constructor
    [MustCallAlias]
    public Tokenizer([MustCallAlias] TextReader input)
    {
        _input = input;
    }

    // owning-param-stored: the tokenizer keeps and later disposes the reader.
    [CreatesMustCallFor("this")]
    public void YyReset([Owning] TextReader reader)
    {
        _input = reader;
    }

    [Calls("this._input", "Dispose")]
    public void Dispose()
    {
        _input.Dispose();
    }
}
