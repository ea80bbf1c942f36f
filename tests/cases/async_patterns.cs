// Case family: async code: `await using`, DisposeAsync(), async factories and
// `await OpenAsync()`, ConfigureAwait(false) on tasks and on disposables, async
// iterators and enumerators, IAsyncDisposable classes.
// cases: 24
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Data.SqlClient;
using RlcSharp.Annotations;

namespace Cases.AsyncPatterns;

public static class AsyncPatterns
{
    // CASE: an async factory returns the stream it opened.
    public static async Task<FileStream> OpenAsync(string path, CancellationToken ct)
    {
        var fs = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 4096, useAsync: true);
        await fs.ReadAsync(new byte[4], 0, 4, ct);
        fs.Seek(0, SeekOrigin.Begin);
        return fs;
    }

    // CASE: the awaited result of an async factory under `await using`.
    public static async Task<long> AwaitUsingFactoryResult(string path)
    {
        await using var fs = await OpenAsync(path, CancellationToken.None);
        return fs.Length;
    }

    // CASE: the awaited result of an async factory is never disposed.
    public static async Task<long> FactoryResultLeaked(string path)
    {
        var fs = await OpenAsync(path, CancellationToken.None); // expect: RLC0001
        return fs.Length;
    }

    // CASE: ConfigureAwait(false) on the factory's task, result disposed.
    public static async Task<long> ConfigureAwaitTaskDisposed(string path)
    {
        using var fs = await OpenAsync(path, CancellationToken.None).ConfigureAwait(false);
        return fs.Length;
    }

    // CASE: ConfigureAwait(false) on the factory's task, result leaked.
    public static async Task<long> ConfigureAwaitTaskLeaked(string path)
    {
        var fs = await OpenAsync(path, CancellationToken.None).ConfigureAwait(false); // expect: RLC0001
        return fs.Length;
    }

    // CASE: the task is stored first and awaited later; the awaited value is disposed.
    public static async Task<long> AwaitStoredTaskDisposed(string path)
    {
        Task<FileStream> pending = OpenAsync(path, CancellationToken.None);
        Console.WriteLine("opening");
        using var fs = await pending;
        return fs.Length;
    }

    // CASE: the task is stored first and awaited later; the awaited value leaks
    // (the obligation appears where the value is awaited).
    public static async Task<long> AwaitStoredTaskLeaked(string path)
    {
        Task<FileStream> pending = OpenAsync(path, CancellationToken.None);
        var fs = await pending; // expect: RLC0001
        return fs.Length;
    }

    // CASE: an explicit `await DisposeAsync()`.
    public static async Task ExplicitDisposeAsync(string path, byte[] data)
    {
        var fs = File.Create(path);
        await fs.WriteAsync(data, 0, data.Length);
        await fs.DisposeAsync();
    }

    // CASE: `await DisposeAsync().ConfigureAwait(false)`.
    public static async Task DisposeAsyncConfigured(string path, byte[] data)
    {
        var fs = File.Create(path);
        await fs.WriteAsync(data, 0, data.Length).ConfigureAwait(false);
        await fs.DisposeAsync().ConfigureAwait(false);
    }

    // CASE: an async method that writes and forgets the stream.
    public static async Task WriteAndForget(string path, byte[] data)
    {
        var fs = File.Create(path); // expect: RLC0001
        await fs.WriteAsync(data, 0, data.Length);
    }

    // CASE: `await using (x.ConfigureAwait(false))` disposes x: the configured value is
    // an alias of its receiver.
    public static async Task AwaitUsingConfiguredConnection(string connectionString)
    {
        var connection = new SqlConnection(connectionString);
        await using (connection.ConfigureAwait(false))
        {
            await connection.OpenAsync().ConfigureAwait(false);
        }
    }

    // CASE: the same inside a `try` with a `catch`: ConfigureAwait cannot throw, so no
    // exception path runs between the creation and `await using` taking it over.
    public static async Task AwaitUsingConfiguredInTry(string connectionString)
    {
        try
        {
            var connection = new SqlConnection(connectionString);
            await using (connection.ConfigureAwait(false))
            {
                await connection.OpenAsync().ConfigureAwait(false);
            }
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: a call that can throw between the creation and `await using` still leaks
    // on its exception path inside the `try`.
    public static async Task AwaitUsingAfterThrowingCallInTry(string connectionString)
    {
        try
        {
            var connection = new SqlConnection(connectionString); // expect: RLC0002
            Console.WriteLine(connection.Database);
            await using (connection.ConfigureAwait(false))
            {
                await connection.OpenAsync().ConfigureAwait(false);
            }
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: `await using var _ = x.ConfigureAwait(false);` declaration form.
    public static async Task AwaitUsingConfiguredDeclaration(string path, byte[] data)
    {
        var fs = File.Create(path);
        await using var _ = fs.ConfigureAwait(false);
        await fs.WriteAsync(data, 0, data.Length).ConfigureAwait(false);
    }

    // CASE: an async method returning ValueTask<Stream> is a factory too.
    public static async ValueTask<Stream> OpenValueTaskAsync(string path)
    {
        await Task.Yield();
        return File.OpenRead(path);
    }

    // CASE: its caller disposes the awaited value.
    public static async Task<int> UseValueTaskFactory(string path)
    {
        await using var s = await OpenValueTaskAsync(path);
        return s.ReadByte();
    }

    // CASE: an async iterator with a using declaration across yields.
    public static async IAsyncEnumerable<string> ReadLinesAsync(string path, [EnumeratorCancellation] CancellationToken ct = default)
    {
        using var reader = File.OpenText(path);
        string line;
        while ((line = await reader.ReadLineAsync()) != null)
        {
            ct.ThrowIfCancellationRequested();
            yield return line;
        }
    }

    // CASE: `await foreach` disposes the async enumerator.
    public static async Task<int> CountLines(string path)
    {
        var count = 0;
        await foreach (var line in ReadLinesAsync(path))
        {
            count += line.Length > 0 ? 1 : 0;
        }
        return count;
    }

    // CASE: a hand-driven async enumerator that is never disposed.
    public static async Task<string> FirstLine(string path)
    {
        var e = ReadLinesAsync(path).GetAsyncEnumerator(); // expect: RLC0001
        return await e.MoveNextAsync() ? e.Current : null;
    }

    // CASE: a hand-driven async enumerator disposed in finally.
    public static async Task<string> FirstLineDisposed(string path)
    {
        var e = ReadLinesAsync(path).GetAsyncEnumerator();
        try
        {
            return await e.MoveNextAsync() ? e.Current : null;
        }
        finally
        {
            await e.DisposeAsync();
        }
    }
}

// CASE: a class that owns a stream and disposes it asynchronously.
public sealed class AsyncOwner : IAsyncDisposable
{
    [Owning] private readonly FileStream _fs;

    public AsyncOwner(string path)
    {
        _fs = File.OpenRead(path);
    }

    [Calls("_fs", "DisposeAsync")]
    public async ValueTask DisposeAsync()
    {
        await _fs.DisposeAsync().ConfigureAwait(false);
    }
}

// CASE: a task kept by the object (a field, or a completion source's `Task`) is
// shared: awaiting it borrows the result, which the object disposes.
public sealed class SharedConnection : IDisposable
{
    private readonly TaskCompletionSource<Stream> _ready = new();
    private readonly Task<FileStream> _opening;

    public SharedConnection(string path)
    {
        _opening = Task.Run(() => File.OpenRead(path));
        _ready.TrySetResult(Stream.Null);
    }

    public async Task<long> LengthAsync()
    {
        var opened = await _opening;
        var ready = await _ready.Task.ConfigureAwait(false);
        return opened.Length + ready.Length;
    }

    public void Dispose() => _opening.Result.Dispose();
}

// CASE: waiting for a task synchronously (`.Result`, `.GetAwaiter().GetResult()`, after
// `ConfigureAwait`) hands out its result as `await` does: a stream the producing method
// lends stays its object's, a fresh one is the caller's.
public sealed class SyncOverAsync
{
    private readonly Stream _shared;

    public SyncOverAsync(Stream shared) => _shared = shared;

    [return: NotOwning]
    private async Task<Stream> SharedAsync()
    {
        await _shared.FlushAsync();
        return _shared;
    }

    private static async Task<Stream> OpenAsync(string path)
    {
        await Task.Yield();
        return File.OpenRead(path);
    }

    public int ReadShared()
    {
        var a = SharedAsync().GetAwaiter().GetResult();
        var b = SharedAsync().ConfigureAwait(false).GetAwaiter().GetResult();
        var c = SharedAsync().Result;
        return a.ReadByte() + b.ReadByte() + c.ReadByte();
    }

    // CASE: a fresh stream waited for synchronously and dropped is lost, by either form.
    public static int ReadFresh(string path)
    {
        var a = OpenAsync(path).GetAwaiter().GetResult(); // expect: RLC0001
        var b = OpenAsync(path).Result; // expect: RLC0001
        return a.ReadByte() + b.ReadByte();
    }

    public static int ReadFreshDisposed(string path)
    {
        using var a = OpenAsync(path).GetAwaiter().GetResult();
        return a.ReadByte();
    }
}
