// rlc-case: infer
// Case family: .NET types whose disposal, as the library model states
// (`releases_only_managed`), releases only managed state: slim primitives whose
// kernel event exists only on request, a plain CancellationTokenSource, pooled
// JsonDocument buffers, EventSource counters. Their losses keep being reported,
// as RLC0011 notes, in every form the other rules know (never disposed, field
// not disposed, overwritten, elements). Sources with a timer or linked to
// other tokens, and the repository's own types holding such values, keep the
// full obligation.
// cases: 13
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.Tracing;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;

namespace Cases.ReleasesOnlyManaged;

// CASE: a semaphore field no method disposes.
public sealed class Gate
{
    private readonly SemaphoreSlim _lock = new SemaphoreSlim(1, 1); // expect: RLC0011

    public async Task Run(Func<Task> work)
    {
        await _lock.WaitAsync();
        try { await work(); }
        finally { _lock.Release(); }
    }
}

// CASE: a plain cancellation source cancelled on stop but never disposed.
public sealed class Loop
{
    private readonly CancellationTokenSource _stop = new CancellationTokenSource(); // expect: RLC0011

    public void Start(Action<CancellationToken> body) => body(_stop.Token);
    public void Stop() => _stop.Cancel();
}

// CASE: a disposable class disposes its semaphore: nothing to report.
public sealed class DisposedGate : IDisposable
{
    private readonly SemaphoreSlim _lock = new SemaphoreSlim(1, 1);

    public void Wait() => _lock.Wait();
    public void Dispose() => _lock.Dispose();
}

public static class Locals
{
    // CASE: a local JsonDocument read and dropped.
    public static string Name(string json)
    {
        var doc = JsonDocument.Parse(json); // expect: RLC0011
        return doc.RootElement.GetProperty("name").GetString() ?? "";
    }

    // CASE: a source with a timer keeps the full obligation.
    public static async Task Timed(Func<CancellationToken, Task> work)
    {
        var cts = new CancellationTokenSource(TimeSpan.FromSeconds(30)); // expect: RLC0001
        await work(cts.Token);
    }

    // CASE: a linked source registers on its parents until disposed: full obligation.
    public static async Task Linked(CancellationToken outer, Func<CancellationToken, Task> work)
    {
        var cts = CancellationTokenSource.CreateLinkedTokenSource(outer); // expect: RLC0001
        await work(cts.Token);
    }

    // CASE: a linked source under using: nothing to report.
    public static async Task LinkedDisposed(CancellationToken outer, Func<CancellationToken, Task> work)
    {
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(outer);
        await work(cts.Token);
    }

    // CASE: a plain source lost when the method throws.
    public static void CancelOnError(bool valid, Action<CancellationToken> work)
    {
        var cts = new CancellationTokenSource(); // expect: RLC0011
        if (!valid) throw new ArgumentException("invalid");
        work(cts.Token);
        cts.Dispose();
    }

    // CASE: slim events kept in a local list nobody disposes.
    public static void Signals(int n, Action<IReadOnlyList<ManualResetEventSlim>> run)
    {
        var list = new List<ManualResetEventSlim>();
        for (var i = 0; i < n; i++)
            list.Add(new ManualResetEventSlim(false)); // expect: RLC0011
        run(list);
    }
}

// CASE: overwriting a semaphore field is a harmless loss, and callers owe nothing new.
public sealed class Resizable : IDisposable
{
    private SemaphoreSlim _slots = new SemaphoreSlim(4);

    public void Resize(int n) => _slots = new SemaphoreSlim(n); // expect: RLC0011

    public void Dispose() => _slots.Dispose();
}

// CASE: EventSource counters created in the constructor and never disposed.
[EventSource(Name = "Cases-Counters")]
public sealed class Metrics : EventSource
{
    private readonly PollingCounter _queued; // expect: RLC0011

    public Metrics(Func<double> queued)
    {
        _queued = new PollingCounter("queued", this, queued);
    }
}

// CASE: the repository's own type wrapping a semaphore keeps its obligation.
public sealed class Throttle : IDisposable
{
    private readonly SemaphoreSlim _lock = new SemaphoreSlim(2);

    public void Enter() => _lock.Wait();
    public void Dispose() => _lock.Dispose();

    public static void Use()
    {
        var t = new Throttle(); // expect: RLC0001
        t.Enter();
    }
}

// CASE: a blocking collection field no method disposes.
public sealed class Pump
{
    private readonly BlockingCollection<string> _queue = new BlockingCollection<string>(); // expect: RLC0011

    public void Post(string item) => _queue.Add(item);
}
