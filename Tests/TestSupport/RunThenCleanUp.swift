/// Runs `body`, then `cleanup` however `body` ended: a `defer` that can await (restarting a
/// server a test stopped, stopping reader threads).
public func runThenCleanUp<T>(_ body: () async throws -> T, cleanUp: () async -> Void) async throws -> T {
    do {
        let result = try await body()
        await cleanUp()
        return result
    } catch {
        await cleanUp()
        throw error
    }
}
