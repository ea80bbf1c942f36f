// Case family: resources stored in collections. A store into a collection moves the
// value's obligation to the collection: it is discharged when the collection is owning
// (a field whose elements the class's must-call method disposes, a local collection
// disposed element-wise on every path before it goes out of scope, a container whose
// Add takes ownership), and otherwise reported once at the store (RLC0005). A copy that
// keeps a collection's elements (`Values.ToArray()`, `list.ToArray()`), disposed element-wise,
// disposes the collection's elements; a filtered one does not.
// cases: 38
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using RlcSharp.Annotations;

namespace Cases.Collections;

// CASE: an owning collection field whose elements Dispose() disposes.
public sealed class StreamSet : IDisposable
{
    private readonly List<Stream> _streams = new List<Stream>();

    public void Open(string path)
    {
        _streams.Add(File.OpenRead(path));
    }

    public void Dispose()
    {
        foreach (var s in _streams)
        {
            s.Dispose();
        }
        _streams.Clear();
    }
}

// CASE: a collection field nobody disposes element-wise.
public sealed class StreamCache
{
    private readonly Dictionary<string, Stream> _open = new Dictionary<string, Stream>();

    public void Open(string path)
    {
        var fs = File.OpenRead(path);
        _open.Add(path, fs); // expect: RLC0005
    }

    public int Count => _open.Count;
}

// CASE: elements disposed with List<T>.ForEach and a disposing lambda.
public sealed class ForEachDisposer : IDisposable
{
    private readonly List<IDisposable> _items = new List<IDisposable>();

    public void Track(string path)
    {
        _items.Add(File.OpenRead(path));
    }

    public void Dispose() => _items.ForEach(d => d.Dispose());
}

// CASE: a CompositeDisposable-like container: its Add takes ownership.
public sealed class DisposableBag : IDisposable
{
    private readonly List<IDisposable> _items = new List<IDisposable>();

    public void Add([Owning] IDisposable item)
    {
        _items.Add(item);
    }

    public void Dispose()
    {
        foreach (var item in _items)
        {
            item.Dispose();
        }
    }
}

// CASE: a container whose Add does not declare [Owning]: callers keep the obligation.
public sealed class UnannotatedBag : IDisposable
{
    private readonly List<IDisposable> _items = new List<IDisposable>();

    public void Add(IDisposable item)
    {
        _items.Add(item);
    }

    public void Dispose()
    {
        foreach (var item in _items)
        {
            item.Dispose();
        }
    }
}

public static class CollectionUsers
{
    // CASE: a local list disposed element-wise before it goes out of scope.
    public static long LocalListDisposed(string[] paths)
    {
        var streams = new List<Stream>();
        foreach (var p in paths)
        {
            streams.Add(File.OpenRead(p));
        }
        long total = 0;
        foreach (var s in streams)
        {
            total += s.Length;
        }
        foreach (var s in streams)
        {
            s.Dispose();
        }
        return total;
    }

    // CASE: a local list whose elements are never disposed.
    public static int LocalListLeaked(string[] paths)
    {
        var streams = new List<Stream>();
        foreach (var p in paths)
        {
            var fs = File.OpenRead(p);
            streams.Add(fs); // expect: RLC0005
        }
        return streams.Count;
    }

    // CASE: a local list disposed element-wise on one path only.
    public static int LocalListDisposedOnOnePath(string[] paths, int limit)
    {
        var streams = new List<Stream>();
        foreach (var p in paths)
        {
            streams.Add(File.OpenRead(p)); // expect: RLC0005
        }
        if (streams.Count > limit)
        {
            return -1;
        }
        foreach (var s in streams)
        {
            s.Dispose();
        }
        return streams.Count;
    }

