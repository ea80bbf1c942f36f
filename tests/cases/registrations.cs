// rlc-case: infer
// Case family: registration methods, which keep an argument in their object
// and return a handle whose disposal removes it (observers, callbacks,
// pipes). A handle discarded at the call keeps the registration for as long
// as the receiver lives, the usual way to attach for good: RLC0012, a note.
// A handle kept and then lost is a leak like any other. Methods that store an
// argument but return a resource of their own, and interfaces with one
// implementation that is not a registration, are not registrations.
// cases: 12
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;

namespace Cases.Registrations;

public interface IListener
{
    void Changed(string what);
}

public interface IListenerHub
{
    IDisposable Attach(IListener listener);
}

// A registry: the handle knows the registry and the listener's key.
public sealed class Hub : IListenerHub
{
    private readonly Dictionary<long, IListener> _listeners = new Dictionary<long, IListener>();
    private long _next;

    public IDisposable Attach(IListener listener)
    {
        var id = Interlocked.Increment(ref _next);
        lock (_listeners)
            _listeners.Add(id, listener);
        return new Detach(this, id);
    }

    private void Remove(long id)
    {
        lock (_listeners)
            _listeners.Remove(id);
    }

    private sealed class Detach : IDisposable
    {
        private readonly Hub _hub;
        private readonly long _id;
        public Detach(Hub hub, long id) { _hub = hub; _id = id; }
        public void Dispose() => _hub.Remove(_id);
    }
}

// Forwards to the hub it wraps: through the interface, a cycle of forwarding
// that only the real registry ends.
public sealed class ScopedHub : IListenerHub
{
    private readonly IListenerHub _inner;
    public ScopedHub(IListenerHub inner) { _inner = inner; }
    public IDisposable Attach(IListener listener) => _inner.Attach(listener);
}

// Ignores listeners and hands out a handle that does nothing.
public sealed class SilentHub : IListenerHub
{
    public IDisposable Attach(IListener listener) => new NoHandle();

    private sealed class NoHandle : IDisposable
    {
        public void Dispose() { }
    }
}

// A list and a closure that removes the callback again.
public sealed class Callbacks
{
    private readonly List<Action> _actions = new List<Action>();

    public IDisposable Add(Action action)
    {
        _actions.Add(action);
        return new Undo(() => _actions.Remove(action));
    }

    private sealed class Undo : IDisposable
    {
        private readonly Action _undo;
        public Undo(Action undo) { _undo = undo; }
        public void Dispose() => _undo();
    }
}

// Two registrations undone together.
public sealed class Both : IDisposable
{
    private readonly IDisposable _first;
    private readonly IDisposable _second;
    public Both(IDisposable first, IDisposable second) { _first = first; _second = second; }
    public void Dispose() { _first.Dispose(); _second.Dispose(); }
}

public sealed class TwoHubs
{
    private readonly Hub _left = new Hub();
    private readonly Hub _right = new Hub();

    public IDisposable AttachBoth(IListener listener) =>
        new Both(_left.Attach(listener), _right.Attach(listener));
}

// Remembers the name, but returns a file of its own: not a registration.
public sealed class Opener
{
    private readonly List<string> _opened = new List<string>();

    public Stream Open(string path)
    {
        _opened.Add(path);
        return File.OpenRead(path);
    }
}

public interface IChannelSource
{
    IDisposable Join(IListener listener);
}

// One implementation registers, the other opens a resource: the interface
// method is not a registration.
public sealed class ChannelHub : IChannelSource
{
    private readonly List<IListener> _members = new List<IListener>();

    public IDisposable Join(IListener listener)
    {
        _members.Add(listener);
        return new Leave(this, listener);
    }

    private sealed class Leave : IDisposable
    {
        private readonly ChannelHub _hub;
        private readonly IListener _listener;
        public Leave(ChannelHub hub, IListener listener) { _hub = hub; _listener = listener; }
        public void Dispose() => _hub._members.Remove(_listener);
    }
}

public sealed class ChannelFile : IChannelSource
{
    public IDisposable Join(IListener listener) => File.OpenRead("channel.log");
}

// CASE: an observer that attaches itself for good in its constructor.
public sealed class Auditor : IListener
{
    public Auditor(IListenerHub hub)
    {
        hub.Attach(this); // expect: RLC0012
    }

    public void Changed(string what) { }
}

// CASE: an observer that keeps its handle and detaches when disposed.
public sealed class Tracker : IListener, IDisposable
{
    private readonly IDisposable _registration;

    public Tracker(IListenerHub hub)
    {
        _registration = hub.Attach(this);
    }

    public void Changed(string what) { }

    public void Dispose() => _registration.Dispose();
}

public static class Registrations
{
    // CASE: a handle discarded at a concrete registry.
    public static void AttachForGood(Hub hub, IListener listener)
    {
        hub.Attach(listener); // expect: RLC0012
    }

    // CASE: a handle kept in a variable and then forgotten is a leak.
    public static void KeptThenLost(Hub hub, IListener listener)
    {
        var handle = hub.Attach(listener); // expect: RLC0001
        listener.Changed("attached");
    }

    // CASE: a handle disposed when the work is done.
    public static void AttachWhileWorking(Hub hub, IListener listener, Action work)
    {
        using (hub.Attach(listener))
            work();
    }

    // CASE: a closure that removes the callback again.
    public static void AddCallback(Callbacks callbacks)
    {
        callbacks.Add(() => Console.WriteLine("changed")); // expect: RLC0012
    }

    // CASE: a composite of two registrations.
    public static void AttachToBoth(TwoHubs hubs, IListener listener)
    {
        hubs.AttachBoth(listener); // expect: RLC0012
    }

    // CASE: a forwarding registry.
    public static void AttachScoped(ScopedHub hub, IListener listener)
    {
        hub.Attach(listener); // expect: RLC0012
    }

    // CASE: a registry that ignores the listener.
    public static void AttachNowhere(SilentHub hub, IListener listener)
    {
        hub.Attach(listener); // expect: RLC0012
    }

    // CASE: storing the argument does not make a method that returns its own
    // resource a registration.
    public static void OpenAndForget(Opener opener)
    {
        opener.Open("data.bin"); // expect: RLC0001
    }

    // CASE: an interface method one of whose implementations returns a file.
    public static void JoinAny(IChannelSource source, IListener listener)
    {
        source.Join(listener); // expect: RLC0001
    }

    // CASE: a registration through a concrete hub whose interface is mixed.
    public static void JoinHub(ChannelHub hub, IListener listener)
    {
        hub.Join(listener); // expect: RLC0012
    }
}
