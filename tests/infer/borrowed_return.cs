// Recovery suite: [return: NotOwning] (beyond the paper, rule borrowed-return) on methods
// that only return values they do not own: fields of other objects, collection elements,
// `this`, and results of not-owning calls (also ones this rule found first).
// Every RlcSharp attribute here must be inferred back from the stripped twin, and nothing
// else.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using RlcSharp.Annotations;

namespace Infer.BorrowedReturn;

public sealed class Session : IDisposable
{
    [Owning]
    public Stream Connection { get; }

    [MustCallAlias]
    public Session([MustCallAlias] Stream connection)
    {
        Connection = connection;
    }

    [Calls("this.Connection", "Dispose")]
    public void Dispose() => Connection.Dispose();
}

public static class SessionExtensions
{
    // A property of another object: the session owns the stream.
    [return: NotOwning]
    public static Stream GetConnection(this Session session) => session.Connection;

    // A not-owning result of a method this rule found first.
    [return: NotOwning]
    public static Stream GetConnectionOrNull(Session session)
    {
        if (session == null)
        {
            return null;
        }
        return GetConnection(session);
    }

    // Owning: a new stream on one path.
    public static Stream OpenOrReuse(Session session, string path)
    {
        if (session != null)
        {
            return session.Connection;
        }
        return File.OpenRead(path);
    }
}

public sealed class StreamCache : IDisposable
{
    private readonly ConcurrentDictionary<string, Stream> _open = new ConcurrentDictionary<string, Stream>();
    private readonly List<Stream> _recent = new List<Stream>();

    // GetOrAdd returns the dictionary's value: the cache keeps owning it.
    [return: NotOwning]
    public Stream Get(string path) => _open.GetOrAdd(path, p => File.OpenRead(p));

    // An element of a collection field.
    [return: NotOwning]
    public Stream Latest()
    {
        return _recent[_recent.Count - 1];
    }

    // `out` values of a not-owning out parameter are borrowed too.
    [return: NotOwning]
    public Stream Find(string path)
    {
        Stream found;
        if (_open.TryGetValue(path, out found))
        {
            return found;
        }
        return null;
    }

    // Only null: nothing to go by, so nothing is inferred.
    public Stream Nothing() => null;

    public void Dispose()
    {
        foreach (var s in _open.Values)
        {
            s.Dispose();
        }
        foreach (var s in _recent)
        {
            s.Dispose();
        }
    }
}

public class Fluent : IDisposable
{
    [Owning]
    private readonly Stream _log = File.OpenWrite("fluent.log");

    // `this`, for chaining: the result is the receiver itself, which the caller
    // already holds.
    [MustCallAlias]
    public Fluent WithName(string name)
    {
        Name = name;
        return this;
    }

    public string Name { get; private set; }

    // Overridden below by a method that returns a new object: nothing is inferred, or
    // the override would have to restate it.
    public virtual Fluent Self() => this;

    [Calls("this._log", "Dispose")]
    public void Dispose() => _log.Dispose();
}

public class FreshFluent : Fluent
{
    public override Fluent Self() => new FreshFluent();
}

public static class ServiceLocator
{
    private static object _last;

    // A type parameter says nothing about an obligation, but forwarding the provider's
    // not-owning GetService does: the container owns what it resolves.
    [return: NotOwning]
    public static T Resolve<T>(IServiceProvider services) where T : class
    {
        var service = (T)services.GetService(typeof(T));
        _last = service;
        return service;
    }

    // An accessor of `object` that returns a field proposes nothing: it would be noise.
    public static object Last() => _last;
}

public sealed class ContextBag
{
    private readonly Dictionary<Type, object> _entries = new Dictionary<Type, object>();
    private object _last;

    public void Set<T>(T value) where T : class
    {
        _entries[typeof(T)] = value;
        _last = value;
    }

    // A type parameter says nothing about an obligation, but an `out` filled from the
    // dictionary's not-owning out lends what the bag holds.
    public bool TryGet<T>([NotOwning] out T value) where T : class
    {
        if (_entries.TryGetValue(typeof(T), out var entry))
        {
            value = (T)entry;
            return true;
        }
        value = null;
        return false;
    }

    // An `object` out filled from the class's own field proposes nothing: it would be
    // noise.
    public bool TryLast(out object value)
    {
        value = _last;
        return value != null;
    }
}

public sealed class ScopedRegistry
{
    private readonly Dictionary<string, Stream> _streams = new Dictionary<string, Stream>();
    private readonly ScopedRegistry _parent;

    public ScopedRegistry(ScopedRegistry parent)
    {
        _parent = parent;
    }

    // A lookup that asks its parent lends what it lends itself: the recursive call adds
    // nothing to what its own paths return.
    [return: NotOwning]
    public Stream Find(string name)
    {
        if (_streams.TryGetValue(name, out var stream))
        {
            return stream;
        }
        return _parent != null ? _parent.Find(name) : null;
    }
}

public interface IInfrastructure<T>
{
    T Instance { get; }
}

public interface ITransaction : IDisposable
{
}

public static class InfrastructureExtensions
{
    // Another object's member, behind a type parameter: the accessor hands it on.
    [return: NotOwning]
    public static T GetInfrastructure<T>(this IInfrastructure<T> accessor) => accessor.Instance;

    // ... and a method that returns what that accessor returns, or throws.
    [return: NotOwning]
    public static Stream GetStream(this ITransaction transaction)
    {
        var accessor = transaction as IInfrastructure<Stream>;
        if (accessor == null)
        {
            throw new InvalidOperationException("not a stream transaction");
        }
        return accessor.GetInfrastructure();
    }
}
