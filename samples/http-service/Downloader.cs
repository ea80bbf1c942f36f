using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace HttpService
{
    /// <summary>Downloads files in parallel with a bounded number of requests in flight.</summary>
    public sealed class Downloader : IDisposable
    {
        private readonly HttpClient _http;
        private readonly SemaphoreSlim _gate;
        private readonly string _directory;

        public Downloader(HttpClient http, string directory, int maxParallel)
        {
            _http = http;
            _directory = directory;
            _gate = new SemaphoreSlim(maxParallel, maxParallel);
        }

        /// <summary>Downloads every URI into the directory; returns the files written.</summary>
        public async Task<List<string>> DownloadAllAsync(IEnumerable<Uri> uris, TimeSpan timeout)
        {
            using (var cts = new CancellationTokenSource(timeout))
            {
                var tasks = new List<Task<string>>();
                foreach (var uri in uris)
                {
                    tasks.Add(DownloadOneAsync(uri, cts.Token));
                }
                var files = await Task.WhenAll(tasks).ConfigureAwait(false);
                return new List<string>(files);
            }
        }

        private async Task<string> DownloadOneAsync(Uri uri, CancellationToken cancellationToken)
        {
            await _gate.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                var path = Path.Combine(_directory, Path.GetFileName(uri.LocalPath));
                using (var response = await _http.GetAsync(uri, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false))
                {
                    response.EnsureSuccessStatusCode();
                    using (var body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false))
                    using (var file = File.Create(path))
                    {
                        await body.CopyToAsync(file, 81920, cancellationToken).ConfigureAwait(false);
                    }
                }
                return path;
            }
            finally
            {
                _gate.Release();
            }
        }

        /// <summary>The first bytes of a resource, read through a range request.</summary>
        public async Task<byte[]> PeekAsync(Uri uri, int count)
        {
            using (var request = new HttpRequestMessage(HttpMethod.Get, uri))
            {
                request.Headers.Range = new System.Net.Http.Headers.RangeHeaderValue(0, count - 1);
                using (var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false))
                {
                    using (var body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false))
                    {
                        var buffer = new byte[count];
                        var read = await body.ReadAsync(buffer, 0, count).ConfigureAwait(false);
                        Array.Resize(ref buffer, read);
                        return buffer;
                    }
                }
            }
        }

        public void Dispose()
        {
            _gate.Dispose();
        }
    }

    /// <summary>One-off parallel fetches without a Downloader.</summary>
    public static class ParallelFetch
    {
        /// <summary>The bodies of several URIs, at most four at a time.</summary>
        public static async Task<string[]> FetchAllAsync(HttpClient http, IList<Uri> uris, CancellationToken cancellationToken)
        {
            var gate = new SemaphoreSlim(4); // LEAK: the semaphore is never disposed
            var tasks = new Task<string>[uris.Count];
            for (var i = 0; i < uris.Count; i++)
            {
                tasks[i] = FetchAsync(http, gate, uris[i], cancellationToken);
            }
            return await Task.WhenAll(tasks).ConfigureAwait(false);
        }

        /// <summary>The bodies of several URIs, with the semaphore disposed when done.</summary>
        public static async Task<string[]> FetchAllDisposedAsync(HttpClient http, IList<Uri> uris, CancellationToken cancellationToken)
        {
            using (var gate = new SemaphoreSlim(4))
            {
                var tasks = new Task<string>[uris.Count];
                for (var i = 0; i < uris.Count; i++)
                {
                    tasks[i] = FetchAsync(http, gate, uris[i], cancellationToken);
                }
                return await Task.WhenAll(tasks).ConfigureAwait(false);
            }
        }

        private static async Task<string> FetchAsync(HttpClient http, SemaphoreSlim gate, Uri uri, CancellationToken cancellationToken)
        {
            await gate.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                using (var response = await http.GetAsync(uri, cancellationToken).ConfigureAwait(false))
                {
                    return await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                }
            }
            finally
            {
                gate.Release();
            }
        }
    }
}
