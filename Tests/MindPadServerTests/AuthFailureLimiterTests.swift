import Foundation
import MindPadServer
import Testing

@Suite struct AuthFailureLimiterTests {
    @Test func blocksAnAddressAfterRepeatedFailuresUntilTheWindowPasses() {
        var limiter = AuthFailureLimiter(maxFailures: 3, window: 60)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        for i in 0..<3 {
            #expect(limiter.retryAfter("a", now: t0 + Double(i)) == nil)
            limiter.recordFailure("a", now: t0 + Double(i))
        }
        #expect(limiter.retryAfter("a", now: t0 + 3) == 57)
        #expect(limiter.retryAfter("b", now: t0 + 3) == nil)   // others are unaffected
        #expect(limiter.retryAfter("a", now: t0 + 60) == nil)  // the first failure aged out
    }

    @Test func successClearsTheRecord() {
        var limiter = AuthFailureLimiter(maxFailures: 2, window: 60)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        limiter.recordFailure("a", now: t0)
        limiter.recordSuccess("a")
        limiter.recordFailure("a", now: t0 + 1)
        #expect(limiter.retryAfter("a", now: t0 + 2) == nil)
    }
}
