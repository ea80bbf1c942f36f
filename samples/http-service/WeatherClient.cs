using System;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Threading;
using System.Threading.Tasks;

namespace HttpService
{
    /// <summary>A typed client of a weather API; it owns its HttpClient and handler.</summary>
    public sealed class WeatherClient : IDisposable
    {
        private static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(10);

        private readonly HttpClient _http;

        public WeatherClient(Uri baseAddress, string apiKey)
        {
            var handler = new HttpClientHandler
            {
                AutomaticDecompression = DecompressionMethods.GZip | DecompressionMethods.Deflate,
                AllowAutoRedirect = false,
            };
            _http = new HttpClient(handler);
            _http.BaseAddress = baseAddress;
            _http.DefaultRequestHeaders.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
            _http.DefaultRequestHeaders.Add("X-Api-Key", apiKey);
        }

        /// <summary>The forecast document for a city, as JSON text.</summary>
        public async Task<string> GetForecastAsync(string city, CancellationToken cancellationToken)
        {
            using (var response = await _http.GetAsync("forecast/" + Uri.EscapeDataString(city), cancellationToken).ConfigureAwait(false))
            {
                response.EnsureSuccessStatusCode();
                return await response.Content.ReadAsStringAsync().ConfigureAwait(false);
            }
        }

        /// <summary>The forecast, giving up after the default timeout.</summary>
        public async Task<string> GetForecastWithTimeoutAsync(string city, CancellationToken cancellationToken)
        {
            using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
            {
                timeout.CancelAfter(DefaultTimeout);
                return await GetForecastAsync(city, timeout.Token).ConfigureAwait(false);
            }
        }

        /// <summary>The forecast, giving up at a deadline.</summary>
        public async Task<string> GetForecastBeforeAsync(string city, DateTime deadlineUtc, CancellationToken cancellationToken)
        {
            var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken); // LEAK: the linked source stays registered with the caller's token
            linked.CancelAfter(deadlineUtc - DateTime.UtcNow);
            return await GetForecastAsync(city, linked.Token).ConfigureAwait(false);
        }

        /// <summary>Whether the API is up.</summary>
        public async Task<HttpStatusCode> GetStatusAsync()
        {
            var response = await _http.GetAsync("health", HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false); // LEAK: the streamed response (and its connection) is never disposed
            return response.StatusCode;
        }

        /// <summary>Downloads a radar image to a file.</summary>
        public async Task<long> DownloadRadarAsync(string region, string path, CancellationToken cancellationToken)
        {
            using (var response = await _http.GetAsync("radar/" + region, HttpCompletionOption.ResponseHeadersRead, cancellationToken).ConfigureAwait(false))
            {
                response.EnsureSuccessStatusCode();
                using (var body = await response.Content.ReadAsStreamAsync().ConfigureAwait(false))
                using (var file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 81920, true))
                {
                    await body.CopyToAsync(file, 81920, cancellationToken).ConfigureAwait(false);
                    return file.Length;
                }
            }
        }

        /// <summary>Sends a request the caller built and returns the response to it.</summary>
        public async Task<HttpResponseMessage> SendAsync(HttpMethod method, string path, HttpContent content, CancellationToken cancellationToken)
        {
            using (var request = new HttpRequestMessage(method, path))
            {
                request.Content = content;
                var response = await _http.SendAsync(request, cancellationToken).ConfigureAwait(false);
                return response;
            }
        }

        /// <summary>Uploads a station report file.</summary>
        public async Task UploadReportAsync(string station, string path, CancellationToken cancellationToken)
        {
            using (var content = new StreamContent(File.OpenRead(path)))
            {
                content.Headers.ContentType = new MediaTypeHeaderValue("text/csv");
                using (var response = await _http.PostAsync("stations/" + station + "/reports", content, cancellationToken).ConfigureAwait(false))
                {
                    response.EnsureSuccessStatusCode();
                }
            }
        }

        /// <summary>Saves a response body the caller owns to a file.</summary>
        public static async Task SaveAsync(HttpResponseMessage response, string path)
        {
            var file = File.Create(path); // LEAK: the file stream is never disposed (and may never be flushed)
            await response.Content.CopyToAsync(file).ConfigureAwait(false);
        }

        public void Dispose()
        {
            _http.Dispose();
        }
    }
}
