// rlc-case: infer
// Case family: specification inference (papers/inference-of-resource-specs.txt,
// section 3) runs before checking, so this file has no attributes at all. Inference is
// optimistic: a disposal on one path is taken as the intent, and the checker then
// reports the path that misses it. Two kinds of evidence count only on every path: a
// hand-off to an [Owning] parameter (on some paths it is the callee's decision, and the
// guess would spread to every caller), a disposal of a value some caller disposes after
// the call too (a second disposal, not ownership taken over), and the close of a parameter the method opens
// again (`if (wasClosed) cnn.Open(); .. if (wasClosed) cnn.Close();`). [CreatesMustCallFor("this")] is inferred where a
// method reassigns an owning field (RLC0009 without inference, see fields_reassignment.cs).
// cases: 100
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Cases.Inference;

public static class Helpers
{
    // CASE: a helper that disposes its parameter is inferred [Owning].
    public static void Consume(Stream s)
    {
        s.ReadByte();
        s.Dispose();
    }

    // CASE: its caller hands a fresh stream over.
    public static void CallConsume(string path)
    {
        Consume(File.OpenRead(path));
    }

    // CASE: a helper that disposes only on one path is still inferred [Owning]; the
    // missing path is reported at the parameter.
    public static void ConsumeSometimes(Stream s, bool close) // expect: RLC0001
    {
        if (close)
        {
            s.Dispose();
        }
    }

    // CASE: its caller is clean: ownership moved.
    public static void CallConsumeSometimes(string path)
    {
        ConsumeSometimes(File.OpenRead(path), true);
    }

    // CASE: a method that returns its parameter is inferred [MustCallAlias].
    public static Stream Pass(Stream s) => s;

    // CASE: its caller disposes the original; the result is the same resource.
    public static int CallPass(string path)
    {
        using var fs = File.OpenRead(path);
        var same = Pass(fs);
        return same.ReadByte();
    }
}

// CASE: a class that is not IDisposable but closes its field in Close(): the field is
// inferred [Owning], Close() [Calls], and the class [MustCall("Close")].
public sealed class ConnectionWrapper
{
    private readonly FileStream _con;

    public ConnectionWrapper(string path)
    {
        _con = File.OpenRead(path);
    }

    public int Read() => _con.ReadByte();

    public void Close() => _con.Dispose();
}

// CASE: a class that stores a stream it opened into a field that no method disposes:
// the object holds the stream (the field is owning, rule `owning-field-created`), so the
// leak is the class's, reported once at the field rather than at the allocation.
public sealed class NeverDisposes
{
    private readonly FileStream _fs; // expect: RLC0003

    public NeverDisposes(string path)
    {
        _fs = File.OpenRead(path);
    }

    public int Read() => _fs.ReadByte();
}

// CASE: a single-field wrapper whose constructor stores its parameter: inferred
// [MustCallAlias] on the constructor and its parameter.
public sealed class Wrapper : IDisposable
{
    private readonly Stream _inner;

    public Wrapper(Stream inner)
    {
        _inner = inner;
    }

    public Stream GetInner() => _inner;

    public void Dispose() => _inner.Dispose();
}

// CASE: a class with two owned streams from its constructor: both parameters are
// inferred [Owning].
public sealed class Pair : IDisposable
{
    private readonly Stream _left;
    private readonly Stream _right;

    public Pair(Stream left, Stream right)
    {
        _left = left;
        _right = right;
    }

    public void Dispose()
    {
        _left.Dispose();
        _right.Dispose();
    }
}

// CASE: the dispose pattern without annotations: [Calls] is inferred on Dispose(bool)
// and, through the call Dispose(true), on Dispose().
public class Pattern : IDisposable
{
    private readonly FileStream _fs;

    public Pattern(string path)
    {
        _fs = File.OpenRead(path);
    }

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    protected virtual void Dispose(bool disposing)
    {
        if (disposing)
        {
            _fs.Dispose();
        }
    }
}

// CASE: [Calls] inferred through a helper whose parameter is inferred [Owning].
public sealed class DisposesThroughHelper : IDisposable
{
    private readonly FileStream _fs;

    public DisposesThroughHelper(string path)
    {
        _fs = File.OpenRead(path);
    }

    public void Dispose() => Helpers.Consume(_fs);
}

// CASE: [CreatesMustCallFor("this")] is inferred on a method that reassigns the
// (inferred owning) field, and on a method that calls it on `this`: no RLC0009.
public sealed class Reopens : IDisposable
{
    private FileStream _fs;
    private readonly string _path;

    public Reopens(string path)
    {
        _path = path;
        _fs = File.OpenRead(path);
    }

    public void Reopen()
    {
        _fs.Dispose();
        _fs = File.OpenRead(_path);
    }

    public void Reset() => Reopen();

    public void Dispose() => _fs.Dispose();
}

public static class Users
{
    // CASE: the inferred class obligation: one wrapper closed, one forgotten.
    public static int UseConnectionWrapper(string path)
    {
        var closed = new ConnectionWrapper(path);
        var forgotten = new ConnectionWrapper(path); // expect: RLC0001
        var sum = closed.Read() + forgotten.Read();
        closed.Close();
        return sum;
    }

    // CASE: the inferred alias: a wrapper over memory needs nothing, over a file it
    // must be disposed; GetInner() is inferred [return: NotOwning].
    public static int UseWrapper(string path, byte[] data)
    {
        var overMemory = new Wrapper(new MemoryStream(data));
        var overFile = new Wrapper(File.OpenRead(path)); // expect: RLC0001
        var inner = overMemory.GetInner();
        return inner.ReadByte() + overFile.GetInner().ReadByte();
    }

    // CASE: the inferred [Owning] constructor parameters.
    public static void UsePair(string a, string b)
    {
        using var pair = new Pair(File.OpenRead(a), File.OpenRead(b));
    }

    // CASE: the inferred [CreatesMustCallFor]: reopening then disposing is fine.
    public static void ReopenThenDispose(string path)
    {
        using var r = new Reopens(path);
        r.Reopen();
    }

    // CASE: the inferred [CreatesMustCallFor] (through Reset): resetting after disposal
    // re-creates the obligation, and nothing disposes it again.
    public static void ResetAfterDispose(string path)
    {
        var r = new Reopens(path);
        r.Dispose();
        r.Reset(); // expect: RLC0001
    }

    // CASE: the inferred dispose pattern, used correctly.
    public static void UsePattern(string path)
    {
        using var p = new Pattern(path);
        using var d = new DisposesThroughHelper(path);
    }
}

// CASE: inference proposes only a [Calls] the checker verifies: Dispose disposes the field
// on one path only, so it gets none, and the field, which holds a stream the class
// opened, is reported as not disposed (what `check --no-infer` reports after the patch).
public sealed class SometimesCloses : IDisposable
{
    private readonly Stream _stream = File.OpenRead("data.bin"); // expect: RLC0003
    private readonly bool _keepOpen;

