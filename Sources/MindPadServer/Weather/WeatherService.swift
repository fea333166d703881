import Dispatch
import Foundation
import Logging
import MindPadStorage
import Synchronization

/// What `GET /api/weather` answers.
public struct WeatherAnswer: Sendable, Equatable {
    public var look: WeatherLook
    /// The provider's name, or `clock` when the look comes from the time.
    public var source: String
    public var place: String
    /// When the provider observed it; nil for the clock.
    public var observedAt: Date?
}

/// The aquarium's weather, answered at once from what is known: a report
/// younger than `fresh` (15 minutes), else a look from the clock. Asking
/// starts a background refresh when one is due (the cached report is older
/// than `fresh`, or none was ever fetched and the last failure is older
/// than `retryAfterFailure`); at most one runs at a time, and one that has
/// not ended by `timeout` plus a second is given up (its late answer is
/// ignored). A failed refresh drops the cached report: a provider that is
/// down, slow or answers garbage gives the clock's look, never stale
/// weather. No provider (`MINDPAD_WEATHER_PROVIDER=none`) always gives the
/// clock's look.
///
/// Called from the service thread; it only reads and writes its state
/// under a lock and hands the fetch to another thread.
public final class WeatherService: Sendable {
    public let place: WeatherPlace
    public let provider: (any WeatherProvider)?
    let fresh: Duration
    let retryAfterFailure: Duration
    let timeout: Duration
    let timeZone: TimeZone
    let now: @Sendable () -> Date
    let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var report: WeatherReport?
        /// When `report` was fetched (its age counts from then: a provider
        /// may report an observation that is itself a few minutes old).
        var fetchedAt: Date?
        var lastFailure: Date?
        /// The refresh under way, by number; a late answer of an abandoned
        /// one carries an older number and is ignored.
        var refreshing: UInt64?
        var generation: UInt64 = 0
    }

    public init(place: WeatherPlace, provider: (any WeatherProvider)?, fresh: Duration = .seconds(15 * 60),
                retryAfterFailure: Duration = .seconds(60), timeout: Duration = .seconds(3),
                timeZone: TimeZone? = nil, logger: Logger = Logger(label: "mindpad.weather"),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.place = place
        self.provider = provider
        self.fresh = fresh
        self.retryAfterFailure = retryAfterFailure
        self.timeout = timeout
        self.timeZone = timeZone ?? place.timeZone
        self.logger = logger
        self.now = now
    }

    /// The answer now, without waiting; starts a refresh if one is due.
    public func current() -> WeatherAnswer {
        let at = now()
        let (report, start) = state.withLock { s -> (WeatherReport?, UInt64?) in
            let isFresh = s.fetchedAt.map { Self.seconds(at.timeIntervalSince($0)) < fresh } ?? false
            var start: UInt64?
            if provider != nil, s.refreshing == nil, !isFresh,
               s.lastFailure.map({ Self.seconds(at.timeIntervalSince($0)) >= retryAfterFailure }) ?? true {
                s.generation += 1
                s.refreshing = s.generation
                start = s.generation
            }
            return (s.report, start)
        }
        if let start { refresh(start) }
        if let report, let provider {
            return WeatherAnswer(look: report.look, source: provider.name, place: place.name, observedAt: report.observedAt)
        }
        return WeatherAnswer(look: .byClock(at, in: timeZone), source: "clock", place: place.name, observedAt: nil)
    }

    /// Starts a refresh unless one is running or the report is fresh: the
    /// server calls it at start, so the first visitor already sees the weather.
    public func prefetch() { _ = current() }

    /// Whether a refresh is under way (for tests and `/metrics`).
    public var isRefreshing: Bool { state.withLock { $0.refreshing != nil } }

    private func refresh(_ number: UInt64) {
        guard let provider else { return }
        let place = self.place
        let timeout = self.timeout
        // Off the caller's thread: a provider may do work before it returns.
        DispatchQueue.global().async { [self] in
            provider.fetch(place, timeout: timeout) { [self] result in finish(number, result) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int((timeout + .seconds(1)).wholeNanoseconds))) { [self] in
            finish(number, .failure(WeatherError(.timedOut, "the provider did not answer within \(timeout)")))
        }
    }

    private func finish(_ number: UInt64, _ result: Result<WeatherReport, WeatherError>) {
        let at = now()
        let ended = state.withLock { s -> Bool in
            guard s.refreshing == number else { return false }
            s.refreshing = nil
            switch result {
            case .success(let report):
                s.report = report
                s.fetchedAt = at
                s.lastFailure = nil
            case .failure:
                s.report = nil
                s.fetchedAt = nil
                s.lastFailure = at
            }
            return true
        }
        guard ended else { return }
        switch result {
        case .success(let report):
            logger.debug("weather refreshed", metadata: ["look": "\(report.look.rawValue)", "place": "\(place.name)"])
        case .failure(let error):
            logger.warning("weather unavailable; the clock chooses the look", metadata: [
                "provider": "\(provider?.name ?? "-")", "reason": "\(error.code.rawValue)", "detail": "\(error.description)",
            ])
        }
    }

    private static func seconds(_ interval: TimeInterval) -> Duration { .milliseconds(Int64(interval * 1000)) }
}
