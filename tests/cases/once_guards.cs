// rlc-case: infer
// Case family: guards that let a disposal method do its work once. A disposal
// method's guarantees are about its first call, the one that discharges the
// object's obligation: a field that only this method writes after construction
// still holds, on that call, what construction left there. A dispose-once counter
// (`if (Interlocked.Increment(ref _disposed) > 1) return;`) finds 0 and the guard
// passes; a resource swapped out once (`var p = Interlocked.Exchange(ref _pool,
// null); if (p != null) { .. }`) finds what every constructor stored. When anything
// else writes the field (another method, an initializer with another value) the
// first call may find it set, and the guard may skip the disposal.
// cases: 17
using System;
using System.IO;
using System.Threading;

namespace Cases.OnceGuards;

// CASE: a dispose-once counter in `Dispose(bool)`: the first call finds 0, so
// `Increment(..) > 1` is false and the disposal runs.
public sealed class CounterGuard : IDisposable
{
    private FileStream _data;
    private int _disposed;

    public void Open(string path)
    {
        _data?.Dispose();
        _data = new FileStream(path, FileMode.Open);
    }

    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    private void Dispose(bool disposing)
    {
        if (Interlocked.Increment(ref _disposed) > 1)
        {
            return;
        }
        _data?.Dispose();
    }
}

// CASE: the same counter compared the other way round, and tested for the first
// call itself (`== 1`).
public sealed class CounterGuardForms : IDisposable
{
    private readonly Stream _data;
    private readonly Stream _log;
    private int _disposed;
    private int _closed;

    public CounterGuardForms(string path)
    {
        _data = File.OpenRead(path);
        _log = File.OpenRead(path + ".log");
    }

    public void Dispose()
    {
        if (1 < Interlocked.Increment(ref _disposed))
        {
            return;
        }
        if (Interlocked.Increment(ref _closed) == 1)
        {
            _log.Dispose();
        }
        _data.Dispose();
    }
}

// CASE: the counter tested with a relational pattern (`is > 1`), as `> 1`.
public sealed class CounterGuardPattern : IDisposable
{
    private readonly Stream _data;
    private int _disposed;

    public CounterGuardPattern(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (Interlocked.Increment(ref _disposed) is > 1)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: the same pattern on a counter that starts at 1: the first call finds it set.
public sealed class CounterGuardPatternStartingSet : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private int _disposed = 1;

    public CounterGuardPatternStartingSet(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (Interlocked.Increment(ref _disposed) is > 1)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: a counter another method also increments (a reference count): the first
// `Dispose` may find it above 0 and return early.
public sealed class CounterIncrementedElsewhere : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private int _refs;

    public CounterIncrementedElsewhere(string path) => _data = File.OpenRead(path);

    public CounterIncrementedElsewhere AddRef()
    {
        Interlocked.Increment(ref _refs);
        return this;
    }

    public void Dispose()
    {
        if (Interlocked.Increment(ref _refs) > 1)
        {
            return;
        }
        _data.Dispose();
    }
}

// CASE: a counter another method decrements: the first `Dispose` may find -1, and
// `Increment(..) == 1` is then false.
public sealed class CounterDecrementedElsewhere : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private int _state;

    public CounterDecrementedElsewhere(string path) => _data = File.OpenRead(path);

    public void Release() => Interlocked.Decrement(ref _state);

    public void Dispose()
    {
        if (Interlocked.Increment(ref _state) == 1)
        {
            _data.Dispose();
        }
    }
}

// CASE: a counter that starts above 0: the first call already finds it set.
public sealed class CounterStartingSet : IDisposable
{
    private readonly Stream _data; // expect: RLC0003
    private int _disposed = 1;

    public CounterStartingSet(string path) => _data = File.OpenRead(path);

    public void Dispose()
    {
        if (Interlocked.Increment(ref _disposed) > 1)
        {
            return;
        }
        _data.Dispose();
    }
}

public abstract class AllocatorBase : IDisposable
{
    private readonly SemaphoreSlim _flushed = new SemaphoreSlim(0);

    public virtual void Dispose() => _flushed.Dispose();
}

public sealed class Pool : IDisposable
{
    public void Dispose()
    {
    }
}

// CASE: an override that swaps a pool out and disposes its base only when it got
// the pool: on the first call the field holds the pool the initializer created, so
// `base.Dispose()` runs and the override keeps its base's `[Calls]`.
public sealed class SwappedOutOnce : AllocatorBase
{
    private Pool _pool = new Pool();

    public override void Dispose()
    {
        var pool = Interlocked.Exchange(ref _pool, null);
        if (pool != null)
        {
            pool.Dispose();
            base.Dispose();
        }
    }
}

// CASE: the same swap where another method may empty the field first: the first
// `Dispose` may find it empty and skip `base.Dispose()`.
public sealed class SwappedOutAfterTrim : AllocatorBase
{
    private Pool _pool = new Pool();