    public SometimesCloses(bool keepOpen)
    {
        _keepOpen = keepOpen;
    }

    public void Dispose()
    {
        if (!_keepOpen)
        {
            _stream.Dispose();
        }
    }
}

// CASE: a virtual method that disposes a field but is overridden by one that does not gets
// no inferred [Calls] (its overrides would all have to keep it, RLC0008); the field holds
// a stream the class opened, so it is owning and no must-call method disposes it.
public class FixtureBase
{
    private readonly Stream _log = File.OpenRead("log.txt"); // expect: RLC0003

    public virtual void Run()
    {
        _log.Dispose();
    }
}

public class Fixture : FixtureBase
{
    public override void Run()
    {
    }
}

// CASE: an `out` parameter filled only from a field lends it (`[NotOwning]` inferred, as
// the library's TryGetValue): the caller must not dispose it.
public sealed class CachedStream : IDisposable
{
    private readonly Stream _cached = File.OpenRead("cache.bin");

    public bool TryGetCached(out Stream stream)
    {
        stream = _cached;
        return stream.CanRead;
    }

    public int Peek() => TryGetCached(out var s) ? s.ReadByte() : -1;

    public void Dispose() => _cached.Dispose();
}

// CASE: an `out` parameter filled with a fresh stream hands it over: the caller owns it.
public static class OutHandsOver
{
    private static bool TryOpen(string path, out Stream stream)
    {
        stream = File.OpenRead(path);
        return true;
    }

    public static int First(string path) => TryOpen(path, out var s) ? s.ReadByte() : -1; // expect: RLC0001
}

public interface IHasStream
{
    Stream GetStream();
}

// CASE: every implementation of an interface method lends a field, so a call through
// the interface lends too (`[return: NotOwning]` inferred on the interface method).
public sealed class StreamOwner : IHasStream, IDisposable
{
    private readonly Stream _stream = File.OpenRead("owned.bin");
    Stream IHasStream.GetStream() => _stream;
    public void Dispose() => _stream.Dispose();
    public static int Peek(IHasStream holder) => holder.GetStream().ReadByte();
}

public interface IOpener
{
    Stream Open(string path);
}

// CASE: an implementation that creates keeps the interface method owning.
public sealed class FileOpener : IOpener
{
    public Stream Open(string path) => File.OpenRead(path);
    public static int First(IOpener opener, string path) => opener.Open(path).ReadByte(); // expect: RLC0001
}

// CASE: get-or-create: a value created and kept in the object's cache is lent to the
// caller (`[return: NotOwning]`), and so is what an `out` parameter receives from it.
public sealed class StreamCache : IDisposable
{
    private readonly System.Collections.Generic.Dictionary<string, Stream> _cache = new();

    public Stream Get(string path)
    {
        if (!_cache.TryGetValue(path, out var s))
        {
            s = File.OpenRead(path);
            _cache[path] = s;
        }
        return s;
    }

    public void Select(string path, out Stream s) => s = Get(path);

    public long Size(string path)
    {
        Select(path, out var s);
        return s.Length;
    }

    public void Dispose()
    {
        foreach (var s in _cache.Values)
            s.Dispose();
    }
}

// CASE: lazily created into a field, then returned: lent as well.
public sealed class LazyStream : IDisposable
{
    private Stream? _stream;

    public Stream Stream()
    {
        var s = _stream;
        if (s == null)
        {
            s = File.OpenRead("lazy.bin");
            _stream = s;
        }
        return s;
    }

    public int Peek() => Stream().ReadByte();

    public void Dispose() => _stream?.Dispose();
}

// CASE: a factory that keeps nothing hands its result over.
public sealed class NotKept
{
    private readonly System.Collections.Generic.List<string> _names = new();

    public Stream Open(string path)
    {
        var s = File.OpenRead(path);
        _names.Add(path);
        return s;
    }

    public int Peek(string path) => Open(path).ReadByte(); // expect: RLC0001
}

// CASE: a method that returns an alias of a field through a library method that
// returns a resource alias (`Stream.Synchronized`) lends the field.
public sealed class SynchronizedView : IDisposable
{
    private readonly Stream _inner = File.OpenRead("view.bin");
    public Stream View() => Stream.Synchronized(_inner);
    public int Peek() => View().ReadByte();
    public void Dispose() => _inner.Dispose();
}

// CASE: a virtual method and every override lend their `out` value and their result,
// so a call through the base lends (`[NotOwning]` on both, inferred on the base).
public class ServerSource : IDisposable
{
    private readonly Stream _primary = File.OpenRead("primary.bin");
    internal virtual bool Features(out Stream server) { server = _primary; return true; }
    internal virtual Stream Current() => _primary;
    public int Peek() => Features(out var s) ? s.ReadByte() + Current().ReadByte() : -1;
    public virtual void Dispose() => _primary.Dispose();
}

public sealed class ReplicaSource : ServerSource
{
    private readonly Stream _replica = File.OpenRead("replica.bin");
    internal override bool Features(out Stream server) { server = _replica; return false; }
    internal override Stream Current() => _replica;
    public override void Dispose() { _replica.Dispose(); base.Dispose(); }
}

// CASE: one override that creates keeps the base method owning.
public class Opener
{
    private readonly Stream _shared = Stream.Null;
    internal virtual Stream Open() => _shared;
    public int Peek() => Open().ReadByte(); // expect: RLC0001
}

public sealed class FreshOpener : Opener
{
    internal override Stream Open() => File.OpenRead("fresh.bin");
}

public interface IMux
{
    Stream Server(string name);
}

// CASE: a call by simple name binds to the class's own method, not to its explicit
// interface implementation of the same name (which forwards to it): the method lends.
public sealed class Mux : IMux, IDisposable
{
    private readonly Stream _server = File.OpenRead("server.bin");
    Stream IMux.Server(string name) => Server(name);
    internal Stream Server(string name, bool activate = true) => _server;
    public int Use(string name) => Server(name).ReadByte();
    public void Dispose() => _server.Dispose();
}

internal static class Requires
{
    public static T NotNull<T>(T value, string name) where T : class
    {
        if (value == null)
            throw new ArgumentNullException(name);
        return value;
    }
}

// CASE: a generic guard that returns its argument returns that argument, not a new
// value (`[MustCallAlias]` inferred): checking a borrowed stream creates nothing.
public sealed class Reader
{
    private readonly Stream _source;

    public Reader(Stream source)
    {
        Requires.NotNull(source, nameof(source));
        _source = source;
    }

    public int Peek() => _source.ReadByte();
}

// CASE: a stream created and passed through the guard is still the caller's to dispose.
public static class GuardedCreation
{
    public static int First(string path) => Requires.NotNull(File.OpenRead(path), nameof(path)).ReadByte(); // expect: RLC0001
}

