import MindPadRules

extension GameServer {
    /// `GET /metrics`: refreshes the gauges read from live state (on the
    /// service thread, where that state lives), then answers the Prometheus
    /// text exposition format.
    func serveMetrics(_ request: HTTPRequest, _ responder: HTTPResponder) {
        guard request.method == .get || request.method == .head else {
            responder.respond(.methodNotAllowed(allow: [.get]))
            return
        }
        let metrics = ServerMetrics.shared
        if let realtime {
            metrics.connections.set(to: Double(realtime.sessions.count))
            metrics.rooms.set(to: Double(realtime.rooms.count))
            metrics.racesRunning.set(to: Double(realtime.rooms.values.reduce(0) { n, room in
                switch room.race.phase {
                case .countdown, .running: n + 1
                default: n
                }
            }))
            metrics.recognitionBacklog.set(to: Double(realtime.recognition.backlog))
            if let recorder = realtime.results as? ResultRecorder {
                metrics.journalBacklog.set(to: Double(recorder.backlog))
            }
        }
        responder.respond(HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                                       headers: [("cache-control", "no-store")], body: metrics.render()))
    }
}
