// RlcSharp.Annotations: the resource-ownership attributes that rlc-sharp checks
// and that `rlc-sharp infer` proposes. Add this file to a project (or to a small
// shared assembly) and reference the namespace. rlc-sharp matches the attributes
// by simple name, so a project may also declare its own copies.
//
// The attributes stay in metadata on purpose (no [Conditional]): ownership is
// part of an API's contract, and callers in other assemblies rely on it.
//
// Licensed under the MIT license or the Apache License 2.0, at your option.

using System;

namespace RlcSharp.Annotations
{
    /// <summary>
    /// Declares the methods that must be called on every value of this type (or on
    /// this particular value) before it becomes unreachable: its must-call obligation.
    /// </summary>
    /// <remarks>
    /// <para>
    /// On a class, struct or interface it sets the obligation of the type and its
    /// subtypes. <see cref="IDisposable"/> already implies <c>Dispose</c> and
    /// <see cref="IAsyncDisposable"/> <c>DisposeAsync</c>; use this attribute for
    /// types whose protocol is another method, or with no method at all to say that
    /// a disposable type holds no resource.
    /// </para>
    /// <para>
    /// On a return value, parameter, field or property, <c>[MustCall]</c> with no
    /// method says that this value needs no call even though its type has an
    /// obligation (for example a client that a factory keeps and disposes).
    /// On a constructor it states the obligation of the object that constructor
    /// makes, when it differs from the type's.
    /// </para>
    /// <example>
    /// <code>
    /// [MustCall("Close")]
    /// public sealed class Session
    /// {
    ///     public void Close() { /* ... */ }
    /// }
    ///
    /// public interface IClientFactory
    /// {
    ///     [return: MustCall]
    ///     HttpClient CreateClient(string name);
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    [AttributeUsage(
        AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Interface
            | AttributeTargets.ReturnValue | AttributeTargets.Parameter
            | AttributeTargets.Field | AttributeTargets.Property | AttributeTargets.Constructor,
        Inherited = true,
        AllowMultiple = false)]
    public sealed class MustCallAttribute : Attribute
    {
        /// <summary>Declares the obligation: calling any one of <paramref name="methods"/> discharges it.</summary>
        /// <param name="methods">Names of instance methods of the type; none means no obligation.</param>
        public MustCallAttribute(params string[] methods)
        {
            Methods = methods ?? new string[0];
        }

        /// <summary>The methods that discharge the obligation; empty for none.</summary>
        public string[] Methods { get; private set; }
    }

