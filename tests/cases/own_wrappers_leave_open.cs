// rlc-case: infer
// Case family: the program's own wrappers with a `leaveOpen` flag. A constructor
// stores a `bool` parameter in a field, and the wrapper's disposal disposes the
// wrapped value only under one value of that field. The constructor then owns its
// argument only for that value (as `[OwnsIf]` says of the BCL's wrappers), and the
// disposal is verified assuming the wrapper owns. Where the flag says the wrapper
// does not own, dropping the field's value (`stream = null`) loses nothing.
// cases: 27
using System;
using System.IO;
using System.Net.Security;
using System.Threading.Tasks;

namespace Cases.OwnWrappersLeaveOpen;

public sealed class Wrapper : IDisposable
{
    private readonly Stream _inner;
    private readonly bool _leaveOpen;

    // CASE: the disposal under `if (!_leaveOpen)` is what the wrapper promises; no
    // RLC0006 at `Dispose`.
    public Wrapper(Stream inner, bool leaveOpen = false)
    {
        _inner = inner;
        _leaveOpen = leaveOpen;
    }

    public int Next() => _inner.ReadByte();

    public void Dispose()
    {
        if (!_leaveOpen)
        {
            _inner.Dispose();
        }
    }
}

public sealed class Owner : IAsyncDisposable
{
    private readonly Stream _inner;
    private readonly bool _ownsInner;

    // CASE: the flag may say "owns" instead of "leave open", and the disposal may be
    // asynchronous.
    public Owner(Stream inner, bool ownsInner = true)
    {
        _inner = inner;
        _ownsInner = ownsInner;
    }

    public ValueTask DisposeAsync()
    {
        if (_ownsInner)
        {
            return _inner.DisposeAsync();
        }
        return ValueTask.CompletedTask;
    }
}

public static class Users
{
    // CASE: leaving the stream open means the caller still owns it.
    public static int LeftOpen(string path)
    {
        var stream = File.OpenRead(path); // expect: RLC0001
        using var w = new Wrapper(stream, true);
        return w.Next();
    }

    // CASE: by default the wrapper owns the stream.
    public static int OwnedByDefault(string path)
    {
        var stream = File.OpenRead(path);
        using var w = new Wrapper(stream);
        return w.Next();
    }

    // CASE: a named argument that hands the stream over.
    public static int OwnedByName(string path)
    {
        var stream = File.OpenRead(path);
        using var w = new Wrapper(stream, leaveOpen: false);
        return w.Next();
    }

    // CASE: left open and disposed by the caller too: no leak.
    public static int LeftOpenAndDisposed(string path)
    {
        using var stream = File.OpenRead(path);
        using var w = new Wrapper(stream, leaveOpen: true);
        return w.Next();
    }

    // CASE: an owner that does not own (`ownsInner: false`) leaves the stream to the caller.
    public static async Task NotOwned(string path)
    {
        var stream = File.OpenRead(path); // expect: RLC0001
        await using var o = new Owner(stream, ownsInner: false);
    }

    // CASE: an owner that owns by default.
    public static async Task OwnedAsync(string path)
    {
        var stream = File.OpenRead(path);
        await using var o = new Owner(stream);
    }

    // CASE: the flag unknown at the call (a parameter): the stream may stay the caller's,
    // so its leak is reported.
    public static int Unknown(string path, bool keep)
    {
        var stream = File.OpenRead(path); // expect: RLC0001
        using var w = new Wrapper(stream, keep);
        return w.Next();
    }

    // CASE: a method that disposes a wrapper left open on its parameter does not
    // dispose the parameter: it stays the caller's, who disposes it.
    public static int Peek(Stream s)
    {
        using var w = new Wrapper(s, leaveOpen: true);
        return w.Next();
    }

    public static int PeekFile(string path)
    {
        using var stream = File.OpenRead(path);
        return Peek(stream);
    }
}

public sealed class OwningReader : IDisposable
{
    private Stream _stream;
    private readonly bool _ownsStream;

    public OwningReader(string path) : this(File.OpenRead(path), true) { }

    public OwningReader(Stream input) : this(input, false) { }

    private OwningReader(Stream input, bool owns)
    {
        _stream = input;
        _ownsStream = owns;
    }

    public int Next() => _stream.ReadByte();

