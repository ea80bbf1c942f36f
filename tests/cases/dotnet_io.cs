// Case family: System.IO as real code uses it: File/FileInfo factories, readers and
// writers opened from paths, factory methods that return wrappers, streams passed to
// helper methods, ZipArchive entries, FileSystemWatcher, helpers that own nothing.
// cases: 26
using System;
using System.IO;
using System.IO.Compression;
using System.Text;
using RlcSharp.Annotations;

namespace Cases.DotnetIo;

public static class Factories
{
    // CASE: `return new StreamReader(File.OpenRead(p))`: the caller gets the chain.
    public static StreamReader OpenReader(string path)
    {
        return new StreamReader(File.OpenRead(path));
    }

    // CASE: a factory that opens, wraps in a second statement, and returns the wrapper.
    public static TextReader OpenTextReader(string path, Encoding encoding)
    {
        var fs = File.OpenRead(path);
        return new StreamReader(fs, encoding);
    }

    // CASE: a factory that returns a wrapper with leaveOpen: true loses the stream.
    public static TextReader OpenReaderLeavingOpen(string path)
    {
        var fs = File.OpenRead(path); // expect: RLC0001
        return new StreamReader(fs, Encoding.UTF8, true, 4096, leaveOpen: true);
    }

    // CASE: a factory that prepares the stream before returning it.
    public static FileStream OpenLogForAppend(string path)
    {
        var fs = new FileStream(path, FileMode.OpenOrCreate, FileAccess.Write, FileShare.Read);
        fs.Seek(0, SeekOrigin.End);
        return fs;
    }

    // CASE: the caller of a wrapper factory disposes it.
    public static string ReadAll(string path)
    {
        using var reader = OpenReader(path);
        return reader.ReadToEnd();
    }

    // CASE: the caller of a wrapper factory uses it inline and drops it.
    public static string ReadFirstLine(string path)
    {
        return OpenReader(path).ReadLine(); // expect: RLC0001
    }
}

public static class FileApis
{
    // CASE: File.Create used only to make an empty file: the handle leaks (a classic).
    public static void CreateThenWrite(string path, string text)
    {
        File.Create(path); // expect: RLC0001
        File.WriteAllText(path, text);
    }

    // CASE: File.Create disposed right away.
    public static void CreateEmptyFile(string path)
    {
        File.Create(path).Dispose();
    }

    // CASE: whole-file helpers own nothing.
    public static int WholeFileHelpers(string path)
    {
        var text = File.ReadAllText(path);
        var lines = File.ReadAllLines(path);
        File.AppendAllText(path, "\n");
        return text.Length + lines.Length;
    }

    // CASE: File.OpenText and File.AppendText results under using.
    public static void OpenTextAppendText(string from, string to)
    {
        using var reader = File.OpenText(from);
        using var writer = File.AppendText(to);
        writer.Write(reader.ReadToEnd());
    }

    // CASE: a StreamWriter opened from a path and never disposed (its data may never be
    // flushed either).
    public static void WriterFromPathLeaked(string path, string text)
    {
        var writer = new StreamWriter(path); // expect: RLC0001
        writer.Write(text);
    }

    // CASE: FileInfo.OpenRead under using.
    public static long FileInfoOpenRead(string path)
    {
        var info = new FileInfo(path);
        using var fs = info.OpenRead();
        return fs.Length;
    }

    // CASE: Console.Out is a property: not owned by the caller.
    public static void ConsoleOut(string text)
    {
        var output = Console.Out;
        output.WriteLine(text);
    }

    // CASE: a FileSystemWatcher kept in a local and never disposed.
    public static void WatcherLeaked(string dir, Action<string> onChange)
    {
        var watcher = new FileSystemWatcher(dir); // expect: RLC0001
        watcher.Changed += (_, e) => onChange(e.FullPath);
        watcher.EnableRaisingEvents = true;
    }
}

public static class ZipFiles
{
    // CASE: ZipFile.OpenRead and each entry's stream under using.
    public static long TotalSize(string path)
    {
        long total = 0;
        using var zip = ZipFile.OpenRead(path);
        foreach (var entry in zip.Entries)
        {
            using var s = entry.Open();
            total += s.ReadByte() >= 0 ? entry.Length : 0;
        }
        return total;
    }

    // CASE: an entry stream that is never disposed.
    public static int FirstByteOfEachEntry(string path)
    {
        var sum = 0;
        using var zip = ZipFile.OpenRead(path);
        foreach (var entry in zip.Entries)
        {
            var s = entry.Open(); // expect: RLC0001
            sum += s.ReadByte();
        }
        return sum;
    }
}

public static class Helpers
{
    static void Copy(Stream from, Stream to) => from.CopyTo(to);

    static void DisposeAfterCopy(Stream from, Stream to)
    {
        from.CopyTo(to);
        from.Dispose();
        to.Dispose();
    }

    static void Consume([Owning] Stream s)
    {
        using (s)
        {
            s.ReadByte();
        }
    }

    // CASE: streams passed to a helper that only borrows them; the caller disposes.
    public static void PassToBorrowingHelper(string from, string to)
    {
        using var input = File.OpenRead(from);
        using var output = File.Create(to);
        Copy(input, output);
    }

    // CASE: streams passed to a helper that disposes them but does not say so.
    public static void PassToUnannotatedDisposer(string from, string to)
    {
        var input = File.OpenRead(from); // expect: RLC0001
        var output = File.Create(to); // expect: RLC0001
        DisposeAfterCopy(input, output);
    }

    // CASE: a stream passed to a helper whose parameter is [Owning].
    public static void PassToOwningHelper(string path)
    {
        var fs = File.OpenRead(path);
        Consume(fs);
    }

    // CASE: Stream.CopyTo does not dispose its destination.
    public static void CopyToLeavesDestinationOpen(Stream source, string path)
    {
        var destination = File.Create(path); // expect: RLC0001
        source.CopyTo(destination);
    }

    // CASE: Console.SetOut keeps the writer for the rest of the process.
    public static void RedirectConsole(string path)
    {
        Console.SetOut(new StreamWriter(path) { AutoFlush = true });
    }

    // CASE: a named argument in its own position may be followed by positional ones (C# 7.2):
    // the call still resolves, and its result is still the caller's.
    public static int FirstByteNamed(string path)
    {
        var stream = File.Open(path: path, FileMode.Open); // expect: RLC0001
        return stream.ReadByte();
    }

    // CASE: a path built with an empty interpolated string (`$""`) is an ordinary string.
    public static int FirstByteOfEmptyPrefixed(string path, int n)
    {
        var stream = File.OpenRead($"" + path + $"{n}"); // expect: RLC0001
        return stream.ReadByte();
    }

    // CASE: the same with the stream disposed.
    public static int FirstByteOfEmptyPrefixedClosed(string path, int n)
    {
        using var stream = File.OpenRead($"" + path + $"{n}");
        return stream.ReadByte();
    }
}

public static class WinRtAdapters
{
    // CASE: a WinRT adapter (`AsInputStream`, `AsRandomAccessStream`) wraps the stream it
    // is called on: returning it hands the stream on.
    public static Windows.Storage.Streams.IInputStream OpenInput(string path)
    {
        return File.OpenRead(path).AsInputStream();
    }

    // CASE: ... and losing the adapter loses the stream.
    public static ulong SizeOf(string path)
    {
        var stream = File.OpenRead(path).AsRandomAccessStream(); // expect: RLC0001
        return stream.Size;
    }
}
