import MindPadHTTP
import Dispatch

extension GameServer {
    /// `GET /metrics`: refreshes the gauges read from live state (on the
    /// service thread, where that state lives), then reads the journal's
    /// backlog and renders the Prometheus text on another thread, so a slow
    /// disk never stalls the game.
    func serveMetrics(_ request: HTTPRequest, _ responder: HTTPResponder) {
        guard request.method == .get || request.method == .head else {
            responder.respond(.methodNotAllowed(allow: [.get]))
            return
        }
        let metrics = self.metrics
        if let realtime {
            metrics.connections.set(to: Double(realtime.sessionCount))
            metrics.rooms.set(to: Double(realtime.roomCount))
            metrics.racesRunning.set(to: Double(realtime.racingRoomCount))
        }
        let recognition = self.recognition
        let recorder = self.results as? ResultRecorder
        DispatchQueue.global().async {
            if let recognition { metrics.recognitionBacklog.set(to: Double(recognition.backlog)) }
            if let recorder { metrics.journalBacklog.set(to: Double(recorder.backlog)) }
            responder.respond(HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                                           headers: [("cache-control", "no-store")], body: metrics.render()))
        }
    }
}
