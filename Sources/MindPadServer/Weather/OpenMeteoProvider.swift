import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MindPadJSON
import MindPadStorage
import Synchronization

/// Current weather from Open-Meteo's forecast API (no key, no account):
/// `GET {endpoint}?latitude=…&longitude=…&current=weather_code,is_day,temperature_2m&timeformat=unixtime`,
/// answered `{"current":{"time":1763892000,"weather_code":3,"is_day":1,…},…}`.
///
/// HTTP(S) goes through Foundation's `URLSession` (FoundationNetworking,
/// which drives libcurl on Linux): TLS, proxies (`https_proxy`) and
/// redirects without a line of protocol code here, on libcurl's own
/// threads, never the service thread. See docs/architecture.md, "Weather".
public final class OpenMeteoProvider: WeatherProvider {
    public static let defaultEndpoint = URL(string: "https://api.open-meteo.com/v1/forecast")!
    /// An answer longer than this is not the small object asked for.
    static let maxAnswerBytes = 64 * 1024

    public let name = "open-meteo"
    public let endpoint: URL
    private let session: URLSession

    public init(endpoint: URL = OpenMeteoProvider.defaultEndpoint) {
        self.endpoint = endpoint
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpAdditionalHeaders = ["Accept": "application/json", "User-Agent": "mindpad/\(MindPadVersion.current)"]
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// The request for `place`: the endpoint's own query kept, ours added.
    public func url(for place: WeatherPlace) -> URL? {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return nil }
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "latitude", value: String(place.latitude)),
            URLQueryItem(name: "longitude", value: String(place.longitude)),
            URLQueryItem(name: "current", value: "weather_code,is_day,temperature_2m"),
            URLQueryItem(name: "timeformat", value: "unixtime"),
        ]
        return components.url
    }

    public func fetch(_ place: WeatherPlace, timeout: Duration,
                      completion: @escaping @Sendable (Result<WeatherReport, WeatherError>) -> Void) {
        guard let url = url(for: place) else {
            return completion(.failure(WeatherError(.unreachable, "no valid URL from \(endpoint)")))
        }
        let request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: Double(timeout.wholeMilliseconds) / 1000)
        let once = Once(completion)
        let task = session.dataTask(with: request) { data, response, error in
            once.finish(Self.interpret(data: data, response: response, error: error))
        }
        // libcurl's own timeouts count from other moments (connect, idle):
        // the deadline is ours, and the request is cut off at it.
        let handle = TaskHandle(task)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(timeout.wholeNanoseconds))) {
            if once.finish(.failure(WeatherError(.timedOut, "no answer from \(url.host ?? "the provider") within \(timeout)"))) {
                handle.task.cancel()
            }
        }
        task.resume()
    }

    static func interpret(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<WeatherReport, WeatherError> {
        if let error {
            let code: WeatherError.Code = (error as? URLError)?.code == .timedOut ? .timedOut : .unreachable
            return .failure(WeatherError(code, "request failed: \(error.localizedDescription)"))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(WeatherError(.unreachable, "no HTTP answer"))
        }
        guard http.statusCode == 200 else {
            return .failure(WeatherError(.status, "HTTP \(http.statusCode)"))
        }
        do {
            return .success(try report(Array(data ?? Data())))
        } catch {
            return .failure(error)
        }
    }

    /// The report in an answer's body; `.unusable` for anything but a JSON
    /// object whose `current` has a known integer `weather_code`, `is_day`
    /// 0 or 1, and `time` in Unix seconds (or, without `timeformat`, as
    /// Open-Meteo's "2026-11-23T10:00" in GMT).
    static func report(_ body: [UInt8]) throws(WeatherError) -> WeatherReport {
        guard body.count <= maxAnswerBytes else {
            throw WeatherError(.unusable, "answer of \(body.count) bytes is too long")
        }
        guard let json = try? JSON.parse(body), let current = json["current"] else {
            throw WeatherError(.unusable, "answer is not a JSON object with \"current\"")
        }
        guard let code = current["weather_code"]?.integer else {
            throw WeatherError(.unusable, "current.weather_code is not a whole number")
        }
        guard let isDay = current["is_day"]?.integer, isDay == 0 || isDay == 1 else {
            throw WeatherError(.unusable, "current.is_day is not 0 or 1")
        }
        guard let look = WeatherLook(wmoCode: code, isDay: isDay == 1) else {
            throw WeatherError(.unusable, "current.weather_code \(code) is not a WMO weather code")
        }
        guard let observedAt = observationTime(current["time"]) else {
            throw WeatherError(.unusable, "current.time is not a time")
        }
        return WeatherReport(look: look, observedAt: observedAt)
    }

    private static func observationTime(_ value: JSON?) -> Date? {
        if let seconds = value?.integer { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        guard let text = value?.string else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: text)
    }
}

/// A completion that runs once, whichever of the answer and the deadline
/// comes first.
private final class Once: Sendable {
    private let completion: Mutex<(@Sendable (Result<WeatherReport, WeatherError>) -> Void)?>

    init(_ completion: @escaping @Sendable (Result<WeatherReport, WeatherError>) -> Void) {
        self.completion = Mutex(completion)
    }

    /// True when this call was the one that completed.
    @discardableResult
    func finish(_ result: Result<WeatherReport, WeatherError>) -> Bool {
        guard let run = completion.withLock({ c in defer { c = nil }; return c }) else { return false }
        run(result)
        return true
    }
}

/// A task to cancel from the deadline's thread: `cancel` is thread-safe.
private struct TaskHandle: @unchecked Sendable {
    let task: URLSessionDataTask
    init(_ task: URLSessionDataTask) { self.task = task }
}
