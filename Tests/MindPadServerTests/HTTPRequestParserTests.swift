@testable import MindPadHTTP
@testable import MindPadServer
import Testing

/// The parser alone, fed as a network would: whole, split anywhere, one
/// byte at a time.
@Suite struct HTTPRequestParserTests {
    private func parse(_ text: String, limits: HTTPRequestParser.Limits = .init(), byteByByte: Bool = false)
        -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPRequestParser.Event] = []
        let chunks: [[UInt8]] = byteByByte ? text.utf8.map { [$0] } : [Array(text.utf8)]
        for chunk in chunks {
            parser.append(chunk)
            while true {
                let event = parser.next()
                if case .needMore = event { break }
                events.append(event)
                if case .request = event { parser.startNextRequest() }
                if case .failure = event { return events }
            }
        }
        return events
    }

    private func requests(_ events: [HTTPRequestParser.Event]) -> [HTTPRequestParser.Request] {
        events.compactMap { if case .request(let r) = $0 { r } else { nil } }
    }

    private func failure(_ events: [HTTPRequestParser.Event]) -> HTTPRequestError? {
        events.compactMap { if case .failure(let e) = $0 { e } else { nil } }.first
    }

    @Test(arguments: [false, true])
    func pipelinedRequestsWithEveryFramingComeOutWhole(byteByByte: Bool) {
        let text = "\r\nPOST /a HTTP/1.1\r\nHost: h\r\n\r\n"
            + "PUT /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
            + "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nde\r\n1\r\nf\r\n0\r\nT: 1\r\n\r\n"
            + "GET /d?q=1 HTTP/1.0\n\n"
        let got = requests(parse(text, byteByByte: byteByByte))
        #expect(got.map(\.head.target) == ["/a", "/b", "/c", "/d?q=1"])
        #expect(got.map { String(decoding: $0.body, as: UTF8.self) } == ["", "abc", "def", ""])
        #expect(got.map(\.head.keepAlive) == [true, true, true, false])
    }

    @Test func expectContinueIsAskedForBeforeTheBody() {
        let events = parse("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok")
        guard events.count == 2, case .sendContinue = events[0], case .request(let r) = events[1] else {
            Issue.record("expected continue then request: \(events)")
            return
        }
        #expect(r.body == Array("ok".utf8))
    }

    @Test(arguments: [
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 70000\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: h\r\nExpect: magic\r\n\r\n", 417),
        ("GET / HTTP/3.0\r\nHost: h\r\n\r\n", 505),
        ("GET / HTTP/1.1\rHost: h\r\n\r\n", 400),
        ("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\n", 414),
        ("GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "X-A: b\r\n", count: 101) + "\r\n", 431),
    ])
    func malformedOrOversizedRequestsFail(text: String, status: Int) {
        #expect(failure(parse(text))?.status == status)
        #expect(failure(parse(text, byteByByte: true))?.status == status)
    }

    @Test func headFailuresAreKnownBeforeTheBodyArrives() {
        // Only the head: the 413 does not wait for 10 MB that never come.
        #expect(failure(parse("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 10485760\r\n\r\n"))?.closesConnection == true)
    }

    @Test func targetsDecodeOnceAfterSplitting() throws {
        let t = try HTTPRequestTarget.parse("/api/players/%255A%2Fb/./x/../y?n%26=a%3Db+c&n=2&flag")
        #expect(t.segments == ["api", "players", "%5A/b", "y"])
        #expect(t.queryItems.map(\.name) == ["n&", "n", "flag"])
        #expect(t.queryItems.map(\.value) == ["a=b c", "2", ""])
        #expect(try HTTPRequestTarget.parse("http://example.org:8080/healthz?x=1").path == "/healthz")
        #expect(throws: HTTPRequestError.self) { try HTTPRequestTarget.parse("*") }
    }

    @Test(arguments: ["/a%00", "/a%0a", "/a?b=%0D", "/a?%7F=1", "/%C2%9B", "/a%", "/a%zz", "/%C3", "/a b", "/a#f", "a", "/ä"])
    func badTargetsAre400(target: String) {
        #expect(throws: HTTPRequestError.self) { try HTTPRequestTarget.parse(target) }
    }
}
