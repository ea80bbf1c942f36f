using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;

namespace FileTool
{
    /// <summary>The result of running an external program.</summary>
    public sealed class RunResult
    {
        public RunResult(int exitCode, string output, string error)
        {
            ExitCode = exitCode;
            Output = output;
            Error = error;
        }

        public int ExitCode { get; private set; }

        public string Output { get; private set; }

        public string Error { get; private set; }

        public bool Succeeded
        {
            get { return ExitCode == 0; }
        }
    }

    /// <summary>Runs git and tar and reads what they print.</summary>
    public static class ProcessRunner
    {
        private static ProcessStartInfo StartInfo(string fileName, string arguments, string workingDirectory)
        {
            return new ProcessStartInfo(fileName, arguments)
            {
                WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
                CreateNoWindow = true,
                StandardOutputEncoding = Encoding.UTF8,
            };
        }

        /// <summary>Runs a program to completion and captures both output streams.</summary>
        public static RunResult Run(string fileName, string arguments, string workingDirectory)
        {
            using (var process = new Process())
            {
                process.StartInfo = StartInfo(fileName, arguments, workingDirectory);
                var error = new StringBuilder();
                process.ErrorDataReceived += (sender, e) =>
                {
                    if (e.Data != null)
                    {
                        error.AppendLine(e.Data);
                    }
                };
                process.Start();
                process.BeginErrorReadLine();
                var output = process.StandardOutput.ReadToEnd();
                process.WaitForExit();
                return new RunResult(process.ExitCode, output, error.ToString());
            }
        }

        /// <summary>The subjects of the last <paramref name="count"/> commits.</summary>
        public static List<string> GitLog(string repository, int count)
        {
            var result = Run("git", "log --format=%s -n " + count, repository);
            var subjects = new List<string>();
            if (!result.Succeeded)
            {
                return subjects;
            }
            using (var reader = new StringReader(result.Output))
            {
                string line;
                while ((line = reader.ReadLine()) != null)
                {
                    subjects.Add(line);
                }
            }
            return subjects;
        }

        /// <summary>The name of the checked-out branch.</summary>
        public static string GitCurrentBranch(string repository)
        {
            var info = StartInfo("git", "rev-parse --abbrev-ref HEAD", repository);
            var process = Process.Start(info); // LEAK: the Process is never disposed
            var branch = process.StandardOutput.ReadLine();
            process.WaitForExit();
            return branch;
        }

        /// <summary>The files git reports as modified.</summary>
        public static List<string> GitModifiedFiles(string repository)
        {
            var files = new List<string>();
            var info = StartInfo("git", "status --porcelain", repository);
            using (var process = Process.Start(info))
            {
                string line;
                while ((line = process.StandardOutput.ReadLine()) != null)
                {
                    if (line.Length > 3 && line[1] == 'M')
                    {
                        files.Add(line.Substring(3));
                    }
                }
                process.WaitForExit();
            }
            return files;
        }

        /// <summary>Packs a directory into a tar archive.</summary>
        public static void CreateTar(string archive, string directory)
        {
            Process.Start("tar", "-cf \"" + archive + "\" -C \"" + directory + "\" .").WaitForExit(); // LEAK: the Process returned by Process.Start is dropped
        }

        /// <summary>Unpacks a tar archive and returns what tar printed on stderr.</summary>
        public static string ExtractTar(string archive, string directory)
        {
            Directory.CreateDirectory(directory);
            var info = StartInfo("tar", "-xf \"" + archive + "\" -C \"" + directory + "\"", null);
            var process = Process.Start(info);
            try
            {
                var errors = process.StandardError.ReadToEnd();
                process.WaitForExit();
                if (process.ExitCode != 0)
                {
                    throw new IOException("tar failed: " + errors);
                }
                return errors;
            }
            finally
            {
                if (process != null)
                {
                    process.Dispose();
                }
            }
        }

        /// <summary>Lists the entries of a tar archive.</summary>
        public static List<string> ListTar(string archive)
        {
            var result = Run("tar", "-tf \"" + archive + "\"", null);
            var entries = new List<string>();
            foreach (var line in result.Output.Split('\n'))
            {
                if (line.Length > 0)
                {
                    entries.Add(line.TrimEnd('\r'));
                }
            }
            return entries;
        }

        /// <summary>Starts a program and disposes it when it exits.</summary>
        public static void StartInBackground(string fileName, string arguments, Action<int> exited)
        {
            var process = new Process
            {
                StartInfo = StartInfo(fileName, arguments, null),
                EnableRaisingEvents = true,
            };
            process.Exited += (sender, e) =>
            {
                exited(process.ExitCode);
                process.Dispose();
            };
            process.Start();
        }
    }
}
