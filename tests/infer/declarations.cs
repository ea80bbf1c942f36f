// Recovery suite: specs of abstract and interface methods, and of the overrides a
// framework calls, inferred from what the program shows about them.
// Every RlcSharp attribute here must be inferred back from the stripped twin, and nothing
// else.
using System;
using System.Collections.Generic;
using System.IO;
using RlcSharp.Annotations;

namespace Infer.Declarations;

// An extension point with no implementation in the program that takes and returns the
// same resource type (must-call-alias-same-type).
public interface IUnwrapper
{
    [MustCallAlias]
    Stream Unwrap(object context, [MustCallAlias] Stream connection);

    // Two parameters of the returned type: which one it returns is not known.
    Stream Pick(Stream first, Stream second);
}

// Its implementations may chain it (must-call-alias-same-type on the interface, then
// must-call-alias-method on the implementation, which returns what the chain returns).
public interface IInterceptor
{
    [MustCallAlias]
    Stream Intercept([MustCallAlias] Stream connection);
}

public sealed class AggregatedInterceptor : IInterceptor
{
    public List<IInterceptor> Interceptors = new();

    [MustCallAlias]
    public Stream Intercept([MustCallAlias] Stream connection)
    {
        foreach (var interceptor in Interceptors)
        {
            connection = interceptor.Intercept(connection);
        }
        return connection;
    }
}

// An implementation that returns a new resource: the optimistic spec is withdrawn, and
// nothing is proposed for the interface.
public interface IOpener
{
    Stream Open(Stream template);
}

public sealed class FileOpener : IOpener
{
    public Stream Open(Stream template) => File.OpenRead("copy");
}

// Every implementation returns a wrapper of the same parameter
// (must-call-alias-implementations).
public interface IBuffering
{
    [MustCallAlias]
    Stream Buffer([MustCallAlias] Stream inner);
}

public sealed class Buffering : IBuffering
{
    [MustCallAlias]
    public Stream Buffer([MustCallAlias] Stream inner) => new BufferedStream(inner);
}

public sealed class PassThrough : IBuffering
{
    [MustCallAlias]
    public Stream Buffer([MustCallAlias] Stream inner) => inner;
}

// One implementation lends a cached element, the other returns null: the interface
// method and both implementations lend (borrowed-return).
public interface IPreparedSource
{
    [return: NotOwning]
    Stream TryGetPrepared();
}

public sealed class PreparedCache : IDisposable
{
    private readonly Dictionary<string, Stream> _prepared = new();

    [return: NotOwning]
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

    [return: NotOwning]
    public Stream TryGetPrepared() => Cache?.Lookup("q");
}

public sealed class BatchCommand : IPreparedSource
{
    [return: NotOwning]
    public Stream TryGetPrepared() => null;
}

// A generic cast helper returns its argument (must-call-alias-method).
public static class CastExtensions
{
    [MustCallAlias]
    public static T As<T>([MustCallAlias] this object self) => (T)self;
}

// A protected override that the framework base calls when the object stops releases
// every owning field: the class's must-call method (must-call-class).
public abstract class ActorBase
{
    protected virtual void PostStop()
    {
    }
}

[MustCall("PostStop")]
public sealed class SocketActor : ActorBase
{
    [Owning]
    private readonly Stream _socket;

    public SocketActor(string path) => _socket = File.OpenRead(path);

    [Calls("this._socket", "Dispose")]
    protected override void PostStop() => _socket.Dispose();
}
