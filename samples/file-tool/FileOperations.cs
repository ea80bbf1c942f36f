using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Security.Cryptography;
using System.Text;

namespace FileTool
{
    /// <summary>File commands: copying, compressing, reading and summarising files.</summary>
    public static class FileOperations
    {
        private const int BufferSize = 81920;

        /// <summary>Copies a file, overwriting the destination.</summary>
        public static long Copy(string source, string destination)
        {
            using (var input = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.Read, BufferSize))
            using (var output = new FileStream(destination, FileMode.Create, FileAccess.Write, FileShare.None, BufferSize))
            {
                input.CopyTo(output, BufferSize);
                return output.Length;
            }
        }

        /// <summary>Compresses a file with gzip.</summary>
        public static long Compress(string source, string destination)
        {
            using (var input = File.OpenRead(source))
            using (var output = File.Create(destination))
            {
                using (var gzip = new GZipStream(output, CompressionLevel.Optimal, true))
                {
                    input.CopyTo(gzip, BufferSize);
                }
                return output.Length;
            }
        }

        /// <summary>Decompresses a gzip file.</summary>
        public static void Decompress(string source, string destination)
        {
            var gzip = new GZipStream(File.OpenRead(source), CompressionMode.Decompress); // LEAK: the gzip stream (and the file under it) is never disposed
            using (var output = File.Create(destination))
            {
                gzip.CopyTo(output, BufferSize);
            }
        }

        /// <summary>Decompresses a gzip file and returns its text.</summary>
        public static string ReadCompressedText(string source)
        {
            using (var reader = new StreamReader(new GZipStream(File.OpenRead(source), CompressionMode.Decompress), Encoding.UTF8))
            {
                return reader.ReadToEnd();
            }
        }

        /// <summary>Counts the lines of a text file.</summary>
        public static int CountLines(string path)
        {
            var count = 0;
            using (var reader = File.OpenText(path))
            {
                while (reader.ReadLine() != null)
                {
                    count++;
                }
            }
            return count;
        }

        /// <summary>The first <paramref name="count"/> lines of a file.</summary>
        public static List<string> Head(string path, int count)
        {
            var lines = new List<string>();
            var reader = new StreamReader(path, Encoding.UTF8); // LEAK: the early return inside the loop skips Dispose()
            string line;
            while ((line = reader.ReadLine()) != null)
            {
                lines.Add(line);
                if (lines.Count == count)
                {
                    return lines;
                }
            }
            reader.Dispose();
            return lines;
        }

        /// <summary>The last <paramref name="count"/> lines of a file.</summary>
        public static List<string> Tail(string path, int count)
        {
            var window = new Queue<string>();
            using (var reader = new StreamReader(path, Encoding.UTF8))
            {
                string line;
                while ((line = reader.ReadLine()) != null)
                {
                    window.Enqueue(line);
                    if (window.Count > count)
                    {
                        window.Dequeue();
                    }
                }
            }
            return new List<string>(window);
        }

        /// <summary>Concatenates files into one.</summary>
        public static void Concatenate(IEnumerable<string> sources, string destination)
        {
            using (var output = File.Create(destination))
            {
                foreach (var source in sources)
                {
                    using (var input = File.OpenRead(source))
                    {
                        input.CopyTo(output, BufferSize);
                    }
                }
            }
        }

        /// <summary>The SHA-256 of a file, as lowercase hex.</summary>
        public static string Checksum(string path)
        {
            using (var sha = SHA256.Create())
            using (var input = File.OpenRead(path))
            {
                var hash = sha.ComputeHash(input);
                var text = new StringBuilder(hash.Length * 2);
                foreach (var b in hash)
                {
                    text.Append(b.ToString("x2"));
                }
                return text.ToString();
            }
        }

        /// <summary>Whether a file has no content.</summary>
        public static bool IsEmpty(string path)
        {
            return File.OpenRead(path).Length == 0; // LEAK: the stream is only used for its length and never disposed
        }

        /// <summary>Whether a file has no content, without opening it.</summary>
        public static bool IsEmptyByInfo(string path)
        {
            return new FileInfo(path).Length == 0;
        }

        /// <summary>Creates an empty marker file next to <paramref name="path"/>.</summary>
        public static string CreateMarker(string path)
        {
            var marker = path + ".done";
            File.Create(marker); // LEAK: the handle returned by File.Create is dropped
            return marker;
        }

        /// <summary>Writes a report, one line per entry.</summary>
        public static void WriteReport(string path, IEnumerable<KeyValuePair<string, long>> entries)
        {
            var writer = new StreamWriter(path, false, Encoding.UTF8);
            try
            {
                foreach (var entry in entries)
                {
                    writer.Write(entry.Key);
                    writer.Write('\t');
                    writer.WriteLine(entry.Value);
                }
            }
            finally
            {
                writer.Dispose();
            }
        }

        /// <summary>Opens a file for appending text; the caller owns the writer.</summary>
        public static StreamWriter OpenForAppend(string path)
        {
            var stream = new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.Read);
            return new StreamWriter(stream, Encoding.UTF8);
        }

        /// <summary>Splits a file into chunks of at most <paramref name="chunkSize"/> bytes.</summary>
        public static int Split(string path, int chunkSize)
        {
            var buffer = new byte[chunkSize];
            var index = 0;
            using (var input = File.OpenRead(path))
            {
                int read;
                while ((read = input.Read(buffer, 0, buffer.Length)) > 0)
                {
                    using (var chunk = File.Create(path + "." + index.ToString("D3")))
                    {
                        chunk.Write(buffer, 0, read);
                    }
                    index++;
                }
            }
            return index;
        }

        /// <summary>Copies a stream the caller owns into a new file.</summary>
        public static void Save(Stream content, string destination)
        {
            using (var output = File.Create(destination))
            {
                content.CopyTo(output, BufferSize);
            }
        }
    }
}