    // CASE: disposed only when owned, then dropped either way.
    public void Dispose()
    {
        if (_stream != null)
        {
            if (_ownsStream)
            {
                _stream.Dispose();
            }
            _stream = null;
        }
    }
}

public static class OwningReaderUse
{
    // CASE: the path constructor owns the stream it opens.
    public static int FromPath(string path)
    {
        using var r = new OwningReader(path);
        return r.Next();
    }

    // CASE: the stream constructor leaves the stream to its caller.
    public static int FromStream(string path)
    {
        using var stream = File.OpenRead(path);
        using var r = new OwningReader(stream);
        return r.Next();
    }
}

// CASE: constructors that pass their own flag on through `this(..)` own under the same
// condition, over any number of hops; one fixing the flag to `true` owns outright.
public sealed class ChainedHolder : IDisposable
{
    private readonly Stream _first;
    private readonly Stream? _second;
    private readonly bool _owns;

    public ChainedHolder(Stream first, Stream? second) : this(first, second, owns: true) { }

    public ChainedHolder(Stream first, Stream? second, bool owns) : this(first, second, owns, null) { }

    internal ChainedHolder(Stream first, Stream? second, bool owns, object? tag)
    {
        _first = first;
        _second = second;
        _owns = owns;
    }

    public void Dispose()
    {
        if (!_owns)
        {
            return;
        }
        _first.Dispose();
        _second?.Dispose();
    }
}

public static class ChainedHolderUsers
{
    // CASE: the owning constructor takes both streams.
    public static ChainedHolder Owning(string a, string b) =>
        new ChainedHolder(File.OpenRead(a), File.OpenRead(b));

    // CASE: `owns: false` leaves them to the caller, which forgets one.
    public static int Borrowing(string a, string b)
    {
        using var first = File.OpenRead(a);
        var second = File.OpenRead(b); // expect: RLC0001
        using var h = new ChainedHolder(first, second, owns: false);
        return first.ReadByte();
    }
}

// A subclass of a BCL wrapper that forwards its own `leaveOpen` to the base
// constructor owns its argument under the same condition.
public sealed class TracedSslStream : SslStream
{
    public TracedSslStream(Stream inner, bool leaveInnerStreamOpen) : base(inner, leaveInnerStreamOpen) { }
}

public static class TracedSslStreamUsers
{
    // CASE: `leaveInnerStreamOpen: false` hands the stream to the wrapper the caller returns.
    public static Stream Owning(string path)
    {
        var file = File.OpenRead(path);
        return new TracedSslStream(file, false);
    }

    // CASE: `true` leaves it to the caller, which disposes only the wrapper.
    public static void Borrowing(string path)
    {
        var file = File.OpenRead(path); // expect: RLC0001
        using var tls = new TracedSslStream(file, true);
        tls.Flush();
    }

    // CASE: a borrowed stream wrapped with `true`: the borrower disposes only its wrapper.
    public static void Borrowed(Stream s)
    {
        using var tls = new TracedSslStream(s, true);
        tls.Flush();
    }
}

// A wrapper that creates its stream when given none, and records which with a
// flag (`_ownsStream = stream == null`): its disposal disposes the stream only
// under the flag, which is exactly when the wrapper owns it.
public sealed class CreatesWhenGivenNone : IDisposable
{
    private readonly Stream _stream;
    private readonly bool _ownsStream;

    public CreatesWhenGivenNone(Stream stream = null)
    {
        _ownsStream = stream == null;
        _stream = stream ?? new MemoryStream();
    }

    public CreatesWhenGivenNone(string path, Stream stream)
    {
        if (stream != null)
        {
            _stream = stream;
        }
        else
        {
            _stream = File.OpenRead(path);
            _ownsStream = true;
        }
    }

    public int Next() => _stream.ReadByte();

    public void Dispose()
    {
        if (_ownsStream)
            _stream.Dispose();
    }
}

// The flag set on the wrong path: the created stream is kept while the flag
// says the wrapper does not own it.
public sealed class FlagOnWrongPath : IDisposable
{
    private readonly Stream _stream; // expect: RLC0003
    private readonly bool _ownsStream;

    public FlagOnWrongPath(string path, Stream stream)
    {
        _ownsStream = stream != null;
        _stream = stream ?? File.OpenRead(path);
    }

    public void Dispose()
    {
        if (_ownsStream)
            _stream.Dispose();
    }
}