    /// <summary>
    /// Marks a reference that owns its resource: whoever holds it must dispose it or
    /// hand it on to another owner.
    /// </summary>
    /// <remarks>
    /// <para>
    /// On a parameter, the method takes over the caller's obligation: the caller need
    /// not (and should not) dispose the argument after the call. On a field, the
    /// containing object owns the value, so its own disposal method must dispose the
    /// field (declare that with <see cref="CallsAttribute"/>). On a return value it
    /// restates the default: a method's result belongs to the caller.
    /// </para>
    /// <example>
    /// <code>
    /// public sealed class LogSink : IDisposable
    /// {
    ///     [Owning] private readonly Stream _stream;
    ///
    ///     public LogSink([Owning] Stream stream) { _stream = stream; }
    ///
    ///     [Calls("_stream", "Dispose")]
    ///     public void Dispose() { _stream.Dispose(); }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    [AttributeUsage(
        AttributeTargets.Parameter | AttributeTargets.ReturnValue
            | AttributeTargets.Field | AttributeTargets.Property,
        Inherited = true,
        AllowMultiple = false)]
    public sealed class OwningAttribute : Attribute
    {
    }

    /// <summary>
    /// Marks a reference that does not own its resource: its holder must not dispose
    /// it, because another object does.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Typical on a method that returns an object the callee keeps owning (a cached
    /// instance, a service from a container, a stream that its client closes), and on
    /// a field that only borrows a value. Properties and fields are not owning by
    /// default; methods return owning values by default.
    /// </para>
    /// <example>
    /// <code>
    /// public sealed class Connection : IDisposable
    /// {
    ///     private readonly NetworkStream _stream;
    ///
    ///     [return: NotOwning]
    ///     public Stream GetStream() { return _stream; }
    ///
    ///     public void Dispose() { _stream.Dispose(); }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    [AttributeUsage(
        AttributeTargets.Parameter | AttributeTargets.ReturnValue
            | AttributeTargets.Field | AttributeTargets.Property,
        Inherited = true,
        AllowMultiple = false)]
    public sealed class NotOwningAttribute : Attribute
    {
    }

    /// <summary>
    /// Says that the result of a constructor or method is a wrapper of one of its
    /// arguments: the two share one resource, disposing either releases it.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Put it on the constructor (or method) and on exactly one parameter. The caller
    /// then has one obligation for the pair, and if the argument holds no resource
    /// (a <c>MemoryStream</c>), the wrapper holds none either. On an instance method
    /// with no parameter marked, the result is a wrapper of the receiver.
    /// rlc-sharp verifies the claim: the constructor must store the parameter in the
    /// class's owning field, or pass it to another such constructor.
    /// </para>
    /// <example>
    /// <code>
    /// public sealed class LineReader : IDisposable
    /// {
    ///     [Owning] private readonly Stream _inner;
    ///
    ///     [MustCallAlias]
    ///     public LineReader([MustCallAlias] Stream inner) { _inner = inner; }
    ///
    ///     [Calls("_inner", "Dispose")]
    ///     public void Dispose() { _inner.Dispose(); }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    [AttributeUsage(
        AttributeTargets.Constructor | AttributeTargets.Method | AttributeTargets.Parameter,
        Inherited = true,
        AllowMultiple = false)]
    public sealed class MustCallAliasAttribute : Attribute
    {
    }

    /// <summary>
    /// Guarantees that, when the method returns normally, one of the named methods has
    /// been called on the target.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The target is <c>"this"</c>, a field of the declaring class by name
    /// (<c>"_stream"</c>), or a parameter by name or as <c>"#0"</c>, <c>"#1"</c>, ...
    /// (0-based). A disposal method states this for each owning field, which is how
    /// rlc-sharp knows that disposing the object disposes what it owns; a helper that
    /// closes its argument states it for that parameter. rlc-sharp checks the claim
    /// against the method body.
    /// </para>
    /// <example>
    /// <code>
    /// [Calls("_reader", "Dispose")]
    /// [Calls("_writer", "Dispose")]
    /// public void Dispose()
    /// {
    ///     _reader.Dispose();
    ///     _writer.Dispose();
    /// }
    ///
    /// [Calls("#0", "Dispose")]
    /// public static void CloseQuietly(IDisposable resource)
    /// {
    ///     try { resource.Dispose(); } catch (IOException) { }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    [AttributeUsage(AttributeTargets.Method, Inherited = true, AllowMultiple = true)]
    public sealed class CallsAttribute : Attribute
    {
        /// <summary>Declares that one of <paramref name="methods"/> is called on <paramref name="target"/>.</summary>
        /// <param name="target"><c>"this"</c>, a field name, a parameter name, or <c>"#n"</c> for the n-th parameter.</param>
        /// <param name="methods">The methods of which one is called.</param>
        public CallsAttribute(string target, params string[] methods)
        {
            Target = target;
            Methods = methods ?? new string[0];
        }

        /// <summary>The value the methods are called on.</summary>
        public string Target { get; private set; }

        /// <summary>The methods of which one is called.</summary>
        public string[] Methods { get; private set; }
    }

    /// <summary>
    /// Says that the method (re)creates a resource in an owning field of the target,
    /// so the target has an obligation again after the call, even if it was disposed.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Needed on methods that assign a new resource to a non-readonly owning field
    /// (an <c>Open</c> or <c>Reconnect</c> method). Callers must then dispose the target
    /// after such a call. rlc-sharp also requires the method to dispose the old value
    /// before overwriting it.
    /// </para>
    /// <example>
    /// <code>
    /// [CreatesMustCallFor("this")]
    /// public void Reconnect()
    /// {
    ///     _socket?.Dispose();
    ///     _socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    [AttributeUsage(AttributeTargets.Method, Inherited = true, AllowMultiple = true)]
    public sealed class CreatesMustCallForAttribute : Attribute
    {
        /// <summary>Declares which value gets a new obligation.</summary>
        /// <param name="target"><c>"this"</c> (the default), or a parameter name or <c>"#n"</c>.</param>
        public CreatesMustCallForAttribute(string target = "this")
        {
            Target = target;
        }

        /// <summary>The value that gets a new obligation.</summary>
        public string Target { get; private set; }
    }
}
