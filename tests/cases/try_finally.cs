// Case family: try/finally and try/catch disposal (default exception model "explicit":
// inside a try that has a catch or finally, calls may throw).
// cases: 17
using System;
using System.IO;
using System.Net.Sockets;

namespace Cases.TryFinally;

public static class TryFinally
{
    static void Process(Stream s) => s.ReadByte();

    // CASE: dispose in finally covers both the normal and the exceptional path.
    public static void DisposeInFinally(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            Process(fs);
        }
        finally
        {
            fs.Dispose();
        }
    }

    // CASE: allocation inside the try, disposal behind a null check in finally.
    public static void NullCheckInFinally(string path)
    {
        FileStream fs = null;
        try
        {
            fs = File.OpenRead(path);
            Process(fs);
        }
        finally
        {
            if (fs != null)
            {
                fs.Dispose();
            }
        }
    }

    // CASE: `?.Dispose()` in finally.
    public static void ConditionalAccessInFinally(string path)
    {
        FileStream fs = null;
        try
        {
            fs = File.OpenRead(path);
            Process(fs);
        }
        finally
        {
            fs?.Dispose();
        }
    }

    // CASE: `is not null` in finally.
    public static void IsNotNullInFinally(string path)
    {
        FileStream fs = null;
        try
        {
            fs = File.OpenRead(path);
            Process(fs);
        }
        finally
        {
            if (fs is not null)
            {
                fs.Dispose();
            }
        }
    }

    // CASE: the paper's Fig. 1: a socket created in a try whose catch swallows the
    // exception, closed in finally behind a null check.
    public static void SocketFigureOne(string host, int port)
    {
        Socket s = null;
        try
        {
            s = new Socket(SocketType.Stream, ProtocolType.Tcp);
            s.Connect(host, port);
        }
        catch (Exception)
        {
            // do nothing
        }
        finally
        {
            if (s != null)
            {
                s.Close();
            }
        }
    }

    // CASE: catch disposes and rethrows; the normal path disposes after the try.
    public static void CatchDisposeRethrow(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            Process(fs);
        }
        catch
        {
            fs.Dispose();
            throw;
        }
        fs.Dispose();
    }

    // CASE: disposed only in the catch: the normal path leaks.
    public static void DisposeInCatchOnly(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        try
        {
            Process(fs);
        }
        catch (Exception)
        {
            fs.Dispose();
            throw;
        }
    }

    // CASE: the catch swallows the exception and the disposal after the try is only
    // reached on the normal path: leaks when Process throws.
    public static void DisposeAfterSwallowingCatch(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        try
        {
            Process(fs);
        }
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
            return;
        }
        fs.Dispose();
    }

    // CASE: disposal inside the try (not in the finally) is skipped when Process throws.
    public static void DisposeInsideTryOnly(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0002
        try
        {
            Process(fs);
            fs.Dispose();
        }
        finally
        {
            Console.WriteLine("done");
        }
    }

    // CASE: the finally disposes under an unrelated condition: a normal path leaks.
    public static void ConditionalDisposeInFinally(string path, int count)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        try
        {
            Process(fs);
        }
        finally
        {
            if (count > 0)
            {
                fs.Dispose();
            }
        }
    }

    // CASE: nested try/finally blocks, one per resource.
    public static void NestedTryFinally(string from, string to)
    {
        var input = File.OpenRead(from);
        try
        {
            var output = File.Create(to);
            try
            {
                input.CopyTo(output);
            }
            finally
            {
                output.Dispose();
            }
        }
        finally
        {
            input.Dispose();
        }
    }

    // CASE: return from inside the try; the finally still disposes.
    public static int ReturnInsideTry(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            return fs.ReadByte();
        }
        finally
        {
            fs.Dispose();
        }
    }

    // CASE: the resource is returned on success and disposed on failure (the fix of
    // the paper's Fig. 4).
    public static Stream ReturnOnSuccessDisposeOnFailure(string path, long offset)
    {
        var fs = File.OpenRead(path);
        try
        {
            fs.Seek(offset, SeekOrigin.Begin);
            return fs;
        }
        catch
        {
            fs.Dispose();
            throw;
        }
    }

    // CASE: the finally disposes the wrong variable.
    public static void FinallyDisposesWrongVariable(string a, string b)
    {
        var first = File.OpenRead(a); // expect: RLC0001
        var second = File.OpenRead(b);
        try
        {
            first.CopyTo(second);
        }
        finally
        {
            second.Dispose();
        }
    }

    // CASE: Close() in finally counts as the disposal of a stream.
    public static void CloseInFinally(string path)
    {
        var fs = File.OpenRead(path);
        try
        {
            Process(fs);
        }
        finally
        {
            fs.Close();
        }
    }

    // CASE: a try/catch with a using inside the try: the using covers every path.
    public static void UsingInsideTryCatch(string path)
    {
        try
        {
            using var fs = File.OpenRead(path);
            Process(fs);
        }
        catch (IOException e)
        {
            Console.WriteLine(e.Message);
        }
    }

    // CASE: catch-all that swallows, with the disposal after the whole statement
    // reached from both the try and the catch.
    public static void DisposeAfterCatchAll(string path)
    {
        FileStream fs = null;
        try
        {
            fs = File.OpenRead(path);
            Process(fs);
        }
        catch (Exception e)
        {
            Console.WriteLine(e.Message);
        }
        fs?.Dispose();
    }
}