    // CASE: a local list filled, used in a try, and disposed element-wise in its finally.
    public static long LocalListDisposedInFinally(string[] paths)
    {
        var streams = new List<Stream>();
        foreach (var p in paths)
        {
            streams.Add(File.OpenRead(p));
        }
        try
        {
            long total = 0;
            foreach (var s in streams)
            {
                total += s.Length;
            }
            return total;
        }
        finally
        {
            foreach (var s in streams)
            {
                s.Dispose();
            }
        }
    }

    // CASE: an array filled in a loop, used in a try, and disposed element-wise in its
    // finally.
    public static int ArrayDisposedInFinally(string[] paths)
    {
        var streams = new Stream[paths.Length];
        for (var i = 0; i < paths.Length; i++)
        {
            streams[i] = File.OpenRead(paths[i]);
        }
        try
        {
            var sum = 0;
            foreach (var s in streams)
            {
                sum += s.ReadByte();
            }
            return sum;
        }
        finally
        {
            foreach (var s in streams)
            {
                s?.Dispose();
            }
        }
    }

    // CASE: an array store into an array nobody disposes.
    public static Stream[] ArrayStoreLeaked(string[] paths)
    {
        var streams = new Stream[paths.Length];
        for (var i = 0; i < paths.Length; i++)
        {
            streams[i] = File.OpenRead(paths[i]); // expect: RLC0005
        }
        return Array.Empty<Stream>();
    }

    // CASE: adding to a container whose Add takes ownership.
    public static void AddToOwningBag(string path)
    {
        using var bag = new DisposableBag();
        bag.Add(File.OpenRead(path));
    }

    // CASE: adding to a container whose Add does not take ownership.
    public static void AddToUnannotatedBag(string path)
    {
        using var bag = new UnannotatedBag();
        bag.Add(File.OpenRead(path)); // expect: RLC0001
    }

    // CASE: a list of resource-free values needs nothing.
    public static int ResourceFreeElements(byte[][] chunks)
    {
        var buffers = new List<MemoryStream>();
        foreach (var c in chunks)
        {
            buffers.Add(new MemoryStream(c));
        }
        return buffers.Count;
    }

    // CASE: an owning collection class used correctly by its caller.
    public static void UseStreamSet(string[] paths)
    {
        using var set = new StreamSet();
        foreach (var p in paths)
        {
            set.Open(p);
        }
    }

    // CASE: a collection initializer stores into a list nobody disposes.
    public static int InitializerLeaked(string path)
    {
        var streams = new List<Stream> { File.OpenRead(path) }; // expect: RLC0005
        return streams.Count;
    }

    // CASE: a stack of streams whose elements are never disposed.
    public static int StackLeaked(string[] paths)
    {
        var pending = new Stack<Stream>();
        foreach (var p in paths)
        {
            pending.Push(File.OpenRead(p)); // expect: RLC0005
        }
        return pending.Count;
    }

    // CASE: elements disposed with ForEach on a local list.
    public static void LocalForEachDispose(string[] paths)
    {
        var streams = new List<Stream>();
        foreach (var p in paths)
        {
            streams.Add(File.OpenRead(p));
        }
        streams.ForEach(s => s.Dispose());
    }

    // CASE: TryGetValue lends the element: the dictionary keeps owning it.
    public static int LookupLends(Dictionary<string, Stream> open, string key)
    {
        return open.TryGetValue(key, out var s) ? s.ReadByte() : -1;
    }

    // CASE: TryDequeue hands the element over: the caller must dispose it.
    public static int DequeueTakes(System.Collections.Concurrent.ConcurrentQueue<Stream> pending)
    {
        return pending.TryDequeue(out var s) ? s.ReadByte() : -1; // expect: RLC0001
    }

    // CASE: a pool: when TryTake fails its `out` value is null, so replacing it with a
    // fresh stream loses nothing.
    public static Stream TakeOrOpen(System.Collections.Concurrent.ConcurrentBag<Stream> pool, string path)
    {
        if (!pool.TryTake(out var s))
        {
            s = File.OpenRead(path);
        }
        return s;
    }

