// Case family: non-readonly owning fields (paper section 5.1): reassigning one needs the
// old value disposed first (RLC0004) and [CreatesMustCallFor("this")] on the method
// (RLC0009); constructors are exempt for the first assignment; callers of a
// [CreatesMustCallFor] method get a new obligation. Variables: reassigning the last
// reference to an undisposed value is reported at the assignment (RLC0004 too). A
// lambda assigning an owning field runs later, when the field may hold a value, even if
// a constructor made it. A private helper that only constructors call on `this`, or that
// a method of the class calls on an object it just created, runs as part of construction.
// So does any method the program only calls once on an object it has just created
// (`var r = new Reader(p); r.Open();`, also through an interface); one with no caller
// in the program, or called twice, or called after `Dispose()`, may find the field full.
// A `ref` argument its callee assigns before reading is written as an `out` one: the
// value it held is lost there; a callee that reads it first may dispose or keep it.
// A private setter that only stores its value stands for that store: the overwrite is
// reported where the class assigns the property; a setter others call reports it itself.
// cases: 58
using System;
using System.IO;
using System.Threading;
using RlcSharp.Annotations;

namespace Cases.FieldsReassignment;

public sealed class Reopenable : IDisposable
{
    [Owning] private FileStream _fs;
    private readonly string _path;

    // CASE: the first assignment in the constructor is exempt from both rules.
    public Reopenable(string path)
    {
        _path = path;
        _fs = File.OpenRead(path);
    }

    // CASE: reassignment that disposes first and declares [CreatesMustCallFor].
    [CreatesMustCallFor("this")]
    public void Reopen()
    {
        _fs.Dispose();
        _fs = File.OpenRead(_path);
    }

    // CASE: reassignment behind `?.Dispose()`.
    [CreatesMustCallFor("this")]
    public void ReopenNullSafe()
    {
        _fs?.Dispose();
        _fs = File.OpenRead(_path);
    }

    // CASE: reassignment without disposing the old value and without the attribute.
    public void ReopenCarelessly()
    {
        _fs = File.OpenRead(_path); // expect: RLC0004, RLC0009
    }

    // CASE: the attribute is present but the old value is not disposed.
    [CreatesMustCallFor("this")]
    public void ReopenWithoutDispose()
    {
        _fs = File.OpenRead(_path); // expect: RLC0004
    }

    // CASE: a lambda calls a [CreatesMustCallFor] method on the captured `this`: a closure
    // cannot carry the attribute, and the object stays its owner's to dispose.
    public Action RetryLater()
    {
        return () => Reopen();
    }

    // CASE: the old value is disposed but the attribute is missing.
    public void ReopenWithoutAttribute()
    {
        _fs.Dispose();
        _fs = File.OpenRead(_path); // expect: RLC0009
    }

    // CASE: the old value is disposed on one branch only.
    [CreatesMustCallFor("this")]
    public void ReopenDisposeOnOneBranch(bool flush)
    {
        if (flush)
        {
            _fs.Dispose();
        }
        _fs = File.OpenRead(_path); // expect: RLC0004
    }

    // CASE: assigning null after disposing creates no obligation: no attribute needed.
    public void Release()
    {
        _fs?.Dispose();
        _fs = null;
    }

    // CASE: assigning null without disposing loses the old value.
    public void Forget()
    {
        _fs = null; // expect: RLC0004
    }

    [Calls("_fs", "Dispose")]
    public void Dispose()
    {
        _fs?.Dispose();
    }
}

// CASE: lazy initialisation behind a null check: the field holds nothing to lose.
public sealed class LazyOwner : IDisposable
{
    [Owning] private Stream _stream;

