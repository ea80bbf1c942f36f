using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace HttpService
{
    /// <summary>
    /// A background service that polls forecasts for a few cities and writes them to a
    /// cache directory. It owns its client, its stop signal and its timer.
    /// </summary>
    public sealed class ForecastService : IDisposable
    {
        private readonly WeatherClient _client;
        private readonly CancellationTokenSource _stopping;
        private readonly Timer _heartbeat;
        private readonly string _cacheDirectory;
        private readonly IList<string> _cities;
        private Task _loop;

        public ForecastService(Uri api, string apiKey, string cacheDirectory, IList<string> cities)
        {
            _client = new WeatherClient(api, apiKey);
            _stopping = new CancellationTokenSource();
            _heartbeat = new Timer(state => Console.WriteLine("forecast service alive"), null, TimeSpan.Zero, TimeSpan.FromMinutes(1));
            _cacheDirectory = cacheDirectory;
            _cities = cities;
        }

        public void Start()
        {
            _loop = Task.Run(() => RunAsync(_stopping.Token));
        }

        public async Task StopAsync(TimeSpan grace)
        {
            _stopping.Cancel();
            if (_loop == null)
            {
                return;
            }
            using (var graceTimeout = new CancellationTokenSource(grace))
            {
                var finished = await Task.WhenAny(_loop, Task.Delay(Timeout.Infinite, graceTimeout.Token)).ConfigureAwait(false);
                if (finished != _loop)
                {
                    Console.Error.WriteLine("forecast loop did not stop in time");
                }
            }
        }

        private async Task RunAsync(CancellationToken stopping)
        {
            while (!stopping.IsCancellationRequested)
            {
                foreach (var city in _cities)
                {
                    try
                    {
                        var json = await _client.GetForecastWithTimeoutAsync(city, stopping).ConfigureAwait(false);
                        WriteCache(city, json);
                    }
                    catch (OperationCanceledException) when (stopping.IsCancellationRequested)
                    {
                        return;
                    }
                    catch (Exception e)
                    {
                        Console.Error.WriteLine("forecast for " + city + " failed: " + e.Message);
                    }
                }
                await Task.Delay(TimeSpan.FromMinutes(10), stopping).ConfigureAwait(false);
            }
        }

        private void WriteCache(string city, string json)
        {
            var path = Path.Combine(_cacheDirectory, city + ".json");
            using (var writer = new StreamWriter(path, false, Encoding.UTF8))
            {
                writer.Write(json);
            }
        }

        /// <summary>Reads a cached forecast, if any.</summary>
        public string ReadCache(string city)
        {
            var path = Path.Combine(_cacheDirectory, city + ".json");
            if (!File.Exists(path))
            {
                return null;
            }
            var reader = new StreamReader(path, Encoding.UTF8); // LEAK: the reader is never disposed
            return reader.ReadToEnd();
        }

        /// <summary>Runs one poll for a single city with its own deadline.</summary>
        public async Task<string> PollOnceAsync(string city, TimeSpan deadline)
        {
            using (var timeout = new CancellationTokenSource(deadline))
            using (var linked = CancellationTokenSource.CreateLinkedTokenSource(timeout.Token, _stopping.Token))
            {
                var json = await _client.GetForecastAsync(city, linked.Token).ConfigureAwait(false);
                WriteCache(city, json);
                return json;
            }
        }

        public void Dispose()
        {
            _heartbeat.Dispose();
            _stopping.Dispose();
            _client.Dispose();
        }
    }
}
