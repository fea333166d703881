@testable import MindPadHTTP
import Foundation
import MindPadServer
import Testing

@Suite struct AuthFailureLimiterTests {
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    @Test func blocksAnAddressAfterRepeatedFailuresUntilTheWindowPasses() {
        var limiter = AuthFailureLimiter(maxFailures: 3, window: 60)
        for i in 0..<3 {
            #expect(limiter.retryAfter(.adminReset, "a", now: t0 + Double(i)) == nil)
            limiter.recordFailure(.adminReset, "a", now: t0 + Double(i))
        }
        #expect(limiter.retryAfter(.adminReset, "a", now: t0 + 3) == 57)
        #expect(limiter.retryAfter(.adminReset, "b", now: t0 + 3) == nil)   // others are unaffected
        #expect(limiter.retryAfter(.adminReset, "a", now: t0 + 60) == nil)  // the first failure aged out
    }

    @Test func purposesCountApart() {
        var limiter = AuthFailureLimiter(maxFailures: 5, window: 300)
        for i in 0..<5 { limiter.recordFailure(.playerToken, "a", now: t0 + Double(i)) }
        #expect(limiter.retryAfter(.playerToken, "a", now: t0 + 5) != nil)
        // Five wrong player tokens do not lock the operator out.
        #expect(limiter.retryAfter(.adminReset, "a", now: t0 + 5) == nil)
        for i in 0..<5 { limiter.recordFailure(.adminReset, "b", now: t0 + Double(i)) }
        #expect(limiter.retryAfter(.adminReset, "b", now: t0 + 5) != nil)
        #expect(limiter.retryAfter(.playerToken, "b", now: t0 + 5) == nil)
    }

    @Test func successClearsOnlyItsOwnPurpose() {
        var limiter = AuthFailureLimiter(maxFailures: 2, window: 60)
        limiter.recordFailure(.adminReset, "a", now: t0)
        limiter.recordFailure(.playerToken, "a", now: t0)
        limiter.recordSuccess(.adminReset, "a")
        limiter.recordFailure(.adminReset, "a", now: t0 + 1)
        limiter.recordFailure(.playerToken, "a", now: t0 + 1)
        #expect(limiter.retryAfter(.adminReset, "a", now: t0 + 2) == nil)
        #expect(limiter.retryAfter(.playerToken, "a", now: t0 + 2) != nil)
    }

    @Test func aFloodOfAddressesIsBounded() {
        var limiter = AuthFailureLimiter(maxFailures: 1, window: 60, maxAddresses: 10)
        limiter.recordFailure(.playerToken, "quiet", now: t0)
        for i in 0..<20 { limiter.recordFailure(.playerToken, "x\(i)", now: t0 + 1 + Double(i)) }
        #expect(limiter.retryAfter(.playerToken, "quiet", now: t0 + 30) == nil)
        #expect(limiter.retryAfter(.playerToken, "x19", now: t0 + 30) != nil)
    }
}

@Suite struct TrustedProxiesTests {
    @Test func withoutProxiesThePeerIsTheClient() throws {
        let none = try TrustedProxies(parsing: "")
        #expect(none.clientAddress(peer: "203.0.113.7", forwardedFor: "198.51.100.1") == "203.0.113.7")
    }

    @Test func theRightmostUntrustedEntryIsTheClient() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8, 127.0.0.1, fd00::/8")
        // The client wrote the first entry itself; only the proxy's is believed.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "1.1.1.1, 198.51.100.9") == "198.51.100.9")
        // A chain of trusted proxies is walked through.
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: "198.51.100.9, 10.9.9.9") == "198.51.100.9")
        #expect(proxies.clientAddress(peer: "::ffff:10.1.2.3", forwardedFor: "2001:db8::5") == "2001:db8::5")
        #expect(proxies.clientAddress(peer: "fd12::1", forwardedFor: " 198.51.100.9 ") == "198.51.100.9")
        // Nobody else's header counts.
        #expect(proxies.clientAddress(peer: "203.0.113.7", forwardedFor: "10.0.0.1") == "203.0.113.7")
        // Garbage stops the walk at the last address believed.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "198.51.100.9, not-an-ip") == "127.0.0.1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
    }

    @Test(arguments: ["10.0.0.0/33", "nonsense", "::1/129", "1.2.3.4/x"])
    func badEntriesAreRefused(entry: String) {
        #expect(throws: TrustedProxies.ParseError.self) { try TrustedProxies(parsing: "127.0.0.1, " + entry) }
    }
}
