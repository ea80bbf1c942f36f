// Case family: BCL wrappers are resource aliases of the stream they wrap; `leaveOpen`
// (literal true/false, named argument, known boolean local, unknown parameter) decides
// whether the wrapper owns the stream. When it does not, both must be disposed.
// cases: 22
using System;
using System.IO;
using System.IO.Compression;
using System.Text;

namespace Cases.WrappersLeaveOpen;

public static class Wrappers
{
    // CASE: a one-expression wrapper chain disposed through the outer wrapper.
    public static string ChainDisposed(string path)
    {
        using var reader = new StreamReader(new FileStream(path, FileMode.Open));
        return reader.ReadToEnd();
    }

    // CASE: a one-expression wrapper chain never disposed: one report, not two.
    public static string ChainLeaked(string path)
    {
        var reader = new StreamReader(new FileStream(path, FileMode.Open)); // expect: RLC0001
        return reader.ReadToEnd();
    }

    // CASE: a three-level chain disposed through the outermost wrapper.
    public static void ThreeLevelsDisposed(string path, string text)
    {
        using var writer = new StreamWriter(new GZipStream(File.Create(path), CompressionLevel.Optimal));
        writer.Write(text);
    }

    // CASE: a three-level chain never disposed: one report.
    public static void ThreeLevelsLeaked(string path, string text)
    {
        var writer = new StreamWriter(new GZipStream(File.Create(path), CompressionLevel.Optimal)); // expect: RLC0001
        writer.Write(text);
    }

    // CASE: two statements; disposing the wrapper disposes the stream.
    public static string DisposeWrapperOnly(string path)
    {
        var fs = File.OpenRead(path);
        var reader = new StreamReader(fs);
        var text = reader.ReadToEnd();
        reader.Dispose();
        return text;
    }

    // CASE: two statements; disposing the wrapped stream is enough too.
    public static string DisposeInnerOnly(string path)
    {
        var fs = File.OpenRead(path);
        var reader = new StreamReader(fs);
        var text = reader.ReadToEnd();
        fs.Dispose();
        return text;
    }

    // CASE: two statements, neither disposed: reported once, at the outermost wrapper.
    public static string TwoStatementChainLeaked(string path)
    {
        var fs = File.OpenRead(path);
        var reader = new StreamReader(fs); // expect: RLC0001
        return reader.ReadToEnd();
    }

    // CASE: leaveOpen: true (named) and both disposed.
    public static string LeaveOpenTrueBothDisposed(string path)
    {
        using var fs = File.OpenRead(path);
        using var reader = new StreamReader(fs, Encoding.UTF8, true, 4096, leaveOpen: true);
        return reader.ReadToEnd();
    }

    // CASE: leaveOpen: true and only the wrapper disposed: the stream leaks.
    public static string LeaveOpenTrueStreamLeaks(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        using var reader = new StreamReader(fs, Encoding.UTF8, true, 4096, leaveOpen: true);
        return reader.ReadToEnd();
    }

    // CASE: leaveOpen: true and only the stream disposed: the wrapper has its own obligation.
    public static string LeaveOpenTrueWrapperLeaks(string path)
    {
        using var fs = File.OpenRead(path);
        var reader = new StreamReader(fs, Encoding.UTF8, true, 4096, leaveOpen: true); // expect: RLC0001
        return reader.ReadToEnd();
    }

    // CASE: leaveOpen literal false (positional): the wrapper owns the stream.
    public static void LeaveOpenFalsePositional(string path, byte[] data)
    {
        var fs = File.Create(path);
        using var gzip = new GZipStream(fs, CompressionMode.Compress, false);
        gzip.Write(data, 0, data.Length);
    }

    // CASE: leaveOpen literal true (positional) on GZipStream; the stream is disposed
    // by its own using, the wrapper by its own.
    public static void LeaveOpenTruePositional(string path, byte[] data)
    {
        using var fs = File.Create(path);
        using (var gzip = new GZipStream(fs, CompressionMode.Compress, true))
        {
            gzip.Write(data, 0, data.Length);
        }
        fs.WriteByte(0);
    }

    // CASE: leaveOpen from a boolean local whose value is known (true): the stream
    // is not owned by the wrapper and leaks.
    public static void KnownTrueLocal(string path, byte[] data)
    {
        bool keepOpen = true;
        var fs = File.Create(path); // expect: RLC0001
        using var gzip = new GZipStream(fs, CompressionMode.Compress, keepOpen);
        gzip.Write(data, 0, data.Length);
    }

    // CASE: leaveOpen from a boolean local whose value is known (false).
    public static void KnownFalseLocal(string path, byte[] data)
    {
        bool keepOpen = false;
        var fs = File.Create(path);
        using var gzip = new GZipStream(fs, CompressionMode.Compress, keepOpen);
        gzip.Write(data, 0, data.Length);
    }

    // CASE: leaveOpen from an unknown parameter: the wrapper may not own the stream,
    // so disposing only the wrapper may leak it.
    public static void UnknownParameterWrapperOnly(string path, byte[] data, bool leaveOpen)
    {
        var fs = File.Create(path); // expect: RLC0001
        using var gzip = new GZipStream(fs, CompressionMode.Compress, leaveOpen);
        gzip.Write(data, 0, data.Length);
    }

    // CASE: leaveOpen from an unknown parameter with both disposed.
    public static void UnknownParameterBothDisposed(string path, byte[] data, bool leaveOpen)
    {
        using var fs = File.Create(path);
        using var gzip = new GZipStream(fs, CompressionMode.Compress, leaveOpen);
        gzip.Write(data, 0, data.Length);
    }

    // CASE: a wrapper over a MemoryStream holds no resource, disposed or not.
    public static string ReaderOverMemoryStream(byte[] bytes)
    {
        var reader = new StreamReader(new MemoryStream(bytes));
        return reader.ReadToEnd();
    }

    // CASE: BinaryReader over a MemoryStream local, neither disposed.
    public static int BinaryReaderOverMemoryStream(byte[] bytes)
    {
        var ms = new MemoryStream(bytes);
        var reader = new BinaryReader(ms);
        return reader.ReadInt32();
    }

    // CASE: BinaryReader with leaveOpen: true over a file stream, both disposed.
    public static int BinaryReaderLeaveOpen(string path)
    {
        using var fs = File.OpenRead(path);
        using (var reader = new BinaryReader(fs, Encoding.UTF8, leaveOpen: true))
        {
            reader.ReadInt32();
        }
        return fs.ReadByte();
    }

    // CASE: BufferedStream wrapping a file stream, never disposed.
    public static void BufferedStreamLeaked(string path, byte[] data)
    {
        var buffered = new BufferedStream(File.OpenWrite(path)); // expect: RLC0001
        buffered.Write(data, 0, data.Length);
    }

    // CASE: a wrapper over a borrowed stream (a plain parameter) shares the caller's
    // obligation: this method has nothing to dispose.
    public static string ReaderOverBorrowedStream(Stream input)
    {
        var reader = new StreamReader(input);
        return reader.ReadToEnd();
    }

    // CASE: leaveOpen: true over a borrowed stream: the reader is not an alias of the
    // stream and must be disposed on its own.
    public static string LeaveOpenReaderOverBorrowedStream(Stream input)
    {
        var reader = new StreamReader(input, Encoding.UTF8, false, 1024, leaveOpen: true); // expect: RLC0001
        return reader.ReadToEnd();
    }
}