// CASE: a method that disposes a wrapper of its parameter (`using var reader = new
// StreamReader(s)`) disposes the parameter (`[Owning]` inferred): callers hand it over.
public static class WrapperOwnsParameter
{
    public static string? FirstLine(Stream s)
    {
        using var reader = new StreamReader(s);
        return reader.ReadLine();
    }

    public static string? FirstLineOf(string path) => FirstLine(File.OpenRead(path));
}


// CASE: a lookup that unwraps its parameter and may return null or an inner stream is
// not a wrapper: the verifier rejects the [MustCallAlias] the evidence suggests, so
// inference does not propose it (and nothing reports its own inference).
public static class Unwrapping
{
    public static Stream? Seekable(Stream stream)
    {
        while (stream is BufferedStream b)
        {
            stream = b.UnderlyingStream;
        }
        return stream.CanSeek ? stream : null;
    }
}

// CASE: a method that disposes its parameter on one path and returns it on the other
// consumes it ([Owning], owning result): the caller's field holds exactly one stream.
public sealed class ReplaceOrReturn : IDisposable
{
    private Stream _stream = File.OpenRead("a");

    public static Stream Writable(Stream stream)
    {
        Stream result;
        if (!stream.CanWrite)
        {
            stream.Dispose();
            result = File.Open("a", FileMode.Open, FileAccess.ReadWrite);
        }
        else
        {
            result = stream;
        }
        return result;
    }

    public void Update() => _stream = Writable(_stream);

    public void Dispose() => _stream.Dispose();
}

// CASE: `helper?.Wrap(s) ?? s` returns the parameter or a wrapper of it on every path:
// the null of `?.` goes straight to `??`, so the inferred [MustCallAlias] verifies.
public sealed class ChecksumWrapper
{
    private readonly Compressor? _compressor;

    public ChecksumWrapper(Compressor? compressor) => _compressor = compressor;

    public Stream Wrap(Stream source) => _compressor?.Compress(source) ?? source;

    public int FirstByte(string path)
    {
        using var s = Wrap(File.OpenRead(path));
        return s.ReadByte();
    }
}

public sealed class Compressor
{
    public Stream Compress(Stream s) => new BufferedStream(s);
}

// CASE: every implementation of an interface method takes its parameter, so handing a
// resource to the interface method hands it over ([Owning] inferred on the interface).
public interface ISink
{
    void Send(Stream payload);
}

public sealed class DisposingSink : ISink
{
    public void Send(Stream payload)
    {
        payload.CopyTo(Stream.Null);
        payload.Dispose();
    }
}

public static class SinkUser
{
    public static void Post(ISink sink, string path) => sink.Send(File.OpenRead(path));
}

// CASE: one implementation that only reads the parameter keeps the interface method
// borrowing: the caller still owns what it passed.
public interface IReaderSink
{
    void Send(Stream payload);
}

public sealed class ConsumingReaderSink : IReaderSink
{
    public void Send(Stream payload) => payload.Dispose();
}

public sealed class PeekingReaderSink : IReaderSink
{
    public void Send(Stream payload) => payload.ReadByte();
}

public static class ReaderSinkUser
{
    public static void Post(IReaderSink sink, string path) => sink.Send(File.OpenRead(path)); // expect: RLC0001
}

// CASE: a method that returns `this` (an async Open, a fluent setter) gives back the
// receiver ([MustCallAlias] on the method): the caller still holds one object.
public sealed class Connection : IDisposable
{
    private readonly Stream _log = File.OpenWrite("log");

    public async Task<Connection> OpenAsync()
    {
        await Task.Yield();
        return this;
    }

    public Connection Named(string name) => this;

    public void Dispose() => _log.Dispose();
}

public static class ConnectionUser
{
    public static async Task<Connection> Connect()
    {
        var c = new Connection();
        return await c.OpenAsync();
    }

    public static void Configure()
    {
        using var c = new Connection();
        c.Named("a").Named("b");
    }

    public static void Forgotten() => new Connection().Named("a"); // expect: RLC0001
}

// CASE: a primary constructor whose property initializer keeps its parameter
// (`Stream Inner { get; } = inner ?? throw ..`), disposed in Dispose: the parameter is
// owning, also through a derived primary constructor's base arguments.
public abstract class RecordSource(Stream inner) : IDisposable
{
    private Stream Inner { get; } = inner ?? throw new ArgumentNullException(nameof(inner));

    public int Next() => Inner.ReadByte();

    public void Dispose() => Inner.Dispose();
}

public sealed class StyleSource(Stream inner) : RecordSource(inner);

public static class StyleSourceUser
{
    public static RecordSource Open(string path) => new StyleSource(File.OpenRead(path));
}

// A method other than a constructor that keeps its parameter in an owning field
// takes it over: `[Owning]` (rule `owning-param-stored`).
public sealed class Session : IDisposable
{
    private Stream? _transport;

    public void Attach(Stream transport)
    {
        _transport?.Dispose();
        _transport = transport;
    }

    public void Dispose() => _transport?.Dispose();
}

public static class SessionUsers
{
    // CASE: the stream handed to `Attach` belongs to the session.
    public static void Connect(Session session, string path)
    {
        var s = File.OpenRead(path);
        session.Attach(s);
    }

    // CASE: a wrapper over an owned stream handed on the same way.
    public static void ConnectBuffered(Session session, string path)
    {
        var buffered = new BufferedStream(File.OpenRead(path));
        session.Attach(buffered);
    }
}

// A must-call method is matched by name whatever its arguments.
public sealed class Engine
{
    private Stream? _stream;

    public void Connect(Stream s)
    {
        Disconnect(null);
        _stream = s;
    }

    public void Disconnect(Exception? reason)
    {
        _stream?.Dispose();
        _stream = null;
    }
}

public static class EngineUsers
{
    // CASE: `Disconnect(reason)` releases the engine.
    public static void Run(string path)
    {
        var e = new Engine();
        e.Connect(File.OpenRead(path));
        e.Disconnect(new TimeoutException());
    }
}

// The dispose pattern's flag handed to a helper: a method whose single `bool`
// parameter is named `disposing` is read, like `Dispose(bool)`, with it true.
public abstract class PortBase : IDisposable
{
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    protected virtual void Dispose(bool disposing) { }
}

// CASE: `Dispose(bool)` passes its flag to a helper that disposes under `if (disposing)`.
public sealed class FilePort : PortBase
{
    private Stream? _log;

    public FilePort(string path) => _log = File.Create(path);

    protected override void Dispose(bool disposing)
    {
        ReleaseResources(disposing);
        base.Dispose(disposing);
    }

    private void ReleaseResources(bool disposing)
    {
        if (disposing)
        {
            _log?.Dispose();
            _log = null;
        }
    }
}

