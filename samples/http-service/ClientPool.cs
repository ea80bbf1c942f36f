using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace HttpService
{
    /// <summary>
    /// Hands out HttpClients that share one handler (and its connection pool). The pool
    /// owns the handler; each client belongs to whoever asked for it.
    /// </summary>
    public sealed class ClientPool : IDisposable
    {
        private readonly HttpClientHandler _handler;
        private readonly TimeSpan _timeout;

        public ClientPool(TimeSpan timeout)
        {
            _handler = new HttpClientHandler { UseCookies = false, MaxConnectionsPerServer = 16 };
            _timeout = timeout;
        }

        /// <summary>A client over the shared handler; disposing it leaves the handler open.</summary>
        public HttpClient CreateClient()
        {
            var client = new HttpClient(_handler, false);
            client.Timeout = _timeout;
            return client;
        }

        public void Dispose()
        {
            _handler.Dispose();
        }
    }

    /// <summary>Health checks over a set of endpoints.</summary>
    public sealed class HealthChecker
    {
        private readonly ClientPool _pool;

        public HealthChecker(ClientPool pool)
        {
            _pool = pool;
        }

        /// <summary>Status code of each endpoint, using pooled clients.</summary>
        public async Task<Dictionary<Uri, int>> CheckAllAsync(IEnumerable<Uri> endpoints, CancellationToken cancellationToken)
        {
            var results = new Dictionary<Uri, int>();
            using (var client = _pool.CreateClient())
            {
                foreach (var endpoint in endpoints)
                {
                    using (var request = new HttpRequestMessage(HttpMethod.Head, endpoint))
                    using (var response = await client.SendAsync(request, cancellationToken).ConfigureAwait(false))
                    {
                        results[endpoint] = (int)response.StatusCode;
                    }
                }
            }
            return results;
        }

        /// <summary>Whether one endpoint answers, with a pooled client.</summary>
        public async Task<bool> IsUpAsync(Uri endpoint)
        {
            var client = _pool.CreateClient(); // LEAK: the pooled client is never disposed
            using (var response = await client.GetAsync(endpoint).ConfigureAwait(false))
            {
                return response.IsSuccessStatusCode;
            }
        }

        /// <summary>Whether one endpoint answers, with a client of its own.</summary>
        public static async Task<bool> PingAsync(Uri endpoint)
        {
            var client = new HttpClient(); // LEAK: a client per call that is never disposed exhausts sockets
            client.Timeout = TimeSpan.FromSeconds(5);
            using (var response = await client.GetAsync(endpoint).ConfigureAwait(false))
            {
                return response.IsSuccessStatusCode;
            }
        }

        /// <summary>The body of an endpoint, with a client and handler of its own.</summary>
        public static async Task<string> FetchOnceAsync(Uri endpoint, CancellationToken cancellationToken)
        {
            using (var handler = new HttpClientHandler())
            using (var client = new HttpClient(handler, false))
            using (var response = await client.GetAsync(endpoint, cancellationToken).ConfigureAwait(false))
            {
                return await response.Content.ReadAsStringAsync().ConfigureAwait(false);
            }
        }

        /// <summary>The body of an endpoint; the handler is given to a client that does not take it.</summary>
        public static async Task<string> FetchWithProxyAsync(Uri endpoint, Uri proxy)
        {
            var handler = new HttpClientHandler { Proxy = new System.Net.WebProxy(proxy), UseProxy = true }; // LEAK: disposeHandler is false, so disposing the client leaves the handler open
            using (var client = new HttpClient(handler, false))
            {
                return await client.GetStringAsync(endpoint).ConfigureAwait(false);
            }
        }
    }
}