    [CreatesMustCallFor("this")]
    [return: NotOwning]
    public Stream Get(string path)
    {
        if (_stream == null)
        {
            _stream = File.OpenRead(path);
        }
        return _stream;
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

// CASE: lazy initialisation behind `is not null || ..`: the null test is one operand of
// the condition, not a pattern over the whole of it.
public sealed class WatcherOwner : IDisposable
{
    [Owning] private FileSystemWatcher? _watcher;

    [CreatesMustCallFor("this")]
    public void Start(string path)
    {
        if (_watcher is not null || !Directory.Exists(path))
            return;
        _watcher = new FileSystemWatcher(path);
    }

    [Calls("_watcher", "Dispose")]
    public void Dispose() => _watcher?.Dispose();
}

// CASE: lazy initialisation behind `== default`, which tests a reference for null.
public sealed class LazyDefaultOwner : IDisposable
{
    [Owning] private Stream _stream;

    [CreatesMustCallFor("this")]
    public void Fill(string path)
    {
        if (_stream == default)
        {
            _stream = File.OpenRead(path);
        }
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

// CASE: lazy initialisation with `??=`.
public sealed class LazyCoalescingOwner : IDisposable
{
    [Owning] private Stream _stream;

    [CreatesMustCallFor("this")]
    public void Ensure(string path)
    {
        _stream ??= File.OpenRead(path);
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

// CASE: a constructor that overwrites the value of the field initializer without
// disposing it (the exemption covers only the first assignment).
public sealed class ConstructorOverwritesInitializer : IDisposable
{
    [Owning] private Stream _stream = File.OpenRead("default.bin");

    public ConstructorOverwritesInitializer(string path)
    {
        _stream = File.OpenRead(path); // expect: RLC0004
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}

public static class Callers
{
    // CASE: calling a [CreatesMustCallFor] method after Dispose() creates a new
    // obligation that nobody discharges (reported at the call).
    public static void DisposeThenReopen(string path)
    {
        var r = new Reopenable(path);
        r.Dispose();
        r.Reopen(); // expect: RLC0001
    }

    // CASE: calling it before the final Dispose() is fine.
    public static void ReopenThenDispose(string path)
    {
        var r = new Reopenable(path);
        r.Reopen();
        r.Dispose();
    }

    // CASE: `using` covers the obligation a [CreatesMustCallFor] call re-creates.
    public static void ReopenInsideUsing(string path)
    {
        using var r = new Reopenable(path);
        r.Reopen();
    }

    // CASE: re-arming a borrowed object (a parameter this method does not own) leaves
    // the obligation with its owner, who disposes it at the end of its life.
    public static void ReopenBorrowed(Reopenable r)
    {
        r.Reopen();
    }

    // CASE: the same through a field of another object.
    public static void ReopenHeld(Holder h)
    {
        h.Current.Reopen();
    }
}

public sealed class Holder : IDisposable
{
    [Owning] private readonly Reopenable _current;
    public Holder(string path) => _current = new Reopenable(path);
    public Reopenable Current => _current;
    [Calls("_current", "Dispose")]
    public void Dispose() => _current.Dispose();
}

public static class VariablesReassigned
{
    // CASE: a local assigned a second stream while it holds the first.
    public static int AssignedTwice(string first, string second)
    {
        var reader = File.OpenRead(first);
        reader = File.OpenRead(second); // expect: RLC0004
        using (reader)
        {
            return reader.ReadByte();
        }
    }

    // CASE: the old value is disposed before the reassignment.
    public static int DisposedBeforeReassigning(string first, string second)
    {
        var reader = File.OpenRead(first);
        var b = reader.ReadByte();
        reader.Dispose();
        reader = File.OpenRead(second);
        using (reader)
        {
            return b + reader.ReadByte();
        }
    }

    // CASE: another variable still holds the old value: reassigning loses nothing.
    public static int StillHeldElsewhere(string first, string second)
    {
        var reader = File.OpenRead(first);
        using var kept = reader;
        reader = File.OpenRead(second);
        using (reader)
        {
            return kept.ReadByte() + reader.ReadByte();
        }
    }
}

public sealed class ReopenOnEvent : IDisposable
{
    [Owning] private Stream? _stream;

    public event EventHandler? Changed;

    // CASE: a handler a constructor subscribes replaces the field without disposing it.
    public ReopenOnEvent(string path)
    {
        Changed += (o, e) => _stream = File.OpenRead(path); // expect: RLC0004
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class ReopenOnEventSafely : IDisposable
{
    [Owning] private Stream? _stream;

    public event EventHandler? Changed;

    // CASE: the same handler disposing the old value first.
    public ReopenOnEventSafely(string path)
    {
        Changed += (o, e) =>
        {
            _stream?.Dispose();
            _stream = File.OpenRead(path);
        };
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class InitHelper : IDisposable
{
    [Owning] private Stream _stream;

    // CASE: a private `Init` only the constructor calls assigns the field as the
    // constructor would: no old value, no [CreatesMustCallFor] needed.
    public InitHelper(string path) => Init(path);

    private void Init(string path) => _stream = File.OpenRead(path);

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}

public sealed class StartedPool : IDisposable
{
    [Owning] private System.Threading.Timer? _reaper;

    private StartedPool() { }

    // CASE: a static factory that starts the object it just created.
    public static StartedPool Create()
    {
        var pool = new StartedPool();
        pool.StartReaper();
        return pool;
    }

    private void StartReaper() => _reaper = new System.Threading.Timer(_ => { }, null, 1000, 1000);

    [Calls("_reaper", "Dispose")]
    public void Dispose() => _reaper?.Dispose();
}

public sealed class ReusedHelper : IDisposable
{
    [Owning] private Stream _stream;

    public ReusedHelper(string path) => Open(path);

    // CASE: a helper a public method also calls may find the field full.
    public void Reopen(string path) => Open(path);

    private void Open(string path) => _stream = File.OpenRead(path); // expect: RLC0004, RLC0009

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}


public interface IOpenable : IDisposable
{
    void Open();
}

public sealed class OpenedOnce : IOpenable
{
    private readonly string _path;
    [Owning] private FileStream? _stream;

    public OpenedOnce(string path) => _path = path;

    // CASE: a public initialiser every caller calls once on a new object.
    public void Open() => _stream = new FileStream(_path, FileMode.Open);

    public int Next() => _stream!.ReadByte();

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class OpenedByChannel : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public OpenedByChannel(string path) => _path = path;

    // CASE: an initialiser a factory in another class calls on the object it creates.
    public void Connect() => _stream = File.OpenRead(_path);

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class OpenedTwice : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public OpenedTwice(string path) => _path = path;

    // CASE: an initialiser one caller calls twice on the same object.
    public void Open() => _stream = File.OpenRead(_path); // expect: RLC0004, RLC0009

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class OpenedByNobody : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public OpenedByNobody(string path) => _path = path;

    // CASE: a public initialiser nothing in the program calls: an outside caller may
    // call it twice.
    public void Open() => _stream = File.OpenRead(_path); // expect: RLC0004, RLC0009

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public static class Initialisers
{
    // CASE: through the interface, on either implementation.
    public static int ReadFirst(string path, bool other)
    {
        using IOpenable reader = other ? new OpenedOnce(path) : new OpenedOnce(path + ".bak");
        reader.Open();
        return 0;
    }

    public static OpenedByChannel Connect(string path)
    {
        var channel = new OpenedByChannel(path);
        try
        {
            channel.Connect();
            return channel;
        }
        catch
        {
            channel.Dispose();
            throw;
        }
    }

    public static void OpenTwice(string path)
    {
        using var r = new OpenedTwice(path);
        r.Open();
        r.Open();
    }

    // CASE: once on each branch, and once per new object in a loop.
    public static void OpenOnEachBranch(string path, bool twice)
    {
        using var r = new OpenedOnBranches(path);
        if (twice)
        {
            r.Open();
        }
        else
        {
            r.Open();
        }
        for (var i = 0; i < 3; i++)
        {
            using var s = new OpenedOnBranches(path);
            s.Open();
        }
    }

    public static void OpenInLoop(string path)
    {
        using var r = new OpenedInLoop(path);
        for (var i = 0; i < 3; i++)
        {
            r.Open();
        }
    }
}

public sealed class OpenedOnBranches : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public OpenedOnBranches(string path) => _path = path;

    public void Open() => _stream = File.OpenRead(_path);

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class OpenedInLoop : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public OpenedInLoop(string path) => _path = path;

    // CASE: called in a loop on the same object: the second round finds it full.
    public void Open() => _stream = File.OpenRead(_path); // expect: RLC0004, RLC0009

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class FailoverGroup : IDisposable
{
    [Owning] private CancellationTokenSource _active = new();

    // CASE: a constructor calls a [CreatesMustCallFor] method that a public method
    // calls too: the new obligation is the one the constructed object carries anyway.
    public FailoverGroup() { SetActive(); }

    [CreatesMustCallFor("this")]
    private void SetActive()
    {
        var old = _active;
        _active = new CancellationTokenSource();
        old.Cancel();
        old.Dispose();
    }

    [CreatesMustCallFor("this")]
    public void Failover() => SetActive();

    [Calls("_active", "Dispose")]
    public void Dispose() => _active.Dispose();
}

public sealed class RefReopened : IDisposable
{
    [Owning] private Stream _stream = File.OpenRead("a");

    // CASE: a helper that assigns its `ref` parameter unread overwrites the field it is given.
    [CreatesMustCallFor("this")]
    public void Reset() => Open(ref _stream); // expect: RLC0004

    // CASE: a helper that disposes its `ref` parameter before assigning it may take the
    // old value: not reported.
    [CreatesMustCallFor("this")]
    public void Reopen() => DisposeAndOpen(ref _stream);

    private static void Open(ref Stream s) => s = File.OpenRead("b");

    private static void DisposeAndOpen(ref Stream s)
    {
        s?.Dispose();
        s = File.OpenRead("b");
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}

public static class RefLocals
{
    private static void Open(ref Stream s) => s = File.OpenRead("b");

    // CASE: the local's first stream is lost when the helper overwrites it.
    public static void Overwritten()
    {
        var s = File.OpenRead("a");
        Open(ref s); // expect: RLC0004
        s.Dispose();
    }

    // CASE: the value the helper puts in a `ref` local is the caller's to dispose.
    public static void Received()
    {
        Stream s = null;
        Open(ref s); // expect: RLC0001
        s.ReadByte();
    }

    // CASE: ... and disposing it is enough.
    public static void ReceivedAndDisposed()
    {
        Stream s = null;
        Open(ref s);
        s.Dispose();
    }
}

public sealed class PrivateSetterStore : IDisposable
{
    [Owning] private Stream _stream;

    // CASE: a constructor assigning a private storing setter twice overwrites the first stream.
    public PrivateSetterStore(string path)
    {
        Stream = File.OpenRead(path);
        Stream = File.OpenRead(path); // expect: RLC0004
    }

    public Stream Stream
    {
        get => _stream;
        private set => _stream = value;
    }

    // CASE: a method assigning through the private setter is where the old stream is lost.
    public void Reopen(string path)
    {
        Stream = File.OpenRead(path); // expect: RLC0004, RLC0009
    }

    // CASE: disposing first, and saying so, is fine.
    [CreatesMustCallFor("this")]
    public void ReopenCarefully(string path)
    {
        _stream.Dispose();
        Stream = File.OpenRead(path);
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream.Dispose();
}

public sealed class PublicSetterStore : IDisposable
{
    [Owning] private Stream _stream;

    // CASE: a setter other classes call cannot leave the overwrite to its callers.
    public Stream Stream
    {
        get => _stream;
        set => _stream = value; // expect: RLC0004, RLC0009
    }

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class Balancer : IDisposable
{
    [Owning] private Stream? _picker;

    public void Configure(string path) => _picker = File.OpenRead(path);

    [Calls("_picker", "Dispose")]
    public void Dispose() => _picker?.Dispose();
}

// CASE: a constructor that creates an object into its own field and configures it
// there: the object's fields are still empty.
public sealed class Channel : IDisposable
{
    [Owning] private readonly Balancer _balancer = new();

    public Channel(string path) => _balancer.Configure(path);

    [Calls("_balancer", "Dispose")]
    public void Dispose() => _balancer.Dispose();
}

public sealed class TwiceConfigured : IDisposable
{
    [Owning] private Stream? _picker;

    public void Configure(string path) => _picker = File.OpenRead(path); // expect: RLC0004, RLC0009

    [Calls("_picker", "Dispose")]
    public void Dispose() => _picker?.Dispose();
}

// CASE: configured twice in the constructor: the second call finds the field full.
public sealed class TwiceChannel : IDisposable
{
    [Owning] private readonly TwiceConfigured _balancer = new();

    public TwiceChannel(string path)
    {
        _balancer.Configure(path);
        _balancer.Configure(path + ".bak");
    }

    [Calls("_balancer", "Dispose")]
    public void Dispose() => _balancer.Dispose();
}


// CASE: a second field filled under the first one's null test (a lazy initialisation
// of two fields): when the first is null the second holds nothing either, since the
// class fills them together and empties the first only after releasing the second.
public sealed class LazyPair : IDisposable
{
    [Owning] private Stream? _data;
    [Owning] private Stream? _index;

    [CreatesMustCallFor("this")]
    public long Length(string path)
    {
        if (_data == null)
        {
            _data = File.OpenRead(path);
            _index = File.OpenRead(path + ".idx");
        }
        return _data.Length + _index!.Length;
    }

    [Calls("_data", "Dispose")]
    [Calls("_index", "Dispose")]
    public void Reset()
    {
        _index?.Dispose();
        _index = null;
        _data?.Dispose();
        _data = null;
    }

    [Calls("_data", "Dispose")]
    [Calls("_index", "Dispose")]
    public void Dispose() => Reset();
}

// CASE: the second field filled on one branch after the first (a registration made
// only when the new source is not cancelled at once).
public sealed class LazyDeadline : IDisposable
{
    [Owning] private CancellationTokenSource? _cts;
    [Owning] private Stream? _log;

    [CreatesMustCallFor("this")]
    public CancellationToken Token(bool expired, string path)
    {
        if (_cts == null)
        {
            _cts = new CancellationTokenSource();
            if (expired)
            {
                _cts.Cancel();
            }
            else
            {
                _log = File.OpenWrite(path);
            }
        }
        return _cts.Token;
    }

    [Calls("_cts", "Dispose")]
    [Calls("_log", "Dispose")]
    public void Dispose()
    {
        _log?.Dispose();
        _cts?.Dispose();
    }
}

// CASE: the early-return form, the second field an alias of the first.
public sealed class LazyEarlyReturn : IDisposable
{
    [Owning] private Stream? _log;
    [Owning] private IDisposable? _logAsDisposable;

    [CreatesMustCallFor("this")]
    public void Instantiate(string path)
    {
        if (_log != null)
            return;
        _log = File.OpenWrite(path);
        _logAsDisposable = _log as IDisposable;
    }

    [Calls("_log", "Dispose")]
    [Calls("_logAsDisposable", "Dispose")]
    public void Dispose()
    {
        _logAsDisposable?.Dispose();
        _logAsDisposable = null;
        _log?.Dispose();
    }
}

// CASE: the first field is emptied without releasing the second: its null test
// says nothing about the second, whose old value is lost.
public sealed class GuardClearedAlone : IDisposable
{
    [Owning] private Stream? _data;
    [Owning] private Stream? _index;

    [CreatesMustCallFor("this")]
    public void Open(string path)
    {
        if (_data == null)
        {
            _data = File.OpenRead(path);
            _index = File.OpenRead(path + ".idx"); // expect: RLC0004
        }
    }

    [CreatesMustCallFor("this")]
    public void Forget()
    {
        _data?.Dispose();
        _data = null;
    }

    [Calls("_data", "Dispose")]
    [Calls("_index", "Dispose")]
    public void Dispose()
    {
        _data?.Dispose();
        _index?.Dispose();
    }
}

// CASE: the second field is also filled on its own: the first one's null test does
// not say it is empty.
public sealed class GuardedFieldFilledAlone : IDisposable
{
    [Owning] private Stream? _data;
    [Owning] private Stream? _index;

    [CreatesMustCallFor("this")]
    public void Open(string path)
    {
        if (_data == null)
        {
            _data = File.OpenRead(path);
            _index = File.OpenRead(path + ".idx"); // expect: RLC0004
        }
    }

    [CreatesMustCallFor("this")]
    public void Reindex(string path)
    {
        _index?.Dispose();
        _index = File.OpenRead(path);
    }

    [Calls("_data", "Dispose")]
    [Calls("_index", "Dispose")]
    public void Dispose()
    {
        _data?.Dispose();
        _index?.Dispose();
    }
}

// CASE: the guard field is filled by a helper that fills it on every path (a
// `[MemberNotNull]` helper): the subscription made before that call is filled together
// with it, so the null test of the guard says the subscription is empty.
public sealed class SnapshotProvider : IDisposable
{
    private object? _snapshot;
    [Owning] private Stream? _subscription;

    [CreatesMustCallFor("this")]
    public object Snapshot(string path)
    {
        if (_snapshot is null)
        {
            _subscription = File.OpenRead(path);
            UpdateSnapshot();
        }
        return _snapshot;
    }

    private void UpdateSnapshot() => _snapshot = new object();

    [Calls("_subscription", "Dispose")]
    public void Dispose() => _subscription?.Dispose();
}

// CASE: a helper that fills the guard only on some paths is no such store: the old
// subscription may still be held when the guard is null.
public sealed class MaybeSnapshotProvider : IDisposable
{
    private object? _snapshot;
    [Owning] private Stream? _subscription;

    [CreatesMustCallFor("this")]
    public object Snapshot(string path, bool load)
    {
        if (_snapshot is null)
        {
            _subscription = File.OpenRead(path); // expect: RLC0004
            MaybeUpdate(load);
        }
        return _snapshot;
    }

    private void MaybeUpdate(bool load)
    {
        if (load)
        {
            _snapshot = new object();
        }
    }

    [Calls("_subscription", "Dispose")]
    public void Dispose() => _subscription?.Dispose();
}

// CASE: the helper keeps the old snapshot when reading fails, returning early only
// where a null test showed the guard already filled: it still fills the guard on every
// path that returns.
public sealed class KeptSnapshotProvider : IDisposable
{
    private object? _snapshot;
    [Owning] private Stream? _subscription;

    [CreatesMustCallFor("this")]
    public object Snapshot(string path)
    {
        if (_snapshot is null)
        {
            _subscription = File.OpenRead(path);
            Reload(path);
        }
        return _snapshot;
    }

    private void Reload(string path)
    {
        object next;
        try
        {
            next = File.ReadAllText(path);
        }
        catch (IOException)
        {
            if (_snapshot is null)
            {
                throw;
            }
            return;
        }
        _snapshot = next;
    }

    [Calls("_subscription", "Dispose")]
    public void Dispose() => _subscription?.Dispose();
}

public sealed class Cleaner : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public Cleaner(string path) => _path = path;

    // CASE: an initialiser called once on an object just stored into a property and
    // read back from it (`job.Cleaner = new Cleaner(..); job.Cleaner.Start();`).
    public void Start() => _stream = File.OpenRead(_path);

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class Job : IDisposable
{
    [Owning] public Cleaner? Cleaner { get; set; }

    [Calls("Cleaner", "Dispose")]
    public void Dispose() => Cleaner?.Dispose();
}

public sealed class RecorderFromFactory : IOpenable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public RecorderFromFactory(string path) => _path = path;

    // CASE: an initialiser called once on the object a factory method has just made.
    public void Open() => _stream = File.OpenRead(_path);

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class Restarted : IDisposable
{
    private readonly string _path;
    [Owning] private Stream? _stream;

    public Restarted(string path) => _path = path;

    // CASE: ... but one called on what a property held before this method stored into
    // it may find the field full.
    public void Start() => _stream = File.OpenRead(_path); // expect: RLC0004, RLC0009

    [Calls("_stream", "Dispose")]
    public void Dispose() => _stream?.Dispose();
}

public sealed class RestartJob : IDisposable
{
    [Owning] public Restarted? Current { get; set; }

    [CreatesMustCallFor("this")]
    public void Restart(string path, bool replace)
    {
        if (replace)
        {
            Current?.Dispose();
            Current = new Restarted(path);
        }
        Current!.Start();
    }

    [Calls("Current", "Dispose")]
    public void Dispose() => Current?.Dispose();
}

public static class StartsOnce
{
    public static Job Schedule(string path)
    {
        var job = new Job();
        job.Cleaner = new Cleaner(path);
        job.Cleaner.Start();
        return job;
    }

    private static IOpenable Recorder(string path) => new RecorderFromFactory(path);

    public static void Record(string path)
    {
        using var recorder = Recorder(path);
        recorder.Open();
    }
}