// CASE: a helper that disposes only when the flag is false never runs its disposal for `Dispose()`.
public sealed class BackwardsPort : PortBase
{
    private Stream? _log; // expect: RLC0003

    public BackwardsPort(string path) => _log = File.Create(path);

    protected override void Dispose(bool disposing) => ReleaseResources(disposing);

    private void ReleaseResources(bool disposing)
    {
        if (!disposing)
        {
            _log?.Dispose();
        }
    }
}

// A field typed with a base that is not disposable, whose class disposes it when
// the value turns out to be: the class keeps what it stores there (`[Owning]`).
public abstract class Codec
{
    public abstract int Next();
}

public sealed class FileCodec : Codec, IDisposable
{
    private readonly Stream _source;

    public FileCodec(string path) => _source = File.OpenRead(path);

    public override int Next() => _source.ReadByte();

    public void Dispose() => _source.Dispose();
}

// CASE: disposed through `is IDisposable d`.
public sealed class Decoder : IDisposable
{
    private readonly Codec _codec;

    public Decoder(string path) => _codec = new FileCodec(path);

    public int Next() => _codec.Next();

    public void Dispose()
    {
        if (_codec is IDisposable d)
        {
            d.Dispose();
        }
    }
}

// CASE: disposed through a cast (`((IDisposable)_value).Dispose()`) of an
// `object` field.
public sealed class ObjectHolder : IDisposable
{
    private readonly object _value;

    public ObjectHolder(string path) => _value = File.OpenRead(path);

    public override string? ToString() => _value.ToString();

    public void Dispose() => ((IDisposable)_value).Dispose();
}

// CASE: the same field never tested: the codec is lost where it is stored.
public sealed class CarelessDecoder
{
    private readonly Codec _codec;

    public CarelessDecoder(string path) => _codec = new FileCodec(path); // expect: RLC0001

    public int Next() => _codec.Next();
}

// CASE: a task of a field (`Task.FromResult`, or an `async` method returning the
// field) lends what the object owns; awaiting it gives nothing to dispose.
public sealed class CachedChannel : IDisposable
{
    private readonly Stream _stream;

    public CachedChannel(string path) => _stream = File.OpenRead(path);

    public Task<Stream> CurrentAsync() => Task.FromResult(_stream);

    public async Task<Stream> WaitCurrentAsync()
    {
        await Task.Yield();
        return _stream;
    }

    public async Task<long> LengthAsync()
    {
        var s = await CurrentAsync().ConfigureAwait(false);
        var t = await WaitCurrentAsync();
        return s.Length + t.Length;
    }

    public void Dispose() => _stream.Dispose();
}

// CASE: a task of a new resource stays owning: its awaiter must dispose it.
public static class FreshTasks
{
    public static Task<Stream> OpenAsync(string path) => Task.FromResult<Stream>(File.OpenRead(path));

    public static async Task<long> LengthAsync(string path)
    {
        var s = await OpenAsync(path); // expect: RLC0001
        return s.Length;
    }
}

// CASE: an async method that returns the object it was given hands back the same
// resource: reassigning the caller's variable with its result loses nothing.
public sealed class Journal : IDisposable
{
    private Stream? _file;

    public static async Task<Journal> AttachAsync(Journal journal, string path)
    {
        await Task.Yield();
        journal._file?.Dispose();
        journal._file = File.OpenRead(path);
        return journal;
    }

    public static async Task<Journal> OpenAsync(string path)
    {
        var journal = new Journal();
        journal = await AttachAsync(journal, path);
        return journal;
    }

    public void Dispose() => _file?.Dispose();
}

// CASE: re-arming the object through a copy of `this` (`var client = this;`) is
// re-arming `this`: the method passes the new obligation to its own caller.
public sealed class Reconnecting : IDisposable
{
    private Stream? _link;

    public void Connect(string path)
    {
        _link?.Dispose();
        _link = File.OpenRead(path);
    }

    public int Probe(string path)
    {
        var client = this;
        client.Connect(path);
        return 1;
    }

    public void Dispose() => _link?.Dispose();
}

// CASE: a lambda that re-arms the object it is handed re-arms a borrowed object:
// the owner that passed it in disposes it, not the lambda.
public sealed class Rearmable : IDisposable
{
    private Stream _current = Stream.Null;

    public void Restart(string path)
    {
        _current.Dispose();
        _current = File.OpenRead(path);
    }

    public void Dispose() => _current.Dispose();
}

public sealed class RearmOwner : IDisposable
{
    private readonly Rearmable _inner = new();

    private void With(Action<Rearmable> action) => action(_inner);

    public void Refresh(string path) => With(r => r.Restart(path));

    public void Dispose() => _inner.Dispose();
}

// CASE: a nullable struct field (`CancellationTokenRegistration?`) holds what the
// struct holds; `_reg?.Dispose()` disposes it.
public sealed class CancelWatcher : IDisposable
{
    private readonly CancellationTokenRegistration? _registration;

    public CancelWatcher(CancellationToken token) =>
        _registration = token.Register(() => Console.WriteLine("cancelled"));

    public void Dispose() => _registration?.Dispose();
}

// CASE: an override that closes the stream on one path and calls
// `base.Dispose(disposing)` on all of them keeps the base's promise.
public class ForwardingStream : Stream
{
    protected Stream? _inner;

    public ForwardingStream(Stream inner) => _inner = inner;

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => 0;
    public override long Position { get => 0; set { } }
    public override void Flush() { }
    public override int Read(byte[] buffer, int offset, int count) => _inner!.Read(buffer, offset, count);
    public override long Seek(long offset, SeekOrigin origin) => 0;
    public override void SetLength(long value) { }
    public override void Write(byte[] buffer, int offset, int count) { }

    protected override void Dispose(bool disposing)
    {
        _inner?.Dispose();
        _inner = null;
        base.Dispose(disposing);
    }
}

public sealed class ChildProcessStream : ForwardingStream
{
    private IDisposable? _process;

    public ChildProcessStream(IDisposable process, Stream output) : base(output) => _process = process;

    protected override void Dispose(bool disposing)
    {
        if (_process != null)
        {
            _inner!.Close();
            _process.Dispose();
            _process = null;
        }
        base.Dispose(disposing);
    }
}

// CASE: `.Value` of a nullable registration is the registration itself: kept in
// the list the class disposes, or lost.
public sealed class RegistrationList : IDisposable
{
    private readonly List<CancellationTokenRegistration> _registrations = new();

    private static bool TryRegister(CancellationToken token, out CancellationTokenRegistration? registration)
    {
        registration = token.CanBeCanceled ? token.Register(() => { }) : null;
        return registration != null;
    }

    public void Watch(CancellationToken token)
    {
        if (TryRegister(token, out var registration))
        {
            _registrations.Add(registration.Value);
        }
    }

