using System;
using System.Globalization;
using System.IO;
using System.Text;

namespace FileTool
{
    /// <summary>Severity of a log line.</summary>
    public enum LogLevel
    {
        Debug,
        Info,
        Warning,
        Error,
    }

    /// <summary>Appends timestamped lines to a log file it owns.</summary>
    public sealed class LogWriter : IDisposable
    {
        private readonly StreamWriter _writer;
        private readonly LogLevel _minimum;

        public LogWriter(string path, LogLevel minimum)
        {
            _writer = FileOperations.OpenForAppend(path);
            _writer.AutoFlush = true;
            _minimum = minimum;
        }

        public void Write(LogLevel level, string message)
        {
            if (level < _minimum)
            {
                return;
            }
            _writer.Write(DateTime.UtcNow.ToString("o", CultureInfo.InvariantCulture));
            _writer.Write(' ');
            _writer.Write(level.ToString().ToUpperInvariant());
            _writer.Write(' ');
            _writer.WriteLine(message);
        }

        public void Info(string message)
        {
            Write(LogLevel.Info, message);
        }

        public void Error(string message, Exception exception)
        {
            Write(LogLevel.Error, message + ": " + exception.Message);
        }

        public void Dispose()
        {
            _writer.Dispose();
        }
    }

    /// <summary>A log that starts a new file when the current one grows too large.</summary>
    public sealed class RotatingLog : IDisposable
    {
        private readonly string _directory;
        private readonly long _maxBytes;
        private StreamWriter _current;
        private int _generation;

        public RotatingLog(string directory, long maxBytes)
        {
            _directory = directory;
            _maxBytes = maxBytes;
            _current = new StreamWriter(PathFor(0), true, Encoding.UTF8);
        }

        public void WriteLine(string line)
        {
            if (_current.BaseStream.Length > _maxBytes)
            {
                Rotate();
            }
            _current.WriteLine(line);
        }

        private string PathFor(int generation)
        {
            return Path.Combine(_directory, "tool." + generation + ".log");
        }

        private void Rotate()
        {
            _generation++;
            _current.Flush();
            _current = new StreamWriter(PathFor(_generation), true, Encoding.UTF8); // LEAK: the previous writer is replaced without being disposed
        }

        public void Dispose()
        {
            _current.Dispose();
        }
    }

    /// <summary>Collects error lines in a side file.</summary>
    public sealed class ErrorLog
    {
        private readonly FileStream _stream; // LEAK: ErrorLog opens this stream but has no disposal method, so nothing ever closes it

        public ErrorLog(string path)
        {
            _stream = new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.Read);
        }

        public void Append(string line)
        {
            var bytes = Encoding.UTF8.GetBytes(line + Environment.NewLine);
            _stream.Write(bytes, 0, bytes.Length);
            _stream.Flush();
        }
    }
}
