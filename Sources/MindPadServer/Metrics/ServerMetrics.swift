import Foundation
import Prometheus
import Synchronization

/// The server's Prometheus series, served at `GET /metrics` in the text
/// format. The application makes one and hands it to every part that
/// reports (no global); every method may be called from any thread.
///
/// | series | kind | labels |
/// |---|---|---|
/// | `mindpad_connections` | gauge | — WebSocket sessions open |
/// | `mindpad_rooms` | gauge | — rooms open |
/// | `mindpad_races_running` | gauge | — rooms whose race runs (or counts down) |
/// | `mindpad_messages_in_total` | counter | `type` (client message type, `invalid` when unreadable) |
/// | `mindpad_messages_out_total` | counter | `type` (server message type) |
/// | `mindpad_recognition_seconds` | histogram | — rasterize + infer, one drawing |
/// | `mindpad_recognition_backlog` | gauge | — drawings waiting for a worker |
/// | `mindpad_recognition_wait_seconds` | histogram | — a drawing's wait in the pool's queue for a worker |
/// | `mindpad_service_lag_seconds` | histogram | — how late the service thread ran a timer due every 50 ms (a long turn, or a wait for a core): what every connection waited |
/// | `mindpad_recognition_reused_total` | counter | — submits graded from their live guess's reading (the drawing unchanged), not read again |
/// | `mindpad_number_readings_cut_short_total` | counter | — number readings that ran into the work limit (`NumberReadingTuning.workLimit`): drawings that are no handwriting, such as scribbles |
/// | `mindpad_choices_offered_total` | counter | — submitted drawings read unsurely and offered as a choice of digits (`choice`, issue 43) |
/// | `mindpad_choices_taken_total` | counter | — choices answered by a tap (`choose`) and graded |
/// | `mindpad_db_query_seconds` | histogram | `operation` (`record_result`: hand-over to outcome; `record_results_batch`: one batch statement; `journal_commit`: one group's journal write + fsync; `apply_boards`: one boards statement after the results, migration 0013; `scores_api`) |
/// | `mindpad_result_batch_size` | histogram | — results written per batch statement |
/// | `mindpad_journal_backlog` | gauge | — results waiting in the journal |
/// | `mindpad_errors_total` | counter | `code`, `transport` (`ws`, `http`) |
/// | `mindpad_connections_refused_total` | counter | `reason` |
/// | `mindpad_slow_readers_total` | counter | `reason` (`messages`: 512 waiting; `bytes`: over `maxUnsentBytes` waiting; `stalled`: nothing taken for `stallSeconds`) — WebSocket clients disconnected for not reading |
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    public let connections: Gauge
    public let rooms: Gauge
    public let racesRunning: Gauge
    public let journalBacklog: Gauge
    public let recognitionBacklog: Gauge
    public let recognition: DurationHistogram
    public let recognitionWait: DurationHistogram
    public let serviceLag: DurationHistogram
    public let readingsReused: Counter
    public let numberReadingsCutShort: Counter
    /// Unsure readings offered as a choice of digits (`choice` sent), and
    /// the choices answered with a `choose` that was graded.
    public let choicesOffered: Counter
    public let choicesTaken: Counter
    /// Players' hands (issue 43): drawings learned, the time one learning
    /// takes on a recognition worker, and hands stored.
    public let handsLearned: Counter
    public let handLearning: DurationHistogram
    public let handsSaved: Counter
    public let resultBatchSize: ValueHistogram
    private let counters = Mutex<[String: Counter]>([:])
    /// The message counters by type alone: counted for every message on the
    /// service thread, where building `counter`'s key (an array, a joined
    /// string, its hash) was 2.3 % of the thread at 5,000 racers (issue 20).
    private let messageCounters = Mutex<[MessageCounterKey: Counter]>([:])
    private struct MessageCounterKey: Hashable {
        let outgoing: Bool
        let type: String
    }
    private let histograms = Mutex<[String: DurationHistogram]>([:])

    /// A metric name with its help text; units are part of the names here.
    static func name(_ metric: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric, unitName: "", helpText: help)
    }

    static let latencyBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    public init() {
        connections = registry.makeGauge(descriptor: Self.name("mindpad_connections", "WebSocket sessions open"))
        rooms = registry.makeGauge(descriptor: Self.name("mindpad_rooms", "Rooms open"))
        racesRunning = registry.makeGauge(descriptor: Self.name("mindpad_races_running", "Rooms whose race is counting down or running"))
        journalBacklog = registry.makeGauge(descriptor: Self.name("mindpad_journal_backlog", "Results waiting in the journal for the database"))
        recognitionBacklog = registry.makeGauge(descriptor: Self.name("mindpad_recognition_backlog", "Drawings waiting for a recognition worker"))
        recognition = registry.makeDurationHistogram(descriptor: Self.name("mindpad_recognition_seconds", "Rasterize plus infer, one drawing"), buckets: Self.latencyBuckets)
        recognitionWait = registry.makeDurationHistogram(descriptor: Self.name("mindpad_recognition_wait_seconds", "A drawing's wait in the recognition queue for a worker"),
                                                         buckets: Self.latencyBuckets)
        serviceLag = registry.makeDurationHistogram(descriptor: Self.name("mindpad_service_lag_seconds",
                                                                          "How late the service thread ran a timer due every 50 ms"),
                                                    buckets: Self.latencyBuckets)
        readingsReused = registry.makeCounter(descriptor: Self.name("mindpad_recognition_reused_total",
                                                                     "Submits graded from the reading of their live guess, the drawing unchanged"))
        numberReadingsCutShort = registry.makeCounter(descriptor: Self.name("mindpad_number_readings_cut_short_total",
                                                                            "Number readings that ran into the work limit: drawings that are no handwriting"))
        choicesOffered = registry.makeCounter(descriptor: Self.name("mindpad_choices_offered_total",
                                                                    "Submitted drawings read unsurely and offered as a choice of digits (choice sent)"))
        choicesTaken = registry.makeCounter(descriptor: Self.name("mindpad_choices_taken_total",
                                                                  "Choices answered by a tap (choose) and graded"))
        handsLearned = registry.makeCounter(descriptor: Self.name("mindpad_hand_learned_total",
                                                                  "Drawings a player's hand learned (a tapped choice, or a sure reading graded right)"))
        handLearning = registry.makeDurationHistogram(descriptor: Self.name("mindpad_hand_learn_seconds",
                                                                            "Teaching a player's hand one drawing, on a recognition worker"),
                                                      buckets: Self.latencyBuckets)
        handsSaved = registry.makeCounter(descriptor: Self.name("mindpad_hand_saved_total", "Players' hands written to the database"))
        resultBatchSize = registry.makeValueHistogram(descriptor: Self.name("mindpad_result_batch_size", "Results written per batch statement"),
                                                      buckets: [1, 2, 4, 8, 16, 32, 64, 128])
    }

    private func counter(_ name: String, _ labels: [(String, String)], help: String) -> Counter {
        let key = ([name] + labels.flatMap { [$0.0, $0.1] }).joined(separator: "\u{1}")
        return counters.withLock { cache in
            if let c = cache[key] { return c }
            let c = registry.makeCounter(descriptor: Self.name(name, help), labels: labels)
            cache[key] = c
            return c
        }
    }

    /// A client message arrived (`type` as the protocol names it).
    public func messageIn(_ type: String) {
        messageCounter(outgoing: false, type).increment()
    }

    /// A server message was queued for a client.
    public func messageOut(_ type: String) {
        messageCounter(outgoing: true, type).increment()
    }

    /// The counter of one message type, each way, from `messageCounters`
    /// once `counter` made it (two threads making it at once get the same one).
    private func messageCounter(outgoing: Bool, _ type: String) -> Counter {
        let key = MessageCounterKey(outgoing: outgoing, type: type)
        if let known = messageCounters.withLock({ $0[key] }) { return known }
        let made = outgoing
            ? counter("mindpad_messages_out_total", [("type", type)], help: "WebSocket messages sent, by type")
            : counter("mindpad_messages_in_total", [("type", type)], help: "WebSocket messages received, by type")
        messageCounters.withLock { $0[key] = made }
        return made
    }

    /// An error answered to a client, by its stable code.
    public func error(_ code: String, transport: String) {
        counter("mindpad_errors_total", [("code", code), ("transport", transport)], help: "Errors answered to clients, by code").increment()
    }

    /// A connection turned away before it could play.
    public func refused(_ reason: String) {
        counter("mindpad_connections_refused_total", [("reason", reason)], help: "Connections refused, by reason").increment()
    }

    /// A WebSocket client disconnected for not reading (1008).
    public func slowReader(_ reason: String) {
        counter("mindpad_slow_readers_total", [("reason", reason)], help: "WebSocket clients disconnected for not reading, by reason").increment()
    }

    /// One database round trip, from queueing to completion.
    public func databaseQuery(_ operation: String, _ duration: Duration) {
        let histogram = histograms.withLock { cache in
            if let h = cache[operation] { return h }
            let h = registry.makeDurationHistogram(
                descriptor: Self.name("mindpad_db_query_seconds", "Database jobs from queueing to completion, by operation"),
                labels: [("operation", operation)], buckets: Self.latencyBuckets)
            cache[operation] = h
            return h
        }
        histogram.record(duration)
    }

    /// The exposition text.
    public func render() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8192)
        registry.emit(into: &buffer)
        return buffer
    }
}