    public void Peek(CancellationToken token)
    {
        if (TryRegister(token, out var registration)) // expect: RLC0001
        {
            Console.WriteLine(registration.Value.Token.CanBeCanceled);
        }
    }

    public void Dispose()
    {
        foreach (var r in _registrations)
        {
            r.Dispose();
        }
    }
}


// CASE: a coder lends the caller's stream between SetStream and ReleaseStream; its
// CloseStream does not make the field owning: the class never creates what the field
// holds, and lets it go without disposing it.
public class LendingCoder
{
    private Stream _stream;
    public void SetStream(Stream stream) { _stream = stream; }
    public void ReleaseStream() { _stream = null; }
    public void CloseStream() { _stream.Dispose(); }
    public void Write(byte b) { _stream.WriteByte(b); }
}

public static class LendingCoderUse
{
    public static void Compress(Stream output, byte[] data)
    {
        var coder = new LendingCoder();
        coder.SetStream(output);
        foreach (var b in data) coder.Write(b);
        coder.ReleaseStream();
    }
}

// CASE: a class that creates what its field holds owns it, even if a method lets it go.
public sealed class DroppingOwner : IDisposable
{
    private Stream _stream;
    public void Open(string path) { _stream = File.OpenRead(path); } // expect: RLC0004
    public void Detach() { _stream = null; } // expect: RLC0004
    public void Dispose() => _stream?.Dispose();
}

// CASE: two fields filled under one null test: the second needs no [CreatesMustCallFor]
// of its own and is not overwritten.
public sealed class LazyPairInferred : IDisposable
{
    private Stream _data;
    private Stream _index;

    public long Length(string path)
    {
        if (_data == null)
        {
            _data = File.OpenRead(path);
            _index = File.OpenRead(path + ".idx");
        }
        return _data.Length + _index.Length;
    }

    public void Dispose()
    {
        _index?.Dispose();
        _data?.Dispose();
    }
}

// CASE: a class whose must-call method is `Disconnect()`, and an overload with a `bool`
// parameter that is not the dispose pattern's flag: a call passing `false` still
// disposes, so the [Calls] inferred for its caller verifies.
public class ReconnectingClient
{
    private CancellationTokenSource _cancellation;

    public void Connect()
    {
        Disconnect(true);
        _cancellation = new CancellationTokenSource();
    }

    public void Disconnect() => Disconnect(true);

    private void Disconnect(bool userInitiated)
    {
        if (_cancellation != null)
        {
            _cancellation.Cancel();
            _cancellation.Dispose();
            _cancellation = null;
        }
    }

    public void OnServerUnavailable() => Disconnect(userInitiated: false);
}

// CASE: an extension point with no implementation in the program that takes and returns
// the same resource type (`UnwrapConnection`) is taken to return that argument or a
// wrapper of it: a caller lending a borrowed connection owes nothing for the result.
public interface IConnectionUnwrapper
{
    Stream Unwrap(object context, Stream connection);
}

public sealed class UnwrappingReader
{
    public IConnectionUnwrapper Unwrapper;

    public long Length(Stream borrowed) => Unwrapper.Unwrap(this, borrowed).Length;

    // CASE: with an owned argument, disposing the result disposes the argument.
    public long OwnedLength(string path)
    {
        var unwrapped = Unwrapper.Unwrap(this, File.OpenRead(path));
        using (unwrapped)
        {
            return unwrapped.Length;
        }
    }

    // CASE: and an owned argument that nobody disposes still leaks.
    public long OwnedLeak(string path) => Unwrapper.Unwrap(this, File.OpenRead(path)).Length; // expect: RLC0001
}

// CASE: an interface method whose implementations lend a cached element or return null:
// a call through the interface lends too, and the null-returning implementation takes
// the spec the interface now has (no RLC0008).
public interface IPreparedSource
{
    Stream TryGetPrepared();
}

public sealed class PreparedCache : IDisposable
{
    private readonly Dictionary<string, Stream> _prepared = new();

    public Stream Lookup(string key) => _prepared.TryGetValue(key, out var s) ? s : null;

    public void Dispose()
    {
        foreach (var s in _prepared.Values)
        {
            s.Dispose();
        }
    }
}

public sealed class CachedCommand : IPreparedSource
{
    public PreparedCache Cache;

    public Stream TryGetPrepared() => Cache?.Lookup("q");
}

public sealed class BatchCommand : IPreparedSource
{
    public Stream TryGetPrepared() => null;
}

public static class PreparedUser
{
    public static long Run(IPreparedSource command) => command.TryGetPrepared()?.Length ?? 0;
}

// CASE: a generic cast helper returns its argument: casting a borrowed object owes nothing.
public static class CastExtensions
{
    public static T As<T>(this object self) => (T)self;

    public static long Peek(Stream borrowed) => borrowed.As<FileStream>().Length;
}

// CASE: a field given a borrowed object through the cast helper does not own it, though
// the helper's spec is inferred in a later round than the store is first seen.
public abstract class SnapshotStore
{
    private readonly FileStream _log;

    protected SnapshotStore(LogHost host)
    {
        _log = host.Log.As<FileStream>();
    }

    public long Size => _log.Length;
}

public sealed class LogHost : IDisposable
{
    public Stream Log { get; } = File.OpenRead("log");

    public void Dispose() => Log.Dispose();
}

// CASE: a constructor that stores its parameter after a `?? throw` check keeps the
// caller's argument, as a plain store does: the argument is held by the new object.
public sealed class ClientModel
{
    public ClientModel(string name, Stream client)
    {
        Name = name ?? throw new ArgumentNullException(nameof(name));
        Client = client ?? throw new ArgumentNullException(nameof(client));
    }

    public string Name { get; }
    public Stream Client { get; }
}

public sealed class ClientSlot
{
    public ClientModel Model { get; set; }
}

public static class ClientRegistry
{
    public static void Add(ClientSlot slot, string path)
    {
        var client = File.OpenRead(path);
        slot.Model = new ClientModel(path, client);
    }
}

// CASE: a class that is not IDisposable and releases its fields in a protected override
// that its framework base calls when the object stops (an actor's `PostStop`): that
// override is its must-call method, no RLC0003.
public abstract class ActorBase
{
    protected virtual void PreStart()
    {
    }

    protected virtual void PostStop()
    {
    }
}

public sealed class SocketActor : ActorBase
{
    private readonly Stream _socket;

    public SocketActor(string path) => _socket = File.OpenRead(path);

    public void Send(byte b) => _socket.WriteByte(b);

    protected override void PostStop() => _socket.Dispose();
}

// CASE: a P/Invoke method taking and returning the same handle type creates a new native
// object (`CFStringCreate(allocator, ..)`): its result is the caller's to release, not an
// alias of the argument.
public sealed class CoreFoundationRef : System.Runtime.InteropServices.SafeHandle
{
    public CoreFoundationRef() : base(IntPtr.Zero, true)
    {
    }

