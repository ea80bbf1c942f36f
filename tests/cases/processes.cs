// Case family: System.Diagnostics.Process: Process.Start results are owning; the
// standard streams are properties owned by the Process; an Exited handler that
// disposes the process discharges it. A Process found by id or name, or the current
// one, holds no handle (each member opens and closes its own): not owning.
// cases: 11
using System;
using System.Diagnostics;
using System.Threading.Tasks;

namespace Cases.Processes;

public static class Processes
{
    // CASE: Process.Start's result dropped.
    public static void StartAndForget(string file)
    {
        Process.Start(file, "--version"); // expect: RLC0001
    }

    // CASE: Process.Start's result waited on but never disposed.
    public static int StartAndWait(ProcessStartInfo info)
    {
        var process = Process.Start(info); // expect: RLC0001
        process.WaitForExit();
        return process.ExitCode;
    }

    // CASE: Process.Start's result under using; its output is read through a property.
    public static string RunGit(string arguments)
    {
        var info = new ProcessStartInfo("git", arguments)
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        using var process = Process.Start(info);
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return output;
    }

    // CASE: chained call on the dropped result of Process.Start.
    public static void StartChained(ProcessStartInfo info)
    {
        Process.Start(info).WaitForExit(); // expect: RLC0001
    }

    // CASE: `new Process { StartInfo = .. }` under using.
    public static int NewProcessDisposed(ProcessStartInfo info)
    {
        using var process = new Process { StartInfo = info };
        process.Start();
        process.WaitForExit();
        return process.ExitCode;
    }

    // CASE: `new Process { StartInfo = .. }` never disposed.
    public static int NewProcessLeaked(ProcessStartInfo info)
    {
        var process = new Process { StartInfo = info }; // expect: RLC0001
        process.Start();
        process.WaitForExit();
        return process.ExitCode;
    }

    // CASE: an Exited handler that disposes the captured process discharges it.
    public static Task<int> RunAsync(ProcessStartInfo info)
    {
        var done = new TaskCompletionSource<int>();
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        process.Exited += (sender, args) =>
        {
            done.TrySetResult(process.ExitCode);
            process.Dispose();
        };
        process.Start();
        return done.Task;
    }

    // CASE: the current process under using.
    public static long WorkingSet()
    {
        using var me = Process.GetCurrentProcess();
        return me.WorkingSet64;
    }

    // CASE: a tar run whose error stream is read, then the process disposed in finally.
    public static string RunTar(string archive, string dir)
    {
        var info = new ProcessStartInfo("tar", "-xf " + archive + " -C " + dir)
        {
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        var process = Process.Start(info);
        try
        {
            var errors = process.StandardError.ReadToEnd();
            process.WaitForExit();
            return errors;
        }
        finally
        {
            process?.Dispose();
        }
    }

    // CASE: the current process read for its id and name: nothing to dispose.
    public static string Describe() => Process.GetCurrentProcess().ProcessName + Process.GetCurrentProcess().Id;

    // CASE: a process found by id, killed: nothing to dispose either.
    public static void Stop(int id)
    {
        var process = Process.GetProcessById(id);
        process.Kill();
    }
}
