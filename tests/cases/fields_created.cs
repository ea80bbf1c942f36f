// rlc-case: infer
// Case family: fields that hold a resource the class created itself (rule
// `owning-field-created`). The object holds it and nobody else has it, so the field is
// owning: a class that never disposes it is reported once at the field (RLC0003), not
// at every allocation; a lazily created value (`??=`, `if (f == null)`) fills the
// object's own slot and needs no `[CreatesMustCallFor]`. A field passed as an `out`
// argument is assigned by the call. A field only ever given values the class cannot
// own (another object's member) is not owning, even where a method releases it; nor is
// one the method that stores a new value disposes again (`using (_out = ..) { .. }`),
// nor one a method also returns on every path (`return Current = new Tx(this);`) when
// something else clears it without disposing it (the transaction, a disposal callback):
// the caller owns the value and the field only tracks it; so does one whose value the
// class hands to an owner right after storing it. A field nothing lets go, or
// one a method returns also when it did not create it (a cache), keeps its value.
// cases: 37
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

// CASE: the same with an integer flag set atomically (`Interlocked.Exchange`,
// `Interlocked.CompareExchange`) or plainly.
public sealed class IdempotentAtomic : IDisposable
{
    private readonly Stream _data;
    private int _disposed;

    public IdempotentAtomic(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (System.Threading.Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: the flag compared with the value it is set to (`== 1`): false on the first call.
public sealed class IdempotentComparedWithOne : IDisposable
{
    private readonly Stream _data;
    private int _disposed;

    public IdempotentComparedWithOne(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (System.Threading.Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: a flag test that says nothing on the first call (`_state == 1` where another
// method sets `_state`): the early return may skip the disposal.
public sealed class StateComparedWithOne : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private int _state;

    public StateComparedWithOne(string path) => _data = File.OpenRead(path);

    public void Pause() => _state = 1;

    public void Dispose()
    {
        if (_state == 1)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: the guard spelled as a constant pattern (`is 1`, `is not 0`) means what the
// comparison means: false on the first call, so both fields are disposed.
public sealed class IdempotentConstantPattern : IDisposable
{
    private readonly Stream _index;
    private readonly Stream _pages;
    private int _released;
    private int _closed;

    public IdempotentConstantPattern(string path)
    {
        _index = File.OpenRead(path + ".idx");
        _pages = File.OpenRead(path);
    }

    public void Dispose()
    {
        if (System.Threading.Interlocked.Exchange(ref _released, 1) is 1)
        {
            return;
        }
        _index.Dispose();
        if (System.Threading.Interlocked.Exchange(ref _closed, 1) is not 0)
        {
            return;
        }
        _pages.Dispose();
    }
}

// CASE: a `switch` on the flag's old value: `case 0:` is the first call.
public sealed class IdempotentSwitchOnFlag : IDisposable
{
    private readonly Stream _data;
    private int _state;

    public IdempotentSwitchOnFlag(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        switch (System.Threading.Interlocked.Exchange(ref _state, 2))
        {
            case 0:
                _data.Dispose();
                break;
            case 1:
                break;
        }
    }
}

// CASE: the pattern spelling of a test that says nothing on the first call
// (`_state is 1` where another method sets `_state`), and of a guard that returns on
// the first call (`is 0`): both may skip the disposal.
public sealed class StatePatternSkipsDisposal : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private readonly Stream _log; // expect: RLC0003
    private int _state;
    private int _closed;

    public StatePatternSkipsDisposal(string path)
    {
        _data = File.OpenRead(path);
        _log = File.OpenRead(path + ".log");
    }

    public void Pause() => _state = 1;

    public void Dispose()
    {
        if (System.Threading.Interlocked.Exchange(ref _closed, 1) is 0)
        {
            return;
        }
        _log.Dispose();
        if (_state is 1)
        {
            return;
        }
        _data.Dispose();
    }
}

public sealed class IdempotentCompareExchange : IDisposable
{
    private readonly Stream _data;
    private int _disposed;

    public IdempotentCompareExchange(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (System.Threading.Interlocked.CompareExchange(ref _disposed, 1, 0) != 0)
        {
            return;
        }
        _data.Dispose();
    }
}

public sealed class IdempotentIntFlag : IDisposable
{
    private readonly Stream _data;
    private int _state;

    public IdempotentIntFlag(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (_state != 0)
        {
            return;
        }
        _state = 1;
        _data.Dispose();
    }
}

// CASE: the test-and-set behind a property or method (`if (IsDisposing) return;`)
// guards the disposals as the flag itself does.
public sealed class IdempotentThroughProperty : IDisposable
{
    private readonly Stream _data;
    private int _disposing;

    public IdempotentThroughProperty(string path) => _data = File.OpenRead(path);

    private bool IsDisposing
    {
        get
        {
            if (System.Threading.Interlocked.Exchange(ref _disposing, 1) != 0)
            {
                return true;
            }
            return false;
        }
    }

    public void Dispose()
    {
        if (IsDisposing)
        {
            return;
        }
        _data.Dispose();
    }
}

public sealed class IdempotentThroughMethod : IDisposable
{
    private readonly Stream _data;
    private bool _done;

    public IdempotentThroughMethod(string path) => _data = File.OpenRead(path);

    private bool AlreadyDone()
    {
        var was = _done;
        _done = true;
        return was;
    }

    public void Dispose()
    {
        if (AlreadyDone())
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: the test-and-set in a shared static helper that takes the flag by `ref`
// (`if (!DisposeOnce.TryEnter(ref _state)) return;`), its states named constants:
// the first call gets `true`, and the disposals follow.
internal static class DisposeOnce
{
    private const long Active = default(long);
    private const long Disposed = 1;

    public static bool TryEnter(ref long state)
        => Active == System.Threading.Interlocked.CompareExchange(ref state, Disposed, Active);

    public static bool IsDisposed(ref long state)
        => System.Threading.Interlocked.Read(ref state) == Disposed;
}

public sealed class IdempotentThroughRefHelper : IDisposable
{
    private readonly Stream _data;
    private long _state;

    public IdempotentThroughRefHelper(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (!DisposeOnce.TryEnter(ref _state))
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: the same helper asked the other way round returns early on the first call:
// nothing is disposed then.
public sealed class RefHelperInverted : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private long _state;

    public RefHelperInverted(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (DisposeOnce.TryEnter(ref _state))
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: a helper that only reads the flag sets nothing: it guards nothing.
public sealed class RefHelperReadOnly : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private long _state;

    public RefHelperReadOnly(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (DisposeOnce.IsDisposed(ref _state))
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: the test's answer kept in a local first, compared with a named constant.
public sealed class IdempotentNamedConstants : IDisposable
{
    private const int Open = 0;
    private const int Closed = 1;
    private readonly Stream _data;
    private int _state;

    public IdempotentNamedConstants(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        bool first = System.Threading.Interlocked.Exchange(ref _state, Closed) == Open;
        if (!first)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: a property that only reads the flag, set nowhere, guards nothing: the field is
// never disposed once the answer is `true`.
public sealed class GuardWithoutSet : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private bool _closed;

    public GuardWithoutSet(string path) => _data = File.OpenRead(path);

    public bool IsClosed => _closed;

    public void Dispose()
    {
        if (IsClosed)
        {
            return;
        }
        _data.Dispose();
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

// CASE: a field filled through `out` by a helper, disposed by the class.
public sealed class FilledThroughOut : IDisposable
{
    private Stream _stream;
    public FilledThroughOut(string path) => Open(path, out _stream);
    private static void Open(string path, out Stream stream) => stream = File.OpenRead(path);
    public int Next() => _stream.ReadByte();
    public void Dispose() => _stream.Dispose();
}

// CASE: a field filled through `out` that the class never disposes.
public sealed class FilledThroughOutNeverDisposed : IDisposable
{
    private Stream _stream; // expect: RLC0003
    public FilledThroughOutNeverDisposed(string path) => Open(path, out _stream);
    private static void Open(string path, out Stream stream) => stream = File.OpenRead(path);
    public int Next() => _stream.ReadByte();
    public void Dispose() { }
}

// CASE: refilling the field through `out` loses the value it held.
public sealed class RefilledThroughOut : IDisposable
{
    private Stream _stream = Stream.Null;
    public void Reopen(string path) => Open(path, out _stream); // expect: RLC0004
    private static void Open(string path, out Stream stream) => stream = File.OpenRead(path);
    public void Dispose() => _stream.Dispose();
}

public sealed class Channel : IDisposable
{
    private readonly FileStream _transport;

    public Channel(string path) => _transport = File.OpenRead(path);

    public Stream Transport => _transport;

    public void Dispose() => _transport.Dispose();
}

public sealed class ChannelView
{
    private readonly Channel _channel;
    private Stream _input;

    // CASE: the view borrows the channel's stream; re-reading it replaces nothing.
    public ChannelView(Channel channel)
    {
        _channel = channel;
        _input = channel.Transport;
    }

    public void Reconnect() => _input = _channel.Transport;

    // CASE: closing it for its owner does not make the view own it.
    public void Disconnect() => _input.Close();
}

public sealed class Zipper
{
    private FileStream _out;

    // CASE: the field lends the stream to helpers while `using` owns it.
    public void Create(string path)
    {
        using (_out = File.Create(path))
        {
            WriteHeader();
        }
    }

    private void WriteHeader() => _out.WriteByte(0x50);
}

public sealed class HalfZipper
{
    private FileStream _out; // expect: RLC0003

    // CASE: disposed on one path only: the field keeps the stream on the other.
    public void Create(string path, bool probe)
    {
        _out = File.Create(path); // expect: RLC0004
        if (probe)
        {
            _out.Dispose();
        }
    }
}

public sealed class Transaction : IDisposable
{
    private readonly Connection _connection;

    public Transaction(Connection connection) => _connection = connection;

    public void Dispose() => _connection.Current = null;
}

public sealed class Connection : IDisposable
{
    internal Transaction? Current { get; set; }

    // CASE: the caller owns the transaction it is given; the property only tracks it.
    public Transaction Begin()
    {
        if (Current != null)
        {
            throw new InvalidOperationException("a transaction is already open");
        }
        return Current = new Transaction(this);
    }

    public void Dispose()
    {
    }

    // CASE: the caller of `Begin` disposes what it got.
    public static void Use(Connection connection)
    {
        using var tx = connection.Begin();
    }

    // CASE: a caller that drops it leaks it.
    public static void Drop(Connection connection)
    {
        connection.Begin(); // expect: RLC0001
    }
}

public sealed class Scope : IDisposable
{
    private readonly Action _onDispose;

    public Scope(Action onDispose) => _onDispose = onDispose;

    public void Dispose() => _onDispose();
}

public sealed class ScopeTracker
{
    private Scope? _current;

    // CASE: stored, then returned through the field on every path, and the scope's
    // disposal callback clears the field: the caller owns it, the field tracks it.
    public Scope Begin()
    {
        _current = new Scope(() => _current = null);
        return _current;
    }
}

public sealed class StreamKeeper
{
    private Stream? _last; // expect: RLC0003

    // CASE: returned, but nothing else ever lets the field go: the object keeps it.
    public Stream Open(string path)
    {
        return _last = File.OpenRead(path); // expect: RLC0004
    }
}

public sealed class TransactionKeeper
{
    private Stream? _current;

    // CASE: returned on every path, and the object's own method lets the field go
    // without disposing it: the field remembers the caller's value.
    public Stream Begin(string path)
    {
        _current = File.OpenRead(path);
        return _current;
    }

    public void Clear() => _current = null;

    public bool Active => _current != null;
}

public sealed class StreamCache
{
    private Stream? _cached; // expect: RLC0003

    // CASE: a cache returns the field also when it did not create it: the field owns it.
    public Stream Get(string path)
    {
        if (_cached == null)
        {
            _cached = File.OpenRead(path);
        }
        return _cached;
    }
}

// A panel that disposes the children it is given.
public sealed class Panel : IDisposable
{
    private readonly System.Collections.Generic.List<IDisposable> _children = new();
    public void Add(IDisposable child) => _children.Add(child);
    public void Dispose()
    {
        foreach (var c in _children)
            c.Dispose();
    }
}

// CASE: a field that keeps a handle on a value the class hands to an owner right after
// creating it (`_tree = new View(); Add(_tree);`) only tracks it.
public sealed class TreePanel : IDisposable
{
    private readonly Panel _panel = new Panel();
    private readonly FileStream _preview;

    public TreePanel(string path)
    {
        _preview = File.OpenRead(path);
        _panel.Add(_preview);
    }

    public long Size => _preview.Length;
    public void Dispose() => _panel.Dispose();
}

// CASE: ... not one handed to a method that only reads it.
public sealed class Previewer : IDisposable
{
    private readonly FileStream _preview; // expect: RLC0003

    public Previewer(string path)
    {
        _preview = File.OpenRead(path);
        Describe(_preview);
    }

    private static void Describe(Stream s) => Console.WriteLine(s.Length);
    public void Dispose() { }
}