    public static readonly CoreFoundationRef None = new();

    public override bool IsInvalid => handle == IntPtr.Zero;

    protected override bool ReleaseHandle() => true;
}

public static class CoreFoundation
{
    [System.Runtime.InteropServices.DllImport("CoreFoundation")]
    private static extern CoreFoundationRef CFStringCreate(CoreFoundationRef allocator, string value);

    public static bool Exists(string value) => !CFStringCreate(CoreFoundationRef.None, value).IsInvalid; // expect: RLC0001
}

// CASE: Dapper's idiom: a method opens a borrowed connection if it was closed and closes it
// again; the close undoes its own `Open` (`[Reopens]` in the model), so
// the connection stays the caller's: no `[Owning]`, nothing reported here or at callers.
public static class ConnectionExtensions
{
    public static int Execute(this System.Data.IDbConnection cnn, string sql)
    {
        bool wasClosed = cnn.State == System.Data.ConnectionState.Closed;
        using var cmd = cnn.CreateCommand();
        cmd.CommandText = sql;
        try
        {
            if (wasClosed)
            {
                cnn.Open();
            }
            return cmd.ExecuteNonQuery();
        }
        finally
        {
            if (wasClosed)
            {
                cnn.Close();
            }
        }
    }

    public static int ExecuteTwice(this System.Data.IDbConnection cnn, string sql) => Execute(cnn, sql) + Execute(cnn, sql);

    // CASE: the same when the method opens the connection through a helper of its own.
    public static async Task<int> ExecuteAsync(this System.Data.IDbConnection cnn, string sql)
    {
        bool wasClosed = cnn.State == System.Data.ConnectionState.Closed;
        using var cmd = cnn.CreateCommand();
        cmd.CommandText = sql;
        try
        {
            if (wasClosed)
            {
                await cnn.TryOpenAsync(CancellationToken.None);
            }
            return cmd.ExecuteNonQuery();
        }
        finally
        {
            if (wasClosed)
            {
                cnn.Close();
            }
        }
    }

    private static Task TryOpenAsync(this System.Data.IDbConnection cnn, CancellationToken cancel)
    {
        if (cnn is System.Data.Common.DbConnection db)
        {
            return db.OpenAsync(cancel);
        }
        cnn.Open();
        return Task.CompletedTask;
    }
}

// CASE: a method that opens its parameter and disposes it on every path does take it over.
public static class OpenAndDispose
{
    public static void RunOnce(System.Data.Common.DbConnection connection)
    {
        connection.Open();
        connection.Dispose();
    }

    public static void Caller(System.Data.Common.DbProviderFactory factory) => RunOnce(factory.CreateConnection()!);
}

// CASE: a hand-off on some paths only is the callee's decision, not ownership: a send
// failure drops the client (which disposes it), but the caller keeps the connection.
public sealed class ClientConnection : IDisposable
{
    private readonly Stream _stream;

    public ClientConnection(Stream stream) => _stream = stream;

    public bool TrySend(byte b)
    {
        try
        {
            _stream.WriteByte(b);
            return true;
        }
        catch (IOException)
        {
            return false;
        }
    }

    public void Dispose() => _stream.Dispose();
}

public sealed class Lobby
{
    private readonly List<ClientConnection> _clients = new();

    public void Drop(ClientConnection c)
    {
        _clients.Remove(c);
        c.Dispose();
    }

    public void SendTo(ClientConnection c, byte b)
    {
        if (!c.TrySend(b))
        {
            Drop(c);
        }
    }

    public void Announce(ClientConnection c) => SendTo(c, 1);
}

// CASE: a registry's generic lookup returns an entry its dictionary holds: callers borrow it.
public sealed class TraitRegistry
{
    private readonly Dictionary<Type, object> _traits = new();

    public T Get<T>() => (T)_traits[typeof(T)];

    public void Flush() => Get<Stream>().Flush();
}

// CASE: a class that is not disposable releases its fields in an explicit implementation of a
// framework interface (`INotifyDisposing.Disposing`): that method is its must-call method.
public interface INotifyDisposing
{
    void Disposing(object owner);
}

public sealed class BotModule : INotifyDisposing
{
    private readonly Stream _log;

    public BotModule(string path) => _log = File.OpenWrite(path);

    public void Log(byte b) => _log.WriteByte(b);

    void INotifyDisposing.Disposing(object owner) => _log.Dispose();
}

// CASE: a parameter whose disposal a method defers (`Later(s.Dispose)`, a shutdown
// callback) is [Owning]: its callers hand it over.
public static class DeferredDisposal
{
    private static event Action? Stopped;

    public static void DisposeOnStop(Stream s) => Stopped += s.Dispose;

    public static void DisposeOnStopLambda(Stream s) => Stopped += () => s.Dispose();

    public static void Start(string path)
    {
        DisposeOnStop(File.OpenRead(path));
        DisposeOnStopLambda(File.OpenRead(path));
    }

    public static void Stop() => Stopped?.Invoke();
}

// CASE: a closure that disposes the parameter on some paths only takes nothing over: the
// parameter stays the caller's, who leaks it here.
public static class MaybeConsumed
{
    private static event Action? FrameEnd;

    public static void Capture(Stream s, bool consumed) =>
        FrameEnd += () =>
        {
            if (consumed)
            {
                s.Dispose();
            }
        };

    public static void Start(string path)
    {
        Capture(File.OpenRead(path), true); // expect: RLC0001
    }

    public static void Tick() => FrameEnd?.Invoke();
}

// CASE: a method group of a method that is not a must-call method hands nothing over.
public static class DeferredFlush
{
    private static event Action? Stopped;

    public static void FlushOnStop(Stream s) => Stopped += s.Flush;

    public static void Start(string path)
    {
        FlushOnStop(File.OpenRead(path)); // expect: RLC0001
    }

    public static void Stop() => Stopped?.Invoke();
}

// CASE: `Dispose(bool)` disposes a field through a virtual helper that a subclass
// overrides, calling the base first: the helper and its override both promise the
// disposal ([Calls]), so the class's fields are released.
public abstract class Processor : IDisposable
{
    private bool _disposed;

    protected Stream? Transaction { get; set; }

    public virtual void Begin(string path) => Transaction ??= File.OpenWrite(path);

    public virtual void Rollback()
    {
        if (Transaction == null)
        {
            return;
        }
        Transaction.Dispose();
        Transaction = null;
    }

    protected virtual void Dispose(bool disposing)
    {
        if (!disposing || _disposed)
        {
            return;
        }
        _disposed = true;
        Rollback();
    }

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }
}

public sealed class LoggingProcessor : Processor
{
    public override void Rollback()
    {
        base.Rollback();
        Console.WriteLine("rolled back");
    }
}

