// Case family: framework callbacks that start an object's life. The host calls
// `IHostedService.StartAsync` (and `IHostedLifecycleService.StartingAsync`/`StartedAsync`,
// `IHostLifetime.WaitForStartAsync`, `BackgroundService.ExecuteAsync`) and the service
// controller `ServiceBase.OnStart` once per object, after its constructor and before
// anything else: the model marks them `[LifecycleStart]`. An implementation or override
// assigns owning fields that hold nothing yet, like a constructor (no RLC0004, no
// RLC0009), and so do the private helpers only it calls on `this`. Not a field that
// construction already filled, and not when the program itself calls the callback again
// (`Restart() { StopAsync(); StartAsync(); }`): then it is an ordinary method.
// cases: 10
using System;
using System.Diagnostics;
using System.ServiceProcess;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;
using RlcSharp.Annotations;

namespace Cases.LifecycleCallbacks;

// CASE: a hosted service creates its token source when the host starts it.
public sealed class QueueService : IHostedService, IDisposable
{
    [Owning] private CancellationTokenSource? _cts;
    private Task? _loop;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _cts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _loop = Task.Delay(Timeout.Infinite, _cts.Token);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => _cts?.CancelAsync() ?? Task.CompletedTask;

    public void Dispose() => _cts?.Dispose();
}

// CASE: the lifetime fills its field in a private helper that only the start callback calls.
public sealed class StoppingLifetime : IHostLifetime, IDisposable
{
    private readonly CancellationToken _stopped;
    [Owning] private Process? _watchdog;

    public StoppingLifetime(CancellationToken stopped) => _stopped = stopped;

    public Task WaitForStartAsync(CancellationToken cancellationToken)
    {
        StartWatchdog();
        return Task.CompletedTask;
    }

    private void StartWatchdog() => _watchdog = Process.Start("watchdog");

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _watchdog?.Dispose();
}

// CASE: a background service's `ExecuteAsync` runs once, from the base class's `StartAsync`.
public sealed class Worker : BackgroundService
{
    [Owning] private Process? _child;

    protected override Task ExecuteAsync(CancellationToken stoppingToken)
    {
        _child = Process.Start("child");
        return _child.WaitForExitAsync(stoppingToken);
    }

    public override void Dispose()
    {
        _child?.Dispose();
        base.Dispose();
    }
}

// CASE: a lifecycle service's `StartingAsync` runs once, before `StartAsync`.
public sealed class Warmup : IHostedLifecycleService, IDisposable
{
    [Owning] private Process? _cache;

    public Task StartingAsync(CancellationToken cancellationToken)
    {
        _cache = Process.Start("cache");
        return Task.CompletedTask;
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _cache?.Dispose();
}

// CASE: a Windows service starts its child process in `OnStart`.
public sealed class ConsoleHostService : ServiceBase
{
    [Owning] private Process? _console;

    protected override void OnStart(string[] args) => _console = Process.Start("console");

    protected override void OnStop() => _console?.Kill();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _console?.Dispose();
        }
        base.Dispose(disposing);
    }
}

// CASE: the host calls the override, which calls the base's start callback: still once.
public class BaseStarter : IHostedService, IDisposable
{
    [Owning] private Process? _first;

    public virtual Task StartAsync(CancellationToken cancellationToken)
    {
        _first = Process.Start("first");
        return Task.CompletedTask;
    }

    public virtual Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public virtual void Dispose() => _first?.Dispose();
}

public sealed class DerivedStarter : BaseStarter
{
    public override Task StartAsync(CancellationToken cancellationToken) => base.StartAsync(cancellationToken);
}

// CASE: the field initializer fills the field: the start callback overwrites a live process.
public sealed class PrestartedService : IHostedService, IDisposable
{
    [Owning] private Process _process = Process.Start("early");

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _process = Process.Start("late"); // expect: RLC0004
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _process.Dispose();
}

// CASE: a helper the constructor also calls fills the field before the start callback runs.
public sealed class SharedHelperService : IHostedService, IDisposable
{
    [Owning] private Process? _process;

    public SharedHelperService() => Launch();

    private void Launch() => _process = Process.Start("helper");

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _process = Process.Start("again"); // expect: RLC0004
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _process?.Dispose();
}

// CASE: the program restarts the service itself: `StartAsync` may find the field full.
public sealed class RestartableService : IHostedService, IDisposable
{
    [Owning] private Process? _process;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _process = Process.Start("svc"); // expect: RLC0004, RLC0009
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _process?.Kill();
        return Task.CompletedTask;
    }

    public async Task RestartAsync()
    {
        await StopAsync(default);
        await StartAsync(default);
    }

    public void Dispose() => _process?.Dispose();
}

// CASE: `ServiceBase.Run` keeps the services it is given until the process ends.
public static class ServiceProgram
{
    public static void Main() => ServiceBase.Run([new ConsoleHostService()]);
}
