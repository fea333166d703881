@testable import MindPadHTTP
import MindPadJSON
import MindPadRecognition
import MindPadRules
import Testing
@testable import MindPadServer

/// The realtime hub in-process: a manual transport and clock, an in-memory
/// directory and result sink, the real recognizer on the calling thread,
/// and a seeded generator, so every room code, seed and question is the
/// same on every run.
final class HubHarness {
    let transport = ManualTransport()
    let directory = InMemoryPlayerDirectory()
    let sink: MemoryResultSink
    let recognizer: InlineRecognizer
    let hub: RealtimeHub
    private var nextConnection: UInt64 = 1

    /// `results`: where finished runs go instead of `sink`.
    init(options: RealtimeOptions = HubHarness.quickOptions, games: GameRegistry = HubHarness.games,
         journal: Bool = false, seed: UInt64 = 42, results: (any ResultSink)? = nil) throws {
        sink = MemoryResultSink(journal: journal)
        recognizer = try InlineRecognizer()
        hub = RealtimeHub(options: options, games: games, players: directory, results: results ?? sink, recognition: recognizer,
                          transport: transport, metrics: ServerMetrics(), random: SeededGenerator(seed: seed))
    }

    /// No countdown, one-minute Time Attack, the default pacing.
    static var quickOptions: RealtimeOptions {
        var options = RealtimeOptions()
        options.countdown = .zero
        options.timeAttackLength = .seconds(60)
        return options
    }

    /// MindPad and the test kinds.
    static var games: GameRegistry {
        var games = GameRegistry.standard
        games.register(QuickPick())
        return games
    }

    func connect(_ label: String) -> HubClient {
        defer { nextConnection += 1 }
        let client = HubClient(harness: self, connection: ConnectionID(nextConnection), label: label)
        hub.opened(client.connection)
        client.collect()
        _ = client.next("welcome")
        return client
    }

    func advance(by duration: RaceDuration) { transport.advance(by: duration) }
}

/// One connection to the in-process hub. Messages are parsed with the
/// project's JSON reader; `next` takes the first of a type that arrived.
final class HubClient {
    let harness: HubHarness
    let connection: ConnectionID
    let label: String
    private(set) var inbox: [JSON] = []
    private var received: [(at: RaceInstant, message: JSON)] = []
    /// Every message received so far, in order, with the time it was sent.
    var log: [(at: RaceInstant, message: JSON)] {
        collect()
        return received
    }

    init(harness: HubHarness, connection: ConnectionID, label: String) {
        self.harness = harness
        self.connection = connection
        self.label = label
    }

    /// Sends one message (an object of fields) and lets the hub finish what it causes.
    func send(_ fields: [(String, JSON)]) {
        sendText(JSON.object(fields).text)
    }

    func sendText(_ text: String) {
        harness.hub.received(text, from: connection)
        harness.transport.settle()
        collect()
    }

    /// Moves what the transport holds for this connection into the inbox.
    func collect() {
        for (at, text) in harness.transport.take(connection) {
            guard let message = try? JSON.parse(text) else {
                Issue.record("\(label) got invalid JSON: \(text)")
                continue
            }
            inbox.append(message)
            received.append((at, message))
        }
    }

    /// The first waiting message of `type` (removed from the inbox), or nil
    /// with a recorded issue.
    @discardableResult
    func next(_ type: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSON? {
        collect()
        guard let i = inbox.firstIndex(where: { $0["type"]?.string == type }) else {
            Issue.record("\(label): no \(type) in \(inbox.map { $0["type"]?.string ?? "?" })", sourceLocation: sourceLocation)
            return nil
        }
        return inbox.remove(at: i)
    }

    /// Every waiting message of `type`, removed from the inbox.
    func all(_ type: String) -> [JSON] {
        collect()
        let found = inbox.filter { $0["type"]?.string == type }
        inbox.removeAll { $0["type"]?.string == type }
        return found
    }

    /// The code of the first waiting `error` (removed).
    func errorCode(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        next("error", sourceLocation: sourceLocation)?["code"]?.string
    }

    var types: [String] {
        collect()
        return inbox.compactMap { $0["type"]?.string }
    }

    var closeCode: UInt16? { harness.transport.closed[connection]?.code }

    // MARK: Steps

    @discardableResult
    func identify(_ name: String, token: String? = nil) -> JSON? {
        var fields: [(String, JSON)] = [("type", .string("identify")), ("name", .string(name))]
        if let token { fields.append(("token", .string(token))) }
        send(fields)
        return next("identified")
    }

    /// Creates a room and returns its code.
    func createRoom(game: String? = nil, mode: String, maxPlayers: Int? = nil, fish: String? = nil, level: Int? = nil) -> String? {
        var fields: [(String, JSON)] = [("type", .string("create_room")), ("mode", .string(mode))]
        if let level { fields.append(("level", .int(level))) }
        if let game { fields.append(("game", .string(game))) }
        if let fish { fields.append(("fish", .string(fish))) }
        if let maxPlayers { fields.append(("max_players", .int(maxPlayers))) }
        send(fields)
        return next("room")?["code"]?.string
    }

    /// Streams a digit's strokes for `question` in batches of `perBatch`
    /// points, `every` apart on the manual clock.
    func draw(_ digit: Int, question: String, perBatch: Int = 4, every: RaceDuration = .milliseconds(20)) {
        draw(strokes: DigitTemplates.strokes(for: digit), question: question, perBatch: perBatch, every: every)
    }

    /// Writes `number` left to right, its digits side by side.
    func drawNumber(_ number: String, question: String, perBatch: Int = 16, every: RaceDuration = .milliseconds(50)) {
        draw(strokes: DigitTemplates.strokes(forNumber: number), question: question, perBatch: perBatch, every: every)
    }

    func draw(strokes: [[StrokePoint]], question: String, perBatch: Int, every: RaceDuration) {
        for (s, stroke) in strokes.enumerated() {
            for start in stride(from: 0, to: stroke.count, by: perBatch) {
                let part = stroke[start..<min(stroke.count, start + perBatch)]
                send([("type", .string("points")), ("question", .string(question)), ("stroke", .int(s)),
                      ("points", .array(part.map { .array([.double($0.x), .double($0.y)]) }))])
                harness.advance(by: every)
            }
        }
    }

    /// Identifies as `name`, opens a room of `game` alone, starts it and
    /// returns the first question.
    @discardableResult
    func startSolo(_ name: String, game: String? = nil, mode: String, fish: String? = nil, level: Int? = nil) -> JSON? {
        identify(name)
        _ = createRoom(game: game, mode: mode, fish: fish, level: level)
        send([("type", .string("start"))])
        return next("question")
    }

    func submit(_ question: String, answer: JSON? = nil) {
        var fields: [(String, JSON)] = [("type", .string("submit")), ("question", .string(question))]
        if let answer { fields.append(("answer", answer)) }
        send(fields)
    }
}

/// The digit a MindPad prompt hides.
func hiddenDigit(_ question: JSON?) -> Int {
    guard let p = question?["prompt"], let lhs = p["lhs"]?.integer, let rhs = p["rhs"]?.integer,
          let op = p["operation"]?.string, let position = p["hidden_position"]?.integer else { return -1 }
    let value: Int
    switch op {
    case "+": value = lhs + rhs
    case "-": value = lhs - rhs
    case "*": value = lhs * rhs
    default: value = lhs / rhs
    }
    let digits = Array(String(value))
    return Int(String(digits[position])) ?? -1
}