// CASE: a helper that roots any object in a handle for native code (`this object item`)
// takes over the resources its callers give it.
public static class NativeState
{
    public static IntPtr ToHandle(this object item) =>
        System.Runtime.InteropServices.GCHandle.ToIntPtr(
            System.Runtime.InteropServices.GCHandle.Alloc(item));

    public static void Register(string path, Action<IntPtr> setState)
    {
        var state = File.OpenRead(path);
        setState(state.ToHandle());
    }
}

// CASE: an abstract fluent method every override of which returns `this`: the result of a
// call through the base or an override is the receiver itself ([MustCallAlias] on both).
public abstract class TraceSession : IDisposable
{
    private readonly Stream _file;

    protected TraceSession(string path) => _file = File.OpenWrite(path);

    public abstract TraceSession Enable();

    public void Dispose() => _file.Dispose();
}

public sealed class KernelTraceSession : TraceSession
{
    public KernelTraceSession(string path) : base(path) { }

    public override TraceSession Enable()
    {
        Console.WriteLine("kernel");
        return this;
    }
}

public sealed class UserTraceSession : TraceSession
{
    public UserTraceSession(string path) : base(path) { }

    public override TraceSession Enable() => this;
}

public sealed class TraceProfiler : IDisposable
{
    private TraceSession? _session;

    public void Start(string path)
    {
        _session?.Dispose();
        _session = new KernelTraceSession(path).Enable();
    }

    public static void Run(string path)
    {
        using var s = ((TraceSession)new UserTraceSession(path)).Enable();
    }

    public void Dispose() => _session?.Dispose();
}

// CASE: a virtual fluent method one override of which returns another object: the result
// is not the receiver, and a receiver only used for the call is lost.
public abstract class Channel : IDisposable
{
    private readonly Stream _file;

    protected Channel(string path) => _file = File.OpenWrite(path);

    public virtual Channel Open() => this;

    public void Dispose() => _file.Dispose();
}

public sealed class PlainChannel : Channel
{
    public PlainChannel(string path) : base(path) { }
}

public sealed class RelayChannel : Channel
{
    private readonly string _path;

    public RelayChannel(string path) : base(path) => _path = path;

    public override Channel Open() => new PlainChannel(_path + ".relay");
}

public static class ChannelUser
{
    public static void Run(Channel c)
    {
        using var opened = c.Open();
    }

    public static void Forgotten(string path)
    {
        using var opened = ((Channel)new PlainChannel(path)).Open(); // expect: RLC0001
    }
}

// CASE: a constructor that only stores its arguments into fields cannot throw: the
// stream handed to it inside a `try` is not lost to an exception of the call.
public sealed class StoringOwner : IDisposable
{
    private readonly Stream _stream;
    private readonly object _tag;

    public StoringOwner(Stream stream, object tag)
    {
        _stream = stream;
        _tag = tag;
    }

    // A chained constructor that only forwards throws nothing either.
    public StoringOwner(Stream stream) : this(stream, "untagged")
    {
    }

    public void Dispose() => _stream.Dispose();
}

public sealed class OwnerHolder : IDisposable
{
    private readonly StoringOwner? _owner;
    private readonly StoringOwner? _plain;

    public OwnerHolder(string path)
    {
        try
        {
            var stream = File.OpenRead(path);
            _owner = new StoringOwner(stream, this);
            var other = File.OpenRead(path + ".2");
            _plain = new StoringOwner(other);
        }
        catch (IOException)
        {
        }
    }

    public void Dispose()
    {
        _owner?.Dispose();
        _plain?.Dispose();
    }
}

// CASE: a constructor that validates its argument may throw before it stores it: the
// stream handed to it inside a `try` is lost then.
public sealed class ValidatingOwner : IDisposable
{
    private readonly Stream _stream;

    public ValidatingOwner(Stream stream, string name)
    {
        _stream = stream;
        if (name.Length == 0)
        {
            throw new ArgumentException("empty", nameof(name));
        }
    }

    public void Dispose() => _stream.Dispose();
}

public sealed class ValidatingHolder : IDisposable
{
    private readonly ValidatingOwner? _owner;

    public ValidatingHolder(string path)
    {
        try
        {
            var stream = File.OpenRead(path); // expect: RLC0002
            _owner = new ValidatingOwner(stream, path);
        }
        catch (IOException)
        {
        }
    }

    public void Dispose() => _owner?.Dispose();
}

// CASE: a helper that disposes an `object` when it turns out to be disposable
// (`if (o is IDisposable d) d.Dispose();`, the async form first) takes over what
// its callers pass: a stream released in a `finally` through it is disposed.
internal static class DisposeHelper
{
    public static void DisposeIfDisposable(object? value)
    {
        if (value is IDisposable disposable)
        {
            disposable.Dispose();
        }
    }

    public static async ValueTask DisposeAnyAsync(object? value)
    {
        if (value is IAsyncDisposable asyncDisposable)
        {
            await asyncDisposable.DisposeAsync();
        }
        else
        {
            DisposeIfDisposable(value);
        }
    }

    public static void Describe(object? value)
    {
        if (value is IDisposable disposable)
        {
            Console.WriteLine(disposable.GetType().Name);
        }
    }
}

internal static class DisposeHelperUsers
{
    public static async Task<int> ReadThenRelease(string path)
    {
        var stream = File.OpenRead(path);
        try
        {
            return stream.ReadByte();
        }
        finally
        {
            await DisposeHelper.DisposeAnyAsync(stream);
        }
    }

    // CASE: a helper that only looks at the disposable takes nothing over.
    public static void DescribeOnly(string path)
    {
        var stream = File.OpenRead(path); // expect: RLC0001
        DisposeHelper.Describe(stream);
    }
}

// CASE: an override that only hands on what its base returns (`var s =
// base.Prepare(path); Log(); return s;`) lends exactly as the base does: the base
// keeps the streams it hands out, so a caller through the interface borrows.
public interface IBatchSource
{
    Stream Prepare(string path);
}

public class BatchSource : IBatchSource, IDisposable
{
    private readonly List<Stream> _open = new List<Stream>();
    private Stream? _current;

    public virtual Stream Prepare(string path)
    {
        if (_current == null)
        {
            _current = OpenTracked(path);
        }
        return _current;
    }

    private Stream OpenTracked(string path)
    {
        var s = File.OpenRead(path);
        _open.Add(s);
        return s;
    }

    public void Dispose()
    {
        foreach (var s in _open)
        {
            s.Dispose();
        }
        _open.Clear();
    }
}

public class LoggingBatchSource : BatchSource
{
    public override Stream Prepare(string path)
    {
        var result = base.Prepare(path);
        Console.WriteLine(path);
        return result;
    }
}

