// Case family: Microsoft.Extensions.DependencyInjection: a built ServiceProvider and
// created scopes are owning; services resolved from a provider belong to the container.
// cases: 9
using System;
using System.IO;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;

namespace Cases.DependencyInjection;

public sealed class UnitOfWork : IDisposable
{
    public void Save()
    {
    }

    public void Dispose()
    {
    }
}

public static class Container
{
    static ServiceCollection Services()
    {
        var services = new ServiceCollection();
        services.AddScoped<UnitOfWork>();
        return services;
    }

    // CASE: the built provider under using.
    public static void ProviderDisposed()
    {
        using var provider = Services().BuildServiceProvider();
        provider.GetRequiredService<UnitOfWork>();
    }

    // CASE: the built provider never disposed.
    public static object ProviderLeaked()
    {
        var provider = Services().BuildServiceProvider(); // expect: RLC0001
        return provider.GetService(typeof(UnitOfWork));
    }

    // CASE: a scope under using; the resolved service belongs to the scope.
    public static void ScopeDisposed(IServiceProvider provider)
    {
        using var scope = provider.CreateScope();
        var work = scope.ServiceProvider.GetRequiredService<UnitOfWork>();
        work.Save();
    }

    // CASE: a scope never disposed.
    public static void ScopeLeaked(IServiceProvider provider)
    {
        var scope = provider.CreateScope(); // expect: RLC0001
        scope.ServiceProvider.GetRequiredService<UnitOfWork>().Save();
    }

    // CASE: an async scope with `await using`.
    public static async Task AsyncScope(IServiceProvider provider)
    {
        await using var scope = provider.CreateAsyncScope();
        var work = scope.ServiceProvider.GetRequiredService<UnitOfWork>();
        await Task.Yield();
        work.Save();
    }

    // CASE: GetService results are not owning, even for disposable services.
    public static void ResolvedServiceNotOwned(IServiceProvider provider)
    {
        var work = provider.GetService<UnitOfWork>();
        work?.Save();
    }

    // CASE: disposing a resolved service is allowed (never a leak).
    public static void ResolvedServiceDisposed(IServiceProvider provider)
    {
        var work = provider.GetRequiredService<UnitOfWork>();
        work.Dispose();
    }

    // CASE: a factory registration returns a fresh resource to the container.
    public static void RegisterFactory(IServiceCollection services, string path)
    {
        services.AddSingleton<Stream>(_ => File.OpenRead(path));
    }

    // CASE: a service created with `new` by the caller is the caller's to dispose.
    public static void NewedServiceLeaked()
    {
        var work = new UnitOfWork(); // expect: RLC0001
        work.Save();
    }
}