    public void Trim()
    {
        _pool?.Dispose();
        _pool = null;
    }

    public override void Dispose() // expect: RLC0008
    {
        var pool = Interlocked.Exchange(ref _pool, null);
        if (pool != null)
        {
            pool.Dispose();
            base.Dispose();
        }
    }
}

// CASE: a constructor that does not fill the field: the first `Dispose` may find it
// empty.
public sealed class SwappedOutNotAlwaysFilled : AllocatorBase
{
    private Pool _pool;

    public SwappedOutNotAlwaysFilled(bool pooled)
    {
        if (pooled)
        {
            _pool = new Pool();
        }
    }

    public override void Dispose() // expect: RLC0008
    {
        var pool = Interlocked.Exchange(ref _pool, null);
        if (pool != null)
        {
            pool.Dispose();
            base.Dispose();
        }
    }
}

// CASE: the counter guards `Dispose`, not the overwrite: a public connect that
// replaces the socket without disposing it is still reported.
public sealed class GuardedDisposeUnguardedOverwrite : IDisposable
{
    private FileStream _socket;
    private int _disposed;

    public void Connect(string path)
    {
        _socket = new FileStream(path, FileMode.Open); // expect: RLC0004
    }

    public void Reconnect(string path)
    {
        _socket?.Dispose();
        Connect(path);
    }

    public void Dispose()
    {
        if (Interlocked.Increment(ref _disposed) > 1)
        {
            return;
        }
        _socket?.Dispose();
    }
}

// CASE: a set-once flag guards a lazy open: the flag is set before the field is
// filled and never cleared, so while it is false the field still holds nothing.
public sealed class OpenOnce : IDisposable
{
    private readonly string _path;
    private FileStream _data;
    private bool _opened;

    public OpenOnce(string path) { _path = path; }

    public void Open()
    {
        if (_opened)
        {
            return;
        }
        _opened = true;
        _data = File.Open(_path, FileMode.OpenOrCreate);
    }

    public void Dispose() => _data?.Dispose();
}

// CASE: the same flag cleared by a reset that does not dispose: a second open
// may find the field filled, so the overwrite is reported.
public sealed class OpenOnceResettable : IDisposable
{
    private readonly string _path;
    private FileStream _data;
    private bool _opened;

    public OpenOnceResettable(string path) { _path = path; }

    public void Open()
    {
        if (_opened)
        {
            return;
        }
        _opened = true;
        _data = File.Open(_path, FileMode.OpenOrCreate); // expect: RLC0004
    }

    public void Reset() => _opened = false;

    public void Dispose() => _data?.Dispose();
}

// CASE: a flag set only after the field is filled does not guard this store:
// another method fills the field without looking at the flag.
public sealed class OpenOnceBypassed : IDisposable
{
    private readonly string _path;
    private FileStream _data;
    private bool _opened;

    public OpenOnceBypassed(string path) { _path = path; }

    public void Open()
    {
        if (_opened)
        {
            return;
        }
        _opened = true;
        _data = File.Open(_path, FileMode.OpenOrCreate); // expect: RLC0004
    }

    public void Reopen() => _data = File.Open(_path, FileMode.Open); // expect: RLC0004

    public void Dispose() => _data?.Dispose();
}

// CASE: a double-checked lazy getter sets its flag right after it fills the field,
// with nothing between that could throw: while the flag is false the field still
// holds nothing, so the fill overwrites nothing.
public sealed class LazyOnce : IDisposable
{
    private readonly object _gate = new object();
    private FileStream _data;
    private bool _determined;

    private FileStream Data
    {
        get
        {
            if (!_determined)
            {
                lock (_gate)
                {
                    if (!_determined)
                    {
                        _data = File.OpenRead("data.bin");
                        _determined = true;
                    }
                }
            }
            return _data;
        }
    }

    public long Length => Data.Length;

    public void Dispose() => _data?.Dispose();
}

// CASE: the same getter with a call between the fill and the flag: when the call
// throws, the flag stays false and the next read opens again over the first stream;
// the getter may give the object a new stream after its disposal.
public sealed class LazyOnceInterrupted : IDisposable
{
    private FileStream _data;
    private bool _determined;

    private FileStream Data
    {
        get
        {
            if (!_determined)
            {
                _data = File.OpenRead("data.bin"); // expect: RLC0004, RLC0009
                Console.WriteLine("opened");
                _determined = true;
            }
            return _data;
        }
    }

    public long Length => Data.Length;

    public void Dispose() => _data?.Dispose();
}

// CASE: a class that is not disposable fills a field lazily: the class owns a stream
// nobody can release (RLC0003); it has no must-call method a caller could call again.
public sealed class LazyWithoutDispose
{
    private FileStream _data; // expect: RLC0003

    public long Length
    {
        get
        {
            _data ??= File.OpenRead("data.bin");
            return _data.Length;
        }
    }
}