public static class BatchUser
{
    public static int First(IBatchSource source, string path) => source.Prepare(path).ReadByte();
}

// CASE: a class that opens a connection it was given and closes it again after each
// use leaves it as it found it: the close is no sign that it owns the field, so the
// setter that swaps connections overwrites nothing it owns.
public sealed class BorrowingCommand : IDisposable
{
    private System.Data.Common.DbConnection? _connection;

    public BorrowingCommand(System.Data.Common.DbConnection connection) => Connection = connection;

    public System.Data.Common.DbConnection? Connection
    {
        get => _connection;
        set => _connection = value;
    }

    public void Run()
    {
        _connection!.Open();
        try
        {
            Console.WriteLine("run");
        }
        finally
        {
            _connection.Close();
        }
    }

    public void Dispose() { }
}

// CASE: a method that hands on another's task (`Task<Stream> GetAsync(ct) =>
// GetCoreAsync(ct);`) lends what the other lends: awaiting it borrows the kept stream.
public sealed class StreamKeeper : IDisposable
{
    private readonly string _path;
    private Stream? _stream;

    public StreamKeeper(string path) => _path = path;

    public Task<Stream> GetAsync(CancellationToken token)
    {
        if (token.IsCancellationRequested)
        {
            return Task.FromCanceled<Stream>(token);
        }
        return GetCoreAsync();
    }

    private async Task<Stream> GetCoreAsync()
    {
        await Task.Yield();
        _stream ??= File.OpenRead(_path);
        return _stream;
    }

    public Task<Stream> OpenAsync() => OpenCoreAsync();

    private async Task<Stream> OpenCoreAsync()
    {
        await Task.Yield();
        return File.OpenRead(_path);
    }

    public void Dispose() => _stream?.Dispose();
}

public static class StreamKeeperUser
{
    public static async Task<long> LengthAsync(StreamKeeper keeper, CancellationToken token)
    {
        var s = await keeper.GetAsync(token).ConfigureAwait(false);
        return s.Length;
    }

    // CASE: handing on a task of a fresh stream gives it to the caller.
    public static async Task<long> FreshLengthAsync(StreamKeeper keeper)
    {
        var s = await keeper.OpenAsync(); // expect: RLC0001
        return s.Length;
    }
}


// CASE: a get-or-create that registers what it creates in a static registry before it
// returns it lends it: the registry keeps it for the program's lifetime.
public static class StreamRegistry
{
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, Stream> Entries = new();

    public static void Set(string key, Stream s) => Entries[key] = s;

    public static Stream? Find(string key) => Entries.TryGetValue(key, out var s) ? s : null;

    public static Stream GetOrOpen(string key)
    {
        var s = Find(key);
        if (s == null)
        {
            s = File.OpenRead(key);
            Set(key, s);
        }
        return s;
    }

    public static long Length(string key) => GetOrOpen(key).Length;
}

// A shortcut whose command view it disposes when replaced and when disposed (a setter
// gets no inferred [CreatesMustCallFor]: RLC0009 asks for it by hand).
public sealed class Shortcut : IDisposable
{
    private Stream? _commandView;

    public Stream? CommandView
    {
        get => _commandView;
        set
        {
            _commandView?.Dispose();
            _commandView = value; // expect: RLC0009
        }
    }

    public void Dispose() => _commandView?.Dispose();
}

public static class Shortcuts
{
    // CASE: a setter that keeps its value in an owning field takes it over
    // (`owning-param-stored`): the caller hands the stream on, in an initializer or
    // an assignment.
    public static Shortcut Make(string a, string b)
    {
        var s = new Shortcut { CommandView = File.OpenRead(a) };
        s.CommandView = File.OpenRead(b);
        return s;
    }
}

// A page that owns a stream, shown in a frame that holds its content as `object`.
public sealed class Page : IDisposable
{
    private readonly Stream _log = File.OpenWrite("page.log");
    public void Dispose() => _log.Dispose();
}

public sealed class Frame
{
    public object? Content { get; set; }
}

public sealed class Shell
{
    private readonly Frame _frame = new();
    private Page? _current;

    // An async lookup of the page the frame shows: the cast from `object` is erased,
    // and what awaiting a task the method holds gives is handed on, not created.
    private async Task<Page?> CurrentPageAsync()
    {
        var shown = new TaskCompletionSource<object?>();
        shown.SetResult(_frame.Content);
        return await shown.Task as Page;
    }

    private async Task<Page?> FramePageAsync()
    {
        await Task.Yield();
        return (Page?)_frame.Content;
    }

    // CASE: an async method that returns what another object holds, cast from
    // `object`, lends it (`[return: NotOwning]` inferred): the caller keeps a reference.
    public async Task Track()
    {
        _current = await CurrentPageAsync();
        _current = await FramePageAsync();
    }
}

public static class SecondDisposal
{
    // CASE: a method that disposes its parameter on some paths only, of a value its
    // caller disposes after the call anyway, does not take it over: the early return
    // is no leak, the caller's `using` closes the stream.
    public static long Measure(string path, bool skip)
    {
        using var stream = File.OpenRead(path);
        return LengthThenClose(stream, skip);
    }

    private static long LengthThenClose(Stream stream, bool skip)
    {
        if (skip)
        {
            return 0;
        }
        using var owned = stream;
        return owned.Length;
    }

    // CASE: a caller that disposes the value only when the call throws still hands it
    // over, so the callee's early return loses it.
    public static long MeasureOrClean(string path, bool skip)
    {
        var stream = File.OpenRead(path);
        try
        {
            return LengthThenCloseOnFailure(stream, skip);
        }
        catch
        {
            stream.Dispose();
            throw;
        }
    }

    private static long LengthThenCloseOnFailure(Stream stream, bool skip) // expect: RLC0001
    {
        if (skip)
        {
            return 0;
        }
        using var owned = stream;
        return owned.Length;
    }

    // CASE: with no caller disposing it, the same partial disposal is the method's
    // ownership, and its early return loses the stream.
    public static long MeasureHandedOver(string path, bool skip) =>
        LengthThenCloseHandedOver(File.OpenRead(path), skip);

    private static long LengthThenCloseHandedOver(Stream stream, bool skip) // expect: RLC0001
    {
        if (skip)
        {
            return 0;
        }
        using var owned = stream;
        return owned.Length;
    }
}

public static class StateObjects
{
    // CASE: a callback that casts its `object` state back and disposes it takes over
    // whatever resource its callers pass.
    public static void Queue(string path) => Finish(File.OpenRead(path));

    private static void Finish(object state)
    {
        var stream = (Stream)state;
        stream.ReadByte();
        stream.Dispose();
    }

    // CASE: one that only reads it does not.
    public static void Peek(string path) => Read(File.OpenRead(path)); // expect: RLC0001

    private static void Read(object state) => ((Stream)state).ReadByte();
}
