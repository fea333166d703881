import Foundation
@testable import MindPadServer
import Synchronization
import Testing

/// A provider the test answers by hand: every fetch waits in `pending`
/// until the test completes it (or never does).
final class ManualWeatherProvider: WeatherProvider {
    let name = "manual"
    private let pending = Mutex<[@Sendable (Result<WeatherReport, WeatherError>) -> Void]>([])
    private let started = Atomic<Int>(0)

    func fetch(_ place: WeatherPlace, timeout: Duration,
               completion: @escaping @Sendable (Result<WeatherReport, WeatherError>) -> Void) {
        pending.withLock { $0.append(completion) }
        started.add(1, ordering: .relaxed)
    }

    /// Fetches started so far.
    var fetches: Int { started.load(ordering: .relaxed) }

    /// Waits (on the condition, up to 10 s) until `count` fetches started.
    func waitForFetches(_ count: Int) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while fetches < count && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return fetches >= count
    }

    /// Completes the oldest fetch still waiting.
    func complete(_ result: Result<WeatherReport, WeatherError>) {
        let next = pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        next?(result)
    }
}

/// A clock the test moves.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_795_003_200))  // 12:00 UTC
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

@Suite struct WeatherServiceTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let snow = WeatherReport(look: .snow, observedAt: Date(timeIntervalSince1970: 1_795_003_000))

    /// The provider's time limit is a minute unless a test is about it: on a
    /// loaded machine a test's own steps can take longer than 3 s, and a
    /// refresh that timed out in between failed a test about something else.
    private func service(_ provider: (any WeatherProvider)?, _ clock: TestClock,
                         timeout: Duration = .seconds(60)) -> WeatherService {
        WeatherService(place: .rochester, provider: provider, timeout: timeout, timeZone: Self.utc, now: { clock.now })
    }

    /// Waits (on the condition, up to 10 s) until no refresh is under way.
    private func settle(_ weather: WeatherService) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while weather.isRefreshing && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return !weather.isRefreshing
    }

    @Test func withoutAProviderTheClockChooses() {
        let clock = TestClock()
        let weather = service(nil, clock)
        #expect(weather.current() == WeatherAnswer(look: .sunny, source: "clock", place: "Rochester, NY", observedAt: nil))
        clock.advance(8 * 3600)  // 20:00
        #expect(weather.current().look == .night)
        #expect(!weather.isRefreshing)
    }

    @Test func answersAtOnceWhileTheProviderThinksAndOneRefreshRunsAtATime() throws {
        let clock = TestClock(), provider = ManualWeatherProvider()
        let weather = service(provider, clock)
        // The provider has not answered: the clock's look, and one fetch.
        #expect(weather.current().source == "clock")
        #expect(provider.waitForFetches(1))
        for _ in 0..<5 { #expect(weather.current().source == "clock") }
        #expect(weather.isRefreshing)
        #expect(provider.fetches == 1)

        provider.complete(.success(Self.snow))
        #expect(settle(weather))
        let answer = weather.current()
        #expect(answer == WeatherAnswer(look: .snow, source: "manual", place: "Rochester, NY", observedAt: Self.snow.observedAt))
        // Fresh for 15 minutes: no new fetch.
        clock.advance(14 * 60)
        #expect(weather.current().look == .snow)
        #expect(provider.fetches == 1)
        // Stale: a refresh starts, and the last report stands meanwhile.
        clock.advance(61)
        #expect(weather.current().look == .snow)
        #expect(provider.waitForFetches(2))
        #expect(weather.current().look == .snow)
        #expect(provider.fetches == 2)
        // It fails: the clock, never stale weather.
        provider.complete(.failure(WeatherError(.status, "HTTP 500")))
        #expect(settle(weather))
        #expect(weather.current() == WeatherAnswer(look: .sunny, source: "clock", place: "Rochester, NY", observedAt: nil))
        // No retry for a minute after a failure, then one.
        clock.advance(59)
        _ = weather.current()
        #expect(provider.fetches == 2)
        clock.advance(1)
        _ = weather.current()
        #expect(provider.waitForFetches(3))
    }

    /// A provider that never calls back is given up after its timeout and
    /// a second; its late answer changes nothing.
    @Test func aProviderThatNeverAnswersIsGivenUp() {
        let clock = TestClock(), provider = ManualWeatherProvider()
        let weather = service(provider, clock, timeout: .milliseconds(50))
        #expect(weather.current().source == "clock")
        #expect(provider.waitForFetches(1))
        #expect(settle(weather))
        provider.complete(.success(Self.snow))
        #expect(weather.current().source == "clock")
        #expect(provider.fetches == 1)
    }
}
