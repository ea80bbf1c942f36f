// Recovery suite: phase-1 rules on parameters and fields, phase-2 rules on
// constructors, methods and getters. Every RlcSharp attribute here must be
// inferred back from the stripped twin, and nothing else.
using System;
using System.IO;
using RlcSharp.Annotations;

namespace Infer.ParamsAndFields;

public static class Helpers
{
    // owning-param-disposed: the helper disposes its parameter (on one path is enough).
    public static void CloseQuietly([Owning] Stream s)
    {
        try
        {
            s.Dispose();
        }
        catch (IOException)
        {
        }
    }

    // owning-param-passed: handed on to an [Owning] parameter.
    public static void Finish([Owning] Stream s, bool flush)
    {
        if (flush)
        {
            s.Flush();
        }
        CloseQuietly(s);
    }

    // Only reads: stays not owning.
    public static int Peek(Stream s) => s.ReadByte();

    // must-call-alias-method: always returns a wrapper of its parameter.
    [MustCallAlias]
    public static Stream Buffered([MustCallAlias] Stream inner)
    {
        return new BufferedStream(inner);
    }
}

// must-call-class on a class that is not IDisposable: Close disposes its owning field.
[MustCall("Close")]
public sealed class LogSink
{
    // owning-field: Close disposes it.
    [Owning]
    private readonly StreamWriter _writer;

    public LogSink(string path)
    {
        _writer = new StreamWriter(path);
    }

    public void Write(string line) => _writer.WriteLine(line);

    // calls-field-disposed
    [Calls("this._writer", "Dispose")]
    public void Close()
    {
        _writer.Dispose();
    }
}

// Two owning fields: the constructor parameters are owning (owning-constructor-param).
public sealed class Archive : IDisposable
{
    [Owning]
    private readonly Stream _data;
    [Owning]
    private readonly Stream _index;

    public Archive([Owning] Stream data, [Owning] Stream index)
    {
        _data = data;
        _index = index;
    }

    [Calls("this._data", "Dispose")]
    [Calls("this._index", "Dispose")]
    public void Dispose()
    {
        _data.Dispose();
        _index.Dispose();
    }
}

// One owning field always set from the parameter: a resource alias (must-call-alias-constructor),
// a disposal through a private helper with [Calls], and a getter returning the field (not-owning-getter).
public sealed class Channel : IDisposable
{
    [Owning]
    private readonly Stream _stream;

    [MustCallAlias]
    public Channel([MustCallAlias] Stream stream)
    {
        _stream = stream;
    }

    [return: NotOwning]
    public Stream GetStream()
    {
        return _stream;
    }

    // A property getter is not owning by default: nothing to infer.
    public Stream Stream => _stream;

    [Calls("this._stream", "Dispose")]
    private void Shutdown()
    {
        _stream?.Dispose();
    }

    [Calls("this._stream", "Dispose")]
    public void Dispose()
    {
        Shutdown();
    }
}

// A constructor that passes its parameter to a [MustCallAlias] base constructor
// (must-call-alias-chained).
public class Wrapper : IDisposable
{
    [Owning]
    protected readonly Stream Inner;

    [MustCallAlias]
    public Wrapper([MustCallAlias] Stream inner)
    {
        Inner = inner;
    }

    [Calls("this.Inner", "Dispose")]
    public virtual void Dispose()
    {
        Inner.Dispose();
    }
}

public sealed class CountingWrapper : Wrapper
{
    public int Count;

    [MustCallAlias]
    public CountingWrapper([MustCallAlias] Stream inner) : base(inner)
    {
    }
}

// A field reassigned after disposal gets no [Calls]: Reset is not a disposal method. The
// class stores streams it opened in the field, so the field is owning (rule
// `owning-field-created`), and Reset, which replaces it, creates a new obligation.
public sealed class Rotating
{
    [Owning]
    private Stream _current;

    public Rotating(string path)
    {
        _current = File.OpenRead(path);
    }

    [CreatesMustCallFor("this")]
    public void Reset(string path)
    {
        _current.Dispose();
        _current = File.OpenRead(path);
    }
}

// no-obligation: IDisposable only for `using` syntax; Dispose releases nothing.
[MustCall]
public sealed class IndentScope : IDisposable
{
    private static int _depth;

    public IndentScope()
    {
        _depth++;
    }

    public static int Depth => _depth;

    public void Dispose()
    {
        _depth--;
    }
}

// Not no-obligation: Dispose disposes a field it owns. A MemoryStream holds no resource,
// so disposing it proves nothing; the stream parameter is stored only on one path.
public sealed class Holder : IDisposable
{
    private readonly MemoryStream _buffer = new MemoryStream();
    [Owning]
    private readonly Stream _file;

    public Holder([Owning] Stream file, bool keep)
    {
        if (keep)
        {
            _file = file;
        }
        else
        {
            file.Dispose();
        }
    }

    [Calls("this._file", "Dispose")]
    public void Dispose()
    {
        _file?.Dispose();
        _buffer.Dispose();
    }
}

// A disposal helper over a `params` array (Lucene.Net's IOUtils.Dispose): its elements
// are the caller's arguments, so the array parameter is owning, and a class that hands
// its fields to it disposes them.
public static class DisposeAll
{
    // owning-param-elements: it disposes the elements of the params array.
    public static void Quietly([Owning] params IDisposable[] resources)
    {
        foreach (var r in resources)
        {
            try
            {
                r?.Dispose();
            }
            catch (IOException)
            {
            }
        }
    }
}

public sealed class IndexFiles : IDisposable
{
    // owning-field: Dispose hands it to an [Owning] parameter.
    [Owning]
    private readonly Stream _data = File.OpenWrite("index.dat");
    [Owning]
    private readonly Stream _index = File.OpenWrite("index.idx");

    [Calls("this._data", "Dispose")]
    [Calls("this._index", "Dispose")]
    public void Dispose() => DisposeAll.Quietly(_data, _index);
}

// no-obligation through a library interface that only extends IDisposable
// (Microsoft.Extensions.Logging's ILoggerFactory in EF Core's tests: a Dispose that
// sets a flag).
[MustCall]
public sealed class CountingEnumerator : System.Collections.Generic.IEnumerator<int>
{
    private bool _disposed;

    public int Current { get; private set; }

    object System.Collections.IEnumerator.Current => Current;

    public bool MoveNext()
    {
        Current++;
        return !_disposed && Current < 10;
    }

    public void Reset() => Current = 0;

    public void Dispose() => _disposed = true;
}
