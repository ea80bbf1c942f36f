// Case family: System.Threading: CancellationTokenSource (timeouts, linked sources),
// CancellationTokenRegistration, SemaphoreSlim, timers, ManualResetEventSlim, and Task
// (no obligation).
// cases: 23
using System;
using System.Threading;
using System.Threading.Tasks;
using RlcSharp.Annotations;

namespace Cases.Threading;

public static class Tokens
{
    // CASE: a timeout source under using.
    public static async Task WithTimeout(Func<CancellationToken, Task> work)
    {
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        await work(cts.Token);
    }

    // CASE: a timeout source never disposed (its timer stays registered).
    public static async Task TimeoutLeaked(Func<CancellationToken, Task> work)
    {
        var cts = new CancellationTokenSource(TimeSpan.FromSeconds(5)); // expect: RLC0001
        await work(cts.Token);
    }

    // CASE: Cancel() and CancelAfter() are not disposal (a plain source: its
    // disposal releases only managed state; the timer CancelAfter starts is not followed).
    public static void CancelIsNotDispose(Action<CancellationToken> work)
    {
        var cts = new CancellationTokenSource(); // expect: RLC0011
        cts.CancelAfter(100);
        work(cts.Token);
        cts.Cancel();
    }

    // CASE: a linked source under using.
    public static async Task Linked(CancellationToken outer, Func<CancellationToken, Task> work)
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(outer);
        linked.CancelAfter(TimeSpan.FromSeconds(30));
        await work(linked.Token);
    }

    // CASE: a linked source never disposed (it stays registered with the outer token).
    public static async Task LinkedLeaked(CancellationToken outer, CancellationToken other, Func<CancellationToken, Task> work)
    {
        var linked = CancellationTokenSource.CreateLinkedTokenSource(outer, other); // expect: RLC0001
        await work(linked.Token);
    }

    // CASE: a registration under using.
    public static void RegistrationDisposed(CancellationToken token, Action onCancel)
    {
        using var registration = token.Register(onCancel);
        Thread.Sleep(10);
    }

    // CASE: a registration dropped.
    public static void RegistrationDropped(CancellationToken token, Action onCancel)
    {
        token.Register(onCancel); // expect: RLC0001
    }

    // CASE: a Task has no obligation.
    public static Task<int> TasksNeedNothing()
    {
        var t = Task.Run(() => 42);
        var delay = Task.Delay(10);
        return Task.WhenAll(t, delay).ContinueWith(_ => t.Result);
    }
}

public static class Synchronization
{
    // CASE: a local semaphore never disposed.
    public static async Task SemaphoreLeaked(Func<Task> work)
    {
        var gate = new SemaphoreSlim(1, 1); // expect: RLC0011
        await gate.WaitAsync();
        try
        {
            await work();
        }
        finally
        {
            gate.Release();
        }
    }

    // CASE: a local ManualResetEventSlim under using.
    public static void EventDisposed(Action<ManualResetEventSlim> start)
    {
        using var ready = new ManualResetEventSlim(false);
        start(ready);
        ready.Wait();
    }

    // CASE: a timer kept in a local and never disposed.
    public static void TimerLeaked(TimerCallback tick)
    {
        var timer = new Timer(tick, null, 0, 1000); // expect: RLC0001
        GC.KeepAlive(timer);
    }
}

// CASE: a throttler that owns its semaphore.
public sealed class Throttler : IDisposable
{
    [Owning] private readonly SemaphoreSlim _gate = new SemaphoreSlim(4);

    public async Task<T> Run<T>(Func<Task<T>> work)
    {
        await _gate.WaitAsync().ConfigureAwait(false);
        try
        {
            return await work().ConfigureAwait(false);
        }
        finally
        {
            _gate.Release();
        }
    }

    [Calls("_gate", "Dispose")]
    public void Dispose() => _gate.Dispose();
}

// CASE: a poller that owns a System.Threading.Timer.
public sealed class Poller : IDisposable
{
    [Owning] private readonly Timer _timer;

    public Poller(TimerCallback tick)
    {
        _timer = new Timer(tick, null, TimeSpan.Zero, TimeSpan.FromSeconds(1));
    }

