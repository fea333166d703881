import Foundation

/// Polls `condition` every 10 ms until it holds; throws after `timeout`.
/// For state a test cannot be told about (a listener reconnected, a row
/// written by another thread): waiting on the condition, never a guess.
public func waitFor(_ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            throw TestEnvironmentError(description: "timed out after \(timeout) waiting for \(what)")
        }
        Thread.sleep(forTimeInterval: 0.01)
    }
}