    // CASE: the program's own try pattern gets the same reading.
    public static Stream ReuseOrOpen(string path)
    {
        if (!TryReuse(path, out var s))
        {
            s = File.OpenRead(path);
        }
        return s;
    }

    private static bool TryReuse(string path, out Stream s)
    {
        s = path.Length > 0 ? File.OpenRead(path) : null;
        return s != null;
    }

    // CASE: Dictionary.Remove(key, out value) follows the try pattern though its name
    // does not say so (`[MaybeNullWhen(false)]`): when it returns false there is
    // nothing to dispose.
    public static void RemoveAndDispose(Dictionary<string, Stream> open, string key)
    {
        if (!open.Remove(key, out var s))
        {
            return;
        }
        s.Dispose();
    }

    // CASE: the removed element dropped when Remove succeeds is lost.
    public static bool RemoveAndDrop(Dictionary<string, Stream> open, string key)
    {
        return open.Remove(key, out var s); // expect: RLC0001
    }

    // CASE: a method of the program states the try pattern with the nullable
    // annotations, whatever its name: `[NotNullWhen(true)]` or `[MaybeNullWhen(false)]`
    // on its `out` parameter (here an interface's, with no body to read).
    public static void CheckOutAndDispose(ICheckouts checkouts, string path)
    {
        if (!checkouts.CheckOut(path, out var s))
        {
            return;
        }
        s.Dispose();
    }

    // CASE: a taken element dropped on the success path is still lost.
    public static bool TakeAndDrop(System.Collections.Concurrent.ConcurrentBag<Stream> pool)
    {
        return pool.TryTake(out var s); // expect: RLC0001
    }

    // CASE: a dictionary keyed by resources returned to the caller keeps keys and values.
    public static Dictionary<Stream, Stream> Pairs(string a, string b)
    {
        var map = new Dictionary<Stream, Stream>();
        var key = File.OpenRead(a);
        var value = File.OpenRead(b);
        map.Add(key, value);
        return map;
    }
}

public sealed class DictionaryOwners : IDisposable
{
    private readonly Dictionary<string, Stream> _byEntry = new();
    private readonly Dictionary<string, Stream> _byValues = new();
    private readonly System.Collections.Hashtable _table = new();

    // CASE: a dictionary whose entries are disposed through `pair.Value`, one whose
    // `Values` are disposed, and a `Hashtable` whose entries' values are disposed.
    public void Add(string key, string path)
    {
        _byEntry.Add(key, File.OpenRead(path));
        _byValues[key] = File.OpenRead(path);
        _table[key] = File.OpenRead(path);
    }

    public void Dispose()
    {
        foreach (var pair in _byEntry)
            pair.Value.Dispose();
        foreach (var s in _byValues.Values)
            s.Dispose();
        foreach (System.Collections.DictionaryEntry e in _table)
            (e.Value as Stream)?.Dispose();
    }
}

public sealed class DictionaryNotDisposed : IDisposable
{
    private readonly Dictionary<string, Stream> _map = new();
    private readonly System.Collections.Hashtable _table = new();

    // CASE: reading each entry's key disposes nothing.
    public void Add(string key, string path)
    {
        _map.Add(key, File.OpenRead(path)); // expect: RLC0005
    }

    // CASE: a `Hashtable` cleared without disposing its values.
    public void Put(string key, string path)
    {
        _table[key] = File.OpenRead(path); // expect: RLC0005
    }

    public void Dispose()
    {
        foreach (var pair in _map)
            Console.WriteLine(pair.Key);
        _table.Clear();
    }
}

// CASE: a registry whose elements leave through `TryRemove` and are disposed there: an
// element stored in it is not lost.
public sealed class SessionRegistry
{
    private static readonly ConcurrentDictionary<string, Stream> Sessions = new();

    public void Open(string key, string path)
    {
        var fs = File.OpenRead(path);
        if (!Sessions.TryAdd(key, fs))
        {
            fs.Dispose();
        }
    }

