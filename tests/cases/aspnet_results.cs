// Case family: ASP.NET Core results that send a stream. MVC's `File(stream, ..)`, a
// `FileStreamResult` and minimal APIs' `Results.File`/`Results.Stream` dispose the stream
// once the response is written, so a stream handed to one is the framework's. A stream
// opened and not handed to a result is the action's.
// cases: 5
using System.IO;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;

namespace Cases.AspNetResults;

public class LogsController : ControllerBase
{
    // CASE: `File(stream, contentType)` takes the stream over.
    public ActionResult GetLog(string path)
    {
        var stream = new FileStream(path, FileMode.Open, FileAccess.Read);
        return File(stream, "text/plain");
    }

    // CASE: so does a `FileStreamResult`.
    public ActionResult GetVideo(string path)
    {
        var stream = System.IO.File.OpenRead(path);
        return new FileStreamResult(stream, "video/mp2t");
    }

    // CASE: a stream read for its length and dropped is still the action's leak.
    public ActionResult GetSize(string path)
    {
        var stream = System.IO.File.OpenRead(path); // expect: RLC0001
        return Ok(stream.Length);
    }

    // CASE: ... and one opened on a path that returns before the result is made.
    public ActionResult GetIfSmall(string path)
    {
        var stream = System.IO.File.OpenRead(path); // expect: RLC0001
        if (stream.Length > 1_000_000)
            return BadRequest();
        return File(stream, "application/octet-stream");
    }
}

public static class Endpoints
{
    // CASE: minimal APIs: `Results.Stream` takes the stream over.
    public static IResult Download(string path) =>
        Results.Stream(System.IO.File.OpenRead(path), "application/octet-stream");
}
