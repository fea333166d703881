import Foundation
@testable import MindPadServer
import MindPadTestSupport
import Testing

/// The Open-Meteo provider against a stub HTTP server on a real loopback
/// socket: a good answer, a slow one, failing ones and garbage. Never the
/// internet.
@Suite struct WeatherProviderTests {
    static let good = #"{"latitude":43.15,"longitude":-77.6,"current":{"time":1795003200,"interval":900,"weather_code":71,"is_day":1,"temperature_2m":-2.5}}"#

    /// Runs one fetch and waits for its one completion.
    private func fetch(_ url: String, timeout: Duration = .seconds(3)) throws -> Result<WeatherReport, WeatherError> {
        let provider = OpenMeteoProvider(endpoint: try #require(URL(string: url)))
        let done = DispatchSemaphore(value: 0)
        let results = ResultBox()
        provider.fetch(.rochester, timeout: timeout) { result in
            results.append(result)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the provider always completes")
        return try #require(results.first)
    }

    @Test func aGoodAnswerIsReadAndTheRightQuestionWasAsked() throws {
        let stub = try StubHTTPServer(.answer(status: 200, body: Self.good))
        defer { stub.stop() }
        let result = try fetch(stub.url)
        #expect(result == .success(WeatherReport(look: .snow, observedAt: Date(timeIntervalSince1970: 1_795_003_200))))
        let target = try #require(stub.requests.first)
        let query = try #require(URLComponents(string: target)?.queryItems)
        #expect(target.hasPrefix("/v1/forecast?"))
        #expect(query.first { $0.name == "latitude" }?.value == "43.1566")
        #expect(query.first { $0.name == "longitude" }?.value == "-77.6088")
        #expect(query.first { $0.name == "current" }?.value == "weather_code,is_day,temperature_2m")
        #expect(query.first { $0.name == "timeformat" }?.value == "unixtime")
    }

    @Test func aProviderThatDoesNotAnswerIsCutOffAtTheTimeout() throws {
        let stub = try StubHTTPServer(.hang)
        defer { stub.stop() }
        let result = try fetch(stub.url, timeout: .milliseconds(300))
        #expect(result.failure?.code == .timedOut)
        #expect(stub.requests.count == 1)
    }

    @Test func aServerErrorIsAFailure() throws {
        let stub = try StubHTTPServer(.answer(status: 500, body: #"{"error":true,"reason":"down"}"#))
        defer { stub.stop() }
        #expect(try fetch(stub.url).failure?.code == .status)
    }

    @Test func aRefusedConnectionIsUnreachable() throws {
        #expect(try fetch("http://127.0.0.1:\(try closedLocalPort())/v1/forecast").failure?.code == .unreachable)
    }

    @Test(arguments: [
        "<html>Service Unavailable</html>",
        "",
        "[1,2,3]",
        #"{"current":null}"#,
        #"{"current":{"weather_code":"3","is_day":1,"time":1795003200}}"#,
        #"{"current":{"weather_code":3.5,"is_day":1,"time":1795003200}}"#,
        #"{"current":{"weather_code":3,"is_day":2,"time":1795003200}}"#,
        #"{"current":{"weather_code":3,"is_day":1}}"#,
        #"{"current":{"weather_code":3,"is_day":1,"time":"yesterday"}}"#,
        #"{"current":{"weather_code":42,"is_day":1,"time":1795003200}}"#,
        #"{"current":{"weather_code":-1,"is_day":0,"time":1795003200}}"#,
    ])
    func garbageIsUnusable(body: String) throws {
        let stub = try StubHTTPServer(.answer(status: 200, body: body))
        defer { stub.stop() }
        #expect(try fetch(stub.url).failure?.code == .unusable)
    }

    @Test func openMeteosOwnTimeFormatIsReadAsUTC() throws {
        let report = try OpenMeteoProvider.report(Array(#"{"current":{"time":"2026-11-23T10:15","weather_code":2,"is_day":0}}"#.utf8))
        #expect(report == WeatherReport(look: .night, observedAt: Date(timeIntervalSince1970: 1_795_428_900)))
    }

    @Test func anOverlongAnswerIsUnusable() {
        let body = Array(#"{"current":{"weather_code":0,"is_day":1,"time":1},"pad":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "x"), count: 70_000) + Array(#""}"#.utf8)
        #expect(throws: WeatherError.self) { try OpenMeteoProvider.report(body) }
    }
}

/// The WMO table and the clock.
@Suite struct WeatherLookTests {
    @Test(arguments: [
        (0, WeatherLook.sunny, WeatherLook.night), (1, .sunny, .night), (2, .cloudy, .night), (3, .cloudy, .night),
        (45, .cloudy, .night), (48, .cloudy, .night), (51, .rain, .rain), (57, .rain, .rain), (61, .rain, .rain),
        (65, .rain, .rain), (67, .rain, .rain), (80, .rain, .rain), (82, .rain, .rain), (95, .rain, .rain),
        (99, .rain, .rain), (71, .snow, .snow), (75, .snow, .snow), (77, .snow, .snow), (85, .snow, .snow), (86, .snow, .snow),
    ])
    func wmoCodes(code: Int, day: WeatherLook, night: WeatherLook) {
        #expect(WeatherLook(wmoCode: code, isDay: true) == day)
        #expect(WeatherLook(wmoCode: code, isDay: false) == night)
    }

    @Test(arguments: [-1, 4, 10, 42, 50, 60, 70, 100, 255])
    func codesOutsideTheTableAreNotGuessed(code: Int) {
        #expect(WeatherLook(wmoCode: code, isDay: true) == nil)
    }

    @Test func theClockSaysNightFromSevenToSix() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        func at(_ hour: Int, _ minute: Int) -> Date {
            calendar.date(from: DateComponents(year: 2026, month: 11, day: 23, hour: hour, minute: minute))!
        }
        #expect(WeatherLook.byClock(at(5, 59), in: newYork) == .night)
        #expect(WeatherLook.byClock(at(6, 0), in: newYork) == .sunny)
        #expect(WeatherLook.byClock(at(18, 59), in: newYork) == .sunny)
        #expect(WeatherLook.byClock(at(19, 0), in: newYork) == .night)
        #expect(WeatherLook.byClock(at(0, 0), in: newYork) == .night)
        // The same moment is another hour elsewhere.
        #expect(WeatherLook.byClock(at(12, 0), in: try #require(TimeZone(identifier: "Asia/Shanghai"))) == .night)
    }

    @Test func theFallbackFollowsThePlacesClockNotTheServers() throws {
        // 02:00 UTC is 21:00 in Rochester (night) and 10:00 in Shanghai (day),
        // whatever zone the server runs in.
        let at = Date(timeIntervalSince1970: 1_795_312_800)  // 2026-11-22 02:00 UTC
        let shanghai = try WeatherPlace(place: "Shanghai", latlon: "31.23,121.47")
        #expect(shanghai.timeZone.secondsFromGMT(for: at) == 8 * 3600)
        #expect(WeatherService(place: shanghai, provider: nil, now: { at }).current().look == .sunny)
        let rochester = WeatherService(place: .rochester, provider: nil, now: { at }).current()
        #expect(rochester.look == .night && rochester.source == "clock")
        #expect(WeatherPlace.rochester.timeZone.secondsFromGMT(for: at) == -5 * 3600)
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<WeatherReport, WeatherError>] = []
    func append(_ r: Result<WeatherReport, WeatherError>) { lock.withLock { results.append(r) } }
    var first: Result<WeatherReport, WeatherError>? { lock.withLock { results.first } }
}

extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