    public void Close(string key)
    {
        if (Sessions.TryRemove(key, out var fs))
        {
            fs.Dispose();
        }
    }
}

// CASE: a registry whose removal drops what it takes out.
public sealed class LeakyRegistry
{
    private readonly Dictionary<string, Stream> _sessions = new();

    public void Open(string key, string path)
    {
        _sessions.Add(key, File.OpenRead(path)); // expect: RLC0005
    }

    public bool Close(string key) => _sessions.Remove(key, out _);
}

// CASE: a tuple of resources stored in a registry that disposes its named members as
// they leave it.
public sealed class TimerRegistry
{
    private readonly ConcurrentDictionary<string, (Stream Log, Timer Tick)> _entries = new();

    public void Start(string key, string path)
    {
        var log = File.OpenWrite(path);
        var tick = new Timer(_ => { }, null, 1000, 1000);
        if (!_entries.TryAdd(key, (log, tick)))
        {
            log.Dispose();
            tick.Dispose();
        }
    }

    public void Stop(string key)
    {
        if (_entries.TryRemove(key, out var entry))
        {
            entry.Log.Dispose();
            entry.Tick.Dispose();
        }
    }
}

// CASE: a tuple holding a resource, stored in a collection the method does not own:
// the collection's holder answers for it, and nothing disposes its elements.
public static class TupleCache
{
    public static void Fill(List<(string Name, Stream Data)> cache, string path)
    {
        var data = File.OpenRead(path);
        cache.Add((path, data)); // expect: RLC0005
    }
}

// CASE: a local collection whose copy (`ToList()`) goes to a static field: the elements
// live there for the program's lifetime.
public static class StreamTable
{
    private static List<Stream>? s_all;

    public static void Init(string[] paths)
    {
        var streams = new List<Stream>();
        foreach (var p in paths)
        {
            streams.Add(File.OpenRead(p));
        }
        s_all = streams.ToList();
    }

    public static int Count => s_all?.Count ?? 0;
}

// CASE: a disposal method that takes a snapshot of a dictionary's values (`Values.ToArray()`),
// empties the dictionary and disposes every element of the snapshot: the copy keeps the same
// elements, so the dictionary's elements are disposed.
public sealed class SnapshotOwner : IAsyncDisposable
{
    private readonly IDictionary<string, Stream> _open = new Dictionary<string, Stream>();

    public void Open(string path)
    {
        var s = File.OpenRead(path);
        lock (_open)
            _open[path] = s;
    }

    public async ValueTask DisposeAsync()
    {
        Stream[] streams;
        lock (_open)
        {
            streams = _open.Values.ToArray();
            _open.Clear();
        }
        foreach (var s in streams)
            await s.DisposeAsync();
    }
}

// CASE: the same with a list's own `ToArray()` and a concurrent dictionary's pairs.
public sealed class InstanceSnapshotOwner : IDisposable
{
    private readonly List<Stream> _list = new();
    private readonly ConcurrentDictionary<string, Stream> _byName = new();

    public void Add(string path)
    {
        _list.Add(File.OpenRead(path));
        _byName.TryAdd(path, File.OpenRead(path));
    }

    public void Dispose()
    {
        foreach (var s in _list.ToArray())
            s.Dispose();
        _list.Clear();
        foreach (var pair in _byName.ToArray())
            pair.Value.Dispose();
    }
}

// CASE: a filtered copy (`Where(..).ToList()`) keeps only some elements: disposing it does not
// dispose the collection's elements.
public sealed class FilteredSnapshotOwner : IDisposable
{
    private readonly List<Stream> _list = new();

    public void Add(string path)
    {
        _list.Add(File.OpenRead(path)); // expect: RLC0005
    }

    public void Dispose()
    {
        foreach (var s in _list.Where(s => s.CanRead).ToList())
            s.Dispose();
    }
}

public interface ICheckouts
{
    bool CheckOut(string path, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out Stream? s);
}
