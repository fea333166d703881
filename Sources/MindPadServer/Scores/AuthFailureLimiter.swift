import Foundation

/// What a failed token check was for. Each purpose counts failures apart,
/// so guessing players' tokens cannot lock the operator out of the admin
/// reset, nor the other way round.
public enum AuthPurpose: String, Sendable, CaseIterable {
    /// Every `/api/admin/…` call with the operator's token (the reset
    /// gave the bucket its name).
    case adminReset = "admin_reset"
    /// Every call with a player's token: their own reset
    /// (`POST /api/players/{name}/highscores/reset`), their fish
    /// (`/api/players/{name}/fish…`) and the rest, and every one-time
    /// sign-in code tried (`POST /api/sign_in`). One bucket: a guess is a
    /// guess, whichever secret it is sent for.
    case playerToken = "player_token"
    /// A teacher's password at sign-in and a teacher's token on the
    /// classroom's routes (issue 46): one bucket, as for players.
    case teacher = "teacher"
}

/// Slows down guessing: after `maxFailures` failed authentications for one
/// purpose from one address within `window`, that address is refused (429)
/// for that purpose until the oldest failure leaves the window. The address
/// is the client's as `TrustedProxies` resolves it. Thread-confined by its
/// owner; the clock is injected.
public struct AuthFailureLimiter: Sendable {
    public var maxFailures: Int
    public var window: TimeInterval
    /// Addresses remembered per purpose; past it the quietest is forgotten.
    public var maxAddresses: Int
    private var failures: [AuthPurpose: [String: [Date]]] = [:]

    public init(maxFailures: Int = 5, window: TimeInterval = 300, maxAddresses: Int = 10_000) {
        self.maxFailures = maxFailures
        self.window = window
        self.maxAddresses = maxAddresses
    }

    /// Seconds until `address` may try `purpose` again, or nil when it may now.
    public mutating func retryAfter(_ purpose: AuthPurpose, _ address: String, now: Date) -> Int? {
        prune(purpose, address, now: now)
        guard let list = failures[purpose]?[address], list.count >= maxFailures, let oldest = list.first else {
            return nil
        }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    public mutating func recordFailure(_ purpose: AuthPurpose, _ address: String, now: Date) {
        prune(purpose, address, now: now)
        failures[purpose, default: [:]][address, default: []].append(now)
        // Bound memory: a flood of addresses forgets the quietest first.
        if let book = failures[purpose], book.count > maxAddresses,
           let victim = book.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
            failures[purpose]?[victim] = nil
        }
    }

    /// Forgets `address`'s failures for `purpose`. Only for a purpose whose
    /// success proves the caller is not guessing: anyone can succeed at a
    /// player reset with a player of their own, so that one never clears.
    public mutating func recordSuccess(_ purpose: AuthPurpose, _ address: String) {
        failures[purpose]?[address] = nil
    }

    private mutating func prune(_ purpose: AuthPurpose, _ address: String, now: Date) {
        guard var list = failures[purpose]?[address] else { return }
        list.removeAll { now.timeIntervalSince($0) >= window }
        failures[purpose]?[address] = list.isEmpty ? nil : list
    }
}
