import Foundation
import MindPadTestSupport
import Testing

/// `GET /api/weather` through the real server, its provider pointed at a
/// stub on a loopback socket (never the internet).
@Suite(.serialized) struct WeatherLiveTests {
    private func weather(_ live: LiveHTTPServer) throws -> [String: Any] {
        let r = try TestHTTP.request(port: live.port, path: "/api/weather")
        #expect(r.status == 200)
        #expect(r.headers["cache-control"] == "no-store")
        return try r.json()
    }

    @Test func theProvidersAnswerIsShownOnceItCame() throws {
        let stub = try StubHTTPServer(.answer(status: 200, body: WeatherProviderTests.good))
        defer { stub.stop() }
        let live = try LiveHTTPServer(environment: ["MINDPAD_WEATHER_PROVIDER": "open-meteo", "MINDPAD_WEATHER_URL": stub.url,
                                                    "MINDPAD_WEATHER_PLACE": "Harbin", "MINDPAD_WEATHER_LATLON": "45.75,126.65"])
        defer { live.stop() }
        // The server asked at start; wait for the answer to be in use.
        var body: [String: Any] = [:]
        let deadline = ContinuousClock.now + .seconds(10)
        repeat {
            body = try weather(live)
            if body["source"] as? String == "open-meteo" { break }
            Thread.sleep(forTimeInterval: 0.05)  // polling a condition, not hoping
        } while ContinuousClock.now < deadline
        #expect(body["source"] as? String == "open-meteo")
        #expect(body["look"] as? String == "snow")
        #expect(body["place"] as? String == "Harbin")
        #expect(body["observed_at"] as? String == "2026-11-18T12:00:00.000Z")
        #expect(stub.requests.count == 1, "cached: one request for many answers")
        #expect(stub.requests.first?.contains("latitude=45.75&longitude=126.65") == true)
    }

    /// The provider holds the request open and never answers: every
    /// request to the server is answered from the clock meanwhile.
    @Test func aHangingProviderNeverHoldsAnAnswerUp() throws {
        let stub = try StubHTTPServer(.hang)
        defer { stub.stop() }
        let live = try LiveHTTPServer(environment: ["MINDPAD_WEATHER_PROVIDER": "open-meteo", "MINDPAD_WEATHER_URL": stub.url])
        defer { live.stop() }
        let deadline = ContinuousClock.now + .seconds(10)
        while stub.requests.isEmpty && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(stub.requests.count == 1, "the server's refresh is waiting on the stub")
        for _ in 0..<3 {
            let body = try weather(live)
            #expect(body["source"] as? String == "clock")
            #expect(["sunny", "night"].contains(body["look"] as? String ?? ""))
            #expect(body["place"] as? String == "Rochester, NY")
            #expect(body["observed_at"] is NSNull)
        }
        #expect(stub.requests.count == 1, "one refresh at a time")
    }

    @Test func providerNoneAsksNobody() throws {
        let stub = try StubHTTPServer(.answer(status: 200, body: WeatherProviderTests.good))
        defer { stub.stop() }
        let live = try LiveHTTPServer(environment: ["MINDPAD_WEATHER_PROVIDER": "none", "MINDPAD_WEATHER_URL": stub.url])
        defer { live.stop() }
        for _ in 0..<3 { #expect(try weather(live)["source"] as? String == "clock") }
        #expect(stub.requests.isEmpty)
        let r = try TestHTTP.request(port: live.port, method: "POST", path: "/api/weather")
        #expect(r.status == 405)
        #expect(r.headers["allow"] == "GET, HEAD")
    }
}