// A flag another method can set: it no longer says who created the value.
public sealed class FlagSetLater : IDisposable
{
    private readonly Stream _stream; // expect: RLC0003
    private bool _ownsStream;

    public FlagSetLater(string path, Stream stream)
    {
        _ownsStream = stream == null;
        _stream = stream ?? File.OpenRead(path);
    }

    public void Adopt() => _ownsStream = true;

    public void Dispose()
    {
        if (_ownsStream)
            _stream.Dispose();
    }
}

public static class CreatesWhenGivenNoneUsers
{
    // CASE: a wrapper that creates its own stream and disposes it under the flag.
    public static int Created()
    {
        using var w = new CreatesWhenGivenNone();
        return w.Next();
    }

    // CASE: the caller's stream stays the caller's: it disposes it after the wrapper.
    public static int Given(string path)
    {
        using var file = File.OpenRead(path);
        using var w = new CreatesWhenGivenNone(path, file);
        return w.Next();
    }

    // CASE: the wrapper does not take over a stream it was given, so forgetting it leaks.
    public static int GivenAndForgotten(string path)
    {
        var file = File.OpenRead(path); // expect: RLC0001
        using var w = new CreatesWhenGivenNone(file);
        return w.Next();
    }

    // CASE: a flag set where the wrapper does not own, or set by another method, is no ownership flag.
    public static void NotFlags()
    {
        using var a = new FlagOnWrongPath("a", null);
        using var b = new FlagSetLater("b", null);
    }
}

// A wrapper that also keeps something of its own: its disposal releases the timer
// whatever the flag says, so even a wrapper left open must be disposed.
public sealed class Ticking : IDisposable
{
    private readonly Stream _inner;
    private readonly bool _leaveOpen;
    private readonly System.Threading.Timer _timer;

    public Ticking(Stream inner, bool leaveOpen = false)
    {
        _inner = inner;
        _leaveOpen = leaveOpen;
        _timer = new System.Threading.Timer(_ => { });
    }

    public int Next() => _inner.ReadByte();

    public void Dispose()
    {
        _timer.Dispose();
        if (!_leaveOpen)
            _inner.Dispose();
    }
}

// An adapter that owns its provider only when told to, and releases it through a
// type test (`IServiceProvider` is not disposable), once.
public sealed class ProviderAdapter : IServiceProvider, IDisposable
{
    private IServiceProvider? _provider;
    private readonly bool _ownsProvider;
    private int _disposed;

    public ProviderAdapter(IServiceProvider provider, bool ownsProvider = false)
    {
        _provider = provider;
        _ownsProvider = ownsProvider;
    }

    public object? GetService(Type serviceType) => _provider?.GetService(serviceType);

    public void Dispose()
    {
        if (System.Threading.Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        if (!_ownsProvider)
            return;
        (_provider as IDisposable)?.Dispose();
        _provider = null;
    }
}

public static class NotOwningViews
{
    // CASE: a wrapper left open owes nothing: its disposal would release nothing, so
    // a view over the caller's stream may be dropped.
    public static int LeftOpenAndDropped(Stream callerOwned)
    {
        var view = new Wrapper(callerOwned, leaveOpen: true);
        return view.Next();
    }

    // CASE: an owner told not to own, dropped without a leak; the owning one must
    // still be disposed.
    public static async Task<int> NotOwningOwner(Stream callerOwned, string path)
    {
        var view = new Owner(callerOwned, ownsInner: false);
        var owning = new Owner(File.OpenRead(path)); // expect: RLC0001
        await Task.Yield();
        return 0;
    }

    // CASE: a wrapper whose disposal releases something of its own under either
    // value of the flag is still a resource when left open.
    public static int LeftOpenButTicking(Stream callerOwned)
    {
        var t = new Ticking(callerOwned, leaveOpen: true); // expect: RLC0001
        return t.Next();
    }

    // CASE: an adapter made with the default `ownsProvider = false` is a view; one
    // that owns must be disposed.
    public static object? Adapters(IServiceProvider shared, IServiceProvider built)
    {
        var view = new ProviderAdapter(shared);
        var owning = new ProviderAdapter(built, ownsProvider: true); // expect: RLC0001
        return view.GetService(typeof(string)) ?? owning.GetService(typeof(string));
    }
}
