// Case family: System.Net.Http: HttpClient with and without a handler (the client takes
// the handler unless disposeHandler is false), HttpResponseMessage, HttpRequestMessage,
// content streams, IHttpClientFactory (its clients need no disposal). A response's content
// stream is a resource alias of the response; `EnsureSuccessStatusCode` throws by design, so
// its exception is followed under the default exception model. A response HttpClient read
// into memory (the default) holds no connection: losing it is RLC0011; one requested with
// `ResponseHeadersRead`, sent by an invoker, or built by the code keeps the full obligation.
// cases: 24
using System;
using System.IO;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using RlcSharp.Annotations;

namespace Cases.HttpClients;

public static class Clients
{
    // CASE: a client under using.
    public static async Task<string> ClientDisposed(Uri uri)
    {
        using var client = new HttpClient();
        return await client.GetStringAsync(uri);
    }

    // CASE: a client created per call and never disposed.
    public static async Task<string> ClientLeaked(Uri uri)
    {
        var client = new HttpClient(); // expect: RLC0001
        return await client.GetStringAsync(uri);
    }

    // CASE: the client takes its handler.
    public static async Task<string> ClientTakesHandler(Uri uri)
    {
        var handler = new HttpClientHandler { AllowAutoRedirect = false };
        using var client = new HttpClient(handler);
        return await client.GetStringAsync(uri);
    }

    // CASE: disposeHandler: false: the handler stays the caller's to dispose.
    public static async Task<string> HandlerNotTaken(Uri uri)
    {
        var handler = new HttpClientHandler(); // expect: RLC0001
        using var client = new HttpClient(handler, disposeHandler: false);
        return await client.GetStringAsync(uri);
    }

    // CASE: disposeHandler: false with the handler disposed too.
    public static async Task<string> HandlerNotTakenDisposed(Uri uri)
    {
        using var handler = new HttpClientHandler();
        using var client = new HttpClient(handler, false);
        return await client.GetStringAsync(uri);
    }

    // CASE: a factory's clients are managed by the factory.
    public static async Task<string> FromFactory(IHttpClientFactory factory, Uri uri)
    {
        var client = factory.CreateClient("api");
        return await client.GetStringAsync(uri);
    }
}

public static class Responses
{
    // CASE: `using var response = await client.GetAsync(..)`.
    public static async Task<string> ResponseDisposed(HttpClient client, Uri uri)
    {
        using var response = await client.GetAsync(uri);
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadAsStringAsync();
    }

    // CASE: a response that is read and dropped: `GetAsync` read its content into
    // memory before returning it, so losing it is harmless as the code stands (a note).
    public static async Task<string> ResponseLeaked(HttpClient client, Uri uri)
    {
        var response = await client.GetAsync(uri); // expect: RLC0011
        return await response.Content.ReadAsStringAsync();
    }

