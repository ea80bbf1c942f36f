// Case family: JetBrains.Annotations that ReSharper users already have in their code:
// [MustDisposeResource] (on a method: owning return; with `false`: not owning) and
// [HandlesResourceDisposal] (on a parameter: owning; on a method: a disposal method of
// its type). The attributes are matched by simple name; this file declares its own copies.
// cases: 8
using System;
using System.IO;
using JetBrains.Annotations;

namespace JetBrains.Annotations
{
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Constructor | AttributeTargets.Method | AttributeTargets.Parameter)]
    public sealed class MustDisposeResourceAttribute : Attribute
    {
        public MustDisposeResourceAttribute()
        {
            Value = true;
        }

        public MustDisposeResourceAttribute(bool value)
        {
            Value = value;
        }

        public bool Value { get; }
    }

    [AttributeUsage(AttributeTargets.Method | AttributeTargets.Parameter | AttributeTargets.Field | AttributeTargets.Property)]
    public sealed class HandlesResourceDisposalAttribute : Attribute
    {
    }
}

namespace Cases.JetBrainsAnnotations
{
    public sealed class Channel : IDisposable
    {
        // CASE: a [HandlesResourceDisposal] method is a disposal method of its type.
        [HandlesResourceDisposal]
        public void Release()
        {
        }

        public void Dispose()
        {
        }
    }

    public sealed class Cache
    {
        private readonly Stream _cached = Stream.Null;

        // CASE: [MustDisposeResource(false)]: the caller does not own the result.
        [MustDisposeResource(false)]
        public Stream Cached() => _cached;

        // CASE: [MustDisposeResource(false)] on a method that returns a fresh stream:
        // nobody owns it.
        [MustDisposeResource(false)]
        public Stream Fresh(string path) => File.OpenRead(path); // expect: RLC0001

        // CASE: [MustDisposeResource] restates an owning return.
        [MustDisposeResource]
        public Stream Open(string path) => File.OpenRead(path);
    }

    public static class Users
    {
        static void Close([HandlesResourceDisposal] Stream s) => s.Dispose();

        // CASE: a [HandlesResourceDisposal] parameter that is never disposed.
        static void Ignore([HandlesResourceDisposal] Stream s) => s.Flush(); // expect: RLC0001

        // CASE: passing to a [HandlesResourceDisposal] parameter discharges.
        public static void PassToHandler(string path)
        {
            Close(File.OpenRead(path));
            Ignore(File.OpenRead(path));
        }

        // CASE: calling a [HandlesResourceDisposal] method discharges the receiver.
        public static void ReleaseChannel()
        {
            var channel = new Channel();
            channel.Release();
        }

        // CASE: results of the cache: the not-owned one needs nothing, the owned one leaks.
        public static int UseCache(Cache cache, string path)
        {
            var cached = cache.Cached();
            var opened = cache.Open(path); // expect: RLC0001
            return cached.ReadByte() + opened.ReadByte();
        }
    }
}
