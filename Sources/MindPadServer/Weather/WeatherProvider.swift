import Foundation

/// What a provider saw: the look it maps to and when it was observed.
public struct WeatherReport: Sendable, Equatable {
    public var look: WeatherLook
    public var observedAt: Date

    public init(look: WeatherLook, observedAt: Date) {
        self.look = look
        self.observedAt = observedAt
    }
}

/// Why a provider has no report. `description` is for the log.
public struct WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No connection (refused, no route, DNS, TLS).
        case unreachable
        /// No whole answer within the timeout.
        case timedOut
        /// An HTTP status other than 200.
        case status
        /// An answer that is not the JSON expected, or names a weather
        /// code outside the WMO table.
        case unusable
    }

    public var code: Code
    public var description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// A source of current weather. The server calls it from a background
/// refresh (`WeatherService`), never while a request waits.
public protocol WeatherProvider: Sendable {
    /// What `GET /api/weather` reports as `source` for its answers.
    var name: String { get }

    /// Asks for the weather at `place` now. Calls `completion` exactly
    /// once, on any thread, within about `timeout`: a provider cuts its own
    /// request off at the deadline rather than leave it running.
    func fetch(_ place: WeatherPlace, timeout: Duration,
               completion: @escaping @Sendable (Result<WeatherReport, WeatherError>) -> Void)
}