    // CASE: a request message under using, sent with SendAsync.
    public static async Task<int> RequestAndResponseDisposed(HttpClient client, Uri uri, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Head, uri);
        using var response = await client.SendAsync(request, ct);
        return (int)response.StatusCode;
    }

    // CASE: a request message never disposed.
    public static async Task<int> RequestLeaked(HttpClient client, Uri uri)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, uri); // expect: RLC0001
        using var response = await client.SendAsync(request);
        return (int)response.StatusCode;
    }

    // CASE: a helper returns the response: ownership moves to the caller.
    public static async Task<HttpResponseMessage> GetChecked(HttpClient client, Uri uri)
    {
        var response = await client.GetAsync(uri, HttpCompletionOption.ResponseHeadersRead);
        if (!response.IsSuccessStatusCode)
        {
            response.Dispose();
            throw new HttpRequestException("status " + (int)response.StatusCode);
        }
        return response;
    }

    // CASE: the caller of that helper forgets the response, which streams its content
    // from the connection: the helper's result keeps `GetAsync`'s stated obligation.
    public static async Task<long?> LengthOf(HttpClient client, Uri uri)
    {
        var response = await GetChecked(client, uri); // expect: RLC0001
        return response.Content.Headers.ContentLength;
    }

    // CASE: a download: response, content stream and file under using.
    public static async Task Download(HttpClient client, Uri uri, string path, CancellationToken ct)
    {
        using var response = await client.GetAsync(uri, HttpCompletionOption.ResponseHeadersRead, ct);
        response.EnsureSuccessStatusCode();
        await using var body = await response.Content.ReadAsStreamAsync(ct);
        await using var file = File.Create(path);
        await body.CopyToAsync(file, ct);
    }

    // CASE: GetStreamAsync returns a stream the caller owns; here it is dropped.
    public static async Task<int> FirstByteLeaked(HttpClient client, Uri uri)
    {
        var stream = await client.GetStreamAsync(uri); // expect: RLC0001
        return stream.ReadByte();
    }

    // CASE: StreamContent over a file stream, disposed through the content.
    public static async Task Upload(HttpClient client, Uri uri, string path)
    {
        using var content = new StreamContent(File.OpenRead(path));
        using var response = await client.PostAsync(uri, content);
        response.EnsureSuccessStatusCode();
    }

    // CASE: the content stream of a response is a resource alias of the response (the
    // connection lives in it): returning it hands the response on, and the caller's
    // disposal of the stream releases it.
    public static async Task<Stream> OpenBody(HttpClient client, Uri uri, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, uri);
        var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct);
        return await response.Content.ReadAsStreamAsync(ct);
    }

    // CASE: `EnsureSuccessStatusCode` throws by design: a response only handed on
    // when it succeeds is lost when it fails.
    public static async Task<Stream> OpenCheckedBody(HttpClient client, Uri uri)
    {
        var response = await client.GetAsync(uri, HttpCompletionOption.ResponseHeadersRead); // expect: RLC0002
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadAsStreamAsync();
    }

    // CASE: ... disposed under `using`, it is released on that path too.
    public static async Task<string> ReadChecked(HttpClient client, Uri uri)
    {
        using var response = await client.GetAsync(uri);
        response.EnsureSuccessStatusCode();
        return await response.Content.ReadAsStringAsync();
    }

    // CASE: ... but reading the content as a string leaves the response undisposed.
    public static async Task<string> ReadBodyLeaked(HttpClient client, Uri uri)
    {
        var response = await client.GetAsync(uri); // expect: RLC0011
        return await response.Content.ReadAsStringAsync();
    }

    // CASE: a response takes over the content it is given.
    public static HttpResponseMessage Respond(string path)
    {
        var response = new HttpResponseMessage();
        response.Content = new StreamContent(File.OpenRead(path));
        return response;
    }
}

// CASE: a service that owns its client and disposes it.
public sealed class ApiClient : IDisposable
{
    [Owning] private readonly HttpClient _http;

    public ApiClient(Uri baseAddress)
    {
        _http = new HttpClient { BaseAddress = baseAddress };
    }

    public Task<string> Get(string path) => _http.GetStringAsync(path);

    [Calls("_http", "Dispose")]
    public void Dispose() => _http.Dispose();
}

public static class ResponseBuffering
{
    // CASE: a response requested with `ResponseHeadersRead` streams its content from the
    // connection: losing it holds the connection until the collector runs.
    public static async Task<bool> StreamedLost(HttpClient client, Uri uri)
    {
        var response = await client.GetAsync(uri, HttpCompletionOption.ResponseHeadersRead); // expect: RLC0001
        return response.IsSuccessStatusCode;
    }

    // CASE: a response a message invoker sends is not buffered.
    public static async Task<bool> InvokerLost(HttpMessageInvoker invoker, HttpRequestMessage request)
    {
        var response = await invoker.SendAsync(request, CancellationToken.None); // expect: RLC0001
        return response.IsSuccessStatusCode;
    }

    // CASE: a response the code builds may hold any content it is given.
    public static bool BuiltLost()
    {
        var response = new HttpResponseMessage(System.Net.HttpStatusCode.OK); // expect: RLC0001
        return response.IsSuccessStatusCode;
    }
}
