import Foundation

/// Slows down guessing: after `maxFailures` failed authentications from one
/// address within `window`, that address is refused (429) until the oldest
/// failure leaves the window. Service-thread state; the clock is injected.
public struct AuthFailureLimiter: Sendable {
    public var maxFailures: Int
    public var window: TimeInterval
    private var failures: [String: [Date]] = [:]

    public init(maxFailures: Int = 5, window: TimeInterval = 300) {
        self.maxFailures = maxFailures
        self.window = window
    }

    /// Seconds until `address` may try again, or nil when it may now.
    public mutating func retryAfter(_ address: String, now: Date) -> Int? {
        prune(address, now: now)
        guard let list = failures[address], list.count >= maxFailures, let oldest = list.first else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    public mutating func recordFailure(_ address: String, now: Date) {
        prune(address, now: now)
        failures[address, default: []].append(now)
        // Bound memory: a flood of addresses forgets the quietest first.
        if failures.count > 10_000, let victim = failures.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
            failures[victim] = nil
        }
    }

    public mutating func recordSuccess(_ address: String) {
        failures[address] = nil
    }

    private mutating func prune(_ address: String, now: Date) {
        guard var list = failures[address] else { return }
        list.removeAll { now.timeIntervalSince($0) >= window }
        failures[address] = list.isEmpty ? nil : list
    }
}
