// Case family: loops: resources created per iteration, overwritten each iteration,
// disposed each iteration, `break`/`continue` paths, returns from inside a loop, and
// hand-driven enumerators (IEnumerator<T> is IDisposable; `foreach` disposes it).
// cases: 16
using System;
using System.Collections.Generic;
using System.IO;

namespace Cases.Loops;

public static class Loops
{
    // CASE: a resource created in every iteration and never disposed.
    public static long LeakPerIteration(string[] paths)
    {
        long total = 0;
        for (var i = 0; i < paths.Length; i++)
        {
            var fs = File.OpenRead(paths[i]); // expect: RLC0001
            total += fs.Length;
        }
        return total;
    }

    // CASE: a resource created and disposed in every iteration.
    public static long DisposedPerIteration(string[] paths)
    {
        long total = 0;
        foreach (var p in paths)
        {
            using var fs = File.OpenRead(p);
            total += fs.Length;
        }
        return total;
    }

    // CASE: a variable overwritten each iteration: every value but the last is lost.
    public static void OverwrittenEachIteration(string[] paths)
    {
        Stream current = null;
        foreach (var p in paths)
        {
            current = File.OpenRead(p); // expect: RLC0004
        }
        current?.Dispose();
    }

    // CASE: the previous value disposed before the variable is overwritten.
    public static void DisposedBeforeOverwrite(string[] paths)
    {
        Stream current = null;
        foreach (var p in paths)
        {
            current?.Dispose();
            current = File.OpenRead(p);
        }
        current?.Dispose();
    }

    // CASE: `continue` skips the disposal.
    public static int ContinueSkipsDispose(string[] paths)
    {
        var nonEmpty = 0;
        foreach (var p in paths)
        {
            var fs = File.OpenRead(p); // expect: RLC0001
            if (fs.Length == 0)
            {
                continue;
            }
            nonEmpty++;
            fs.Dispose();
        }
        return nonEmpty;
    }

    // CASE: `continue` inside a using block still disposes.
    public static int ContinueInsideUsing(string[] paths)
    {
        var nonEmpty = 0;
        foreach (var p in paths)
        {
            using var fs = File.OpenRead(p);
            if (fs.Length == 0)
            {
                continue;
            }
            nonEmpty++;
        }
        return nonEmpty;
    }

    // CASE: `break` skips the disposal.
    public static void BreakSkipsDispose(Queue<string> paths)
    {
        while (paths.Count > 0)
        {
            var fs = File.OpenRead(paths.Dequeue()); // expect: RLC0001
            if (fs.Length > 1024)
            {
                break;
            }
            fs.Dispose();
        }
    }

    // CASE: `break` after disposing.
    public static void BreakAfterDispose(Queue<string> paths)
    {
        while (paths.Count > 0)
        {
            var fs = File.OpenRead(paths.Dequeue());
            var big = fs.Length > 1024;
            fs.Dispose();
            if (big)
            {
                break;
            }
        }
    }

    // CASE: returning the first matching stream from inside a loop, disposing the others.
    public static Stream FirstNonEmpty(string[] paths)
    {
        foreach (var p in paths)
        {
            var fs = File.OpenRead(p);
            if (fs.Length > 0)
            {
                return fs;
            }
            fs.Dispose();
        }
        return null;
    }

    // CASE: returning the first matching stream, forgetting the others.
    public static Stream FirstNonEmptyLeaky(string[] paths)
    {
        foreach (var p in paths)
        {
            var fs = File.OpenRead(p); // expect: RLC0001
            if (fs.Length > 0)
            {
                return fs;
            }
        }
        return null;
    }

    // CASE: one reader created before a loop, used in it, disposed after it.
    public static int CountLines(string path)
    {
        var reader = File.OpenText(path);
        var count = 0;
        while (reader.ReadLine() != null)
        {
            count++;
        }
        reader.Dispose();
        return count;
    }

    // CASE: a do-while loop with try/finally per iteration.
    public static void DoWhileTryFinally(Func<string> next)
    {
        string path;
        do
        {
            path = next();
            var fs = File.OpenWrite(path);
            try
            {
                fs.WriteByte(1);
            }
            finally
            {
                fs.Dispose();
            }
        }
        while (path.Length > 0);
    }

    // CASE: foreach disposes the enumerator it obtains.
    public static int ForeachOverSequence(IEnumerable<string> lines)
    {
        var n = 0;
        foreach (var line in lines)
        {
            n += line.Length;
        }
        return n;
    }

    // CASE: a hand-driven IEnumerator<T> is IDisposable and is never disposed.
    public static string FirstOrNull(IEnumerable<string> lines)
    {
        var e = lines.GetEnumerator(); // expect: RLC0001
        return e.MoveNext() ? e.Current : null;
    }

    // CASE: a hand-driven IEnumerator<T> under using.
    public static string FirstOrNullDisposed(IEnumerable<string> lines)
    {
        using var e = lines.GetEnumerator();
        return e.MoveNext() ? e.Current : null;
    }

    // CASE: nested loops, the inner resource disposed per inner iteration.
    public static long NestedLoops(string[][] groups)
    {
        long total = 0;
        foreach (var group in groups)
        {
            foreach (var p in group)
            {
                using (var fs = File.OpenRead(p))
                {
                    total += fs.Length;
                }
            }
        }
        return total;
    }
}
