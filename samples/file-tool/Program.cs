using System;
using System.Collections.Generic;
using System.IO;

namespace FileTool
{
    /// <summary>
    /// filetool: small file utilities.
    ///
    ///   filetool copy SRC DST          copy a file
    ///   filetool gzip SRC DST          compress with gzip
    ///   filetool gunzip SRC DST        decompress a gzip file
    ///   filetool head FILE N           print the first N lines
    ///   filetool tail FILE N           print the last N lines
    ///   filetool sum FILE...           print SHA-256 checksums
    ///   filetool report DIR OUT        write a size report of a directory
    ///   filetool git-log REPO N        print the last N commit subjects
    ///   filetool pack DIR ARCHIVE      tar a directory
    ///   filetool unpack ARCHIVE DIR    untar an archive
    /// </summary>
    public static class Program
    {
        public static int Main(string[] args)
        {
            if (args.Length == 0)
            {
                PrintUsage(Console.Error);
                return 2;
            }

            var logPath = Environment.GetEnvironmentVariable("FILETOOL_LOG") ?? "filetool.log";
            var log = new LogWriter(logPath, LogLevel.Info);
            try
            {
                log.Info("command: " + string.Join(" ", args));
                return Dispatch(args, log);
            }
            catch (IOException e)
            {
                log.Error("I/O error", e);
                Console.Error.WriteLine("filetool: " + e.Message);
                return 1;
            }
            finally
            {
                log.Dispose();
            }
        }

        private static int Dispatch(string[] args, LogWriter log)
        {
            switch (args[0])
            {
                case "copy":
                    RequireArguments(args, 3);
                    log.Info("copied " + FileOperations.Copy(args[1], args[2]) + " bytes");
                    return 0;
                case "gzip":
                    RequireArguments(args, 3);
                    log.Info("compressed to " + FileOperations.Compress(args[1], args[2]) + " bytes");
                    FileOperations.CreateMarker(args[2]);
                    return 0;
                case "gunzip":
                    RequireArguments(args, 3);
                    FileOperations.Decompress(args[1], args[2]);
                    return 0;
                case "head":
                    RequireArguments(args, 3);
                    PrintLines(FileOperations.Head(args[1], int.Parse(args[2])));
                    return 0;
                case "tail":
                    RequireArguments(args, 3);
                    PrintLines(FileOperations.Tail(args[1], int.Parse(args[2])));
                    return 0;
                case "sum":
                    RequireArguments(args, 2);
                    for (var i = 1; i < args.Length; i++)
                    {
                        var empty = FileOperations.IsEmpty(args[i]) ? " (empty)" : string.Empty;
                        Console.WriteLine(FileOperations.Checksum(args[i]) + "  " + args[i] + empty);
                    }
                    return 0;
                case "report":
                    RequireArguments(args, 3);
                    WriteSizeReport(args[1], args[2]);
                    return 0;
                case "git-log":
                    RequireArguments(args, 3);
                    Console.WriteLine("on " + ProcessRunner.GitCurrentBranch(args[1]));
                    PrintLines(ProcessRunner.GitLog(args[1], int.Parse(args[2])));
                    return 0;
                case "pack":
                    RequireArguments(args, 3);
                    ProcessRunner.CreateTar(args[2], args[1]);
                    return 0;
                case "unpack":
                    RequireArguments(args, 3);
                    var errors = ProcessRunner.ExtractTar(args[1], args[2]);
                    if (errors.Length > 0)
                    {
                        log.Write(LogLevel.Warning, errors);
                    }
                    return 0;
                default:
                    PrintUsage(Console.Error);
                    return 2;
            }
        }

        private static void WriteSizeReport(string directory, string output)
        {
            var sizes = new List<KeyValuePair<string, long>>();
            foreach (var file in Directory.EnumerateFiles(directory, "*", SearchOption.AllDirectories))
            {
                sizes.Add(new KeyValuePair<string, long>(file, new FileInfo(file).Length));
            }
            sizes.Sort((a, b) => b.Value.CompareTo(a.Value));
            FileOperations.WriteReport(output, sizes);
        }

        private static void RequireArguments(string[] args, int count)
        {
            if (args.Length < count)
            {
                throw new ArgumentException("'" + args[0] + "' needs " + (count - 1) + " argument(s)");
            }
        }

        private static void PrintLines(IEnumerable<string> lines)
        {
            foreach (var line in lines)
            {
                Console.WriteLine(line);
            }
        }

        private static void PrintUsage(TextWriter output)
        {
            output.WriteLine("usage: filetool <copy|gzip|gunzip|head|tail|sum|report|git-log|pack|unpack> ARGS...");
        }
    }
}