    [Calls("_timer", "Dispose")]
    public void Dispose() => _timer.Dispose();
}

// CASE: a System.Timers.Timer owned by a field.
public sealed class Heartbeat : IDisposable
{
    [Owning] private readonly System.Timers.Timer _timer = new System.Timers.Timer(1000);

    public void Start() => _timer.Start();

    [Calls("_timer", "Dispose")]
    public void Dispose() => _timer.Dispose();
}

// CASE: a worker that restarts its cancellation source correctly.
public sealed class Worker : IDisposable
{
    [Owning] private CancellationTokenSource _cts = new CancellationTokenSource();

    [CreatesMustCallFor("this")]
    public void Restart()
    {
        _cts.Cancel();
        _cts.Dispose();
        _cts = new CancellationTokenSource();
    }

    [Calls("_cts", "Dispose")]
    public void Dispose() => _cts.Dispose();
}

// CASE: a worker that replaces its cancellation source without disposing it: a
// plain source releases only managed state, so the overwrite is RLC0011 and
// callers owe nothing new (no RLC0009).
public sealed class CarelessWorker : IDisposable
{
    [Owning] private CancellationTokenSource _cts = new CancellationTokenSource();

    public void Restart()
    {
        _cts.Cancel();
        _cts = new CancellationTokenSource(); // expect: RLC0011
    }

    [Calls("_cts", "Dispose")]
    public void Dispose() => _cts.Dispose();
}

// CASE: `Interlocked.Exchange(ref _f, null)?.Dispose()` disposes what the field held.
public sealed class ExchangedTimer : IDisposable
{
    [Owning] private Timer? _timer = new Timer(_ => { }, null, 1000, 1000);

    public void Dispose() => Interlocked.Exchange(ref _timer, null)?.Dispose();
}

// CASE: the same through a local, in a helper the disposal method calls.
public sealed class ExchangedSocketHolder : IDisposable
{
    [Owning] private System.Net.Sockets.Socket? _socket =
        new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);

    [Calls("_socket", "Dispose")]
    private void Shutdown()
    {
        var s = Interlocked.Exchange(ref _socket, null);
        s?.Dispose();
    }

    public void Dispose() => Shutdown();
}

// CASE: exchanging in a new value and dropping the old one loses it.
public sealed class ExchangeDropsOld : IDisposable
{
    [Owning] private Timer? _timer;

    [CreatesMustCallFor("this")]
    public void Restart()
    {
        Interlocked.Exchange(ref _timer, new Timer(_ => { }, null, 0, 1000)); // expect: RLC0004
    }

    public void Dispose() => _timer?.Dispose();
}

// CASE: `Volatile.Read(ref _f)` reads the field; it does not assign it.
public sealed class VolatileReader : IDisposable
{
    [Owning] private Timer? _timer = new Timer(_ => { }, null, 1000, 1000);

    internal Timer? Current => Volatile.Read(ref _timer);

    public bool Active => Current != null;

    public void Dispose() => _timer?.Dispose();
}

// CASE: the old value taken out by the exchange and then dropped: reported at the exchange.
public sealed class ExchangeKeepsOldInLocal : IDisposable
{
    [Owning] private Timer? _timer;

    [CreatesMustCallFor("this")]
    public void Restart()
    {
        var old = Interlocked.Exchange(ref _timer, new Timer(_ => { }, null, 0, 1000)); // expect: RLC0004
        Console.WriteLine(old == null);
    }

    public void Dispose() => _timer?.Dispose();
}


public static class WaitRegistrations
{
    // CASE: `Unregister(null)` releases a registered wait (its must-call method takes an argument).
    public static void Registered(WaitHandle h, WaitOrTimerCallback onSignal)
    {
        var reg = ThreadPool.RegisterWaitForSingleObject(h, onSignal, null, -1, true);
        reg.Unregister(null);
    }

    // CASE: a registration never unregistered.
    public static void Forgotten(WaitHandle h, WaitOrTimerCallback onSignal)
    {
        var reg = ThreadPool.RegisterWaitForSingleObject(h, onSignal, null, -1, true); // expect: RLC0001
        GC.KeepAlive(reg);
    }
}
